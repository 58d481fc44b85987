"""Keep the stored ratings in step with the deals, inside the caller's transaction.

A new deal that comes after everything already rated is learned incrementally (a few rows).
Anything else — a back-dated deal, an edit, a delete, a restore, an import — replays the club's
whole history of that game from its score lines: the same deals always give the same ratings.
A replay reads score lines in bulk and writes the rating rows in bulk (COPY on PostgreSQL).

The rating history is kept in generations (``RatingState.generation``; readers see only its
rows). A replay that runs after an import writes its history rows under a new generation
holding no lock, and takes the club's locks only to switch to it; deals recorded meanwhile wait
for that switch, not for the ≈ 500,000 history rows of a large club.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator
from dataclasses import asdict

from django.db import IntegrityError, connection, connections, models, transaction
from django.utils import timezone

from ratings.engine import Rater, conservative, params_for

from ..models import Deal, Game, Rating, RatingHistory, RatingState, ScoreLine
from ..selectors.ratings import (
    curve_line,
    deal_rated,
    deal_rating_events,
    rating_events,
    rating_lines_after,
    rating_lines_count,
)
from . import bulk
from .busy import bulk_write
from .cache import club_version_bump
from .rating_curves import curve_next, curves_read, curves_replayed

FLUSH_ROWS = 50_000
_deferred: contextvars.ContextVar[set | None] = contextvars.ContextVar(
    "ratings_deferred", default=None
)


@contextlib.contextmanager
def ratings_deferred() -> Iterator[None]:
    """Within this block deals only note which club and game need new ratings; each is
    replayed once when the block ends (an import of many deals replays once, not per deal)."""
    if _deferred.get() is not None:  # nested: the outer block replays
        yield
        return
    pending: set = set()
    token = _deferred.set(pending)
    try:
        yield
    finally:
        _deferred.reset(token)
    for club_id, game in sorted(pending):
        ratings_replay(club_id=club_id, game=game)


def _params_key(game: str) -> dict:
    return asdict(params_for(game))


def ratings_deal_changed(
    *, deal: Deal, created: bool = False, lines=None, at_table: bool | None = None
) -> None:
    """Bring the ratings up to date after ``deal`` was recorded (``created``), edited,
    deleted or restored. Called by the deal services in their transaction; a new deal's
    service passes the score lines it just wrote (``lines``), so they are not read back, and
    whether its session is a tournament table's (``at_table``, read with the session's lock)."""
    pending = _deferred.get()
    if pending is not None:
        pending.add((deal.club_id, deal.game))
        return
    if at_table is not False and not deal_rated(deal=deal):
        # A deal hidden from some reader of the club (a private tournament's in a public club,
        # a frozen round's) is not rated, before or after this change: nothing to update. It
        # is learned when it stops being hidden (``ratings_visibility_changed``). Only a
        # tournament table's deals are ever hidden: a caller that read the session is none
        # (``at_table=False``) spares the question.
        return
    if created and _learn_one(deal, lines):
        return
    ratings_replay(club_id=deal.club_id, game=deal.game)


def _locked_state(club_id: int, game: str) -> RatingState:
    """The club's state row, locked for this transaction (created if missing). Both the
    incremental update and the replay take this lock first, so they queue, never deadlock."""
    state = RatingState.objects.select_for_update().filter(club_id=club_id, game=game).first()
    if state is None:
        try:
            with transaction.atomic():
                RatingState.objects.create(club_id=club_id, game=game, params=_params_key(game))
        except IntegrityError:  # created meanwhile by another transaction: use theirs
            pass
        state = RatingState.objects.select_for_update().get(club_id=club_id, game=game)
    return state


def _learnable(state: RatingState, deal: Deal, date) -> bool:
    """Whether ``deal`` can be learned on top of the club's ratings as they are: they were
    computed (with today's parameters) and the deal comes after every deal they learned."""
    if (
        state.deals == 0
        and rating_lines_count(club_id=deal.club_id, game=deal.game)
        > ScoreLine.objects.filter(deal_id=deal.pk).count()
    ):
        return False  # ratings never computed for this club's history: replay builds them
    if state.params != _params_key(deal.game):
        return False
    return state.last_date is None or (date, deal.pk) > (state.last_date, state.last_deal_id or 0)


def _learn(state: RatingState, deal: Deal, date, event) -> None:
    """The deal's players' ratings after ``event`` (the deal), their history rows, and the
    state moved on past the deal."""
    current = {  # player: (mu, sigma, deals, curve)
        player_id: rest
        for player_id, *rest in Rating.objects.filter(
            club_id=deal.club_id, game=deal.game, player_id__in=event.players
        ).values_list("player_id", "mu", "sigma", "deals", "curve")
    }
    rater = Rater(
        params_for(deal.game),
        ratings={p: (mu, sigma) for p, (mu, sigma, *_rest) in current.items()},
        handicaps=state.handicaps,
    )
    after = rater.update(event)
    club_id, game, history, rows = deal.club_id, deal.game, [], []
    for player_id, (mu, sigma) in after.items():
        _mu, _sigma, deals, curve = current.get(player_id, (0, 0, 0, ""))
        row = Rating(  # unsaved: its chart's points may still be read (``curves_read``)
            club_id=club_id, game=game, player_id=player_id, mu=mu, sigma=sigma,
            score=conservative(mu, sigma), deals=deals + 1, last_played=date,
            curve=curve_next(curve, deals + 1, curve_line(deals + 1, date, mu, sigma)),
        )  # fmt: skip
        rows.append(row)
        history.append(
            (club_id, game, player_id, deal.pk, row.deals, date, float(mu), float(sigma),
             state.generation)
        )  # fmt: skip
    # The history rows, then one upsert for the new and the known players, each built in
    # services.bulk (the ORM's bulk_create took longer to build them than the rest of the
    # deal's statements); the rows are locked by the rating state's lock (``_locked_state``).
    # The deal's own service moves the club's data version in this transaction, so cached
    # pages show the new ratings.
    bulk.insert_once(
        RatingHistory,
        ("club_id", "game", "player_id", "deal_id", "n", "date", "mu", "sigma", "generation"),
        history,
    )
    curves_read(rows, state.generation)  # the chart's points, when the step grew
    bulk.upsert_set_once(
        Rating, keys=("club_id", "game", "player_id"),
        fields=("club_id", "game", "player_id", "mu", "sigma", "score", "deals", "last_played",
                "curve"),
        rows=[(r.club_id, r.game, r.player_id, float(r.mu), float(r.sigma), float(r.score),
               r.deals, r.last_played, r.curve) for r in rows],
    )  # fmt: skip
    state.handicaps = {k: list(v) for k, v in sorted(rater.handicaps.items())}
    state.deals += 1
    state.last_deal_id = deal.pk
    state.last_date = date


def _learn_one(deal: Deal, lines=None) -> bool:
    """Learn a new deal incrementally when it comes after every rated deal; False when the
    club's ratings must be replayed instead."""
    state = _locked_state(deal.club_id, deal.game)
    date = deal.session.date
    if not _learnable(state, deal, date):
        return False
    if lines is None:
        events = list(rating_events(club_id=deal.club_id, game=deal.game, deal_id=deal.pk))
    else:
        events = deal_rating_events(game=deal.game, deal_id=deal.pk, date=date, lines=lines)
    if events:
        _deal_id, _date, event = events[0]
        _learn(state, deal, date, event)
    state.computed_at = timezone.now()
    # The version stays: this deal comes after all history, and a replay computed meanwhile
    # learns it on top when it is written (``_catch_up``).
    state.save(update_fields=["handicaps", "deals", "last_deal", "last_date", "computed_at"])
    return True


REPLAY_ATTEMPTS = 3


def ratings_replay(*, club_id: int, game: str) -> RatingState:
    """Recompute the club's ratings in ``game`` from its whole history, in order.

    Inside the caller's transaction (a deal edited, players merged) the state row is locked
    first and the replay computed and written under that lock, with the caller's changes.
    Called outside any transaction (after an import committed) the replay is computed holding
    no lock — a deal recorded meanwhile waits for nothing — and the lock is taken only to write
    it. Under the lock: if the state's ``version`` moved (a deal edited, deleted or restored,
    another import or replay) it is computed again (a few times, then under the lock); deals
    only added after the end of history meanwhile (each learned incrementally, which leaves
    the version alone) are learned on top of the computed replay, after checking that the
    score lines now are exactly those it read plus those deals. The result is always exactly
    that of a replay from scratch of the score lines as they are when it is written.

    Outside a transaction the history rows are written before the lock is taken, under a new
    generation number that no reader looks at; under the lock only the deals caught up, the
    players' current ratings (one row each) and the switch of the state's ``generation`` are
    written. The older generations' rows are deleted after COMMIT; a replay that is not
    written (or fails) deletes its own rows."""
    if connection.in_atomic_block:  # one change of the caller's (no savepoint of its own)
        with transaction.atomic(savepoint=False):
            return _replay_locked(club_id, game)
    for _attempt in range(REPLAY_ATTEMPTS):
        # The version is read before the score lines: a change committed in between shows as
        # a newer version under the lock.
        version = _version(club_id, game)
        computed = _compute(club_id, game)
        generation = _allocate_generation(club_id, game)
        state = None
        try:
            # Own transaction(s), no club or state lock: readers ignore this generation.
            # SQLite: the insert still takes the one writer, so deals wait briefly (busy.py).
            _insert_history_alone(computed.history, generation)
            written = len(computed.history)
            stored = None
            with bulk_write(), transaction.atomic():
                # The same lock order as a deal's transaction (club row, then the state row).
                club_version_bump(club_id=club_id)
                locked = _locked_state(club_id, game)
                if locked.version == version and _catch_up(computed, club_id, game):
                    _insert_history(computed.history[written:], generation)
                    stored = _store(locked, computed, generation)
            state = stored  # committed
        except IntegrityError:
            # A player it rates was merged away meanwhile (its foreign keys, checked at
            # COMMIT): what was computed is out of date anyway; computed again below.
            state = None
        finally:
            if state is None:  # not written (computed again below) or failed: drop own rows
                _drop_generation(club_id, game, generation)
        if state is not None:
            _drop_older(club_id, game, state.generation)
            return state
    with transaction.atomic():
        return _replay_locked(club_id, game)


def _allocate_generation(club_id: int, game: str) -> int:
    """A new generation number, in a short transaction of its own (monotonic per club/game:
    two replays never share one, and a number is never reused)."""
    with transaction.atomic():
        RatingState.objects.filter(club_id=club_id, game=game).update(
            next_generation=models.F("next_generation") + 1
        )
        return (
            RatingState.objects.filter(club_id=club_id, game=game)
            .values_list("next_generation", flat=True)
            .get()
        )


def _drop_generation(club_id: int, game: str, generation: int) -> None:
    with bulk_write(), transaction.atomic():
        _delete(RatingHistory, club_id, game, "generation = %s", [generation])


def _drop_older(club_id: int, game: str, generation: int) -> None:
    """After a switch committed: the rows of older generations (never newer ones, which
    another replay may be writing)."""
    with bulk_write(), transaction.atomic():
        _delete(RatingHistory, club_id, game, "generation < %s", [generation])


def _version(club_id: int, game: str) -> int:
    version = (
        RatingState.objects.filter(club_id=club_id, game=game)
        .values_list("version", flat=True)
        .first()
    )
    if version is None:
        with transaction.atomic():  # a moment only: the state row, created
            version = _locked_state(club_id, game).version
    return version


def _replay_locked(club_id: int, game: str) -> RatingState:
    """Inside the caller's transaction: everything under the lock, as one change."""
    club_version_bump(club_id=club_id)  # the club row first, as a deal's transaction does
    state = _locked_state(club_id, game)
    computed = _compute(club_id, game)
    generation = _allocate_generation(club_id, game)
    _insert_history(computed.history, generation)
    state = _store(state, computed, generation)
    # Older generations only: a replay running outside a transaction may be writing a newer
    # one (it finds the version moved under the lock and drops its rows).
    _delete(RatingHistory, club_id, game, "generation < %s", [generation])
    return state


def ratings_visibility_changed(*, club_id: int) -> None:
    """The set of deals the club's ratings learn from changed (a freeze set, changed or
    revealed; the club made public or private): replay both games once the caller's
    transaction has committed, outside it (the lock-free path above)."""

    def replay():
        for game in Game.values:
            ratings_replay(club_id=club_id, game=game)

    transaction.on_commit(replay)


def ratings_lines_changed(*, club_id: int, game: str) -> None:
    """Note, in the caller's transaction, that the club's score lines in ``game`` changed
    without a rating update (an import; its replay follows once it committed): a replay
    computed meanwhile from the old lines is then not written."""
    state = _locked_state(club_id, game)
    RatingState.objects.filter(pk=state.pk).update(version=models.F("version") + 1)


class _Computed:
    """A replay's result, held in memory until it is written."""

    __slots__ = ("history", "rater", "counts", "deals", "last", "lines", "club_id", "game")

    def __init__(self, club_id: int, game: str):
        self.club_id, self.game = club_id, game
        self.history: list[tuple] = []
        self.rater = Rater(params_for(game))
        self.counts: dict[int, list] = {}  # player -> [deals, last date]
        self.deals = 0
        self.last = None  # (deal id, date) of the last deal learned
        self.lines = [0]  # score lines read

    def learn(self, events) -> None:
        history, counts, rater = self.history, self.counts, self.rater
        club_id, game = self.club_id, self.game
        for deal_id, date, event in events:
            self.deals += 1
            self.last = (deal_id, date)
            for player_id, (mu, sigma) in rater.update(event).items():
                seen = counts.get(player_id)
                if seen is None:
                    seen = counts[player_id] = [0, date]
                seen[0] += 1
                seen[1] = date
                history.append((club_id, game, player_id, deal_id, seen[0], date, mu, sigma))


def _compute(club_id: int, game: str) -> _Computed:
    out = _Computed(club_id, game)
    out.learn(rating_events(club_id=club_id, game=game, lines=out.lines))
    return out


def _catch_up(computed: _Computed, club_id: int, game: str) -> bool:
    """Under the lock, the version unchanged: learn the deals added after the computed replay's
    last deal; False if the score lines are not exactly those read plus those deals (a deal
    added earlier in history: compute again)."""
    total = rating_lines_count(club_id=club_id, game=game)
    if computed.last is None:
        return total == 0
    deal_id, date = computed.last
    added = rating_lines_after(club_id=club_id, game=game, after=(date, deal_id))
    if total != computed.lines[0] + added:
        return False
    if added:
        computed.learn(rating_events(club_id=club_id, game=game, after=(date, deal_id)))
    return True


_HISTORY_COLUMNS = [
    "club_id", "game", "player_id", "deal_id", "n", "date", "mu", "sigma", "generation"
]  # fmt: skip


def _insert_history_alone(history: list[tuple], generation: int) -> None:
    """A new generation's rows, in a transaction of their own. SQLite: copied aside first,
    then moved in one statement (``bulk.stage``), so the one writer is held for a moment."""
    staged = None
    if connection.vendor == "sqlite":  # PostgreSQL copies them in with COPY as they are
        rows = [(*row, generation) for row in history]
        staged = bulk.stage(RatingHistory, _HISTORY_COLUMNS, rows)
        del rows
    try:
        with bulk_write(), transaction.atomic():
            if staged is None:
                _insert_history(history, generation)
            else:
                bulk.insert_staged(RatingHistory, _HISTORY_COLUMNS, staged)
    finally:
        if staged is not None:
            bulk.drop_staged(staged)


def _insert_history(history: list[tuple], generation: int) -> None:
    for start in range(0, len(history), FLUSH_ROWS):
        bulk.insert_rows(
            RatingHistory,
            _HISTORY_COLUMNS,
            [(*row, generation) for row in history[start : start + FLUSH_ROWS]],
        )


def _store(state: RatingState, computed: _Computed, generation: int) -> RatingState:
    """Replace the club's current ratings by ``computed`` and switch the history to
    ``generation`` (its rows already written; under the state's lock, the club row already
    updated in this transaction so that cached pages show the new figures)."""
    club_id, game = state.club_id, state.game
    _delete(Rating, club_id, game)
    counts = computed.counts
    curves = curves_replayed(computed.history, counts)
    Rating.objects.bulk_create(
        [
            Rating(
                club_id=club_id,
                game=game,
                player_id=player_id,
                mu=mu,
                sigma=sigma,
                score=conservative(mu, sigma),
                deals=counts[player_id][0],
                last_played=counts[player_id][1],
                curve=curves[player_id],
            )  # fmt: skip
            for player_id, (mu, sigma) in sorted(computed.rater.ratings.items())
        ],
        batch_size=2000,
    )
    last = computed.last
    state.deals = computed.deals
    state.last_deal_id = last[0] if last else None
    state.last_date = last[1] if last else None
    state.computed_at = timezone.now()
    state.handicaps = {k: list(v) for k, v in sorted(computed.rater.handicaps.items())}
    state.params = _params_key(game)
    state.version += 1  # a replay computed meanwhile by another process is not written
    state.generation = generation
    # The allocator moved in its own transaction: never write back the value read here.
    state.save(update_fields=[
        "deals", "last_deal", "last_date", "computed_at", "handicaps", "params", "version",
        "generation",
    ])  # fmt: skip
    return state


def _delete(model, club_id: int, game: str, where: str = "", params: list | None = None) -> None:
    """One DELETE statement: the rows are derived and nothing points at them (QuerySet.delete
    would fetch them first, to cascade and send signals)."""
    table = connection.ops.quote_name(model._meta.db_table)
    extra = f" AND {where}" if where else ""
    with connection.cursor() as cursor:
        cursor.execute(
            f"DELETE FROM {table} WHERE club_id = %s AND game = %s{extra}",
            [club_id, game, *(params or [])],
        )


def ratings_history_prune(*, using: str | None = None) -> int:
    """Delete every rating-history row that is not of its club's current generation (after a
    restore: a backup may hold a replay's rows not yet switched to, or an old generation not
    yet deleted). Returns the number of rows deleted."""
    conn = connection if using is None else connections[using]
    history = conn.ops.quote_name(RatingHistory._meta.db_table)
    states = conn.ops.quote_name(RatingState._meta.db_table)
    with conn.cursor() as cursor:
        cursor.execute(
            f"DELETE FROM {history} WHERE NOT EXISTS (SELECT 1 FROM {states} s "
            f"WHERE s.club_id = {history}.club_id AND s.game = {history}.game "
            f"AND s.generation = {history}.generation)"
        )
        return cursor.rowcount


__all__ = [
    "ratings_deal_changed",
    "ratings_deferred",
    "ratings_history_prune",
    "ratings_lines_changed",
    "ratings_replay",
    "ratings_visibility_changed",
]
