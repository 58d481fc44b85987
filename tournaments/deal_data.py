"""Where a deal's stored data (``Deal.data``) names players, and why a stored deal changed.

Every path that stores a deal (the entry form, a tournament table's PIN entry, the results
import, the demo data) names players under these keys only, by their id (an int or its text),
and ``services/scoring_bridge.py`` reads players from these keys only:
tests/services/test_deal_data.py holds the bridge and every writer to this list. The player
merge and its undo rewrite exactly these places, so no stored deal keeps a player who is gone.

"Played together" means seated at the same deal: named under a ``SEATED_KEYS`` key (a Napoleon
deal's seats, a Daifugō round's players and order). The previous 大富豪 of a round is named by
it (for 都落ち) without having to sit in it.

Plain Python: the services (merge) and the selectors (merge preview, history) both read it.
"""

from __future__ import annotations

# One player or nothing.
PLAYER_KEY = ("napoleon", "adjutant", "previous_daifugo")
# A list of players.
PLAYER_LIST_KEYS = ("seats", "players", "order", "forbidden")
PLAYER_KEYS = PLAYER_KEY + PLAYER_LIST_KEYS
# Who sat at the deal.
SEATED_KEYS = ("seats", "players", "order")

Places = dict[str, "list[int] | bool"]


def _named(value) -> str | None:
    return None if value is None or value == "" else str(value)


def player_places(data: dict, key: str) -> Places:
    """Where ``data`` names the player ``key``: ``{"napoleon": True, "seats": [2], …}``."""
    places: Places = {}
    for name in PLAYER_KEY:
        if _named(data.get(name)) == key:
            places[name] = True
    for name in PLAYER_LIST_KEYS:
        values = data.get(name)
        if isinstance(values, list):
            found = [i for i, v in enumerate(values) if str(v) == key]
            if found:
                places[name] = found
    return places


def seated(data: dict, key: str) -> bool:
    """Whether the player ``key`` sat at the deal (not only named by it)."""
    return any(
        key in [str(v) for v in data.get(name)]
        for name in SEATED_KEYS
        if isinstance(data.get(name), list)
    )


def player_ids(data: dict) -> set[str]:
    """Every player the deal names, as text."""
    ids = {_named(data.get(name)) for name in PLAYER_KEY} - {None}
    for name in PLAYER_LIST_KEYS:
        values = data.get(name)
        if isinstance(values, list):
            ids.update(str(v) for v in values)
    return ids


def _as(value, key: str):
    """``key`` in the form ``value`` was stored in (an int stays an int)."""
    return int(key) if isinstance(value, int) and not isinstance(value, bool) else key


def places_renamed(data: dict, places: Places, old: str, new: str) -> dict | None:
    """``data`` with exactly ``places`` naming ``new`` instead of ``old``, each value in the form
    it was stored in; None when one of them does not name ``old`` (the deal changed since)."""
    out = dict(data)
    for name, where in places.items():
        if where is True:
            value = out.get(name)
            if _named(value) != old:
                return None
            out[name] = _as(value, new)
            continue
        values = list(out.get(name) or [])
        for index in where:
            if index >= len(values) or str(values[index]) != old:
                return None
            values[index] = _as(values[index], new)
        out[name] = values
    return out


# --- why a stored deal changed --------------------------------------------------------------
# A change efuda makes by itself is recorded in the deal's history as a short code (the history
# keeps at most 100 characters, and the page says it in the reader's language):
# "after:<seq>" (re-scored because round <seq> before it changed: the previous 大富豪),
# "merge:<PlayerMerge id>", "merge-undo:<PlayerMerge id>", "late:<round number>" (a tournament
# table's deal the staff counted after its round was finished). Any other reason is an
# editor's own words, shown as written.
REASON_KINDS = ("after", "merge", "merge-undo", "late")


def reason_code(kind: str, number: int) -> str:
    if kind not in REASON_KINDS:
        raise ValueError(f"unknown change reason {kind!r}")
    return f"{kind}:{int(number)}"


def reason_parse(text: str | None) -> tuple[str, int] | None:
    """``(kind, number)`` of a reason written by ``reason_code``; None for any other text."""
    kind, _sep, number = (text or "").partition(":")
    if kind in REASON_KINDS and number.isascii() and number.isdigit():
        return kind, int(number)
    return None
