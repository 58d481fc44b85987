"""What the API answers and accepts about tournaments: the tournament with its rounds, tables
and seats, its standings, and a PIN holder's table token."""

from __future__ import annotations

import datetime

from ninja import Field, Schema


class TournamentOut(Schema):
    id: int
    club: str
    name: str
    date: datetime.date
    game: str
    is_public: bool
    rounds_planned: int
    finished: bool


class SeatPlayerOut(Schema):
    player_id: int
    name: str


class TableOut(Schema):
    id: int
    number: int
    label: str = Field(description='"R<round>-T<table>"')
    session_id: int | None = Field(description="the table's session (its deals), once started")
    seats: list[SeatPlayerOut] = Field(description="in seat order")


class RoundOut(Schema):
    number: int
    started_at: datetime.datetime | None
    finished_at: datetime.datetime | None
    tables: list[TableOut]
    sitouts: list[SeatPlayerOut]


class TournamentDetailOut(TournamentOut):
    rounds: list[RoundOut]


class TournamentRowOut(Schema):
    rank: int
    entry_id: int
    player_id: int
    name: str
    points: int
    rank_points: float
    adjustments: float
    table_wins: int
    rounds: int
    deals: int
    dropped_at_round: int | None
    total: float


class TournamentStandingsOut(Schema):
    tournament: int
    mode: str
    frozen_after: int | None = Field(
        description="a standings freeze: these standings stop after this round"
    )
    uncounted: int = Field(description="deals waiting for confirmation or disputed")
    rows: list[TournamentRowOut]


class PinIn(Schema):
    pin: str = Field(
        min_length=1, max_length=32, description="the PIN on the player's seating card"
    )
    seat: int | None = Field(None, ge=1, le=20, description="the player's seat (1-based)")


class TableTokenOut(Schema):
    token: str = Field(description="shown once: send it as Authorization: Bearer …")
    tournament: int
    table: int
    round: int
    player_id: int
