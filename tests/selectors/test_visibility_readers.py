"""Who sees which deals and players, reader by reader (selectors/visibility.py): a public club
with a private tournament and a public one frozen after its first round, read by a visitor, a
member, the frozen tournament's extra staff and a scorekeeper."""

import re

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tests import factories
from tests.hardening.helpers import napoleon_data
from tournaments.models import Club, GameSession
from tournaments.reader import Reader
from tournaments.selectors.visibility import Visibility, common_visibility, deal_visibility
from tournaments.services import events as ev
from tournaments.services.clubs import club_update

pytestmark = pytest.mark.django_db


def _tournament(club, wiki, owner, name, *, public, rounds=1):
    t = ev.tournament_create(
        club=club, name=name, date=timezone.localdate(), ruleset=wiki, rounds_planned=rounds,
        is_public=public, seed=3, user=owner,
    )  # fmt: skip
    for i in range(5):
        ev.entry_add(tournament=t, name=f"{name}{i}", checked_in=True)
    return t


def _play_round(t):
    rnd = ev.round_start(rnd=ev.round_draw(tournament=t))
    table = rnd.tables.get()
    ev.table_deal_record(table=table, data=napoleon_data(table.seats), staff=True)
    return table


@pytest.fixture
def club():
    club = factories.ClubFactory(is_public=True)
    people = {}
    for name, role in (("own", "owner"), ("kei", "scorekeeper"), ("aki", "member"),
                       ("hel", "member")):  # fmt: skip
        people[name] = factories.UserFactory(username=f"{name}-vis")
        factories.MembershipFactory(club=club, user=people[name], role=role)
    wiki = factories.ClubRuleSetFactory(club=club, code="napoleon-wiki", preset="napoleon-wiki")
    private = _tournament(club, wiki, people["own"], "内", public=False)
    private_table = _play_round(private)
    frozen = _tournament(club, wiki, people["own"], "外", public=True, rounds=2)
    ev.tournament_freeze_set(tournament=frozen, hidden_rounds=1, user=people["own"])
    shown_table = _play_round(frozen)
    ev.round_finish(rnd=shown_table.round)
    hidden_table = _play_round(frozen)
    ev.tournament_staff_add(tournament=frozen, who="hel-vis")
    plain = factories.session(club=club, ruleset=wiki, date=timezone.localdate(), table="A")
    return {
        "club": club, "people": people, "private": private, "frozen": frozen, "plain": plain,
        "private_table": private_table, "shown_table": shown_table, "hidden_table": hidden_table,
    }  # fmt: skip


def _seen(visibility, world) -> set[str]:
    """Which of the four sessions the reader sees, by three ways of asking."""
    names = {
        "private": world["private_table"].session_id,
        "shown": world["shown_table"].session_id,
        "hidden": world["hidden_table"].session_id,
        "plain": world["plain"].pk,
    }
    listed = set(visibility.sessions(GameSession.objects.all()).values_list("pk", flat=True))
    one_by_one = {n for n, pk in names.items() if visibility.session_visible(GameSession(pk=pk))}
    not_hidden = {n for n, pk in names.items() if pk not in visibility.hidden_session_ids}
    assert {n for n, pk in names.items() if pk in listed} == one_by_one == not_hidden
    return one_by_one


def test_each_reader_sees_the_sessions_the_rule_gives_them(club):
    people = club["people"]
    everything = {"private", "shown", "hidden", "plain"}
    for who, expected in (
        (None, {"shown", "plain"}),  # no private tournament, no frozen round
        (people["aki"], {"private", "shown", "plain"}),  # a member: no frozen round
        (people["hel"], everything),  # the frozen tournament's extra staff
        (people["kei"], everything),
        (people["own"], everything),
    ):
        visibility = deal_visibility(club=club["club"], reader=who)
        assert _seen(visibility, club) == expected, who
        assert visibility.everything is (expected == everything), who


def test_the_common_view_is_the_visitors_in_a_public_club_and_the_members_in_a_private_one(club):
    visitors = common_visibility(club_id=club["club"].pk)
    assert visitors == deal_visibility(club=club["club"], reader=AnonymousUser())
    assert visitors.private_hidden and visitors.private_players
    assert visitors.frozen == ((club["frozen"].pk, 1),)
    club_update(club=club["club"], name=club["club"].name, is_public=False)
    members = common_visibility(club_id=club["club"].pk)
    assert not members.private_hidden and not members.private_players
    assert members.frozen == visitors.frozen
    assert _seen(members, club) == {"private", "shown", "plain"}


