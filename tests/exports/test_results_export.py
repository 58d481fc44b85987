"""Every deal out, in the format the import takes: a club exported (CSV, Shift_JIS CSV, .xlsx)
and imported into an empty club gives the same sessions, deals, points, standings and ratings."""

import datetime
import io

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from tests import factories
from tests.hardening.helpers import daifugo_data, napoleon_data
from tournaments import exports
from tournaments.models import (
    BidAggregate,
    ClubRuleSet,
    Deal,
    GameSession,
    Rating,
    RatingHistory,
    ScoreLine,
    StandingAggregate,
)
from tournaments.selectors.results import results_rows
from tournaments.services.deals import deal_delete, deal_record
from tournaments.services.imports import results_import
from tournaments.services.rulesets import ruleset_save
from tournaments.services.sessions import session_create

pytestmark = pytest.mark.django_db

NAMES = ["太郎", "花子", "=SUM(A1)", "ゆき", "-Sam", "次郎"]
DAYS = [datetime.date(2025, 12, 20), datetime.date(2026, 1, 10), datetime.date(2026, 1, 24)]


def recorded_club():
    """A club as the phones leave it: two Napoleon tables on the same evenings recorded in turns
    (so deal ids interleave the tables), a house rule set changed between two evenings (old
    sessions keep the old options), redeals, solo deals, a deleted deal, Daifugō rounds with
    都落ち and a forbidden finish, session notes, and names a spreadsheet would take for a
    formula."""
    club = factories.ClubFactory()
    ids = [factories.PlayerFactory(club=club, name=n).id for n in NAMES]
    house = ruleset_save(club=club, code="house", preset="napoleon-wiki", name="ハウスルール",
                         options={"min_bid": 12, "discard_policy": "napoleon"})  # fmt: skip
    wiki = factories.ClubRuleSetFactory(club=club, code="napoleon-wiki", preset="napoleon-wiki")
    dai_rules = factories.ClubRuleSetFactory(
        club=club, code="daifugo-common", preset="daifugo-common"
    )
    for index, day in enumerate(DAYS):
        if index == 2:  # the club changed its house rules before the third evening
            house = ruleset_save(club=club, code="house", preset="napoleon-wiki",
                                 name="ハウスルール", options={"min_bid": 13})  # fmt: skip
        notes = "=忘年会, 2卓" if index == 0 else ""
        a = session_create(club=club, ruleset=house, date=day, table="A", notes=notes)
        b = factories.session(club=club, ruleset=wiki, date=day, table="B")
        dai = factories.session(club=club, ruleset=dai_rules, date=day, table="大富豪卓")
        for n in range(6):
            deal = deal_record(session=a, data=napoleon_data(ids, n=n + index, redeal=n == 2))
            deal_record(session=b, data=napoleon_data(ids[1:], n=n))
            if n == 4:
                deal_delete(deal=deal)
            forbidden = [str(ids[(n + index) % 5])] if n == 3 else []
            deal_record(session=dai, data=daifugo_data(ids, n=n + index, forbidden=forbidden))
    return club


def snapshot(club):
    """What the club holds, by player name (ids differ between clubs)."""
    names = dict(club.players.values_list("id", "name"))

    def named(value):
        if isinstance(value, list):
            return [named(v) for v in value]
        if isinstance(value, dict):
            return {named(k): named(v) for k, v in value.items()}
        if isinstance(value, str) and value.isdigit() and int(value) in names:
            return names[int(value)]
        return value

    sessions = sorted(
        (s.date, s.game, s.table, s.ruleset.code, s.ruleset.name, s.rules_snapshot, s.notes)
        for s in GameSession.objects.filter(club=club).select_related("ruleset")
    )
    deals = []
    # In each game's history order: the day, then the order recorded (what ratings learn from).
    live = Deal.objects.filter(club=club, is_deleted=False).select_related("session")
    for d in live.order_by("game", "session__date", "id"):
        # What the deal says (a value left out and an empty one are the same; a redeal says
        # who sat, nothing more).
        data = {k: v for k, v in d.data.items() if k != "players" and v is not None}
        if d.redeal:
            data = {"seats": data["seats"], "redeal": True}
        outcome = {k: v for k, v in d.outcome.items() if k != "explanation"}
        deals.append((d.session.date, d.session.table, d.redeal, d.bid, d.trump,
                      named(data), named(outcome)))  # fmt: skip
    line_fields = ["player__name", "game", "date", "seat", "points", "role", "won", "bid",
                   "trump", "solo", "plan_b", "all20", "position", "miyako_ochi", "forbidden",
                   "session__table"]  # fmt: skip
    lines = sorted(
        tuple(r[f] for f in line_fields)
        for r in ScoreLine.objects.filter(club=club).values(*line_fields)
    )
    fields = ["player__name", "game", "period", *StandingAggregate.COUNTERS]
    standings = sorted(
        tuple(r[f] for f in fields)
        for r in StandingAggregate.objects.filter(club=club).exclude(deals=0).values(*fields)
    )
    bid_fields = ["player__name", "bid", "trump", "deals", "wins", "solo_deals", "solo_wins",
                  "points"]  # fmt: skip
    bids = sorted(
        tuple(r[f] for f in bid_fields)
        for r in BidAggregate.objects.filter(club=club).values(*bid_fields)
    )
    rating_fields = ["player__name", "game", "mu", "sigma", "deals", "last_played"]
    ratings = sorted(
        tuple(r[f] for f in rating_fields)
        for r in Rating.objects.filter(club=club).values(*rating_fields)
    )
    history = sorted(
        (r["player__name"], r["game"], r["date"], r["mu"], r["sigma"])
        for r in RatingHistory.objects.filter(club=club).values(
            "player__name", "game", "date", "mu", "sigma"
        )
    )
    rulesets = sorted(
        (r.code, r.name, r.preset, r.options) for r in ClubRuleSet.objects.filter(club=club)
    )
    return {
        "sessions": sessions, "deals": deals, "lines": lines, "standings": standings,
        "bids": bids, "ratings": ratings, "history": history, "rulesets": rulesets,
    }  # fmt: skip


