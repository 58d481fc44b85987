"""``manage.py demo_data [--if-empty] [--reset] [--deals N]``: a demo club a new user can look
around in, or a big one to try efuda at scale.

「絵札ナポレオン会」 (slug ``demo``, public): ten players (and a typo), three club rule sets,
and the current and the previous month (in the site's time zone) of Napoleon and Daifugō
evenings. The deals are random but seeded, plausible (bids mostly near the minimum, about half
of them made, the odd solo, redeal and forbidden finish) and recorded through ``deal_record``,
so score lines, standings aggregates and history are exactly what entry at the table writes.
Log in as demo / demo-pass (owner), scorer / scorer-pass (scorekeeper), member / member-pass
(who is the player 花子, so the club home shows their standing). An open invitation (member,
for up to 100 people, 90 days) lets a new visitor try sign-up and joining: its link is printed.
A public tournament today (「絵札杯(デモ)」, ten players, round 1 drawn and started) lets a
visitor try the tournament evening: one seated player's PIN per table is printed, to record a
deal from a phone as a player would. On the first evening 太郎 was recorded as 「太朗」 at the
大富豪 table (a typo not entered in the tournament), so *Merge two players* has a mistake to
mend. Daifugō rounds name the players at the table (``players``), as the phone's form does.

``--deals N`` makes the same club with N deals of history instead of two months: weekly
evenings up to yesterday at as many tables as N needs (ten years at most), a member for about
every 400 deals, imported in bulk through the results import (``demo_history``), so a live
database holds a realistic big club in seconds rather than hours.
"""

import datetime
import random

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from tournaments.management.demo_history import daifugo_round, history_import, napoleon_deal
from tournaments.models import Club, Deal, Game, GameSession, Role, ScoreLine
from tournaments.selectors.rulesets import session_rules
from tournaments.services.claims import claim_confirm, player_claim
from tournaments.services.clubs import club_create
from tournaments.services.deals import deal_record
from tournaments.services.events import (
    entry_add,
    pin_issue,
    round_draw,
    round_start,
    tournament_create,
)
from tournaments.services.invitations import invitation_create
from tournaments.services.members import membership_set
from tournaments.services.players import player_get_or_create
from tournaments.services.rulesets import ruleset_save
from tournaments.services.sessions import session_create

SLUG = "demo"
CLUB_NAME = "絵札ナポレオン会"
USERS = (("demo", "demo-pass", Role.OWNER), ("scorer", "scorer-pass", Role.SCOREKEEPER),
         ("member", "member-pass", Role.MEMBER))  # fmt: skip
PLAYERS = ("太郎", "花子", "健一", "ゆき", "翔太", "美咲", "次郎", "さくら", "Ken", "Sophie")
TYPO = "太朗"  # 太郎, mistyped on the first evening
# code, preset, options, name
RULESETS = (
    ("wiki-12", "napoleon-wiki", {"min_bid": 12}, "ナポレオン(トリテwiki・12枚から)"),
    ("originator", "napoleon-originator", {}, "ナポレオン(考案者ルール)"),
    ("daifugo", "daifugo-common", {}, "大富豪(一般ルール)"),
)
CLUB_NIGHTS = (3, 10, 17, 24)  # days of the month the club meets
SEED = 2024_11_20


class Command(BaseCommand):
    help = "Create the demo club 「絵札ナポレオン会」 with two months of sessions."

    def add_arguments(self, parser):
        parser.add_argument(
            "--if-empty", action="store_true", help="do nothing if any club exists already"
        )
        parser.add_argument(
            "--reset", action="store_true", help="delete the demo club first and build it again"
        )
        parser.add_argument(
            "--deals", type=int, metavar="N",
            help="a big club instead: N deals of weekly evenings up to yesterday, imported in "
            "bulk (the results import's path), with as many members as such a club has",
        )  # fmt: skip

    def handle(self, *args, if_empty, reset, deals=None, **options):
        if deals is not None and deals < 1:
            raise CommandError("--deals must be at least 1.")
        if if_empty and Club.objects.exists():
            self.stdout.write("A club exists already: no demo data added.")
            return
        existing = Club.objects.filter(slug=SLUG).first()
        if existing is not None and not reset:
            raise CommandError(f"The club '{SLUG}' exists already; use --reset to rebuild it.")
        with transaction.atomic():
            if existing is not None:
                _delete(existing)
            club, deals = build_demo(today=timezone.localdate(), deals=deals)
            pins = build_demo_tournament(club=club, today=timezone.localdate())
        invitation = club.invitations.order_by("-id").first()
        link = settings.SITE_URL + reverse("invitation_open", args=[invitation.token])
        self.stdout.write(
            f"Demo club '{club.slug}' ({club.name}): {club.players.count()} players, "
            f"{club.sessions.count()} sessions, {deals} deals. "
            "Log in as demo / demo-pass, scorer / scorer-pass or member / member-pass. "
            f"Invitation for new members: {link}"
        )
        tournament = club.tournaments.get()
        address = settings.SITE_URL + reverse("tournament_detail", args=[tournament.pk])
        self.stdout.write(
            f"Demo tournament: {address}"
            " — PINs of a seated player per table: "
            + ", ".join(f"table {number}: {pin}" for number, pin in pins)
        )


