"""Every refusal of the entry form through the test client: nothing recorded, the message
beside its field and in the summary at the top (linking to the field), in the user's language,
never Python's None; a saved form redirects and entry pages are never cached."""

import re
import uuid

import pytest
from django.urls import reverse

from tests import factories
from tests.views.helpers import napoleon_post
from tournaments.models import Deal, ScoreLine
from tournaments.services.deals import deal_record

pytestmark = pytest.mark.django_db


def deal_post(players, **changes):
    return napoleon_post(players, **changes)


def new_url(session):
    return reverse("deal_new", args=[session.club.slug, session.pk])


def round_url(session):
    return reverse("round_new", args=[session.club.slug, session.pk])


def block(html: str, field: str) -> str:
    """The markup of one field's block (its fieldset or div with id="field-<name>")."""
    start = html.index(f'id="field-{field}"')
    return html[start : html.index("</fieldset>", start)]


def assert_refused(response, field: str, *words: str):
    html = response.content.decode()
    assert response.status_code == 200
    assert not Deal.objects.exists() and not ScoreLine.objects.exists()
    assert "field-error" in block(html, field), field
    summary = html[html.index('class="error-summary"') :]
    summary = summary[: summary.index("</div>")]
    assert f'href="#field-{field}"' in summary
    for word in words:
        assert word in block(html, field) and word in summary, word
    assert "None" not in html
    return html


def test_no_adjutant_chosen_is_refused_beside_the_adjutant(keeper, napoleon_session, players):
    response = keeper.post(new_url(napoleon_session), deal_post(players, adjutant=None))
    assert_refused(response, "adjutant", "副官を選んでください")


def test_napoleon_changed_into_adjutant_is_refused(keeper, napoleon_session, players):
    data = deal_post(players, adjutant=players[0].id)
    html = assert_refused(keeper.post(new_url(napoleon_session), data), "adjutant")
    # the adjutant chosen stays visible (checked) beside its refusal
    assert f'name="adjutant" value="{players[0].id}" checked' in block(html, "adjutant")


def test_solo_is_an_explicit_choice(keeper, napoleon_session, players):
    response = keeper.post(new_url(napoleon_session), deal_post(players, adjutant="solo"))
    assert response.status_code == 302
    deal = Deal.objects.get()
    assert deal.outcome["solo"] and deal.data["solo"] is True and deal.adjutant_id is None


def test_honours_missing_is_refused_beside_honours(keeper, napoleon_session, players):
    response = keeper.post(new_url(napoleon_session), deal_post(players, honours=""))
    assert_refused(response, "honours")


def test_honours_21_is_refused_and_the_preview_says_so(keeper, napoleon_session, players):
    response = keeper.post(new_url(napoleon_session), deal_post(players, honours=21))
    assert_refused(response, "honours", "21")
    live = reverse("deal_preview", args=[napoleon_session.club.slug, napoleon_session.pk])
    html = keeper.post(live, deal_post(players, honours=21, action="live")).content.decode()
    preview = html[html.index('id="preview"') :]
    assert 'class="refusal"' in preview and "21" in preview
    assert "data-player=" not in preview  # no points shown for a deal that cannot be scored


def test_seats_only_save_is_refused_not_a_redeal(keeper, napoleon_session, players):
    data = {"seats": [p.id for p in players[:5]], "action": "save"}
    assert_refused(keeper.post(new_url(napoleon_session), data), "napoleon", "ナポレオン")


def test_duplicate_seats_are_refused(keeper, napoleon_session, players):
    ids = [p.id for p in players[:4]]
    data = deal_post(players, seats=[ids[0], ids[0], ids[1], ids[2], ids[3]])
    assert_refused(keeper.post(new_url(napoleon_session), data), "seats")


def test_refusal_in_english(keeper, napoleon_session, players):
    keeper.cookies["django_language"] = "en"
    response = keeper.post(new_url(napoleon_session), deal_post(players, adjutant=None))
    assert_refused(response, "adjutant", "Choose the adjutant, or 独り立ち (solo)")


def test_daifugo_last_finisher_missing_is_refused(keeper, daifugo_session, players):
    table = [p.id for p in players[:5]]
    data = {"players": table, "order": table[:3], "action": "save"}
    html = assert_refused(keeper.post(round_url(daifugo_session), data), "order")
    assert players[3].name in block(html, "order") and players[4].name in block(html, "order")


def test_daifugo_last_one_is_placed_automatically_and_shown(keeper, daifugo_session, players):
    table = [p.id for p in players[:5]]
    data = {"players": table, "order": table[:4], "action": "preview"}
    html = keeper.post(round_url(daifugo_session), data).content.decode()
    assert "mark auto" in html and not Deal.objects.exists()
    data.update(action="save", client_id=str(uuid.uuid4()))
    assert keeper.post(round_url(daifugo_session), data).status_code == 302
    deal = Deal.objects.get()
    assert deal.data["order"] == table and len(deal.outcome["final_order"]) == 5


