"""Reports are read by the XML parser (reports/pdf.py ``parse_xhtml``): the tree it builds for
every report is the tree WeasyPrint's HTML5 parser builds, so the printed sheets are the same."""

import datetime

import pytest
import tinyhtml5

from tests import factories
from tests.selectors.data import club_with_history
from tournaments import charts, reports
from tournaments.reports import pdf
from tournaments.selectors.standings import Period, standings
from tournaments.selectors.visibility import Visibility

XMLNS = "{http://www.w3.org/2000/xmlns/}"
parse_xhtml = pdf.parse_xhtml  # the real one: the fixture below spies on the module's


def flat(root) -> list[tuple]:
    """Every element as (tag, attributes, text, tail). Two things only the HTML5 parser keeps
    are left out: the newline after </html> (it adds it to the body's last child) and the
    namespace declarations as attributes (``xmlns`` on the chart's <svg>)."""
    last = root.find("body")[-1]
    last.tail = (last.tail or "").rstrip()
    return [
        (
            e.tag,
            {k: v for k, v in e.attrib.items() if not k.startswith(XMLNS)},
            e.text or "",
            e.tail or "",
        )
        for e in root.iter()
    ]


@pytest.fixture
def parsed(monkeypatch):
    """The HTML of every report rendered while the fixture is on, as the reports wrote it."""
    seen = []

    def spy(html):
        seen.append(html)
        return parse_xhtml(html)

    monkeypatch.setattr(pdf, "parse_xhtml", spy)
    return seen


def assert_same_tree(html: str) -> None:
    fast = parse_xhtml(html)
    assert fast is not None, "the report is not well-formed: it would be read as HTML"
    assert flat(fast) == flat(tinyhtml5.parse(html, namespace_html_elements=False))


@pytest.mark.django_db
def test_every_sheet_reads_as_the_html5_parser_reads_it(club, parsed):
    history = club_with_history(club)
    reports.session_sheet_pdf(history["november"])
    reports.blank_sheet_pdf(history["november"])
    empty = factories.session(
        club=club, ruleset=history["dai_rules"], date=datetime.date(2026, 12, 1)
    )
    reports.blank_sheet_pdf(empty)
    result = standings(
        club=club,
        game="napoleon",
        period=Period.of(2026, 11),
        visibility=Visibility(club_id=club.pk),
    )
    reports.standings_pdf(result, chart=charts.standings_chart(result))
    assert len(parsed) == 4
    for html in parsed:
        assert_same_tree(html)
    # The inline SVG (the QR code, the chart) is in the SVG namespace, as HTML5 puts it.
    assert "{http://www.w3.org/2000/svg}svg" in [e.tag for e in parse_xhtml(parsed[0]).iter()]
    assert "{http://www.w3.org/2000/svg}svg" in [e.tag for e in parse_xhtml(parsed[3]).iter()]


def test_html_that_is_not_well_formed_is_read_as_html():
    html = "<!DOCTYPE html><html><body><p>one<br>two</p></body></html>"
    assert parse_xhtml(html) is None
    document = pdf._html_class()(string=html, base_url=".")
    assert [e.tag for e in document.etree_element.iter()] == ["html", "head", "body", "p", "br"]
    assert len(document.render().pages) == 1


def test_a_name_xml_cannot_hold_is_read_as_html():
    # A control character is not XML 1.0; a name typed with one still prints.
    html = "<!DOCTYPE html><html><head></head><body><p>太\x01郎</p></body></html>"
    assert parse_xhtml(html) is None
    document = pdf._html_class()(string=html, base_url=".")
    assert document.etree_element.find("body/p").text == "太\x01郎"
