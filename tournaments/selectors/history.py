"""A deal's history: every stored version (django-simple-history), what changed from the one
before, the points before and after when they moved, and why, in the reader's language.

Why: a change efuda made by itself is recorded as a code (``deal_data.reason_code``): a later
Daifugō round re-scored because the round before it changed, a player merge, its undo. Any
other recorded reason (a tournament table's correction) is shown as written.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext

from scoring.cards import SUIT_SYMBOLS

from ..deal_data import player_ids, reason_parse
from ..i18n import list_join
from ..models import Deal, Game, PlayerMerge
from .sessions import card_label, player_names


def deal_summary(*, game: str, data: dict, names: dict[str, str]) -> str:
    """One line describing a deal's input, for history lists and conflict messages."""
    data = data or {}
    if game == Game.NAPOLEON:
        seats = list_join(names.get(str(s), str(s)) for s in data.get("seats") or [])
        if data.get("redeal") or not data.get("napoleon"):
            return gettext("流れ (redeal); seats: %(seats)s") % {"seats": seats}
        napoleon = str(data.get("napoleon"))
        adjutant = str(data.get("adjutant") or "")
        partner = (
            gettext("独り立ち (solo)") if adjutant in ("", napoleon)
            else names.get(adjutant, adjutant)
        )  # fmt: skip
        return gettext(
            "Napoleon %(napoleon)s, %(bid)s%(trump)s, called %(called)s, adjutant %(adjutant)s, "
            "honours %(honours)s, discarded %(discarded)s; seats: %(seats)s"
        ) % {
            "napoleon": names.get(napoleon, napoleon), "bid": data.get("bid"),
            "trump": SUIT_SYMBOLS.get(data.get("trump") or "", "?"),
            "called": card_label(data.get("called")) or "–", "adjutant": partner,
            "honours": data.get("honours", 0), "discarded": data.get("discarded", 0),
            "seats": seats,
        }  # fmt: skip
    order = list_join(names.get(str(s), str(s)) for s in data.get("order") or [])
    forbidden = list_join(names.get(str(s), str(s)) for s in data.get("forbidden") or [])
    text = gettext("Went out: %(order)s") % {"order": order}
    if forbidden:
        text += "; " + gettext("forbidden finish: %(players)s") % {"players": forbidden}
    previous = data.get("previous_daifugo")
    if previous not in (None, ""):
        name = names.get(str(previous), str(previous))
        text += "; " + gettext("previous 大富豪 (grand millionaire): %(player)s") % {"player": name}
    return text


@dataclass(frozen=True)
class PointsChange:
    """One player's points in the deal before and after a change (None: not in it)."""

    name: str
    before: int | None
    after: int | None


@dataclass(frozen=True)
class HistoryEntry:
    when: object
    who: str
    kind: str
    version: int | None
    summary: str
    changes: list[str]
    reason: str = ""
    points: list[PointsChange] = field(default_factory=list)


def _merge_words(club_id: int, number: int, names: dict[str, str]) -> dict[str, str]:
    record = PlayerMerge.objects.filter(club_id=club_id, pk=number).first()
    if record is None:
        return {"merged": "?", "kept": "?"}
    kept = names.get(str(record.kept_id)) or record.kept.name
    return {"merged": record.merged_name, "kept": kept}


def reason_text(text: str | None, *, club_id: int, names: dict[str, str]) -> str:
    """Why a version was stored, in the reader's language ("" when nothing was said)."""
    parsed = reason_parse(text)
    if parsed is None:
        return text or ""
    kind, number = parsed
    if kind == "after":
        return gettext(
            "Re-scored because round %(seq)s before it changed: the previous 大富豪 (grand "
            "millionaire) is read from it."
        ) % {"seq": number}
    if kind == "late":
        return gettext(
            "Late deal: recorded after round %(round)s was finished, counted by the staff "
            "(who: this version's editor)."
        ) % {"round": number}
    words = _merge_words(club_id, number, names)
    if kind == "merge":
        return gettext("Player merge: “%(merged)s” into “%(kept)s”.") % words
    return gettext("Player merge undone: “%(merged)s” apart from “%(kept)s” again.") % words


