"""Render the scoring core's translatable messages and errors in the user's language, and the
words every page shares: the glossary of Japanese game terms and how a list of names is
written in each language."""

from collections.abc import Mapping, Sequence

from django.utils.html import format_html
from django.utils.translation import get_language, gettext, pgettext_lazy

from core.errors import EfudaError
from rules import TITLE_LABELS

# Parameters of the core's messages that hold a player key (or a ", "-joined list of keys).
# Only these are mapped to names, so a bid of 25 never turns into the name of player 25.
PLAYER_PARAMS = frozenset({"napoleon", "adjutant", "player", "giver", "receiver", "leader"})
PLAYER_LIST_PARAMS = frozenset({"order", "players"})

# The clubs' own Japanese game terms and the one English gloss each has on an English page,
# written after the term: 大富豪 (grand millionaire). Japanese pages show the term alone.
# tests/i18n/test_words.py holds every page and message to this list.
GLOSSES: Mapping[str, str] = {
    **{japanese: english[:1].lower() + english[1:] for japanese, english in TITLE_LABELS.values()},
    "都落ち": "fall from the capital",
    "独り立ち": "solo",
    "作戦B": "Plan B",
    "流れ": "redeal",
}


def japanese_page() -> bool:
    return (get_language() or "ja").startswith("ja")


def glossed(term: str) -> str:
    """A game term as plain text: with its gloss on an English page (大富豪 (grand
    millionaire)), alone on a Japanese one; any other text as it is (asked first: most
    texts are not terms, and the page's language is a thread-local read)."""
    if term not in GLOSSES or japanese_page():
        return term
    return f"{term} ({GLOSSES[term]})"


def term_html(term: str):
    """A game term as HTML: on an English page marked ``lang="ja"`` and followed by its gloss
    (the ``|term`` filter, and table headings); anything else as it is."""
    if term not in GLOSSES or japanese_page():
        return term
    return format_html('<span lang="ja">{}</span> <span class="gloss">({})</span>', term,
                       GLOSSES[term])  # fmt: skip


def heading(field, place: str, *, html: bool = True):
    """A standings field's heading in ``place`` (``standings_fields``) in the reader's
    language: a game term as ``term_html`` shows it (as it is when not ``html``), any other
    heading translated."""
    text = field.heading(place)
    if field.term:
        return term_html(text) if html else text
    return gettext(text)


def list_join(items: Sequence) -> str:
    """Names (or any short items) as a list in the page's language: 「太郎、花子」, "Ken, Sam"."""
    return ("、" if japanese_page() else ", ").join(str(item) for item in items)


def named_params(params: Mapping | None, names: Mapping | None = None) -> dict:
    """``params`` with every player key replaced by the player's name from ``names`` (player
    keys, ids as strings, to display names), and every list of keys made a list of names:
    what a stored message keeps, so it can be rendered later in any language without the
    names at hand."""
    params = dict(params or {})
    for key, value in params.items():
        if not isinstance(value, str):
            continue
        if key in PLAYER_PARAMS and names and value in names:
            params[key] = names[value]
        elif key in PLAYER_LIST_PARAMS:
            keys = [item for item in value.split(", ") if item]
            params[key] = [(names or {}).get(item, item) for item in keys]
    return params


def display_params(params: Mapping | None) -> dict:
    """Parameters as a message shows them: a list joined in the page's language, a game term
    glossed on an English page."""
    shown = {}
    for key, value in (params or {}).items():
        if isinstance(value, list | tuple):
            value = list_join(value)
        elif isinstance(value, str) and key not in PLAYER_PARAMS:  # a name is never glossed
            value = glossed(value)
        shown[key] = value
    return shown


def stored_params(params: Mapping | None, names: Mapping | None = None) -> dict:
    """``named_params`` as JSON keeps them: numbers, text, true/false and null as they are,
    anything else as its text."""

    def plain(value):
        if value is None or isinstance(value, str | int | float | bool):
            return value
        if isinstance(value, list | tuple):
            return [plain(item) for item in value]
        return str(value)

    return {key: plain(value) for key, value in named_params(params, names).items()}


def render_message(
    text: str,
    params: Mapping | None = None,
    names: Mapping | None = None,
    translations: dict | None = None,
) -> str:
    """Translate a msgid from the scoring core and fill its parameters.

    ``names`` maps player keys (ids as strings) to display names, so a message that names a
    player shows the name, never the database id. ``translations``: msgids already translated
    (for one page in one language, whose lines repeat the same few messages), filled here.
    """
    params = display_params(named_params(params, names))
    if translations is None:
        translated = gettext(text)
    elif (translated := translations.get(text)) is None:
        translated = translations[text] = gettext(text)
    try:
        return translated % params if params else translated
    except (KeyError, TypeError, ValueError):
        # A broken translation must never take a page down: fall back to the msgid.
        return text % params if params else text


def render_explanation(
    lines: Sequence, names: Mapping | None = None, translations: dict | None = None
) -> list[str]:
    """``lines`` is the stored explanation: a list of ``[text, params]`` pairs."""
    return [render_message(text, params, names, translations) for text, params in lines]


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
