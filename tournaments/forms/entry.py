"""Forms: they only parse what the browser sent into plain values.

Whether a deal, a rule set or a name is acceptable is decided by the services and the scoring
core (EfudaError); views put those errors beside the field they name (``add_efuda_error``).
Fields are lenient on purpose, so a bad bid gets the scoring core's message, not a generic one.
"""

from __future__ import annotations

import uuid

from django import forms
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _

from core.errors import EfudaError
from scoring.cards import RANKS, SUIT_SYMBOLS, SUITS, TOTAL_HONOURS

from ..fields import IntegerField
from ..i18n import SUIT_NAMES, error_text, stored_params, suit_class
from ..selectors.rulesets import session_rules
from ..selectors.sessions import entry_players
from ..services.errors import fail
from ..widgets import Stepper, TapCheckboxes, TapRadio

SOLO = "solo"


def is_row_id(text: str) -> bool:
    """ASCII digits that fit a database id ("²" is a digit to ``str.isdigit``; 2**63 overflows)."""
    return text.isascii() and text.isdigit() and len(text) <= 18


class IntListField(forms.Field):
    """Repeated inputs of one name (``getlist``) as a list of ints, blanks dropped, order and
    repeats kept: ``1,1,2,3,4`` stays five entries, so the scoring core refuses the repeated
    player instead of the form silently scoring a four-player deal."""

    widget = forms.SelectMultiple

    def to_python(self, value):
        result = []
        if value is not None and not isinstance(value, (list, tuple)):
            value = [value]
        for item in value or []:
            item = str(item).strip()
            if not item:
                continue
            if not is_row_id(item):
                raise forms.ValidationError(_("Choose players from the list."), code="invalid")
            result.append(int(item))
        return result


class TapField(forms.ChoiceField):
    """One tapped choice, drawn as buttons. Any posted value passes to the scoring core, which
    refuses what is wrong with a message naming the field (a Napoleon who was unseated in the
    meantime is "not one of the players at this table", not "an invalid choice")."""

    widget = TapRadio

    def valid_value(self, value):
        return True


class TapMultipleField(IntListField):
    """Players ticked among ``choices`` (drawn as tap buttons), posted order and repeats kept."""

    widget = TapCheckboxes

    @property
    def choices(self):
        return self.widget.choices

    @choices.setter
    def choices(self, value):
        self.widget.choices = list(value)


# The scoring core names "called"; the entry form asks for it as suit + rank buttons. The
# Daifugō table's players are checked with the order ("order" names every one of them).
_FIELD_ALIASES = {"called": "called_suit"}


def add_efuda_error(form: forms.Form, err: EfudaError, names=None) -> None:
    """Show ``err`` beside the field it names; errors about other fields go on top. The form
    also keeps it as a code (``efuda_coded``: text → code, msgid, params), which the phone's
    outbox stores to show it later in its reader's language."""
    name = _FIELD_ALIASES.get(err.field, err.field)
    field = name if name in form.fields else None
    if field is not None and isinstance(form.fields[field].widget, forms.HiddenInput):
        field = None  # e.g. "version": nothing to show it beside
    text = error_text(err, names)
    coded = getattr(form, "efuda_coded", None)
    if coded is None:
        coded = form.efuda_coded = {}
    coded[text] = (err.code, err.message, stored_params(err.params, names))
    form.add_error(field, text)


def _suit_choices(jokers: bool) -> tuple[list, dict]:
    choices, extras = [], {}
    for code in SUITS:
        choices.append((code, SUIT_SYMBOLS[code]))
        extras[code] = {"sr_label": SUIT_NAMES[code], "suit_class": suit_class(code)}
    if jokers:
        choices.append(("JK", "JK"))
        extras["JK"] = {"sr_label": _("Joker")}
    return choices, extras


