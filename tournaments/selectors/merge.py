"""The player merge, read: the deals that name a player, what a merge would move, and every
reason it would be refused (``merge_obstacles``). The preview shows all of them before the
owner is asked; ``services/merge.py`` refuses with the first of the same list, so the two
cannot disagree."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Q

from ..deal_data import player_ids, seated
from ..models import (
    Deal,
    Game,
    Invitation,
    Player,
    PlayerClaim,
    ScoreLine,
    StandingAggregate,
)
from .entries import entry_removable


def deals_naming(*, club, player_id: int) -> list[Deal]:
    """Every deal whose input names the player (under any key of ``deal_data.PLAYER_KEYS``):
    found through the score lines and the denormalised Napoleon and adjutant, plus the deals
    without score lines (redeals, deleted deals) and the Daifugō rounds of the player's
    sessions (a 大富豪 who sat out the next round is still named by it for 都落ち); each
    candidate is checked exactly."""
    key = str(player_id)
    lines = ScoreLine.objects.filter(club=club, player_id=player_id)
    ids = set(lines.values_list("deal_id", flat=True))
    candidates = Deal.objects.filter(club=club).filter(
        Q(napoleon_id=player_id)
        | Q(adjutant_id=player_id)
        | Q(redeal=True)
        | Q(is_deleted=True)
        | Q(session_id__in=lines.filter(game="daifugo").values("session_id"))
    )
    for deal in candidates.exclude(id__in=ids).only("id", "data").iterator(chunk_size=2000):
        if key in player_ids(deal.data or {}):
            ids.add(deal.id)
    return list(
        Deal.objects.filter(id__in=ids)
        .select_related("session", "session__club")
        .order_by("session__date", "session_id", "seq")
    )


@dataclass(frozen=True)
class Obstacle:
    """One reason the merge would be refused: ``code`` names its message in
    ``services/merge.py`` (filled with ``params``); the rest says what would clear it."""

    code: str
    params: dict
    tournament_id: int | None = None
    entry_id: int | None = None  # an entry that can be taken out
    deal: Deal | None = None  # the first deal both sat in


def merge_obstacles(*, keep: Player, merge: Player, deals: list[Deal]) -> list[Obstacle]:
    """Every reason merging ``merge`` into ``keep`` is refused, in the order the merge checks
    them: two accounts, each tournament entry of ``merge`` (a player deleted by the merge cannot
    stay entered; an entry never drawn can be taken out), the deals both sat in (``deals``: the
    deals that name ``merge``). Only a seat counts as playing together: the previous 大富豪
    named by a round they did not sit in did not play it."""
    obstacles = []
    if keep.user_id and merge.user_id and keep.user_id != merge.user_id:
        obstacles.append(Obstacle("merge_two_accounts", {"kept": keep.name, "merged": merge.name}))
    for entry in merge.entries.select_related("tournament").order_by("tournament__date", "pk"):
        tournament = entry.tournament
        params = {"merged": merge.name, "kept": keep.name, "tournament": tournament.name,
                  "date": tournament.date.isoformat()}  # fmt: skip
        if entry_removable(entry):
            obstacles.append(Obstacle("merge_tournament", params, tournament.pk, entry.pk))
        else:
            obstacles.append(Obstacle("merge_tournament_played", params, tournament.pk))
    new, old = str(keep.pk), str(merge.pk)
    together = [d for d in deals if seated(d.data or {}, new) and seated(d.data or {}, old)]
    if together:
        first = together[0]
        obstacles.append(Obstacle(
            "merge_together",
            {"kept": keep.name, "merged": merge.name, "count": len(together),
             "date": first.session.date.isoformat(), "table": first.session.table,
             "seq": first.seq},
            deal=first,
        ))  # fmt: skip
    return obstacles


@dataclass
class MergePreview:
    """What a merge of ``merge`` into ``keep`` would move, shown before the owner confirms, and
    every reason it would be refused (``obstacles``: then nothing is offered to confirm)."""

    keep: Player
    merge: Player
    deals: int = 0
    napoleon_deals: int = 0
    daifugo_rounds: int = 0
    sessions: int = 0
    first_date: object = None
    last_date: object = None
    points: dict = field(default_factory=dict)  # game -> the merged player's all-time points
    obstacles: list[Obstacle] = field(default_factory=list)
    claims: int = 0
    invitations: int = 0
    account_moves: bool = False

    @property
    def may_swap(self) -> bool:
        """The merged player played in a tournament: keeping them instead may be possible."""
        return any(o.code == "merge_tournament_played" for o in self.obstacles)


def merge_preview(*, club, keep: Player, merge: Player) -> MergePreview:
    preview = MergePreview(keep=keep, merge=merge)
    deals = deals_naming(club=club, player_id=merge.pk)
    preview.deals = len(deals)
    preview.napoleon_deals = sum(1 for d in deals if d.game == Game.NAPOLEON)
    preview.daifugo_rounds = preview.deals - preview.napoleon_deals
    preview.sessions = len({d.session_id for d in deals})
    if deals:
        preview.first_date = deals[0].session.date
        preview.last_date = deals[-1].session.date
    preview.obstacles = merge_obstacles(keep=keep, merge=merge, deals=deals)
    preview.points = dict(
        StandingAggregate.objects.filter(player=merge, period="all").values_list("game", "points")
    )
    preview.claims = PlayerClaim.objects.filter(player=merge).count()
    preview.invitations = Invitation.objects.filter(player=merge).count()
    preview.account_moves = bool(merge.user_id and not keep.user_id)
    return preview
