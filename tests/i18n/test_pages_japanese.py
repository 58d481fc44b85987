"""Key pages render in Japanese by default and in English on request.

These assert on words a Japanese club actually reads (ログイン, 副官, 切り札 ...), so they keep
passing while new msgids are added elsewhere, and fail if the catalogue is not compiled or
a page loses its translations.
"""

import pytest
from django.urls import reverse
from django.utils import translation

from core.errors import EfudaError
from rules import get_preset
from tests.views.helpers import napoleon_post
from tournaments.i18n import error_text, render_message
from tournaments.services.deals import deal_record

pytestmark = pytest.mark.django_db

LOGIN = "/accounts/login/"


def english(client):
    """Switch ``client`` to English the way the page's language button does."""
    response = client.post(reverse("set_language"), {"language": "en", "next": "/"})
    assert response.status_code == 302
    assert client.cookies["django_language"].value == "en"
    return client


# --- login and the site frame ------------------------------------------------------------------


def test_login_page_is_japanese_by_default(client):
    html = client.get(LOGIN).content.decode()
    assert '<html lang="ja">' in html
    assert "ログイン" in html
    assert "ユーザー名" in html and "パスワード" in html
    assert "ナポレオン・大富豪クラブの得点記録" in html  # footer
    assert "Log in" not in html
    assert 'value="en"' in html  # the switch offers English


def test_login_page_in_english_after_set_language(client):
    html = english(client).get(LOGIN).content.decode()
    assert '<html lang="en">' in html
    assert "Log in" in html and "User name" in html and "Password" in html
    assert "scores for Napoleon and Daifugō clubs" in html
    assert "ログイン" not in html
    assert 'value="ja"' in html and "日本語" in html  # the switch offers Japanese back


def test_accept_language_english_is_honoured(client):
    html = client.get(LOGIN, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Log in" in html and "ログイン" not in html


def test_language_cookie_switches_back_to_japanese(client):
    english(client)
    client.post(reverse("set_language"), {"language": "ja", "next": "/"})
    assert "ログイン" in client.get(LOGIN).content.decode()


def test_failed_login_message_is_japanese(client):
    html = client.post(LOGIN, {"login": "nobody", "password": "wrong"}).content.decode()
    # allauth's own catalogue: 入力されたユーザー名もしくはパスワードが正しくありません。
    assert "ユーザー名" in html and "正しくありません" in html


def test_home_page_for_a_visitor(client):
    html = client.get(reverse("home")).content.decode()
    assert "<h1>クラブ</h1>" in html
    assert "ログインすると自分のクラブが表示されます。" in html
    html = english(client).get(reverse("home")).content.decode()
    assert "<h1>Clubs</h1>" in html and "Log in to see your club." in html


# --- a club's sessions -------------------------------------------------------------------------


@pytest.fixture
def member(client, users):
    client.force_login(users["owner"])
    return client


@pytest.fixture
def napoleon_deal(napoleon_session, players):
    seats = [p.id for p in players[:5]]
    return deal_record(
        session=napoleon_session,
        data={
            "seats": seats,
            "napoleon": seats[0],
            "bid": 13,
            "trump": "S",
            "called": "SA",
            "adjutant": seats[1],
            "honours": 14,
            "discarded": 0,
        },
    )


def session_url(session):
    return reverse("session_detail", args=[session.club.slug, session.pk])


def test_napoleon_session_page_in_japanese(member, napoleon_session, napoleon_deal):
    html = member.get(session_url(napoleon_session)).content.decode()
    assert "セッション" in html
    assert "副官" in html and "成功" in html  # deal card: adj. / made
    assert "得点の計算" in html  # How it was scored
    assert "ナポレオン軍はトリックで絵札を14枚取りました。" in html
    assert "ナポレオン軍の絵札 14枚 ≥ 立候補 13枚：ナポレオンの勝ち。" in html
    assert "次のディールを記録" in html
    assert "How it was scored" not in html


def test_napoleon_session_page_in_english(member, napoleon_session, napoleon_deal):
    html = english(member).get(session_url(napoleon_session)).content.decode()
    assert "How it was scored" in html
    assert "The Napoleon army took 14 honours in tricks." in html
    assert "Army count 14 ≥ bid 13: Napoleon wins." in html
    assert "得点の計算" not in html


def test_daifugo_session_page_in_japanese(member, daifugo_session, players):
    order = [p.id for p in players[:5]]
    deal_record(session=daifugo_session, data={"order": order, "forbidden": []})
    html = member.get(session_url(daifugo_session)).content.decode()
    assert "上がった順：" in html
    assert "次の回戦を記録" in html
    assert "大富豪" in html and "大貧民" in html


def test_deal_entry_form_in_japanese(member, napoleon_session, players):
    url = reverse("deal_new", args=[napoleon_session.club.slug, napoleon_session.pk])
    html = member.get(url).content.decode()
    for word in (
        "ナポレオン",
        "立候補枚数",
        "指名カード",
        "副官",
        "絵札",
        "ナポレオン軍がトリックで取った枚数",
        "保存前の得点",
        "ディールを保存",
    ):
        assert word in html, word
    html = english(member).get(url).content.decode()
    for word in (
        "Bid",
        "Called card",
        "Adjutant",
        "Taken in tricks by the Napoleon army",
        "Points before saving",
    ):
        assert word in html, word


def test_entry_error_beside_the_field_is_japanese(member, napoleon_session, players):
    url = reverse("deal_new", args=[napoleon_session.club.slug, napoleon_session.pk])
    html = member.post(url, napoleon_post(players, bid=25)).content.decode()
    assert "5人での立候補枚数は10〜20の整数です（25は不可）。" in html


def test_manage_page_in_japanese(member, club):
    html = member.get(reverse("club_manage", args=[club.slug])).content.decode()
    for word in ("クラブの管理", "メンバーと役割", "オーナー", "記録係", "ルール"):
        assert word in html, word


def test_tournament_list_in_japanese(member, club):
    html = member.get(reverse("tournament_list", args=[club.slug])).content.decode()
    assert "大会" in html and "新しい大会" in html


# --- messages from the pure scoring core -------------------------------------------------------


def test_core_error_is_translated_by_error_text():
    with pytest.raises(EfudaError) as caught:
        get_preset("no-such-rules")
    with translation.override("ja"):
        text = error_text(caught.value)
    assert text.startswith("不明なルール「no-such-rules」です。")
    with translation.override("en"):
        assert error_text(caught.value).startswith("Unknown rule set “no-such-rules”")


def test_player_keys_become_names_in_japanese():
    error = EfudaError(
        "order",
        "unknown_player",
        "“%(player)s” is not one of the players at this table.",
        {"player": "7"},
    )
    with translation.override("ja"):
        assert error_text(error, {"7": "花子"}) == "「花子」はこの卓のプレイヤーではありません。"


def test_explanation_line_with_names_in_japanese():
    params = {"napoleon": "1", "bid": 13, "trump": "♠", "adjutant": "2", "called": "♠A"}
    text = "%(napoleon)s bid %(bid)s %(trump)s with adjutant %(adjutant)s (called %(called)s)."
    with translation.override("ja"):
        line = render_message(text, params, {"1": "太郎", "2": "花子"})
    assert line == "太郎が♠13枚で立候補し、副官は花子（指名カード ♠A）。"
