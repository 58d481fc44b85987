"""What a tournament accepts of a deal at one of its tables (docs/tournaments.md).

``services/deals.py`` applies it before every write of a deal, whichever page sends it (the
table's, or the club's session pages). It sits below both ``deals.py`` and ``services/events/``
(whose table services build on ``deals.py``) and imports neither, so the two never import each
other; the events package re-exports it and merges its messages into its own.
"""

from __future__ import annotations

from core.i18n import N_

from ..models import Deal, Game, Player, TournamentTable
from ..selectors import events as sel
from .errors import make_fail

MESSAGES = {
    "round_not_started": N_("Round %(number)s has not started yet."),
    "round_finished": N_("Round %(number)s is finished."),
    "seats_table": N_("The players of a deal must be exactly the players of the table."),
    "seats_outsider": N_(
        "%(others)s did not play at table %(table)s. Its deal no. %(seq)s was played by "
        "%(players)s: a tournament deal is corrected on its table, with that table's players."
    ),
    "seats_missing": N_(
        "Deal no. %(seq)s at table %(table)s was played by %(players)s: all of them are in it."
    ),
    "deals_done": N_(
        "Table %(table)s has recorded every deal of this round (%(count)s). Correct a deal "
        "instead, or ask the staff."
    ),
}

_fail = make_fail(MESSAGES)


def _label(table: TournamentTable) -> str:
    return f"R{table.round.number}-T{table.number}"


def _names(ids) -> str:
    found = dict(Player.objects.filter(pk__in=list(ids)).values_list("pk", "name"))
    return ", ".join(found.get(i, "?") for i in ids)


def table_deal_check(*, session, data: dict, deal: Deal | None = None, late: bool = False) -> None:
    """What a tournament accepts of a deal at one of its tables, whichever page sends it (the
    table's, or the club's session pages): exactly the players who held the table's seats for
    that deal, so no correction seats someone from another table; a new deal only while the
    round runs and within the tournament's deals per round; a deal restored only within them
    too. Nothing for a club's own sessions. Called by services.deals before any write.
    ``late``: the staff count a new deal after its round was finished (until the tournament
    is finished: ``services.events.table_deal_record``)."""
    table = sel.session_table(session.pk)
    if table is None:
        return
    rnd = table.round
    seq = deal.seq if deal is not None else sel.next_seq(table)
    expected = sel.players_at(table, seq)
    key = "seats" if session.game == Game.NAPOLEON else "order"
    try:
        given = [int(p) for p in (data.get(key) or [])]
    except (TypeError, ValueError):
        raise _fail(key, "seats_table") from None
    if sorted(given) != sorted(expected):
        others = [p for p in dict.fromkeys(given) if p not in expected]
        params = {"table": _label(table), "seq": seq, "players": _names(expected)}
        if others:
            raise _fail(key, "seats_outsider", others=_names(others), **params)
        raise _fail(key, "seats_missing", **params)
    if deal is None:
        if rnd.started_at is None:
            raise _fail("__all__", "round_not_started", number=rnd.number)
        if rnd.finished_at is not None and not late:
            raise _fail("__all__", "round_finished", number=rnd.number)
    limit = rnd.tournament.deals_per_round
    if limit and (deal is None or deal.is_deleted) and sel.live_deal_count(table) >= limit:
        raise _fail("__all__", "deals_done", table=_label(table), count=limit)
