"""The standings fields are defined once (``tournaments/standings_fields.py``): what each kind of
score line adds is pinned here line by line, and every reader of the counters (the model, the
aggregates' writers, the SQL sums, the rows, the ranking, the CSV, the table, the PDF and the
player page) is held to the definition. A counter added there shows everywhere it says; the
only other change it needs is its model column (and migration), which the first test asks for."""

import dataclasses
import re

import pytest
from django.db import models
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from tests.hardening.helpers import build_club, daifugo_data
from tournaments import exports, ranking
from tournaments.models import BidAggregate, Game, StandingAggregate
from tournaments.reports import standings as standings_report
from tournaments.selectors.players import BidRow
from tournaments.selectors.standings import LINE_COUNTERS, Period, StandingRow, standings
from tournaments.selectors.visibility import Visibility
from tournaments.services.deals import deal_record
from tournaments.services.scoring_bridge import BID_COUNTERS, LineSpec, bid_counters, counters
from tournaments.standings_fields import (
    COUNTER_NAMES,
    COUNTERS,
    FIELDS,
    FILE,
    PLAYER,
    RATES,
    ROUNDS,
    TABLE,
    Counter,
    shown,
)

GAMES = (Game.NAPOLEON, Game.DAIFUGO)


def line(role, points=0, **flags):
    return LineSpec(player_id=1, seat=1, points=points, role=role, **flags)


LINES = [
    (line("napoleon", 6, won=True, bid=14, trump="S"),
     {"points": 6, "deals": 1, "wins": 1, "napoleon_deals": 1, "napoleon_wins": 1}),
    (line("napoleon", -4, won=False, bid=13, trump="H", solo=True),
     {"points": -4, "deals": 1, "napoleon_deals": 1, "solo_deals": 1}),
    (line("napoleon", 8, won=True, bid=13, trump="H", solo=True),
     {"points": 8, "deals": 1, "wins": 1, "napoleon_deals": 1, "napoleon_wins": 1,
      "solo_deals": 1, "solo_wins": 1}),
    (line("adjutant", 2, won=True),
     {"points": 2, "deals": 1, "wins": 1, "adjutant_deals": 1, "adjutant_wins": 1}),
    (line("adjutant", -2, won=False, plan_b=True),
     {"points": -2, "deals": 1, "adjutant_deals": 1, "plan_b_suffered": 1}),
    (line("napoleon", -3, won=False, plan_b=True, bid=16, trump="C"),
     {"points": -3, "deals": 1, "napoleon_deals": 1, "plan_b_suffered": 1}),
    (line("ally", 1, won=True, plan_b=True), {"points": 1, "deals": 1, "wins": 1,
                                              "plan_b_inflicted": 1}),
    (line("ally", -1, won=False, solo=True), {"points": -1, "deals": 1}),
    (line("daifugo", 2, position=1), {"points": 2, "deals": 1, "title_daifugo": 1}),
    (line("fugo", 1, position=2), {"points": 1, "deals": 1, "title_fugo": 1}),
    (line("heimin", 0, position=3), {"deals": 1, "title_heimin": 1}),
    (line("hinmin", -1, position=4, miyako_ochi=True),
     {"points": -1, "deals": 1, "title_hinmin": 1, "miyako_ochi": 1}),
    (line("daihinmin", -2, position=5, forbidden=True),
     {"points": -2, "deals": 1, "title_daihinmin": 1, "forbidden": 1}),
]  # fmt: skip


@pytest.mark.parametrize(("spec", "expected"), LINES)
def test_what_one_score_line_adds(spec, expected):
    assert counters(spec) == expected


