"""Every tournament page and every message its actions leave, in Japanese: no English msgid of
the catalogue shows through (the views once imported gettext under a name makemessages does
not know, so their messages fell out of the catalogue)."""

import datetime
import re
from html import unescape
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests import factories
from tests.events.conftest import napoleon_win
from tests.i18n.test_catalogue import parse_po
from tournaments.services import events as svc

pytestmark = pytest.mark.django_db

PO = Path(settings.BASE_DIR) / "locale" / "ja" / "LC_MESSAGES" / "django.po"


def english_phrases() -> set[str]:
    """The catalogue's English sentences of three words or more (placeholders cut out)."""
    phrases = set()
    for entry in parse_po(PO):
        if entry.obsolete or not entry.msgid:
            continue
        for part in re.split(r"%\(\w+\)[sd]|%[sd]|<[^>]+>|\{[^}]*\}", entry.msgid):
            part = part.strip(" .,:;()“”\"'")
            if len(part.split()) >= 3 and re.fullmatch(r"[A-Za-z][A-Za-z ,'’-]+", part):
                phrases.add(part)
    return phrases


PHRASES = english_phrases()


def visible_text(html: str) -> str:
    html = re.sub(r"(?s)<(script|style)\b.*?</\1>", " ", html)
    html = re.sub(r"(?s)<!--.*?-->", " ", html)
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def assert_japanese(response):
    assert response.status_code < 500
    text = visible_text(response.content.decode())
    left = sorted(p for p in PHRASES if p in text)
    assert not left, f"English on a Japanese page: {left}"
    return text


@pytest.fixture
def setup(club):
    owner = factories.UserFactory(username="owner-ja")
    factories.MembershipFactory(club=club, user=owner, role="owner")
    helper = factories.UserFactory(username="helper-ja")
    factories.MembershipFactory(club=club, user=helper, role="member")
    ruleset = factories.ClubRuleSetFactory(club=club, code="napoleon-wiki", preset="napoleon-wiki")
    t = svc.tournament_create(
        club=club, name="秋の大会", date=datetime.date(2026, 11, 21), ruleset=ruleset,
        rounds_planned=2, is_public=True, seed=5, user=owner,
    )  # fmt: skip
    for i in range(1, 6):
        svc.entry_add(tournament=t, name=f"選手{i}", checked_in=True)
    client = Client()
    client.force_login(owner)
    return t, owner, helper, client


def test_staff_actions_leave_japanese_messages(setup):
    t, owner, helper, client = setup
    manage = reverse("tournament_manage", args=[t.pk])
    page = client.post(reverse("tournament_entry_add", args=[t.pk]), {"name": "六郎"}, follow=True)
    assert "六郎 さんをエントリーしました。" in assert_japanese(page)
    page = client.post(reverse("tournament_entry_add", args=[t.pk]), {"name": ""}, follow=True)
    assert "プレイヤー名を入力してください。" in assert_japanese(page)
    page = client.post(reverse("tournament_adjustment_add", args=[t.pk]), {}, follow=True)
    assert "プレイヤー・点数・理由を入力してください。" in assert_japanese(page)
    page = client.post(reverse("tournament_draw", args=[t.pk]), {"method": ""}, follow=True)
    assert "第1回戦の組み合わせを作りました。" in assert_japanese(page)
    rnd = t.rounds.get()
    client.post(reverse("tournament_round_start", args=[t.pk, 1]))
    page = client.post(
        reverse("tournament_round_timer", args=[t.pk, 1]), {"minutes": "1e20"}, follow=True
    )
    assert "回戦の時間を分で入力してください（1〜1440）。" in assert_japanese(page)
    entry = t.entries.first()
    page = client.post(
        reverse("tournament_entry_pin", args=[t.pk, entry.pk]), {"revoke": "1"}, follow=True
    )
    assert "さんの暗証番号を無効にしました。" in assert_japanese(page)
    assert_japanese(client.get(manage))
    # a deal recorded at a table by the staff
    table = rnd.tables.get()
    data = napoleon_win(table.seats)
    post = {
        "seats": table.seats, "napoleon": data["napoleon"], "bid": "13", "trump": "S",
        "called_suit": "S", "called_rank": "A", "adjutant": str(data["adjutant"]),
        "honours": "14", "discarded": "0", "last_trick": "",
    }  # fmt: skip
    page = client.post(reverse("tournament_table_record", args=[t.pk, table.pk]), post, follow=True)
    text = assert_japanese(page)
    assert "ディールを記録しました。" in text and "座席（席決めで決定、時計回り）" in text


