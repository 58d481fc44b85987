"""Reads for the phone's outbox: a deal with the same content recorded after an entry was made.

Before an entry that efuda refused is sent again, the phone asks whether the session meanwhile
got the same deal another way (entered again by hand, from another phone): then the
scorekeeper sees both and says whether it is the same deal (views/outbox.py).
"""

from __future__ import annotations

import datetime
import json

from django.utils import timezone

from ..models import Deal, GameSession

SIMILAR_LIMIT = 5  # the deals shown beside the entry


def _same(value) -> str:
    """A value as stored JSON compares (tuples are lists, ids are what the form sent)."""
    return json.dumps(value, sort_keys=True, default=str)


def similar_deals(
    *, session: GameSession, data: dict, since: datetime.datetime, client_id=None
) -> list[Deal]:
    """The session's live deals recorded at or after ``since`` (not under ``client_id``) whose
    stored input holds every value of ``data`` (the entry form's ``to_data()``). Bounded: the
    deals of one session since one moment."""
    deals = (
        Deal.objects.filter(session=session, is_deleted=False, created_at__gte=since)
        .select_related("created_by")
        .order_by("seq")
    )
    if client_id is not None:
        deals = deals.exclude(client_id=client_id)
    wanted = {key: _same(value) for key, value in data.items()}
    found = []
    for deal in deals[:200]:
        stored = deal.data or {}
        if all(_same(stored.get(key)) == value for key, value in wanted.items()):
            found.append(deal)
            if len(found) >= SIMILAR_LIMIT:
                break
    return found


def points_line(outcome: dict, names: dict[str, str]) -> str:
    """A deal's points as one line: "太郎 +4 · 花子 +2 · …" (a redeal: "—")."""
    points = (outcome or {}).get("points") or {}
    if not points:
        return "—"
    return " · ".join(f"{names.get(str(pid), str(pid))} {int(p):+d}" for pid, p in points.items())


def similar_summary(deal: Deal, names: dict[str, str]) -> dict:
    """What the phone shows of a similar deal: its number, when and by whom, its points."""
    return {
        "seq": deal.seq,
        "at": timezone.localtime(deal.created_at).strftime("%H:%M"),
        "by": deal.created_by.get_username() if deal.created_by else "",
        "points": points_line(deal.outcome, names),
    }
