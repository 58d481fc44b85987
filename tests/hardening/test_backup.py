"""Backup and restore: a full round trip gives identical standings, deals and history."""

import gzip
import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import translation

from tests import factories
from tests.hardening.helpers import aggregates_match_lines, build_club, napoleon_data
from tournaments.models import Club, Deal, Membership
from tournaments.services.backup import BackupError, backup_restore, backup_write
from tournaments.services.deals import deal_delete, deal_record, deal_update

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _english():
    # The messages are matched by their English text (the Japanese catalogue translates them).
    with translation.override("en"):
        yield


def _state():
    from tests.hardening.helpers import standings_snapshot

    return {
        **standings_snapshot(),
        "deal_history": Deal.history.count(),
        "membership_history": Membership.history.count(),
        "users": sorted(get_user_model().objects.values_list("id", "username", "password")),
        "groups": sorted(
            (g.name, sorted(g.permissions.values_list("codename", flat=True)))
            for g in Group.objects.all()
        ),
        "clubs": sorted(Club.objects.values_list("id", "slug", "name", "is_public")),
    }


def _populate():
    owner = factories.UserFactory(username="owner-b")
    owner.user_permissions.add(Permission.objects.get(codename="view_deal"))
    group = Group.objects.create(name="organisers")
    group.permissions.add(Permission.objects.get(codename="change_club"))
    club, players, nap, dai = build_club(deals=8, owner=owner)
    ids = [p.id for p in players]
    # Edits and a soft delete leave history rows the backup must keep.
    first = Deal.objects.get(session=nap, seq=1)
    deal_update(deal=first, data=napoleon_data(ids, n=5), user=owner, version=first.version)
    deal_delete(deal=Deal.objects.get(session=dai, seq=3), user=owner)
    return club, nap


def test_backup_flush_restore_gives_identical_standings(tmp_path):
    club, nap = _populate()
    before = _state()
    assert before["lines"] > 50 and before["deal_history"] > before["deals"].__len__()
    path = tmp_path / "efuda.json.gz"

    call_command("backup", str(path))
    manifest = json.loads(gzip.open(path).readline())
    assert manifest["format"] == "efuda-backup" and manifest["version"] == 1
    assert manifest["counts"]["tournaments.deal"] == len(before["deals"])
    assert manifest["counts"]["tournaments.historicaldeal"] == before["deal_history"]

    call_command("flush", interactive=False, verbosity=0)
    assert Deal.objects.count() == 0 and get_user_model().objects.count() == 0

    call_command("restore", str(path), stdout=io.StringIO())
    after = _state()
    assert after == before
    assert aggregates_match_lines(club)

    # Ids continue after the restored ones (sequences reset on PostgreSQL): new writes work.
    ids = [int(s) for s in napoleon_data(list(club.players.values_list("id", flat=True)))["seats"]]
    deal = deal_record(session=nap, data=napoleon_data(ids, n=1))
    assert deal.seq == 9 and deal.id > max(row[0] for row in before["deals"])
    assert factories.PlayerFactory(club=club).id > max(p.id for p in club.players.all()[:6])
    assert get_user_model().objects.get(username="owner-b").check_password("pass-word-123")


def test_restore_refuses_a_database_that_is_not_empty(tmp_path):
    _populate()
    path = tmp_path / "b.json.gz"
    call_command("backup", str(path))
    before = _state()
    with pytest.raises(CommandError, match="not empty"):
        call_command("restore", str(path))
    assert _state() == before


def test_a_damaged_backup_restores_nothing(tmp_path):
    _populate()
    buffer = io.BytesIO()
    backup_write(out=buffer)
    data = gzip.decompress(buffer.getvalue()).splitlines(keepends=True)
    call_command("flush", interactive=False, verbosity=0)

    # Truncated file: the last objects are missing, the manifest counts do not match.
    truncated = gzip.compress(b"".join(data[:-5]))
    with pytest.raises(BackupError, match="incomplete"):
        backup_restore(src=io.BytesIO(truncated))
    assert Deal.objects.count() == 0 and Club.objects.count() == 0

    # A row pointing at a player that is not in the file: refused at the key check.
    lines = [json.loads(x) for x in data]
    for obj in lines:
        if obj.get("model") == "tournaments.scoreline":
            obj["fields"]["player"] = 999999
            break
    broken = gzip.compress(b"".join(json.dumps(o).encode() + b"\n" for o in lines))
    with pytest.raises(BackupError, match="tournaments_scoreline"):
        backup_restore(src=io.BytesIO(broken))
    assert Deal.objects.count() == 0 and get_user_model().objects.count() == 0

    # Two players of one club with the same name: a unique constraint, named by its table.
    lines = [json.loads(x) for x in data]
    players = [o for o in lines if o.get("model") == "tournaments.player"]
    players[1]["fields"]["name_key"] = players[0]["fields"]["name_key"]
    players[1]["fields"]["club"] = players[0]["fields"]["club"]
    broken = gzip.compress(b"".join(json.dumps(o).encode() + b"\n" for o in lines))
    with pytest.raises(BackupError, match="tournaments_player"):
        backup_restore(src=io.BytesIO(broken))
    assert Deal.objects.count() == 0 and Club.objects.count() == 0

    # A value the column cannot hold.
    lines = [json.loads(x) for x in data]
    deal = next(o for o in lines if o.get("model") == "tournaments.deal")
    deal["fields"]["seq"] = 2**70
    broken = gzip.compress(b"".join(json.dumps(o).encode() + b"\n" for o in lines))
    with pytest.raises(BackupError, match="tournaments_deal"):
        backup_restore(src=io.BytesIO(broken))
    assert Deal.objects.count() == 0 and Club.objects.count() == 0

    with pytest.raises(BackupError, match="not a readable"):
        backup_restore(src=io.BytesIO(b"plain text, not gzip"))
    with pytest.raises(BackupError, match="not an efuda backup"):
        backup_restore(src=io.BytesIO(gzip.compress(b'{"hello": 1}\n')))


@pytest.mark.parametrize("key", ["deal", "session", "club", "player"])
def test_a_score_line_naming_no_row_is_refused_though_the_database_has_no_constraint(key):
    # Score lines carry no foreign-key constraint (models.play.ScoreLine): the restore checks
    # each of their keys itself, and names the table and the line.
    _populate()
    buffer = io.BytesIO()
    backup_write(out=buffer)
    data = [json.loads(x) for x in gzip.decompress(buffer.getvalue()).splitlines()]
    call_command("flush", interactive=False, verbosity=0)
    line = next(o for o in data if o.get("model") == "tournaments.scoreline")
    line["fields"][key] = 999999
    broken = gzip.compress(b"".join(json.dumps(o).encode() + b"\n" for o in data))
    with pytest.raises(BackupError, match=rf"tournaments_scoreline .*row {line['pk']}: {key}_id"):
        backup_restore(src=io.BytesIO(broken))
    assert Deal.objects.count() == 0 and Club.objects.count() == 0
