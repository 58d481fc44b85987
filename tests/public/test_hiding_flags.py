"""The visibility rule costs nothing where nothing is hidden: the club's hiding flags
(``Club.has_private_tournament``, ``Club.has_standings_freeze``) come with the club's row, and
only when one is set does a fresh page ask the database what is hidden (one query per data
version). Each cause of hiding is switched on and off here through the staff's own pages, and
both a page's content and its query count follow."""

import importlib
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.apps import apps
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests import club_versions, factories
from tests.hardening.helpers import build_club, napoleon_data
from tournaments.models import Club, Tournament
from tournaments.services import events as ev
from tournaments.services.deals import deal_record

pytestmark = pytest.mark.django_db

HIDING_SQL = "standings_hidden_rounds"  # the one query over the club's tournaments


@pytest.fixture
def setting():
    owner = factories.UserFactory(username="flag-owner")
    club, players, nap, _dai = build_club(deals=2, public=True, owner=owner)
    member = factories.UserFactory(username="flag-member")
    factories.MembershipFactory(club=club, user=member, role="member")
    clients = {"visitor": Client(), "member": Client(), "owner": Client()}
    clients["member"].force_login(member)
    clients["owner"].force_login(owner)
    return {"club": club, "ids": [p.id for p in players], "nap": nap, "clients": clients}


def flags(club) -> tuple[bool, bool]:
    return tuple(
        Club.objects.values_list("has_private_tournament", "has_standings_freeze").get(pk=club.pk)
    )


def fresh(setting, who: str, url: str, n: list[int] = [100]):  # noqa: B006 (a counter)
    """``who``'s page right after a deal recorded at the club's own session (so no kept page
    or part serves it): (status, text, queries, whether the tournaments were asked)."""
    n[0] += 1
    deal_record(session=setting["nap"], data=napoleon_data(setting["ids"], n=n[0]))
    with CaptureQueriesContext(connection) as queries:
        response = setting["clients"][who].get(url)
    asked = any(HIDING_SQL in q["sql"] for q in queries.captured_queries)
    return response.status_code, response.content.decode(), len(queries.captured_queries), asked


def new_tournament(setting, name: str, *, public: bool) -> Tournament:
    club = setting["club"]
    wiki = club.rulesets.get(code="napoleon-wiki")
    form = {"name": name, "date": "2026-12-05", "ruleset": wiki.pk, "rounds_planned": "2",
            "draw_method": "mixing", "standings_mode": "raw"}  # fmt: skip
    if public:
        form["is_public"] = "on"
    owner = setting["clients"]["owner"]
    assert owner.post(reverse("tournament_new", args=[club.slug]), form).status_code == 302
    t = Tournament.objects.get(club=club, name=name)
    for i in range(5):
        url = reverse("tournament_entry_add", args=[t.pk])
        assert owner.post(url, {"name": f"{name}{i}", "checked_in": "on"}).status_code == 302
    return t


def test_a_private_tournament_costs_visitors_one_query_and_members_none(setting):
    club = setting["club"]
    standings = reverse("standings_all", args=[club.slug, "napoleon"])
    status, _text, visitor_plain, asked = fresh(setting, "visitor", standings)
    assert status == 200 and not asked and flags(club) == (False, False)
    _s, _t, member_plain, asked = fresh(setting, "member", standings)
    assert not asked
    secret = new_tournament(setting, "秘密会", public=False)
    assert flags(club) == (True, False)
    player = secret.entries.order_by("pk").first().player_id
    page = reverse("player_detail", args=[club.slug, player])
    status, _text, queries, asked = fresh(setting, "visitor", standings)
    assert status == 200 and asked and queries == visitor_plain + 1
    assert fresh(setting, "visitor", page)[0] == 404  # known only from the private tournament
    _s, _t, queries, asked = fresh(setting, "member", standings)
    assert not asked and queries == member_plain  # members see private tournaments
    assert fresh(setting, "member", page)[0] == 200
    # a public tournament beside it changes nothing; deleting the private one ends the cost
    new_tournament(setting, "公開戦", public=True)
    assert flags(club) == (True, False)
    admin = factories.UserFactory(username="flag-admin", is_staff=True, is_superuser=True)
    staff = Client()
    staff.force_login(admin)
    delete = reverse("admin:tournaments_tournament_delete", args=[secret.pk])
    assert staff.post(delete, {"post": "yes"}).status_code == 302
    assert flags(club) == (False, False)
    status, _text, queries, asked = fresh(setting, "visitor", standings)
    assert status == 200 and not asked and queries == visitor_plain
    # made private in the admin, and public again
    public = Tournament.objects.get(club=club, name="公開戦")
    change = reverse("admin:tournaments_tournament_change", args=[public.pk])
    form = {k: v for k, v in _admin_form(staff, change).items() if k != "is_public"}
    assert staff.post(change, form).status_code == 302
    assert flags(club) == (True, False)
    assert fresh(setting, "visitor", standings)[2] == visitor_plain + 1
    assert staff.post(change, {**form, "is_public": "on"}).status_code == 302
    assert flags(club) == (False, False)
    assert fresh(setting, "visitor", standings)[2] == visitor_plain


