"""Forms: they only parse what the browser sent into plain values.

Whether a deal, a rule set or a name is acceptable is decided by the services and the scoring
core (EfudaError); views put those errors beside the field they name (``add_efuda_error``).
Fields are lenient on purpose, so a bad bid gets the scoring core's message, not a generic one.
"""

from __future__ import annotations

import json
import uuid

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from core.errors import EfudaError
from rules import OPTION_SPECS, PRESETS

from .fields import IdField, IntegerField
from .i18n import error_text
from .models import Role
from .services.errors import fail

SOLO = "solo"


def is_row_id(text: str) -> bool:
    """ASCII digits that fit a database id ("²" is a digit to ``str.isdigit``; 2**63 overflows)."""
    return text.isascii() and text.isdigit() and len(text) <= 18


class IntListField(forms.Field):
    """Repeated inputs of one name (``getlist``) as a list of ints, blanks dropped, order kept."""

    widget = forms.SelectMultiple

    def to_python(self, value):
        result = []
        for item in value or []:
            item = str(item).strip()
            if not item:
                continue
            if not is_row_id(item):
                raise forms.ValidationError(_("Choose players from the list."), code="invalid")
            if int(item) not in result:
                result.append(int(item))
        return result


# The scoring core names "called"; the entry form asks for it as suit + rank buttons.
_FIELD_ALIASES = {"called": "called_suit"}


def add_efuda_error(form: forms.Form, err: EfudaError, names=None) -> None:
    """Show ``err`` beside the field it names; errors about other fields go on top."""
    name = _FIELD_ALIASES.get(err.field, err.field)
    field = name if name in form.fields else None
    if field is not None and isinstance(form.fields[field].widget, forms.HiddenInput):
        field = None  # e.g. "version": nothing to show it beside
    form.add_error(field, error_text(err, names))


class EntryBase(forms.Form):
    """What both games' entry forms share: the deal's id from the phone (a repeat of it never
    records the deal twice), the edit version, and a name to add a new player inline."""

    client_id = forms.CharField(required=False, widget=forms.HiddenInput)
    version = IntegerField(required=False, min_value=0, widget=forms.HiddenInput)
    new_player = forms.CharField(required=False, max_length=200, label=_("New player"))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if not self.is_bound and not self.initial.get("client_id"):
            self.initial["client_id"] = str(uuid.uuid4())

    def clean_client_id(self):
        """A UUID, or None when the post carries none. A damaged one is said on top of the
        form (the field itself is hidden)."""
        value = (self.cleaned_data.get("client_id") or "").strip()
        if not value:
            return None
        try:
            return uuid.UUID(value)
        except ValueError:
            self.add_error(None, error_text(fail("client_id", "client_id_invalid")))
            return None

    def value(self, name):
        """The current value of a field (cleaned when valid, otherwise as typed)."""
        if hasattr(self, "cleaned_data") and name in self.cleaned_data:
            return self.cleaned_data[name]
        return self[name].value()


class NapoleonDealForm(EntryBase):
    seats = IntListField(required=False, label=_("Seats"))
    redeal = forms.BooleanField(required=False, label=_("Redeal (流れ)"))
    napoleon = IdField(required=False, label=_("Napoleon"))
    bid = IntegerField(required=False, label=_("Bid"))
    trump = forms.CharField(required=False, max_length=2, label=_("Trump"))
    called_suit = forms.CharField(required=False, max_length=2, label=_("Called card"))
    called_rank = forms.CharField(required=False, max_length=3)
    adjutant = forms.CharField(required=False, max_length=20, label=_("Adjutant"))
    honours = IntegerField(required=False, label=_("Honours taken by the Napoleon army"))
    discarded = IntegerField(required=False, label=_("Honours among the discards"))
    last_trick = forms.ChoiceField(
        required=False, label=_("Last trick won by"),
        choices=[("", "–"), ("napoleon", _("Napoleon army")), ("allies", _("Allies"))],
    )  # fmt: skip

    def called_code(self) -> str | None:
        suit = (self.cleaned_data.get("called_suit") or "").strip()
        rank = (self.cleaned_data.get("called_rank") or "").strip()
        if suit == "JK":
            return "JK"
        if not suit and not rank:
            return None
        return f"{suit}{rank}"

    def to_data(self) -> dict:
        """``Deal.data`` for the services (see docs: how deals are stored)."""
        c = self.cleaned_data
        seats = list(c.get("seats") or [])
        if c.get("redeal"):
            return {"seats": seats, "napoleon": None, "bid": None, "trump": None,
                    "called": None, "adjutant": None, "honours": 0, "discarded": 0,
                    "last_trick": None, "redeal": True}  # fmt: skip
        adjutant = (c.get("adjutant") or "").strip()
        return {
            "seats": seats,
            "napoleon": c.get("napoleon"),
            "bid": c.get("bid"),
            "trump": (c.get("trump") or "").strip() or None,
            "called": self.called_code(),
            "adjutant": None if adjutant in ("", SOLO) else (
                int(adjutant) if is_row_id(adjutant) else adjutant),
            "honours": c.get("honours") or 0,
            "discarded": c.get("discarded") or 0,
            "last_trick": c.get("last_trick") or None,
            "redeal": False,
        }  # fmt: skip

    @staticmethod
    def initial_from_data(data: dict) -> dict:
        called = data.get("called") or ""
        suit, rank = ("JK", "") if called == "JK" else (called[:1], called[1:])
        adjutant = data.get("adjutant")
        solo = adjutant in (None, "") or str(adjutant) == str(data.get("napoleon"))
        return {
            "seats": [int(s) for s in data.get("seats") or []],
            "redeal": bool(data.get("redeal")),
            "napoleon": data.get("napoleon"),
            "bid": data.get("bid"),
            "trump": data.get("trump") or "",
            "called_suit": suit,
            "called_rank": rank,
            "adjutant": SOLO if solo else str(adjutant),
            "honours": data.get("honours", 0),
            "discarded": data.get("discarded", 0),
            "last_trick": data.get("last_trick") or "",
        }


