"""Forms of the club's own pages: sessions, the club, members, rule sets, invitations,
"this is me" and the player merge. They only parse; the services decide."""

from __future__ import annotations

import json

from django import forms
from django.utils import timezone
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _

from rules import OPTION_SPECS, PRESETS

from ..fields import IntegerField
from ..models import Role


def today_in_club_time():
    return timezone.localdate()


class SessionForm(forms.Form):
    date = forms.DateField(
        label=_("Date"), initial=today_in_club_time,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )  # fmt: skip
    table = forms.CharField(label=_("Table"), max_length=40, initial="A")
    rules = forms.ChoiceField(
        label=_("Rule set"), error_messages={"required": _("Choose the rules this table plays.")}
    )

    def __init__(self, *args, rule_choices=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["rules"].choices = rule_choices


class ClubForm(forms.Form):
    name = forms.CharField(label=_("Club name"), max_length=100)
    is_public = forms.BooleanField(
        label=_("Publish standings, sessions and player pages to everyone"), required=False
    )


class ClubSettingsForm(ClubForm):
    embed_origins = forms.CharField(
        label=_("Sites that may show the standings in a frame"), required=False,
        widget=forms.Textarea(attrs={"rows": 3, "placeholder": "https://blog.example.org"}),
        help_text=_("One site a line, as https://host or https://host:port. Only a public "
                    "club's standings can be shown on another site."),
    )  # fmt: skip


class ClubCreateForm(ClubForm):
    slug = forms.SlugField(
        label=_("Address"), max_length=50,
        help_text=_("Letters, digits and hyphens; the club's pages live at /c/<address>/."),
        error_messages={"invalid": _("An address is letters, digits and hyphens, e.g. "
                                     "napoleon-club.")},
    )  # fmt: skip


class MemberAddForm(forms.Form):
    username = forms.CharField(label=_("User name"), max_length=150)
    role = forms.ChoiceField(label=_("Role"), choices=Role.choices, initial=Role.MEMBER)


class RoleForm(forms.Form):
    role = forms.ChoiceField(label=_("Role"), choices=Role.choices)


class PlayerRenameForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200)


# Each preset in a sentence, for the rule-set form (names come from rules/presets.py).
PRESET_SENTENCES = {
    "napoleon-originator": _(
        "The inventor's rules for 4 or 5 players: points grow with the bid, 作戦B (Plan B) "
        "when the army takes all 20 with a lower bid."
    ),
    "napoleon-wiki": _(
        "The common rules for 4 to 6 players: the same points whatever the bid; you choose who "
        "counts the discarded honours."
    ),
    "napoleon-joker": _(
        "Club rules with a joker: the same points whatever the bid; taking all 20 can lose."
    ),
    "daifugo-hyousube": _("Hyōsube's Daifugō: titles give points; no forbidden finishes."),
    "daifugo-common": _(
        "Common Daifugō: titles give points, 都落ち (fall from the capital), and going out on a "
        "joker or a 2 is forbidden."
    ),
}
# Option values in words (rules/options.py keeps the codes).
CHOICE_WORDS = {
    ("discard_policy", "nobody"): _("Nobody: discarded honours count for neither side"),
    ("discard_policy", "napoleon"): _("The Napoleon army"),
    ("discard_policy", "last_trick"): _("Whoever won the last trick"),
    ("jokers", 0): _("No joker"),
    ("jokers", 1): _("One joker"),
}


def preset_label(code: str) -> str:
    """A preset's name in the page's language."""
    preset = PRESETS[code]
    if (get_language() or "ja").startswith("ja"):
        return preset.name_ja
    return gettext(preset.name_en)


