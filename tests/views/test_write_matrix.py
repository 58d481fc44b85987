"""Every view that accepts POST, against every club role.

``WRITE_VIEWS`` is the explicit table: URL name → the least club role that may POST. A view
that accepts POST (found by probing every URL pattern of the project) and is in neither table
fails ``test_every_post_view_is_in_the_table``: whoever adds a write view adds it here too.

For each club write view: anonymous → redirect to login, outsider → 404 (the club is private),
member → 403 (or 404 where the role table says so), too-low roles → 403; every refused POST
leaves the database exactly as it was; the minimum role and above are let through.
"""

import datetime
import uuid

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tests import factories
from tournaments.models import (
    Club,
    ClubRuleSet,
    Deal,
    GameSession,
    Invitation,
    Membership,
    Player,
    PlayerClaim,
    ScoreLine,
    StandingAggregate,
    Webhook,
    WebhookDelivery,
)
from tournaments.services.clubs import club_update
from tournaments.services.deals import deal_delete, deal_record

pytestmark = pytest.mark.django_db

MEMBER, SCOREKEEPER, OWNER = "member", "scorekeeper", "owner"
LOGGED_IN = "logged_in"  # any logged-in user, no club involved

# URL name → least role that may POST. Keep in step with the URL modules.
WRITE_VIEWS = {
    "session_new": SCOREKEEPER,
    "deal_new": SCOREKEEPER,
    "deal_preview": SCOREKEEPER,
    "round_new": SCOREKEEPER,
    "round_preview": SCOREKEEPER,
    "deal_edit": SCOREKEEPER,
    "deal_delete": SCOREKEEPER,
    "deal_restore": SCOREKEEPER,
    "club_settings": OWNER,
    "member_add": OWNER,
    "member_role": OWNER,
    "member_remove": OWNER,
    "player_rename": OWNER,
    "player_active": OWNER,
    "player_anonymise": OWNER,
    "ruleset_new": OWNER,
    "ruleset_edit": OWNER,
    "manage_import": OWNER,
    "manage_import_job_restart": OWNER,
    "club_new": LOGGED_IN,
    "invitation_create": OWNER,
    "invitation_revoke": OWNER,
    "invitation_reissue": OWNER,
    "claim_confirm": OWNER,
    "claim_reject": OWNER,
    "player_merge": OWNER,
    "claim_undo": OWNER,
    "player_merge_undo": OWNER,
    "player_claim": MEMBER,
    "display_name": MEMBER,
    "api_tokens": LOGGED_IN,
    "club_feed_keys": MEMBER,
    "webhooks": OWNER,
    "webhook_ping": OWNER,
    "webhook_delete": OWNER,
}

