"""No silent defaults in the services: every value that changes a score is given or refused,
with the field it concerns, and nothing is written (issue: entry a tired scorekeeper cannot get
wrong). The same services serve the entry forms, the CSV import and tournament tables."""

import pytest

from core.errors import EfudaError
from tests import factories
from tournaments.models import Deal, ScoreLine, StandingAggregate
from tournaments.services import events
from tournaments.services.deals import deal_preview, deal_record, deal_restore, deal_update

pytestmark = pytest.mark.django_db


def napoleon_data(players, **changes):
    seats = [p.id for p in players[:5]]
    data = {
        "seats": seats,
        "napoleon": seats[0],
        "bid": 13,
        "trump": "S",
        "called": "SA",
        "adjutant": seats[1],
        "solo": False,
        "honours": 14,
        "discarded": 0,
        "redeal": False,
    }
    data.update(changes)
    return data


def refused(session, data, field, code=None):
    """``data`` is refused by the preview and by the record, naming ``field``; nothing stored."""
    before = (Deal.objects.count(), ScoreLine.objects.count(), StandingAggregate.objects.count())
    for call in (deal_preview, deal_record):
        with pytest.raises(EfudaError) as err:
            call(session=session, data=data)
        assert err.value.field == field, (call.__name__, err.value)
        if code:
            assert err.value.code == code
        assert "None" not in str(err.value)
    after = (Deal.objects.count(), ScoreLine.objects.count(), StandingAggregate.objects.count())
    assert after == before
    return err.value


def test_no_adjutant_chosen_is_not_solo(napoleon_session, players):
    refused(napoleon_session, napoleon_data(players, adjutant=None), "adjutant", "adjutant_missing")
    data = napoleon_data(players)
    del data["solo"]
    del data["adjutant"]
    refused(napoleon_session, data, "adjutant", "adjutant_missing")


def test_napoleon_as_adjutant_is_refused(napoleon_session, players):
    data = napoleon_data(players, adjutant=players[0].id)
    refused(napoleon_session, data, "adjutant", "adjutant_is_napoleon")


def test_explicit_solo_scores_solo(napoleon_session, players):
    deal = deal_record(session=napoleon_session, data=napoleon_data(players, adjutant=None,
                                                                    solo=True))  # fmt: skip
    assert deal.outcome["solo"] and deal.adjutant_id is None
    assert deal.outcome["points"][str(players[0].id)] == 4  # wiki, 5 players, solo bid 13


def test_adjutant_and_solo_together_is_refused(napoleon_session, players):
    refused(napoleon_session, napoleon_data(players, solo=True), "adjutant", "adjutant_and_solo")


@pytest.mark.parametrize("missing", ["honours", "discarded"])
def test_counts_are_never_assumed(napoleon_session, players, missing):
    data = napoleon_data(players)
    del data[missing]
    refused(napoleon_session, data, missing, f"{missing}_missing")
    refused(napoleon_session, napoleon_data(players, **{missing: None}), missing)


def test_honours_over_20_is_refused(napoleon_session, players):
    err = refused(napoleon_session, napoleon_data(players, honours=21), "honours", "honours_range")
    assert "21" in str(err)


def test_seats_only_is_not_a_redeal(napoleon_session, players):
    refused(
        napoleon_session, {"seats": [p.id for p in players[:5]]}, "napoleon", "napoleon_missing"
    )
    deal = deal_record(
        session=napoleon_session, data={"seats": [p.id for p in players[:5]], "redeal": True}
    )
    assert deal.redeal and not deal.lines.exists()


def test_redeal_with_a_deal_is_refused(napoleon_session, players):
    refused(napoleon_session, napoleon_data(players, redeal=True), "redeal", "redeal_with_deal")


def test_duplicate_seats_are_refused_not_collapsed(napoleon_session, players):
    ids = [p.id for p in players[:4]]
    data = napoleon_data(players, seats=[ids[0], ids[0], ids[1], ids[2], ids[3]])
    refused(napoleon_session, data, "seats", "duplicate_player")


def test_daifugo_round_must_place_every_player_at_the_table(daifugo_session, players):
    table = [p.id for p in players[:5]]
    data = {"players": table, "order": table[:4], "forbidden": []}
    err = refused(daifugo_session, data, "order", "order_incomplete")
    assert err.params["players"] == str(table[4])
    deal = deal_record(session=daifugo_session, data=dict(data, order=table))
    assert len(deal.outcome["final_order"]) == 5


