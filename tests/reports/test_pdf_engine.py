"""What reports/pdf.py keeps and pauses around WeasyPrint: Python's cyclic garbage collector
is off while a report is written and always back on after; font subsets are made once per set
of glyphs and the PDF is the same byte for byte."""

import gc

import pytest

from tournaments.reports import pdf

HTML = '<!DOCTYPE html><html><head><meta charset="utf-8"/></head><body><p>{}</p></body></html>'
TEXTS = {"any.html": "卓 1", "other.html": "渡邊 -4"}


@pytest.fixture
def template(monkeypatch):
    real = pdf.render_to_string

    def render(name, context=None):
        return HTML.format(TEXTS[name]) if name in TEXTS else real(name, context)

    monkeypatch.setattr(pdf, "render_to_string", render)


def test_the_collector_is_off_while_a_report_is_written_and_on_after(template, monkeypatch):
    states = []
    real = pdf._document

    def spy(html):
        states.append(gc.isenabled())
        return real(html)

    monkeypatch.setattr(pdf, "_document", spy)
    assert gc.isenabled()
    body = pdf.render_pdf("any.html", {})
    assert body.startswith(b"%PDF")
    assert states == [False]
    assert gc.isenabled()


def test_the_collector_comes_back_when_a_report_fails(template, monkeypatch):
    def broken(html):
        raise RuntimeError("layout failed")

    monkeypatch.setattr(pdf, "_document", broken)
    with pytest.raises(RuntimeError):
        pdf.render_pdf("any.html", {})
    assert gc.isenabled()


def test_a_collector_turned_off_elsewhere_stays_off(template):
    gc.disable()
    try:
        pdf.render_pdf("any.html", {})
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_font_subset_is_made_once_per_set_of_glyphs(template, monkeypatch):
    from weasyprint.pdf.fonts import Font

    made = []
    real = Font._harfbuzz_subset

    def counted(font, to_unicode, hinting):
        made.append(tuple(sorted(to_unicode)))
        return real(font, to_unicode, hinting)

    monkeypatch.setattr(Font, "_harfbuzz_subset", counted)
    pdf._subsets.clear()
    first = pdf.render_pdf("any.html", {})
    assert len(made) == 1  # IPAex Gothic, the one font the page uses
    again = pdf.render_pdf("any.html", {})
    assert len(made) == 1 and again == first
    other = pdf.render_pdf("other.html", {})
    assert len(made) == 2 and made[1] != made[0] and other != first
    # The kept subset is the subset made afresh: the same PDF with nothing kept.
    pdf._subsets.clear()
    assert pdf.render_pdf("any.html", {}) == first
    assert len(made) == 3


def test_only_the_last_subsets_are_kept(template, monkeypatch):
    monkeypatch.setattr(pdf, "SUBSETS_KEPT", 1)
    pdf._subsets.clear()
    pdf.render_pdf("any.html", {})
    pdf.render_pdf("other.html", {})
    assert len(pdf._subsets) == 1
