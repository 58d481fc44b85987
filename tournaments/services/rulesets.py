"""Club rule sets: saving a preset plus validated options, and finding one by its code.

Turning a stored rule set into a pure ``rules.RuleSet`` is a read: ``selectors/rulesets.py``.
"""

from django.db import transaction
from django.utils.text import slugify

import rules
from core.errors import EfudaError

from ..models import Club, ClubRuleSet, Game
from .cache import club_version_bump
from .errors import fail
from .names import clean_name


def ruleset_code_for(*, club: Club, name: str, preset: str) -> str:
    """A code for a new rule set, made from its name (the address imports and files use):
    ``ハウスルール`` has no Latin letters, so it becomes ``napoleon-wiki-house``, then
    ``…-house-2`` if taken; ``Friday rules`` becomes ``friday-rules``."""
    base = slugify(name)[:40].strip("-") or f"{preset}-house"
    if base in rules.PRESETS:
        base = f"{base}-house"
    code, n = base, 1
    while ClubRuleSet.objects.filter(club=club, code=code).exists():
        n += 1
        code = f"{base}-{n}"
    return code


@transaction.atomic
def ruleset_save(
    *, club: Club, code: str = "", preset: str, options: dict | None = None, name: str = ""
) -> ClubRuleSet:
    """Create or change a club rule set; the options are validated by ``rules`` first. Without
    a ``code`` a new rule set gets one made from its name."""
    options = options or {}
    name = clean_name(name, field="name")
    if not code:
        if not name:
            raise fail("name", "ruleset_name_needed")
        code = ruleset_code_for(club=club, name=name, preset=preset)
    rules.build_ruleset(preset, options, code=code)  # raises EfudaError naming the option
    club_version_bump(club_id=club.pk)
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
        with transaction.atomic():
            club_version_bump(club_id=club.pk)
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
