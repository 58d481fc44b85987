"""Another club's ids are not this club's (docs/accounts.md, "What the tests keep"): a person
who owns two clubs, on one club's addresses, names the other club's merge record, deal, player,
membership, claim, invitation, rule set, session and import job. Every such address answers 404
and nothing changes in either club; the merge form refuses the other club's players; the undo
of the other club's merge through this club's address gives back nobody. The owner's rights in
the first club pass every permission check, so only the lookup by club stands in the way."""

import pytest
from django.apps import apps
from django.test import Client
from django.urls import reverse

from tests import factories
from tests.accounts.test_merge import _club
from tournaments.models import Deal, ImportJob, Membership, PlayerMerge
from tournaments.services.claims import player_claim
from tournaments.services.import_jobs import import_job_create
from tournaments.services.invitations import invitation_create
from tournaments.services.merge import player_merge

from ..imports.test_background import _many_lines

pytestmark = pytest.mark.django_db


def _rows() -> dict[str, list]:
    """Every row of the app's tables (history included): what must not move."""
    return {
        model._meta.label: list(model._default_manager.order_by("pk").values())
        for model in apps.get_app_config("tournaments").get_models()
    }


@pytest.fixture
def two_clubs():
    """Club 甲 (``here``) and club 乙 (``there``), both owned by ``boss``; 乙 has a merge
    done, a member with a claim waiting, an invitation, an import job."""
    here, _players, _ = _club(typo=False, deals=2)
    there, players, wrong = _club(typo=True, deals=2)
    boss = factories.UserFactory(username="boss")
    member = factories.UserFactory(username="kobun")
    for club in (here, there):
        factories.MembershipFactory(club=club, user=boss, role="owner")
    factories.MembershipFactory(club=there, user=member, role="member")
    record = player_merge(club=there, keep=players["太郎"], merge=wrong, by=boss)
    claim = player_claim(club=there, user=member, player=players["花子"])
    invitation = invitation_create(club=there, by=boss, role="member", max_uses=1, days=7)
    job = import_job_create(club=there, data=_many_lines(3), user=boss, filename="x.csv")
    return {
        "here": here, "there": there, "boss": boss, "record": record, "claim": claim,
        "invitation": invitation, "job": job, "players": players,
        "membership": Membership.objects.get(club=there, user=member),
        "deal": Deal.objects.filter(club=there).first(),
        "ruleset": there.rulesets.first(),
    }  # fmt: skip


def _addresses(w) -> list[tuple[str, str, dict]]:
    """(method, address on 甲 naming 乙's object, data)."""
    slug = w["here"].slug
    taro = w["players"]["太郎"].pk
    deal = w["deal"]

    def at(name, pk, key="pk"):
        return reverse(name, kwargs={"club_slug": slug, key: pk})

    return [
        ("post", at("player_merge_undo", w["record"].pk), {}),
        ("post", at("deal_delete", deal.pk), {}),
        ("post", at("deal_restore", deal.pk), {}),
        ("get", at("deal_edit", deal.pk), {}),
        ("get", at("deal_history", deal.pk), {}),
        ("get", at("session_detail", deal.session_id), {}),
        ("get", at("deal_new", deal.session_id), {}),
        ("post", at("player_rename", taro), {"name": "乗っ取り"}),
        ("post", at("player_active", taro), {"active": ""}),
        ("post", at("player_anonymise", taro), {}),
        ("post", at("member_role", w["membership"].pk), {"role": "owner"}),
        ("post", at("member_remove", w["membership"].pk), {}),
        ("post", at("claim_confirm", w["claim"].pk), {}),
        ("post", at("claim_reject", w["claim"].pk), {}),
        ("post", at("claim_undo", w["claim"].pk), {}),
        ("post", at("invitation_revoke", w["invitation"].pk), {}),
        ("post", at("invitation_reissue", w["invitation"].pk), {}),
        ("get", at("ruleset_edit", w["ruleset"].pk), {}),
        ("get", at("manage_import_job", w["job"].pk, key="job_id"), {}),
        ("post", at("manage_import_job_restart", w["job"].pk, key="job_id"), {}),
    ]


def test_another_clubs_ids_on_this_clubs_addresses_are_404_and_change_nothing(two_clubs):
    w = two_clubs
    browser = Client()
    browser.force_login(w["boss"])
    before = _rows()
    for method, address, data in _addresses(w):
        response = getattr(browser, method)(address, data)
        assert response.status_code == 404, (address, response.status_code)
    assert _rows() == before
    # the same addresses on 乙's own slug are the owner's to use: the ids were real
    there = w["there"].slug
    history = reverse("deal_history", args=[there, w["deal"].pk])
    assert browser.get(history).status_code == 200


def test_the_merge_form_refuses_another_clubs_players(two_clubs):
    w = two_clubs
    browser = Client()
    browser.force_login(w["boss"])
    here_taro = w["here"].players.get(name="太郎")
    there = w["players"]
    before = _rows()
    url = reverse("player_merge", args=[w["here"].slug])
    for keep, merge in ((here_taro, there["花子"]), (there["花子"], here_taro),
                        (there["太郎"], there["花子"])):  # fmt: skip
        for data in ({"keep": keep.pk, "merge": merge.pk},
                     {"keep": keep.pk, "merge": merge.pk, "confirm": "1"}):  # fmt: skip
            response = browser.post(url, data)
            assert response.status_code in (200, 400), (keep.name, merge.name, data)
    assert _rows() == before
    assert PlayerMerge.objects.filter(club=w["here"]).count() == 0
    assert ImportJob.objects.filter(club=w["here"]).count() == 0