def test_the_napoleons_own_line_adds_to_the_bid_record():
    won_solo = line("napoleon", 8, won=True, bid=13, trump="H", solo=True)
    assert bid_counters(won_solo) == {
        "points": 8, "deals": 1, "wins": 1, "solo_deals": 1, "solo_wins": 1
    }  # fmt: skip
    lost = line("napoleon", -4, won=False, bid=15, trump="S")
    assert bid_counters(lost) == dict.fromkeys(BID_COUNTERS, 0) | {"points": -4, "deals": 1}
    assert bid_counters(line("adjutant", 2, won=True, bid=13, trump="S")) is None
    assert bid_counters(line("napoleon", 0)) is None  # no bid: a redeal's line never counts


def test_every_counter_is_pinned_by_a_line_above():
    assert {name for _spec, expected in LINES for name in expected} == set(COUNTER_NAMES)


# --- the definition itself ------------------------------------------------------------------


def test_the_definition_is_consistent():
    names = [f.name for f in FIELDS]
    assert len(names) == len(set(names))
    for f in FIELDS:
        assert f.game in (None, *GAMES), f.name
        assert set(f.places) <= {FILE, TABLE, PLAYER}, f.name
        if isinstance(f, Counter):
            assert (f.lines is None) != (f.total is None), f"{f.name}: lines or a total"
            assert f.won is None or f.won in COUNTER_NAMES, f.name
    for rate in RATES:
        assert set(rate.of) <= set(COUNTER_NAMES), rate.name


def test_every_heading_has_its_japanese():
    """A new field's headings need their Japanese (locale/ja) before a page can show them."""
    texts = {t for f in FIELDS if not f.term for t in (f.label, f.short, f.fact, f.hint) if t}
    texts |= set(ROUNDS.values())
    with translation.override("ja"):
        untranslated = sorted(t for t in texts if gettext(t) == t)
    assert not untranslated


# --- every reader of the counters reads them all ---------------------------------------------


def test_the_models_columns_are_the_defined_counters():
    """The one change besides the definition: a counter's column (and its migration)."""
    keys = {"id", "club", "game", "period", "player"}
    columns = [f for f in StandingAggregate._meta.concrete_fields if f.name not in keys]
    assert [f.name for f in columns] == list(COUNTER_NAMES) == list(StandingAggregate.COUNTERS)
    for counter, column in zip(COUNTERS, columns, strict=True):
        # A sum of points may fall below zero; a count never does.
        kind = models.IntegerField if counter.total else models.PositiveIntegerField
        assert type(column) is kind and column.default == 0, counter.name
    bid_keys = {"id", "club", "player", "bid", "trump"}
    bid_columns = {f.name for f in BidAggregate._meta.concrete_fields} - bid_keys
    assert bid_columns == set(BID_COUNTERS)


def test_the_sums_rows_and_ranking_read_every_counter():
    assert list(LINE_COUNTERS) == list(COUNTER_NAMES)
    row_fields = [f.name for f in dataclasses.fields(StandingRow)]
    assert row_fields == ["rank", "player_id", "name", *COUNTER_NAMES, "qualified"]
    row = StandingRow(rank=1, player_id=1, name="A", points=5, deals=4, napoleon_deals=3,
                      napoleon_wins=2)  # fmt: skip
    assert (row.average, row.win_rate) == (1.25, 66.7)
    assert {f.name for f in dataclasses.fields(BidRow)} >= set(BID_COUNTERS)
    for counter in COUNTERS:
        metric = ranking.METRICS[counter.name]
        assert metric.higher_is_better == counter.higher_is_better, counter.name
        assert metric.value({counter.name: 3}) == 3


@pytest.fixture
def played(db):
    """A public club with both games played, every counter above zero for someone."""
    club, players, _nap, dai = build_club(deals=14, public=True)
    ids = [p.id for p in players]
    for n in range(6):
        deal_record(session=dai, data=daifugo_data(ids, n=n, forbidden=[ids[n % 5]]))
    return club, players


def _standings(club, game):
    visibility = Visibility(club_id=club.id)
    return standings(club=club, game=game, period=Period("all"), visibility=visibility)


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html)).strip()


