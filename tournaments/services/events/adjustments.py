"""Penalties and adjustments by the staff."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from django.db import transaction

from ...models import (
    Adjustment,
    TournamentEntry,
)
from ..cache import club_version_bump
from .common import _fail, _user

# --- penalties and adjustments ---------------------------------------------------------------


@transaction.atomic
def adjustment_add(
    *, entry: TournamentEntry, points, reason: str, round_number: int | None = None, user=None
) -> Adjustment:
    # Checked as it will be stored (one decimal place): 99999.96 would round to 100000 and
    # 1e-30 to 0, both refused.
    try:
        value = Decimal(str(points).strip().replace("−", "-"))
        if not value.is_finite():
            raise ValueError(points)
        value = value.quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
    except (InvalidOperation, ValueError):
        raise _fail("points", "points_invalid") from None
    if value == 0 or abs(value) >= Decimal("100000"):
        raise _fail("points", "points_invalid")
    reason = " ".join((reason or "").split())
    if not reason:
        raise _fail("reason", "reason_empty")
    club_version_bump(club_id=entry.tournament.club_id)
    return Adjustment.objects.create(
        tournament=entry.tournament,
        entry=entry,
        round_number=round_number,
        points=value,
        reason=reason[:200],
        created_by=_user(user),
    )


@transaction.atomic
def adjustment_delete(*, adjustment: Adjustment) -> Adjustment:
    club_version_bump(club_id=adjustment.tournament.club_id)
    adjustment.is_deleted = True
    adjustment.save(update_fields=["is_deleted"])
    return adjustment
