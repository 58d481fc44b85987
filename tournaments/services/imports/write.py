"""Writing: the checked file as database rows, inserted in one short transaction.

Sessions, deals and score lines are prepared as database parameters before the transaction
opens (``prepare``); inside it (``write``) only bulk inserts run (each deal's history row copied
by the database from the deal row just written: ``bulk.Table.insert_copy``), and the
standings aggregates, summed once per player and period, are added with one upsert each
(``INSERT … ON CONFLICT DO UPDATE SET c = c + excluded.c``), last, so a deal saved meanwhile
waits for a moment at most.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from ...models import (
    BidAggregate,
    Club,
    ClubRuleSet,
    Deal,
    GameSession,
    Player,
    ScoreLine,
    StandingAggregate,
)
from ...selectors.rulesets import ruleset_snapshot
from .. import bulk
from ..busy import bulk_write
from ..cache import club_version_bump
from ..ratings import ratings_lines_changed
from ..scoring_bridge import BID_COUNTERS, LINE_COLUMNS, deal_columns, periods
from .check import Checked, Rules, Scored, existing_sessions
from .problems import ChangedError
from .rows import Names


@dataclass
class Plan:
    """Everything the write transaction inserts, already converted for the database."""

    sessions: list[tuple[GameSession, Rules]]
    players: bulk.Table
    deals: bulk.Table
    lines: bulk.Table
    history: bulk.Table
    standing: dict
    bids: dict
    new_players: dict[str, str]  # name -> key
    named: set[int] = field(default_factory=set)  # every player id the score lines name
    new_ids: set[int] = field(default_factory=set)  # the ids of the players it creates
    deal_count: int = 0
    redeals: int = 0
    keep: list[int] = field(default_factory=list)  # the deal's columns its history row copies
    history_own: tuple = ()  # the history row's own: when, "+" (created), by whom


_DEAL_COLUMNS = ("id", "session_id", "club_id", "game", "seq", "data", "outcome",
                 "created_by_id", "updated_by_id", "napoleon_id", "adjutant_id", "bid", "trump",
                 "redeal", "created_at", "updated_at")  # fmt: skip
_LINE_COLUMNS = LINE_COLUMNS
_BID_COUNTERS = frozenset(BID_COUNTERS)
_SESSION_COLUMNS = ("id", "club_id", "game", "date", "table", "ruleset_id", "rules_snapshot",
                    "created_by_id", "notes")  # fmt: skip


def _empty_plan(names: Names) -> Plan:
    """The plan's tables, and which of a deal's columns its history row copies (``keep``)."""
    history_model = Deal.history.model
    tracked = {f.attname for f in history_model.tracked_fields}
    # The history row copies the deal's tracked fields; the rest are the history's own.
    history_columns = [c for c in _DEAL_COLUMNS if c in tracked]
    keep = [i for i, c in enumerate(_DEAL_COLUMNS) if c in tracked]
    history_columns += ["history_date", "history_type", "history_user_id"]
    plan = Plan(
        sessions=[], players=bulk.Table(Player, ("id", "club_id", "name", "name_key")),
        deals=bulk.Table(Deal, _DEAL_COLUMNS), lines=bulk.Table(ScoreLine, _LINE_COLUMNS),
        history=bulk.Table(history_model, history_columns),
        standing=defaultdict(lambda: defaultdict(int)), bids=defaultdict(lambda: defaultdict(int)),
        new_players=dict(names.new), keep=keep,
    )  # fmt: skip
    return plan


class _Rows:
    """Adds a session's deals and score lines to the plan. Values shared by many rows are
    converted for the database once; each deal's JSON is encoded once and its outcome's stamped
    from its shape's (``shapes``); its history row is copied from it in the write."""

    def __init__(self, plan: Plan, club_id: int, game: str, user_id, now):
        self.plan, self.club_id = plan, club_id
        self.game, self.user_id = game, user_id
        self.now_db = plan.deals.adapt("created_at", now)
        plan.history_own = (plan.history.adapt("history_date", now), "+", user_id)
        self.encode = json.JSONEncoder().encode

    def session_add(self, session_id: int, day, deals: list[Scored], deal_ids: dict) -> dict:
        """The session's rows; returns its standings counters summed per player. A line's
        counters come with its deal's shape: the lines are counted per (player, kind of line)
        and each kind's counters added once per player (``_sums``)."""
        plan, game, club_id, user_id = self.plan, self.game, self.club_id, self.user_id
        now_db, encode = self.now_db, self.encode
        deals_add = plan.deals.add_adapted
        lines_rows = plan.lines.rows
        tail = plan.lines.tail
        counted: Counter = Counter()  # (player id, shape line) -> how many
        day_db = plan.lines.adapt("date", day)
        for seq, item in enumerate(deals, start=1):
            deal_id = deal_ids[item.row.line]
            d = deal_columns(game, item.data)
            values = (deal_id, session_id, club_id, game, seq, encode(item.data),
                      item.shape.outcome_json(item.keys), user_id, user_id, d["napoleon_id"],
                      d["adjutant_id"], d["bid"], d["trump"], d["redeal"], now_db,
                      now_db)  # fmt: skip
            deals_add(values)  # its history row is copied from it (``write``)
            plan.deal_count += 1
            plan.redeals += int(d["redeal"])
            head = (deal_id, session_id, club_id, game, day_db)
            ids = [int(k) for k in item.keys]
            for line in item.shape.lines:
                player_id = ids[line.who]
                lines_rows.append((*head, player_id, *line.rest, *tail))
                counted[(player_id, line)] += 1
        return self._sums(counted)

    def _sums(self, counted: Counter) -> dict:
        plan = self.plan
        sums: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        for (player_id, line), n in counted.items():
            plan.named.add(player_id)
            player_sums = sums[player_id]
            for counter, value in line.counted:
                player_sums[counter] += value * n
            if line.bid is not None:
                b = plan.bids[(player_id, *line.bid)]
                for counter, value in line.counted:
                    if counter in _BID_COUNTERS:
                        b[counter] += value * n
        return sums


