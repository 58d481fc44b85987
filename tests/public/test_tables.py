"""The standings and ratings tables (tournaments/tables/standings.py) beyond what the pages'
own tests read: what one table does to its columns stays its own."""

import pytest
from django.test import RequestFactory
from django.utils import translation

from tournaments.selectors.ratings import RatingRow
from tournaments.selectors.standings import StandingRow
from tournaments.tables.standings import attributes_html, ratings_table, standings_table


def test_a_column_hidden_in_one_table_is_shown_in_the_next():
    rows = [StandingRow(rank=1, player_id=1, name="太郎", deals=3, points=12)]
    first = standings_table("napoleon", rows, club_slug="c")
    first.columns.hide("points")
    assert "points" not in [column.name for column in first.columns.itervisible()]
    second = standings_table("napoleon", rows, club_slug="c")
    assert "points" in [column.name for column in second.columns.itervisible()]


def test_a_table_names_its_own_columns_without_touching_the_class():
    rating = RatingRow(1, 1, "太郎", 20.0, 26.0, 2.0, 12, None, False)
    table = ratings_table([rating], club_slug="c")
    assert [column.accessor for column in table.columns][:2] == ["rank", "name"]
    assert type(table).base_columns["rank"].accessor is None


@pytest.mark.parametrize("language", ["ja", "en"])
@pytest.mark.parametrize("sort", ["", "points", "-name", "win_rate", "-title_fugo", "sigma"])
def test_each_heading_has_the_attributes_django_tables2_writes(language, sort):
    request = RequestFactory().get("/", {"sort": sort} if sort else {})
    standing = StandingRow(rank=1, player_id=1, name="太郎", deals=3, points=12)
    rating = RatingRow(1, 1, "太郎", 20.0, 26.0, 2.0, 12, None, False)
    tables = [standings_table(game, [standing], club_slug="c", request=request)
              for game in ("napoleon", "daifugo")]  # fmt: skip
    tables += [ratings_table([rating], club_slug="c", request=request, game=game)
               for game in ("napoleon", "daifugo")]  # fmt: skip
    written = []
    with translation.override(language):
        for table in tables:
            assert attributes_html(table.attrs) == table.attrs.as_html()
            for column in table.columns:
                th = column.attrs["th"]
                written.append(attributes_html(th))
                assert written[-1] == th.as_html()
    assert any("title=" in attributes for attributes in written)  # a hint, translated
    if sort:  # the sorted column says which way
        assert any(" asc" in a or " desc" in a or '"asc' in a or '"desc' in a for a in written)
