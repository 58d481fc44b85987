"""Keep ``StandingAggregate`` rows in step with score lines, inside the caller's transaction."""

from collections import defaultdict
from collections.abc import Iterable

from django.db.models import F

from ..models import BidAggregate, ScoreLine, StandingAggregate
from . import bulk
from .scoring_bridge import (
    BID_COUNTERS,
    SCORE_LINE_FIELDS,
    LineSpec,
    bid_counters,
    counters,
    periods,
)


def spec_of(line: ScoreLine) -> LineSpec:
    """A stored score line back as the ``LineSpec`` it was written from."""
    return LineSpec(**{name: getattr(line, name) for name in SCORE_LINE_FIELDS})


def aggregates_apply(*, club_id: int, game: str, day, specs: Iterable[LineSpec], sign: int) -> None:
    """Add (sign=+1) or remove (sign=-1) score lines from the month, season and all-time rows.

    Increments are added by the database (``F()`` or ``c = c + excluded.c``), so two
    scorekeepers saving at once never lose an update. Adding takes one statement for the
    standings and one for the bid record (an upsert, in the import's row order); removing
    updates rows that exist (a row is checked as proposed, so negative counters could not be
    proposed as new rows).
    """
    specs_list = list(specs)
    deltas: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for spec in specs_list:
        for key, value in counters(spec).items():
            deltas[spec.player_id][key] += sign * value
    if not deltas:
        return
    keys = periods(day)
    if sign > 0:
        bulk.upsert_add_once(
            StandingAggregate, keys=("club", "game", "period", "player"),
            counters=StandingAggregate.COUNTERS,
            rows=sorted(
                (club_id, game, period, player_id,
                 *(delta.get(name, 0) for name in StandingAggregate.COUNTERS))
                for player_id, delta in deltas.items()
                for period in keys
            ),
        )  # fmt: skip
        _bids_add(club_id=club_id, specs=specs_list)
        return
    StandingAggregate.objects.bulk_create(
        [
            StandingAggregate(club_id=club_id, game=game, period=period, player_id=player_id)
            for player_id in deltas
            for period in keys
        ],
        ignore_conflicts=True,
    )
    for player_id, delta in deltas.items():
        StandingAggregate.objects.filter(
            club_id=club_id, game=game, player_id=player_id, period__in=keys
        ).update(**{field: F(field) + value for field, value in delta.items()})
    _bids_apply(club_id=club_id, specs=specs_list, sign=sign)


def _bids_add(*, club_id: int, specs: list[LineSpec]) -> None:
    """``_bids_apply`` adding, in one statement."""
    added: dict[tuple, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for spec in specs:
        delta = bid_counters(spec)
        if delta is not None:
            for name, value in delta.items():
                added[(spec.player_id, spec.bid, spec.trump)][name] += value
    bulk.upsert_add_once(
        BidAggregate, keys=("player", "bid", "trump"), fixed=("club",), counters=BID_COUNTERS,
        rows=sorted((*key, club_id, *(delta[n] for n in BID_COUNTERS))
                    for key, delta in added.items()),
    )  # fmt: skip


def _bids_apply(*, club_id: int, specs: list[LineSpec], sign: int) -> None:
    """The Napoleon's own line also counts in their per-bid, per-trump record."""
    for spec in specs:
        delta = bid_counters(spec)
        if delta is None:
            continue
        BidAggregate.objects.bulk_create(
            [
                BidAggregate(
                    club_id=club_id, player_id=spec.player_id, bid=spec.bid, trump=spec.trump
                )
            ],
            ignore_conflicts=True,
        )
        BidAggregate.objects.filter(
            player_id=spec.player_id, bid=spec.bid, trump=spec.trump
        ).update(**{f: F(f) + sign * v for f, v in delta.items() if v})
