"""The deal visibility rule's parts: the subtraction mirrors the aggregates exactly, the ratings
learn only what every reader sees, and the page cache moves with a freeze and a reveal."""

import re
from collections import defaultdict

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from tests import club_versions, factories
from tests.hardening.helpers import build_club, daifugo_data, napoleon_data
from tournaments.models import Club, GameSession, RatingState, ScoreLine, TournamentEntry
from tournaments.reader import Reader
from tournaments.selectors.standings import LINE_COUNTERS
from tournaments.selectors.visibility import (
    Visibility,
    common_visibility,
    deal_visibility,
)
from tournaments.services import events as ev
from tournaments.services.aggregates import spec_of
from tournaments.services.cache import club_hiding_refresh
from tournaments.services.clubs import club_update
from tournaments.services.deals import deal_record
from tournaments.services.scoring_bridge import counters

pytestmark = pytest.mark.django_db


def test_the_hidden_lines_sums_are_the_aggregates_own_counters():
    """``LINE_COUNTERS`` (SQL) gives, per player, exactly what ``counters`` adds to the
    aggregates line by line, for every counter of both games."""
    club, players, nap, dai = build_club(deals=12)
    ids = [p.id for p in players]
    for n in range(6):  # forbidden finishes and more titles
        deal_record(session=dai, data=daifugo_data(ids, n=n, forbidden=[ids[n % 5]]))
    for game in ("napoleon", "daifugo"):
        expected: dict[int, dict] = defaultdict(lambda: defaultdict(int))
        for line in ScoreLine.objects.filter(club=club, game=game):
            for name, value in counters(spec_of(line)).items():
                expected[line.player_id][name] += value
        rows = (
            ScoreLine.objects.filter(club=club, game=game)
            .values("player_id")
            .annotate(**LINE_COUNTERS)
            .order_by()
        )
        got = {r.pop("player_id"): {k: v for k, v in r.items() if v} for r in rows}
        assert got == {p: {k: v for k, v in c.items() if v} for p, c in expected.items()}, game
        exercised = {name for c in expected.values() for name in c}
        if game == "napoleon":
            assert {"wins", "napoleon_wins", "solo_deals", "adjutant_deals"} <= exercised
        else:
            assert {"title_daifugo", "title_daihinmin", "forbidden"} <= exercised


@pytest.fixture
def frozen_event(db):
    """A public club's public tournament of two rounds, the last one hidden: round 1 played,
    round 2 drawn (not started)."""
    club = factories.ClubFactory(is_public=True)
    owner = factories.UserFactory(username="vis-owner")
    factories.MembershipFactory(club=club, user=owner, role="owner")
    wiki = factories.ClubRuleSetFactory(club=club, code="napoleon-wiki", preset="napoleon-wiki")
    t = ev.tournament_create(
        club=club, name="秋", date=timezone.localdate(), ruleset=wiki, rounds_planned=2,
        is_public=True, seed=1, user=owner,
    )  # fmt: skip
    for i in range(5):
        ev.entry_add(tournament=t, name=f"選手{i}", checked_in=True)
    ev.tournament_freeze_set(tournament=t, hidden_rounds=1, user=owner)
    first = ev.round_draw(tournament=t)
    ev.round_start(rnd=first)
    table = first.tables.get()
    for n in range(2):
        ev.table_deal_record(table=table, data=napoleon_data(table.seats, n=n), staff=True)
    ev.round_finish(rnd=first)
    return Club.objects.get(pk=club.pk), owner, t  # the club as a request reads it now


def _start_second_round(t):
    rnd = ev.round_draw(tournament=t)
    ev.round_start(rnd=rnd)
    table = rnd.tables.get()
    for n in range(3):
        ev.table_deal_record(table=table, data=napoleon_data(table.seats, n=n + 5), staff=True)
    return table


def _page(client, url) -> str:
    """The page without its per-response CSRF token."""
    text = client.get(url).content.decode()
    text = re.sub(r'"X-CSRFToken": "[^"]*"', "", text)
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", text)