class EntryBase(forms.Form):
    """What both games' entry forms share: the deal's id from the phone (a repeat of it never
    records the deal twice), the edit version, and a name to add a new player inline.

    ``session`` gives the rules (bid range, jokers, forbidden finishes) and the players to
    offer; a tournament table passes its drawn ``roster`` (only those players, none added).
    Choices are built here from the posted (or initial) state, never in the view, when the
    form is about to be shown (``show``): parsing a post needs none of them.
    """

    client_id = forms.CharField(required=False, widget=forms.HiddenInput)
    version = IntegerField(required=False, min_value=0, widget=forms.HiddenInput)
    new_player = forms.CharField(required=False, max_length=200, label=_("New player"))
    player_field = "seats"

    def __init__(self, *args, session, roster=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.session = session
        self.roster = list(roster) if roster is not None else None
        self.ruleset = session_rules(session)
        self.pending = ""
        self.refusal = ""
        self.show_summary = False
        if not self.is_bound and not self.initial.get("client_id"):
            self.initial["client_id"] = str(uuid.uuid4())
        self.shown = False

    @cached_property
    def players(self) -> list:
        """The players the form offers (read when first asked: a save that succeeds never
        asks, as nothing is shown)."""
        return entry_players(
            session=self.session, roster=self.roster, extra=self.ids(self.player_field)
        )

    @cached_property
    def names(self) -> dict[str, str]:
        return {str(p.id): p.name for p in self.players}

    def show(self):
        """Build what only the form's markup needs (its buttons' choices, the steppers),
        once, before it is rendered (``views.entry.entry_context``); returns the form."""
        if not self.shown:
            self.shown = True
            self.build_choices()
        return self

    def build_choices(self) -> None:
        """The game's choices; each form writes its own."""

    @property
    def can_add_player(self) -> bool:
        return self.roster is None

    def clean_client_id(self):
        """A UUID, or None when the post carries none. A damaged one is said on top of the
        form (the field itself is hidden)."""
        value = (self.cleaned_data.get("client_id") or "").strip()
        if not value:
            return None
        try:
            return uuid.UUID(value)
        except ValueError:
            add_efuda_error(self, fail("client_id", "client_id_invalid"))
            return None

    def value(self, name):
        """The current value of a field (cleaned when valid, otherwise as typed)."""
        if hasattr(self, "cleaned_data") and name in self.cleaned_data:
            return self.cleaned_data[name]
        return self[name].value()

    def ids(self, name) -> list[int]:
        """The player ids a list field holds now (posted or initial), invalid ones left out."""
        values = self.value(name) if name in self.fields else None
        if values is None:
            return []
        if not isinstance(values, (list, tuple)):
            values = [values]
        return [int(v) for v in values if is_row_id(str(v))]

    def _player_choices(self, ids) -> list[tuple[str, str]]:
        return [(str(i), self.names[str(i)]) for i in ids if str(i) in self.names]

    def error_summary(self) -> list[dict]:
        """Every problem, in the order of the form, for the summary at its top."""
        items = [{"anchor": "deal-form", "label": "", "message": e}
                 for e in self.non_field_errors()]  # fmt: skip
        for name, field in self.fields.items():
            for message in self.errors.get(name, []):
                items.append({"anchor": f"field-{name}", "label": field.label, "message": message})
        return items


class NapoleonDealForm(EntryBase):
    seats = TapMultipleField(required=False, label=_("Seats"))
    redeal = forms.BooleanField(required=False, label=_("流れ (redeal)"))
    napoleon = TapField(required=False, label=_("Napoleon"))
    bid = TapField(required=False, label=_("Bid"))
    trump = TapField(required=False, label=_("Trump"))
    called_suit = TapField(required=False, label=_("Called card"))
    called_rank = TapField(required=False, label=_("Rank of the called card"))
    adjutant = TapField(required=False, label=_("Adjutant"))
    honours = IntegerField(required=False, label=_("Honours taken by the Napoleon army"))
    discarded = IntegerField(required=False, label=_("Honours among the discards"))
    last_trick = TapField(
        required=False, label=_("Last trick won by"),
        choices=[("napoleon", _("Napoleon army")), ("allies", _("Allies"))],
    )  # fmt: skip

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.show_last_trick = self.ruleset.discard_policy == "last_trick"
        # Asked only when at least one honour was discarded (docs/rules.md); the scoring core
        # then refuses a deal without it (no default). Shown or hidden again as the count
        # changes (static/js/entry-taps.js, syncAsked).
        discarded = str(self.value("discarded") or "").strip()
        self.last_trick_asked = (
            self.show_last_trick
            and discarded.isascii()
            and discarded.isdigit()
            and int(discarded) > 0
        )

    def build_choices(self) -> None:
        rules_ = self.ruleset
        seats = self.ids("seats")
        seated = [i for i in seats if str(i) in self.names]
        count = len(seated)
        if count in rules_.bids:
            low, high = rules_.bids[count]
        else:
            low = min(lo for lo, _hi in rules_.bids.values())
            high = max(hi for _lo, hi in rules_.bids.values())
        self.widow = rules_.widow.get(count)
        # Seats: every offered player in a fixed order, the chosen ones numbered.
        self.fields["seats"].choices = self._player_choices(p.id for p in self.players)
        widget = self.fields["seats"].widget
        widget.cls = "seats"
        widget.option_extras = {
            str(pid): {"number": n, "extra_class": "seated"} for n, pid in enumerate(seated, 1)
        }
        napoleon = str(self.value("napoleon") or "")
        adjutant = str(self.value("adjutant") or "")
        self._choices("napoleon", self._player_choices(seated), "players")
        self._choices("bid", [(str(b), str(b)) for b in range(low, high + 1)], "bids")
        suits, extras = _suit_choices(jokers=False)
        self._choices("trump", suits, "suits", extras)
        suits, extras = _suit_choices(jokers=rules_.jokers)
        self._choices("called_suit", suits, "suits", extras)
        self._choices("called_rank", [(r, r) for r in RANKS], "ranks")
        # The adjutant: the other seated players, then 独り立ち. The Napoleon is offered only
        # while chosen as adjutant, so that state stays visible beside its refusal.
        partners = [(i, n) for i, n in self._player_choices(seated)
                    if i != napoleon or i == adjutant]  # fmt: skip
        self._choices("adjutant", partners + [(SOLO, _("独り立ち (solo)"))], "players",
                      {SOLO: {"extra_class": "solo"}})  # fmt: skip
        self.fields["last_trick"].widget.cls = "two"
        for name, max_value in (("honours", TOTAL_HONOURS), ("discarded", self.widow or 5)):
            field = self.fields[name]
            field.widget = Stepper(attrs={"max": str(max_value)}, step_label=field.label)

    def _choices(self, name, choices, cls, extras=None):
        field = self.fields[name]
        field.choices = choices
        field.widget.cls = cls
        field.widget.option_extras = extras or {}

    @property
    def redeal_checked(self) -> bool:
        return bool(self.value("redeal"))

    def called_code(self) -> str | None:
        suit = (self.cleaned_data.get("called_suit") or "").strip()
        rank = (self.cleaned_data.get("called_rank") or "").strip()
        if suit == "JK":
            return "JK"
        if not suit and not rank:
            return None
        return f"{suit}{rank}"

    def to_data(self) -> dict:
        """``Deal.data`` for the services (see docs: how deals are stored). Nothing is filled
        in: what was not chosen stays None and the scoring core names it."""
        c = self.cleaned_data
        seats = list(c.get("seats") or [])
        if c.get("redeal"):  # the explicit 流れ tap: the other fields are not shown with it
            return {"seats": seats, "redeal": True}
        adjutant = (c.get("adjutant") or "").strip()
        return {
            "seats": seats,
            "napoleon": int(c["napoleon"]) if is_row_id(c.get("napoleon") or "") else (
                c.get("napoleon") or None),
            "bid": int(c["bid"]) if is_row_id(c.get("bid") or "") else (c.get("bid") or None),
            "trump": (c.get("trump") or "").strip() or None,
            "called": self.called_code(),
            "adjutant": None if adjutant in ("", SOLO) else (
                int(adjutant) if is_row_id(adjutant) else adjutant),
            "solo": adjutant == SOLO,
            "honours": c.get("honours"),
            "discarded": c.get("discarded"),
            "last_trick": c.get("last_trick") or None,
            "redeal": False,
        }  # fmt: skip

    @staticmethod
    def initial_from_data(data: dict) -> dict:
        called = data.get("called") or ""
        suit, rank = ("JK", "") if called == "JK" else (called[:1], called[1:])
        adjutant = data.get("adjutant")
        return {
            "seats": [int(s) for s in data.get("seats") or []],
            "redeal": bool(data.get("redeal")),
            "napoleon": data.get("napoleon"),
            "bid": data.get("bid"),
            "trump": data.get("trump") or "",
            "called_suit": suit,
            "called_rank": rank,
            "adjutant": SOLO if data.get("solo") else ("" if adjutant is None else str(adjutant)),
            "honours": data.get("honours"),
            "discarded": data.get("discarded"),
            "last_trick": data.get("last_trick") or "",
        }


class DaifugoRoundForm(EntryBase):
    """The players at the table, the order they went out, and forbidden finishes.

    The order must name every player at the table; once all but one are placed, the last one
    is placed for the scorekeeper (``auto_last``, shown as such in the preview)."""

    players = TapMultipleField(required=False, label=_("Players at this table"))
    order = IntListField(required=False, label=_("Went out in this order"))
    forbidden = TapMultipleField(required=False, label=_("Went out on a forbidden card"))
    player_field = "players"

    def build_choices(self) -> None:
        if self.roster is not None:
            table = [p.id for p in self.players]
        else:
            table = [i for i in self.ids("players") if str(i) in self.names]
        self.table = table
        order = self.ids("order")
        self.auto_last = None
        left = [i for i in table if i not in order]
        if len(table) >= 2 and len(left) == 1 and len(order) == len(table) - 1:
            self.auto_last = left[0]
        placed = order + ([self.auto_last] if self.auto_last else [])
        self.placed = placed
        self.fields["players"].choices = self._player_choices(p.id for p in self.players)
        self.fields["players"].widget.cls = "players table-players"
        self.fields["forbidden"].choices = self._player_choices([i for i in placed if i in table])
        self.fields["forbidden"].widget.cls = "players"

    @property
    def order_taps(self) -> list[dict]:
        """One toggle per player at the table, in the table's fixed order, with the place
        already given (``aria-pressed`` in the markup; the page's script does the tapping)."""
        order = self.ids("order")
        return [
            {"value": i, "label": self.names[str(i)],
             "place": order.index(i) + 1 if i in order else None,
             "auto": i == self.auto_last}
            for i in self.table
        ]  # fmt: skip

    @property
    def order_slots(self) -> list[dict]:
        """The no-script order: one select per place, as many as players at the table."""
        order = self.ids("order")
        count = max(len(self.table), len(order), 3)
        padded = order + [None] * (count - len(order))
        choices = [(i, self.names[str(i)]) for i in self.table if str(i) in self.names]
        return [{"number": n, "value": v, "choices": choices} for n, v in enumerate(padded, 1)]

    def to_data(self) -> dict:
        order = list(self.cleaned_data.get("order") or [])
        if self.roster is not None:
            players = list(self.roster)
        else:
            players = list(self.cleaned_data.get("players") or [])
        left = [p for p in players if p not in order]
        if len(players) >= 2 and len(left) == 1 and len(order) == len(players) - 1:
            order.append(left[0])  # the last one left: shown as 「自動」 in the preview
        forbidden = list(self.cleaned_data.get("forbidden") or [])
        return {"players": players, "order": order, "forbidden": forbidden}

    @staticmethod
    def initial_from_data(data: dict) -> dict:
        order = [int(p) for p in data.get("order") or []]
        return {
            "players": [int(p) for p in data.get("players") or order],
            "order": order,
            "forbidden": [int(p) for p in data.get("forbidden") or []],
        }
