"""``manage.py demo_data``: a public demo club with two months of deals whose aggregates add up."""

import datetime
import re
from collections import defaultdict
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import override_settings
from django.utils import timezone

from tests import factories
from tournaments.management.commands.demo_data import club_nights
from tournaments.management.demo_history import member_names, roster_size
from tournaments.models import (
    BidAggregate,
    Club,
    Deal,
    GameSession,
    Membership,
    Rating,
    RatingHistory,
    RatingState,
    ScoreLine,
    StandingAggregate,
)
from tournaments.selectors.accounts import invitation_state
from tournaments.selectors.merge import merge_preview
from tournaments.services.merge import player_merge

pytestmark = pytest.mark.django_db


def _month(day: datetime.date) -> str:
    return f"{day.year:04d}-{day.month:02d}"


def test_demo_club_with_two_months_of_both_games():
    call_command("demo_data", "--if-empty", stdout=StringIO())
    club = Club.objects.get(slug="demo")
    assert club.is_public and club.name == "絵札ナポレオン会"
    assert 8 <= club.players.count() <= 12
    assert any(p.name.isascii() for p in club.players.all())
    roles = dict(Membership.objects.filter(club=club).values_list("user__username", "role"))
    assert roles == {"demo": "owner", "scorer": "scorekeeper", "member": "member"}
    for username in ("demo", "scorer", "member"):
        user = get_user_model().objects.get(username=username)
        assert user.check_password(f"{username}-pass")
    # An open invitation to try joining; the member is the player 花子.
    invitation = club.invitations.get()
    assert invitation_state(invitation) == "open" and invitation.role == "member"
    assert invitation.max_uses >= 10
    assert club.players.get(user__username="member").name == "花子"

    today = timezone.localdate()
    previous = today.replace(day=1) - datetime.timedelta(days=1)
    sessions = GameSession.objects.filter(club=club)
    months = {(_month(s.date), s.game) for s in sessions}
    assert months == {(m, g) for m in (_month(today), _month(previous))
                      for g in ("napoleon", "daifugo")}  # fmt: skip
    assert all(s.date <= today for s in sessions)
    presets = set(sessions.values_list("ruleset__preset", flat=True))
    assert presets == {"napoleon-wiki", "napoleon-originator", "daifugo-common"}

    deals = Deal.objects.filter(club=club)
    assert deals.count() >= 100
    napoleon = deals.filter(game="napoleon", redeal=False)
    won = sum(1 for d in napoleon if d.outcome["won"])
    assert 0.25 < won / napoleon.count() < 0.75  # realistic: neither side always wins
    assert all(d.created_by.username == "scorer" and d.history.exists() for d in deals[:5])

    _totals_are_their_lines(club)
    _if_empty_is_idempotent_and_reset_rebuilds_the_same_club()
    _the_typo_merges()


def _totals_are_their_lines(club):
    """Every standings aggregate is the sum of its score lines (month, year and all time)."""
    sums: dict = defaultdict(lambda: [0, 0])
    for line in ScoreLine.objects.filter(club=club):
        for period in (_month(line.date), f"{line.date.year}", "all"):
            sums[(line.player_id, line.game, period)][0] += line.points
            sums[(line.player_id, line.game, period)][1] += 1
    aggregates = {
        (a.player_id, a.game, a.period): [a.points, a.deals]
        for a in StandingAggregate.objects.filter(club=club)
    }
    assert aggregates == dict(sums)
    assert sum(a.points for a in StandingAggregate.objects.filter(club=club, period="all")) == 0
    napoleon_lines = ScoreLine.objects.filter(club=club, role="napoleon")
    assert sum(b.deals for b in BidAggregate.objects.filter(club=club)) == napoleon_lines.count()


def _the_typo_merges():
    """Part of the test above: the demo's rounds name their table's players, as the phone's
    form stores them, and its typo 「太朗」 merges into 太郎 (not the other way round: 太郎 plays
    in today's tournament)."""
    club = Club.objects.get(slug="demo")
    typo, taro = club.players.get(name="太朗"), club.players.get(name="太郎")
    rounds = Deal.objects.filter(club=club, game="daifugo")
    assert all(sorted(d.data["players"]) == sorted(d.data["order"]) for d in rounds)
    preview = merge_preview(club=club, keep=taro, merge=typo)
    assert preview.obstacles == [] and preview.daifugo_rounds > 0 and not preview.napoleon_deals
    other_way = merge_preview(club=club, keep=typo, merge=taro).obstacles
    assert [o.code for o in other_way] == ["merge_tournament_played"]
    record = player_merge(club=club, keep=taro, merge=typo)
    assert record.deals == preview.deals and not club.players.filter(name="太朗").exists()


