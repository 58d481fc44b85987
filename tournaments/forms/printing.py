"""Forms of the printed sheets: what a blank score sheet is printed for.

Every parameter arrives in the address (a GET form, so a printed sheet can be bookmarked) and
is range-checked here; a wrong one is a message beside its field, never a 500."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from core.errors import EfudaError
from rules import PRESETS

from ..fields import IntegerField
from ..i18n import error_text
from ..selectors.rulesets import club_rules_by_code
from ..selectors.sessions import session_rule_choices

MAX_SEATS = max(n for preset in PRESETS.values() for n in preset.players)
MIN_SEATS = min(n for preset in PRESETS.values() for n in preset.players)
NAME_LENGTH = 64  # as a player's name (models.Player.name)


def _counts(players) -> str:
    counts = sorted(players)
    if counts == list(range(counts[0], counts[-1] + 1)) and len(counts) > 1:
        return f"{counts[0]}–{counts[-1]}"
    return ", ".join(str(n) for n in counts)


class BlankSheetForm(forms.Form):
    rules = forms.ChoiceField(
        label=_("Rule set"), error_messages={"required": _("Choose the rules the table plays.")}
    )
    players = IntegerField(label=_("Number of players"), min_value=MIN_SEATS, max_value=MAX_SEATS)
    names = forms.CharField(
        label=_("Names (optional, one per line, in seat order)"),
        required=False,
        max_length=MAX_SEATS * (NAME_LENGTH + 2),
        widget=forms.Textarea(attrs={"rows": 4}),
    )
    date = forms.DateField(
        label=_("Date (optional)"), required=False,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )  # fmt: skip
    table = forms.CharField(label=_("Table (optional)"), required=False, max_length=40)

    def __init__(self, *args, club, **kwargs):
        super().__init__(*args, **kwargs)
        self.club = club
        self.names_by_code: dict[str, str] = {}
        groups = []
        for game, choices in session_rule_choices(club=club):
            labelled = []
            for code, label in choices:
                self.names_by_code[code] = label
                try:
                    ruleset = club_rules_by_code(club=club, code=code)
                except EfudaError:
                    continue  # a stored rule set that no longer builds: nothing to print
                if ruleset is not None:
                    counts = _("%(counts)s players") % {"counts": _counts(ruleset.players)}
                    labelled.append((code, f"{label} ({counts})"))
            if labelled:
                groups.append((game, labelled))
        self.fields["rules"].choices = [("", _("Choose the rules the table plays"))] + groups

    def clean(self):
        data = super().clean()
        code = data.get("rules")
        if not code:
            return data
        try:
            ruleset = club_rules_by_code(club=self.club, code=code)
        except EfudaError as err:
            self.add_error("rules", error_text(err))
            return data
        if ruleset is None:  # a rule set removed since the form was shown
            self.add_error("rules", _("Choose the rules the table plays."))
            return data
        data["ruleset"] = ruleset
        data["ruleset_name"] = self.names_by_code.get(code, code)
        players = data.get("players")
        if players is not None and players not in ruleset.players:
            self.add_error(
                "players",
                _("These rules are played by %(counts)s players.")
                % {"counts": _counts(ruleset.players)},
            )
            return data
        lines = [line.strip() for line in (data.get("names") or "").splitlines()]
        while lines and not lines[-1]:
            lines.pop()
        if players is not None and len(lines) > players:
            self.add_error(
                "names",
                ngettext(
                    "%(count)s name for a %(players)s-player table: one name per line, at most "
                    "one per player.",
                    "%(count)s names for a %(players)s-player table: one name per line, at most "
                    "one per player.",
                    len(lines),
                ) % {"count": len(lines), "players": players},
            )  # fmt: skip
        for number, line in enumerate(lines, start=1):
            if len(line) > NAME_LENGTH:
                self.add_error(
                    "names",
                    _("Line %(line)s: a name has at most %(max)s characters.")
                    % {"line": number, "max": NAME_LENGTH},
                )
                break
        data["name_list"] = tuple(lines)
        return data
