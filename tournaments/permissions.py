"""Who may do what in a club. Checked on the server by every view; pure reads of Membership."""

from django.core.exceptions import PermissionDenied
from django.http import Http404

from .models import Club, Membership, Role

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
    require_view(user, club) if role == Role.MEMBER else None
    if not has_role(user, club, role):
        if not can_view(user, club):
            raise Http404
        raise PermissionDenied
