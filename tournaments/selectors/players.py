"""A player's statistics, read from aggregates (monthly rows, all-time rows, bid record), less
the deals hidden from the reader (``selectors/visibility.py``), summed from their own lines."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Q

from scoring.cards import SUIT_SYMBOLS

from ..models import (
    BidAggregate,
    Game,
    Player,
    ScoreLine,
    StandingAggregate,
)
from ..standings_fields import BID_COUNTERS, COUNTER_NAMES, PLAYER, Field, shown
from .standings import LINE_COUNTERS, hidden_counters, subtract
from .visibility import Visibility


@dataclass
class MonthRow:
    month: str  # "YYYY-MM"
    game: str
    points: int
    deals: int
    cumulative: int = 0


@dataclass
class BidRow:
    """Napoleon record for one bid count or one trump: made (won) of played."""

    label: str
    deals: int = 0
    wins: int = 0
    solo_deals: int = 0
    solo_wins: int = 0
    points: int = 0

    @property
    def lost(self) -> int:
        return self.deals - self.wins

    @property
    def win_rate(self) -> float | None:
        return round(100 * self.wins / self.deals, 1) if self.deals else None


@dataclass
class PlayerStats:
    player: Player
    totals: dict[str, dict] = field(default_factory=dict)  # game -> all-time counters
    months: dict[str, list[MonthRow]] = field(default_factory=dict)  # game -> by month
    by_bid: list[BidRow] = field(default_factory=list)
    by_trump: list[BidRow] = field(default_factory=list)
    # The months shown: the latest MONTHS_SHOWN by default (``since`` the first of them, with
    # ``earlier`` months left out), or all of them when asked for.
    since: str = ""
    earlier: bool = False
    all_months: bool = False

    @property
    def games(self) -> list[str]:
        return [g for g in Game.values if g in self.totals]

    @property
    def month_table(self) -> list[dict]:
        """One row per month, newest first, with each game's points and deals."""
        merged: dict[str, dict] = {}
        for game, rows in self.months.items():
            for row in rows:
                entry = merged.setdefault(
                    row.month,
                    {
                        "month": row.month,
                        **{f"{g}_{k}": None for g in Game.values for k in ("points", "deals")},
                    },
                )
                entry[f"{game}_points"] = row.points
                entry[f"{game}_deals"] = row.deals
        return [merged[m] for m in sorted(merged, reverse=True)]

    def facts(self, game: str) -> list[tuple[Field, str]]:
        """The player page's all-time figures of ``game``: each field it shows with its value,
        a count of deals with its wins as "won / played"; none when the player never played it."""
        totals = self.totals.get(game)
        if not totals:
            return []
        return [
            (f, f"{totals[f.won]} / {totals[f.name]}" if f.won else str(totals[f.name]))
            for f in shown(game, PLAYER)
        ]


# The player page shows the latest months of play (charts and the month table); all-time
# totals come from the "all" row. Bounded so the page costs the same after ten years as after one.
MONTHS_SHOWN = 24


def _month_index(month: str) -> int:
    return int(month[:4]) * 12 + int(month[5:7]) - 1


def _hidden(player: Player, visibility: Visibility) -> dict[tuple, dict]:
    """The player's hidden lines' counters by (game, month) and by game ("all"). Read for
    every player of the hidden sessions and picked out here, so that the query walks the
    session index only (bounded by the hidden tournaments), not the player's history."""
    out: dict[tuple, dict] = {}
    for game in Game.values:
        by_month = hidden_counters(visibility=visibility, game=game, by=("player_id", "month"))
        for (player_id, month), counters in by_month.items():
            if player_id != player.pk:
                continue
            out[(game, month.strftime("%Y-%m"))] = counters
            total = out.setdefault((game, "all"), dict.fromkeys(counters, 0))
            for name, value in counters.items():
                total[name] += value
    return out


