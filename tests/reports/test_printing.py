"""Printed sheets looked at through their layout (WeasyPrint's rendered document: which box lands
on which page) and their text: seating cards with table QR codes, the session sheet's QR code,
the club's blank sheet."""

import datetime
import io
import math
import re

import pytest
import segno
from django.template.loader import render_to_string
from django.urls import reverse
from pypdf import PdfReader

import rules
from tests import club_versions, factories
from tests.reports.test_pdfs import assert_japanese_font, pdf_text
from tests.selectors.data import club_with_history
from tournaments.models import ClubRuleSet, DrawMethod, TournamentRound, TournamentTable
from tournaments.reports import events as event_reports
from tournaments.reports import sheets
from tournaments.reports.pdf import render_document
from tournaments.services import events as svc

SITE = "https://scores.example.org"
MM = 96 / 25.4  # WeasyPrint lays out in CSS pixels


@pytest.fixture(autouse=True)
def _site(settings):
    settings.SITE_URL = SITE


def segno_svg(url: str) -> str:
    """The QR code of ``url`` exactly as segno draws it (the printed code must be this one)."""
    return segno.make(url, error="m", micro=False).svg_inline(
        omitsize=True, border=2, dark="#000", light="#fff", svgclass="qr"
    )


def boxes_by_class(document, css_class: str) -> dict:
    """{element: [(page index, box), ...]} for every box of an element with ``css_class``: an
    element split across pages has boxes on more than one page."""
    found: dict = {}
    for index, page in enumerate(document.pages):
        for box in page._page_box.descendants():
            element = getattr(box, "element", None)
            if element is None or getattr(box, "element_tag", None) is None:
                continue
            if css_class in (element.get("class") or "").split():
                found.setdefault(element, [])
                if not any(i == index for i, _b in found[element]):
                    found[element].append((index, box))
    return found


def flat(text: str) -> str:
    """PDF text without line breaks and spaces (a header cell may wrap: 指名 / カード)."""
    return re.sub(r"\s", "", text)


def page_bottom(page) -> float:
    box = page._page_box
    return box.content_box_y() + box.height


# --- seating cards ----------------------------------------------------------------------------


def seated_round(club, count: int) -> TournamentRound:
    """A round with ``count`` seated players at tables of five (the last one smaller)."""
    ruleset = factories.ClubRuleSetFactory(club=club, code="napoleon-wiki", preset="napoleon-wiki")
    t = svc.tournament_create(
        club=club, name="秋の大会", date=datetime.date(2026, 11, 21), ruleset=ruleset, seed=1
    )
    players = [
        svc.entry_add(tournament=t, name=f"選手{i}", checked_in=True).player_id
        for i in range(1, count + 1)
    ]
    with club_versions.unchecked():  # seated by hand: tables of five whatever the rules allow
        rnd = TournamentRound.objects.create(tournament=t, number=1, method=DrawMethod.FIXED)
        for number, start in enumerate(range(0, count, 5), start=1):
            seats = players[start : start + 5]
            TournamentTable.objects.create(round=rnd, number=number, seats=seats)
    return rnd


@pytest.mark.django_db
@pytest.mark.parametrize("count", [1, 7, 8, 9, 40])
def test_every_seating_card_fits_on_one_page_and_no_page_is_blank(club, count):
    rnd = seated_round(club, count)
    context = event_reports.seating_cards_context(rnd=rnd)
    document = render_document(event_reports.SEATING_TEMPLATE, context)
    per_page = event_reports.CARDS_PER_PAGE
    assert len(document.pages) == math.ceil(count / per_page)
    cards = boxes_by_class(document, "ev-card")
    assert len(cards) == count
    on_page = [0] * len(document.pages)
    for element, where in cards.items():
        assert len(where) == 1, f"card {element.get('data-card')} split over pages {where}"
        index, box = where[0]
        assert box.position_y + box.margin_height() <= page_bottom(document.pages[index]) + 0.5
        on_page[index] += 1
    # Full pages of eight, the last one with the rest: no blank page, none half used.
    assert on_page == [min(per_page, count - i * per_page) for i in range(len(on_page))]
    # Two columns across the page width (186 mm between the margins).
    if count >= 2:
        first, second = (where[0][1] for where in list(cards.values())[:2])
        assert first.position_y == second.position_y
        right = second.position_x + second.margin_width()
        assert right - first.position_x > 180 * MM


@pytest.mark.django_db
def test_seating_cards_with_new_pins_keep_one_card_a_page_slot(club):
    rnd = seated_round(club, 9)
    pins = svc.pin_issue_all(tournament=rnd.tournament)
    document = render_document(
        event_reports.SEATING_TEMPLATE, event_reports.seating_cards_context(rnd=rnd, pins=pins)
    )
    assert len(document.pages) == 2
    assert all(len(where) == 1 for where in boxes_by_class(document, "ev-card").values())