class DaifugoRoundForm(EntryBase):
    order = IntListField(required=False, label=_("Went out in this order"))
    forbidden = IntListField(required=False, label=_("Went out on a forbidden card"))

    def to_data(self) -> dict:
        order = list(self.cleaned_data.get("order") or [])
        forbidden = [p for p in self.cleaned_data.get("forbidden") or [] if p in order]
        return {"order": order, "forbidden": forbidden}

    @staticmethod
    def initial_from_data(data: dict) -> dict:
        return {
            "order": [int(p) for p in data.get("order") or []],
            "forbidden": [int(p) for p in data.get("forbidden") or []],
        }


def today_in_club_time():
    return timezone.localdate()


class SessionForm(forms.Form):
    date = forms.DateField(
        label=_("Date"), initial=today_in_club_time,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )  # fmt: skip
    table = forms.CharField(label=_("Table"), max_length=40, initial="A")
    rules = forms.ChoiceField(label=_("Rule set"))

    def __init__(self, *args, rule_choices=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["rules"].choices = rule_choices


class ClubForm(forms.Form):
    name = forms.CharField(label=_("Club name"), max_length=100)
    is_public = forms.BooleanField(
        label=_("Publish standings, sessions and player pages to everyone"), required=False
    )


class ClubCreateForm(ClubForm):
    slug = forms.SlugField(
        label=_("Address"), max_length=50,
        help_text=_("Letters, digits and hyphens; the club's pages live at /c/<address>/."),
    )  # fmt: skip


class MemberAddForm(forms.Form):
    username = forms.CharField(label=_("User name"), max_length=150)
    role = forms.ChoiceField(label=_("Role"), choices=Role.choices, initial=Role.MEMBER)


class RoleForm(forms.Form):
    role = forms.ChoiceField(label=_("Role"), choices=Role.choices)


class PlayerRenameForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200)


class RuleSetForm(forms.Form):
    """A preset plus the options ``rules.OPTION_SPECS`` allows for it; ``ruleset_save`` checks
    the values. Mapping options are edited as JSON."""

    code = forms.SlugField(label=_("Code"), max_length=50)
    name = forms.CharField(label=_("Name"), max_length=100, required=False)
    preset = forms.ChoiceField(label=_("Preset"), choices=[(c, c) for c in PRESETS])

    def __init__(self, *args, preset: str | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.preset_code = preset if preset in PRESETS else next(iter(PRESETS))
        self.option_specs = [s for s in OPTION_SPECS if self.preset_code in s.presets]
        for spec in self.option_specs:
            name = f"options.{spec.key}"
            label = _(spec.label)
            if spec.type == "bool":
                field = forms.ChoiceField(
                    label=label, required=False,
                    choices=[("", _("preset default")), ("true", _("on")), ("false", _("off"))],
                )  # fmt: skip
            elif spec.type == "choice":
                field = forms.ChoiceField(
                    label=label, required=False,
                    choices=[("", _("preset default"))] + [(str(c), str(c)) for c in spec.choices],
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
