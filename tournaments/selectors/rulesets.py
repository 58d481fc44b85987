"""The one way a stored rule set becomes a pure ``rules.RuleSet``.

A club rule set (``ClubRuleSet``: a preset plus options) and a session's snapshot of it are both
built here, through one cache, so services, selectors, views and reports score under the same
rules. Building validates: an option that no longer checks raises the ``EfudaError`` naming it.
"""

import json
from functools import lru_cache

import rules

from ..models import ClubRuleSet, GameSession


@lru_cache(maxsize=256)
def _build(preset: str, options_json: str, code: str) -> "rules.RuleSet":
    return rules.build_ruleset(preset, json.loads(options_json), code=code)


def ruleset_snapshot(ruleset: ClubRuleSet) -> dict:
    """What a session keeps of its rule set, so later edits of the rule set never rescore it."""
    return {"preset": ruleset.preset, "options": ruleset.options or {}, "code": ruleset.code}


def rules_from_snapshot(snapshot: dict) -> "rules.RuleSet":
    options = json.dumps(snapshot.get("options") or {}, sort_keys=True)
    return _build(snapshot["preset"], options, snapshot.get("code") or snapshot["preset"])


def ruleset_rules(ruleset: ClubRuleSet) -> "rules.RuleSet":
    """A club rule set's rules as they stand now."""
    return rules_from_snapshot(ruleset_snapshot(ruleset))


def session_rules(session: GameSession) -> "rules.RuleSet":
    """The rules a session is scored under: its snapshot, taken when it was created."""
    return rules_from_snapshot(session.rules_snapshot)


def club_rules_by_code(*, club, code: str) -> "rules.RuleSet | None":
    """The rules a club plays under ``code``: its own rule set or, when it has none of that
    code, the preset; None for an unknown code. Reads only (printing a blank sheet for a preset
    creates no club rule set); raises the ``EfudaError`` of a stored rule set that no longer
    builds."""
    own = ClubRuleSet.objects.filter(club=club, code=code).first()
    if own is not None:
        return ruleset_rules(own)
    return rules.PRESETS.get(code)