@pytest.mark.django_db
def test_seating_card_qr_is_the_tables_absolute_address(client, users, club):
    rnd = seated_round(club, 7)
    t = rnd.tournament
    tables = list(rnd.tables.order_by("number"))
    context = event_reports.seating_cards_context(rnd=rnd)
    html = render_to_string(event_reports.SEATING_TEMPLATE, context)
    for table in tables:
        url = f"{SITE}/t/{t.pk}/table/{table.pk}/"
        assert context["pages"][0][0]["url"].startswith(SITE)
        # the code printed is segno's code of exactly this address, once per seat
        assert html.count(segno_svg(url)) == len(table.seats)
    # never a code of a bare path
    assert segno_svg(f"/t/{t.pk}/table/{tables[0].pk}/") not in html

    client.force_login(users["scorekeeper"])
    response = client.post(reverse("tournament_seating_pdf", args=[t.pk, 1]), {"pins": "all"})
    assert response.status_code == 200
    text = pdf_text(response.content)
    for table in tables:
        assert f"{SITE}/t/{t.pk}/table/{table.pk}/" in text
    assert f"{SITE}/t/{t.pk}/pin/" in text
    assert len(PdfReader(io.BytesIO(response.content)).pages) == 1
    assert_japanese_font(response.content)


@pytest.mark.django_db
def test_a_round_with_nobody_seated_prints_one_page_saying_so(club, english):
    rnd = seated_round(club, 0)
    body = event_reports.seating_cards(rnd=rnd)
    assert len(PdfReader(io.BytesIO(body)).pages) == 1
    assert "No one is seated in this round." in pdf_text(body)


# --- session sheet ----------------------------------------------------------------------------


@pytest.mark.django_db
def test_session_sheet_carries_the_qr_code_of_the_live_session_page(club):
    session = club_with_history(club)["november"]
    url = f"{SITE}/c/{club.slug}/sessions/{session.pk}/"
    assert reverse("session_detail", args=[club.slug, session.pk]) == url.removeprefix(SITE)
    html = render_to_string(sheets.SESSION_TEMPLATE, sheets.session_sheet_context(session))
    assert segno_svg(url) in html
    body = sheets.session_sheet_pdf(session)
    assert url in pdf_text(body).replace("\n", "")
    assert len(PdfReader(io.BytesIO(body)).pages) == 1


# --- blank sheet ------------------------------------------------------------------------------

PRESET_COUNTS = [(code, n) for code, preset in rules.PRESETS.items() for n in preset.players]


@pytest.mark.django_db
@pytest.mark.parametrize(("code", "players"), PRESET_COUNTS)
def test_blank_sheet_has_twenty_rows_totals_and_point_table_second_page_only_when_needed(
    club, code, players
):
    preset = rules.PRESETS[code]
    sheet = sheets.BlankSheet(
        club=club, ruleset=preset, ruleset_name=preset.name_ja, players=players
    )
    context = sheets.blank_sheet_context(sheet)
    document = render_document(sheets.BLANK_TEMPLATE, context)
    rows = boxes_by_class(document, "deal-row")
    assert len(rows) >= 20
    assert {where[0][0] for where in rows.values()} == {0}  # every deal row on the first page
    totals = boxes_by_class(document, "totals-row")
    assert len(totals) == 2 and all(where[0][0] == 0 for where in totals.values())
    (grid,) = boxes_by_class(document, "point-table").values()
    assert len(grid) == 1, "the point table is never split"
    grid_page, grid_box = grid[0]
    assert len(document.pages) == grid_page + 1 <= 2
    if grid_page == 1:
        # Needed: under twenty rows and the totals the point table would not have fitted.
        ordered = sorted(rows.values(), key=lambda w: w[0][1].position_y)
        row_height = ordered[0][0][1].margin_height()
        last_totals = max(w[0][1].position_y + w[0][1].margin_height() for w in totals.values())
        used_by_twenty = last_totals - (len(ordered) - 20) * row_height
        assert grid_box.margin_height() > page_bottom(document.pages[0]) - used_by_twenty
    html = render_to_string(sheets.BLANK_TEMPLATE, context)
    # one points and one running-total cell per player in every deal row
    assert html.count('class="running"') == players * len(rows)
    if preset.game == "napoleon":
        assert "Called card" in html or "指名カード" in html


@pytest.mark.django_db
def test_blank_sheet_text_japanese_with_names_date_and_point_table(club):
    preset = rules.PRESETS["napoleon-originator"]
    sheet = sheets.BlankSheet(
        club=club, ruleset=preset, ruleset_name=preset.name_ja, players=5,
        names=("太郎", "花子"), date=datetime.date(2026, 11, 23), table="B",
    )  # fmt: skip
    body = sheets.club_blank_sheet_pdf(sheet)
    reader = PdfReader(io.BytesIO(body))
    assert len(reader.pages) == 2
    first, second = (flat(page.extract_text()) for page in reader.pages)
    for text in ("太郎", "花子", "2026-11-23", "指名カード", "累計", "合計", "24"):
        assert text in first
    assert "得点表" in second and "20" in second
    assert "作戦B" in second  # all 20 honours on a bid under 20 is a loss: the sheet says so
    assert_japanese_font(body)


