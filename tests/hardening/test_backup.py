"""Backup and restore: a full round trip gives back every table as it was, row for row; a
version-1 file still restores; a damaged file restores nothing and says which table."""

import datetime
import gzip
import io
import json
import uuid
from decimal import Decimal

import pytest
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.contrib.contenttypes.models import ContentType
from django.core.cache import cache
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import translation

from tests import factories
from tests.hardening.backup_v1_writer import backup_write_v1
from tests.hardening.helpers import aggregates_match_lines, build_club, napoleon_data
from tournaments.benchmarks.imports import import_csv
from tournaments.models import Adjustment, Club, Deal, ImportJob, Membership, Tournament
from tournaments.services.backup import (
    BackupError,
    backup_restore,
    backup_tables,
    backup_write,
)
from tournaments.services.deals import deal_delete, deal_record, deal_update
from tournaments.services.events import adjustment_add, tournament_staff_add
from tournaments.services.import_jobs import import_job_create

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _english():
    # The messages are matched by their English text (the Japanese catalogue translates them).
    with translation.override("en"):
        yield


def everything() -> dict:
    """Every row of every table a backup holds, keys to content types and permissions by their
    natural keys (their ids are the database's own), clubs without their data version."""
    natural = {
        ContentType: {ct.pk: (ct.app_label, ct.model) for ct in ContentType.objects.all()},
        Permission: {
            p.pk: (p.codename, p.content_type.app_label, p.content_type.model)
            for p in Permission.objects.select_related("content_type")
        },
    }
    tables = {}
    for model in backup_tables():
        fields = [f for f in model._meta.concrete_fields if f.attname != "data_version"]
        mapped = [
            (i, natural[f.related_model])
            for i, f in enumerate(fields)
            if f.is_relation and f.related_model in natural
        ]
        rows = []
        for row in model._default_manager.order_by("pk").values_list(*(f.attname for f in fields)):
            row = list(row)
            for i, keys in mapped:
                row[i] = keys.get(row[i], row[i])
            rows.append([bytes(v) if isinstance(v, memoryview) else v for v in row])
        tables[model._meta.label_lower] = rows
    return tables


def _versions() -> dict:
    return dict(Club.objects.values_list("slug", "data_version"))


def _populate():
    """A small club, with what the backup must carry besides deals: permissions of a user and
    a group, edits and a soft delete (history rows)."""
    owner = factories.UserFactory(username="owner-b")
    owner.user_permissions.add(Permission.objects.get(codename="view_deal"))
    group = Group.objects.create(name="organisers")
    group.permissions.add(Permission.objects.get(codename="change_club"))
    owner.groups.add(group)
    club, players, nap, dai = build_club(deals=8, owner=owner)
    ids = [p.id for p in players]
    first = Deal.objects.get(session=nap, seq=1)
    deal_update(deal=first, data=napoleon_data(ids, n=5), user=owner, version=first.version)
    deal_delete(deal=Deal.objects.get(session=dai, seq=3), user=owner)
    return club, nap


def _populate_every_kind_of_value(settings):
    """The demo club of a few hundred imported deals and a tournament, and a row of every kind
    of value a backup writes: a deal's phone id (UUID), a penalty (decimal), an upload waiting
    for the worker (binary), a tournament's staff (a many-to-many table), the admin log (a
    content type)."""
    call_command("demo_data", "--deals", "300", stdout=io.StringIO())
    club, nap = _populate()
    ids = list(club.players.values_list("id", flat=True))
    deal_record(session=nap, data=napoleon_data(ids, n=3), client_id=str(uuid.uuid4()))
    demo = Club.objects.get(slug="demo")
    tournament = demo.tournaments.get()
    tournament_staff_add(tournament=tournament, who="member")
    adjustment_add(entry=tournament.entries.first(), points="-1.5", reason="late")
    immediate = settings.TASKS
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    import_job_create(club=demo, data=import_csv(5))  # waits in the queue: no worker runs
    settings.TASKS = immediate
    owner = get_user_model().objects.get(username="demo")
    LogEntry.objects.log_actions(
        user_id=owner.pk, queryset=Club.objects.filter(pk=demo.pk), action_flag=CHANGE,
        change_message="renamed",
    )  # fmt: skip
    return club, nap


