"""Who may do what in a club. Checked on the server by every view; pure reads of Membership.

A view whose URL names a club calls ``club_for_request(request, club_slug, role=...)``: the one
way to load a club for a request. A view that reaches the club through another object (a
tournament, a deal) checks it with ``require_view`` / ``require_role``, which answer the same way.

Every check takes the reader (``request.reader``, tournaments/reader.py), whose role in a club is
read once per request and kept on it; outside a request a user (or None) will do
(``Reader.of``).
"""

from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.db.models import OuterRef, Subquery
from django.http import Http404
from django.shortcuts import get_object_or_404

from .models import ClaimStatus, Club, Membership, Player, PlayerClaim, Role
from .reader import Reader

_RANK = {Role.MEMBER: 1, Role.SCOREKEEPER: 2, Role.OWNER: 3}


def club_role(reader, club: Club) -> str | None:
    """The reader's role in the club, or None. Site staff act as owners. Read once per reader
    (``reader.roles``) unless it came with the club or the tournament."""
    reader = Reader.of(reader)
    if not reader.is_authenticated:
        return None
    if reader.is_superuser:
        return Role.OWNER
    if club.pk not in reader.roles:
        reader.roles[club.pk] = (
            Membership.objects.filter(club=club, user_id=reader.pk)
            .order_by("pk")
            .order_by("pk")
            .values_list("role", flat=True)
            .first()
        )
    return reader.roles[club.pk]


def role_covers(role: str, needed: str) -> bool:
    """``role`` may do whatever ``needed`` may (owner ⊇ scorekeeper ⊇ member)."""
    return _RANK[role] >= _RANK[needed]


def has_role(reader, club: Club, role: str) -> bool:
    current = club_role(reader, club)
    return current is not None and _RANK[current] >= _RANK[role]


def can_view(reader, club: Club) -> bool:
    return club.is_public or has_role(reader, club, Role.MEMBER)


def can_record(reader, club: Club) -> bool:
    return has_role(reader, club, Role.SCOREKEEPER)


def can_manage(reader, club: Club) -> bool:
    return has_role(reader, club, Role.OWNER)


def require_view(reader, club: Club) -> None:
    # A private club is invisible to outsiders: 404, not 403, so its existence is not revealed.
    if not can_view(reader, club):
        raise Http404


def require_role(reader, club: Club, role: str) -> None:
    """404 for whoever may not see the club (a private club stays invisible), 403 for those who
    see it without ``role``."""
    if not has_role(reader, club, role):
        require_view(reader, club)
        raise PermissionDenied


def reader_role(user_id: int, club_field: str = "pk") -> Subquery:
    """The role of user ``user_id`` in the club whose id is the outer query's ``club_field``, as
    a subquery: the club's and the tournament's queries for one request (here and
    selectors.events) read it with the object, as ``club_role`` would read it next."""
    memberships = Membership.objects.filter(club=OuterRef(club_field), user_id=user_id)
    return Subquery(memberships.order_by("pk").values("role")[:1])


def _club_query(slug: str, *, role_of: int | None, player_of: int | None):
    """The club by its slug with the role in it of user ``role_of`` and the player of user
    ``player_of`` ("this is me") and the name of the player their claim waiting for an owner
    names: one query."""
    qs = Club.objects.filter(slug=slug)
    if role_of is not None:
        qs = qs.annotate(user_role=reader_role(role_of))
    if player_of is not None:
        mine = Player.objects.filter(club=OuterRef("pk"), user_id=player_of)
        claims = PlayerClaim.objects.filter(
            club=OuterRef("pk"), user_id=player_of, status=ClaimStatus.PENDING
        ).order_by("pk")
        qs = qs.annotate(
            reader_player_id=Subquery(mine.values("pk")[:1]),
            reader_claim_name=Subquery(claims.values("player__name")[:1]),
        )
    return qs


_KEPT = ("user_role", "reader_player_id", "reader_claim_name")


