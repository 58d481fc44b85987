"""What the API answers and accepts, as pydantic schemas (the OpenAPI document is made from
them). A standing's fields come from ``standings_fields``, where they are defined once."""

from __future__ import annotations

import datetime
from typing import Literal

from ninja import Field, Schema
from pydantic import create_model, model_validator

from ..standings_fields import COUNTER_NAMES, RATES


class Problem(Schema):
    field: str | None
    code: str
    message: str


class ErrorOut(Problem):
    """The first problem, and every problem in ``errors``."""

    errors: list[Problem]


class ClubOut(Schema):
    slug: str
    name: str
    is_public: bool
    data_version: int
    games: list[str]


_ROW_FIELDS = {
    "rank": (int, ...),
    "player_id": (int, ...),
    "name": (str, ...),
    **{name: (int, ...) for name in COUNTER_NAMES},
    "qualified": (bool, ...),
    **{rate.name: (float | None, None) for rate in RATES},
}
# One player's standing: rank, who, every counter, and each rate (null under the minimum).
StandingRowOut = create_model("StandingRowOut", __base__=Schema, **_ROW_FIELDS)


class StandingsOut(Schema):
    club: str
    game: str
    period: str = Field(description='"all", a season "YYYY" or a month "YYYY-MM"')
    min_deals: int
    tiebreaks: list[str] = Field(description="the ranking's keys, in order of precedence")
    rows: list[StandingRowOut]


class SessionOut(Schema):
    id: int
    game: str
    date: datetime.date
    table: str
    rules: str
    deal_count: int = Field(description="live deals (deleted ones not counted)")


class SeatOut(Schema):
    player_id: int
    name: str
    points: int | None
    role: str = Field(description="napoleon, adjutant or ally; a Daifugō title code")
    position: int | None = Field(description="Daifugō: the place the player went out in")


class DealOut(Schema):
    id: int
    seq: int
    game: str
    version: int
    is_deleted: bool
    redeal: bool
    seats: list[SeatOut]
    explanation: list[str]
    napoleon: str = ""
    adjutant: str = ""
    solo: bool = False
    bid: int | None = None
    trump: str = ""
    called: str = ""
    won: bool | None = None


class TotalOut(Schema):
    rank: int
    player_id: int
    name: str
    points: int
    deals: int
    is_winner: bool


class SessionDetailOut(SessionOut):
    players: list[TotalOut] = Field(description="every player's points, best first")
    deals: list[DealOut] = Field(description="deal by deal, deleted ones marked")


class NapoleonDealIn(Schema):
    """The entry form's fields (tournaments/forms/entry.py), players by id."""

    seats: list[int] = Field(description="the players at the table, in seat order")
    redeal: bool = Field(False, description="流れ: nothing else is asked")
    napoleon: int | None = None
    bid: int | None = None
    trump: Literal["S", "H", "D", "C"] | None = None
    called_suit: Literal["S", "H", "D", "C", "JK"] | None = None
    called_rank: str | None = Field(None, max_length=2, description="A, K, Q, J, 10 … 2")
    adjutant: int | Literal["solo"] | None = Field(None, description='a player id or "solo"')
    honours: int | None = Field(None, ge=0, le=20)
    discarded: int | None = Field(None, ge=0, le=20)
    last_trick: Literal["napoleon", "allies"] | None = None


class DaifugoRoundIn(Schema):
    """The entry form's fields: the table's players, the order they went out (the last one may
    be left out) and who went out on a forbidden card."""

    players: list[int] = Field(default_factory=list)
    order: list[int]
    forbidden: list[int] = Field(default_factory=list)


class PlayerOut(Schema):
    id: int
    name: str
    active: bool


class MonthOut(Schema):
    month: str = Field(description='"YYYY-MM"')
    points: int
    deals: int
    cumulative: int = Field(description="all-time points at the end of the month")


class BidRecordOut(Schema):
    label: str = Field(description="the bid, or the trump's suit")
    deals: int
    wins: int
    solo_deals: int
    solo_wins: int
    points: int
    win_rate: float | None


class PlayerGameOut(Schema):
    game: str
    totals: dict[str, int] = Field(description="every all-time counter of standings_fields")
    months: list[MonthOut] = Field(description="the latest months played, oldest first")


class PlayerDetailOut(PlayerOut):
    games: list[PlayerGameOut]
    earlier: bool = Field(description="earlier months are left out of ``months``")
    by_bid: list[BidRecordOut] = Field(description="Napoleon: the player's record by bid")
    by_trump: list[BidRecordOut] = Field(description="Napoleon: the player's record by trump")


class PointRowOut(Schema):
    bid: int | None = Field(description="null: the row applies to every bid")
    napoleon: int
    adjutant: int
    ally: int
    solo_napoleon: int
    solo_ally: int


class PointTableOut(Schema):
    players: int
    rows: list[PointRowOut]


class RuleSetOut(Schema):
    code: str
    label: str
    game: str
    preset: str
    preset_label: str
    options: dict = Field(description="the club's changes to the preset")
    point_tables: list[PointTableOut] = Field(description="Napoleon: points of a win per "
                                              "player count (a loss flips every sign)")  # fmt: skip


class DealEditIn(Schema):
    """A correction: a Napoleon deal's fields or a Daifugō round's, as when it was posted.
    ``PUT`` sends all of them (what is left out is empty); ``PATCH`` only what changes."""

    @model_validator(mode="before")
    @classmethod
    def _an_object(cls, value):
        # django-ninja's schemas read attributes too: every field here being optional, a bare
        # string would otherwise pass as an empty correction (schemathesis sent one).
        if not isinstance(getattr(value, "_obj", value), dict):
            raise ValueError("a JSON object is expected")
        return value

    seats: list[int] | None = None
    redeal: bool | None = None
    napoleon: int | None = None
    bid: int | None = None
    trump: Literal["S", "H", "D", "C"] | None = None
    called_suit: Literal["S", "H", "D", "C", "JK"] | None = None
    called_rank: str | None = Field(None, max_length=2)
    adjutant: int | Literal["solo"] | None = None
    honours: int | None = Field(None, ge=0, le=20)
    discarded: int | None = Field(None, ge=0, le=20)
    last_trick: Literal["napoleon", "allies"] | None = None
    players: list[int] | None = None
    order: list[int] | None = None
    forbidden: list[int] | None = None
