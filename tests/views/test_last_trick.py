""" "Last trick won by" is asked only when at least one honour was discarded (docs/rules.md),
and when asked it must be given: the form, its page and the server agree."""

import datetime
import re

import pytest
from django.urls import reverse

from tests import factories
from tests.views.helpers import napoleon_post
from tournaments.models import Deal

pytestmark = pytest.mark.django_db


@pytest.fixture
def last_trick_session(club):
    ruleset = factories.ClubRuleSetFactory(
        club=club, code="wiki-lt", preset="napoleon-wiki",
        options={"discard_policy": "last_trick"},
    )  # fmt: skip
    return factories.session(club=club, ruleset=ruleset, date=datetime.date.today())


def _fieldset(html: str) -> str:
    return re.search(r'<fieldset id="field-last_trick"[^>]*>', html).group(0)


def test_asked_only_with_a_discarded_honour_and_never_defaulted(
    keeper, last_trick_session, players, english
):
    url = reverse("deal_new", args=[last_trick_session.club.slug, last_trick_session.pk])
    assert " hidden" in _fieldset(keeper.get(url).content.decode())
    none = napoleon_post(players, action="preview", discarded="0", last_trick="")
    assert " hidden" in _fieldset(keeper.post(url, none).content.decode())
    one = napoleon_post(players, action="preview", discarded="1", last_trick="")
    assert " hidden" not in _fieldset(keeper.post(url, one).content.decode())
    # Asked: it must be given; nothing is recorded without it.
    refused = keeper.post(url, one | {"action": "save"})
    assert refused.status_code == 200 and not Deal.objects.exists()
    assert "last trick" in refused.content.decode().lower()
    keeper.post(url, one | {"action": "save", "last_trick": "napoleon"})
    assert Deal.objects.get().data["last_trick"] == "napoleon"
    keeper.post(url, napoleon_post(players, discarded="0", last_trick="",
                                   client_id="8a1c6d1e-6a57-4a57-9a38-5f0f2a1b0002"))  # fmt: skip
    assert Deal.objects.count() == 2  # not asked: recorded without it