@pytest.mark.django_db
def test_blank_sheet_reminds_of_every_rule_that_makes_all_twenty_a_loss(club, english):
    for code, options, said in (
        ("napoleon-originator", {}, "PlanB"),
        ("napoleon-joker", {"all20_loses": True}, "All20loses"),
    ):
        ruleset = rules.build_ruleset(code, options)
        sheet = sheets.BlankSheet(club=club, ruleset=ruleset, ruleset_name=code, players=5)
        assert said in flat(pdf_text(sheets.club_blank_sheet_pdf(sheet)))
    plain = rules.PRESETS["napoleon-wiki"]
    sheet = sheets.BlankSheet(club=club, ruleset=plain, ruleset_name="wiki", players=5)
    text = flat(pdf_text(sheets.club_blank_sheet_pdf(sheet)))
    assert "PlanB" not in text and "All20loses" not in text


# --- the club's blank sheet page --------------------------------------------------------------


def blank_url(club, **params):
    from urllib.parse import urlencode

    return reverse("club_blank_sheet", args=[club.slug]) + (
        "?" + urlencode(params) if params else ""
    )


@pytest.mark.django_db
def test_club_blank_sheet_form_prints_a_preset_without_creating_a_rule_set(client, english):
    club = factories.ClubFactory(is_public=True)
    page = client.get(blank_url(club))
    assert page.status_code == 200 and b'name="rules"' in page.content
    assert b"napoleon-originator" in page.content and b"4, 5 players" not in page.content
    response = client.get(
        blank_url(club, rules="napoleon-wiki", players=6, names="Ann\n\nBob", date="2026-11-23")
    )
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    text = pdf_text(response.content)
    assert "Ann" in text and "Bob" in text and "2026-11-23" in text and "6 players" in text
    assert not ClubRuleSet.objects.filter(club=club).exists()
    daifugo = client.get(blank_url(club, rules="daifugo-common", players=8))
    assert daifugo.status_code == 200 and "Place" in pdf_text(daifugo.content)


@pytest.mark.django_db
def test_club_blank_sheet_uses_the_clubs_own_rule_set(client, users, club):
    own = factories.ClubRuleSetFactory(
        club=club, code="house", preset="napoleon-originator", name="部室ルール"
    )
    client.force_login(users["member"])
    response = client.get(blank_url(club, rules=own.code, players=4))
    assert response.status_code == 200
    text = pdf_text(response.content)
    assert "部室ルール" in text and "4人" in text


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("params", "field", "message"),
    [
        ({"rules": "no-such-rules", "players": 5}, "rules", "Select a valid choice"),
        ({"rules": "", "players": 5}, "rules", "Choose the rules the table plays."),
        ({"rules": "napoleon-wiki", "players": 3}, "players", "played by 4–6 players"),
        ({"rules": "napoleon-originator", "players": 6}, "players", "played by 4–5 players"),
        ({"rules": "napoleon-wiki", "players": "1e20"}, "players", "whole number"),
        ({"rules": "napoleon-wiki", "players": 99}, "players", "less than or equal to 8"),
        ({"rules": "napoleon-wiki", "players": ""}, "players", "required"),
        ({"rules": "napoleon-wiki", "players": 4, "names": "a\nb\nc\nd\ne"}, "names", "5 names"),
        ({"rules": "napoleon-wiki", "players": 4, "names": "x" * 65}, "names", "Line 1"),
        ({"rules": "napoleon-wiki", "players": 4, "date": "2026-13-45"}, "date", "valid date"),
        ({"rules": "napoleon-wiki", "players": 4, "table": "T" * 41}, "table", "at most 40"),
    ],
)
def test_club_blank_sheet_refuses_bad_parameters_beside_the_field(
    client, english, params, field, message
):
    club = factories.ClubFactory(is_public=True)
    response = client.get(blank_url(club, **params))
    assert response.status_code == 400
    form = response.context["form"]
    assert message in " ".join(form.errors[field]), form.errors


@pytest.mark.django_db
def test_private_club_blank_sheet_is_not_printable_by_strangers(client, users, club):
    url = blank_url(club, rules="napoleon-wiki", players=5)
    assert client.get(url).status_code == 404
    assert client.get(blank_url(club)).status_code == 404
    client.force_login(users["outsider"])
    assert client.get(url).status_code == 404
    client.force_login(users["member"])
    assert client.get(url).status_code == 200


@pytest.mark.django_db
def test_old_session_blank_sheet_is_the_club_sheet_prefilled(client, users, club):
    history = club_with_history(club)
    session = history["november"]
    client.force_login(users["member"])
    response = client.get(reverse("session_blank_pdf", args=[club.slug, session.pk]))
    assert response.status_code == 200
    text = flat(pdf_text(response.content))
    assert "渡邊" in text and "花子" in text and session.date.isoformat() in text
    assert "指名カード" in text and "累計" in text
    sheet = sheets.session_blank_sheet(session)
    assert sheet.players == len(sheet.names) == 5
