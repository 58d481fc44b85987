"""A database failure in the middle of a write leaves nothing half-written.

Each test lets the service get as far as possible (the deal row, its score lines, some aggregate
rows) and then makes the database call fail, as a dropped connection or a full disk would.
"""

import uuid
from pathlib import Path
from unittest import mock

import pytest
from django.db import OperationalError

from tests.hardening.helpers import (
    aggregates_match_lines,
    build_club,
    daifugo_data,
    napoleon_data,
    standings_snapshot,
)
from tournaments.models import Deal, GameSession, Player, ScoreLine, StandingAggregate
from tournaments.services import aggregates as aggregates_module
from tournaments.services import bulk as bulk_module
from tournaments.services import deals as deals_module
from tournaments.services.deals import deal_delete, deal_record, deal_restore, deal_update
from tournaments.services.imports import ImportFailed, results_import

SAMPLES = Path(__file__).resolve().parents[2] / "docs" / "samples"


def _state(club):
    return {
        **standings_snapshot(club),
        "history": Deal.history.filter(club_id=club.id).count(),
        "sessions": GameSession.objects.filter(club=club).count(),
        "players": Player.objects.filter(club=club).count(),
    }


def _fail_after(target, name):
    """Patch ``target.name`` so the real call runs (rows written) and then the database fails."""
    real = getattr(target, name)

    def broken(*args, **kwargs):
        real(*args, **kwargs)
        raise OperationalError("server closed the connection unexpectedly")

    return mock.patch.object(target, name, broken)


def _fail_on_lines(*, after: bool):
    """The deal's score lines are one ``INSERT`` by ``bulk.insert_once``: the database fails
    instead of it, or right after it wrote them (its other inserts run as they are)."""
    real = bulk_module.insert_once

    def broken(model, fields, rows):
        if model is not ScoreLine:
            return real(model, fields, rows)
        if after:
            real(model, fields, rows)
            assert ScoreLine.objects.filter(deal_id=rows[0][0]).exists()  # written, then lost
        raise OperationalError("could not write to file: No space left")

    return mock.patch.object(bulk_module, "insert_once", broken)


def _fail_instead(target, name):
    return mock.patch.object(
        target, name, side_effect=OperationalError("could not write to file: No space left")
    )


# Where the failure strikes in deal_record, from earliest to latest.
RECORD_FAULTS = {
    "score lines insert": lambda: _fail_on_lines(after=False),
    "after score lines": lambda: _fail_on_lines(after=True),
    "standings half-updated": lambda: _fail_instead(aggregates_module, "_bids_add"),
    "after every write": lambda: _fail_after(deals_module, "aggregates_apply"),
}


@pytest.mark.django_db
@pytest.mark.parametrize("fault", RECORD_FAULTS)
@pytest.mark.parametrize("game", ["napoleon", "daifugo"])
def test_failed_record_writes_nothing(fault, game):
    club, players, nap, dai = build_club(deals=3)
    ids = [p.id for p in players]
    session, data = (
        (nap, napoleon_data(ids, n=4)) if game == "napoleon" else (dai, daifugo_data(ids, n=4))
    )
    before = _state(club)
    key = uuid.uuid4()
    with RECORD_FAULTS[fault](), pytest.raises(OperationalError):
        deal_record(session=session, data=data, client_id=key)
    assert _state(club) == before
    assert not Deal.objects.filter(client_id=key).exists()
    # The same deal succeeds afterwards (its id was not burnt by the failed attempt).
    deal = deal_record(session=session, data=data, client_id=key)
    assert deal.seq == 4 and aggregates_match_lines(club)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "fault",
    ["remove lines", "write lines", "after every write"],
)
@pytest.mark.parametrize("game", ["napoleon", "daifugo"])
def test_failed_update_changes_nothing(fault, game):
    club, players, nap, dai = build_club(deals=4)
    ids = [p.id for p in players]
    session = nap if game == "napoleon" else dai
    deal = Deal.objects.get(session=session, seq=2)
    data = napoleon_data(ids, n=7) if game == "napoleon" else daifugo_data(ids, n=3)
    before = _state(club)
    patcher = {
        "remove lines": lambda: _fail_after(deals_module, "_remove_lines"),
        "write lines": lambda: _fail_after(deals_module, "_write_lines"),
        "after every write": lambda: _fail_after(deals_module, "_rescore_following"),
    }[fault]
    with patcher(), pytest.raises(OperationalError):
        deal_update(deal=deal, data=data, version=deal.version)
    assert _state(club) == before
    deal.refresh_from_db()
    assert deal.version == 1
    assert deal_update(deal=deal, data=data, version=1).version == 2
    assert aggregates_match_lines(club)


@pytest.mark.django_db
@pytest.mark.parametrize("action", ["delete", "restore"])
def test_failed_delete_or_restore_changes_nothing(action):
    club, players, nap, dai = build_club(deals=4)
    deal = Deal.objects.get(session=dai, seq=2)
    if action == "restore":
        deal_delete(deal=deal)
    before = _state(club)
    service = deal_delete if action == "delete" else deal_restore
    with _fail_after(deals_module, "_rescore_following"), pytest.raises(OperationalError):
        service(deal=deal)
    assert _state(club) == before
    # Standings rows updated, the bid records not yet.
    with _fail_instead(aggregates_module, "_bids_apply"), pytest.raises(OperationalError):
        service(deal=deal)
    nap_deal = Deal.objects.get(session=nap, seq=1)
    with _fail_instead(aggregates_module, "_bids_apply"), pytest.raises(OperationalError):
        deal_delete(deal=nap_deal)
    assert _state(club) == before
    service(deal=deal)
    assert aggregates_match_lines(club)


@pytest.mark.django_db
@pytest.mark.parametrize("sample", ["napoleon.csv", "daifugo.csv"])
# The import's bulk writes in order: players, sessions, deals, score lines, history, standings
# aggregates, bid aggregates (daifugo has none: its 6th write is the last).
@pytest.mark.parametrize("failing_write", [1, 3, 4, 6])
def test_failed_import_imports_nothing(club, sample, failing_write):
    data = (SAMPLES / sample).read_bytes()
    before = _state(club)
    real = bulk_module._executemany
    calls = {"n": 0}

    def flaky(sql, rows, **kwargs):
        calls["n"] += 1
        real(sql, rows, **kwargs)
        if calls["n"] == failing_write:
            raise OperationalError("connection lost")

    with mock.patch.object(bulk_module, "_executemany", flaky), pytest.raises(OperationalError):
        results_import(club=club, file=data)
    assert calls["n"] == failing_write
    assert _state(club) == before
    assert not StandingAggregate.objects.filter(club=club).exists()
    # Without the fault the same file imports completely.
    report = results_import(club=club, file=data)
    rows = len(data.decode("utf-8").strip().splitlines()) - 1
    assert report.deals == rows == Deal.objects.filter(club=club).count()
    assert Deal.history.filter(club_id=club.id).count() == rows
    assert aggregates_match_lines(club)


@pytest.mark.django_db
def test_import_with_one_bad_row_imports_nothing(club):
    lines = (SAMPLES / "napoleon.csv").read_text(encoding="utf-8").strip().splitlines()
    lines[-1] = lines[-1].replace(",16,S,", ",16,X,")  # an unknown trump on the last row
    with pytest.raises(ImportFailed) as info:
        results_import(club=club, file="\n".join(lines).encode())
    assert any(p.line == len(lines) for p in info.value.problems)
    assert not Deal.objects.filter(club=club).exists()
    assert not Player.objects.filter(club=club).exists()
    assert not GameSession.objects.filter(club=club).exists()
