"""Penalties and adjustments by the staff."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from django.db import transaction

from ...models import (
    Adjustment,
    TournamentEntry,
)
from .common import _fail, _user

# --- penalties and adjustments ---------------------------------------------------------------


@transaction.atomic
def adjustment_add(
    *, entry: TournamentEntry, points, reason: str, round_number: int | None = None, user=None
) -> Adjustment:
    try:
        value = Decimal(str(points).strip().replace("−", "-"))
    except (InvalidOperation, ValueError):
        raise _fail("points", "points_invalid") from None
    if not value.is_finite() or value == 0 or abs(value) >= Decimal("100000"):
        raise _fail("points", "points_invalid")
    reason = " ".join((reason or "").split())
    if not reason:
        raise _fail("reason", "reason_empty")
    return Adjustment.objects.create(
        tournament=entry.tournament,
        entry=entry,
        round_number=round_number,
        points=value.quantize(Decimal("0.1")),
        reason=reason[:200],
        created_by=_user(user),
    )


def adjustment_delete(*, adjustment: Adjustment) -> Adjustment:
    adjustment.is_deleted = True
    adjustment.save(update_fields=["is_deleted"])
    return adjustment
