"""A club's players (each with their statistics) and its rule sets (with their point tables),
as JSON: read as the player page and the club's rule sets are, through the same checks
(``club_for_request``), ``deal_visibility`` and selectors."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404
from ninja import Router
from ninja.pagination import paginate

import rules

from ..models import Game, Player
from ..permissions import club_for_request
from ..selectors.clubs import club_rulesets
from ..selectors.players import club_players, player_stats
from ..selectors.rulesets import ruleset_rules
from ..selectors.visibility import deal_visibility
from ..standings_fields import COUNTER_NAMES
from . import auth
from .freshness import fresh, read_etag
from .pages import Page, Pages
from .reads import NOT_FOUND
from .schemas import PlayerDetailOut, PlayerOut, RuleSetOut

router = Router(tags=["clubs"], auth=auth.READ)
router.add_decorator(fresh, mode="view")


def _club(request, club: str):
    found = club_for_request(request, club)
    visibility = deal_visibility(club=found, reader=request.reader)
    read_etag(request, club=found, visibility=visibility)
    return found, visibility


def _player_out(player: Player) -> dict:
    return {"id": player.pk, "name": player.name, "active": player.active}


@router.get("/clubs/{slug:club}/players", response={200: list[PlayerOut], **NOT_FOUND},
            summary="The club's players, by name")  # fmt: skip
@paginate(Pages, page_size=50, max_page_size=200)
def player_list(request, club: str):
    found, visibility = _club(request, club)
    return Page(club_players(club=found, visibility=visibility), _player_out)


@router.get("/clubs/{slug:club}/players/{player_id}",
            response={200: PlayerDetailOut, **NOT_FOUND},
            summary="A player with their statistics")  # fmt: skip
def player_read(request, club: str, player_id: int, months: str = ""):
    found, visibility = _club(request, club)
    if not visibility.player_visible(player_id):  # as the player page: as if not there
        raise Http404
    player = get_object_or_404(Player, club=found, pk=player_id)
    stats = player_stats(player=player, visibility=visibility, all_months=months == "all")
    return {
        **_player_out(player),
        "games": [
            {"game": game, "totals": {k: stats.totals[game][k] for k in COUNTER_NAMES},
             "months": [vars(m) for m in stats.months.get(game, [])]}
            for game in stats.games
        ],
        "earlier": stats.earlier,
        "by_bid": [_bid_out(r) for r in stats.by_bid],
        "by_trump": [_bid_out(r) for r in stats.by_trump],
    }  # fmt: skip


def _bid_out(row) -> dict:
    return {**vars(row), "win_rate": row.win_rate}


@router.get("/clubs/{slug:club}/rulesets", response={200: list[RuleSetOut], **NOT_FOUND},
            summary="The club's rule sets with their point tables")  # fmt: skip
def ruleset_list(request, club: str):
    found, _visibility = _club(request, club)
    return [_ruleset_out(r) for r in club_rulesets(club=found)]


def _ruleset_out(ruleset) -> dict:
    tables = []
    if ruleset.game == Game.NAPOLEON:
        pure = ruleset_rules(ruleset)
        tables = [
            {"players": count, "rows": [vars(r) for r in rules.point_table_rows(pure, count)]}
            for count in sorted(pure.point_tables)
        ]
    return {
        "code": ruleset.code, "label": ruleset.label, "game": ruleset.game,
        "preset": ruleset.preset, "preset_label": str(ruleset.preset_label),
        "options": ruleset.options or {}, "point_tables": tables,
    }  # fmt: skip
