"""An import's ratings replay runs after its commit, in the task worker
(services/ratings_queue.py): until it has run, readers see the ratings exactly as they were
before the import — never part of the file — and then exactly a replay from scratch."""

import pytest

from tests.hardening.helpers import build_club
from tests.hardening.test_import_concurrency import _from_scratch, _import_file, _snapshot
from tournaments.models import Deal, RatingState
from tournaments.selectors.ratings import rating_curves, ratings_page
from tournaments.services import ratings_queue
from tournaments.services.imports import ImportFailed, results_import

pytestmark = pytest.mark.django_db


class _Queue:
    """The task queue, held: what the import enqueues is kept, not run."""

    def __init__(self):
        self.calls = []

    def enqueue(self, **kwargs):
        self.calls.append(kwargs)


def test_the_ratings_stay_as_before_until_the_queued_replay_runs(monkeypatch):
    club, players, _nap, _dai = build_club(deals=4)
    before = _snapshot(club)
    page = ratings_page(club=club, game="napoleon", show_all=True).rows
    curves = rating_curves(player=players[0])
    queue = _Queue()
    monkeypatch.setattr(ratings_queue, "ratings_replay_run", queue)
    report = results_import(club=club, file=_import_file())
    assert report.deals == 12
    assert queue.calls == [{"club_id": club.pk, "game": "napoleon"}]
    # Committed: the deals are there, the ratings are the ones from before, whole.
    assert Deal.objects.filter(club=club, session__date__year=2020).count() == 12
    assert _snapshot(club) == before
    assert ratings_page(club=club, game="napoleon", show_all=True).rows == page
    assert rating_curves(player=players[0]) == curves
    monkeypatch.undo()
    ratings_queue.ratings_replay_run.call(**queue.calls[0])  # the worker runs the task
    after = _snapshot(club)
    state = RatingState.objects.get(club=club, game="napoleon")
    assert state.deals == 3 + 12  # every rated deal: the club's (one redeal) and the file's
    assert after != before
    assert after == _from_scratch(club)
    assert ratings_page(club=club, game="napoleon", show_all=True).rows != page


def test_a_failed_import_queues_no_replay(monkeypatch):
    club, _players, _nap, _dai = build_club(deals=1)
    queue = _Queue()
    monkeypatch.setattr(ratings_queue, "ratings_replay_run", queue)
    bad = _import_file().replace(b",14,0\n", b",99,0\n", 1)
    with pytest.raises(ImportFailed):
        results_import(club=club, file=bad)
    assert queue.calls == []
