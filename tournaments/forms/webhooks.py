"""A new webhook: its address and the language of its messages."""

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _


class WebhookForm(forms.Form):
    url = forms.CharField(
        label=_("Address"), max_length=500,
        help_text=_("https:// address of your bot or service; it must be reachable from the "
                    "internet."),
        widget=forms.URLInput(attrs={"placeholder": "https://", "autocomplete": "off"}),
    )  # fmt: skip
    language = forms.ChoiceField(label=_("Language of the messages"), choices=settings.LANGUAGES)