def points_change(before: dict, after: dict, names: dict[str, str], order=()) -> list[PointsChange]:
    """Each player's points before and after, in ``order`` (player keys), then any other in
    the order of the key's text (a stored mapping keeps no order on PostgreSQL); [] when none
    moved."""
    before, after = before or {}, after or {}
    if before == after:
        return []
    keys = [str(k) for k in order if str(k) in before or str(k) in after]
    keys = list(dict.fromkeys([*keys, *sorted({*before, *after}, key=_by_number)]))
    return [PointsChange(names.get(k, k), before.get(k), after.get(k)) for k in keys]


def _by_number(key: str):
    return (0, int(key), "") if key.isdigit() else (1, 0, key)


def seating(game: str, data: dict, outcome: dict) -> list:
    """The players of a stored version in the order the page lists them: a Napoleon deal's
    seats, a Daifugō round's final places."""
    if game == Game.NAPOLEON:
        return list((data or {}).get("seats") or [])
    return list((outcome or {}).get("final_order") or (data or {}).get("order") or [])


def _names(deal: Deal, records) -> dict[str, str]:
    """Every player any version names, merged-away players by the name they had."""
    ids: set[str] = set()
    for record in records:
        ids |= player_ids(record.data or {})
        ids |= {str(k) for k in ((record.outcome or {}).get("points") or {})}
    names = player_names(club=deal.club, ids=ids)
    gone = {int(i) for i in ids - set(names) if i.isdigit()}
    if gone:
        for merged_id, name in PlayerMerge.objects.filter(
            club_id=deal.club_id, merged_id__in=gone
        ).values_list("merged_id", "merged_name"):
            names.setdefault(str(merged_id), name)
    return names


def _changes(deal: Deal, previous, record, names: dict[str, str]) -> list[str]:
    changes = []
    was = deal_summary(game=deal.game, data=previous.data, names=names)
    if previous.data != record.data and was != deal_summary(
        game=deal.game, data=record.data, names=names
    ):
        changes.append(gettext("was: %(summary)s") % {"summary": was})
    if previous.is_deleted != record.is_deleted:
        changes.append(gettext("deleted") if record.is_deleted else gettext("restored"))
    old_pts = (previous.outcome or {}).get("points")
    new_pts = (record.outcome or {}).get("points")
    if previous.data == record.data and old_pts != new_pts and not record.history_change_reason:
        changes.append(gettext("re-scored after an earlier round changed"))
    return changes


def deal_history(deal: Deal) -> list[HistoryEntry]:
    """Every stored version of ``deal``, newest first, with what changed from the one before,
    the points before and after where they moved, and why."""
    records = list(deal.history.select_related("history_user").order_by("history_date", "pk"))
    names = _names(deal, records)
    kinds = {"+": gettext("recorded"), "~": gettext("changed"), "-": gettext("removed")}
    entries = []
    previous = None
    for record in records:
        changes, points = [], []
        if previous is not None:
            changes = _changes(deal, previous, record, names)
            points = points_change(
                (previous.outcome or {}).get("points"), (record.outcome or {}).get("points"),
                names, seating(deal.game, previous.data, previous.outcome)
                + seating(deal.game, record.data, record.outcome),
            )  # fmt: skip
        user = record.history_user
        entries.append(HistoryEntry(
            when=record.history_date, who=user.get_username() if user else "–",
            kind=kinds.get(record.history_type, record.history_type),
            version=record.version,
            summary=deal_summary(game=deal.game, data=record.data, names=names),
            changes=changes, points=points,
            reason=reason_text(record.history_change_reason, club_id=deal.club_id, names=names),
        ))  # fmt: skip
        previous = record
    entries.reverse()
    return entries
