"""Reports pause Python's cyclic garbage collector while WeasyPrint works (reports/pdf.py),
and always turn it back on."""

import gc

import pytest

from tournaments.reports import pdf

HTML = '<!DOCTYPE html><html><head><meta charset="utf-8"/></head><body><p>卓</p></body></html>'


@pytest.fixture
def template(monkeypatch):
    real = pdf.render_to_string

    def render(name, context=None):
        return HTML if name == "any.html" else real(name, context)

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