def test_every_tournament_page_is_japanese(setup):
    t, owner, helper, client = setup
    svc.tournament_staff_add(tournament=t, who="helper-ja")
    rnd = svc.round_start(rnd=svc.round_draw(tournament=t))
    table = rnd.tables.get()
    svc.table_deal_record(table=table, data=napoleon_win(table.seats), staff=True)
    t = svc.tournament_freeze_set(tournament=t, hidden_rounds=2)
    pages = [
        reverse("tournament_list", args=[t.club.slug]),
        reverse("tournament_new", args=[t.club.slug]),
        reverse("tournament_detail", args=[t.pk]),
        reverse("tournament_standings", args=[t.pk]),
        reverse("tournament_manage", args=[t.pk]),
        reverse("tournament_staff", args=[t.pk]),
        reverse("tournament_staff_remove", args=[t.pk, helper.pk]),
        reverse("tournament_table", args=[t.pk, table.pk]),
        reverse("tournament_pin", args=[t.pk]),
    ]
    for url in pages:
        assert_japanese(client.get(url))
    staff = assert_japanese(client.get(reverse("tournament_standings", args=[t.pk])))
    assert "スタッフだけに見える現在の順位表です" in staff
    visitor = Client()
    public = assert_japanese(visitor.get(reverse("tournament_standings", args=[t.pk])))
    assert "順位表は第0回戦終了時点で凍結中です" in public
    page = assert_japanese(client.get(reverse("tournament_staff", args=[t.pk])))
    assert "スタッフと順位表" in page and "順位表と結果を公開する" in page
    bad = client.post(reverse("tournament_freeze", args=[t.pk]), {"standings_hidden_rounds": "9"})
    assert "順位表を隠す回戦数は 0〜2 にしてください" in assert_japanese(bad)
    bad = client.post(reverse("tournament_staff_add", args=[t.pk]), {"who": "誰か"})
    assert "このクラブのメンバーのユーザー名でもメールアドレスでもありません" in assert_japanese(
        bad
    )


def test_pin_lockout_page_is_japanese(setup):
    t, *_rest = setup
    visitor = Client()
    url = reverse("tournament_pin", args=[t.pk])
    for _ in range(svc.PIN_FAILURES_ALLOWED + 1):
        page = visitor.post(url, {"pin": "000000"})
    text = assert_japanese(page)
    assert "暗証番号の誤りが多すぎます" in text


def test_no_gettext_alias_hides_messages_from_makemessages():
    """makemessages finds gettext(), _(), gettext_lazy() … by name; ``gettext as _t`` made the
    tournament views' messages vanish from the catalogue."""
    alias = re.compile(r"import\s+(?:\w+\s+as\s+\w+\s*,\s*)*(\w*gettext\w*)\s+as\s+(\w+)")
    bad = []
    for root in ("core", "rules", "scoring", "tournaments", "ratings", "config"):
        for path in (Path(settings.BASE_DIR) / root).rglob("*.py"):
            for name, as_name in alias.findall(path.read_text(encoding="utf-8")):
                if as_name not in ("_", "N_") and not (name, as_name) == ("gettext_noop", "N_"):
                    bad.append(f"{path.relative_to(settings.BASE_DIR)}: {name} as {as_name}")
    assert not bad, bad