def _admin_form(client, url) -> dict:
    """The admin change form's current values, as a browser would post them back."""
    form = client.get(url).context["adminform"].form
    data = {}
    for name in form.fields:
        value = form[name].value()
        if value is None or value is False:
            continue
        data[name] = "on" if value is True else value
        if isinstance(value, list | tuple):
            data[name] = [str(v) for v in value]
    for formset in client.get(url).context["inline_admin_formsets"]:
        management = formset.formset.management_form
        for name in management.fields:
            data[management.add_prefix(name)] = management[name].value()
        for sub in formset.formset.forms:
            for name in sub.fields:
                value = sub[name].value()
                if value is not None and value is not False:
                    data[sub.add_prefix(name)] = "on" if value is True else value
    return data


def test_a_freeze_costs_one_query_until_revealed(setting):
    club = setting["club"]
    standings = reverse("standings_all", args=[club.slug, "napoleon"])
    visitor_plain = fresh(setting, "visitor", standings)[2]
    member_plain = fresh(setting, "member", standings)[2]
    t = new_tournament(setting, "秋季", public=True)
    assert flags(club) == (False, False)
    assert fresh(setting, "visitor", standings)[2] == visitor_plain
    owner = setting["clients"]["owner"]
    freeze = reverse("tournament_freeze", args=[t.pk])
    assert owner.post(freeze, {"standings_hidden_rounds": "1"}).status_code == 302
    assert flags(club) == (False, True)
    # set, its hidden round not started: nothing hidden yet, and the rule asks, as it did
    # everywhere before the flags (one query more than a club that hides nothing)
    for who, plain in (("visitor", visitor_plain), ("member", member_plain)):
        status, _text, queries, asked = fresh(setting, who, standings)
        assert status == 200 and asked and queries == plain + 1, who
    for number in (1, 2):  # round 2 is hidden: drawn and played under the freeze
        rnd = ev.round_start(rnd=ev.round_draw(tournament=t))
        table = rnd.tables.get()
        ev.table_deal_record(table=table, data=napoleon_data(table.seats), staff=True)
        if number == 1:
            ev.round_finish(rnd=rnd)
    session = reverse("session_detail", args=[club.slug, table.session_id])
    for who, plain in (("visitor", visitor_plain), ("member", member_plain)):
        status, _text, queries, asked = fresh(setting, who, standings)
        assert status == 200 and asked and queries > plain + 1, who  # the subtraction too
        assert fresh(setting, who, session)[0] == 404, who
    assert fresh(setting, "owner", session)[0] == 200
    # finished without a reveal: still hidden
    ev.round_finish(rnd=table.round)
    ev.tournament_finish(tournament=t)
    assert flags(club) == (False, True)
    assert fresh(setting, "visitor", session)[0] == 404
    assert owner.post(reverse("tournament_reveal", args=[t.pk])).status_code == 302
    assert flags(club) == (False, False)
    for who, plain in (("visitor", visitor_plain), ("member", member_plain)):
        status, _text, queries, asked = fresh(setting, who, standings)
        assert status == 200 and not asked and queries == plain, who
        assert fresh(setting, who, session)[0] == 200, who
    # set again (0 rounds hidden is no freeze)
    assert owner.post(freeze, {"standings_hidden_rounds": "1"}).status_code == 302
    assert flags(club) == (False, True) and fresh(setting, "visitor", session)[0] == 404
    assert owner.post(freeze, {"standings_hidden_rounds": "0"}).status_code == 302
    assert flags(club) == (False, False) and fresh(setting, "visitor", session)[0] == 200


def test_the_migration_sets_the_flags_from_the_tournaments(setting):
    """The data migration's rule, run on the clubs as they stand (their flags wiped first)."""
    folder = Path(importlib.import_module("tournaments.migrations").__file__).parent
    (path,) = folder.glob("*_club_hides_flag.py")  # whatever number it has
    migration = importlib.import_module(f"tournaments.migrations.{path.stem}")
    club = setting["club"]
    other = factories.ClubFactory(is_public=True)
    t = new_tournament(setting, "古い", public=False)
    owner = setting["clients"]["owner"]
    owner.post(reverse("tournament_freeze", args=[t.pk]), {"standings_hidden_rounds": "1"})
    with club_versions.unchecked():
        Club.objects.update(has_private_tournament=False, has_standings_freeze=False)
        migration.set_flags(apps, SimpleNamespace(connection=connection))
    assert flags(club) == (True, True) and flags(other) == (False, False)
