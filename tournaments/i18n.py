"""Render the scoring core's translatable messages and errors in the user's language."""

from collections.abc import Mapping, Sequence

from django.utils.translation import gettext, pgettext_lazy

from core.errors import EfudaError

# Parameters of the core's messages that hold a player key (or a ", "-joined list of keys).
# Only these are mapped to names, so a bid of 25 never turns into the name of player 25.
PLAYER_PARAMS = frozenset({"napoleon", "adjutant", "player", "giver", "receiver", "leader"})
PLAYER_LIST_PARAMS = frozenset({"order", "players"})


def named_params(params: Mapping | None, names: Mapping | None = None) -> dict:
    """``params`` with every player key (or list of keys) replaced by the player's name from
    ``names`` (player keys, ids as strings, to display names): what a stored message keeps, so
    it can be rendered later in any language without the names at hand."""
    params = dict(params or {})
    if names:
        for key, value in params.items():
            if not isinstance(value, str):
                continue
            if key in PLAYER_PARAMS and value in names:
                params[key] = names[value]
            elif key in PLAYER_LIST_PARAMS:
                params[key] = ", ".join(names.get(item, item) for item in value.split(", "))
    return params


def stored_params(params: Mapping | None, names: Mapping | None = None) -> dict:
    """``named_params`` as JSON keeps them: numbers, text, true/false and null as they are,
    anything else as its text."""
    return {
        key: value if value is None or isinstance(value, str | int | float | bool) else str(value)
        for key, value in named_params(params, names).items()
    }


def render_message(text: str, params: Mapping | None = None, names: Mapping | None = None) -> str:
    """Translate a msgid from the scoring core and fill its parameters.

    ``names`` maps player keys (ids as strings) to display names, so a message that names a
    player shows the name, never the database id.
    """
    params = named_params(params, names)
    translated = gettext(text)
    try:
        return translated % params if params else translated
    except (KeyError, TypeError, ValueError):
        # A broken translation must never take a page down: fall back to the msgid.
        return text % params if params else text


def render_explanation(lines: Sequence, names: Mapping | None = None) -> list[str]:
    """``lines`` is the stored explanation: a list of ``[text, params]`` pairs."""
    return [render_message(text, params, names) for text, params in lines]


def error_text(error: EfudaError, names: Mapping | None = None) -> str:
    return render_message(error.message, error.params, names)


# Accessible names of the suit symbols (a screen reader says "Spades", not "black spade suit").
SUIT_NAMES = {
    "S": pgettext_lazy("card suit", "Spades"),
    "H": pgettext_lazy("card suit", "Hearts"),
    "D": pgettext_lazy("card suit", "Diamonds"),
    "C": pgettext_lazy("card suit", "Clubs"),
}
RED_SUITS = frozenset({"H", "D", "♥", "♦", "♡", "♢"})


def suit_class(code: str) -> str:
    """The CSS class of a suit (code or symbol): ♥ and ♦ are printed red."""
    return "suit suit-red" if code in RED_SUITS else "suit"
