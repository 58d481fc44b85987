"""The seating draw: pure Python, no Django (a test enforces it).

Like Tabbycat's ``draw/generator``, it works on plain player keys (any hashable, usually the
player id) and a history of earlier rounds, and returns a ``Draw``: tables of keys in seat
order plus the players who sit this round out. ``tournaments.services.events`` is the one
bridge that feeds it from the database. See ``docs/tournaments.md`` for the algorithm.
"""

from .errors import DrawUserError
from .generator import METHODS, Draw, History, PastRound, make_draw, repeat_count
from .plan import Plan, plain_annealing, plan_rounds, plan_to_json, planned_round
from .sizes import choose_sizes, preferred_size

__all__ = [
    "METHODS", "Draw", "DrawUserError", "History", "PastRound", "Plan", "choose_sizes",
    "make_draw", "plain_annealing", "plan_rounds", "plan_to_json", "planned_round",
    "preferred_size", "repeat_count",
]  # fmt: skip