def test_freeze_and_reveal_move_the_cached_pages(client, frozen_event, django_assert_num_queries):
    club, owner, t = frozen_event
    listing = reverse("session_list", args=[club.slug])
    standings = reverse("standings_all", args=[club.slug, "napoleon"])
    client.get(standings)
    with django_assert_num_queries(1):  # from the cache: only the club's version is read
        before = _page(client, standings)
    table = _start_second_round(t)
    session_url = f"/c/{club.slug}/sessions/{table.session_id}/"
    frozen = _page(client, standings)
    assert frozen == before  # the round's deals are hidden: the same figures (a fresh render)
    assert session_url not in client.get(listing).content.decode()
    assert client.get(session_url).status_code == 404
    ev.tournament_standings_reveal(tournament=t, user=owner)
    assert _page(client, standings) != frozen
    assert session_url in client.get(listing).content.decode()
    assert client.get(session_url).status_code == 200
    # set again: hidden again, on the cached pages too
    ev.tournament_freeze_set(tournament=t, hidden_rounds=1, user=owner)
    assert _page(client, standings) == frozen
    assert client.get(session_url).status_code == 404


def test_ratings_learn_a_hidden_round_only_once_revealed(
    frozen_event, django_capture_on_commit_callbacks
):
    club, owner, t = frozen_event

    def rated():
        state = RatingState.objects.filter(club=club, game="napoleon").first()
        return state.deals if state else 0

    assert rated() == 2
    _start_second_round(t)
    assert rated() == 2  # recorded during the freeze: not learned
    with django_capture_on_commit_callbacks(execute=True):
        ev.tournament_standings_reveal(tournament=t, user=owner)
    assert rated() == 5
    with django_capture_on_commit_callbacks(execute=True):
        ev.tournament_freeze_set(tournament=t, hidden_rounds=1, user=owner)
    assert rated() == 2  # hidden again: unlearned by the replay
    # a private tournament's deals: rated while the club is private, not once it is public
    with django_capture_on_commit_callbacks(execute=True):
        ev.tournament_freeze_set(tournament=t, hidden_rounds=0, user=owner)
    assert rated() == 5
    with club_versions.unchecked():  # made private by site staff (the admin moves the version)
        type(t).objects.filter(pk=t.pk).update(is_public=False)
        club_hiding_refresh(club_id=club.pk)  # as the admin's save does
    with django_capture_on_commit_callbacks(execute=True):
        club_update(club=club, name=club.name, is_public=False)
    assert rated() == 5
    with django_capture_on_commit_callbacks(execute=True):
        club_update(club=club, name=club.name, is_public=True)
    assert rated() == 0
    assert common_visibility(club_id=club.pk).private_hidden


def test_who_sees_what(frozen_event):
    club, owner, t = frozen_event
    _start_second_round(t)
    member = factories.UserFactory(username="vis-member")
    factories.MembershipFactory(club=club, user=member, role="member")
    helper = factories.UserFactory(username="vis-helper")
    factories.MembershipFactory(club=club, user=helper, role="member")
    ev.tournament_staff_add(tournament=t, who="vis-helper")
    assert deal_visibility(club=club, reader=owner) == Visibility(club_id=club.pk)
    assert deal_visibility(club=club, reader=helper).everything  # the tournament's staff
    hidden = deal_visibility(club=club, reader=member)
    assert hidden.frozen == ((t.pk, 1),) and not hidden.private_hidden
    assert deal_visibility(club=club, reader=AnonymousUser()) == hidden
    # the extra staff's right lasts only while they are a member
    with club_versions.unchecked():  # no service: the extra-staff row stays
        helper.memberships.all().delete()
    helper = type(helper).objects.get(pk=helper.pk)  # a new request
    assert deal_visibility(club=club, reader=helper) == hidden
    assert Visibility(club_id=club.pk).key == "all" and hidden.key != "all"


def test_hidden_lines_of_a_period_are_those_of_its_sessions_dates():
    """A period's hidden lines are picked by their date (the lines keep no month)."""
    from django.db.models import Q

    from tournaments.selectors.standings import Period, period_lines

    assert period_lines(Period.of(2025, 12)) == Q(date__year=2025, date__month=12)
    assert period_lines(Period.of(2026, 1)) == Q(date__year=2026, date__month=1)
    assert period_lines(Period.of(2026)) == Q(date__year=2026)
    assert period_lines(Period.of()) == Q()


# Reader by reader: a public club with a private tournament and a public one frozen after its
# first round, read by a visitor, a member, the frozen tournament's extra staff and a scorekeeper.
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
def world(db):
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
    club = Club.objects.get(pk=club.pk)  # as a request reads it now (its hiding flags set)
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