def build_demo_tournament(*, club: Club, today: datetime.date) -> list[tuple[int, str]]:
    """A public tournament today with round 1 started; (table number, PIN of its first seat)."""
    tournament = tournament_create(
        club=club, name="絵札杯(デモ)", date=today, ruleset=club.rulesets.get(code="wiki-12"),
        rounds_planned=3, minutes_per_round=40, is_public=True, seed=SEED,
    )  # fmt: skip
    for name in PLAYERS:
        entry_add(tournament=tournament, name=name, checked_in=True)
    rnd = round_start(rnd=round_draw(tournament=tournament))
    pins = []
    for table in rnd.tables.order_by("number"):
        entry = tournament.entries.get(player_id=table.seats[0])
        pins.append((table.number, pin_issue(entry=entry)))
    return pins


def _delete(club: Club) -> None:
    # Tournament tables protect their sessions; score lines and deals protect their players and
    # rule sets: remove them first.
    club.tournaments.all().delete()
    ScoreLine.objects.filter(club=club).delete()
    Deal.objects.filter(club=club).delete()
    GameSession.objects.filter(club=club).delete()
    club.delete()


def _user(username: str, password: str):
    user, _created = get_user_model().objects.get_or_create(username=username)
    user.set_password(password)
    user.save()
    return user


def club_nights(today: datetime.date) -> list[datetime.date]:
    """The club's evenings in the previous month and the current one up to yesterday
    (today itself when nothing of this month has passed), so today is free to record."""
    first = today.replace(day=1)
    previous = (first - datetime.timedelta(days=1)).replace(day=1)
    nights = [previous.replace(day=d) for d in CLUB_NIGHTS]
    this_month = [first.replace(day=d) for d in CLUB_NIGHTS if d < today.day]
    return nights + (this_month or [today])


def build_demo(*, today: datetime.date, deals: int | None = None) -> tuple[Club, int]:
    """The demo club; its deals are two months recorded one by one through ``deal_record``,
    or, with ``deals``, that many deals of history imported in bulk (``demo_history``)."""
    users = {name: _user(name, password) for name, password, _role in USERS}
    club = club_create(slug=SLUG, name=CLUB_NAME, owner=users["demo"], is_public=True)
    for name, _password, role in USERS[1:]:
        membership_set(club=club, user=users[name], role=role)
    players = [str(player_get_or_create(club=club, name=n).id) for n in PLAYERS]
    taro, typo = players[0], str(player_get_or_create(club=club, name=TYPO).id)
    hanako = club.players.get(name="花子")
    claim = player_claim(club=club, user=users["member"], player=hanako)
    claim_confirm(claim=claim, by=users["demo"])
    invitation_create(club=club, by=users["demo"], role=Role.MEMBER, max_uses=100, days=90,
                      note="demo")  # fmt: skip
    rulesets = {
        code: ruleset_save(club=club, code=code, preset=preset, options=opts, name=name)
        for code, preset, opts, name in RULESETS
    }
    rng = random.Random(SEED)
    scorer = users["scorer"]
    if deals is not None:
        written = history_import(club=club, deals=deals, today=today, rng=rng,
                                 first_names=PLAYERS, user=scorer)  # fmt: skip
        return club, written
    deals = 0
    for night, day in enumerate(club_nights(today)):
        tables = [("A", "wiki-12", rng.choice((5, 5, 5, 4, 6)), rng.randint(7, 10)),
                  ("大富豪", "daifugo", rng.randint(4, 6), rng.randint(6, 9))]  # fmt: skip
        if night % 2 == 0:
            tables.append(("B", "originator", rng.choice((5, 4)), rng.randint(5, 7)))
        for table, code, size, count in tables:
            session = session_create(club=club, ruleset=rulesets[code], date=day, table=table,
                                     user=scorer)  # fmt: skip
            seats = rng.sample(players, size)
            if night == 0 and code == "daifugo":  # the typo: 太郎 recorded as 「太朗」
                seats = [typo] + [s for s in seats if s != taro][: size - 1]
            for _ in range(count):
                if session.game == Game.NAPOLEON:
                    data = napoleon_deal(rng, seats, session_rules(session))
                else:
                    data = _daifugo(rng, seats, session)
                deal_record(session=session, data=data, user=scorer)
                deals += 1
    return club, deals


def _daifugo(rng: random.Random, seats: list[str], session: GameSession) -> dict:
    last = session.deals.filter(is_deleted=False).order_by("-seq").first()
    return daifugo_round(rng, seats, last.outcome["final_order"][0] if last else None)
