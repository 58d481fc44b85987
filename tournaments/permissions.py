"""Who may do what in a club. Checked on the server by every view; pure reads of Membership.

A view whose URL names a club calls ``club_for_request(request, club_slug, role=...)``: the one
way to load a club for a request. A view that reaches the club through another object (a
tournament, a deal) checks it with ``require_view`` / ``require_role``, which answer the same way.
"""

from django.core.exceptions import PermissionDenied
from django.db import connection
from django.http import Http404
from django.shortcuts import get_object_or_404

from .models import ClaimStatus, Club, Membership, Player, PlayerClaim, Role

_RANK = {Role.MEMBER: 1, Role.SCOREKEEPER: 2, Role.OWNER: 3}


def club_role(user, club: Club) -> str | None:
    """The user's role in the club, or None. Site staff act as owners."""
    if not getattr(user, "is_authenticated", False):
        return None
    if user.is_superuser:
        return Role.OWNER
    cache = getattr(user, "_efuda_roles", None)
    if cache is None:
        cache = user._efuda_roles = {}
    if club.pk not in cache:
        cache[club.pk] = (
            Membership.objects.filter(club=club, user=user).values_list("role", flat=True).first()
        )
    return cache[club.pk]


def role_covers(role: str, needed: str) -> bool:
    """``role`` may do whatever ``needed`` may (owner ⊇ scorekeeper ⊇ member)."""
    return _RANK[role] >= _RANK[needed]


def has_role(user, club: Club, role: str) -> bool:
    current = club_role(user, club)
    return current is not None and _RANK[current] >= _RANK[role]


def can_view(user, club: Club) -> bool:
    return club.is_public or has_role(user, club, Role.MEMBER)


def can_record(user, club: Club) -> bool:
    return has_role(user, club, Role.SCOREKEEPER)


def can_manage(user, club: Club) -> bool:
    return has_role(user, club, Role.OWNER)


def require_view(user, club: Club) -> None:
    # A private club is invisible to outsiders: 404, not 403, so its existence is not revealed.
    if not can_view(user, club):
        raise Http404


def require_role(user, club: Club, role: str) -> None:
    """404 for whoever may not see the club (a private club stays invisible), 403 for those who
    see it without ``role``."""
    if not has_role(user, club, role):
        require_view(user, club)
        raise PermissionDenied


_CLUB_SQL: dict[tuple[bool, bool], str] = {}


def reader_role_sql(q, club_id: str) -> str:
    """SQL for the reader's role in the club whose id is the column ``club_id`` (the one
    parameter: the user's id), as ``club_role`` reads it: the club's and the tournament's
    queries for one request (here and selectors.events) ask it the same way."""
    return (
        f"(SELECT m.{q('role')} FROM {q(Membership._meta.db_table)} m"
        f" WHERE m.{q('club_id')} = {club_id} AND m.{q('user_id')} = %s"
        f" ORDER BY m.{q('id')} LIMIT 1)"
    )


def _club_sql(role: bool, player: bool) -> str:
    """The club by its slug with the reader's role in it and (``player``) their player's id and
    the name of the player their "this is me" waiting for an owner names: written out once, as
    the ORM would compile ``Club.objects.annotate(user_role=Subquery(…))`` for every request (a
    millisecond of CPU on every logged-in page)."""
    key = (role, player)
    if key not in _CLUB_SQL:
        q = connection.ops.quote_name
        columns = ", ".join(f"c.{q(f.column)}" for f in Club._meta.concrete_fields)
        extra = ""
        if role:
            extra += f", {reader_role_sql(q, 'c.' + q('id'))} AS user_role"
        if player:
            extra += (
                f", (SELECT p.{q('id')} FROM {q(Player._meta.db_table)} p"
                f" WHERE p.{q('club_id')} = c.{q('id')} AND p.{q('user_id')} = %s"
                f" LIMIT 1) AS reader_player_id"
                f", (SELECT cp.{q('name')} FROM {q(PlayerClaim._meta.db_table)} pc"
                f" JOIN {q(Player._meta.db_table)} cp ON cp.{q('id')} = pc.{q('player_id')}"
                f" WHERE pc.{q('club_id')} = c.{q('id')} AND pc.{q('user_id')} = %s"
                f" AND pc.{q('status')} = '{ClaimStatus.PENDING.value}'"
                f" ORDER BY pc.{q('id')} LIMIT 1) AS reader_claim_name"
            )
        _CLUB_SQL[key] = (
            f"SELECT {columns}{extra} FROM {q(Club._meta.db_table)} c WHERE c.{q('slug')} = %s"
        )
    return _CLUB_SQL[key]


def club_for_request(
    request, club_slug: str, *, role: str | None = None, with_player: bool = False
) -> Club:
    """The club at ``club_slug`` for this request.

    404 when no such club exists or the user may not see it (a private club and an unknown slug
    answer alike); with ``role``, 403 when the user sees the club but lacks the role. With
    ``with_player``, the club's ``reader_player_id`` is the logged-in user's player in the club
    ("this is me") and ``reader_claim_name`` the name of the player their claim waiting for an
    owner names, both read by the same query (None when they have none or are not logged in).
    """
    user = request.user
    remember = getattr(user, "is_authenticated", False) and not user.is_superuser
    player = with_player and getattr(user, "is_authenticated", False)
    if remember or player:  # the user's role comes with the club: one query, not two
        found = list(Club.objects.raw(_club_sql(remember, player), [
            *([user.pk] if remember else []), *([user.pk] * 2 if player else []), club_slug,
        ]))  # fmt: skip
        if not found:
            raise Http404
        club = found[0]
    else:
        club = get_object_or_404(Club.objects.filter(slug=club_slug))
    if with_player and not hasattr(club, "reader_player_id"):
        club.reader_player_id = club.reader_claim_name = None
    if remember:
        roles = getattr(user, "_efuda_roles", None)
        if roles is None:
            roles = user._efuda_roles = {}
        roles.setdefault(club.pk, club.user_role)
    if role is None:
        require_view(request.user, club)
    else:
        require_role(request.user, club, role)
    return club
