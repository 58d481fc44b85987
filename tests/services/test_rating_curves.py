"""The rating chart's points kept on each rating row (``Rating.curve``) are the history rows
the chart shows (``chart_ns``), after every deal learned one by one — across the deals where
the chart's step grows — after a replay; and the page reads the history when a row keeps
none (a restored backup's) or not up to its last deal."""

import random

import pytest

from tests import club_versions
from tests.services.test_ratings import napoleon_data
from tournaments.models import Rating, RatingState
from tournaments.selectors import ratings as ratings_selectors
from tournaments.selectors.ratings import chart_ns, history_points, rating_curves
from tournaments.services.deals import deal_record
from tournaments.services.ratings import ratings_replay

pytestmark = pytest.mark.django_db


def kept_and_read(club, game="napoleon"):
    """Each player's kept points, and the same points read from the current history."""
    generation = RatingState.objects.get(club=club, game=game).generation
    kept, read = {}, {}
    for rating in Rating.objects.filter(club=club, game=game):
        kept[rating.player_id] = rating.curve
        read[rating.player_id] = history_points(
            player_id=rating.player_id, game=game, total=rating.deals, generation=generation
        )
        assert [int(line.split()[0]) for line in rating.curve.splitlines()] == chart_ns(
            rating.deals
        )
    return kept, read


def test_kept_points_follow_every_deal_and_equal_a_replay(
    club, players, napoleon_session, monkeypatch
):
    monkeypatch.setattr(ratings_selectors, "CHART_POINTS", 10)  # the same rule, sooner
    rng = random.Random(11)
    seats = [p.id for p in players[:5]]  # the same five play every deal
    # Past the deals where the step grows (11: every 2nd deal; 21: every 3rd).
    for i in range(2 * 10 + 3):
        deal_record(session=napoleon_session, data=napoleon_data(seats, rng))
        kept, read = kept_and_read(club)
        assert kept == read, f"after deal {i + 1}"
    assert {len(points.splitlines()) for points in kept.values()} == {len(chart_ns(23))} == {9}
    ratings_replay(club_id=club.pk, game="napoleon")
    assert kept_and_read(club) == (kept, kept)


def test_a_row_without_kept_points_is_read_from_history_and_kept_again(
    club, players, napoleon_session
):
    rng = random.Random(5)
    seats = [p.id for p in players[:5]]
    for _ in range(4):
        deal_record(session=napoleon_session, data=napoleon_data(seats, rng))
    shown = rating_curves(player=players[0])
    assert shown and len(shown[0].dates) == 4
    shown = [(c.game, c.dates, c.mu, c.score) for c in shown]
    rating = Rating.objects.get(player=players[0])
    # As code from before the points were kept writes it during an upgrade: a deal more than
    # the points reach.
    with club_versions.unchecked():
        Rating.objects.filter(pk=rating.pk).update(
            curve="".join(rating.curve.splitlines(keepends=True)[:-1])
        )
    assert [(c.game, c.dates, c.mu, c.score) for c in rating_curves(player=players[0])] == shown
    # As a backup made before the points were kept restores it.
    with club_versions.unchecked():
        Rating.objects.filter(club=club).update(curve="")
    assert [(c.game, c.dates, c.mu, c.score) for c in rating_curves(player=players[0])] == shown
    deal_record(session=napoleon_session, data=napoleon_data(seats, rng))
    kept, read = kept_and_read(club)
    assert kept == read and all(len(points.splitlines()) == 5 for points in kept.values())