# POST views outside the club-role model, with who checks them and where.
OTHER_WRITES = {
    "set_language": "Django's language switch: no data written",
    "outbox_texts": "renders the texts it is sent (the phone's stored problems): reads and "
    "writes nothing",
    "login": "Django auth (rate-limited by django-axes)",
    "logout": "django-allauth logout",
    # Accounts (django-allauth): the person's own account, no club involved; sign-up, reset and
    # verification rate limited by allauth, failed logins by django-axes. Tested in tests/accounts.
    "account_login": "django-allauth login (same view as 'login')",
    "account_logout": "django-allauth logout", "account_signup": "sign-up",
    "account_reset_password": "password reset request",
    "account_reset_password_from_key": "password reset from the e-mailed key",
    "account_confirm_email": "e-mail verification key", "account_email": "own addresses",
    "account_change_password": "own password", "account_set_password": "own password",
    "account_reauthenticate": "own password", "account_confirm_login_code": "login code",
    # allauth 65.22: reauthenticating by a code mailed to the logged-in person's own address
    "account_request_reauthentication_code": "own session: mails a code to its own address",
    "account_confirm_reauthentication_code": "own session: the code mailed to its own address",
    "socialaccount_signup": "LINE sign-up", "socialaccount_connections": "own LINE link",
    "invitation_open": "an invitation's token: joins the logged-in person (tests/accounts)",
    # Tournaments: staff of the organising club, or a table's PIN; tested in tests/events.
    "tournament_pin": "PIN login", "tournament_pin_logout": "PIN logout",
    "tournament_table_record": "table PIN or staff",
    "tournament_table_preview": "table PIN or staff (scores, writes nothing)",
    "tournament_deal_confirm": "table PIN",
    "tournament_deal_dispute": "table PIN", "tournament_new": "club scorekeeper",
    "tournament_manage": "staff", "tournament_entry_add": "staff",
    "tournament_entry_check_in": "staff", "tournament_entry_drop": "staff",
    "tournament_entry_remove": "staff (only an entry never drawn: tests/events)",
    "tournament_entry_pin": "staff", "tournament_draw": "staff",
    "tournament_round_swap": "staff", "tournament_round_start": "staff",
    "tournament_round_finish": "staff", "tournament_round_timer": "staff",
    "tournament_adjustment_add": "staff", "tournament_adjustment_delete": "staff",
    "tournament_seating_pdf": "staff (pins=missing or all, from the page saying what each does)",
    "tournament_deal_correct": "staff, or a table PIN where deals need confirmation",
    "tournament_deal_drop": "staff", "tournament_deal_restore": "staff",
    "tournament_pin_lockouts_clear": "staff", "tournament_replace": "staff",
    "tournament_freeze": "staff", "tournament_reveal": "staff",
    "tournament_registration": "staff (GET shows the settings)",
    "tournament_checkin_open": "staff",
    "tournament_register": "logged in, may see the tournament; member or public+anyone "
    "(tests/events/test_registration.py)",
    "tournament_withdraw": "logged in: the person's own entry only",
    "tournament_my_check_in": "logged in: the person's own entry, with the desk code",
    "tournament_my_pin": "logged in: the person's own seated entry",
    "tournament_staff_add": "club owner or the tournament's creator (tests/events)",
    "tournament_staff_remove": "club owner or the tournament's creator (GET asks first)",
    # The JSON API (tournaments/api): who calls is a personal token only, never the session
    # (so no login redirect and no CSRF); tested in tests/api.
    "api-v1:napoleon_deal_post": "a read-and-write token of a scorekeeper (tests/api)",
    "api-v1:daifugo_round_post": "a read-and-write token of a scorekeeper (tests/api)",
    "api-v1:table_deal_post": "the table's PIN token, or the staff's read-and-write token",
    "api-v1:table_round_post": "the table's PIN token, or the staff's read-and-write token",
    "api-v1:table_token": "a seated player's PIN, under the PIN form's lock-out (tests/api)",
    "api-v1:deal_read": "PUT, PATCH, DELETE: a scorekeeper's read-and-write token, If-Match",
    "api_token_revoke": "the person's own token only (another's is 404; tests/api)",
    "api-v1:api-root": "the API's root: nothing there (404)",
    "api-v1:openapi-json": "the OpenAPI document: reads nothing of the database",
    "api-v1:openapi-view": "the API's docs page: reads nothing of the database",
}  # fmt: skip

# Read pages whose views do not refuse POST (no ``require_safe``): they answer a POST like a
# GET and write nothing. Listed so that a new unrestricted view is a conscious choice; better
# still, decorate read views with ``require_safe`` and drop them from here.
UNRESTRICTED_READS = {
    "tournament_list",
    "tournament_detail",
    "tournament_standings",
    "tournament_timer",
    "tournament_results_pdf",
    "tournament_table",
    "tournament_slips_pdf",
}

DUMMY = {
    "int": 987654,
    "id": 987654,  # tournaments/urls/converters.py
    "year": 2026,
    "month": 11,
    "slug": "no-such-club",
    "str": "napoleon",
    "path": "x",
    "uuid": "00000000-0000-0000-0000-000000000000",
}


