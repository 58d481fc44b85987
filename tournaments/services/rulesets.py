"""Club rule sets: a preset plus validated overrides, and the rules a session was played under."""

import json
from functools import lru_cache

from django.db import transaction

import rules
from core.errors import EfudaError

from ..models import Club, ClubRuleSet, Game, GameSession
from .errors import fail
from .names import clean_name


@lru_cache(maxsize=256)
def _build(preset: str, options_json: str, code: str) -> "rules.RuleSet":
    return rules.build_ruleset(preset, json.loads(options_json), code=code)


def rules_from_snapshot(snapshot: dict) -> "rules.RuleSet":
    options = json.dumps(snapshot.get("options") or {}, sort_keys=True)
    return _build(snapshot["preset"], options, snapshot.get("code") or snapshot["preset"])


def session_rules(session: GameSession) -> "rules.RuleSet":
    """The rules a session is scored under: its snapshot, taken when it was created."""
    return rules_from_snapshot(session.rules_snapshot)


def ruleset_snapshot(ruleset: ClubRuleSet) -> dict:
    return {"preset": ruleset.preset, "options": ruleset.options or {}, "code": ruleset.code}


@transaction.atomic
def ruleset_save(
    *, club: Club, code: str, preset: str, options: dict | None = None, name: str = ""
) -> ClubRuleSet:
    """Create or change a club rule set; the options are validated by ``rules`` first."""
    options = options or {}
    name = clean_name(name, field="name")
    rules.build_ruleset(preset, options, code=code)  # raises EfudaError naming the option
    ruleset, _created = ClubRuleSet.objects.update_or_create(
        club=club, code=code, defaults={"preset": preset, "options": options, "name": name}
    )
    return ruleset


def ruleset_resolve(*, club: Club, code: str, game: str | None = None) -> ClubRuleSet:
    """A club rule set by code; a bare preset code gets a club rule set of its own on first use."""
    code = (code or "").strip()
    ruleset = ClubRuleSet.objects.filter(club=club, code=code).first()
    if ruleset is None:
        try:
            preset = rules.get_preset(code)
        except EfudaError:
            raise fail("rules", "ruleset_unknown", code=code) from None
        ruleset, _created = ClubRuleSet.objects.get_or_create(
            club=club, code=code, defaults={"preset": preset.code, "name": preset.name_ja}
        )
    if game is not None and ruleset.game != game:
        raise fail(
            "rules",
            "ruleset_game",
            code=code,
            expected=str(Game(ruleset.game).label),
            game=str(Game(game).label),
        )
    return ruleset
