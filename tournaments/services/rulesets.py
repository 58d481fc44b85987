"""Club rule sets: saving a preset plus validated options, and finding one by its code.

Turning a stored rule set into a pure ``rules.RuleSet`` is a read: ``selectors/rulesets.py``.
"""

from django.db import transaction

import rules
from core.errors import EfudaError

from ..models import Club, ClubRuleSet, Game
from .errors import fail
from .names import clean_name


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