def _patterns(patterns=None, namespace=None):
    """(URL name, with its namespace when it has one; pattern) of every named URL."""
    for entry in patterns if patterns is not None else get_resolver().url_patterns:
        if isinstance(entry, URLResolver):
            if entry.namespace == "admin":  # Django admin: staff only, its own checks
                continue
            yield from _patterns(entry.url_patterns, entry.namespace or namespace)
        elif isinstance(entry, URLPattern) and entry.name:
            yield (f"{namespace}:{entry.name}" if namespace else entry.name), entry


def _dummy_kwargs(pattern: URLPattern) -> dict:
    kwargs = {}
    for name, converter in getattr(pattern.pattern, "converters", {}).items():
        kind = type(converter).__name__.replace("Converter", "").lower()
        kind = {"integer": "int", "string": "str"}.get(kind, kind)
        kwargs[name] = DUMMY.get(kind, "x")
    return kwargs


def post_accepting_views() -> set[str]:
    """URL names whose view does not answer 405 to a POST from a logged-in user of no club
    (about objects that do not exist, so nothing can be written)."""
    client = Client()
    probe = factories.UserFactory(username="probe")
    found = set()
    for name, pattern in _patterns():
        client.force_login(probe)  # again: the probe of "logout" logs out
        try:
            url = reverse(name, kwargs=_dummy_kwargs(pattern))
        except Exception:  # noqa: BLE001 (a route our dummies cannot fill: check by hand)
            found.add(name)
            continue
        if client.post(url).status_code != 405:
            found.add(name)
    return found


def test_every_post_view_is_in_the_table(db):
    accepting = post_accepting_views()
    missing = accepting - set(WRITE_VIEWS) - set(OTHER_WRITES) - UNRESTRICTED_READS
    assert not missing, f"POST views missing from the role table: {sorted(missing)}"
    # and the table names no view that has become read-only or disappeared
    assert set(WRITE_VIEWS) <= accepting


# ---- the matrix ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def world_once(django_db_setup, django_db_blocker):
    """Built once for the module inside a transaction rolled back at its end; each test runs
    in a savepoint inside it (like TestCase.setUpTestData), so the ~100 cases stay fast."""
    with django_db_blocker.unblock():
        with transaction.atomic():
            yield _build_world()
            transaction.set_rollback(True)


@pytest.fixture
def world(world_once, db):
    return world_once


