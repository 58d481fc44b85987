"""Score lines: their fields are listed once (scoring_bridge.LineSpec) and round-trip through the
database; Daifugō titles come from ``rules``; rule sets are built one way."""

import datetime

import pytest

import rules
from tests import factories
from tournaments.models import ClubRuleSet, ScoreLine
from tournaments.selectors.rulesets import ruleset_rules, ruleset_snapshot, session_rules
from tournaments.services.aggregates import spec_of
from tournaments.services.deals import deal_record
from tournaments.services.rulesets import ruleset_save
from tournaments.services.scoring_bridge import SCORE_LINE_FIELDS, LineSpec, counters


def test_every_line_field_is_a_score_line_column():
    columns = {f.name for f in ScoreLine._meta.get_fields()} | {"player_id"}
    assert len(SCORE_LINE_FIELDS) == 13
    assert set(SCORE_LINE_FIELDS) <= columns, set(SCORE_LINE_FIELDS) - columns


@pytest.mark.django_db
def test_stored_lines_read_back_as_the_specs_they_were_written_from(daifugo_session, players):
    order = [p.id for p in players[:5]]
    deal = deal_record(session=daifugo_session, data={"order": order})
    lines = list(deal.lines.order_by("position"))
    specs = [spec_of(line) for line in lines]
    assert [s.role for s in specs] == list(rules.daifugo_titles(5))
    assert [s.player_id for s in specs] == order  # nobody fell (first round of the session)
    assert [s.seat for s in specs] == [1, 2, 3, 4, 5]
    assert sum(s.points for s in specs) == 0


@pytest.mark.parametrize("title", rules.TITLES)
def test_every_daifugo_title_counts_in_its_aggregate_column(title):
    spec = LineSpec(player_id=1, seat=1, points=0, role=title, position=1)
    assert counters(spec)[f"title_{title}"] == 1


@pytest.mark.django_db
def test_a_club_rule_set_and_its_session_snapshot_build_the_same_rules(club):
    ruleset = factories.ClubRuleSetFactory(
        club=club, code="house", preset="napoleon-wiki", options={"min_bid": 12}
    )
    session = factories.session(club=club, ruleset=ruleset, date=datetime.date(2026, 11, 20))
    built = rules.build_ruleset("napoleon-wiki", {"min_bid": 12}, code="house")
    assert ruleset_rules(ruleset) == built == session_rules(session)
    # Editing the club rule set later leaves the session's rules alone.
    ruleset_save(club=club, code="house", preset="napoleon-wiki", options={"min_bid": 11})
    ruleset.refresh_from_db()
    assert ruleset_rules(ruleset) != session_rules(session)
    assert ruleset_snapshot(ruleset)["options"] == {"min_bid": 11}


def test_club_rule_sets_have_no_second_builder():
    assert not hasattr(ClubRuleSet, "to_rules")