def _if_empty_is_idempotent_and_reset_rebuilds_the_same_club():
    # Part of the test above: building the demo club twice more would only cost time.
    counts = (Deal.objects.count(), ScoreLine.objects.count(), StandingAggregate.objects.count())
    out = StringIO()
    call_command("demo_data", "--if-empty", stdout=out)
    assert "no demo data" in out.getvalue()
    assert (Deal.objects.count(), ScoreLine.objects.count(),
            StandingAggregate.objects.count()) == counts  # fmt: skip
    with pytest.raises(CommandError, match="exists already"):
        call_command("demo_data", stdout=StringIO())
    points = sorted(ScoreLine.objects.values_list("player__name", "points"))
    call_command("demo_data", "--reset", stdout=StringIO())
    assert Club.objects.filter(slug="demo").count() == 1
    assert (Deal.objects.count(), ScoreLine.objects.count(),
            StandingAggregate.objects.count()) == counts  # fmt: skip
    assert sorted(ScoreLine.objects.values_list("player__name", "points")) == points  # seeded


def test_demo_tournament_a_printed_pin_opens_its_table(client):
    out = StringIO()
    call_command("demo_data", stdout=out)
    tournament = Club.objects.get(slug="demo").tournaments.get()
    assert tournament.is_public and tournament.date == timezone.localdate()
    assert tournament.entries.filter(checked_in=True).count() == 10
    rnd = tournament.rounds.get()
    assert rnd.started_at is not None and rnd.tables.count() == 2
    pins = dict(re.findall(r"table (\d+): (\d{4,8})", out.getvalue()))
    assert sorted(pins) == ["1", "2"]
    table = rnd.tables.get(number=1)
    response = client.post(f"/t/{tournament.pk}/pin/", {"pin": pins["1"], "table": table.number})
    assert response.status_code == 302
    assert response["Location"] == f"/t/{tournament.pk}/table/{table.pk}/"


def test_deals_n_makes_a_big_club_of_n_deals_whose_totals_are_their_lines():
    out = StringIO()
    call_command("demo_data", "--deals", "700", stdout=out)
    club = Club.objects.get(slug="demo")
    deals = Deal.objects.filter(club=club)
    assert deals.count() == 700 and "700 deals" in out.getvalue()
    assert set(deals.values_list("game", flat=True)) == {"napoleon", "daifugo"}
    assert (
        deals.filter(redeal=True).exists() and deals.filter(game="napoleon", redeal=False).exists()
    )
    # Weekly evenings up to yesterday, several tables each; the tournament is today's.
    today = timezone.localdate()
    sessions = GameSession.objects.filter(club=club, date__lt=today)
    days = sorted(set(sessions.values_list("date", flat=True)))
    assert len(days) == 12 and days[-1] == today - datetime.timedelta(days=1)
    assert all((b - a).days == 7 for a, b in zip(days, days[1:], strict=False))
    assert sessions.count() > 2 * len(days)
    assert {d.history.count() for d in deals[:20]} == {1}  # the import's history rows
    assert set(RatingState.objects.filter(club=club).values_list("game", flat=True)) == {
        "napoleon",
        "daifugo",
    }
    _totals_are_their_lines(club)
    # Everything else of the demo is there: the users, the member who is 花子, the tournament.
    assert club.players.get(user__username="member").name == "花子"
    assert club.tournaments.get().date == today


@override_settings(TASKS={"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}})
def test_deals_n_leaves_the_ratings_replayed_without_a_worker():
    """No task runs here (the dummy backend keeps them): the command replays itself."""
    call_command("demo_data", "--deals", "300", stdout=StringIO())
    club = Club.objects.get(slug="demo")
    rated = RatingHistory.objects.filter(club=club)
    assert set(rated.values_list("game", flat=True)) == {"napoleon", "daifugo"}
    for game in ("napoleon", "daifugo"):
        players = ScoreLine.objects.filter(club=club, game=game).values("player").distinct()
        assert Rating.objects.filter(club=club, game=game).count() == players.count() > 0


def test_a_big_club_has_a_member_for_about_every_400_deals():
    assert roster_size(700) == 10 and roster_size(20_000) == 50 and roster_size(10**7) == 400
    names = member_names(400, ("太郎", "花子"))
    assert names[:2] == ["太郎", "花子"] and len(set(names)) == 400


def test_deals_must_be_at_least_one():
    with pytest.raises(CommandError, match="at least 1"):
        call_command("demo_data", "--deals", "0", stdout=StringIO())


def test_if_empty_leaves_a_site_with_a_club_alone():
    factories.ClubFactory(slug="real-club")
    call_command("demo_data", "--if-empty", stdout=StringIO())
    assert not Club.objects.filter(slug="demo").exists()


@pytest.mark.parametrize(
    ("today", "expected"),
    [
        (
            datetime.date(2026, 11, 23),
            [
                "2026-10-03",
                "2026-10-10",
                "2026-10-17",
                "2026-10-24",
                "2026-11-03",
                "2026-11-10",
                "2026-11-17",
            ],
        ),
        (
            datetime.date(2027, 1, 2),
            ["2026-12-03", "2026-12-10", "2026-12-17", "2026-12-24", "2027-01-02"],
        ),
    ],
)
def test_club_nights_are_last_month_and_this_month_until_yesterday(today, expected):
    assert [d.isoformat() for d in club_nights(today)] == expected