def test_each_reader_sees_the_sessions_the_rule_gives_them(world):
    people = world["people"]
    everything = {"private", "shown", "hidden", "plain"}
    for who, expected in (
        (None, {"shown", "plain"}),  # no private tournament, no frozen round
        (people["aki"], {"private", "shown", "plain"}),  # a member: no frozen round
        (people["hel"], everything),  # the frozen tournament's extra staff
        (people["kei"], everything),
        (people["own"], everything),
    ):
        visibility = deal_visibility(club=world["club"], reader=who)
        assert _seen(visibility, world) == expected, who
        assert visibility.everything is (expected == everything), who


def test_the_common_view_is_the_visitors_in_a_public_club_and_the_members_in_a_private_one(world):
    visitors = common_visibility(club_id=world["club"].pk)
    assert visitors == deal_visibility(club=world["club"], reader=AnonymousUser())
    assert visitors.private_hidden and visitors.private_players
    assert visitors.frozen == ((world["frozen"].pk, 1),)
    club_update(club=world["club"], name=world["club"].name, is_public=False)
    members = common_visibility(club_id=world["club"].pk)
    assert not members.private_hidden and not members.private_players
    assert members.frozen == visitors.frozen
    assert _seen(members, world) == {"private", "shown", "plain"}


def test_a_private_tournaments_players_exist_only_for_those_who_see_it(world):
    private_player = world["private"].entries.order_by("pk").first().player_id
    public_player = world["frozen"].entries.order_by("pk").first().player_id
    nobody = factories.PlayerFactory(club=world["club"], name="誰でもない")
    visitors = deal_visibility(club=world["club"], reader=None)
    hidden = set(visitors.hidden_players().values_list("pk", flat=True))
    assert hidden == set(world["private"].entries.values_list("player_id", flat=True))
    assert not visitors.player_visible(private_player)
    assert visitors.player_visible(public_player) and visitors.player_visible(nobody.pk)
    member = deal_visibility(club=world["club"], reader=world["people"]["aki"])
    assert not member.hidden_players().exists() and member.player_visible(private_player)
    # a private player who also plays in public is seen
    ev.entry_add(tournament=world["frozen"], name=f"{world['private'].name}0", checked_in=False)
    again = deal_visibility(club=world["club"], reader=None)
    assert again.player_visible(private_player)


def test_a_private_tournament_not_started_hides_its_players_but_no_deal():
    club = factories.ClubFactory(is_public=True)
    owner = factories.UserFactory(username="own-early")
    factories.MembershipFactory(club=club, user=owner, role="owner")
    wiki = factories.ClubRuleSetFactory(club=club, code="napoleon-wiki", preset="napoleon-wiki")
    early = _tournament(club, wiki, owner, "早", public=False)
    visitors = deal_visibility(club=Club.objects.get(pk=club.pk), reader=None)
    assert not visitors.private_hidden and visitors.everything and visitors.private_players
    assert not visitors.player_visible(early.entries.first().player_id)
    assert visitors.key not in ("all", Visibility(club_id=club.pk, private_players=False).key)


def _visitors(world):
    """A visitor's view, as a new request reads it (the club as stored now)."""
    return deal_visibility(club=Club.objects.get(pk=world["club"].pk), reader=None)


def test_a_freeze_hides_nothing_until_a_hidden_round_starts_or_once_revealed(world):
    frozen, owner = world["frozen"], world["people"]["own"]
    assert _visitors(world).frozen == ((frozen.pk, 1),)
    ev.tournament_standings_reveal(tournament=frozen, user=owner)
    assert _visitors(world).frozen == ()
    ev.tournament_freeze_set(tournament=frozen, hidden_rounds=2, user=owner)
    assert _visitors(world).frozen == ((frozen.pk, 0),)
    # every round of the frozen tournament is hidden from a member, and no other tournament's
    member = deal_visibility(
        club=Club.objects.get(pk=world["club"].pk), reader=world["people"]["aki"]
    )
    assert _seen(member, world) == {"private", "plain"}


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


