"""The import service: valid files score as docs/rules.md says; any bad row imports nothing."""

import pytest

from tournaments.models import (
    ClubRuleSet,
    Deal,
    GameSession,
    Player,
    ScoreLine,
    StandingAggregate,
)
from tournaments.services.imports import ImportFailed, results_import
from tournaments.services.rulesets import ruleset_save

from .helpers import (
    DAIFUGO_HEADER,
    NAPOLEON_HEADER,
    SAMPLES,
    csv_bytes,
    points_by_deal,
    totals,
)

pytestmark = pytest.mark.django_db


def _nothing_stored(club):
    assert not Deal.objects.filter(club=club).exists()
    assert not GameSession.objects.filter(club=club).exists()
    assert not ScoreLine.objects.filter(club=club).exists()
    assert not StandingAggregate.objects.filter(club=club).exists()
    assert not Player.objects.filter(club=club).exists()
    assert not ClubRuleSet.objects.filter(club=club).exists()


def _problems(club, data):
    with pytest.raises(ImportFailed) as caught:
        results_import(club=club, file=data)
    return [(p.line, p.field) for p in caught.value.problems], caught.value.problems


def test_napoleon_sample_scores_as_rules_md(club):
    report = results_import(club=club, file=(SAMPLES / "napoleon.csv").read_bytes())
    summary = (report.game, report.deals, report.redeals, len(report.sessions))
    assert summary == ("napoleon", 6, 1, 2)
    assert report.players_created == 9
    deals = points_by_deal(club)
    # napoleon-wiki, 5 players, flat 2 / 1 / 1; discards count for nobody (docs/rules.md).
    assert deals[0] == {"太郎": 2, "花子": 1, "Ken": -1, "ゆき": -1, "Sam": -1}  # 14 >= 13
    assert deals[1] == {"Ken": -2, "ゆき": -1, "太郎": 1, "花子": 1, "Sam": 1}  # 10 < 12, +2 lost
    assert deals[2] == {}  # redeal: no score lines
    assert deals[3] == {"Sam": 4, "太郎": -1, "花子": -1, "Ken": -1, "ゆき": -1}  # solo 4 / 1
    # napoleon-originator, 4 players: u = bid - 10 for everyone.
    assert deals[4] == {"次郎": 5, "美咲": 5, "翔太": -5, "さくら": -5}
    # Plan B: the army took all 20 honours with a bid below 20, so the allies win.
    assert deals[5] == {"美咲": -6, "翔太": -6, "次郎": 6, "さくら": 6}
    assert Deal.objects.get(club=club, session__table="B", seq=2).outcome["plan_b"] is True
    redeal = Deal.objects.get(club=club, session__table="A", seq=3)
    assert redeal.redeal and redeal.data["redeal"] is True
    first = Deal.objects.get(club=club, session__table="A", seq=1)
    assert (first.data["trump"], first.data["called"], first.bid) == ("S", "SA", 13)
    # Standings aggregates are the sums of the lines.
    aggregates = {
        a.player.name: a.points
        for a in StandingAggregate.objects.filter(club=club, period="all").select_related("player")
    }
    assert aggregates == totals(club)
    assert aggregates["Sam"] == -1 + 1 + 4


def test_daifugo_sample_applies_miyako_ochi_and_forbidden(club):
    report = results_import(club=club, file=(SAMPLES / "daifugo.csv").read_bytes())
    assert (report.game, report.deals, len(report.sessions)) == ("daifugo", 5, 2)
    deals = points_by_deal(club)
    # 5 players: 大富豪 +2, 富豪 +1, 平民 0, 貧民 -1, 大貧民 -2.
    assert deals[0] == {"太郎": 2, "花子": 1, "Ken": 0, "ゆき": -1, "Sam": -2}
    # 都落ち: 太郎 (last 大富豪) did not go out first and drops to 大貧民.
    assert deals[1] == {"Ken": 2, "Sam": 1, "花子": 0, "ゆき": -1, "太郎": -2}
    # Sam went out first, on a forbidden card: placed last. Ken stays 大富豪.
    assert deals[2] == {"Ken": 2, "花子": 1, "ゆき": 0, "太郎": -1, "Sam": -2}
    # daifugo-hyousube, 4 players; 都落ち in the second round.
    assert deals[3] == {"次郎": 2, "美咲": 1, "翔太": -1, "さくら": -2}
    assert deals[4] == {"美咲": 2, "翔太": 1, "さくら": -1, "次郎": -2}
    line = ScoreLine.objects.get(club=club, player__name="太郎", deal__seq=2, session__table="A")
    assert (line.role, line.miyako_ochi) == ("daihinmin", True)


