"""Players register themselves: the staff open registration (until a time, up to a cap, club
members or anyone with an account for a public tournament); a person enters their own club
player or a new name; past the cap they wait in order and move up when someone withdraws;
they withdraw themselves until round 1 is drawn. The staff's own entries (``entries.py``)
stay as they are: adding ignores the cap, removing moves the waiting list up too."""

from __future__ import annotations

import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone

from core.i18n import N_

from ...models import Player, Tournament, TournamentEntry, normalise_name
from ...selectors.events.registration import own_entry, registration_refusal
from ..cache import club_version_bump
from ..errors import make_fail
from ..players import clean_player_name
from .common import _user

MESSAGES = {
    "registration_closed": N_("Registration for this tournament is closed."),
    "registration_deadline": N_("Registration for this tournament closed at %(time)s."),
    "registration_drawn": N_("Round 1 has been drawn: ask the staff to enter you."),
    "registration_members": N_(
        "Only members of %(club)s can register for this tournament. Ask the organiser."
    ),
    "registration_login": N_("Log in to register."),
    "registration_already": N_("You are already registered as %(name)s."),
    "registration_name": N_("Give the name you play under."),
    "registration_name_taken": N_(
        "%(name)s is already a player of the club. If that is you, say so on the club's page "
        "(“This is me”); once the owner confirms, register again. Otherwise give another name."
    ),
    "registration_cap": N_("Enter a number of players from 1, or leave it empty."),
    "withdraw_drawn": N_(
        "Round 1 has been drawn, so you can no longer withdraw yourself: tell the staff."
    ),
    "withdraw_not_yours": N_("This is not your entry."),
}

_fail = make_fail(MESSAGES)


@transaction.atomic
def registration_set(
    *,
    tournament: Tournament,
    open: bool,  # noqa: A002 (the form's own word)
    closes: datetime.datetime | None = None,
    cap: int | None = None,
    anyone: bool = False,
) -> Tournament:
    """The staff open or close registration and set its deadline, cap and audience. A higher
    cap (or none) moves the waiting list up at once."""
    if cap is not None and cap < 1:
        raise _fail("registration_cap", "registration_cap")
    club_version_bump(club_id=tournament.club_id)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    tournament.registration_open = bool(open)
    tournament.registration_closes = closes
    tournament.registration_cap = cap
    tournament.registration_anyone = bool(anyone) and tournament.is_public
    tournament.save(
        update_fields=[
            "registration_open", "registration_closes", "registration_cap", "registration_anyone",
        ]
    )  # fmt: skip
    waiting_move_up(tournament=tournament)
    return tournament


def _params(tournament: Tournament) -> dict:
    closes = tournament.registration_closes
    time = timezone.localtime(closes).strftime("%Y-%m-%d %H:%M") if closes else ""
    return {"club": tournament.club.name, "time": time}


def refusal_error(tournament: Tournament, code: str):
    """The error of a refusal code (from ``registration_refusal``), to show it before a try."""
    return _fail("__all__", code, **_params(tournament))


def _own_player(tournament: Tournament, user, name: str) -> Player:
    """The person's player: the club player linked to their account; else the player an
    earlier registration of theirs made; else a new player of ``name``. An existing player of
    another name is linked only through the claim the owner confirms."""
    club_id = tournament.club_id
    linked = Player.objects.filter(club_id=club_id, user=user).first()
    if linked is not None:
        return linked
    earlier = (
        TournamentEntry.objects.filter(
            tournament__club_id=club_id, user=user, player__user__isnull=True
        )
        .select_related("player")
        .order_by("-id")
        .first()
    )
    name = clean_player_name((name or "").strip(), field="name") if name else ""
    if earlier is not None and (not name or normalise_name(name) == earlier.player.name_key):
        return earlier.player
    if not name:
        raise _fail("name", "registration_name")
    if Player.objects.filter(club_id=club_id, name_key=normalise_name(name)).exists():
        raise _fail("name", "registration_name_taken", name=name)
    try:
        with transaction.atomic():
            return Player.objects.create(club_id=club_id, name=name)
    except IntegrityError:
        raise _fail("name", "registration_name_taken", name=name) from None


def _places_taken(tournament: Tournament) -> int:
    return tournament.entries.filter(waiting=False, dropped_at_round__isnull=True).count()


@transaction.atomic
def entry_register(*, tournament: Tournament, user, name: str = "", now=None) -> TournamentEntry:
    """``user`` registers: their own player (see ``_own_player``), on the waiting list when
    the cap is reached. The tournament row is locked first, so two registrations for the last
    place are counted one after the other."""
    club_version_bump(club_id=tournament.club_id)
    tournament = (
        Tournament.objects.select_for_update(of=("self",))
        .select_related("club")
        .get(pk=tournament.pk)
    )
    code = registration_refusal(tournament=tournament, user=user, now=now)
    if code is not None:
        raise _fail("__all__", code, **_params(tournament))
    mine = own_entry(tournament=tournament, user=user)
    if mine is not None:
        raise _fail("__all__", "registration_already", name=mine.player.name)
    player = _own_player(tournament, user, name)
    if tournament.entries.filter(player=player).exists():
        raise _fail("__all__", "registration_already", name=player.name)
    cap = tournament.registration_cap
    waiting = cap is not None and _places_taken(tournament) >= cap
    entry = TournamentEntry(tournament=tournament, player=player, user=user, waiting=waiting)
    entry._change_reason = "registered"
    entry._history_user = user
    entry.save()
    return entry


@transaction.atomic
def entry_withdraw(*, entry: TournamentEntry, user) -> str:
    """The player takes their own entry out, until round 1 is drawn (then only the staff can
    change it); the first on the waiting list moves up. Returns the name."""
    club_version_bump(club_id=entry.tournament.club_id)
    tournament = Tournament.objects.select_for_update().get(pk=entry.tournament_id)
    entry = TournamentEntry.objects.select_related("player").get(pk=entry.pk)
    if own_entry(tournament=tournament, user=user) != entry:
        raise _fail("__all__", "withdraw_not_yours")
    if tournament.rounds.exists():
        raise _fail("__all__", "withdraw_drawn")
    name = entry.player.name
    entry._change_reason = "withdrew"
    entry._history_user = _user(user)
    entry.delete()
    waiting_move_up(tournament=tournament)
    return name


def waiting_move_up(*, tournament: Tournament) -> list[TournamentEntry]:
    """Move the waiting list up, in registration order, into the places free under the cap
    (every one when there is no cap). Called inside a write that bumped the club's version."""
    waiting = tournament.entries.filter(waiting=True).order_by("id")
    if tournament.registration_cap is not None:
        free = tournament.registration_cap - _places_taken(tournament)
        waiting = waiting[: max(0, free)]
    moved = list(waiting)
    for entry in moved:
        entry.waiting = False
        entry._change_reason = "moved up from the waiting list"
        entry.save(update_fields=["waiting"])
    return moved
