"""System checks of efuda's own (``manage.py check --deploy``)."""

from django.conf import settings
from django.core.checks import Error, Tags, Warning, register

from config.keys import refusal
from config.proxies import ProxyListError, parse_trusted, trusts_everyone


@register(Tags.security, deploy=True)
def secret_key_not_published(app_configs=None, **kwargs):
    reason = refusal(settings.SECRET_KEY, settings.BASE_DIR)
    if reason is None:
        return []
    return [Error(reason, id="efuda.E001")]


@register(Tags.security, deploy=True)
def trusted_proxies_named(app_configs=None, **kwargs):
    """efuda.E023: TRUSTED_PROXIES holds something that is no address; efuda.W023: it trusts
    every sender, so anyone who reaches the application server directly chooses the client
    address that the login lock-out and the PIN throttle count by."""
    try:
        networks = parse_trusted(getattr(settings, "TRUSTED_PROXIES", ()) or ())
    except ProxyListError as err:
        return [Error(str(err), id="efuda.E023")]
    if trusts_everyone(networks):
        return [
            Warning(
                "TRUSTED_PROXIES trusts every sender: anyone who reaches the application "
                "server directly can choose the client address that the login lock-out and "
                "the PIN throttle count by.",
                hint="Name only your proxies' addresses (docs/deploy.md, 'Trusted proxies').",
                id="efuda.W023",
            )
        ]
    return []
