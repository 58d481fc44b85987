"""The load club's world for ``loadtest.seed``: its players, past evenings, scorekeepers with an
open session each, a member who is one of its players, and the pages the runs read. Written
through the services only; imported once Django is set up (``seed.main``)."""

from __future__ import annotations

import datetime
import random

from django.contrib.auth import get_user_model
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from tournaments.models import Club, Deal, Game, Player, Role
from tournaments.services.claims import claim_confirm, player_claim
from tournaments.services.clubs import club_create
from tournaments.services.deals import deal_record
from tournaments.services.members import membership_set
from tournaments.services.players import player_get_or_create
from tournaments.services.rulesets import ruleset_resolve
from tournaments.services.sessions import session_create

PLAYER_NAMES = ("Aoi", "Ren", "Mio", "Sora", "Yuto", "Hina", "Riku", "Kai")


def world_build(*, history: int, scorekeepers: int) -> dict:
    """The load club (made once), ``history`` more past deals, and its description."""
    club = Club.objects.filter(slug="load").first() or club_create(
        slug="load", name="Load test club", is_public=True
    )
    players = [player_get_or_create(club=club, name=n) for n in PLAYER_NAMES]
    ids = [p.id for p in players]
    nap = ruleset_resolve(club=club, code="napoleon-wiki", game=Game.NAPOLEON)
    dai = ruleset_resolve(club=club, code="daifugo-common", game=Game.DAIFUGO)
    today = timezone.localdate()
    _history(club, ids, nap, dai, today, history)
    keepers = [_keeper(club, i, nap, dai, today) for i in range(1, scorekeepers + 1)]
    _member(club, players[0])
    return {
        "club": club.slug,
        "players": ids,
        "keepers": keepers,
        "member": {
            "username": "member1",
            "password": "member1-pass-2026",
            "player": players[0].id,
        },
        "pages": _pages(club, ids, today),
        "deals": Deal.objects.count(),
        "players_total": Player.objects.count(),
    }


def _history(club, ids: list[int], nap, dai, today, history: int) -> None:
    """Past months of club evenings, so standings read long histories (from aggregates)."""
    rng = random.Random(20261123)
    recorded = 0
    day_index = 0
    while recorded < history:
        day = today - datetime.timedelta(days=7 * (day_index + 1))
        day_index += 1
        with transaction.atomic():
            s_nap = session_create(club=club, ruleset=nap, date=day, table="H")
            s_dai = session_create(club=club, ruleset=dai, date=day, table="H")
            for _ in range(min(20, history - recorded)):
                if rng.random() < 0.6:
                    deal_record(session=s_nap, data=napoleon(rng, ids))
                else:
                    deal_record(session=s_dai, data=daifugo(rng, ids))
                recorded += 1


def _user(username: str, password: str):
    user_model = get_user_model()
    return user_model.objects.filter(username=username).first() or (
        user_model.objects.create_user(username, password=password)
    )


def _keeper(club, i: int, nap, dai, today) -> dict:
    """Scorekeeper ``i``, with a session of their own open today."""
    name = f"keeper{i}"
    user = _user(name, f"{name}-pass-2026")
    membership_set(club=club, user=user, role=Role.SCOREKEEPER)
    game = Game.NAPOLEON if i % 5 not in (4, 0) else Game.DAIFUGO
    session = session_create(
        club=club,
        ruleset=nap if game == Game.NAPOLEON else dai,
        date=today,
        table=f"L{i}-{timezone.now():%H%M%S}",
        user=user,
    )
    entry = reverse(
        "deal_new" if game == Game.NAPOLEON else "round_new", args=[club.slug, session.pk]
    )
    return {
        "username": name,
        "password": f"{name}-pass-2026",
        "game": game,
        "session": session.pk,
        "entry": entry,
        "page": reverse("session_detail", args=[club.slug, session.pk]),
    }


def _member(club, player) -> None:
    """A member who is one of the players (so the club home shows "my standing"), confirmed
    by an owner, as a club's members are."""
    owner = _user("owner1", "owner1-pass-2026")
    membership_set(club=club, user=owner, role=Role.OWNER)
    member = get_user_model().objects.filter(username="member1").first()
    if member is None:
        member = get_user_model().objects.create_user("member1", password="member1-pass-2026")
        membership_set(club=club, user=member, role=Role.MEMBER)
        claim_confirm(claim=player_claim(club=club, user=member, player=player), by=owner)


def _pages(club, ids: list[int], today) -> list[str]:
    """The read pages, in the order the runs pick them by index."""
    month = f"{today.year}/{today.month}"
    pages = [
        reverse("club_home", args=[club.slug]),
        reverse("standings_all", args=[club.slug, "napoleon"]),
        reverse("standings_all", args=[club.slug, "daifugo"]),
        reverse("standings_season", args=[club.slug, "napoleon", today.year]),
        f"/c/{club.slug}/standings/napoleon/{month}/",
        reverse("session_list", args=[club.slug]),
        reverse("player_detail", args=[club.slug, ids[0]]),
    ]
    old_sessions = club.sessions.exclude(table__startswith="L").values_list("pk", flat=True)[:5]
    return pages + [reverse("session_detail", args=[club.slug, pk]) for pk in old_sessions]


def napoleon(rng, ids):
    seats = rng.sample(ids, 5)
    nap = rng.choice(seats)
    bid = rng.choice([13, 13, 14, 14, 15, 16])
    solo = rng.random() < 0.1
    adjutant = None if solo else rng.choice([s for s in seats if s != nap])
    honours = max(0, min(20, bid + rng.randint(-4, 3)))
    return {
        "seats": seats,
        "napoleon": nap,
        "bid": bid,
        "trump": rng.choice("SHDC"),
        "called": "SA" if not solo else "HA",
        "adjutant": adjutant,
        "solo": solo,
        "honours": honours,
        "discarded": 0,
        "last_trick": None,
        "redeal": False,
    }


def daifugo(rng, ids):
    order = rng.sample(ids, 5)
    return {"order": order, "forbidden": []}