def _hidden_bids(player: Player, visibility: Visibility) -> dict[tuple, dict]:
    if visibility.everything or not visibility.hidden_session_ids:
        return {}
    rows = (
        ScoreLine.objects.filter(
            role="napoleon", bid__isnull=False, session_id__in=visibility.hidden_session_ids
        )
        .values("player_id", "bid", "trump")
        .annotate(**{name: LINE_COUNTERS[name] for name in BID_COUNTERS})
        .order_by()
    )
    return {
        (row.pop("bid"), row.pop("trump")): row for row in rows if row.pop("player_id") == player.pk
    }


def player_stats(
    *, player: Player, visibility: Visibility, all_months: bool = False
) -> PlayerStats:
    """Two small queries: the all-time and latest months' rows, and the bid record; two more
    over the player's hidden lines when the reader may not see some deals. Cumulative points
    count back from the all-time total, so the window needs no history. ``all_months`` reads
    every month (one row per month played: still small)."""
    stats = PlayerStats(player=player, all_months=all_months)
    hidden = _hidden(player, visibility)
    rows = (
        StandingAggregate.objects.filter(player=player, deals__gt=0)
        .filter(Q(period="all") | Q(period__contains="-"))
        .order_by("-period")  # "all" sorts before "YYYY-MM" descending
        .values("game", "period", *COUNTER_NAMES)
    )
    if not all_months:
        rows = rows[: (MONTHS_SHOWN + 1) * len(Game.values) + 1]
    recent = []
    for row in rows:
        subtract(row, hidden.get((row["game"], row["period"])))
        if row["deals"] <= 0:
            continue
        if row["period"] == "all":
            stats.totals[row["game"]] = row
        else:
            recent.append((row["game"], row["period"], row["points"], row["deals"]))
    _months_add(stats, recent)
    _bids_add(stats, player, visibility)
    return stats


def _months_add(stats: PlayerStats, recent: list[tuple]) -> None:
    """The months shown (the latest ``MONTHS_SHOWN``, or all), each with its cumulative
    points counted back from the all-time total."""
    if recent and not stats.all_months:
        newest = _month_index(recent[0][1])
        kept = [r for r in recent if newest - _month_index(r[1]) < MONTHS_SHOWN]
        # Months left out of the window (or beyond the rows read): the page says so.
        stats.earlier = len(kept) < len(recent) or any(
            (stats.totals.get(g) or {}).get("deals", 0) > sum(r[3] for r in kept if r[0] == g)
            for g in stats.totals
        )
        recent = kept
    if recent:
        stats.since = min(r[1] for r in recent)
    months: dict[str, list[MonthRow]] = defaultdict(list)
    for game, period, points, deals in recent:
        months[game].append(MonthRow(period, game, points, deals))
    for game, rows in months.items():
        rows.sort(key=lambda r: r.month)
        running = (stats.totals.get(game) or {}).get("points", 0) - sum(r.points for r in rows)
        for r in rows:
            running += r.points
            r.cumulative = running
        stats.months[game] = rows


def _bids_add(stats: PlayerStats, player: Player, visibility: Visibility) -> None:
    """The player's record as the Napoleon by bid and by trump (hidden deals left out)."""
    bids: dict[int, BidRow] = {}
    trumps: dict[str, BidRow] = {}
    hidden_bids = _hidden_bids(player, visibility)
    for agg in BidAggregate.objects.filter(player=player).values("bid", "trump", *BID_COUNTERS):
        subtract(agg, hidden_bids.get((agg["bid"], agg["trump"])))
        if agg["deals"] <= 0:
            continue
        for bucket, key, label in (
            (bids, agg["bid"], str(agg["bid"])),
            (trumps, agg["trump"], SUIT_SYMBOLS.get(agg["trump"], agg["trump"])),
        ):
            row = bucket.setdefault(key, BidRow(label))
            for name in BID_COUNTERS:
                setattr(row, name, getattr(row, name) + agg[name])
    stats.by_bid = [bids[k] for k in sorted(bids)]
    stats.by_trump = [trumps[k] for k in "SHDC" if k in trumps]


def club_players(*, club, visibility: Visibility):
    """The club's players this reader may see (a player known only from a private tournament
    hidden from them is left out, as their page is), by name."""
    players = Player.objects.filter(club=club)
    if visibility.private_players:
        players = players.exclude(pk__in=visibility.hidden_players().values("pk"))
    return players.order_by("name", "pk")