def test_three_bad_rows_are_all_reported_and_nothing_is_stored(club):
    good = "2026-11-20,A,napoleon-wiki,太郎;花子;Ken;ゆき;Sam,太郎,13,S,SA,花子,14,1"
    data = csv_bytes(
        NAPOLEON_HEADER,
        good,  # line 2
        "2026-11-20,A,napoleon-wiki,太郎;花子;Ken;ゆき;Sam,太郎,13,X,SA,花子,14,1",  # 3 trump
        good,  # line 4
        "2026-11-31,A,napoleon-wiki,太郎;花子;Ken;ゆき;Sam,太郎,13,S,SA,花子,14,1",  # 5 date
        good,  # line 6
        "2026-11-20,A,napoleon-wiki,太郎;花子;Ken;ゆき;Sam,太郎,13,S,SA,次郎,14,1",  # 7 adjutant
        good,  # line 8
    )
    where, problems = _problems(club, data)
    assert where == [(3, "trump"), (5, "date"), (7, "adjutant")]
    assert "次郎" in problems[2].message
    assert str(problems[0]).startswith("line 3, column trump: ")
    _nothing_stored(club)


def test_scoring_errors_name_the_column_and_the_player(club):
    data = csv_bytes(
        NAPOLEON_HEADER,
        "2026-11-20,A,napoleon-wiki,太郎;花子;Ken;ゆき,太郎,21,S,SA,花子,14,1",  # bid > 20
        "2026-11-20,A,napoleon-wiki,太郎;花子;Ken;ゆき,太郎,13,S,SA,花子,18,4",  # 22 honours
        "2026-11-20,A,napoleon-wiki,太郎;花子;Ken;ゆき;Sam;次郎;美咲,太郎,13,S,SA,花子,1,0",
        "2026-11-20,A,napoleon-wiki,太郎;花子;太郎;ゆき,太郎,13,S,SA,花子,14,0",  # twice
        "2026-11-20,A,napoleon-wiki,太郎;花子;Ken;ゆき,,13,S,SA,,,",  # half redeal
        "2026-11-20,A,napoleon-wiki,太郎;花子;Ken;ゆき,太郎,,S,SA,花子,14,0",  # no bid
        "2026-11-20,A,napoleon-wiki,太郎;花子;Ken;ゆき,太郎,12,S,JK,花子,14,0",  # no joker
        "2026-11-20,A,napoleon-wiki,太郎;花子;Ken;ゆき,太郎,12,S,SA,花子,-1,0",
    )
    where, problems = _problems(club, data)
    assert where == [
        (2, "bid"),
        (3, "honours"),
        (4, "players"),
        (5, "players"),
        (6, "napoleon"),
        (7, "bid"),
        (8, "called"),
        (9, "honours"),
    ]
    assert "太郎" in problems[3].message
    _nothing_stored(club)


def test_rules_unknown_wrong_game_and_mixed_in_one_session(club):
    data = csv_bytes(
        NAPOLEON_HEADER,
        "2026-11-20,A,napoleon-wiki,a;b;c;d;e,a,13,S,SA,b,14,0",
        "2026-11-20,A,napoleon-originator,a;b;c;d;e,a,13,S,SA,b,14,0",
        "2026-11-20,B,no-such-rules,a;b;c;d;e,a,13,S,SA,b,14,0",
        "2026-11-20,C,daifugo-common,a;b;c;d;e,a,13,S,SA,b,14,0",
    )
    where, problems = _problems(club, data)
    assert where == [(3, "rules"), (4, "rules"), (5, "rules")]
    assert "line 2" in problems[0].message
    _nothing_stored(club)


def test_club_rule_set_with_last_trick_option(club):
    ruleset_save(
        club=club,
        code="wiki-last",
        preset="napoleon-wiki",
        options={"discard_policy": "last_trick"},
    )
    header = NAPOLEON_HEADER + ",last_trick"
    bad = csv_bytes(header, "2026-11-20,A,wiki-last,a;b;c;d;e,a,14,S,SA,b,12,2,")
    assert _problems(club, bad)[0] == [(2, "last_trick")]
    good = csv_bytes(header, "2026-11-20,A,wiki-last,a;b;c;d;e,a,14,S,SA,b,12,2,napoleon")
    results_import(club=club, file=good)
    # 12 won in tricks + 2 discarded (last trick to the army) = 14: made.
    assert points_by_deal(club) == [{"a": 2, "b": 1, "c": -1, "d": -1, "e": -1}]


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("date,table,rules,players,napoleon,bid,trump,called,adjutant,honours", "discarded"),
        (NAPOLEON_HEADER + ",comment", "comment"),
        ("date,table,rules,order", "forbidden"),
        ("name,points", "date,table,rules,players,napoleon"),
    ],
)
def test_bad_header_names_the_expected_columns(club, header, expected):
    where, problems = _problems(club, csv_bytes(header, "x,y"))
    assert where == [(1, "header")]
    assert expected in problems[0].message
    _nothing_stored(club)


