"""Sessions: one table's deals on one day under one rule set."""

from django.db import IntegrityError, transaction

from ..models import Club, ClubRuleSet, GameSession
from .errors import fail
from .names import clean_name
from .rulesets import ruleset_snapshot


def session_create(
    *, club: Club, ruleset: ClubRuleSet, date, table: str = "A", user=None, notes: str = ""
) -> GameSession:
    table = clean_name(table, field="table")[:40] or "A"
    ruleset.to_rules()  # a rule set that no longer validates cannot start a session
    game = ruleset.game
    try:
        with transaction.atomic():
            return GameSession.objects.create(
                club=club,
                game=game,
                date=date,
                table=table,
                ruleset=ruleset,
                rules_snapshot=ruleset_snapshot(ruleset),
                notes=notes,
                created_by=user if getattr(user, "is_authenticated", False) else None,
            )
    except IntegrityError:
        raise fail("table", "session_exists", game=game, table=table, date=str(date)) from None