def _standing_add(standing: dict, day, sums: dict) -> None:
    """Standings: summed per player over the session (one day), then added to its periods."""
    for period in periods(day):
        for player_id, player_sums in sums.items():
            total = standing[(period, player_id)]
            for counter, value in player_sums.items():
                total[counter] += value


def prepare(club: Club, checked: Checked, user) -> Plan:
    """Every row the write inserts, with the ids reserved for it."""
    game, scored, resolved = checked.game, checked.scored, checked.resolved
    names, ids = checked.names, checked.ids
    user = user if getattr(user, "is_authenticated", False) else None
    user_id = user.pk if user else None
    session_ids = iter(bulk.reserve_ids(GameSession, len(scored)))
    # Deal ids follow the file's lines (not its sessions): a club's history is ordered by date
    # and then by deal id (ratings learn in that order), so the file's order is kept.
    lines = sorted(item.row.line for deals in scored.values() for item in deals)
    deal_ids = dict(zip(lines, bulk.reserve_ids(Deal, len(lines)), strict=True))
    plan = _empty_plan(names)
    for name, key in names.new.items():
        plan.players.add(ids[name], club.pk, name, key)
        plan.new_ids.add(ids[name])
    rows = _Rows(plan, club.pk, game, user_id, timezone.now())
    for (day, table), deals in scored.items():
        rules_plan, group = resolved[(day, table)]
        session = GameSession(id=next(session_ids), club=club, game=game, date=day, table=table,
                              rules_snapshot=rules_plan.snapshot, created_by=user,
                              notes=group[0].notes)  # fmt: skip
        plan.sessions.append((session, rules_plan))
        sums = rows.session_add(session.id, day, deals, deal_ids)
        _standing_add(plan.standing, day, sums)
    return plan


def _club_locked(club: Club) -> None:
    if connection.vendor == "postgresql":
        # Foreign keys are checked row by row as the rows go in, not all at COMMIT: the rows
        # the club's deals also lock (aggregates, the club's data version) are written last and
        # held only for the moment until COMMIT.
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            # The club row first (what the sessions' foreign keys lock anyway), before any
            # player: a merge locks the club row, then its players (services/merge.py). A
            # key-share lock: a deal's FOR NO KEY UPDATE does not wait for it.
            cursor.execute(
                f"SELECT 1 FROM {connection.ops.quote_name(Club._meta.db_table)} "  # noqa: S608
                "WHERE id = %s FOR KEY SHARE",
                [club.pk],
            )


