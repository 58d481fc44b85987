"""A new personal API token: its name and what it may do."""

from django import forms
from django.utils.translation import gettext_lazy as _

from ..models import TokenScope


class ApiTokenForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=100)
    scope = forms.ChoiceField(
        label=_("access"), choices=TokenScope.choices, initial=TokenScope.READ,
        widget=forms.RadioSelect,
    )  # fmt: skip
