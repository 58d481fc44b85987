"""SQLite: an import copies its rows into temporary tables before its write transaction and
moves them with one ``INSERT … SELECT`` inside it (``services/bulk.py: stage``), so the one
writer is held for a third of the time. The rows are exactly those written without staging;
staging takes no lock on the club's database; a failure leaves nothing, staged copies included.
Real connections (an on-disk SQLite file; PostgreSQL, where nothing is staged)."""

import threading
import time

import pytest
from django.db import connection, connections

from tests.hardening.helpers import build_club
from tests.imports.helpers import NAPOLEON_HEADER, csv_bytes
from tournaments.models import Club, Deal, RatingHistory, ScoreLine, StandingAggregate
from tournaments.services import bulk
from tournaments.services.clubs import club_update
from tournaments.services.imports import results_import

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("threaded_db")]


def _file(days=4):
    rows = [NAPOLEON_HEADER]
    seats = ("甲", "乙", "丙", "丁", "戊")
    for d in range(1, days + 1):
        for n in range(5):
            nap, adj = seats[n], seats[(n + d) % 5]
            rows.append(f"2021-03-{d:02d},{'AB'[n % 2]},napoleon-wiki,{';'.join(seats)},{nap},"
                        f"{12 + n},{'SHDC'[d % 4]},SA,{adj},{10 + n + d},{n % 3}")  # fmt: skip
    rows.append(f"2021-03-09,A,napoleon-wiki,{';'.join(seats)},,,,,,,")  # a redeal
    return csv_bytes(*rows)


def _by_name(club):
    """The club's imported records with player ids replaced by names: comparable across clubs."""
    names = {str(p.id): p.name for p in club.players.all()}

    def named(value):
        if isinstance(value, list):
            return [named(v) for v in value]
        if isinstance(value, dict):
            return {named(k): named(v) for k, v in value.items()}
        return names.get(value, value) if isinstance(value, str) else value

    def history(deal):  # its history rows: what the row says and what it copies of the deal
        return [
            (h.history_type, h.history_user_id, h.seq, h.bid, h.trump, h.redeal,
             names.get(str(h.napoleon_id)), named(h.data), named(h.outcome))
            for h in deal.history.all()
        ]  # fmt: skip

    deals = [
        (d.session.date, d.session.table, d.seq, d.bid, d.trump, d.redeal,
         named(d.data), named(d.outcome), history(d))
        for d in Deal.objects.filter(club=club).select_related("session")
        .order_by("session__date", "session__table", "seq")
    ]  # fmt: skip
    lines = sorted(
        (str(line.date), line.deal.seq, line.session.table, line.player.name, line.points,
         line.role, line.won, line.seat, line.solo)
        for line in ScoreLine.objects.filter(club=club).select_related("player", "deal", "session")
    )  # fmt: skip
    aggregates = sorted(
        (a.period, a.player.name, a.points, a.deals, a.wins)
        for a in StandingAggregate.objects.filter(club=club).select_related("player")
    )
    history = RatingHistory.objects.filter(club=club).count()
    return deals, lines, aggregates, history


def _temp_tables():
    with connection.cursor() as cursor:
        cursor.execute("SELECT name FROM sqlite_temp_master WHERE type = 'table'")
        return [row[0] for row in cursor.fetchall()]


def test_staged_and_unstaged_imports_write_the_same_rows(monkeypatch):
    staged_club, _p, _n, _d = build_club(deals=0)
    plain_club, _p, _n, _d = build_club(deals=0)
    moved = []
    original = bulk.insert_staged
    monkeypatch.setattr(bulk, "insert_staged", lambda *a: moved.append(a[0]) or original(*a))
    results_import(club=staged_club, file=_file())
    if connection.vendor == "sqlite":  # deals, score lines, rating history (deal history: copied)
        assert {m.__name__ for m in moved} >= {"Deal", "ScoreLine", "RatingHistory"}
        assert _temp_tables() == []
    else:
        assert moved == []  # PostgreSQL copies with COPY
    monkeypatch.setattr(bulk, "stage", lambda *a: None)  # the executemany path
    results_import(club=plain_club, file=_file())
    staged, plain = _by_name(staged_club), _by_name(plain_club)
    assert len(staged[0]) == 21 and len(staged[1]) == 100 and staged[3] > 0
    assert staged == plain
    for _day, _table, seq, bid, trump, redeal, data, outcome, history in staged[0]:
        napoleon = data.get("napoleon")  # each deal has one history row, "+", copying the deal
        assert history == [("+", None, seq, bid, trump, redeal, napoleon, data, outcome)]


def test_a_failure_after_staging_writes_nothing_and_leaves_no_staged_table(monkeypatch):
    club, _p, _n, _d = build_club(deals=0)
    before = (Deal.objects.count(), ScoreLine.objects.count())

    def fail(model, columns, name):
        if model is ScoreLine:
            raise RuntimeError("disk full")
        original(model, columns, name)

    original = bulk.insert_staged
    monkeypatch.setattr(bulk, "insert_staged", fail)
    monkeypatch.setattr(bulk, "_executemany", lambda *a, **k: fail(ScoreLine, (), ""))
    with pytest.raises(RuntimeError, match="disk full"):
        results_import(club=club, file=_file())
    assert (Deal.objects.count(), ScoreLine.objects.count()) == before
    assert club.sessions.count() == 2  # build_club's own two
    if connection.vendor == "sqlite":
        assert _temp_tables() == []


def test_staging_takes_no_lock_on_the_clubs_database():
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's one writer; PostgreSQL stages nothing")
    club, _p, _n, _d = build_club(deals=0)
    took = {}

    def write_elsewhere():
        started = time.perf_counter()
        try:
            club_update(club=club, name="書ける", is_public=club.is_public)
            took["s"] = time.perf_counter() - started
        finally:
            connections.close_all()

    def rows():
        # Half way through the copy into the temporary table, another connection writes.
        yield (999_001, club.pk, "仮", "仮")
        thread = threading.Thread(target=write_elsewhere)
        thread.start()
        thread.join(timeout=10)
        yield (999_002, club.pk, "仮2", "仮2")

    from tournaments.models import Player

    name = bulk.stage(Player, ["id", "club_id", "name", "name_key"], rows())
    try:
        # The other write finished while the staging transaction was still open (the thread
        # was joined within 10 s; a write waiting for a lock would wait the 20 s busy timeout).
        assert took.get("s") is not None, took
        assert Club.objects.get(pk=club.pk).name == "書ける"
        with connection.cursor() as cursor:
            cursor.execute(f'SELECT COUNT(*) FROM temp."{name}"')
            assert cursor.fetchone()[0] == 2
        assert not Player.objects.filter(pk__gte=999_001).exists()  # staged, not written
    finally:
        bulk.drop_staged(name)
    assert _temp_tables() == []
