"""The round timer."""

from __future__ import annotations

import datetime
from decimal import Decimal, InvalidOperation

from django.db import transaction
from django.utils import timezone

from ...models import (
    TournamentRound,
)
from ..cache import club_version_bump
from .common import TIMER_MAX_MINUTES, _fail
from .rounds import _fresh

# --- the round timer -------------------------------------------------------------------------


@transaction.atomic
def timer_start(*, rnd: TournamentRound, minutes: int | None = None) -> TournamentRound:
    """Run the clock: for ``minutes`` if given, else for what was left when it was stopped."""
    rnd = _fresh(rnd)
    now = timezone.now()
    if minutes is not None:
        try:
            value = Decimal(str(minutes).strip())
            if not value.is_finite():
                raise ValueError(minutes)
            seconds = int(value * 60)
        except (InvalidOperation, ValueError, OverflowError):
            raise _fail("minutes", "timer_minutes", max=TIMER_MAX_MINUTES) from None
        if not 0 < seconds <= TIMER_MAX_MINUTES * 60:
            raise _fail("minutes", "timer_minutes", max=TIMER_MAX_MINUTES)
    elif rnd.timer_left is not None:
        seconds = rnd.timer_left
    elif rnd.tournament.minutes_per_round:
        seconds = rnd.tournament.minutes_per_round * 60
    else:
        raise _fail("minutes", "timer_minutes", max=TIMER_MAX_MINUTES)
    club_version_bump(club_id=rnd.tournament.club_id)
    rnd.timer_ends_at = now + datetime.timedelta(seconds=seconds)
    rnd.timer_left = None
    rnd.save(update_fields=["timer_ends_at", "timer_left"])
    return rnd


@transaction.atomic
def timer_stop(*, rnd: TournamentRound) -> TournamentRound:
    rnd = _fresh(rnd)
    if rnd.timer_ends_at is not None:
        club_version_bump(club_id=rnd.tournament.club_id)
        left = (rnd.timer_ends_at - timezone.now()).total_seconds()
        rnd.timer_left = max(0, int(left))
        rnd.timer_ends_at = None
        rnd.save(update_fields=["timer_ends_at", "timer_left"])
    return rnd
