"""Player merge: two players of a club who are one person (a typo made a second 「太郎」).

Every deal that names the merged player is re-scored with the kept player in the same seat,
exactly as an edit of the deal would (its score lines and the month, season and all-time
aggregates and the per-bid record move through ``aggregates_apply``), and the club's ratings of
each game involved are replayed, so standings and ratings are what they would have been had
the name been right from the start. Each deal's own history
records the change. A deal in which both players sat cannot be merged.
"""

from django.db import transaction
from django.db.models import Q

from core.i18n import N_

from ..models import (
    BidAggregate,
    Club,
    Deal,
    Invitation,
    Player,
    PlayerClaim,
    PlayerMerge,
    ScoreLine,
    StandingAggregate,
)
from .cache import club_version_bump
from .deals import deal_rescore
from .errors import make_fail
from .ratings import ratings_replay

MESSAGES = {
    "merge_same": N_("Choose two different players."),
    "merge_together": N_(
        "“%(kept)s” and “%(merged)s” both played in %(count)s deal(s) (first: %(date)s, "
        "table %(table)s, deal %(seq)s): they are two people, so they cannot be merged."
    ),
    "merge_two_accounts": N_(
        "“%(kept)s” and “%(merged)s” are linked to two different accounts: they are two people."
    ),
    "merge_tournament": N_(
        "“%(merged)s” is entered in a tournament of the club: merge after removing that entry."
    ),
}

_fail = make_fail(MESSAGES)

# Where a Napoleon deal or a Daifugō round names players.
_ONE = ("napoleon", "adjutant", "previous_daifugo")
_MANY = ("seats", "order", "forbidden")


def _mentions(data: dict, key: str) -> bool:
    if any(str(data.get(name)) == key for name in _ONE if data.get(name) not in (None, "")):
        return True
    return any(
        key in [str(v) for v in data.get(name) or []]
        for name in _MANY
        if isinstance(data.get(name), list)
    )


def _replace(data: dict, old: str, new: str) -> dict:
    out = dict(data)
    for name in _ONE:
        value = out.get(name)
        if value not in (None, "") and str(value) == old:
            out[name] = type(value)(new) if isinstance(value, (int, str)) else new
    for name in _MANY:
        values = out.get(name)
        if isinstance(values, list):
            out[name] = [
                (type(v)(new) if isinstance(v, (int, str)) else new) if str(v) == old else v
                for v in values
            ]
    return out


def _deals_naming(club: Club, player_id: int) -> list[Deal]:
    """Every deal whose input names the player: found through the score lines and the
    denormalised Napoleon and adjutant, plus the deals without score lines (redeals, deleted
    deals) and the Daifugō rounds of the player's sessions (a 大富豪 who sat out the next round
    is still named by it for 都落ち); each candidate is checked exactly."""
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
        if _mentions(deal.data or {}, key):
            ids.add(deal.id)
    return list(
        Deal.objects.filter(id__in=ids)
        .select_related("session", "session__club")
        .order_by("session__date", "session_id", "seq")
    )


@transaction.atomic
def player_merge(*, club: Club, keep: Player, merge: Player, by=None) -> PlayerMerge:
    """Make ``merge`` the same person as ``keep``: everything moves to ``keep``, ``merge`` is
    deleted (its history stays). All or nothing."""
    # The club row first, as every writer of the club's score lines locks it before the
    # players they name (a deal, a ratings replay's switch, an import's write: its key-share
    # lock). Otherwise a merge holding a player could wait for the club row that a replay
    # holds while waiting for the player: a deadlock.
    Club.objects.select_for_update().only("pk").get(pk=club.pk)
    players = {
        p.pk: p
        for p in Player.objects.select_for_update().filter(club=club, pk__in=[keep.pk, merge.pk])
    }
    if keep.pk == merge.pk or len(players) != 2:
        raise _fail("merge", "merge_same")
    keep, merge = players[keep.pk], players[merge.pk]
    if keep.user_id and merge.user_id and keep.user_id != merge.user_id:
        raise _fail("merge", "merge_two_accounts", kept=keep.name, merged=merge.name)
    if merge.entries.exists():
        raise _fail("merge", "merge_tournament", merged=merge.name)

    old, new = str(merge.pk), str(keep.pk)
    deals = _deals_naming(club, merge.pk)
    together = [d for d in deals if _mentions(d.data or {}, new)]
    if together:
        first = together[0]
        raise _fail(
            "merge", "merge_together", kept=keep.name, merged=merge.name, count=len(together),
            date=first.session.date.isoformat(), table=first.session.table, seq=first.seq,
        )  # fmt: skip

    user = by if getattr(by, "is_authenticated", False) else None
    reason = f"merge of player {merge.pk} ({merge.name}) into {keep.pk} ({keep.name})"
    line_count = ScoreLine.objects.filter(player=merge).count()
    locked = (
        Deal.objects.select_for_update(of=("self",))
        .select_related("session", "session__club")
        .filter(id__in=[d.id for d in deals])
        .order_by("session__date", "session_id", "seq")
    )
    for deal in locked:
        # Re-scored as an edit would be (lines, aggregates, derived columns, version,
        # history); the ratings are replayed once below, and every later round that names the
        # merged player is in ``deals`` itself.
        deal_rescore(
            deal=deal, data=_replace(deal.data or {}, old, new), user=user, reason=reason,
            follow=False,
        )  # fmt: skip

    # Every total of the merged player is now zero; anything else is a bug: stop, roll back.
    leftover = StandingAggregate.objects.filter(player=merge).exclude(points=0, deals=0)
    if leftover.exists() or ScoreLine.objects.filter(player=merge).exists():
        raise RuntimeError("merge left totals on the merged player")
    StandingAggregate.objects.filter(player=merge).delete()
    BidAggregate.objects.filter(player=merge, deals=0).delete()
    if BidAggregate.objects.filter(player=merge).exists():
        raise RuntimeError("merge left a bid record on the merged player")

    Invitation.objects.filter(player=merge).update(player=keep)
    PlayerClaim.objects.filter(player=merge).update(player=keep)
    if merge.user_id and not keep.user_id:
        user_id = merge.user_id
        merge.user = None
        merge._change_reason = reason
        merge._history_user = user
        merge.save()
        keep.user_id = user_id
    keep.active = keep.active or merge.active
    keep._change_reason = reason
    keep._history_user = user
    keep.save()
    record = PlayerMerge.objects.create(
        club=club, kept=keep, merged_id=merge.pk, merged_name=merge.name, deals=len(deals),
        lines=line_count, by=user,
    )  # fmt: skip
    merge._change_reason = reason
    merge._history_user = user
    merge.delete()  # its rating rows go with it; the replay below rates the kept player
    for game in sorted({d.game for d in deals}):
        ratings_replay(club_id=club.pk, game=game)
    club_version_bump(club_id=club.pk)
    return record
