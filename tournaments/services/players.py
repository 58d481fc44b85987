"""Players: display names in any script, unique within a club after normalisation; a player
anonymised on request (docs/accounts.md, "Anonymising a player")."""

import re
import unicodedata

from django.db import IntegrityError, transaction
from django.db.models import F, QuerySet, Value
from django.db.models.functions import Left, Replace

from ..models import (
    Adjustment,
    Club,
    Deal,
    DealConfirmation,
    Invitation,
    Player,
    PlayerMerge,
    Tournament,
    TournamentEntry,
    TournamentRound,
    TournamentTable,
    normalise_name,
)
from .cache import club_version_bump
from .clubs import club_lock
from .errors import fail
from .names import check_name_text

MAX_NAME = 64


def clean_player_name(name: str, *, field: str = "name") -> str:
    """Trim and check a display name; raise EfudaError naming ``field`` if it is unusable."""
    text = " ".join(unicodedata.normalize("NFC", str(name or "")).split())
    if not text:
        raise fail(field, "player_name_empty")
    if len(text) > MAX_NAME:
        raise fail(field, "player_name_long", max=MAX_NAME)
    return check_name_text(text, field=field)


def player_get_or_create(*, club: Club, name: str, field: str = "name") -> Player:
    text = clean_player_name(name, field=field)
    key = normalise_name(text)
    player = Player.objects.filter(club=club, name_key=key).first()
    if player is not None:
        return player
    try:
        with transaction.atomic():
            club_version_bump(club_id=club.pk)
            return Player.objects.create(club=club, name=text)
    except IntegrityError:  # created by a concurrent request in the meantime
        return Player.objects.get(club=club, name_key=key)


def players_by_ids(*, club: Club, ids, field: str) -> dict[int, Player]:
    """Resolve player ids (ints or digit strings) that must all belong to ``club``."""
    wanted: list[int] = []
    for value in ids:
        try:
            wanted.append(int(value))
        except (TypeError, ValueError):
            raise fail(field, "player_unknown", value=str(value)) from None
    found = {p.id: p for p in Player.objects.filter(club=club, id__in=wanted)}
    for pid in wanted:
        if pid not in found:
            raise fail(field, "player_unknown", value=str(pid))
    return found


@transaction.atomic
@transaction.atomic  # the version and the name commit together
def player_rename(*, player: Player, name: str) -> Player:
    text = clean_player_name(name, field="name")
    key = normalise_name(text)
    if Player.objects.filter(club_id=player.club_id, name_key=key).exclude(pk=player.pk).exists():
        raise fail("name", "player_name_taken", name=text)
    player.name = text
    club_version_bump(club_id=player.club_id)
    try:
        with transaction.atomic():
            player.save()
    except IntegrityError:
        raise fail("name", "player_name_taken", name=text) from None
    return player


@transaction.atomic
def player_set_active(*, player: Player, active: bool) -> Player:
    """Inactive players leave the entry buttons; their history and standings stay."""
    club_version_bump(club_id=player.club_id)
    Player.objects.filter(pk=player.pk).update(active=active)
    player.active = active
    return player


# --- anonymising ------------------------------------------------------------------------------

# The name an anonymised player gets: a number of its own in the club. Stored as a name like
# any other (every page, file and history shows it as it is), so written once, in Japanese.
ANONYMOUS_NAME = "匿名 {number}"
ANONYMOUS_FORM = re.compile(r"匿名 [1-9][0-9]*")


def _anonymous_names(club_id: int, count: int) -> list[str]:
    """``count`` anonymous names no player of the club has, nor a merged player an undo could
    bring back: the lowest free numbers."""
    prefix = normalise_name(ANONYMOUS_NAME.format(number=""))
    taken = set(
        Player.objects.filter(club_id=club_id, name_key__startswith=prefix).values_list(
            "name_key", flat=True
        )
    )
    merged = PlayerMerge.objects.filter(club_id=club_id, undone_at__isnull=True)
    taken |= {normalise_name(n) for n in merged.values_list("merged_name", flat=True)}
    names: list[str] = []
    number = 0
    while len(names) < count:
        number += 1
        name = ANONYMOUS_NAME.format(number=number)
        if normalise_name(name) not in taken:
            names.append(name)
    return names


