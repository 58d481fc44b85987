"""Forms of the tournament pages (entries, rounds, timer, adjustments, staff, PINs)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from .fields import IdField, IntegerField
from .models import Club, ClubRuleSet, DrawMethod, StandingsMode


class TournamentForm(forms.Form):
    name = forms.CharField(max_length=100, label=_("Name"))
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))
    ruleset = forms.ModelChoiceField(queryset=ClubRuleSet.objects.none(), label=_("Rule set"))
    rounds_planned = IntegerField(min_value=1, max_value=30, initial=4, label=_("Rounds"))
    deals_per_round = IntegerField(
        min_value=1, max_value=999, required=False, label=_("Deals per round")
    )
    minutes_per_round = IntegerField(
        min_value=1, max_value=1440, required=False, label=_("Minutes per round")
    )
    draw_method = forms.ChoiceField(
        choices=DrawMethod.choices, initial=DrawMethod.MIXING, label=_("Seating method")
    )
    table_size = IntegerField(
        min_value=3, max_value=8, required=False, label=_("Preferred table size")
    )
    standings_mode = forms.ChoiceField(choices=StandingsMode.choices, label=_("Standings"))
    require_confirmation = forms.BooleanField(
        required=False, label=_("Deals need a second player's confirmation")
    )
    is_public = forms.BooleanField(required=False, label=_("Public"))

    def __init__(self, *args, club: Club, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["ruleset"].queryset = ClubRuleSet.objects.filter(club=club)


class EntryForm(forms.Form):
    name = forms.CharField(max_length=200, label=_("Player name"))
    checked_in = forms.BooleanField(required=False, initial=True, label=_("Checked in"))


class AdjustmentForm(forms.Form):
    entry = IdField(label=_("Player"))
    points = forms.CharField(max_length=12, label=_("Points (negative for a penalty)"))
    round_number = IntegerField(required=False, min_value=1, max_value=999, label=_("Round"))
    reason = forms.CharField(max_length=200, label=_("Reason"))


class PinForm(forms.Form):
    """A PIN, optionally for a chosen seat of a table of the current round (the table's page
    from its QR code fills the table in). Full-width digits are fine (the service normalises)."""

    table = forms.IntegerField(required=False, min_value=1, max_value=999, label=_("Table"))
    seat = forms.IntegerField(required=False, min_value=1, max_value=8, label=_("Seat"))
    pin = forms.CharField(max_length=40, label=_("Your PIN (from the staff or your seating card)"))

    def clean_table(self):
        return self.cleaned_data.get("table")

    def clean(self):
        data = super().clean()
        if data.get("seat") and not data.get("table"):
            self.add_error("table", _("Give the table number with the seat."))
        return data