@pytest.mark.parametrize("game", GAMES)
def test_the_standings_file_has_a_column_for_each_field(played, game):
    club, _players = played
    result = _standings(club, game)
    fields = shown(game, FILE)
    with translation.override("ja"):  # the header: the words of the active language
        rows = list(exports.standings_rows(result))
    for row, values in zip(result.rows, rows[1:], strict=True):
        assert values[2:] == [
            "" if getattr(row, f.name) is None else getattr(row, f.name) for f in fields
        ]
    labels = rows[0]
    for f, label in zip(fields, labels[2:], strict=True):
        assert label == (f.label if f.term else gettext(f.label)), f.name


@pytest.mark.parametrize("game", GAMES)
def test_the_standings_table_has_a_column_for_each_field(client, played, game):
    club, _players = played
    fields = shown(game, TABLE)
    response = client.get(reverse("standings_all", args=[club.slug, game]))
    html = response.content.decode()
    sorts = re.findall(r'<th[^>]*>\s*<a href="\?sort=([a-z0-9_]+)"', html)
    assert sorts == ["rank", "name", *(f.name for f in fields)]
    body = html[html.index("<tbody>") : html.index("</tbody>")]
    rows = re.findall(r"<tr>(.*?)</tr>", body, re.S)
    result = _standings(club, game)
    assert len(rows) == len(result.rows) > 0
    for row, cells in zip(result.rows, rows, strict=True):
        texts = [_text(td) for td in re.findall(r"<td[^>]*>(.*?)</td>", cells, re.S)]
        assert texts[2:] == row.cells(fields)
        assert len(texts) == 2 + len(fields)


@pytest.mark.parametrize("game", GAMES)
def test_the_standings_pdf_has_a_column_for_each_field(monkeypatch, played, game):
    club, _players = played
    rendered = {}
    monkeypatch.setattr(
        standings_report, "render_pdf",
        lambda template, context: rendered.setdefault("html", render_to_string(template, context)),
    )  # fmt: skip
    result = _standings(club, game)
    with translation.override("en"):
        standings_report.standings_pdf(result)
    html = rendered["html"]
    fields = shown(game, TABLE)
    headings = [_text(th) for th in re.findall(r"<th[^>]*>(.*?)</th>", html, re.S)]
    assert len(headings) == 2 + len(fields)
    for f, heading in zip(fields, headings[2:], strict=True):
        assert heading.startswith(f.label if f.term else f.heading(TABLE)), f.name
    body = re.findall(r"<tr>(.*?)</tr>", html[html.index("<tbody>") :], re.S)
    for row, cells in zip(result.rows, body, strict=True):
        texts = [_text(td) for td in re.findall(r"<td[^>]*>(.*?)</td>", cells, re.S)]
        assert texts == [str(row.rank), row.name, *row.cells(fields)]


@pytest.mark.parametrize("game", GAMES)
def test_the_player_page_shows_each_field_of_the_players_totals(client, played, game):
    club, players = played
    player = players[0]
    totals = StandingAggregate.objects.get(player=player, game=game, period="all")
    fields = shown(game, PLAYER)
    response = client.get(reverse("player_detail", args=[club.slug, player.id]),
                          HTTP_ACCEPT_LANGUAGE="en")  # fmt: skip
    html = response.content.decode()
    heading = "Napoleon" if game == Game.NAPOLEON else "Daifugō"
    section = html[html.index(f"<h2>{heading}</h2>") :]
    section = section[: section.index("</dl>")]
    facts = re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", section, re.S)
    assert len(facts) == len(fields)
    for f, (dt, dd) in zip(fields, facts, strict=True):
        assert _text(dt).startswith(f.label if f.term else f.heading(PLAYER)), f.name
        value = getattr(totals, f.name)
        assert dd == (f"{getattr(totals, f.won)} / {value}" if f.won else str(value)), f.name
