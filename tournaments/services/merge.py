"""Player merge: two players of a club who are one person (a typo made a second 「太郎」).

Every deal that names the merged player, under any key a deal's data names players by
(``deal_data.PLAYER_KEYS``: seats, the Daifugō table's players and order, forbidden finishes,
Napoleon, adjutant, the previous 大富豪), whichever path stored it, is re-scored with the kept
player in the same places, exactly as an edit of the deal would (its score lines and the month,
season and all-time aggregates and the per-bid record move through ``aggregates_apply``), and
the club's ratings of each game involved are replayed, so standings and ratings are what they
would have been had the name been right from the start. Each deal's own history records the
change ("merge:<record>"). Refused, changing nothing, for every reason ``merge_obstacles``
finds (the preview shows the same list before asking): two accounts, a tournament entry, a
deal both players sat at (being the previous 大富豪 of a round is not sitting at it).

The merge keeps exactly what it changed (``PlayerMerge.moves``), so an owner can undo it with
``player_merge_undo``: the merged player comes back (same id and name), exactly the recorded
places of exactly those deals name them again, re-scored through the same ``deal_rescore``
(with history), the invitations, claims and account link move back, and the ratings are
replayed. A deal edited after the merge (its version moved) makes the undo refuse, naming it:
undoing would silently drop that edit.
"""

from django.db import transaction
from django.utils import timezone

from core.errors import EfudaError
from core.i18n import N_

from ..deal_data import places_renamed, player_places, reason_code
from ..models import (
    BidAggregate,
    Club,
    Deal,
    Game,
    Invitation,
    Player,
    PlayerClaim,
    PlayerMerge,
    ScoreLine,
    StandingAggregate,
    normalise_name,
)
from ..selectors.merge import Obstacle, deals_naming, merge_obstacles
from .cache import club_version_bump
from .deals import deal_rescore, later_rounds_rescore
from .errors import make_fail
from .ratings import ratings_replay

MESSAGES = {
    "merge_same": N_("Choose two different players."),
    # The reasons a merge is refused (selectors/merge.py: merge_obstacles), the preview says
    # them all before asking.
    "merge_two_accounts": N_(
        "“%(kept)s” and “%(merged)s” are linked to two different accounts: they are two people."
    ),
    "merge_tournament": N_(
        "“%(merged)s” is entered in the tournament “%(tournament)s” (%(date)s): take that "
        "entry out, then merge."
    ),
    "merge_tournament_played": N_(
        "“%(merged)s” played in the tournament “%(tournament)s” (%(date)s): a player with a "
        "place in a tournament cannot be merged away. Merge the other way round, keeping "
        "“%(merged)s”."
    ),
    "merge_together": N_(
        "“%(kept)s” and “%(merged)s” both played in %(count)s deal(s) (first: %(date)s, "
        "table %(table)s, deal %(seq)s): they are two people, so they cannot be merged."
    ),
    "undo_done": N_("This merge was already undone."),
    "undo_old": N_(
        "This merge was made before efuda kept what a merge changes: it cannot be undone."
    ),
    "undo_name_taken": N_(
        "There is a player called “%(name)s” again (added after the merge): rename or merge "
        "that player first, then undo."
    ),
    "undo_edited": N_(
        "%(count)s deal(s) changed after the merge (first: %(date)s, table %(table)s, deal "
        "%(seq)s): undoing would drop those changes. Correct those deals by hand instead."
    ),
}

_fail = make_fail(MESSAGES)


def merge_refusal(obstacle: Obstacle) -> EfudaError:
    """The refusal that ``obstacle`` (one of ``merge_obstacles``) stands for."""
    return _fail("merge", obstacle.code, **obstacle.params)


def _user(by):
    return by if getattr(by, "is_authenticated", False) else None


def _locked(club: Club, keep: Player, merge: Player) -> tuple[Player, Player]:
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
    return players[keep.pk], players[merge.pk]


