"""Forms of the tournament pages (entries, rounds, timer, adjustments, staff, PINs)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from ..fields import IdField, IntegerField
from ..models import Club, ClubRuleSet, DrawMethod, StandingsMode
from ..selectors.sessions import ruleset_label

MAX_ROUNDS = 30  # as services.events.common.MAX_ROUNDS (forms do not import services)


class TournamentForm(forms.Form):
    name = forms.CharField(max_length=100, label=_("Name"))
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))
    ruleset = forms.ModelChoiceField(
        queryset=ClubRuleSet.objects.none(), label=_("Rule set"),
        empty_label=_("Choose the rules the tables play"),
    )  # fmt: skip
    rounds_planned = IntegerField(min_value=1, max_value=30, initial=4, label=_("Rounds"))
    deals_per_round = IntegerField(
        min_value=1,
        max_value=999,
        required=False,
        label=_("Deals (Daifugō: rounds) per tournament round"),
        help_text=_(
            "The most Napoleon deals, or Daifugō rounds, a table records in a tournament round "
            "(shown at each table); empty: no limit."
        ),
    )
    minutes_per_round = IntegerField(
        min_value=1, max_value=1440, required=False, label=_("Minutes per round")
    )
    draw_method = forms.ChoiceField(
        choices=DrawMethod.choices, initial=DrawMethod.MIXING, label=_("Seating method")
    )
    table_size = IntegerField(
        min_value=3,
        max_value=8,
        required=False,
        label=_("Preferred table size"),
        help_text=_(
            "Players per table the draw aims for. When the players do not divide evenly, the "
            "draw uses the other sizes the rule set allows, as few as it can. Empty: 5 where "
            "the rules allow it, else the largest size they allow."
        ),
    )
    standings_mode = forms.ChoiceField(choices=StandingsMode.choices, label=_("Standings"))
    require_confirmation = forms.BooleanField(
        required=False,
        label=_("Deals (Daifugō: rounds) need a second player's confirmation"),
    )
    is_public = forms.BooleanField(required=False, label=_("Public"))

    def __init__(self, *args, club: Club, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["ruleset"].queryset = ClubRuleSet.objects.filter(club=club)
        self.fields["ruleset"].label_from_instance = ruleset_label  # the name every page uses


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


class DrawForm(forms.Form):
    """Draw (or draw again) the next round; an empty method means the tournament's own."""

    method = forms.ChoiceField(
        choices=[("", _("Tournament default")), *DrawMethod.choices],
        required=False,
        label=_("Seating method"),
    )


class SwapForm(forms.Form):
    """Swap two players' seats in a drawn round (player ids, checked by the service)."""

    a = IdField(label=_("Swap"))
    b = IdField(label=_("with"))


class TimerForm(forms.Form):
    """Start or stop the round clock. The minutes stay text: the service checks the range and
    refuses "Infinity", "1e20" and the like with its own message."""

    action = forms.ChoiceField(
        choices=[("start", _("Start timer")), ("stop", _("Stop timer"))],
        required=False,
        initial="start",
    )
    minutes = forms.CharField(max_length=20, required=False, label=_("Minutes"))


class CheckInForm(forms.Form):
    checked_in = forms.TypedChoiceField(
        choices=[("1", _("Checked in")), ("0", _("Not checked in"))],
        coerce=lambda value: value == "1",
        label=_("Checked in"),
    )


class DropForm(forms.Form):
    undo = forms.BooleanField(required=False)


class PinIssueForm(forms.Form):
    revoke = forms.BooleanField(required=False)
    confirm = forms.BooleanField(required=False)  # "yes, log that phone out"


class ReplaceForm(forms.Form):
    """“X replaces Y”: Y is an entry; X an entry chosen from those without a seat, or a name
    typed (a club player or someone new, who is entered)."""

    replaced = IdField(label=_("Replaced"))
    substitute = IdField(required=False, label=_("By"))
    substitute_name = forms.CharField(max_length=200, required=False, label=_("or a name"))
    leaves = forms.BooleanField(required=False, label=_("and leaves the tournament"))

    def clean(self):
        data = super().clean()
        data["substitute_name"] = " ".join((data.get("substitute_name") or "").split())
        if not data.get("substitute") and not data["substitute_name"]:
            self.add_error("substitute", _("Choose who takes the seat, or type a name."))
        return data


class FinishForm(forms.Form):
    """Finishing a round: a decision for each deal still waiting (``deal-<id>``: confirm,
    dispute or drop, with ``note-<id>`` for a dispute) and whether it is the last round."""

    last = forms.BooleanField(required=False, label=_("This is the last round"))

    def __init__(self, *args, waiting=(), **kwargs):
        super().__init__(*args, **kwargs)
        choices = [
            ("confirm", _("Confirm: it counts")),
            ("dispute", _("Leave disputed: staff settle it later")),
            ("drop", _("Drop: it counts nowhere")),
        ]
        for deal_id in waiting:
            self.fields[f"deal-{deal_id}"] = forms.ChoiceField(
                choices=choices, widget=forms.RadioSelect, label=_("Decision")
            )
            self.fields[f"note-{deal_id}"] = forms.CharField(
                max_length=200, required=False, label=_("What is wrong?")
            )

    def decisions(self) -> tuple[dict[int, str], dict[int, str]]:
        decided, notes = {}, {}
        for name, value in self.cleaned_data.items():
            if name.startswith("deal-") and value:
                decided[int(name[5:])] = value
            elif name.startswith("note-") and value:
                notes[int(name[5:])] = value
        return decided, notes


class SeatingPinsForm(forms.Form):
    """The seating cards' PIN variants, posted from the page that says what each does:
    ``missing`` issues PINs to the players without one (nobody is logged out), ``all`` new
    PINs to everyone (every phone opened with an old PIN is logged out). Required, so a stray
    POST never issues PINs by accident nor prints old cards in their place."""

    pins = forms.ChoiceField(choices=[("missing", "missing"), ("all", "all")])


class DisputeForm(forms.Form):
    note = forms.CharField(max_length=200, required=False, label=_("What is wrong?"))


class ConfirmForm(forms.Form):
    """A second step's "yes" (drawing a round again)."""

    confirm = forms.BooleanField(required=False)

    def is_valid_yes(self) -> bool:
        return self.is_valid() and self.cleaned_data["confirm"]


class FreezeForm(forms.Form):
    """How many final rounds the public does not see the live standings for. The form bounds
    the number; the service checks it against the tournament's rounds with its own message."""

    standings_hidden_rounds = IntegerField(
        min_value=0, max_value=MAX_ROUNDS, label=_("Hide the standings for the final rounds")
    )

    def __init__(self, *args, tournament, **kwargs):
        hidden = tournament.standings_hidden_rounds
        kwargs.setdefault("initial", {"standings_hidden_rounds": hidden})
        super().__init__(*args, **kwargs)
        self.fields["standings_hidden_rounds"].widget.attrs["max"] = tournament.rounds_planned


class StaffAddForm(forms.Form):
    who = forms.CharField(max_length=254, label=_("User name or e-mail address of a member"))