def _build_world():
    """A private club with users of every role and one of everything a write view acts on."""
    club = factories.ClubFactory(slug="matrix", is_public=False)
    users = {}
    for role in (OWNER, SCOREKEEPER, MEMBER):
        users[role] = factories.UserFactory(username=f"m-{role}")
        factories.MembershipFactory(club=club, user=users[role], role=role)
    users["outsider"] = factories.UserFactory(username="m-outsider")
    factories.UserFactory(username="m-newcomer")
    players = [factories.PlayerFactory(club=club, name=f"P{i}") for i in range(5)]
    nap_rules = factories.ClubRuleSetFactory(
        club=club, code="napoleon-wiki", preset="napoleon-wiki"
    )
    dai_rules = factories.ClubRuleSetFactory(
        club=club, code="daifugo-common", preset="daifugo-common"
    )
    day = datetime.date(2026, 11, 20)
    nap = factories.session(club=club, ruleset=nap_rules, date=day)
    dai = factories.session(club=club, ruleset=dai_rules, date=day)
    seats = [p.id for p in players]
    deal = deal_record(
        session=nap,
        data={
            "seats": seats,
            "napoleon": seats[0],
            "bid": 13,
            "trump": "S",
            "adjutant": seats[1],
            "honours": 14,
            "discarded": 0,
        },
    )
    gone = deal_record(session=nap, data={"seats": seats, "redeal": True})
    deal_delete(deal=gone)
    member = Membership.objects.get(club=club, user=users[MEMBER])
    from tournaments.services.claims import player_claim
    from tournaments.services.invitations import invitation_create

    invitation = invitation_create(club=club, by=users[OWNER], role=MEMBER, max_uses=3, days=7)
    claim = player_claim(club=club, user=users[MEMBER], player=players[3])
    typo = [factories.PlayerFactory(club=club, name=name) for name in ("P9", "P9x")]
    from tournaments.services.claims import claim_confirm
    from tournaments.services.merge import player_merge

    linked = factories.UserFactory(username="m-linked")
    factories.MembershipFactory(club=club, user=linked, role=MEMBER)
    linked_player = factories.PlayerFactory(club=club, name="P7")
    owners_claim = claim_confirm(
        claim=player_claim(club=club, user=linked, player=linked_player), by=users[OWNER]
    )
    twice = [factories.PlayerFactory(club=club, name=name) for name in ("P8", "P8x")]
    merged = player_merge(club=club, keep=twice[0], merge=twice[1], by=users[OWNER])
    from tournaments.models import ImportJob
    from tournaments.services.webhooks import webhook_create

    hook, _secret = webhook_create(club=club, url="http://127.0.0.1:9/hook/", language="ja")
    stopped = ImportJob.objects.create(  # its worker stopped: the owner may start it again
        club=club, data=b"date,table,rules,order,forbidden\n", status="failed", stage="stopped"
    )
    napoleon_post = {
        "seats": seats,
        "napoleon": seats[2],
        "bid": 12,
        "trump": "H",
        "adjutant": seats[3],
        "honours": 12,
        "discarded": 0,
        "action": "save",
    }
    requests = {
        "session_new": ({}, {"date": "2026-11-22", "table": "Z", "rules": "napoleon-wiki"}),
        "deal_new": ({"pk": nap.pk}, dict(napoleon_post, client_id=str(uuid.uuid4()))),
        "deal_preview": ({"pk": nap.pk}, napoleon_post),
        "round_new": (
            {"pk": dai.pk},
            {"order": seats[:4], "action": "save", "client_id": str(uuid.uuid4())},
        ),
        "round_preview": ({"pk": dai.pk}, {"order": seats[:4]}),
        "deal_edit": ({"pk": deal.pk}, dict(napoleon_post, version=deal.version)),
        "deal_delete": ({"pk": deal.pk}, {}),
        "deal_restore": ({"pk": gone.pk}, {}),
        "club_settings": ({}, {"name": "Renamed", "is_public": "on"}),
        "member_add": ({}, {"username": "m-newcomer", "role": SCOREKEEPER}),
        "member_role": ({"pk": member.pk}, {"role": SCOREKEEPER}),
        "member_remove": ({"pk": member.pk}, {}),
        "player_rename": ({"pk": players[4].pk}, {"name": "Renamed player"}),
        "player_active": ({"pk": players[4].pk}, {"active": "0"}),
        "player_anonymise": ({"pk": players[0].pk}, {}),
        "ruleset_new": (
            {},
            {"code": "house", "preset": "napoleon-wiki", "options.min_bid": "12", "action": "save"},
        ),
        "ruleset_edit": (
            {"pk": nap_rules.pk},
            {
                "code": "napoleon-wiki",
                "preset": "napoleon-wiki",
                "options.min_bid": "11",
                "action": "save",
            },
        ),
        "manage_import": ({}, {}),
        "manage_import_job_restart": ({"job_id": stopped.pk}, {}),
        "club_new": (None, {"slug": "fresh-club", "name": "Fresh"}),
        "invitation_create": ({}, {"role": SCOREKEEPER, "max_uses": 2, "days": 3}),
        "invitation_revoke": ({"pk": invitation.pk}, {}),
        "invitation_reissue": ({"pk": invitation.pk}, {}),
        "claim_confirm": ({"pk": claim.pk}, {}),
        "claim_reject": ({"pk": claim.pk}, {}),
        "player_merge": ({}, {"keep": typo[0].pk, "merge": typo[1].pk, "confirm": "1"}),
        "claim_undo": ({"pk": owners_claim.pk}, {}),
        "player_merge_undo": ({"pk": merged.pk}, {}),
        "player_claim": ({}, {"player": players[2].pk}),
        "display_name": ({}, {"display_name": "たろう"}),
        "api_tokens": (None, {"name": "script", "scope": "read"}),
        "club_feed_keys": ({}, {"action": "renew"}),
        "webhooks": ({}, {"url": "http://127.0.0.1:9/other/", "language": "en"}),
        "webhook_ping": ({"pk": hook.pk}, {}),
        "webhook_delete": ({"pk": hook.pk}, {}),
    }
    return {"club": club, "users": users, "requests": requests}


