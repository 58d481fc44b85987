"""Who may see and run a tournament: the tournament for one request (with the reader's role and
extra-staff answer), staff and creators, the staff page, and the PINs' overview."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.db.models import Exists, OuterRef
from django.http import Http404

from ...models import Club, Membership, PinAttempt, Role, Tournament, TournamentEntry
from ...permissions import answers_kept, has_role, reader_role
from ...reader import Reader
from .rounds import tournament_state


def tournament_for_reader(*, tournament_id: int, reader, read_only: bool = False) -> Tournament:
    """The tournament (with its club and rule set) for one request, 404 when there is none.
    For a logged-in reader the same query brings their role in the club and whether they are
    among the tournament's extra staff (what ``can_see`` and ``is_staff`` ask next), kept on the
    reader (``roles``, ``extra_staff``): one query instead of three on every tournament page.
    On a read (``read_only``: a GET or HEAD) that answer may come from the cache instead
    (:func:`_with_reader_kept`); a write (POST) always reads it afresh."""
    reader = Reader.of(reader)
    remember = reader.is_authenticated and not reader.is_superuser
    if not remember:
        tournament = _tournament_query(tournament_id, reader_id=None).first()
    elif read_only and settings.EFUDA_PAGE_CACHE_SECONDS:
        tournament = _with_reader_kept(tournament_id, reader_id=reader.pk)
    else:
        tournament = _tournament_query(tournament_id, reader_id=reader.pk).first()
    if tournament is None:
        raise Http404
    if remember:
        reader.roles.setdefault(tournament.club_id, tournament.reader_role)
        reader.extra_staff[tournament.pk] = tournament.reader_extra_staff
    return tournament


def _tournament_query(tournament_id: int, *, reader_id: int | None):
    """The tournament with its club and rule set; with ``reader_id``, annotated with that
    user's role in the club (``reader_role``) and whether they are among its extra staff
    (``reader_extra_staff``): one query."""
    qs = Tournament.objects.select_related("club", "ruleset").filter(pk=tournament_id)
    if reader_id is None:
        return qs
    staff = Tournament.extra_staff.through.objects.filter(
        tournament=OuterRef("pk"), user_id=reader_id
    )
    return qs.annotate(
        reader_role=reader_role(reader_id, "club_id"), reader_extra_staff=Exists(staff)
    )


def _with_reader_kept(tournament_id: int, *, reader_id: int) -> Tournament | None:
    """``_tournament_query``'s tournament for a read, as ``permissions._club_with_reader``
    reads a club: the club's own row names its version, the tournament's row with its rule set
    comes from the cache under that version (:func:`_row_kept`) or from the database, and the
    reader's role and extra-staff answer come from ``permissions.answers_kept`` (on a miss,
    each from a plain query). A tournament moved to another club is read under that club's
    key."""
    tournament = _row_kept(tournament_id)
    if tournament is None:
        return None
    club = tournament.club
    return answers_kept(
        tournament,
        f"efuda:treader:{club.pk}:{club.data_version}:{tournament.pk}:{reader_id}",
        lambda: _reader_answers(tournament, reader_id=reader_id),
        ("reader_role", "reader_extra_staff"),
    )


def _row_kept(tournament_id: int) -> Tournament | None:
    """The tournament with its rule set and its club's row read now, None when there is none.
    Its club's id is kept per tournament (a tournament never changes club: the admin keeps
    it read-only), so a read asks the club's plain row for its data version and takes the
    tournament's row with its rule set kept under that version: every write of a tournament
    or a rule set moves the club's version in its transaction, so a kept row is never one the
    club has changed since. On a miss the row is read (with its rule set, or with its club too
    when the club is not known) and kept."""
    club_id = cache.get(f"efuda:tclub:{tournament_id}")
    club = None if club_id is None else Club.objects.filter(pk=club_id).first()
    if club is not None:
        tournament = cache.get(_row_key(club, tournament_id))
        if tournament is not None:
            tournament.club = club
            return tournament
        rows = Tournament.objects.select_related("ruleset").filter(club_id=club.pk)
        tournament = rows.filter(pk=tournament_id).first()
        if tournament is not None:
            tournament.club = club
            return _keep_row(tournament)
    tournament = _tournament_query(tournament_id, reader_id=None).first()
    return None if tournament is None else _keep_row(tournament)


def _row_key(club: Club, tournament_id: int) -> str:
    return f"efuda:trow:{club.pk}:{club.data_version}:{tournament_id}"


def _keep_row(tournament: Tournament) -> Tournament:
    seconds = settings.EFUDA_PAGE_CACHE_SECONDS
    cache.set(f"efuda:tclub:{tournament.pk}", tournament.club_id, seconds)
    cache.set(_row_key(tournament.club, tournament.pk), tournament, seconds)
    return tournament


def _reader_answers(tournament: Tournament, *, reader_id: int) -> tuple[str | None, bool]:
    """What ``_tournament_query`` annotates for ``reader_id``, each read by a plain query."""
    role = (
        Membership.objects.filter(club_id=tournament.club_id, user_id=reader_id)
        .order_by("pk")
        .values_list("role", flat=True)
        .first()
    )
    staff = Tournament.extra_staff.through.objects.filter(
        tournament_id=tournament.pk, user_id=reader_id
    ).exists()
    return role, staff


def is_staff(reader, tournament: Tournament) -> bool:
    """Club scorekeepers and owners, and the tournament's extra staff while they are members
    of the club. Read from the memberships with the tournament (on a read, kept per club data
    version, which every change of a membership or of the staff moves): leaving the club (or
    a removal that missed a row) takes the rights away at the next request."""
    reader = Reader.of(reader)
    if not reader.is_authenticated:
        return False
    if has_role(reader, tournament.club, Role.SCOREKEEPER):
        return True
    if not has_role(reader, tournament.club, Role.MEMBER):
        return False
    if tournament.pk not in reader.extra_staff:  # else read with the tournament
        reader.extra_staff[tournament.pk] = tournament.extra_staff.filter(pk=reader.pk).exists()
    return reader.extra_staff[tournament.pk]


def is_creator(reader, tournament: Tournament) -> bool:
    """Whoever created the tournament, while they keep a role that may create one (scorekeeper
    or owner): a creator lowered to member or removed keeps no right from having created it."""
    reader = Reader.of(reader)
    return (
        tournament.created_by_id is not None
        and tournament.created_by_id == reader.pk
        and has_role(reader, tournament.club, Role.SCOREKEEPER)
    )


def can_see(reader, tournament: Tournament, entry: TournamentEntry | None = None) -> bool:
    """Public tournaments: anyone. Otherwise club members, staff and the event's PIN holders."""
    if tournament.is_public or entry is not None:
        return True
    reader = Reader.of(reader)
    return has_role(reader, tournament.club, Role.MEMBER) or is_staff(reader, tournament)