def test_what_a_reader_may_see_is_computed_once_and_kept_per_club_version(world, settings):
    reader = Reader.of(world["people"]["aki"])
    first = deal_visibility(club=world["club"], reader=reader)
    with CaptureQueriesContext(connection) as again:
        assert deal_visibility(club=world["club"], reader=reader) is first
    assert again.captured_queries == []
    # a new reader of the same version: the tournaments are not read again
    with CaptureQueriesContext(connection) as other:
        deal_visibility(club=world["club"], reader=world["people"]["aki"])
    assert not any("standings_hidden_rounds" in q["sql"] for q in other.captured_queries)
    settings.EFUDA_PAGE_CACHE_SECONDS = 0
    with CaptureQueriesContext(connection) as uncached:
        member = deal_visibility(club=world["club"], reader=world["people"]["aki"])
    assert any("standings_hidden_rounds" in q["sql"] for q in uncached.captured_queries)
    # read without the cache, the same answers: the member's, and the visitor's
    assert member == first
    frozen = ((world["frozen"].pk, 1),)
    assert deal_visibility(club=world["club"], reader=None) == Visibility(
        club_id=world["club"].pk, private_hidden=True, frozen=frozen, private_players=True
    )


def test_extra_staff_is_read_once_per_reader_and_only_for_members(world):
    helper = Reader.of(world["people"]["hel"])
    deal_visibility(club=world["club"], reader=helper)
    assert helper.extra_staff == {world["frozen"].pk: True}
    member = Reader.of(world["people"]["aki"])
    assert deal_visibility(club=world["club"], reader=member).frozen
    assert member.extra_staff == {world["frozen"].pk: False}
    outsider = Reader.of(factories.UserFactory(username="out-vis"))
    assert deal_visibility(club=world["club"], reader=outsider).frozen
    assert outsider.extra_staff == {}  # not a member: never staff, nothing asked


def test_a_freeze_counts_from_its_first_hidden_round_started(world):
    """Not from the freeze being set, nor from the last round shown starting, nor from a
    hidden round drawn: from a hidden round started."""
    club, owner = world["club"], world["people"]["own"]
    wiki = club.rulesets.get(code="napoleon-wiki")
    later = _tournament(club, wiki, owner, "後", public=True, rounds=2)
    ev.tournament_freeze_set(tournament=later, hidden_rounds=1, user=owner)
    before = ((world["frozen"].pk, 1),)
    assert _visitors(world).frozen == before  # no round started
    first = _play_round(later)
    assert _visitors(world).frozen == before  # round 1, the last one shown
    ev.round_finish(rnd=first.round)
    second = ev.round_draw(tournament=later)
    assert _visitors(world).frozen == before  # round 2 drawn, not started
    ev.round_start(rnd=second)
    assert _visitors(world).frozen == (*before, (later.pk, 1))


def test_a_revealed_private_tournament_puts_nobody_under_its_freeze(world):
    private, owner = world["private"], world["people"]["own"]
    ev.tournament_freeze_set(tournament=private, hidden_rounds=1, user=owner)
    frozen = ((private.pk, 0), (world["frozen"].pk, 1))
    assert _visitors(world).frozen == frozen
    ev.tournament_standings_reveal(tournament=private, user=owner)
    visitors = _visitors(world)
    assert visitors.frozen == frozen[1:] and visitors.private_hidden  # still private
    assert _seen(visitors, world) == {"shown", "plain"}


def test_another_clubs_tournaments_hide_nothing_here(world):
    other = factories.ClubFactory(is_public=True)
    owner = factories.UserFactory(username="other-vis")
    factories.MembershipFactory(club=other, user=owner, role="owner")
    wiki = factories.ClubRuleSetFactory(club=other, code="napoleon-wiki", preset="napoleon-wiki")
    elsewhere = _tournament(other, wiki, owner, "他", public=False)
    ev.tournament_freeze_set(tournament=elsewhere, hidden_rounds=1, user=owner)
    _play_round(elsewhere)  # a private tournament there, frozen from its first round
    visitors = _visitors(world)
    assert visitors.frozen == ((world["frozen"].pk, 1),)
    mine = {world["private_table"].session_id, world["hidden_table"].session_id}
    assert set(visitors.hidden_session_ids) == mine
    assert set(visitors.hidden_tables()) == {world["private_table"], world["hidden_table"]}
    member = deal_visibility(
        club=Club.objects.get(pk=world["club"].pk), reader=world["people"]["aki"]
    )
    assert member.frozen == ((world["frozen"].pk, 1),)


