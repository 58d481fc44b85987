"""Words a club member uses for rule sets: a rule set is named by its name (its code is made from
it), presets and options are described in words in one form, and every page calls a session's
rule set by the same name, in the page's language."""

import datetime

import pytest
from django.test import Client
from django.urls import reverse

from tests import factories
from tournaments.models import ClubRuleSet

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner_client(club, users):
    client = Client()
    client.force_login(users["owner"])
    return client


def test_a_rule_set_is_made_from_its_name_with_options_in_words(club, owner_client, english):
    url = reverse("ruleset_new", args=[club.slug])
    page = owner_client.get(url).content.decode()
    assert 'type="hidden" name="code"' in page  # no code to invent
    assert "Napoleon — trick-taking wiki rules" in page and "napoleon-wiki</" not in page
    assert "whatever the bid" in page  # each preset in a sentence
    assert "Whoever won the last trick" in page and ">last_trick<" not in page
    # Every option of every preset is in the same form; those of other presets are hidden.
    assert 'name="options.min_bid"' in page and 'name="options.title_points"' in page
    for name in ("ハウスルール", "Friday rules"):
        response = owner_client.post(url, {
            "name": name, "preset": "napoleon-wiki", "options.min_bid": "12",
            "options.discard_policy": "napoleon", "action": "save"})  # fmt: skip
        assert response.status_code == 302, response.content.decode()[-2000:]
    codes = dict(ClubRuleSet.objects.filter(club=club).values_list("name", "code"))
    assert codes == {"ハウスルール": "napoleon-wiki-house", "Friday rules": "friday-rules"}
    response = owner_client.post(url, {"name": "", "preset": "napoleon-wiki", "action": "save"})
    assert "Give the rule set a name" in response.content.decode()


def test_session_and_entry_pages_call_the_rule_set_by_the_same_name(club, users, english):
    house = factories.ClubRuleSetFactory(club=club, code="house", preset="napoleon-wiki",
                                         name="ハウスルール")  # fmt: skip
    adopted = factories.ClubRuleSetFactory(
        club=club, code="daifugo-common", preset="daifugo-common", name="大富豪(一般ルール)"
    )

    client = Client()
    client.force_login(users["scorekeeper"])
    for ruleset, expected in ((house, "ハウスルール"), (adopted, "Daifugō — common rules")):
        session = factories.session(club=club, ruleset=ruleset, date=datetime.date(2026, 11, 20),
                                    table=ruleset.code)  # fmt: skip
        detail = client.get(reverse("session_detail", args=[club.slug, session.pk])).content
        new = "deal_new" if ruleset.game == "napoleon" else "round_new"
        entry = client.get(reverse(new, args=[club.slug, session.pk])).content
        assert expected.encode() in detail and expected.encode() in entry