def club_tournaments(*, club, reader) -> list[Tournament]:
    """Members (the extra staff are members) see every tournament, others the public ones."""
    qs = Tournament.objects.filter(club=club)
    if not has_role(reader, club, Role.MEMBER):
        qs = qs.filter(is_public=True)
    return list(qs.order_by("-date", "-id"))


# --- the staff page --------------------------------------------------------------------------


def can_manage_staff(reader, tournament: Tournament) -> bool:
    """Club admins (owners) and whoever created the tournament add and remove its staff."""
    reader = Reader.of(reader)
    if not reader.is_authenticated:
        return False
    return has_role(reader, tournament.club, Role.OWNER) or is_creator(reader, tournament)


@dataclass
class StaffMember:
    user: object
    name: str
    extra: bool  # on the tournament's own staff (removable), not by a club role
    role: str = ""  # the club role that lets them run it ("" for extra staff only)


def tournament_staff(tournament: Tournament) -> list[StaffMember]:
    """Everyone who can run the tournament: the extra staff, then the club's scorekeepers and
    owners (who always can)."""

    extra = list(tournament.extra_staff.order_by("username"))
    extra_ids = {u.pk for u in extra}
    roles = {
        m.user_id: m
        for m in Membership.objects.filter(
            club=tournament.club, role__in=[Role.SCOREKEEPER, Role.OWNER]
        ).select_related("user")
    }
    people = [
        StaffMember(user=u, name=u.get_username(), extra=True, role=_role_label(roles.get(u.pk)))
        for u in extra
    ]
    people += [
        StaffMember(user=m.user, name=m.user.get_username(), extra=False, role=_role_label(m))
        for m in sorted(roles.values(), key=lambda m: (m.role != Role.OWNER, m.user.username))
        if m.user_id not in extra_ids
    ]
    return people


def _role_label(membership) -> str:
    return Role(membership.role).label if membership is not None else ""


# --- PINs ------------------------------------------------------------------------------------


def pin_holder(*, tournament: Tournament, held: dict | None) -> TournamentEntry | None:
    """The entry a browser unlocked with a PIN (``held``: what its session keeps for the
    tournament, the entry's id and the PIN's hash), while that PIN is still the entry's:
    issuing new PINs logs the browser out."""
    if not held:
        return None
    entry = (
        TournamentEntry.objects.filter(pk=held.get("entry"), tournament=tournament)
        .select_related("player")
        .first()
    )
    if entry is None or not entry.pin_hash or entry.pin_hash != held.get("hash"):
        return None
    return entry


def seated_entry(*, tournament: Tournament, player_id: int) -> TournamentEntry | None:
    """The tournament's entry of the player ``player_id`` (who holds a seat)."""
    return tournament.entries.filter(player_id=player_id).first()


def pin_overview(tournament: Tournament) -> dict:
    """Who has a PIN and whose phone new PINs would log out: the active players without a PIN,
    those with one, and among them the players seated in the round being played."""
    entries = list(
        tournament.entries.filter(dropped_at_round__isnull=True).select_related("player")
    )
    playing = tournament_state(tournament).playing
    seated = set()
    if playing is not None:
        for table in playing.tables.all():
            seated.update(table.seats)
    return {
        "missing": [e.player.name for e in entries if not e.pin_hash],
        "with_pin": [e.player.name for e in entries if e.pin_hash],
        "logged_out_now": [e.player.name for e in entries if e.pin_hash and e.player_id in seated],
        "playing": playing,
    }


def pin_lockouts(tournament: Tournament, *, limit_bare: int, limit_entry: int, since) -> int:
    """How many phones (client address, and the player they tried) cannot try a PIN now."""
    counts: dict[tuple[str, int | None], int] = defaultdict(int)
    for address, entry_id in PinAttempt.objects.filter(
        tournament=tournament, created_at__gte=since
    ).values_list("address", "entry_id"):
        counts[(address, entry_id)] += 1
    return sum(
        1
        for (_address, entry_id), n in counts.items()
        if n >= (limit_entry if entry_id is not None else limit_bare)
    )