def test_where_only_a_private_tournament_hides_a_member_is_asked_nothing(world):
    """The club's flags say a member can be hidden nothing (no freeze in force, and members
    see private tournaments): no query over the tournaments, and nothing hidden."""
    ev.tournament_standings_reveal(tournament=world["frozen"], user=world["people"]["own"])
    club = Club.objects.get(pk=world["club"].pk)
    assert (club.has_private_tournament, club.has_standings_freeze) == (True, False)
    with CaptureQueriesContext(connection) as queries:
        member = deal_visibility(club=club, reader=world["people"]["aki"])
    assert not any("standings_hidden_rounds" in q["sql"] for q in queries.captured_queries)
    assert member == Visibility(club_id=club.pk)
    assert _seen(member, world) == {"private", "shown", "hidden", "plain"}
    private_player = world["private"].entries.order_by("pk").first().player_id
    assert member.player_visible(private_player)
    visitors = _visitors(world)  # they may not see the private tournament: asked
    assert visitors.private_hidden and visitors.private_players and not visitors.frozen
    assert _seen(visitors, world) == {"shown", "hidden", "plain"}


def test_a_club_read_without_its_hiding_flags_is_asked_what_is_hidden(world):
    """A club read without one flag or both (``defer``, ``only``) cannot say that nothing is
    hidden: the tournaments are asked (the answer kept per version), never the club again."""
    expected = Visibility(
        club_id=world["club"].pk, private_hidden=True, frozen=((world["frozen"].pk, 1),),
        private_players=True,
    )  # fmt: skip
    for deferred in (
        ("has_standings_freeze", "has_private_tournament"),
        ("has_standings_freeze",),
        ("has_private_tournament",),
    ):
        club = Club.objects.defer(*deferred).get(pk=world["club"].pk)
        with CaptureQueriesContext(connection) as queries:
            assert deal_visibility(club=club, reader=None) == expected, deferred
        assert not any('FROM "tournaments_club"' in q["sql"] for q in queries.captured_queries)


def test_the_common_view_of_a_club_that_hides_nothing_costs_one_query(
    django_assert_num_queries,
):
    plain = factories.ClubFactory(is_public=True)
    with django_assert_num_queries(1):  # the club's flags: nothing to hide
        assert common_visibility(club_id=plain.pk) == Visibility(club_id=plain.pk)
    gone = plain.pk + 1  # a club deleted since (a ratings replay queued for it)
    assert not Club.objects.filter(pk=gone).exists()
    with django_assert_num_queries(1):
        assert common_visibility(club_id=gone) == Visibility(club_id=gone)


def test_who_is_known_only_from_private_tournaments(world):
    """Hidden: an entrant taken out again, an entrant whose entry has no history (entered
    before the entries kept one: migration 0003_tournaments_evening added it unfilled), the
    other entrants of a private tournament drawn but not started. Seen: a private entrant who
    plays an ordinary session, and one who played in public, even once that entry is gone."""
    club, owner = world["club"], world["people"]["own"]
    wiki = club.rulesets.get(code="napoleon-wiki")
    later = _tournament(club, wiki, owner, "未", public=False)
    ev.entry_add(tournament=later, name="外0", checked_in=True)  # played in the frozen one
    ev.entry_remove(entry=later.entries.get(player__name="未0"), user=owner)
    with club_versions.unchecked():
        TournamentEntry.history.filter(id=later.entries.get(player__name="未1").pk).delete()
        # site staff delete 外0's played entry in the admin (the tournament's entries inline)
        world["frozen"].entries.get(player__name="外0").delete()
    ev.round_draw(tournament=later)  # its tables have no session until the round starts
    private_ids = list(world["private"].entries.values_list("player_id", flat=True))
    deal_record(session=world["plain"], data=napoleon_data(private_ids))
    visitors = _visitors(world)
    hidden = set(visitors.hidden_players().values_list("name", flat=True))
    assert hidden == {"未0", "未1", "未2", "未3", "未4"}
    assert not visitors.player_visible(later.entries.get(player__name="未1").player_id)
    assert all(visitors.player_visible(p) for p in private_ids)
    assert _seen(visitors, world) == {"shown", "plain"}
