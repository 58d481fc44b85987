"""The club's data version and hiding flags (services/cache.py): a write moves its club's
version one step and rewrites its flags from the club's tournaments, in the database it writes;
and the check that every transaction writing a club's rows moves its data version
(tests/club_versions.py) finds a forgetful write, wherever it is, and nothing else."""

import datetime
import gzip
import io
import json
import threading

import pytest
from django.apps import apps
from django.db import connections, transaction
from django.db.migrations.recorder import MigrationRecorder
from django.test import Client
from django.urls import reverse

from tests import club_versions, factories
from tests.hardening.realparts import _allow_outside_the_test_databases
from tests.public.test_hiding_flags import _admin_form
from tournaments.models import Club, PinAttempt, Player
from tournaments.services.backup import backup_restore, backup_write
from tournaments.services.cache import club_version_bump
from tournaments.services.events import (
    tournament_create,
    tournament_freeze_set,
    tournament_standings_reveal,
)
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


# --- the version's step and the hiding flags --------------------------------------------------


def _version(club, using="default") -> int:
    return Club.objects.using(using).values_list("data_version", flat=True).get(pk=club.pk)


def _flags(club, using="default") -> tuple[bool, bool]:
    """(has_private_tournament, has_standings_freeze) as the club's row holds them."""
    row = Club.objects.using(using).values_list("has_private_tournament", "has_standings_freeze")
    return tuple(row.get(pk=club.pk))


def _tournament(club, name: str, *, public: bool):
    ruleset = club.rulesets.filter(code="napoleon-wiki").first() or factories.ClubRuleSetFactory(
        club=club, code="napoleon-wiki", preset="napoleon-wiki"
    )
    return tournament_create(
        club=club, name=name, date=datetime.date(2026, 11, 21), ruleset=ruleset,
        rounds_planned=2, is_public=public,
    )  # fmt: skip


def test_a_write_moves_its_clubs_version_one_step_and_no_other_clubs(player):
    """One step per write (the API shows the number; a restore moves it one step,
    docs/deploy.md), and only the club written."""
    other = factories.ClubFactory()
    before, others = _version(player.club), _version(other)
    player_set_active(player=player, active=False)
    assert _version(player.club) == before + 1
    with transaction.atomic():
        club_version_bump(club_id=player.club_id)
    assert (_version(player.club), _version(other)) == (before + 2, others)


def test_the_hiding_flags_follow_every_service_that_can_change_them(club):
    """A private tournament sets ``has_private_tournament``; a freeze set and not revealed,
    ``has_standings_freeze``; each from the club's own tournaments, another club's aside."""
    other = factories.ClubFactory()
    hidden = _tournament(other, "他所の秘密会", public=False)
    tournament_freeze_set(tournament=hidden, hidden_rounds=2)
    assert _flags(other) == (True, True)

    public = _tournament(club, "公開戦", public=True)
    assert _flags(club) == (False, False)  # a public tournament, no freeze: nothing hidden
    _tournament(club, "秘密会", public=False)
    assert _flags(club) == (True, False)
    tournament_freeze_set(tournament=public, hidden_rounds=1)  # the final round only
    assert _flags(club) == (True, True)
    tournament_standings_reveal(tournament=public)
    assert _flags(club) == (True, False)
    tournament_freeze_set(tournament=public, hidden_rounds=2)  # set again: hidden again
    assert _flags(club) == (True, True)
    tournament_freeze_set(tournament=public, hidden_rounds=0)  # set to none: nothing hidden
    assert _flags(club) == (True, False)
    assert _flags(other) == (True, True)  # the other club's flags were never rewritten


def test_the_hiding_flags_follow_the_admins_privacy_changes_and_deletes(club):
    secret = _tournament(club, "秘密会", public=False)
    public = _tournament(club, "公開戦", public=True)
    tournament_freeze_set(tournament=public, hidden_rounds=1)
    staff = Client()
    staff.force_login(factories.UserFactory(is_staff=True, is_superuser=True))
    delete = reverse("admin:tournaments_tournament_delete", args=[secret.pk])
    assert staff.post(delete, {"post": "yes"}).status_code == 302
    assert _flags(club) == (False, True)
    change = reverse("admin:tournaments_tournament_change", args=[public.pk])
    form = {k: v for k, v in _admin_form(staff, change).items() if k != "is_public"}
    assert staff.post(change, form).status_code == 302  # made private
    assert _flags(club) == (True, True)
    assert staff.post(change, {**form, "is_public": "on"}).status_code == 302
    assert _flags(club) == (False, True)


# --- another database ----------------------------------------------------------------------


@pytest.fixture
def restored(tmp_path):
    """A second, empty database with efuda's tables (``manage.py restore --database``): the
    alias exists only for the test."""
    connections.settings["restored"] = {
        **connections["default"].settings_dict,
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": str(tmp_path / "restored.sqlite3"),
        "OPTIONS": {},
        "TEST": {},
    }
    target = connections["restored"]
    _allow_outside_the_test_databases(target)
    with target.schema_editor() as editor:
        for model in apps.get_models():
            if model._meta.managed and not model._meta.proxy:
                editor.create_model(model)
    recorder = MigrationRecorder(target)
    recorder.ensure_schema()
    applied = MigrationRecorder(connections["default"]).applied_migrations()
    recorder.migration_qs.bulk_create(recorder.Migration(app=a, name=n) for a, n in applied)
    yield "restored"
    target.close()
    del connections.settings["restored"]
    delattr(connections._connections, "restored")


def _without_flags(backup: bytes) -> bytes:
    """The backup as efuda wrote it before the hiding flags existed: clubs without them."""
    lines = [json.loads(line) for line in gzip.decompress(backup).splitlines()]
    dropped: list[int] = []
    for item in lines:
        if isinstance(item, dict) and "columns" in item:
            columns = item["columns"]
            flags = ("has_private_tournament", "has_standings_freeze")
            is_club = item["model"] == "tournaments.club"
            dropped = [i for i, c in enumerate(columns) if is_club and c in flags]
            item["columns"] = [c for i, c in enumerate(columns) if i not in dropped]
        elif isinstance(item, list) and dropped:
            item[:] = [v for i, v in enumerate(item) if i not in dropped]
    return gzip.compress(b"".join(json.dumps(item).encode() + b"\n" for item in lines))


@pytest.mark.django_db(transaction=True)
def test_a_restore_moves_the_version_and_flags_of_the_database_it_restores(club, restored):
    """Restored into another database, each club's version moves one step and its flags are
    rewritten from its tournaments there; the database the backup came from is left alone."""
    frozen = _tournament(club, "秘密会", public=False)
    tournament_freeze_set(tournament=frozen, hidden_rounds=1)
    out = io.BytesIO()
    backup_write(out=out)
    version = _version(club)
    tournament_standings_reveal(tournament=frozen)  # this database goes on without the backup
    live = (_version(club), _flags(club))
    assert live == (version + 1, (True, False))

    backup_restore(src=io.BytesIO(_without_flags(out.getvalue())), using=restored)
    assert (_version(club, restored), _flags(club, restored)) == (version + 1, (True, True))
    assert (_version(club), _flags(club)) == live
