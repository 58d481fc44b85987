"""Player merge: two players of a club who are one person (a typo made a second 「太郎」).

Every deal that names the merged player is re-scored with the kept player in the same seat,
exactly as an edit of the deal would (its score lines and the month, season and all-time
aggregates and the per-bid record move through ``aggregates_apply``), and the club's ratings of
each game involved are replayed, so standings and ratings are what they would have been had
the name been right from the start. Each deal's own history
records the change. A deal in which both players sat cannot be merged.

The merge keeps exactly what it changed (``PlayerMerge.moves``), so an owner can undo it with
``player_merge_undo``: the merged player comes back (same id and name), exactly the recorded
places of exactly those deals name them again, re-scored through the same ``deal_rescore``
(with history), the invitations, claims and account link move back, and the ratings are
replayed. A deal edited after the merge (its version moved) makes the undo refuse, naming it:
undoing would silently drop that edit.
"""

from django.db import transaction
from django.utils import timezone

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
    normalise_name,
)
from ..selectors.players import (
    NAMING_MANY,
    NAMING_ONE,
    deal_mentions,
    deal_places,
    deals_naming,
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


def _replace(data: dict, old: str, new: str) -> dict:
    out = dict(data)
    for name in NAMING_ONE:
        value = out.get(name)
        if value not in (None, "") and str(value) == old:
            out[name] = type(value)(new) if isinstance(value, (int, str)) else new
    for name in NAMING_MANY:
        values = out.get(name)
        if isinstance(values, list):
            out[name] = [
                (type(v)(new) if isinstance(v, (int, str)) else new) if str(v) == old else v
                for v in values
            ]
    return out


def _put_back(data: dict, places: dict, old: str, new: str) -> dict | None:
    """``data`` with exactly ``places`` naming ``new`` again (they name ``old`` now); None when
    one of them no longer names ``old`` (the deal changed since)."""
    out = dict(data)
    for name, where in places.items():
        if where is True:
            value = out.get(name)
            if value in (None, "") or str(value) != old:
                return None
            out[name] = type(value)(new) if isinstance(value, (int, str)) else new
        else:
            values = list(out.get(name) or [])
            for index in where:
                if index >= len(values) or str(values[index]) != old:
                    return None
                value = values[index]
                values[index] = type(value)(new) if isinstance(value, (int, str)) else new
            out[name] = values
    return out


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
    deals = deals_naming(club=club, player_id=merge.pk)
    together = [d for d in deals if deal_mentions(d.data or {}, new)]
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
    moves: dict = {"deals": [], "merged_active": merge.active, "keep_active": keep.active}
    for deal in locked:
        # Re-scored as an edit would be (lines, aggregates, derived columns, version,
        # history); the ratings are replayed once below, and every later round that names the
        # merged player is in ``deals`` itself.
        places = deal_places(deal.data or {}, old)
        deal = deal_rescore(
            deal=deal, data=_replace(deal.data or {}, old, new), user=user, reason=reason,
            follow=False,
        )  # fmt: skip
        moves["deals"].append({"id": deal.pk, "places": places, "version": deal.version})

    # Every total of the merged player is now zero; anything else is a bug: stop, roll back.
    leftover = StandingAggregate.objects.filter(player=merge).exclude(points=0, deals=0)
    if leftover.exists() or ScoreLine.objects.filter(player=merge).exists():
        raise RuntimeError("merge left totals on the merged player")
    StandingAggregate.objects.filter(player=merge).delete()
    BidAggregate.objects.filter(player=merge, deals=0).delete()
    if BidAggregate.objects.filter(player=merge).exists():
        raise RuntimeError("merge left a bid record on the merged player")

    moves["invitations"] = list(
        Invitation.objects.filter(player=merge).values_list("pk", flat=True)
    )
    moves["claims"] = list(PlayerClaim.objects.filter(player=merge).values_list("pk", flat=True))
    moves["account"] = bool(merge.user_id and not keep.user_id)
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
        lines=line_count, by=user, moves=moves,
    )  # fmt: skip
    merge._change_reason = reason
    merge._history_user = user
    merge.delete()  # its rating rows go with it; the replay below rates the kept player
    for game in sorted({d.game for d in deals}):
        ratings_replay(club_id=club.pk, game=game)
    club_version_bump(club_id=club.pk)
    return record


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
    user = by if getattr(by, "is_authenticated", False) else None
    wanted = {m["id"]: m for m in moves["deals"]}
    deals = list(
        Deal.objects.select_for_update(of=("self",))
        .select_related("session", "session__club")
        .filter(id__in=list(wanted))
        .order_by("session__date", "session_id", "seq")
    )
    new_id = record.merged_id if not Player.objects.filter(pk=record.merged_id).exists() else None
    back = Player(id=new_id, club=club, name=record.merged_name,
                  active=moves.get("merged_active", True))  # fmt: skip
    old, key = str(keep.pk), str(new_id or 0)
    edited = [
        d for d in deals
        if d.version != wanted[d.pk]["version"]
        or _put_back(d.data or {}, wanted[d.pk]["places"], old, key) is None
    ]  # fmt: skip
    if edited or len(deals) != len(wanted):
        first = edited[0] if edited else None
        raise _fail(
            "merge", "undo_edited", count=len(edited) or len(wanted) - len(deals),
            date=first.session.date.isoformat() if first else "?",
            table=first.session.table if first else "?", seq=first.seq if first else "?",
        )  # fmt: skip
    reason = f"undo of the merge of player {record.merged_id} ({record.merged_name})"
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
    key = str(back.pk)
    for deal in deals:
        data = _put_back(deal.data or {}, wanted[deal.pk]["places"], old, key)
        deal_rescore(deal=deal, data=data, user=user, reason=reason, follow=False)
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
