"""Deal entry through the test client: preview, save once, errors beside their field, both
languages, edit/stale/delete/restore/history, Daifugō rounds, hostile names."""

import pytest
from django.urls import reverse
from django.utils import translation

from tests.factories import PlayerFactory
from tests.views.helpers import napoleon_post
from tournaments.models import Deal, GameSession, Player, ScoreLine
from tournaments.services.deals import deal_record, deal_update

pytestmark = pytest.mark.django_db


def post_data(players, **changes):
    # One client id for every form of a test unless it says otherwise: a repeat is the same deal.
    return napoleon_post(
        players, **{"action": "preview", "client_id": "8a1c6d1e-6a57-4a57-9a38-5f0f2a1b0001",
                    **changes}
    )  # fmt: skip


def new_url(session):
    return reverse("deal_new", args=[session.club.slug, session.pk])


def test_get_preselects_previous_seats(keeper, napoleon_session, players):
    deal_record(
        session=napoleon_session, data={"seats": [p.id for p in players[1:6]], "redeal": True}
    )
    html = keeper.get(new_url(napoleon_session)).content.decode()
    for player in players[1:6]:
        assert f'name="seats" value="{player.id}" checked' in html
    assert f'name="seats" value="{players[0].id}" checked' not in html
    assert 'name="client_id"' in html


def test_preview_shows_points_and_records_nothing(keeper, napoleon_session, players):
    response = keeper.post(new_url(napoleon_session), post_data(players))
    html = response.content.decode()
    assert response.status_code == 200
    assert f'data-player="{players[0].id}">+2<' in html
    assert f'data-player="{players[2].id}">-1<' in html
    assert not Deal.objects.exists()