def fingerprint():
    """Everything a write view could change, as comparable plain values."""
    return (
        sorted(Club.objects.values_list("slug", "name", "is_public")),
        sorted(Membership.objects.values_list("club_id", "user_id", "role", "display_name")),
        sorted(Player.objects.values_list("id", "name", "active", "user_id")),
        sorted(Invitation.objects.values_list("id", "uses", "revoked_at")),
        sorted(PlayerClaim.objects.values_list("id", "player_id", "status")),
        sorted(ClubRuleSet.objects.values_list("id", "code", "preset", "options")),
        GameSession.objects.count(),
        sorted(Deal.objects.values_list("id", "version", "is_deleted")),
        ScoreLine.objects.count(),
        sorted(StandingAggregate.objects.values_list("player_id", "period", "points")),
        sorted(Webhook.objects.values_list("id", "url")),
        WebhookDelivery.objects.count(),
    )


RANK = {None: 0, "outsider": 0, MEMBER: 1, SCOREKEEPER: 2, OWNER: 3}


def _url(world, name):
    kwargs, _data = world["requests"][name]
    if kwargs is None:
        return reverse(name)
    return reverse(name, kwargs={"club_slug": world["club"].slug, **kwargs})


@pytest.mark.parametrize("name", sorted(WRITE_VIEWS))
@pytest.mark.parametrize("who", [None, "outsider", MEMBER, SCOREKEEPER, OWNER])
def test_role_matrix(world, name, who):
    needed = WRITE_VIEWS[name]
    client = Client()
    if who is not None:
        client.force_login(world["users"][who])
    url = _url(world, name)
    before = fingerprint()
    response = client.post(url, world["requests"][name][1])
    if who is None:
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    elif needed == LOGGED_IN or RANK[who] >= RANK[needed]:
        assert response.status_code in (200, 302), response.content[:500]
        if response.status_code == 302:
            assert "/accounts/login/" not in response["Location"]
        return
    elif who == "outsider":
        assert response.status_code == 404
    else:
        assert response.status_code == 403
    assert fingerprint() == before, f"{who} changed data through {name}"


def test_allowed_writes_really_write(world):
    """The matrix's allowed requests are real writes (so its 'changed nothing' means something)."""
    owner = Client()
    owner.force_login(world["users"][OWNER])
    for name in ("deal_new", "deal_delete", "club_settings", "member_add", "player_rename",
                 "invitation_create", "claim_confirm", "player_merge",
                 "player_anonymise", "webhooks", "webhook_ping"):  # fmt: skip
        before = fingerprint()
        owner.post(_url(world, name), world["requests"][name][1])
        assert fingerprint() != before, name


def test_outsider_cannot_read_private_club(world):
    client = Client()
    client.force_login(world["users"]["outsider"])
    club = world["club"]
    session = GameSession.objects.filter(club=club).first()
    for url in (
        reverse("session_list", args=[club.slug]),
        reverse("session_detail", args=[club.slug, session.pk]),
    ):
        assert client.get(url).status_code == 404
    assert Client().get(reverse("session_list", args=[club.slug])).status_code == 404


def test_public_club_outsider_gets_403_on_writes(world):
    club = world["club"]
    club_update(club=club, name=club.name, is_public=True)
    client = Client()
    client.force_login(world["users"]["outsider"])
    assert client.get(reverse("session_list", args=[club.slug])).status_code == 200
    before = fingerprint()
    assert client.post(_url(world, "deal_new"), world["requests"]["deal_new"][1]).status_code == 403
    assert fingerprint() == before
    assert get_user_model().objects.filter(username="m-outsider").exists()