def test_daifugo_buttons_are_toggles_not_disabled(keeper, daifugo_session, players):
    table = [p.id for p in players[:4]]
    deal_record(session=daifugo_session, data={"players": table, "order": table})
    html = keeper.get(round_url(daifugo_session)).content.decode()
    taps = re.findall(r"<button[^>]*data-tap-player[^>]*>", html)
    assert len(taps) == 4
    assert all('aria-pressed="false"' in t and "disabled" not in t for t in taps)


def test_edit_without_version_is_refused(keeper, napoleon_session, players):
    deal = keeper.post(new_url(napoleon_session), deal_post(players))
    deal = Deal.objects.get()
    url = reverse("deal_edit", args=[napoleon_session.club.slug, deal.pk])
    data = deal_post(players, honours=3)
    response = keeper.post(url, data)
    html = response.content.decode()
    assert response.status_code == 200 and 'class="error-summary"' in html
    deal.refresh_from_db()
    assert deal.version == 1 and deal.data["honours"] == 14


def test_save_redirects_and_entry_pages_are_not_cached(keeper, napoleon_session, players):
    get = keeper.get(new_url(napoleon_session))
    assert "no-store" in get["Cache-Control"]
    html = get.content.decode()
    assert 'autocomplete="off"' in html
    first_id = re.search(r'name="client_id" value="([^"]+)"', html).group(1)
    saved = keeper.post(new_url(napoleon_session), deal_post(players, client_id=first_id))
    assert saved.status_code == 302 and saved["Location"] == new_url(napoleon_session)
    again = keeper.get(saved["Location"])
    assert "no-store" in again["Cache-Control"]
    fresh = again.content.decode()
    assert re.search(r'name="client_id" value="([^"]+)"', fresh).group(1) != first_id
    assert 'name="honours" value=' not in fresh  # honours are never pre-filled
    live = reverse("deal_preview", args=[napoleon_session.club.slug, napoleon_session.pk])
    assert "no-store" in keeper.post(live, deal_post(players, action="live"))["Cache-Control"]


def test_seat_buttons_keep_their_order(keeper, napoleon_session, players):
    """Tapping a player seats them where their button is: the buttons never reorder."""
    url = new_url(napoleon_session)
    first = keeper.get(url).content.decode()
    order = re.findall(r'name="seats" value="(\d+)"', first)
    chosen = [players[4].id, players[0].id]
    data = {"seats": chosen, "action": "preview"}
    html = keeper.post(url, data).content.decode()
    assert re.findall(r'name="seats" value="(\d+)"', html) == order
    seats = block(html, "seats")
    assert re.search(rf'value="{players[4].id}" checked[^>]*><span><b class="n">1</b>', seats)
    assert re.search(rf'value="{players[0].id}" checked[^>]*><span><b class="n">2</b>', seats)


def test_suits_and_steppers_have_accessible_names(keeper, napoleon_session, players):
    keeper.cookies["django_language"] = "en"
    html = keeper.get(new_url(napoleon_session)).content.decode()
    trump = block(html, "trump")
    assert 'class="sr-only">Hearts<' in trump and "suit-red" in trump
    assert re.search(r'data-step="1"[^>]*aria-label="[^"]*one more"', html)


def test_session_new_has_no_silent_default(keeper, club):
    factories.ClubRuleSetFactory(club=club, code="napoleon-wiki", preset="napoleon-wiki")
    url = reverse("session_new", args=[club.slug])
    html = keeper.get(url).content.decode()
    select = html[html.index('name="rules"') : html.index("</select>")]
    assert '<option value="" selected>' in select
    assert select.index("napoleon-wiki") < select.index("daifugo-common")
    assert select.count('value="napoleon-wiki"') == 1  # the club's copy, not the preset too
    response = keeper.post(url, {"date": "2026-11-21", "table": "B", "rules": ""})
    assert response.status_code == 200 and "field-error" in response.content.decode()


def test_login_lands_on_the_only_club(client, users, club):
    client.force_login(users["member"])
    response = client.get(reverse("after_login"))
    assert response["Location"] == reverse("club_home", args=[club.slug])
    factories.MembershipFactory(club=factories.ClubFactory(), user=users["member"], role="member")
    assert client.get(reverse("after_login"))["Location"] == reverse("home")


def test_club_home_links_sessions_start_and_tournaments(keeper, club):
    html = keeper.get(reverse("club_home", args=[club.slug])).content.decode()
    for name in ("session_list", "session_new", "tournament_list"):
        assert reverse(name, args=[club.slug]) in html, name
