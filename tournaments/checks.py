"""System checks of efuda's own (``manage.py check --deploy``)."""

from django.conf import settings
from django.core.checks import Error, Tags, register

from config.keys import refusal


@register(Tags.security, deploy=True)
def secret_key_not_published(app_configs=None, **kwargs):
    reason = refusal(settings.SECRET_KEY, settings.BASE_DIR)
    if reason is None:
        return []
    return [Error(reason, id="efuda.E001")]