def export_command(club, game, *extra) -> str:
    out = io.StringIO()
    call_command("export_results", "--club", club.slug, "--game", game, *extra, stdout=out)
    return out.getvalue()


def test_csv_export_imported_into_an_empty_club_gives_the_same_club():
    source = recorded_club()
    target = factories.ClubFactory()
    for game in ("napoleon", "daifugo"):
        text = export_command(source, game)
        assert text.startswith("\ufeffdate,table,rules,")
        results_import(club=target, file=text.encode("utf-8"))
    before, after = snapshot(source), snapshot(target)
    assert before["ratings"] and before["deals"] and len(before["sessions"]) == 9
    for key in before:
        assert after[key] == before[key], key


@pytest.mark.parametrize("fmt", ["xlsx", "sjis"])
def test_workbook_and_shift_jis_files_give_the_same_club_too(fmt, tmp_path):
    source = recorded_club()
    target = factories.ClubFactory()
    for game in ("napoleon", "daifugo"):
        rows = list(results_rows(club=source, game=game))
        if fmt == "xlsx":
            body = exports.xlsx_bytes(rows)
            results_import(club=target, file=body, filename=f"{game}.xlsx")
        else:
            body = exports.csv_bytes(rows, encoding=exports.SHIFT_JIS)
            report = results_import(club=target, file=body)
            assert "Shift_JIS" in report.source
    before, after = snapshot(source), snapshot(target)
    for key in before:
        assert after[key] == before[key], key


def test_a_date_range_takes_only_those_days():
    source = recorded_club()
    text = export_command(source, "napoleon", "--from", "2026-01-01", "--to", "2026-01-10")
    days = {line.split(",")[0] for line in text.strip().splitlines()[1:]}
    assert days == {"2026-01-10"}
    # 5 live deals at table A (one deleted), 6 at table B
    assert len(text.strip().splitlines()) == 1 + 5 + 6


def test_formula_like_names_are_text_in_every_file():
    source = recorded_club()
    text = export_command(source, "napoleon")
    # A cell that starts like a formula is quoted (the roundtrip tests read it back unquoted).
    assert "'=忘年会, 2卓" in text and ",'=SUM(A1)," in text
    book = exports.xlsx_bytes(results_rows(club=source, game="napoleon"))
    assert b"<f>" not in book  # no formula anywhere in the workbook


def test_shift_jis_names_what_it_cannot_hold():
    club = factories.ClubFactory()
    names = ["太郎", "花子", "Ken", "😀", "Sam"]
    ids = [factories.PlayerFactory(club=club, name=n).id for n in names]
    rules = factories.ClubRuleSetFactory(club=club, code="napoleon-wiki", preset="napoleon-wiki")
    session = factories.session(club=club, ruleset=rules, date=DAYS[0])
    deal_record(session=session, data=napoleon_data(ids, n=1))
    with pytest.raises(Exception) as err:
        export_command(club, "napoleon", "--encoding", "shift_jis")
    assert "😀" in str(err.value) and "UTF-8" in str(err.value)


def test_the_export_page_is_for_owners_and_scorekeepers(english):
    source = recorded_club()
    url = reverse("results_export", args=[source.slug])
    for role, status in (("owner", 200), ("scorekeeper", 200), ("member", 403)):
        user = factories.UserFactory(username=f"export-{role}")
        factories.MembershipFactory(club=source, user=user, role=role)
        client = Client()
        client.force_login(user)
        assert client.get(url).status_code == status
    assert Client().get(url).status_code == 302  # to the login page
    client = Client()
    client.force_login(factories.UserFactory(username="export-owner"))
    page = client.get(url)
    assert b"Take the results out" in page.content
    response = client.get(url, {"game": "daifugo", "format": "xlsx"})
    assert response["Content-Type"] == exports.XLSX_TYPE
    name = f"{source.slug}-daifugo-all.xlsx"
    assert response["Content-Disposition"] == f'attachment; filename="{name}"'
    response = client.get(url, {"game": "napoleon", "format": "sjis"})
    assert response.content.decode("cp932").startswith("date,table,rules,players")
    bad = client.get(url, {"game": "napoleon", "format": "csv", "date_from": "2026-02-01",
                           "date_to": "2026-01-01"})  # fmt: skip
    assert bad.status_code == 400 and b"The last day comes before the first." in bad.content