def test_backup_flush_restore_gives_back_every_table_row_for_row(tmp_path, settings):
    club, nap = _populate_every_kind_of_value(settings)
    before, versions = everything(), _versions()
    for label in ("tournaments.tournament_extra_staff", "auth.user_groups",
                  "auth.user_user_permissions", "auth.group_permissions", "admin.logentry",
                  "tournaments.adjustment", "tournaments.importjob"):  # fmt: skip
        assert before[label], label
    assert any(row[13] for row in before["tournaments.deal"])  # a phone's id
    assert len(before["tournaments.deal"]) > 300 and len(before["tournaments.scoreline"]) > 1500
    path = tmp_path / "efuda.json.gz"

    call_command("backup", str(path), stderr=io.StringIO())
    manifest = json.loads(gzip.open(path).readline())
    assert manifest["format"] == "efuda-backup" and manifest["version"] == 2
    assert manifest["counts"] == {label: len(rows) for label, rows in before.items()}
    assert oct(path.stat().st_mode & 0o777) == "0o600"

    call_command("flush", interactive=False, verbosity=0)
    assert Deal.objects.count() == 0 and get_user_model().objects.count() == 0

    cache.set("efuda:page:kept-for-the-old-database", "<html>", 60)
    out = io.StringIO()
    call_command("restore", str(path), stdout=out)
    assert cache.get("efuda:page:kept-for-the-old-database") is None  # the cache emptied
    assert f"{sum(manifest['counts'].values())} rows restored" in out.getvalue()
    assert everything() == before
    # One step of every club's data version: no page kept under the old one is served.
    assert _versions() == {slug: v + 1 for slug, v in versions.items()}
    assert aggregates_match_lines(club) and aggregates_match_lines(Club.objects.get(slug="demo"))

    # Ids continue after the restored ones (sequences reset on PostgreSQL): new writes work.
    ids = [int(s) for s in napoleon_data(list(club.players.values_list("id", flat=True)))["seats"]]
    deal = deal_record(session=nap, data=napoleon_data(ids, n=1))
    assert deal.seq == 10 and deal.id > max(row[0] for row in before["tournaments.deal"])
    assert factories.PlayerFactory(club=club).id > max(r[0] for r in before["tournaments.player"])
    tournament_staff_add(tournament=Tournament.objects.get(), who="scorer")  # a row's own id
    assert Tournament.objects.get().extra_staff.count() == 2
    assert Adjustment.objects.get().points == Decimal("-1.5")
    assert ImportJob.objects.get().data == import_csv(5)
    assert get_user_model().objects.get(username="owner-b").check_password("pass-word-123")


def test_a_version_1_backup_still_restores():
    club, nap = _populate()
    membership_history = Membership.history.count()
    before = everything()
    buffer = io.BytesIO()
    backup_write_v1(out=buffer)
    call_command("flush", interactive=False, verbosity=0)

    manifest = backup_restore(src=io.BytesIO(buffer.getvalue()))
    assert manifest["version"] == 1
    after = everything()
    # Version 1 wrote moments to the millisecond (Django's JSON encoder), and many-to-many
    # rows inside their object, without their own ids: compare them so.
    through = {m._meta.label_lower for m in backup_tables() if m._meta.auto_created}
    for label, rows in before.items():
        if label in through:
            assert [r[1:] for r in after[label]] == [r[1:] for r in rows], label
        else:
            assert _to_ms(after[label]) == _to_ms(rows), label
    assert Membership.history.count() == membership_history
    assert aggregates_match_lines(club)
    ids = list(club.players.values_list("id", flat=True))
    assert deal_record(session=nap, data=napoleon_data(ids, n=1)).seq == 9