def test_live_preview_returns_the_form_only(keeper, napoleon_session, players):
    url = reverse("deal_preview", args=[napoleon_session.club.slug, napoleon_session.pk])
    response = keeper.post(url, post_data(players, action="save"), HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert html.lstrip().startswith("<form") and "<html" not in html
    assert f'data-player="{players[1].id}">+1<' in html
    assert not Deal.objects.exists()  # the preview endpoint never saves


def test_save_twice_with_one_key_records_once(keeper, napoleon_session, players):
    data = post_data(players, action="save")
    first = keeper.post(new_url(napoleon_session), data)
    second = keeper.post(new_url(napoleon_session), data)
    assert first.status_code == second.status_code == 302
    assert Deal.objects.count() == 1 and ScoreLine.objects.count() == 5
    page = keeper.get(first["Location"]).content.decode()
    assert f'data-total="{players[0].id}">+2<' in page  # running totals on the fresh form


def test_bad_bid_shows_message_beside_bid_in_japanese(keeper, napoleon_session, players):
    response = keeper.post(new_url(napoleon_session), post_data(players, bid=25, action="save"))
    html = response.content.decode()
    assert response.status_code == 200 and not Deal.objects.exists()
    bid_block = html.split("<legend>")[3]  # seats, napoleon, bid
    assert "field-error" in bid_block
    with translation.override("ja"):
        from django.utils.translation import gettext

        expected = gettext(
            "The bid must be a whole number from %(min)s to %(max)s at a %(players)s-player "
            "table, not %(bid)s."
        ) % {"min": 10, "max": 20, "players": 5, "bid": 25}
    assert expected in bid_block


def test_english_rendering(keeper, napoleon_session, players):
    keeper.cookies["django_language"] = "en"
    response = keeper.post(
        new_url(napoleon_session), post_data(players, bid=25), HTTP_ACCEPT_LANGUAGE="en"
    )
    html = response.content.decode()
    assert "The bid must be a whole number from 10 to 20 at a 5-player table, not 25." in html
    assert "Points before saving" in html


def test_japanese_is_the_default_language(keeper, napoleon_session, players):
    html = keeper.get(new_url(napoleon_session)).content.decode()
    assert '<html lang="ja">' in html


def test_add_a_new_player_inline(keeper, napoleon_session, players):
    data = post_data(players[:4], new_player="  新人  ", action="preview")
    html = keeper.post(new_url(napoleon_session), data).content.decode()
    newcomer = Player.objects.get(club=napoleon_session.club, name="新人")
    assert f'name="seats" value="{newcomer.id}" checked' in html
    assert not Deal.objects.exists()


def test_redeal(keeper, napoleon_session, players):
    data = {
        "seats": [p.id for p in players[:5]],
        "redeal": "on",
        "action": "save",
        "client_id": "8a1c6d1e-6a57-4a57-9a38-5f0f2a1b00e1",
    }
    assert keeper.post(new_url(napoleon_session), data).status_code == 302
    deal = Deal.objects.get()
    assert deal.redeal and not ScoreLine.objects.exists()
    page = keeper.get(
        reverse("session_detail", args=[napoleon_session.club.slug, napoleon_session.pk])
    ).content.decode()
    assert "流れ" in page


def test_edit_and_stale_edit(keeper, napoleon_session, players, users):
    deal = deal_record(
        session=napoleon_session,
        data={
            "seats": [p.id for p in players[:5]],
            "napoleon": players[0].id,
            "bid": 13,
            "trump": "S",
            "called": "SA",
            "adjutant": players[1].id,
            "honours": 14,
            "discarded": 0,
        },
    )
    url = reverse("deal_edit", args=[napoleon_session.club.slug, deal.pk])
    html = keeper.get(url).content.decode()
    assert 'name="version" value="1"' in html and 'value="13" checked' in html
    # Someone else saves first.
    deal_update(deal=deal, data=dict(deal.data, honours=15), user=users["owner"], version=1)
    response = keeper.post(url, post_data(players, honours=9, version=1, action="save"))
    assert response.status_code == 200
    assert "owner-user" in response.content.decode()
    deal.refresh_from_db()
    assert deal.data["honours"] == 15 and deal.version == 2
    response = keeper.post(url, post_data(players, honours=9, version=2, action="save"))
    assert response.status_code == 302
    deal.refresh_from_db()
    assert deal.data["honours"] == 9 and deal.version == 3
    history = keeper.get(reverse("deal_history", args=[napoleon_session.club.slug, deal.pk]))
    text = history.content.decode()
    assert text.count('class="card"') == 3 and "scorekeeper-user" in text


def test_delete_and_restore(keeper, napoleon_session, players):
    deal = deal_record(
        session=napoleon_session,
        data={
            "seats": [p.id for p in players[:5]],
            "napoleon": players[0].id,
            "bid": 13,
            "trump": "S",
            "adjutant": players[1].id,
            "honours": 14,
            "discarded": 0,
        },
    )
    slug = napoleon_session.club.slug
    assert keeper.get(reverse("deal_delete", args=[slug, deal.pk])).status_code == 405
    keeper.post(reverse("deal_delete", args=[slug, deal.pk]))
    assert not ScoreLine.objects.exists()
    page = keeper.get(reverse("session_detail", args=[slug, napoleon_session.pk]))
    html = page.content.decode()
    assert "deal deleted" in html and reverse("deal_restore", args=[slug, deal.pk]) in html
    keeper.post(reverse("deal_restore", args=[slug, deal.pk]))
    assert ScoreLine.objects.count() == 5


def test_session_page_running_totals_and_winner(client, napoleon_session, players, users):
    seats = [p.id for p in players[:5]]
    base = {"seats": seats, "bid": 13, "trump": "H", "discarded": 0, "honours": 14}
    deal_record(session=napoleon_session, data=dict(base, napoleon=seats[0], adjutant=seats[1]))
    deal_record(session=napoleon_session, data=dict(base, napoleon=seats[2], solo=True))
    client.force_login(users["member"])
    html = client.get(
        reverse("session_detail", args=[napoleon_session.club.slug, napoleon_session.pk])
    ).content.decode()
    # deal 2: solo win, Napoleon +4, others -1 → 太郎 +1, 花子 0, Ken +3.
    assert "独り立ち" in html and '13<span class="suit-red">♥</span>' in html  # red ♥
    assert "Ken</bdi> +3" in html and "太郎</bdi> +1" in html
    assert 'class="winner-line"><span class="crown" aria-hidden="true">★</span>' in html
    assert html.index("winner-line") < html.index("Ken</bdi>", html.index("winner-line"))
    assert 'class="crown" aria-hidden="true">★</span> <bdi>Ken</bdi>' in html
    assert reverse("deal_edit", args=[napoleon_session.club.slug, 1]) not in html  # member


def test_both_games_session_totals_are_the_same_table(client, users, daifugo_session, players):
    """Daifugō's totals table is Napoleon's, counting rounds: its class, its winner's row."""
    a, b, c, d = (p.id for p in players[:4])
    deal_record(session=daifugo_session, data={"order": [a, b, c, d]})
    client.force_login(users["member"])
    url = reverse("session_detail", args=[daifugo_session.club.slug, daifugo_session.pk])
    html = client.get(url).content.decode()
    table = html[html.index('<table class="totals">') : html.index("</table>")]
    assert '<tr class="winner even"><td class="num">1</td>' in table
    assert table.count('class="winner') == 1 and "ui celled" not in html


def test_daifugo_round_preview_and_save(keeper, daifugo_session, players):
    a, b, c, d = (p.id for p in players[:4])
    url = reverse("round_new", args=[daifugo_session.club.slug, daifugo_session.pk])
    html = keeper.get(url).content.decode()
    assert 'name="players"' in html  # the first round: tick who plays
    data = {
        "players": [a, b, c, d],
        "order": [a, b, c, d, ""],
        "forbidden": [b],
        "client_id": "8a1c6d1e-6a57-4a57-9a38-5f0f2a1b00d1",
        "action": "preview",
    }
    html = keeper.post(url, data).content.decode()
    assert "大富豪" in html and "大貧民" in html
    assert f'data-player="{b}">-2<' in html  # forbidden finish: placed last
    assert "leads the next round" in html or "次" in html
    data["action"] = "save"
    assert keeper.post(url, data).status_code == 302
    html = keeper.get(url).content.decode()  # the table of the round before, ticked
    assert 'select name="order"' in html and "data-tap-player" in html
    for player in (a, b, c, d):
        assert f'name="players" value="{player}" checked' in html
    data = {
        "players": [a, b, c, d],
        "order": [b, c, d, a],
        "client_id": "8a1c6d1e-6a57-4a57-9a38-5f0f2a1b00d2",
        "action": "preview",
    }
    html = keeper.post(url, data).content.decode()
    assert "都落ち" in html and f'data-player="{a}">-2<' in html


def test_wrong_game_entry_is_404(keeper, daifugo_session):
    url = reverse("deal_new", args=[daifugo_session.club.slug, daifugo_session.pk])
    assert keeper.get(url).status_code == 404


def test_session_new_defaults_and_creates(keeper, club):
    url = reverse("session_new", args=[club.slug])
    html = keeper.get(url).content.decode()
    assert "napoleon-wiki" in html and "daifugo-common" in html
    response = keeper.post(url, {"date": "2026-11-21", "table": "B", "rules": "daifugo-common"})
    assert response.status_code == 302 and "/rounds/new/" in response["Location"]
    # The same table, day and rules again: the session already started is opened, not refused.
    again = keeper.post(url, {"date": "2026-11-21", "table": "B", "rules": "daifugo-common"},
                        follow=True)  # fmt: skip
    assert again.redirect_chain == [(response["Location"], 302)]
    assert GameSession.objects.filter(club=club).count() == 1
    said = "テーブル「B」には2026-11-21の大富豪のセッションがすでにあります"
    assert said in again.content.decode()


def test_session_already_started_under_other_rules_links_to_it(keeper, club, english):
    """Another rule set for a table and day already started: refused beside the table, in the
    reader's language (the game's name, not its code), with a link to the session."""
    url = reverse("session_new", args=[club.slug])
    first = keeper.post(url, {"date": "2026-11-21", "table": "B", "rules": "daifugo-common"})
    other = keeper.post(url, {"date": "2026-11-21", "table": "B", "rules": "daifugo-hyousube"})
    html = other.content.decode()
    assert other.status_code == 200 and "field-error" in html
    assert "already a Daifugō session" in html and "daifugo session" not in html
    assert f'href="{first["Location"]}"' in html and "Open the session of table" in html
    assert GameSession.objects.filter(club=club).count() == 1


def test_session_list_newest_first(client, users, napoleon_session, daifugo_session, club):
    client.force_login(users["member"])
    html = client.get(reverse("session_list", args=[club.slug])).content.decode()
    assert html.count("/sessions/") >= 2


HOSTILE = ["<script>alert(1)</script>", "مرحبا", "🃏👑"]


def test_hostile_names_are_escaped_inside_bdi(client, users, napoleon_session, club):
    players = [PlayerFactory(club=club, name=name) for name in HOSTILE]
    players += [PlayerFactory(club=club, name=f"p{i}") for i in range(2)]
    deal_record(
        session=napoleon_session,
        data={
            "seats": [p.id for p in players],
            "napoleon": players[0].id,
            "bid": 12,
            "trump": "C",
            "adjutant": players[1].id,
            "honours": 12,
            "discarded": 0,
        },
    )
    client.force_login(users["scorekeeper"])
    pages = [
        reverse("session_detail", args=[club.slug, napoleon_session.pk]),
        reverse("deal_new", args=[club.slug, napoleon_session.pk]),
        reverse("club_manage", args=[club.slug]),
    ]
    client.force_login(users["owner"])
    for url in pages:
        html = client.get(url).content.decode()
        assert "<script>alert(1)</script>" not in html, url
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html, url
    html = client.get(pages[0]).content.decode()
    for name in ("&lt;script&gt;alert(1)&lt;/script&gt;", "مرحبا", "🃏👑"):
        assert f"<bdi>{name}</bdi>" in html


def test_edit_an_earlier_daifugo_round_previews_with_its_own_predecessor(
    keeper, daifugo_session, players
):
    a, b, c, d = (p.id for p in players[:4])
    first = deal_record(session=daifugo_session, data={"order": [a, b, c, d]})
    second = deal_record(session=daifugo_session, data={"order": [b, c, d, a]})
    deal_record(session=daifugo_session, data={"order": [c, a, b, d]})
    slug = daifugo_session.club.slug
    html = keeper.get(reverse("deal_edit", args=[slug, second.pk])).content.decode()
    assert 'name="version" value="1"' in html
    assert html.count("selected") >= 4  # the stored order fills the numbered selects
    # Round 2 follows round 1 (大富豪 a), not round 3 (大富豪 c): a falls by 都落ち.
    data = {"players": [a, b, c, d], "order": [b, a, c, d], "version": 1, "action": "preview"}
    html = keeper.post(reverse("deal_edit", args=[slug, second.pk]), data).content.decode()
    assert f'data-player="{a}">-2<' in html and "都落ち" in html
    data["action"] = "save"
    assert keeper.post(reverse("deal_edit", args=[slug, second.pk]), data).status_code == 302
    second.refresh_from_db()
    assert second.outcome["miyako_ochi"] == str(a) and first.pk != second.pk


def test_live_preview_names_what_is_still_missing(keeper, napoleon_session, players):
    url = reverse("deal_preview", args=[napoleon_session.club.slug, napoleon_session.pk])
    data = {"seats": [p.id for p in players[:5]], "napoleon": players[0].id}
    html = keeper.post(
        url, data, HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert "None" not in html and "field-error" not in html
    assert 'class="muted pending"' in html


def test_joker_refused_beside_called_card(keeper, napoleon_session, players):
    html = keeper.post(
        new_url(napoleon_session),
        post_data(players, called_suit="JK", called_rank="", action="save"),
    ).content.decode()
    called_block = html.split('id="field-called_suit"')[1].split("</fieldset>")[0]
    assert "field-error" in called_block and not Deal.objects.exists()