@pytest.mark.parametrize(
    ("data", "where", "text"),
    [
        (b"", (1, "file"), "empty"),
        (b" \n\n", (1, "file"), "empty"),
        (("\ufeff" + DAIFUGO_HEADER + "\n").encode(), (2, "file"), "no results"),
        (
            # Neither UTF-8 nor CP932: a lead byte 0x81 followed by a comma.
            DAIFUGO_HEADER.encode() + b"\n2026-11-20,A,daifugo-common,\x93\xfa\x81,\n",
            (2, "file"),
            "UTF-8",
        ),
        (DAIFUGO_HEADER.encode() + b'\n2026-11-20,A,daifugo-common,"a;b;c\n', (2, "file"), "CSV"),
    ],
)
def test_file_level_errors(club, data, where, text):
    found, problems = _problems(club, data)
    assert found[0] == where
    assert text in problems[0].message


def test_wrong_column_count_is_reported_per_line(club):
    data = csv_bytes(DAIFUGO_HEADER, "2026-11-20,A,daifugo-common,a;b;c", "2026-11-20,A,x,a;b,c,d")
    assert _problems(club, data)[0] == [(2, "file"), (3, "file")]


def test_bom_symbols_fullwidth_and_crlf(club):
    text = (
        "\ufeff" + NAPOLEON_HEADER.upper().replace(",", " , ") + "\r\n"
        "2026-11-20,Ａ卓,napoleon-wiki,太郎；花子；Ken；ゆき；Sam,太郎,１３,♠,♠A,花子,14,1\r\n"
        "2026-11-20,Ａ卓,napoleon-wiki,太郎;花子;ken;ゆき;Sam,ｋｅｎ,12,♥,10♥,Sam,12,0\r\n"
    )
    report = results_import(club=club, file=text.encode("utf-8"))
    assert report.players_created == 5
    deal1, deal2 = Deal.objects.filter(club=club).order_by("seq")
    assert (deal1.trump, deal1.data["called"], deal1.bid) == ("S", "SA", 13)
    assert (deal2.trump, deal2.data["called"]) == ("H", "H10")
    assert deal2.napoleon.name == "Ken"  # "ken" and "ｋｅｎ" are the same player as "Ken"
    assert deal1.session.table == "Ａ卓"


def test_existing_players_are_reused(club, players):
    data = csv_bytes(DAIFUGO_HEADER, "2026-11-20,A,daifugo-common,太郎;花子;KEN;新人,")
    report = results_import(club=club, file=data)
    assert report.players_created == 1
    assert Player.objects.filter(club=club).count() == len(players) + 1


def test_reimport_is_refused_and_changes_nothing(club):
    data = (SAMPLES / "daifugo.csv").read_bytes()
    results_import(club=club, file=data)
    before = (Deal.objects.count(), ScoreLine.objects.count(), totals(club))
    where, problems = _problems(club, data)
    assert where == [(2, "table"), (5, "table")]
    assert "already" in problems[0].message
    assert (Deal.objects.count(), ScoreLine.objects.count(), totals(club)) == before


def test_hostile_names_are_stored_intact(club):
    script, rtl, emoji = "<script>alert('x')</script>", "مرحبا שלום", "🂡😀👨‍👩‍👧"
    data = csv_bytes(
        DAIFUGO_HEADER,
        f'2026-11-20,"<b>卓</b>",daifugo-common,"{script};{rtl};{emoji};O\'Brien, Jr.",',
    )
    results_import(club=club, file=data)
    names = set(Player.objects.filter(club=club).values_list("name", flat=True))
    assert names == {script, rtl, emoji, "O'Brien, Jr."}
    assert points_by_deal(club) == [{script: 2, rtl: 1, emoji: -1, "O'Brien, Jr.": -2}]
    assert GameSession.objects.get(club=club).table == "<b>卓</b>"


def test_bidi_override_in_a_name_is_refused(club):
    data = csv_bytes(DAIFUGO_HEADER, "2026-11-20,A,daifugo-common,a;b\u202ec;d,")
    assert _problems(club, data)[0] == [(2, "order")]


def test_rows_argument_and_sessions_follow_file_order(club):
    rows = [
        DAIFUGO_HEADER.split(","),
        ["2026-11-20", "A", "daifugo-common", "a;b;c", ""],
        ["2026-11-20", "B", "daifugo-common", "x;y;z", ""],
        ["2026-11-20", "A", "daifugo-common", "b;a;c", ""],  # 都落ち for a, same session A
    ]
    report = results_import(club=club, rows=rows)
    assert [s.table for s in report.sessions] == ["A", "B"]
    second = Deal.objects.get(club=club, session__table="A", seq=2)
    assert second.outcome["miyako_ochi"] is not None
    assert points_by_deal(club)[1] == {"b": 2, "c": 0, "a": -2}
