"""Score lines carry no foreign-key constraint in the database (``models.play.ScoreLine``):
their writers lock the players they name instead, and a restore checks every key. Real threads
with their own connections (SQLite: a file database; PostgreSQL: row locks)."""

import threading
import time

import pytest
from django.db import connections

from tests import club_versions, factories
from tests.hardening.helpers import build_club, napoleon_data
from tests.imports.helpers import NAPOLEON_HEADER, csv_bytes
from tournaments.models import Player, ScoreLine
from tournaments.services import bulk
from tournaments.services.deals import deal_record
from tournaments.services.errors import EfudaError
from tournaments.services.imports import results_import
from tournaments.services.merge import player_merge


def _orphans():
    return ScoreLine.objects.exclude(player_id__in=Player.objects.values("id")).count()


@pytest.mark.django_db
def test_the_database_checks_no_key_of_a_score_line_but_django_still_cascades_and_protects():
    assert all(not f.db_constraint for f in ScoreLine._meta.concrete_fields if f.is_relation)
    club, players, nap, _dai = build_club(deals=2)
    first = nap.deals.get(seq=1)
    assert ScoreLine.objects.filter(deal=first).count() == 5
    from django.db.models import ProtectedError

    with pytest.raises(ProtectedError):  # a player with score lines is never deleted
        players[0].delete()
    with club_versions.unchecked():  # what the admin does (tournaments/admin.py: versioned)
        nap.delete()  # cascades through its deals to their lines
    assert not ScoreLine.objects.filter(session_id=nap.pk).exists() and _orphans() == 0


@pytest.mark.django_db
def test_players_locked_returns_the_players_that_exist():
    club, players, _nap, _dai = build_club(deals=0)
    ids = [p.id for p in players[:3]]
    assert bulk.players_locked([*ids, ids[0], 987654321]) == set(ids)
    assert bulk.players_locked([]) == set()


@pytest.mark.django_db
def test_a_deal_naming_a_player_removed_before_it_is_locked_is_refused_whole(monkeypatch):
    """A deal checks its players where it locks them, inside its transaction: a player removed
    up to that moment (as a merge would) is refused, and nothing is written. From then on the
    lock keeps the players until COMMIT."""
    club, players, nap, _dai = build_club(deals=1)
    gone = factories.PlayerFactory(club=club, name="すぐ消える")
    ids = [gone.id, *[p.id for p in players[:4]]]
    before = (nap.deals.count(), ScoreLine.objects.count())
    original = bulk.players_locked

    def remove_then_lock(wanted, **kwargs):
        Player.objects.filter(pk=gone.pk).delete()  # after the session's lock, before theirs
        return original(wanted, **kwargs)

    monkeypatch.setattr(bulk, "players_locked", remove_then_lock)
    with pytest.raises(EfudaError) as caught:
        deal_record(session=nap, data=napoleon_data(ids, n=3))
    assert caught.value.code == "player_unknown" and caught.value.field == "seats"
    assert caught.value.params["value"] == str(gone.id)
    assert (nap.deals.count(), ScoreLine.objects.count()) == before and _orphans() == 0


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("threaded_db")
def test_a_merge_during_an_import_write_waits_for_it_and_moves_its_lines_too(monkeypatch):
    club, players, _nap, _dai = build_club(deals=2)
    names = ";".join(p.name for p in players[:5])
    rows = [NAPOLEON_HEADER] + [
        f"2020-02-0{d},A,napoleon-wiki,{names},{players[d % 5].name},13,S,SA,{players[1].name},14,0"
        for d in range(1, 4)
    ]
    merged, keep = players[0], factories.PlayerFactory(club=club, name="統合先")
    errors, state = [], {}
    original = bulk.players_locked

    def merge():
        try:
            player_merge(club=club, keep=keep, merge=merged)
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            state["done"] = time.perf_counter()
            connections.close_all()

    def lock_then_merge_meanwhile(ids):
        found = original(ids)
        if "thread" not in state:  # the import's write: its players are locked now
            state["thread"] = threading.Thread(target=merge)
            state["started"] = time.perf_counter()
            state["thread"].start()
            time.sleep(0.5)
            state["waiting"] = state["thread"].is_alive()
        return found

    monkeypatch.setattr(bulk, "players_locked", lock_then_merge_meanwhile)
    report = results_import(club=club, file=csv_bytes(*rows))
    state["thread"].join(timeout=30)
    assert not errors, errors
    assert report.deals == 3
    # The merge waited for the import's write (the player's row was locked) ...
    assert state["waiting"] and state["done"] - state["started"] >= 0.5
    # ... and then moved the imported lines as well: no line names the merged player.
    assert not Player.objects.filter(pk=merged.pk).exists()
    assert _orphans() == 0
    assert ScoreLine.objects.filter(player=keep, date__year=2020).count() == 3


@pytest.mark.django_db
def test_the_admin_deletes_no_player(admin_client):
    club, players, _nap, _dai = build_club(deals=0)
    from django.urls import reverse

    url = reverse("admin:tournaments_player_delete", args=[players[0].pk])
    assert admin_client.post(url, {"post": "yes"}).status_code == 403
    assert Player.objects.filter(pk=players[0].pk).exists()
