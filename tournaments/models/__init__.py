"""efuda's data model. Import models from here: ``from tournaments.models import Deal``."""

from .accounts import ClaimStatus, Invitation, PlayerClaim, PlayerMerge
from .api import ApiIdempotencyKey, ApiTableToken, ApiToken, TokenScope
from .clubs import Club, ClubRuleSet, Membership, Player, Role, normalise_name
from .events import (  # noqa: E501
    Adjustment,
    CheckInHow,
    ConfirmationState,
    DealConfirmation,
    DrawMethod,
    PinAttempt,
    StandingsMode,
    Tournament,
    TournamentEntry,
    TournamentRound,
    TournamentTable,
)
from .feeds import FeedKey
from .imports import ImportJob
from .play import BidAggregate, Deal, Game, GameSession, ScoreLine, StandingAggregate
from .ratings import Rating, RatingHistory, RatingState
from .webhooks import DeliveryStatus, Webhook, WebhookDelivery
from .workers import WorkerBeat

__all__ = [
    "ApiIdempotencyKey",
    "ApiTableToken",
    "ApiToken",
    "TokenScope",
    "ClaimStatus",
    "Invitation",
    "PlayerClaim",
    "PlayerMerge",
    "Adjustment",
    "CheckInHow",
    "ConfirmationState",
    "DealConfirmation",
    "DrawMethod",
    "PinAttempt",
    "StandingsMode",
    "Tournament",
    "TournamentEntry",
    "TournamentRound",
    "TournamentTable",
    "BidAggregate",
    "Club",
    "ClubRuleSet",
    "Deal",
    "FeedKey",
    "Game",
    "GameSession",
    "ImportJob",
    "Membership",
    "Player",
    "Rating",
    "RatingHistory",
    "RatingState",
    "Role",
    "ScoreLine",
    "StandingAggregate",
    "Webhook",
    "WebhookDelivery",
    "DeliveryStatus",
    "WorkerBeat",
    "normalise_name",
]