def _texts(club_id: int) -> list[tuple[QuerySet, str]]:
    """Where the club's rows and their history quote a player's name in words: the reasons
    of history rows (a merge, a seat handed over, a player's correction) and the texts people
    typed (an invitation's note, a dispute's note, an adjustment's reason)."""
    tournaments = Tournament.objects.filter(club_id=club_id).values("pk")
    rounds = TournamentRound.history.filter(tournament_id__in=tournaments).values("id")
    tables = TournamentTable.history.filter(round_id__in=rounds).values("id")
    reason = "history_change_reason"
    return [
        (Player.history.filter(club_id=club_id), reason),
        (Deal.history.filter(club_id=club_id), reason),
        (TournamentTable.history.filter(round_id__in=rounds), reason),
        (TournamentEntry.history.filter(tournament_id__in=tournaments), reason),
        (DealConfirmation.objects.filter(table_id__in=tables), "note"),
        (DealConfirmation.history.filter(table_id__in=tables), "note"),
        (DealConfirmation.history.filter(table_id__in=tables), reason),
        (Adjustment.objects.filter(tournament_id__in=tournaments), "reason"),
        (Adjustment.history.filter(tournament_id__in=tournaments), "reason"),
        (Adjustment.history.filter(tournament_id__in=tournaments), reason),
        (Invitation.objects.filter(club_id=club_id), "note"),
        (Invitation.history.filter(club_id=club_id), "note"),
        (Invitation.history.filter(club_id=club_id), reason),
    ]


def _replace_in_texts(club_id: int, names: dict[str, str]) -> None:
    """Every occurrence of each old name in the club's texts (``_texts``) replaced by its new
    one, in the database (one update per text and name)."""
    for rows, field in _texts(club_id):
        size = rows.model._meta.get_field(field).max_length
        for old, new in names.items():
            rows.filter(**{f"{field}__contains": old}).update(
                **{field: Left(Replace(F(field), Value(old), Value(new)), size)}
            )


@transaction.atomic
def player_anonymise(*, player: Player) -> Player:
    """The player's name replaced by 「匿名 N」 everywhere the club keeps it: the player, every
    version in the player's history, the players merged into them (their merge records and
    history: an undo brings them back anonymous too), and the club's texts that quote it
    (``_texts``); their points, deals, ratings, entries and account link stay. Cannot be
    undone: the old name is kept nowhere. The club's data version moves, so no cached page
    shows the old name."""
    club_lock(club_id=player.club_id)  # one anonymous number at a time
    player = Player.objects.select_for_update().get(pk=player.pk)
    merges = list(PlayerMerge.objects.filter(kept=player, undone_at__isnull=True))
    fresh = iter(_anonymous_names(player.club_id, len(merges) + 1))
    new = player.name if ANONYMOUS_FORM.fullmatch(player.name) else next(fresh)
    names = {player.name: new}
    player.name = new
    player._change_reason = "anonymised"
    try:
        with transaction.atomic():
            player.save()
    except IntegrityError:  # a player of that name was added in the meantime
        raise fail("name", "player_name_taken", name=new) from None
    Player.history.filter(id=player.pk).update(name=new)
    # a merge undone brought the player back under the name it recorded
    PlayerMerge.objects.filter(club_id=player.club_id, merged_id=player.pk).update(merged_name=new)
    for merge in merges:
        merged = next(fresh)
        names[merge.merged_name] = merged
        Player.history.filter(id=merge.merged_id).update(name=merged)
        PlayerMerge.objects.filter(pk=merge.pk).update(merged_name=merged)
    _replace_in_texts(player.club_id, {old: n for old, n in names.items() if old != n})
    club_version_bump(club_id=player.club_id)
    return player