def test_daifugo_order_outside_the_table_is_refused(daifugo_session, players):
    data = {"players": [p.id for p in players[:4]], "order": [p.id for p in players[1:5]]}
    refused(daifugo_session, data, "order", "not_at_table")


def test_edit_without_version_is_refused(napoleon_session, players):
    deal = deal_record(session=napoleon_session, data=napoleon_data(players))
    with pytest.raises(EfudaError) as err:
        deal_update(deal=deal, data=napoleon_data(players, honours=3), version=None)
    assert (err.value.field, err.value.code) == ("version", "version_missing")
    deal.refresh_from_db()
    assert deal.version == 1 and deal.data["honours"] == 14


def test_edit_keeps_the_same_refusals(napoleon_session, players):
    deal = deal_record(session=napoleon_session, data=napoleon_data(players))
    with pytest.raises(EfudaError) as err:
        deal_update(deal=deal, data=napoleon_data(players, adjutant=None), version=1)
    assert err.value.field == "adjutant"
    deal.refresh_from_db()
    assert deal.version == 1 and deal.adjutant_id == players[1].id


@pytest.mark.parametrize("where", ["order", "players"])
def test_a_daifugo_player_of_another_club_is_refused_beside_the_order(
    daifugo_session, players, where
):
    from tests import factories

    stranger = factories.PlayerFactory(club=factories.ClubFactory(), name="よそ者")
    table = [p.id for p in players[:4]]
    data = {"order": table, "players": table, "forbidden": []}
    data[where] = [*table[:3], stranger.id]
    err = refused(daifugo_session, data, "order", "player_unknown")
    assert err.params == {"value": str(stranger.id)}


def test_a_napoleon_player_of_another_club_is_refused_beside_the_seats(napoleon_session, players):
    from tests import factories

    stranger = factories.PlayerFactory(club=factories.ClubFactory(), name="よそ者")
    data = napoleon_data(players)
    data["seats"] = [*data["seats"][:4], stranger.id]
    err = refused(napoleon_session, data, "seats", "player_unknown")
    assert err.params == {"value": str(stranger.id)}


def _tournament_table(club):
    """A tournament of five on the originator's rules, its first round started: one table."""
    wiki = factories.ClubRuleSetFactory(club=club, code="napoleon-wiki", preset="napoleon-wiki")
    rnd = factories.started_round(factories.tournament(club=club, ruleset=wiki, entrants=5))
    return rnd, rnd.tables.get()


def _table_data(seats, **changes):
    return {
        "seats": list(seats), "napoleon": seats[0], "bid": 13, "trump": "S", "called": "SA",
        "adjutant": seats[1], "solo": False, "honours": 14, "discarded": 0, "redeal": False,
    } | changes  # fmt: skip


def test_every_deal_service_asks_the_tournament_about_its_tables_deals(club):
    """A deal of a tournament table is checked by the tournament whichever service writes it:
    a player from outside the table is refused by the record and by the edit (naming the
    seats), and the edit and the restore of a deal of a finished round, which the tournament
    allows (the round's deals are known), are accepted, not refused as a new deal would be."""
    rnd, table = _tournament_table(club)
    session = table.session
    deal = events.table_deal_record(table=table, data=_table_data(table.seats), staff=True)
    outsider = factories.PlayerFactory(club=club)
    wrong = _table_data([*table.seats[:4], outsider.pk])
    with pytest.raises(EfudaError) as err:
        deal_record(session=session, data=wrong)
    assert (err.value.field, err.value.code) == ("seats", "seats_outsider")
    with pytest.raises(EfudaError) as err:
        deal_update(deal=deal, data=wrong, version=deal.version)
    assert (err.value.field, err.value.code) == ("seats", "seats_outsider")
    dropped = events.table_deal_record(table=table, data=_table_data(table.seats), staff=True)
    events.table_deal_drop(deal=dropped)
    events.round_finish(rnd=rnd)
    with pytest.raises(EfudaError) as err:  # a new deal is refused once the round is over
        deal_record(session=session, data=_table_data(table.seats))
    assert err.value.code == "round_finished"
    edited = deal_update(deal=deal, data=_table_data(table.seats, bid=14), version=deal.version)
    assert edited.data["bid"] == 14 and edited.version == deal.version + 1
    restored = deal_restore(deal=Deal.objects.get(pk=dropped.pk))
    assert not restored.is_deleted
    assert Deal.objects.filter(session=session, is_deleted=False).count() == 2
