"""Every URL pattern of the site, filled with real ids, for tests that must cover them all."""

import datetime
from dataclasses import dataclass

from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tests import factories
from tests.hardening.helpers import build_club, napoleon_data
from tournaments.models import Deal, Membership

XSS = "<script>alert(1)</script><img src=x onerror=alert(1)>"
RAW_MARKERS = ("<script>alert(1)", "<img src=x onerror")


@dataclass
class Route:
    name: str  # "namespace:name"
    route: str
    kwargs: tuple[str, ...]


def all_routes() -> list[Route]:
    routes: list[Route] = []

    def walk(resolver: URLResolver, prefix: str, namespace: str | None):
        for entry in resolver.url_patterns:
            if isinstance(entry, URLResolver):
                ns = entry.namespace
                full_ns = f"{namespace}:{ns}" if namespace and ns else (ns or namespace)
                walk(entry, prefix + str(entry.pattern), full_ns)
            elif isinstance(entry, URLPattern) and entry.name:
                pattern = entry.pattern
                keys = tuple(getattr(pattern, "converters", {}) or ()) or tuple(
                    pattern.regex.groupindex
                )
                name = f"{namespace}:{entry.name}" if namespace else entry.name
                routes.append(Route(name, prefix + str(pattern), keys))

    walk(get_resolver(), "", None)
    return routes


def club_routes() -> list[Route]:
    """The app's URLs that belong to one club (by slug) or one of its tournaments."""
    return [
        r
        for r in all_routes()
        if not r.name.startswith("admin:") and ({"club_slug", "tournament_id"} & set(r.kwargs))
    ]


@dataclass
class World:
    club: object
    owner: object
    objects: dict


def build_world(*, payload: str = XSS, public: bool = False) -> World:
    """A club with a payload in every text field a user can type, and one of everything."""
    from tournaments.services import events as ev
    from tournaments.services.players import player_get_or_create
    from tournaments.services.rulesets import ruleset_save
    from tournaments.services.sessions import session_create

    owner = factories.UserFactory(username="owner-x")
    club, players, nap, dai = build_club(deals=3, owner=owner, public=public)
    from tournaments.services.clubs import club_update
    from tournaments.services.players import player_rename

    club_update(club=club, name=payload, is_public=public)
    player_rename(player=players[5], name=("2" + payload)[:64])
    evil = player_get_or_create(club=club, name=payload[:64])
    ids = [evil.id] + [p.id for p in players[:4]]
    ruleset = ruleset_save(club=club, code="evil", preset="napoleon-wiki", name=payload[:100])
    evil_session = session_create(
        club=club,
        ruleset=ruleset,
        date=datetime.date(2026, 10, 4),
        table=payload[:40],
        notes=payload,
    )
    from tournaments.services.deals import deal_record

    evil_deal = deal_record(session=evil_session, data=napoleon_data(ids, n=1), user=owner)
    tournament = ev.tournament_create(
        club=club,
        name=payload,
        date=datetime.date(2026, 10, 5),
        ruleset=ruleset,
        rounds_planned=2,
        is_public=public,
        user=owner,
    )
    entries = [
        ev.entry_add(tournament=tournament, name=p.name, checked_in=True)
        for p in [evil, *players[:4]]
    ]
    rnd = ev.round_draw(tournament=tournament)
    ev.round_start(rnd=rnd, user=owner)
    table = rnd.tables.get()
    tdeal = ev.table_deal_record(
        table=table, data=napoleon_data(table.seats, n=2), user=owner, staff=True
    )
    ev.deal_dispute(deal=tdeal, user=owner, staff=True, note=payload)
    adjustment = ev.adjustment_add(entry=entries[0], points=-1, reason=payload, user=owner)
    membership = Membership.objects.get(club=club, user=owner)
    objects = {
        "club_slug": club.slug,
        "player_id": evil.id,
        "session_id": evil_session.id,
        "tournament_id": tournament.id,
        "table_id": table.id,
        "entry_id": entries[0].id,
        "deal_id": tdeal.id,
        "number": 1,
        "adjustment_id": adjustment.id,
        "year": 2026,
        "month": 10,
        # "pk" depends on the view:
        "pk:session": evil_session.id,
        "pk:dai_session": dai.id,
        "pk:deal": evil_deal.id,
        "pk:dai_deal": Deal.objects.filter(session=dai).first().id,
        "pk:member": membership.id,
        "pk:player": evil.id,
        "pk:ruleset": ruleset.id,
        "game": ["napoleon", "daifugo"],
    }
    return World(club=club, owner=owner, objects=objects)


_PK_KIND = {
    "session_detail": "session",
    "deal_new": "session",
    "deal_preview": "session",
    "round_new": "dai_session",
    "round_preview": "dai_session",
    "deal_edit": "deal",
    "deal_delete": "deal",
    "deal_restore": "deal",
    "deal_history": "deal",
    "member_role": "member",
    "member_remove": "member",
    "player_rename": "player",
    "player_active": "player",
    "ruleset_edit": "ruleset",
}


def urls_for(route: Route, objects: dict) -> list[str]:
    """The route filled with ``objects`` (one URL per value of a multi-valued kwarg)."""
    variants = [{}]
    for key in route.kwargs:
        if key == "pk":
            kind = _PK_KIND.get(route.name.split(":")[-1], "session")
            values = [objects[f"pk:{kind}"]]
        else:
            value = objects.get(key, 1)
            values = value if isinstance(value, list) else [value]
        variants = [{**v, key: val} for v in variants for val in values]
    return [reverse(route.name, kwargs=v) for v in variants]