def _moved_deals(deals: list[Deal], *, old: str, new: str, user, reason: str) -> list[dict]:
    """Re-score each deal with ``new`` in every place that named ``old``, oldest first (a later
    Daifugō round reads its previous 大富豪 from the round before, already re-scored); what
    moved, for the undo. The ratings are replayed once by the caller, and every later round
    that names the merged player is in ``deals`` itself."""
    locked = (
        Deal.objects.select_for_update(of=("self",))
        .select_related("session", "session__club")
        .filter(id__in=[d.id for d in deals])
        .order_by("session__date", "session_id", "seq")
    )
    moved = []
    for deal in locked:
        places = player_places(deal.data or {}, old)
        data = places_renamed(deal.data or {}, places, old, new)
        moved.append(deal_rescore(deal=deal, data=data, user=user, reason=reason, follow=False))
        moved[-1].places = places
    _later_rounds(moved, user=user)
    versions = dict(Deal.objects.filter(id__in=[d.pk for d in moved]).values_list("id", "version"))
    return [{"id": d.pk, "places": d.places, "version": versions[d.pk]} for d in moved]


def _later_rounds(deals: list[Deal], *, user) -> None:
    """The later rounds of each Daifugō session a merge or undo changed re-read their previous
    大富豪, as after any edit: a round recorded after the merge names the kept player as the
    previous 大富豪 without naming the merged one, so the undo moves the 大富豪 of the round
    before it without moving it."""
    first: dict[int, Deal] = {}
    for deal in deals:
        if deal.game == Game.DAIFUGO:
            first.setdefault(deal.session_id, deal)
    for deal in first.values():
        later_rounds_rescore(deal=deal, user=user)


def _nothing_left(merge: Player) -> None:
    """Every total of the merged player is now zero; anything else is a bug: stop, roll back."""
    leftover = StandingAggregate.objects.filter(player=merge).exclude(points=0, deals=0)
    if leftover.exists() or ScoreLine.objects.filter(player=merge).exists():
        raise RuntimeError("merge left totals on the merged player")
    StandingAggregate.objects.filter(player=merge).delete()
    BidAggregate.objects.filter(player=merge, deals=0).delete()
    if BidAggregate.objects.filter(player=merge).exists():
        raise RuntimeError("merge left a bid record on the merged player")


def _move_links(keep: Player, merge: Player, moves: dict, *, user, reason: str) -> None:
    """Invitations, claims and the account link of ``merge`` go to ``keep``."""
    moves["invitations"] = list(
        Invitation.objects.filter(player=merge).values_list("pk", flat=True)
    )
    moves["claims"] = list(PlayerClaim.objects.filter(player=merge).values_list("pk", flat=True))
    moves["account"] = bool(merge.user_id and not keep.user_id)
    Invitation.objects.filter(player=merge).update(player=keep)
    PlayerClaim.objects.filter(player=merge).update(player=keep)
    if moves["account"]:
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


@transaction.atomic
def player_merge(*, club: Club, keep: Player, merge: Player, by=None) -> PlayerMerge:
    """Make ``merge`` the same person as ``keep``: everything moves to ``keep``, ``merge`` is
    deleted (its history stays). All or nothing; refused with the first of
    ``merge_obstacles``."""
    keep, merge = _locked(club, keep, merge)
    deals = deals_naming(club=club, player_id=merge.pk)
    obstacles = merge_obstacles(keep=keep, merge=merge, deals=deals)
    if obstacles:
        raise merge_refusal(obstacles[0])
    user = _user(by)
    record = PlayerMerge.objects.create(
        club=club, kept=keep, merged_id=merge.pk, merged_name=merge.name, deals=len(deals),
        lines=ScoreLine.objects.filter(player=merge).count(), by=user,
    )  # fmt: skip
    reason = reason_code("merge", record.pk)
    moves: dict = {"merged_active": merge.active, "keep_active": keep.active}
    moves["deals"] = _moved_deals(deals, old=str(merge.pk), new=str(keep.pk), user=user,
                                  reason=reason)  # fmt: skip
    _nothing_left(merge)
    _move_links(keep, merge, moves, user=user, reason=reason)
    record.moves = moves
    record.save(update_fields=["moves"])
    merge._change_reason = reason
    merge._history_user = user
    merge.delete()  # its rating rows go with it; the replay below rates the kept player
    for game in sorted({d.game for d in deals}):
        ratings_replay(club_id=club.pk, game=game)
    club_version_bump(club_id=club.pk)
    return record


