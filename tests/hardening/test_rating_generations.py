"""The rating history in generations: an import's replay writes its ≈ 500,000 history rows
holding no lock and switches to them under the club's locks, so a deal recorded meanwhile
waits only for the switch. Real threads, each with its own connection."""

import threading
import time

import pytest
from django.db import connections

from tests import club_versions
from tests.hardening.helpers import WAITED_FOR_A_LOCK, build_club, napoleon_data
from tests.hardening.test_import_concurrency import _from_scratch, _import_file, _snapshot
from tournaments.models import Deal, Rating, RatingHistory, RatingState
from tournaments.selectors.ratings import rating_curves
from tournaments.services import ratings
from tournaments.services.busy import DatabaseBusy, bounded_wait
from tournaments.services.deals import deal_record
from tournaments.services.imports import results_import

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("threaded_db")]


def _in_thread(action, limit=10.0):
    """Run ``action`` in another thread (its own connection); return (result, error, seconds)."""
    out = {}

    def body():
        started = time.perf_counter()
        try:
            out["result"] = action()
        except Exception as exc:  # noqa: BLE001 - returned to the test
            out["error"] = exc
        finally:
            out["took"] = time.perf_counter() - started
            connections.close_all()

    thread = threading.Thread(target=body)
    thread.start()
    thread.join(timeout=limit)
    assert not thread.is_alive(), "the concurrent deal waited for the replay's history write"
    return out.get("result"), out.get("error"), out["took"]


class _DuringHistoryWrite:
    """Patch the replay's history insert: the first large insert (the replay's rows, written
    outside the lock) runs, then — its transaction still open — ``action`` runs in another
    thread and is timed."""

    def __init__(self, monkeypatch, action):
        self.result = self.error = self.took = None
        self.generations = []
        original = ratings._insert_history

        def insert(history, generation):
            original(history, generation)
            self.generations.append(generation)
            if len(self.generations) == 1:
                self.result, self.error, self.took = _in_thread(action)

        monkeypatch.setattr(ratings, "_insert_history", insert)


def test_a_deal_recorded_while_the_replay_writes_its_history_waits_only_for_the_switch(
    monkeypatch,
):
    if connections["default"].vendor != "postgresql":
        pytest.skip("SQLite has one writer: see the next test")
    club, players, nap, _dai = build_club(deals=4)
    ids = [p.id for p in players]
    before = RatingState.objects.get(club=club, game="napoleon").generation
    seen = {}

    def deal():
        recorded = deal_record(session=nap, data=napoleon_data(ids, n=7))
        # Learned at once, in the generation still current (the replay's is not switched to).
        seen["generations"] = set(
            RatingHistory.objects.filter(deal=recorded).values_list("generation", flat=True)
        )
        return recorded

    during = _DuringHistoryWrite(monkeypatch, deal)
    results_import(club=club, file=_import_file())
    assert during.error is None, during.error
    assert during.took < WAITED_FOR_A_LOCK, during.took
    recorded = during.result
    new = during.generations[0]
    assert new > before and seen["generations"] == {before}
    state = RatingState.objects.get(club=club, game="napoleon")
    assert state.generation == new  # switched once, to the replay's generation
    assert state.last_deal_id == recorded.pk  # the deal was learned on top under the lock
    assert set(
        RatingHistory.objects.filter(deal=recorded).values_list("generation", flat=True)
    ) == {new}
    live = Deal.objects.filter(club=club, game="napoleon", redeal=False).count()
    assert state.deals == live == 3 + 12 + 1
    assert _snapshot(club) == _from_scratch(club)  # old generation deleted; exact ratings


def test_on_sqlite_a_deal_during_the_history_write_is_told_to_save_again_quickly(
    monkeypatch, settings
):
    if connections["default"].vendor != "sqlite":
        pytest.skip("PostgreSQL: the deal is recorded (previous test)")
    settings.SQLITE_DEAL_WAIT_SECONDS = 0.5
    club, players, nap, _dai = build_club(deals=4)
    ids = [p.id for p in players]
    count = Deal.objects.filter(session=nap).count()

    def deal():
        with bounded_wait():  # as every web request runs (middleware)
            return deal_record(session=nap, data=napoleon_data(ids, n=7))

    during = _DuringHistoryWrite(monkeypatch, deal)
    results_import(club=club, file=_import_file())
    assert isinstance(during.error, DatabaseBusy) and during.took < WAITED_FOR_A_LOCK, during.took
    assert Deal.objects.filter(session=nap).count() == count
    assert _snapshot(club) == _from_scratch(club)


