"""A one-deal import into a club while a large import of the same club is being written: on
PostgreSQL it does not wait for the large import's bulk inserts (it commits first, while they are
still uncommitted), and both end whole, the standings equal to the score lines. Real threads,
each with its own connection. How long it waits is measured by ``manage.py bench
--import-lines N`` (docs/performance.md), not here."""

import threading

import pytest
from django.db import connection, connections

from tests.hardening.helpers import aggregates_match_lines, build_club
from tests.imports.helpers import NAPOLEON_HEADER, csv_bytes
from tournaments.models import Club, Deal, GameSession, Player
from tournaments.services.imports import results_import, write

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("threaded_db")]


def _file(names: list[str], days: int, *, month: int, deals: int = 20) -> bytes:
    rows = [NAPOLEON_HEADER]
    seats = ";".join(names)
    for d in range(1, days + 1):
        for n in range(deals):
            nap, adjutant = names[n % 5], names[(n + 1) % 5]
            rows.append(f"2021-{month:02d}-{d:02d},A,napoleon-wiki,{seats},{nap},13,S,SA,"
                        f"{adjutant},{10 + n % 8},0")  # fmt: skip
    return csv_bytes(*rows)


class _DuringBulkInserts:
    """The large import's write transaction, after its bulk inserts and before the rows it
    holds last (the club's version, the standings): ``action`` runs in another thread, which
    the large import waits for (at most ``limit`` seconds) before it goes on and commits."""

    def __init__(self, monkeypatch, action, limit=30.0):
        self.outcome: dict = {}
        self.ran = False
        original = write.club_version_bump

        def bump(*, club_id):
            if not self.ran:
                self.ran = True
                self._run(action, limit)
            return original(club_id=club_id)

        monkeypatch.setattr(write, "club_version_bump", bump)

    def _run(self, action, limit):
        def body():
            try:
                self.outcome["result"] = action()
                # What the small import's own connection sees once it has committed: the
                # large import's sessions are not there yet.
                self.outcome["large_seen"] = GameSession.objects.filter(date__month=3).exists()
            except Exception as exc:  # noqa: BLE001 - returned to the test
                self.outcome["error"] = exc
            finally:
                connections.close_all()

        thread = threading.Thread(target=body)
        thread.start()
        thread.join(timeout=limit)
        self.outcome["finished_first"] = not thread.is_alive()
        self.thread = thread  # still running: it finishes after the large import's commit


def test_a_one_deal_import_commits_while_a_large_import_is_written(monkeypatch):
    if connection.vendor != "postgresql":
        pytest.skip("SQLite has one writer: the small import waits for the large one's commit")
    club, players, _nap, _dai = build_club(deals=2)
    names = [p.name for p in players[:5]]
    version = Club.objects.get(pk=club.pk).data_version
    small = _file(names, 1, month=6, deals=1)
    meanwhile = _DuringBulkInserts(
        monkeypatch, lambda: results_import(club=Club.objects.get(pk=club.pk), file=small)
    )
    report = results_import(club=club, file=_file(names, 10, month=3))
    outcome = meanwhile.outcome
    assert meanwhile.ran
    assert "error" not in outcome, outcome.get("error")
    assert outcome["finished_first"], "the one-deal import waited for the large import's write"
    assert outcome["result"].deals == 1
    assert outcome["large_seen"] is False  # committed before the large import did
    assert report.deals == 200
    # Both whole: every deal, every standing equal to the score lines, the version moved twice.
    assert Deal.objects.filter(club=club, session__date__year=2021).count() == 201
    assert aggregates_match_lines(club)
    assert Club.objects.get(pk=club.pk).data_version >= version + 2


def test_two_imports_creating_the_same_players_both_land_once(monkeypatch):
    """Both files name five players the club does not have: the one-deal import waits for the
    large one's commit (the players' unique names), then is checked again and uses them."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite has one writer: the small import waits for the large one's commit")
    club, _players, _nap, _dai = build_club(deals=2)
    names = ["新人甲", "新人乙", "新人丙", "新人丁", "新人戊"]
    small = _file(names, 1, month=6, deals=1)
    meanwhile = _DuringBulkInserts(
        monkeypatch, lambda: results_import(club=Club.objects.get(pk=club.pk), file=small),
        limit=1.0,
    )  # fmt: skip
    report = results_import(club=club, file=_file(names, 10, month=3))
    meanwhile.thread.join(timeout=60)
    outcome = meanwhile.outcome
    assert not outcome["finished_first"]  # it waited for the large import's players
    assert "error" not in outcome, outcome.get("error")
    assert report.players_created == 5
    assert outcome["result"].players_created == 0 and outcome["result"].deals == 1
    assert outcome["large_seen"] is True  # checked again after the large import's commit
    assert Player.objects.filter(club=club, name__in=names).count() == 5
    assert Deal.objects.filter(club=club, session__date__year=2021).count() == 201
    assert aggregates_match_lines(club)
