"""A member removed from a club loses every right at once (docs/accounts.md, "What the tests
keep"): the browser that is still logged in and the personal token made before both lose, at
the very next request, every read of a private club and every write of any club — the entry
form, the API's deals, deleting a deal, the results file, the import, the club's management,
the tournament they created. Each right is shown working before the removal, so a right that
was never there cannot pass for one taken away. The removal is the owner's, on the members'
page."""

import json

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests import factories
from tests.api.test_deals import bearer, deal_body
from tests.views.helpers import napoleon_post
from tournaments.models import Deal, GameSession, Membership
from tournaments.services import events as ev
from tournaments.services.clubs import club_update
from tournaments.services.deals import deal_record

pytestmark = pytest.mark.django_db


def _rights(club, session, deal, tournament, players, browser: Client, token: dict):
    """(label, answer) of each right the club gave; reads and writes alike."""
    slug = club.slug
    api = f"/api/v1/clubs/{slug}/sessions/{session.pk}/deals"
    return [
        ("club home", browser.get(reverse("club_home", args=[slug]))),
        ("deal form", browser.get(reverse("deal_new", args=[slug, session.pk]))),
        (
            "record",
            browser.post(reverse("deal_new", args=[slug, session.pk]), napoleon_post(players)),
        ),  # fmt: skip
        (
            "new session",
            browser.post(
                reverse("session_new", args=[slug]),
                {
                    "date": timezone.localdate().isoformat(),
                    "table": "Z",
                    "game": "napoleon",
                    "ruleset": session.ruleset_id,
                },
            ),
        ),  # fmt: skip
        ("delete", browser.post(reverse("deal_delete", args=[slug, deal.pk]))),
        ("history", browser.get(reverse("deal_history", args=[slug, deal.pk]))),
        (
            "results file",
            browser.get(
                reverse("results_export", args=[slug]), {"game": "napoleon", "format": "csv"}
            ),
        ),  # fmt: skip
        ("import", browser.get(reverse("manage_import", args=[slug]))),
        ("manage", browser.get(reverse("club_manage", args=[slug]))),
        ("tournament", browser.get(reverse("tournament_manage", args=[tournament.pk]))),
        ("api read", Client().get(f"/api/v1/clubs/{slug}", **token)),
        (
            "api deal",
            Client().post(
                api, json.dumps(deal_body(players)), content_type="application/json", **token
            ),
        ),  # fmt: skip
    ]


@pytest.mark.parametrize("public", [False, True], ids=["private club", "public club"])
def test_an_owner_removed_loses_every_right_at_the_next_request(public, players):
    club = players[0].club
    if public:
        club_update(club=club, name=club.name, is_public=True)
    leaving, staying = factories.UserFactory(username="leaving"), factories.UserFactory()
    for user in (leaving, staying):
        factories.MembershipFactory(club=club, user=user, role="owner")
    wiki = factories.ClubRuleSetFactory(club=club, code="napoleon-wiki", preset="napoleon-wiki")
    session = factories.session(club=club, ruleset=wiki, date=timezone.localdate())
    seats = [p.pk for p in players[:5]]
    deal = deal_record(session=session, data={
        "seats": seats, "napoleon": seats[0], "bid": 13, "trump": "S", "called": "SA",
        "adjutant": seats[1], "solo": False, "honours": 14, "discarded": 0,
    })  # fmt: skip
    tournament = ev.tournament_create(
        club=club, name="内輪の大会", date=timezone.localdate(), ruleset=wiki, user=leaving,
    )  # fmt: skip
    browser = Client()
    browser.force_login(leaving)
    token = bearer(leaving)
    before = dict(_rights(club, session, deal, tournament, players, browser, token))
    refused = {k: r.status_code for k, r in before.items() if r.status_code not in (200, 201, 302)}
    assert not refused, refused
    deal.refresh_from_db()
    assert deal.is_deleted  # the delete went through: restore it, as the club would
    browser.post(reverse("deal_restore", args=[club.slug, deal.pk]))
    deals, sessions = Deal.objects.count(), GameSession.objects.count()
    owner = Client()
    owner.force_login(staying)
    membership = Membership.objects.get(club=club, user=leaving)
    assert owner.post(reverse("member_remove", args=[club.slug, membership.pk])).status_code == 302
    after = dict(_rights(club, session, deal, tournament, players, browser, token))
    readable = {"club home", "api read"} if public else set()
    for label, response in after.items():
        if label in readable:
            assert response.status_code == 200, label  # as any visitor of a public club
            continue
        assert response.status_code in (302, 401, 403, 404), (label, response.status_code)
        if response.status_code == 302:  # only to the login page, never a write done
            assert "/accounts/login/" in response["Location"], label
    assert Deal.objects.count() == deals and GameSession.objects.count() == sessions
    deal.refresh_from_db()
    assert not deal.is_deleted
