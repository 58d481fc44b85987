"""A synthetic club for the benchmark: several years, 45 players, Napoleon and Daifugō.

Synthetic deals are scored by the real scoring core: a pool of template deals is scored once
with placeholder player ids and stamped onto real players, so the stored outcomes, score lines
and aggregates are what the services would have written, at bulk-insert speed.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import random
from collections import defaultdict

from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone

from tournaments.models import (
    BidAggregate,
    Deal,
    GameSession,
    Player,
    ScoreLine,
    StandingAggregate,
)  # fmt: skip
from tournaments.selectors.rulesets import session_rules
from tournaments.services.bulk import insert_rows
from tournaments.services.cache import club_version_bump
from tournaments.services.clubs import club_create
from tournaments.services.members import membership_set
from tournaments.services.rulesets import ruleset_resolve
from tournaments.services.scoring_bridge import (
    LINE_COLUMNS,
    bid_counters,
    counters,
    line_specs,
    line_tuple,
    outcome_dict,
    periods,
    score,
)

PLAYERS = 45
SEATS = 5
DEALS_PER_SESSION = 20
YEARS = 4
NAPOLEON_SHARE = 0.6
CLOSING = "Z"  # table labels Z0, Z1 … of the closing-night sessions
PLACEHOLDERS = [str(900_001 + i) for i in range(SEATS)]  # ids no real player has in a bench DB
MEMBER = "bench-member"
SCOREKEEPER = "bench-scorekeeper"
DEAL_COLUMNS = ["id", "session_id", "club_id", "game", "seq", "redeal", "data", "outcome",
                "napoleon_id", "adjutant_id", "bid", "trump", "version", "client_id",
                "is_deleted", "created_by_id", "updated_by_id", "created_at",
                "updated_at"]  # fmt: skip


def bench_user(username: str):
    user, _created = get_user_model().objects.get_or_create(username=username)
    return user


def _remap(value, mapping: dict[str, str]):
    """Replace placeholder ids (as strings) anywhere in a JSON-like value."""
    if isinstance(value, str):
        return mapping.get(value, value)
    if isinstance(value, list):
        return [_remap(v, mapping) for v in value]
    if isinstance(value, dict):
        return {mapping.get(k, k): _remap(v, mapping) for k, v in value.items()}
    return value


class Template:
    """One scored deal over placeholder players, ready to be stamped onto real ones."""

    def __init__(self, game: str, data: dict, result):
        self.game = game
        self.data = data
        self.outcome = outcome_dict(game, result)
        self.specs = line_specs(game, data, result)

    def stamp(self, ids: list[int]):
        mapping = {p: str(i) for p, i in zip(PLACEHOLDERS, ids, strict=True)}
        by_placeholder = dict(zip(PLACEHOLDERS, ids, strict=True))
        data = _remap(self.data, mapping)
        for key in ("seats", "order", "forbidden"):
            if key in data:
                data[key] = [int(v) for v in data[key]]
        for key in ("napoleon", "adjutant"):
            if data.get(key):
                data[key] = int(data[key])
        specs = [
            (by_placeholder[str(s.player_id)],
             dataclasses.replace(s, player_id=by_placeholder[str(s.player_id)]))
            for s in self.specs
        ]  # fmt: skip
        return data, _remap(self.outcome, mapping), specs


def napoleon_templates(rules_, rng: random.Random, count: int) -> list[Template]:
    out = []
    while len(out) < count:
        nap = rng.randrange(SEATS)
        solo = rng.random() < 0.1
        adj = nap if solo else rng.choice([i for i in range(SEATS) if i != nap])
        bid = rng.choice([12, 13, 13, 14, 14, 15, 16])
        trump = rng.choice("SHDC")
        honours = max(0, min(20, bid + rng.randint(-4, 3)))
        data = {"seats": list(PLACEHOLDERS), "napoleon": PLACEHOLDERS[nap], "bid": bid,
                "trump": trump, "called": "SA" if trump != "S" else "HA",
                "adjutant": None if solo else PLACEHOLDERS[adj], "solo": solo, "honours": honours,
                "discarded": 0, "last_trick": None, "redeal": False}  # fmt: skip
        out.append(Template("napoleon", data, score("napoleon", data, rules_)))
    return out


def daifugo_templates(rules_, rng: random.Random, count: int) -> list[Template]:
    out = []
    while len(out) < count:
        order = list(PLACEHOLDERS)
        rng.shuffle(order)
        previous = rng.choice([None, *PLACEHOLDERS])
        data = {"order": order, "forbidden": [], "previous_daifugo": previous}
        out.append(Template("daifugo", data, score("daifugo", data, rules_)))
    return out


class Builder:
    """Bulk-writes sessions, deals, score lines and their aggregates for one synthetic club."""

    def __init__(self, size: int, seed: int = 4):
        self.size = size
        self.rng = random.Random(seed)
        self.deal_rows: list[tuple] = []
        self.line_rows: list[tuple] = []
        self.standing: dict[tuple, dict] = defaultdict(lambda: defaultdict(int))
        self.bids: dict[tuple, dict] = defaultdict(lambda: defaultdict(int))

    def build(self):
        """The club, its scorekeeper and how many score lines it has. Call inside a
        transaction: the history is written in bulk, by no service, so the version moves here."""
        self._club()
        club_version_bump(club_id=self.club.pk)
        self._templates()
        deals_total = self.size // SEATS
        sessions = self._sessions(max(2, deals_total // DEALS_PER_SESSION))
        self._deals(sessions, deals_total)
        insert_rows(Deal, DEAL_COLUMNS, self.deal_rows)
        insert_rows(ScoreLine, LINE_COLUMNS, self.line_rows)
        club = self.club
        StandingAggregate.objects.bulk_create(
            [StandingAggregate(club=club, game=g, period=p, player_id=pid, **values)
             for (g, p, pid), values in self.standing.items()], batch_size=2000)  # fmt: skip
        BidAggregate.objects.bulk_create(
            [BidAggregate(club=club, player_id=pid, bid=bid, trump=trump, **values)
             for (pid, bid, trump), values in self.bids.items()], batch_size=2000)  # fmt: skip
        return club, self.user, len(self.line_rows)

    def _club(self) -> None:
        """The club, its scorekeeper and member, its players and rule sets."""
        self.user = bench_user(SCOREKEEPER)
        self.club = club = club_create(slug="bench", name="ベンチ倶楽部", is_public=True)
        membership_set(club=club, user=self.user, role="scorekeeper")
        membership_set(club=club, user=bench_user(MEMBER), role="member")
        players = Player.objects.bulk_create(
            [
                Player(club=club, name=f"選手{i:02d}", name_key=f"選手{i:02d}")
                for i in range(PLAYERS)
            ]
        )
        self.ids = [p.id for p in players]
        self.rulesets = {
            g: ruleset_resolve(club=club, code=c, game=g)
            for g, c in (("napoleon", "napoleon-wiki"), ("daifugo", "daifugo-common"))
        }
        self.snapshots = {
            g: {"preset": r.preset, "options": r.options or {}, "code": r.code}
            for g, r in self.rulesets.items()
        }

    def _templates(self) -> None:
        self.templates = {}
        probe = GameSession(rules_snapshot=self.snapshots["napoleon"])
        self.templates["napoleon"] = napoleon_templates(session_rules(probe), self.rng, 200)
        probe = GameSession(rules_snapshot=self.snapshots["daifugo"])
        self.templates["daifugo"] = daifugo_templates(session_rules(probe), self.rng, 200)

    def _session(self, game: str, day, table: str) -> GameSession:
        return GameSession(club=self.club, game=game, date=day, table=table,
                           ruleset=self.rulesets[game], rules_snapshot=self.snapshots[game],
                           created_by=self.user)  # fmt: skip

    def _sessions(self, sessions_total: int) -> list[GameSession]:
        """The sessions over the years, then the closing night's."""
        rng = self.rng
        today = timezone.localdate()
        start = today - datetime.timedelta(days=365 * YEARS)
        span = (today - datetime.timedelta(days=1) - start).days
        days = sorted(
            start + datetime.timedelta(days=int(span * i / sessions_total))
            for i in range(sessions_total)
        )
        session_rows, per_day = [], defaultdict(int)
        for day in days:
            game = "napoleon" if rng.random() < NAPOLEON_SHARE else "daifugo"
            per_day[(game, day)] += 1
            session_rows.append(self._session(game, day, f"T{per_day[(game, day)]}"))
        # A closing night on the last day: every player sits at one of each game's closing
        # tables, so the month the bench reads has one row per player at every size and only
        # the history behind it grows.
        self.closing_tables = len(self.ids) // SEATS
        for game in ("napoleon", "daifugo"):
            for t in range(self.closing_tables):
                day = today - datetime.timedelta(days=1)
                session_rows.append(self._session(game, day, f"{CLOSING}{t}"))
        return GameSession.objects.bulk_create(session_rows, batch_size=2000)

    def _deals(self, sessions: list[GameSession], deals_total: int) -> None:
        """Every session's deals, stamped from the templates, in rows ready to insert."""
        rng, ids, closing_tables = self.rng, self.ids, self.closing_tables
        now = connection.ops.adapt_datetimefield_value(timezone.now())
        deal_id = (Deal.objects.order_by("-id").values_list("id", flat=True).first() or 0) + 1
        closing_deals = max(1, min(5, deals_total // (8 * closing_tables)))
        remaining = deals_total - 2 * closing_tables * closing_deals
        regular = len(sessions) - 2 * closing_tables
        for index, session in enumerate(sessions):
            closing = session.table.startswith(CLOSING)
            if closing:
                count = closing_deals
            else:
                count = remaining // (regular - index)
                remaining -= count
            table_players = rng.sample(ids, SEATS + 1)
            keys = periods(session.date)
            day_db = connection.ops.adapt_datefield_value(session.date)
            for seq in range(1, count + 1):
                if closing:
                    first = int(session.table[len(CLOSING) :]) * SEATS
                    seated = ids[first : first + SEATS]
                else:
                    seated = rng.sample(table_players, SEATS)
                template = rng.choice(self.templates[session.game])
                self._deal(deal_id, session, seq, template.stamp(seated), keys, day_db, now)
                deal_id += 1

    def _deal(self, deal_id: int, session, seq: int, stamped, keys, day_db, now) -> None:
        """One deal's row, its score lines and what they add to the aggregates."""
        data, outcome, specs = stamped
        club, user = self.club, self.user
        nap = session.game == "napoleon"
        self.deal_rows.append((
            deal_id, session.id, club.id, session.game, seq, False, json.dumps(data),
            json.dumps(outcome), data.get("napoleon") if nap else None,
            data.get("adjutant") if nap else None, data.get("bid") if nap else None,
            data.get("trump") or "" if nap else "", 1, None, False, user.id, user.id,
            now, now,
        ))  # fmt: skip
        for player_id, s in specs:
            self.line_rows.append((deal_id, session.id, club.id, session.game, day_db,
                                   *line_tuple(s)))  # fmt: skip
            for key, value in counters(s).items():
                for period in keys:
                    self.standing[(session.game, period, player_id)][key] += value
            bid = bid_counters(s)
            if bid is not None:
                b = self.bids[(player_id, s.bid, s.trump)]
                for counter, value in bid.items():
                    b[counter] += value