def _to_ms(rows: list) -> list:
    def ms(value):
        if isinstance(value, datetime.datetime):
            return value.replace(microsecond=value.microsecond // 1000 * 1000)
        return value

    return [[ms(v) for v in row] for row in rows]


def test_restore_refuses_a_database_that_is_not_empty(tmp_path):
    _populate()
    path = tmp_path / "b.json.gz"
    call_command("backup", str(path), stderr=io.StringIO())
    before = everything()
    with pytest.raises(CommandError, match="not empty"):
        call_command("restore", str(path))
    assert everything() == before


# --- damaged files: nothing restored, the table named ----------------------------------------


def _backup_lines() -> list:
    """A backup of the populated club as decoded lines; the database emptied after it."""
    _populate()
    buffer = io.BytesIO()
    backup_write(out=buffer)
    call_command("flush", interactive=False, verbosity=0)
    return [json.loads(x) for x in gzip.decompress(buffer.getvalue()).splitlines()]


def _pack(lines: list) -> io.BytesIO:
    return io.BytesIO(gzip.compress(b"".join(json.dumps(x).encode() + b"\n" for x in lines)))


def _rows(lines: list, label: str) -> tuple[list, list]:
    """The column names of ``label``'s table and its row lines (changed in place)."""
    at = next(i for i, x in enumerate(lines) if isinstance(x, dict) and x.get("model") == label)
    rows = []
    for item in lines[at + 1 :]:
        if not isinstance(item, list):
            break
        rows.append(item)
    return lines[at]["columns"], rows


def _restores_nothing(lines: list, match: str) -> None:
    with pytest.raises(BackupError, match=match):
        backup_restore(src=_pack(lines))
    assert Deal.objects.count() == 0 and Club.objects.count() == 0
    assert get_user_model().objects.count() == 0


def test_a_truncated_backup_restores_nothing():
    lines = _backup_lines()
    _restores_nothing(lines[:-5], "incomplete")


def test_a_unique_row_twice_restores_nothing():
    lines = _backup_lines()
    columns, players = _rows(lines, "tournaments.player")
    for column in ("name_key", "club_id"):
        i = columns.index(column)
        players[1][i] = players[0][i]
    _restores_nothing(lines, "tournaments_player")


def test_a_value_the_column_cannot_hold_restores_nothing():
    lines = _backup_lines()
    columns, deals = _rows(lines, "tournaments.deal")
    deals[0][columns.index("seq")] = 2**70
    _restores_nothing(lines, "tournaments_deal")


def test_a_key_naming_no_row_restores_nothing():
    lines = _backup_lines()
    columns, deals = _rows(lines, "tournaments.deal")
    deals[0][columns.index("session_id")] = 999999
    _restores_nothing(lines, "tournaments_deal")


@pytest.mark.parametrize(
    ("change", "match"),
    [
        ("short_row", "tournaments_deal"),
        ("bad_date", "tournaments_deal"),
        ("bad_json", "tournaments_deal"),
        ("unknown_column", "tournaments_deal"),
        ("unknown_permission", "auth_user_user_permissions"),
        ("unknown_table", "not part of a backup"),
        ("table_twice", "tournaments_deal .*twice"),
        ("row_before_any_table", "not a stored object"),
    ],
)
def test_a_file_that_does_not_fit_the_tables_restores_nothing(change, match):
    lines = _backup_lines()
    columns, deals = _rows(lines, "tournaments.deal")
    header = next(x for x in lines if isinstance(x, dict) and x.get("model") == "tournaments.deal")
    if change == "short_row":
        deals[0].pop()
    elif change == "bad_date":
        deals[0][columns.index("created_at")] = "yesterday"
    elif change == "bad_json":  # a JSON column holds its text
        deals[0][columns.index("outcome")] = "{not json"
    elif change == "unknown_column":
        header["columns"] = [*columns[:-1], "colour"]
    elif change == "unknown_permission":
        columns, rows = _rows(lines, "auth.user_user_permissions")
        rows[0][columns.index("permission_id")] = ["fly", "tournaments", "deal"]
    elif change == "table_twice":
        lines.extend([{**header}, deals[0]])
    elif change == "unknown_table":
        header["model"] = "sessions.session"
    else:
        lines.insert(1, deals[0])
    _restores_nothing(lines, match)


def test_a_file_that_is_not_a_backup_is_refused():
    with pytest.raises(BackupError, match="not a readable"):
        backup_restore(src=io.BytesIO(b"plain text, not gzip"))
    with pytest.raises(BackupError, match="not an efuda backup"):
        backup_restore(src=io.BytesIO(gzip.compress(b'{"hello": 1}\n')))
    with pytest.raises(BackupError, match="version 3 is not supported"):
        backup_restore(src=io.BytesIO(gzip.compress(b'{"format": "efuda-backup", "version": 3}')))


@pytest.mark.parametrize("key", ["deal", "session", "club", "player"])
def test_a_score_line_naming_no_row_is_refused_though_the_database_has_no_constraint(key):
    # Score lines carry no foreign-key constraint (models.play.ScoreLine): the restore checks
    # each of their keys itself, and names the table and the line.
    lines = _backup_lines()
    columns, score_lines = _rows(lines, "tournaments.scoreline")
    score_lines[0][columns.index(f"{key}_id")] = 999999
    pk = score_lines[0][columns.index("id")]
    _restores_nothing(lines, rf"tournaments_scoreline .*row {pk}: {key}_id")