def _undo_refusal(record: PlayerMerge, deals: list[Deal], *, old: str, new: str):
    """The refusal of an undo that would drop a later change of a moved deal, or None."""
    wanted = {m["id"]: m for m in record.moves["deals"]}
    edited = [
        d for d in deals
        if d.version != wanted[d.pk]["version"]
        or places_renamed(d.data or {}, wanted[d.pk]["places"], old, new) is None
    ]  # fmt: skip
    if not edited and len(deals) == len(wanted):
        return None
    first = edited[0] if edited else None
    return _fail(
        "merge", "undo_edited", count=len(edited) or len(wanted) - len(deals),
        date=first.session.date.isoformat() if first else "?",
        table=first.session.table if first else "?", seq=first.seq if first else "?",
    )  # fmt: skip


def _player_back(record: PlayerMerge, keep: Player, *, user, reason: str) -> Player:
    moves = record.moves
    new_id = record.merged_id if not Player.objects.filter(pk=record.merged_id).exists() else None
    back = Player(id=new_id, club=record.club, name=record.merged_name,
                  active=moves.get("merged_active", True))  # fmt: skip
    back._change_reason = reason
    back._history_user = user
    keep._change_reason = reason
    keep._history_user = user
    keep.active = moves.get("keep_active", keep.active)
    if moves.get("account") and keep.user_id:
        back.user_id = keep.user_id  # the account link goes back with the player
        keep.user = None
    keep.save()
    back.save()
    return back


@transaction.atomic
def player_merge_undo(*, record: PlayerMerge, by=None) -> Player:
    """Undo a merge: the merged player comes back and exactly the deals, places, invitations,
    claims and account link the merge moved go back to them, re-scored as edits (with history).
    Refused, changing nothing, when a moved deal was edited after the merge, when a player of
    the merged name exists again, or when the merge is already undone."""
    club = record.club
    Club.objects.select_for_update().only("pk").get(pk=club.pk)
    record = PlayerMerge.objects.select_for_update().get(pk=record.pk)
    if record.undone_at is not None:
        raise _fail("merge", "undo_done")
    moves = record.moves or {}
    if "deals" not in moves:
        raise _fail("merge", "undo_old")
    keep = Player.objects.select_for_update().get(pk=record.kept_id)
    if Player.objects.filter(club=club, name_key=normalise_name(record.merged_name)).exists():
        raise _fail("merge", "undo_name_taken", name=record.merged_name)
    user = _user(by)
    wanted = {m["id"]: m for m in moves["deals"]}
    deals = list(
        Deal.objects.select_for_update(of=("self",))
        .select_related("session", "session__club")
        .filter(id__in=list(wanted))
        .order_by("session__date", "session_id", "seq")
    )
    old = str(keep.pk)
    refusal = _undo_refusal(record, deals, old=old, new="0")
    if refusal is not None:
        raise refusal
    reason = reason_code("merge-undo", record.pk)
    back = _player_back(record, keep, user=user, reason=reason)
    for deal in deals:
        data = places_renamed(deal.data or {}, wanted[deal.pk]["places"], old, str(back.pk))
        deal_rescore(deal=deal, data=data, user=user, reason=reason, follow=False)
    _later_rounds(deals, user=user)
    Invitation.objects.filter(pk__in=moves.get("invitations") or [], player=keep).update(
        player=back
    )
    PlayerClaim.objects.filter(pk__in=moves.get("claims") or [], player=keep).update(player=back)
    record.undone_at = timezone.now()
    record.undone_by = user
    record.save(update_fields=["undone_at", "undone_by"])
    for game in sorted({d.game for d in deals}):
        ratings_replay(club_id=club.pk, game=game)
    club_version_bump(club_id=club.pk)
    return back
