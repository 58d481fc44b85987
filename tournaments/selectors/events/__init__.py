"""Tournament reads, one module per area; importers use the package
(``from ..selectors import events as sel``):

- ``access``: who may see and run a tournament (the tournament for one request, with the
  reader's role and extra-staff answer), its staff page and the PINs' overview;
- ``rounds``: where a tournament stands, the draw with names, who sat where (substitutions
  included), a table's deal numbers;
- ``deals``: a table's deals with their state, each seat's total, the deals the staff decide on;
- ``standings``: the live standings (raw points or rank points, with adjustments) and the
  standings freeze.
"""

from .access import (
    StaffMember,
    can_manage_staff,
    can_see,
    club_tournaments,
    is_creator,
    is_staff,
    pin_holder,
    pin_lockouts,
    pin_overview,
    seated_entry,
    tournament_for_reader,
    tournament_staff,
)
from .deals import OpenDeal, SeatTotal, TableDeal, open_deals, table_deals, table_totals
from .rounds import (
    RoundView,
    TableView,
    TournamentState,
    current_round,
    current_table,
    entry_table,
    live_deal_count,
    names_of,
    next_seq,
    players_at,
    replaced_names,
    round_view,
    seat_history,
    seconds_left,
    session_table,
    table_players,
    tournament_state,
)
from .seen import SEEN_MINUTES, tables_seen
from .standings import (
    RANK_SCALE,
    SITOUT_RANK_POINTS,
    TIEBREAKS,
    StandingRow,
    TournamentStandings,
    freeze_round,
    rank_points,
    rank_rows,
    results_hidden,
    tournament_standings,
    visible_standings,
)

__all__ = [
    "RANK_SCALE",
    "SEEN_MINUTES",
    "SITOUT_RANK_POINTS",
    "TIEBREAKS",
    "OpenDeal",
    "RoundView",
    "SeatTotal",
    "StaffMember",
    "StandingRow",
    "TableDeal",
    "TableView",
    "TournamentStandings",
    "TournamentState",
    "can_manage_staff",
    "can_see",
    "club_tournaments",
    "current_round",
    "current_table",
    "entry_table",
    "freeze_round",
    "is_creator",
    "is_staff",
    "live_deal_count",
    "names_of",
    "next_seq",
    "open_deals",
    "pin_holder",
    "pin_lockouts",
    "pin_overview",
    "players_at",
    "rank_points",
    "rank_rows",
    "replaced_names",
    "results_hidden",
    "round_view",
    "seat_history",
    "seated_entry",
    "seconds_left",
    "session_table",
    "table_deals",
    "table_players",
    "table_totals",
    "tables_seen",
    "tournament_for_reader",
    "tournament_staff",
    "tournament_standings",
    "tournament_state",
    "visible_standings",
]
