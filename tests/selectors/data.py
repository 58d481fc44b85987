"""Record real deals through the services for the standings, report and page tests."""

import datetime

from tests import factories
from tournaments.services.deals import deal_record

NAMES = ["太郎", "渡邊", "Ken", "ゆき", "花子", "次郎"]


def napoleon(
    session,
    seats,
    *,
    napoleon,
    adjutant=None,
    bid=13,
    trump="S",
    honours=14,
    discarded=0,
    called="SA",
):
    data = {
        "seats": [p.id for p in seats],
        "napoleon": napoleon.id,
        "bid": bid,
        "trump": trump,
        "called": called,
        "adjutant": adjutant.id if adjutant else None,
        "solo": adjutant is None,
        "honours": honours,
        "discarded": discarded,
    }
    return deal_record(session=session, data=data)


def daifugo(session, order, forbidden=()):
    return deal_record(
        session=session,
        data={"order": [p.id for p in order], "forbidden": [p.id for p in forbidden]},
    )


def club_with_history(club):
    """Two months of Napoleon (wiki, 5 players) and one Daifugō session.

    November: 太郎 wins as Napoleon with 渡邊 (2, 1), then 渡邊 loses solo (−4), then Ken wins
    with ゆき. October: 太郎 loses with Ken. Points per deal come from the napoleon-wiki table.
    """
    players = [factories.PlayerFactory(club=club, name=n) for n in NAMES[:5]]
    taro, watanabe, ken, yuki, hanako = players
    nap_rules = factories.ClubRuleSetFactory(
        club=club, code="napoleon-wiki", preset="napoleon-wiki"
    )
    dai_rules = factories.ClubRuleSetFactory(
        club=club, code="daifugo-common", preset="daifugo-common"
    )
    october = factories.session(club=club, ruleset=nap_rules, date=datetime.date(2026, 10, 3))
    napoleon(october, players, napoleon=taro, adjutant=ken, honours=10)  # lost
    november = factories.session(club=club, ruleset=nap_rules, date=datetime.date(2026, 11, 7))
    napoleon(november, players, napoleon=taro, adjutant=watanabe, honours=15)  # won
    napoleon(
        november,
        players,
        napoleon=watanabe,
        adjutant=None,
        bid=14,
        trump="H",
        called="HA",
        honours=12,
    )  # solo lost
    napoleon(
        november, players, napoleon=ken, adjutant=yuki, bid=12, trump="D", called="DA", honours=13
    )  # won
    rounds = factories.session(club=club, ruleset=dai_rules, date=datetime.date(2026, 11, 8))
    daifugo(rounds, [yuki, hanako, taro, ken])
    daifugo(rounds, [hanako, yuki, ken, taro])  # ゆき (大富豪) not first: 都落ち
    return {
        "players": players,
        "october": october,
        "november": november,
        "rounds": rounds,
        "nap_rules": nap_rules,
        "dai_rules": dai_rules,
    }