def _unchanged(club: Club, game: str, plan: Plan) -> None:
    """``ChangedError`` if a player or session the check counted on changed since."""
    if (
        plan.new_players
        and Player.objects.filter(club=club, name_key__in=list(plan.new_players.values())).exists()
    ):
        raise ChangedError
    # Score lines have no foreign-key constraint: the club's players they name are locked as
    # the constraint's checks would have locked them, once each instead of once a line.
    existing = plan.named - plan.new_ids
    if bulk.players_locked(existing) != existing:
        raise ChangedError  # a player was merged or removed since the check
    wanted = {(s.date, s.table) for s, _rules in plan.sessions}
    if existing_sessions(club, game, wanted):
        raise ChangedError


def _rulesets_set(club: Club, plan: Plan) -> None:
    """Each session's rule set: the club's, unchanged since the check, or created now."""
    rulesets: dict[str, ClubRuleSet] = {}
    # A rule set the club does not have yet is created as the file's last session of its code
    # describes it (the latest the file knows); each session keeps its own snapshot.
    latest = {r.code: r for _s, r in plan.sessions if r.existing is None}
    for session, rules_plan in plan.sessions:
        code = rules_plan.code
        if code not in rulesets:
            current = ClubRuleSet.objects.filter(club=club, code=code).first()
            if current is None and rules_plan.existing is None:
                last = latest[code]
                current = ClubRuleSet.objects.create(club=club, code=code,
                                                     preset=last.snapshot["preset"],
                                                     options=last.snapshot["options"],
                                                     name=last.name)  # fmt: skip
            elif (
                current is None
                or rules_plan.existing is None
                or ruleset_snapshot(current) != rules_plan.seen
            ):
                raise ChangedError
            rulesets[code] = current
        session.ruleset = rulesets[code]


def _aggregates_add(club: Club, game: str, plan: Plan) -> None:
    bulk.upsert_add(
        StandingAggregate, keys=("club", "game", "period", "player"),
        counters=StandingAggregate.COUNTERS,
        rows=sorted(
            (club.pk, game, period, player_id, *(c.get(n, 0) for n in StandingAggregate.COUNTERS))
            for (period, player_id), c in plan.standing.items()
        ),
    )  # fmt: skip
    bulk.upsert_add(
        BidAggregate, keys=("player", "bid", "trump"), fixed=("club",), counters=BID_COUNTERS,
        rows=sorted((pid, bid, trump, club.pk, *(c[n] for n in BID_COUNTERS))
                    for (pid, bid, trump), c in plan.bids.items()),
    )  # fmt: skip


def _players_insert(plan: Plan) -> None:
    """The players the file names first. Another import creating one of them meanwhile (a
    name the check found new) made this one wait for its commit: ``ChangedError``, so the
    file is checked again, once, against the players as they are now."""
    try:
        plan.players.insert()
    except IntegrityError:
        raise ChangedError from None


@transaction.atomic
def write(club: Club, game: str, plan: Plan, committed=None) -> None:
    """The one short transaction: re-check what may have changed, then bulk inserts only;
    ``committed()`` last, so that what it writes commits with the rows or not at all."""
    _club_locked(club)
    _unchanged(club, game, plan)
    _rulesets_set(club, plan)
    sessions = bulk.Table(GameSession, _SESSION_COLUMNS)
    for session, _rules in plan.sessions:
        sessions.add(*(getattr(session, name) for name in _SESSION_COLUMNS))
    _players_insert(plan)
    sessions.insert()
    plan.deals.insert()
    plan.lines.insert()
    # Each deal's history row ("+", created), copied from the deal rows just written.
    plan.history.insert_copy(plan.deals, plan.keep, plan.history_own)
    # Last, so rows a concurrent deal also updates are held for the shortest time, and in a
    # deal's lock order: the club row, the aggregates, the club's rating state.
    club_version_bump(club_id=club.pk)  # cached read pages of the club render anew
    _aggregates_add(club, game, plan)
    # The club's ratings are replayed after COMMIT; a replay computed meanwhile from the old
    # score lines must not be written.
    ratings_lines_changed(club_id=club.pk, game=game)
    if committed is not None:
        committed()


def plan_write(club: Club, game: str, plan: Plan, committed=None) -> None:
    """``write``, the big tables copied aside first on SQLite (holding no lock, services/bulk.py)
    and the copies dropped after, whatever happened."""
    tables = (plan.players, plan.deals, plan.lines)
    try:
        for table in tables:  # SQLite: copied aside first, holding no lock (services/bulk.py)
            table.stage()
        with bulk_write():  # SQLite: a deal saved meanwhile waits only briefly (busy.py)
            write(club, game, plan, committed)
    finally:
        for table in tables:  # after a failure: the staged copies go too
            table.unstage()
