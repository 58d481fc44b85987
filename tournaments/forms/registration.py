"""Forms of self-registration and check-in (services/events/registration.py, checkin.py)."""

from django import forms
from django.utils.translation import gettext_lazy as _


class RegisterForm(forms.Form):
    name = forms.CharField(max_length=64, required=False, label=_("Your name (as you play)"))


class DeskCodeForm(forms.Form):
    code = forms.CharField(max_length=20, label=_("The desk's code"))


class RegistrationSettingsForm(forms.Form):
    registration_open = forms.BooleanField(required=False, label=_("Players may register"))
    registration_closes = forms.DateTimeField(
        required=False,
        label=_("Registration closes (empty: when round 1 is drawn)"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
    )
    registration_cap = forms.IntegerField(
        required=False, min_value=1, max_value=999, label=_("Most players (empty: no limit)")
    )
    registration_anyone = forms.BooleanField(
        required=False,
        label=_("Anyone with an efuda account and the link (public tournaments only)"),
    )


class CheckInOpenForm(forms.Form):
    open = forms.TypedChoiceField(choices=[("1", "1"), ("0", "0")], coerce=lambda v: v == "1")
