"""The check that every transaction writing a club's rows moves its data version
(tests/club_versions.py) finds a forgetful write, wherever it is, and nothing else."""

import threading

import pytest
from django.db import connections, transaction

from tests import club_versions, factories
from tournaments.models import Club, PinAttempt, Player
from tournaments.services.cache import club_version_bump
from tournaments.services.events import tournament_create
from tournaments.services.players import player_set_active

pytestmark = pytest.mark.django_db


@pytest.fixture
def player(club):
    return factories.PlayerFactory(club=club, name="太郎")


def _forget(player, active=False):
    """A service that forgot the version: it writes a player in its transaction, nothing else."""
    with transaction.atomic():
        Player.objects.filter(pk=player.pk).update(active=active)


def test_a_transaction_that_forgets_the_version_is_found(player):
    with club_versions.watching() as seen:
        _forget(player)
    assert len(seen.problems) == 1
    assert "tournaments_player" in seen.problems[0]
    assert "test_club_versions.py" in seen.problems[0]  # where it committed: the test can say


def test_a_write_outside_any_transaction_is_its_own(player):
    with club_versions.watching() as seen:
        Player.objects.filter(pk=player.pk).update(active=False)
    assert len(seen.problems) == 1


def test_the_version_moved_in_the_same_transaction_is_enough(player):
    with club_versions.watching() as seen:
        with transaction.atomic():
            Player.objects.filter(pk=player.pk).update(active=False)
            club_version_bump(club_id=player.club_id)
        player_set_active(player=player, active=True)  # the service itself
    assert seen.problems == []


def test_the_version_moved_in_another_transaction_is_not(player):
    with club_versions.watching() as seen:
        _forget(player)
        with transaction.atomic():
            club_version_bump(club_id=player.club_id)
    assert len(seen.problems) == 1


def test_a_savepoint_released_belongs_to_its_transaction(player):
    """Inner blocks (a service calling another) count with the outermost one: a version moved
    in the outer block covers a write in a savepoint, and the other way round."""
    with club_versions.watching() as seen:
        with transaction.atomic():
            _forget(player)
            club_version_bump(club_id=player.club_id)
        with transaction.atomic():
            Player.objects.filter(pk=player.pk).update(active=True)
            with transaction.atomic():
                club_version_bump(club_id=player.club_id)
    assert seen.problems == []


def test_a_version_moved_in_a_savepoint_rolled_back_is_gone(player):
    with club_versions.watching() as seen:
        with transaction.atomic():
            Player.objects.filter(pk=player.pk).update(active=False)
            try:
                with transaction.atomic():
                    club_version_bump(club_id=player.club_id)
                    raise RuntimeError("refused")
            except RuntimeError:
                pass
    assert len(seen.problems) == 1


def test_a_transaction_rolled_back_wrote_nothing(player):
    with club_versions.watching() as seen:
        with pytest.raises(RuntimeError), transaction.atomic():
            Player.objects.filter(pk=player.pk).update(active=False)
            raise RuntimeError("refused")
    assert seen.problems == []


def test_an_update_that_changed_no_row_wrote_nothing(club):
    with club_versions.watching() as seen:
        Player.objects.filter(club=club, name="nobody").update(active=False)
    assert seen.problems == []


def test_tables_no_page_shows_need_no_version(club):
    ruleset = factories.ClubRuleSetFactory(club=club, code="napoleon-wiki", preset="napoleon-wiki")
    t = tournament_create(club=club, name="秋の大会", date="2026-11-21", ruleset=ruleset)
    with club_versions.watching() as seen:
        PinAttempt.objects.create(tournament=t, address="192.0.2.1")  # a wrong PIN, counted
    assert seen.problems == []


def test_a_deleted_club_needs_no_version(club):
    with club_versions.watching() as seen:
        Club.objects.filter(pk=club.pk).delete()
    assert seen.problems == []


@pytest.mark.django_db(transaction=True)
def test_a_write_in_another_thread_is_found(player):
    def forget():
        try:
            _forget(player)
        finally:
            connections.close_all()

    with club_versions.watching() as seen:
        thread = threading.Thread(target=forget)
        thread.start()
        thread.join()
    assert len(seen.problems) == 1 and "tournaments_player" in seen.problems[0]


def test_every_test_is_watched(request, club):
    """The check runs for every test (an autouse fixture), and fails one that passed."""
    assert request.node.club_versions is club_versions._active
    watch = club_versions.Watch()
    watch.problems.append("a transaction wrote tournaments_player …")

    class Item:
        club_versions = watch

    call = club_versions.pytest_runtest_call(Item())
    next(call)
    with pytest.raises(pytest.fail.Exception, match="tournaments_player"):
        call.send(None)
    assert club_versions._active is None
    club_versions._active = request.node.club_versions  # the rest of this test stays watched
