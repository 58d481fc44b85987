"""Players: display names in any script, unique within a club after normalisation."""

import unicodedata

from django.db import IntegrityError, transaction

from ..models import Club, Player, normalise_name
from .cache import club_version_bump
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
