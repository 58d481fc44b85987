"""A tournament entry's part in its tournament: whether it can still be taken out."""

from __future__ import annotations

from ..models import Adjustment, Tournament, TournamentEntry, TournamentRound, TournamentTable


def players_with_a_part(tournament_id: int) -> set[int]:
    """The players drawn in any round of the tournament: a seat at a table (now, or before a
    substitution) or a sit-out. Read in Python: a tournament has a few dozen tables at most,
    and a JSON list is searched alike on every database."""
    ids: set[int] = set()
    rounds = TournamentRound.objects.filter(tournament_id=tournament_id)
    for sitouts in rounds.values_list("sitouts", flat=True):
        ids.update(sitouts or [])
    tables = TournamentTable.objects.filter(round__tournament_id=tournament_id)
    for seats, replacements in tables.values_list("seats", "replacements"):
        ids.update(seats or [])
        for change in replacements or []:
            ids.update((change.get("out"), change.get("in")))
    return ids


def entry_kept_because(entry: TournamentEntry) -> str | None:
    """Why the entry cannot be taken out (as if never entered), as the code of the refusal in
    ``services/events/common.py``, or None when it can: its tournament is finished, an
    adjustment names it, or its player was drawn (``players_with_a_part``). Otherwise nothing
    of the tournament's results or history depends on it."""
    if entry.tournament.finished_at is not None:
        return "entry_finished"
    if entry.adjustments.exists():
        return "entry_adjusted"
    if entry.player_id in players_with_a_part(entry.tournament_id):
        return "entry_played"
    return None


def entry_removable(entry: TournamentEntry) -> bool:
    return entry_kept_because(entry) is None


def removable_entries(tournament: Tournament) -> set[int]:
    """The ids of the tournament's entries that can be taken out (``entry_kept_because``), in
    three queries whatever the number of entries (the staff page marks them)."""
    if tournament.finished_at is not None:
        return set()
    played = players_with_a_part(tournament.pk)
    adjusted = set(
        Adjustment.objects.filter(tournament=tournament).values_list("entry_id", flat=True)
    )
    entries = tournament.entries.values_list("pk", "player_id")
    return {pk for pk, player in entries if player not in played and pk not in adjusted}