def test_a_failed_replay_leaves_the_current_generation_and_removes_its_own_rows(monkeypatch):
    club, _players, _nap, _dai = build_club(deals=6)
    ratings.ratings_replay(club_id=club.pk, game="napoleon")
    before = _snapshot(club)
    state = RatingState.objects.get(club=club, game="napoleon")
    written = []
    original_insert = ratings._insert_history_alone

    def insert(history, generation):
        original_insert(history, generation)
        written.append((generation, len(history)))

    def store(*args, **kwargs):
        raise RuntimeError("the switch failed")

    monkeypatch.setattr(ratings, "_insert_history_alone", insert)
    monkeypatch.setattr(ratings, "_store", store)
    with pytest.raises(RuntimeError, match="the switch failed"):
        ratings.ratings_replay(club_id=club.pk, game="napoleon")
    # Its rows were committed before the lock was taken, and removed after the failure.
    assert written and written[0][0] > state.generation and written[0][1] > 0
    after = RatingState.objects.get(club=club, game="napoleon")
    assert (after.generation, after.version) == (state.generation, state.version)
    assert after.next_generation == written[0][0]  # numbers are never reused
    assert _snapshot(club) == before
    monkeypatch.undo()
    ratings.ratings_replay(club_id=club.pk, game="napoleon")
    assert RatingState.objects.get(club=club, game="napoleon").generation > written[0][0]
    assert _snapshot(club)[:4] == before[:4]


def test_the_chart_reads_only_the_current_generation_and_restore_prunes_the_others():
    club, players, _nap, _dai = build_club(deals=6)
    ratings.ratings_replay(club_id=club.pk, game="napoleon")
    state = RatingState.objects.get(club=club, game="napoleon")
    player = players[0]
    shown = rating_curves(player=player)
    current = list(
        RatingHistory.objects.filter(player=player, game="napoleon", generation=state.generation)
    )
    assert current
    # Another generation's rows (a replay writing, or an old one not yet deleted): not shown.
    assert state.generation >= 1
    for other in (state.generation - 1, state.generation + 5):
        RatingHistory.objects.bulk_create(
            RatingHistory(
                club=club,
                game="napoleon",
                player=row.player,
                deal=row.deal,
                n=row.n,
                date=row.date,
                mu=999.0,
                sigma=1.0,
                generation=other,
            )  # fmt: skip
            for row in current
        )
    again = rating_curves(player=player)
    assert [(c.game, c.dates, c.mu) for c in again] == [(c.game, c.dates, c.mu) for c in shown]
    assert all(999.0 not in c.mu for c in again)
    # A rating row that keeps no chart points (restored from a backup made before they were
    # kept) has them read from the history: the current generation's rows only.
    with club_versions.unchecked():
        Rating.objects.filter(player=player).update(curve="")
    read = rating_curves(player=player)
    assert [(c.game, c.dates, c.mu) for c in read] == [(c.game, c.dates, c.mu) for c in shown]
    # After a restore (a backup may hold such rows) only the current generation is kept.
    assert ratings.ratings_history_prune() == 2 * len(current)
    assert set(
        RatingHistory.objects.filter(club=club, game="napoleon").values_list(
            "generation", flat=True
        )
    ) == {state.generation}


def test_a_deal_recorded_during_the_imports_write_transaction_does_not_wait_for_it(
    monkeypatch,
):
    """The import's inserts take key-share locks on the club row (foreign keys); a deal locks
    its session and club rows FOR NO KEY UPDATE, which does not wait for them."""
    if connections["default"].vendor != "postgresql":
        pytest.skip("SQLite has one writer: a deal waits briefly and is told to save again")
    from tournaments.models import ScoreLine
    from tournaments.services import bulk

    club, players, nap, _dai = build_club(deals=4)
    ids = [p.id for p in players]
    during = {}
    original = bulk.Table.insert

    def insert(self, *args, **kwargs):
        result = original(self, *args, **kwargs)
        if self.model is ScoreLine and not during:  # the import's score lines, not committed
            during["out"] = _in_thread(
                lambda: deal_record(session=nap, data=napoleon_data(ids, n=7))
            )
        return result

    monkeypatch.setattr(bulk.Table, "insert", insert)
    results_import(club=club, file=_import_file())
    recorded, error, took = during["out"]
    assert error is None, error
    assert took < WAITED_FOR_A_LOCK, took
    assert Deal.objects.filter(pk=recorded.pk).exists()
    assert _snapshot(club) == _from_scratch(club)