def answers_kept(plain, key: str, read_answers, names: tuple[str, ...]):
    """``plain`` (a row read without the reader's answers; ``key`` names the club's data
    version it shows) with the reader's answers ``names`` set on it: from the cache under
    ``key``, or on a miss from ``read_answers()`` (a tuple in the order of ``names``, read
    after ``plain``), then kept under ``key``. Compiling the answers as subqueries of the row's
    query costs more CPU than running them, hence the keeping and, on a miss, plain queries of
    their own. Every write that changes an answer (a membership, a player's account, a claim,
    a tournament's staff) moves the club's version in its transaction (services/cache.py);
    the answers are read after the row, so what is kept under a version is that version's
    answer or a later one, never an earlier one: a kept answer is never one the club has
    changed since the version its key names. A cache that is down is a miss. Reads only: a
    write reads its answers afresh."""
    kept = cache.get(key)
    if kept is None:
        kept = tuple(read_answers())
        cache.set(key, kept, settings.EFUDA_PAGE_CACHE_SECONDS)
    for name, value in zip(names, kept, strict=True):
        setattr(plain, name, value)
    return plain


def _reader_answers(club_id: int, *, role_of: int | None, player_of: int | None) -> tuple:
    """The answers ``_club_query`` annotates, in the order of ``_KEPT``, each read by a plain
    query of its own (a query is not run for an answer not asked for: None)."""
    role = player_id = claim_name = None
    if role_of is not None:
        role = (
            Membership.objects.filter(club_id=club_id, user_id=role_of)
            .order_by("pk")
            .values_list("role", flat=True)
            .first()
        )
    if player_of is not None:
        player_id = (
            Player.objects.filter(club_id=club_id, user_id=player_of)
            .order_by("pk")
            .values_list("pk", flat=True)
            .first()
        )
        claim_name = (
            PlayerClaim.objects.filter(
                club_id=club_id, user_id=player_of, status=ClaimStatus.PENDING
            )
            .order_by("pk")
            .values_list("player__name", flat=True)
            .first()
        )
    return role, player_id, claim_name


def _club_with_reader(request, slug: str, *, role_of: int | None, player_of: int | None) -> Club:
    """``_club_query``'s club, 404 if none. On a read (GET, HEAD) with the cache on, the
    club's own row (one plain query) names its data version and the reader's role, player and
    claim come from ``answers_kept``; a write (POST) always reads the role afresh, in the one
    query."""
    if (
        (role_of is None and player_of is None)
        or request.method not in ("GET", "HEAD")
        or not settings.EFUDA_PAGE_CACHE_SECONDS
    ):
        return get_object_or_404(_club_query(slug, role_of=role_of, player_of=player_of))
    club = get_object_or_404(Club.objects.filter(slug=slug))
    return answers_kept(
        club,
        f"efuda:reader:{club.pk}:{club.data_version}:{role_of}:{player_of}",
        lambda: _reader_answers(club.pk, role_of=role_of, player_of=player_of),
        _KEPT,
    )


def club_for_request(
    request, club_slug: str, *, role: str | None = None, with_player: bool = False
) -> Club:
    """The club at ``club_slug`` for this request.

    404 when no such club exists or the reader may not see it (a private club and an unknown
    slug answer alike); with ``role``, 403 when the reader sees the club but lacks the role.
    The reader's role comes with the club (``request.reader.roles``). With ``with_player``, so
    do their player in the club ("this is me", ``request.reader.players``) and the name of the
    player their claim waiting for an owner names (``request.reader.claims``): None when they
    have none or are not logged in.
    """
    reader = Reader.of_request(request)
    remember = reader.is_authenticated and not reader.is_superuser
    player = with_player and reader.is_authenticated
    # The reader's role (and player) come with the club: one query, not two.
    club = _club_with_reader(
        request,
        club_slug,
        role_of=reader.pk if remember else None,
        player_of=reader.pk if player else None,
    )
    if remember:
        reader.roles.setdefault(club.pk, club.user_role)
    if with_player:
        reader.players[club.pk] = club.reader_player_id if player else None
        reader.claims[club.pk] = club.reader_claim_name if player else None
    if role is None:
        require_view(reader, club)
    else:
        require_role(reader, club, role)
    return club