def test_a_private_tournaments_players_exist_only_for_those_who_see_it(club):
    private_player = club["private"].entries.order_by("pk").first().player_id
    public_player = club["frozen"].entries.order_by("pk").first().player_id
    nobody = factories.PlayerFactory(club=club["club"], name="誰でもない")
    visitors = deal_visibility(club=club["club"], reader=None)
    hidden = set(visitors.hidden_players().values_list("pk", flat=True))
    assert hidden == set(club["private"].entries.values_list("player_id", flat=True))
    assert not visitors.player_visible(private_player)
    assert visitors.player_visible(public_player) and visitors.player_visible(nobody.pk)
    member = deal_visibility(club=club["club"], reader=club["people"]["aki"])
    assert not member.hidden_players().exists() and member.player_visible(private_player)
    # a private player who also plays in public is seen
    ev.entry_add(tournament=club["frozen"], name=f"{club['private'].name}0", checked_in=False)
    again = deal_visibility(club=club["club"], reader=None)
    assert again.player_visible(private_player)


def test_a_private_tournament_not_started_hides_its_players_but_no_deal():
    club = factories.ClubFactory(is_public=True)
    owner = factories.UserFactory(username="own-early")
    factories.MembershipFactory(club=club, user=owner, role="owner")
    wiki = factories.ClubRuleSetFactory(club=club, code="napoleon-wiki", preset="napoleon-wiki")
    early = _tournament(club, wiki, owner, "早", public=False)
    visitors = deal_visibility(club=club, reader=None)
    assert not visitors.private_hidden and visitors.everything and visitors.private_players
    assert not visitors.player_visible(early.entries.first().player_id)
    assert visitors.key not in ("all", Visibility(club_id=club.pk, private_players=False).key)


def _visitors(club):
    """A visitor's view, as a new request reads it (the club as stored now)."""
    return deal_visibility(club=Club.objects.get(pk=club["club"].pk), reader=None)


def test_a_freeze_hides_nothing_until_a_hidden_round_starts_or_once_revealed(club):
    frozen, owner = club["frozen"], club["people"]["own"]
    assert _visitors(club).frozen == ((frozen.pk, 1),)
    ev.tournament_standings_reveal(tournament=frozen, user=owner)
    assert _visitors(club).frozen == ()
    ev.tournament_freeze_set(tournament=frozen, hidden_rounds=2, user=owner)
    assert _visitors(club).frozen == ((frozen.pk, 0),)


def test_keys_differ_exactly_when_what_is_hidden_differs():
    def key(**kw):
        return Visibility(club_id=1, **kw).key

    assert key() == "all" == Visibility(club_id=2).key
    variants = [
        key(private_hidden=True),
        key(frozen=((1, 23),)),
        key(frozen=((12, 3),)),
        key(frozen=((1, 2), (3, 4))),
        key(frozen=((1, 2),)),
        key(private_players=True),
        key(private_hidden=True, private_players=True),
        key(private_hidden=True, frozen=((1, 2),)),
    ]
    assert len(set(variants)) == len(variants) and "all" not in variants
    assert all(re.fullmatch(r"[0-9a-f]{16}", k) for k in variants)
    assert key(frozen=((1, 2),)) == Visibility(club_id=9, frozen=((1, 2),)).key


def test_what_a_reader_may_see_is_computed_once_and_kept_per_club_version(club, settings):
    reader = Reader.of(club["people"]["aki"])
    first = deal_visibility(club=club["club"], reader=reader)
    with CaptureQueriesContext(connection) as again:
        assert deal_visibility(club=club["club"], reader=reader) is first
    assert again.captured_queries == []
    # a new reader of the same version: the tournaments are not read again
    with CaptureQueriesContext(connection) as other:
        deal_visibility(club=club["club"], reader=club["people"]["aki"])
    assert not any("standings_hidden_rounds" in q["sql"] for q in other.captured_queries)
    settings.EFUDA_PAGE_CACHE_SECONDS = 0
    with CaptureQueriesContext(connection) as uncached:
        deal_visibility(club=club["club"], reader=club["people"]["aki"])
    assert any("standings_hidden_rounds" in q["sql"] for q in uncached.captured_queries)


def test_extra_staff_is_read_once_per_reader_and_only_for_members(club):
    helper = Reader.of(club["people"]["hel"])
    deal_visibility(club=club["club"], reader=helper)
    assert helper.extra_staff == {club["frozen"].pk: True}
    member = Reader.of(club["people"]["aki"])
    assert deal_visibility(club=club["club"], reader=member).frozen
    assert member.extra_staff == {club["frozen"].pk: False}
    outsider = Reader.of(factories.UserFactory(username="out-vis"))
    assert deal_visibility(club=club["club"], reader=outsider).frozen
    assert outsider.extra_staff == {}  # not a member: never staff, nothing asked
