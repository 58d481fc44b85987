"""efuda's data model. Import models from here: ``from tournaments.models import Deal``."""

from .clubs import Club, ClubRuleSet, Membership, Player, Role, normalise_name
from .play import BidAggregate, Deal, Game, GameSession, ScoreLine, StandingAggregate

__all__ = [
    "BidAggregate",
    "Club",
    "ClubRuleSet",
    "Deal",
    "Game",
    "GameSession",
    "Membership",
    "Player",
    "Role",
    "ScoreLine",
    "StandingAggregate",
    "normalise_name",
]