class RuleSetForm(forms.Form):
    """A rule set: its name (the code is made from it), the preset it starts from and the
    options ``rules.OPTION_SPECS`` allows, every option of every preset in one form (the page
    shows those of the chosen preset); ``ruleset_save`` checks the values. Mapping options are
    edited as JSON."""

    code = forms.SlugField(label=_("Code"), max_length=50, required=False,
                           widget=forms.HiddenInput)  # fmt: skip
    name = forms.CharField(
        label=_("Name"), max_length=100, required=False,
        help_text=_("How the club calls these rules, e.g. ハウスルール: shown when a session "
                    "starts, on its page and on the printed sheets."),
    )  # fmt: skip
    preset = forms.ChoiceField(label=_("Starts from"), choices=[(c, c) for c in PRESETS],
                               widget=forms.RadioSelect)  # fmt: skip

    def __init__(self, *args, preset: str | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.preset_code = preset if preset in PRESETS else next(iter(PRESETS))
        self.fields["preset"].choices = [(c, preset_label(c)) for c in PRESETS]
        self.option_specs = [s for s in OPTION_SPECS if self.preset_code in s.presets]
        self.all_specs = list(OPTION_SPECS)
        default = _("As the preset says")
        for spec in self.all_specs:
            name = f"options.{spec.key}"
            label = _(spec.label)
            if spec.type == "bool":
                field = forms.ChoiceField(
                    label=label, required=False,
                    choices=[("", default), ("true", _("Yes")), ("false", _("No"))],
                )  # fmt: skip
            elif spec.type == "choice":
                field = forms.ChoiceField(
                    label=label, required=False,
                    choices=[("", default)] + [
                        (str(c), CHOICE_WORDS.get((spec.key, c), str(c))) for c in spec.choices
                    ],
                )  # fmt: skip
            elif spec.type == "int":
                field = IntegerField(label=label, required=False)
            else:
                field = forms.CharField(
                    label=label,
                    required=False,
                    widget=forms.Textarea(attrs={"rows": 3}),
                )
            field.help_text = _(spec.help)
            self.fields[name] = field

    def clean(self):
        data = super().clean()
        if not data.get("name") and not data.get("code"):
            self.add_error("name", _("Give the rule set a name, e.g. ハウスルール."))
        return data

    def option_rows(self):
        """(bound field, the presets it applies to, shown now) for every option."""
        return [
            (self[f"options.{spec.key}"], " ".join(spec.presets),
             self.preset_code in spec.presets)
            for spec in self.all_specs
        ]  # fmt: skip

    def preset_rows(self):
        """(code, name, sentence, chosen) for every preset."""
        return [
            (code, preset_label(code), PRESET_SENTENCES.get(code, ""), code == self.preset_code)
            for code in PRESETS
        ]

    def options(self) -> dict:
        """The option values the user set, typed for ``rules.build_ruleset``."""
        result = {}
        for spec in self.option_specs:
            raw = self.cleaned_data.get(f"options.{spec.key}")
            if raw in (None, ""):
                continue
            if spec.type == "bool":
                result[spec.key] = raw == "true"
            elif spec.type == "choice":
                typed = {str(c): c for c in spec.choices}
                result[spec.key] = typed.get(raw, raw)
            elif spec.type == "int":
                result[spec.key] = raw
            else:
                try:
                    result[spec.key] = json.loads(raw)
                except ValueError:
                    self.add_error(f"options.{spec.key}", _("Write this option as JSON."))
        return result

    @staticmethod
    def initial_from_options(options: dict) -> dict:
        initial = {}
        for key, value in (options or {}).items():
            if isinstance(value, bool):
                initial[f"options.{key}"] = "true" if value else "false"
            elif isinstance(value, dict):
                initial[f"options.{key}"] = json.dumps(value, ensure_ascii=False)
            else:
                initial[f"options.{key}"] = str(value)
        return initial


class InvitationForm(forms.Form):
    role = forms.ChoiceField(
        label=_("Role"),
        choices=[(Role.MEMBER, Role.MEMBER.label), (Role.SCOREKEEPER, Role.SCOREKEEPER.label)],
        initial=Role.MEMBER,
    )
    max_uses = IntegerField(label=_("Number of people"), initial=1, min_value=1, max_value=1000)
    days = IntegerField(label=_("Valid for (days)"), initial=7, min_value=1, max_value=3650)
    player = forms.TypedChoiceField(
        label=_("This invitation is for player"), required=False, coerce=int, empty_value=None
    )
    note = forms.CharField(label=_("Note (who it is for)"), required=False, max_length=100)

    def __init__(self, *args, players=(), **kwargs):
        super().__init__(*args, **kwargs)
        anyone = ("", _("Any player: the person chooses after joining"))
        self.fields["player"].choices = [anyone] + [(p.pk, p.name) for p in players]


class ClaimForm(forms.Form):
    """Nobody is chosen until the person chooses: the list starts empty."""

    player = forms.TypedChoiceField(
        label=_("I am"), coerce=int,
        error_messages={"required": _("Choose the player you are.")},
    )  # fmt: skip

    def __init__(self, *args, players=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = [("", _("Choose your name"))] + [
            (p.pk, p.name) for p in players
        ]


class DisplayNameForm(forms.Form):
    display_name = forms.CharField(label=_("My name in this club"), required=False, max_length=200)


class PlayerMergeForm(forms.Form):
    """Nobody is chosen until the owner chooses; ``confirm`` is set by the page that shows what
    will move (the first press only shows it)."""

    keep = forms.TypedChoiceField(
        label=_("Keep"), coerce=int,
        error_messages={"required": _("Choose the player to keep.")},
    )  # fmt: skip
    merge = forms.TypedChoiceField(
        label=_("Merge into it (and delete)"), coerce=int,
        error_messages={"required": _("Choose the player recorded under the wrong name.")},
    )  # fmt: skip
    confirm = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args, players=(), **kwargs):
        super().__init__(*args, **kwargs)
        choices = [("", _("Choose a player"))] + [(p.pk, p.name) for p in players]
        self.fields["keep"].choices = choices
        self.fields["merge"].choices = choices
