"""WeasyPrint rendering shared by every report: one cached font configuration, A4, IPAex Gothic.

The Japanese font is declared with ``@font-face`` from ``settings.PDF_FONT_PATHS`` and embedded
as a subset (fast with Debian's libharfbuzz-subset0). Reports keep their CSS simple: layout
time, not the data, is what a one-page sheet costs.
"""

from __future__ import annotations

import atexit
import gc
import threading
from collections import OrderedDict
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from xml.etree import ElementTree

from django.conf import settings
from django.template.loader import render_to_string

_lock = threading.Lock()
FONT_FAMILY = "IPAexGothic"


@lru_cache(maxsize=1)
def font_path() -> Path | None:
    """The first of ``settings.PDF_FONT_PATHS`` that exists (share cards draw with it too)."""
    for path in settings.PDF_FONT_PATHS:
        if path.exists():
            return path.resolve()
    return None


def font_url() -> str | None:
    path = font_path()
    return path.as_uri() if path else None


@lru_cache(maxsize=1)
def _engine():
    """(FontConfiguration, base CSS): built once per process and reused by every report."""
    from weasyprint import CSS
    from weasyprint.text.fonts import FontConfiguration

    _keep_font_subsets()
    font_config = FontConfiguration()
    url = font_url()
    face = f'@font-face {{ font-family: "{FONT_FAMILY}"; src: url("{url}"); }}\n' if url else ""
    css = CSS(
        string=face + render_to_string("tournaments/reports/base.css"), font_config=font_config
    )
    return font_config, css


# Font subsets kept per process: (font, glyphs used, options) -> the subset's bytes.
SUBSETS_KEPT = 64
_subsets: OrderedDict[tuple, bytes] = OrderedDict()


def _keep_font_subsets() -> None:
    """Make each font subset once per set of glyphs and keep it (``SUBSETS_KEPT`` of them).

    WeasyPrint cuts every embedded font down to the glyphs a document uses (HarfBuzz, ≈3.5 ms
    of a session sheet for IPAex Gothic and DejaVu Sans Mono). The subset is a function of the
    font file and the glyph ids alone, and a club prints the same names and digits again and
    again, so the bytes are kept: the PDF is the same, byte for byte. Called under the render
    lock (``_engine``); WeasyPrint offers no hook, so its ``Font.subset`` is wrapped.
    """
    from weasyprint.pdf.fonts import Font

    make = Font.subset
    if getattr(make, "keeps_subsets", False):
        return

    def subset(font, to_unicode, hinting):
        if not to_unicode:
            return make(font, to_unicode, hinting)
        key = (
            font.family,
            font.index,
            font.glyph_count,
            len(font.file_content),
            bool(font.missing),
            hinting,
            tuple(sorted(to_unicode)),
        )
        kept = _subsets.get(key)
        if kept is None:
            make(font, to_unicode, hinting)
            kept = _subsets[key] = font.file_content
            while len(_subsets) > SUBSETS_KEPT:
                _subsets.popitem(last=False)
        else:
            _subsets.move_to_end(key)
        font.file_content = kept

    subset.keeps_subsets = True
    Font.subset = subset


# Drop the cached FontConfiguration while the interpreter is still whole: its __del__ needs
# modules that are already torn down at the very end of the process.
atexit.register(_engine.cache_clear)


SVG = "{http://www.w3.org/2000/svg}"


def parse_xhtml(html: str) -> ElementTree.Element | None:
    """The element tree of a well-formed report, read by the standard library's XML parser.

    WeasyPrint reads HTML with a pure-Python HTML5 parser (≈10 ms for a session sheet, a
    twentieth of that here). The reports are written well-formed (void elements closed), so
    the XML parser reads the same tree the HTML5 parser builds — inline ``<svg>`` put in the
    SVG namespace as HTML5 does with foreign content — and ``None`` says "not well-formed":
    the caller parses as HTML then (tests/reports/test_pdf_parse.py compares both trees).
    """
    try:
        root = ElementTree.fromstring(html)
    except ElementTree.ParseError:
        return None
    for element in root.iter("svg"):
        for node in element.iter():
            if isinstance(node.tag, str) and not node.tag.startswith("{"):
                node.tag = SVG + node.tag
    return root


@lru_cache(maxsize=1)
def _html_class():
    """WeasyPrint's HTML with a small user-agent stylesheet, read by ``parse_xhtml``.

    The full HTML5 one (≈250 rules) is matched against every element of every document and was
    the largest single cost of a one-page sheet; reports use a handful of elements, all styled
    by ``base.css``, so a dozen display rules do.
    """
    import cssselect2
    from weasyprint import CSS, HTML
    from weasyprint.urls import URLFetcher

    ua = CSS(string=render_to_string("tournaments/reports/ua.css"))

    class ReportHTML(HTML):
        def __init__(self, *, string: str, base_url: str):
            root = parse_xhtml(string)
            if root is None:
                super().__init__(string=string, base_url=base_url)
                return
            # What HTML.__init__ sets after its parse (reports have no <base href>).
            self.base_url = base_url
            self.url_fetcher = URLFetcher()
            self.media_type = "print"
            self.wrapper_element = cssselect2.ElementWrapper.from_html_root(
                root, content_language=None
            )
            self.etree_element = self.wrapper_element.etree_element

        def _ua_stylesheets(self, forms=False):
            return [ua]

    return ReportHTML


@contextmanager
def _collector_paused():
    """Python's cyclic garbage collector off while WeasyPrint builds and writes a document.

    A session sheet allocates a few hundred thousand objects: the collector ran about 24 times
    a sheet, and every tenth young collection walks the older generation too — the whole
    Django process — about a tenth of the sheet's CPU. Paused, the sheet's garbage is collected
    in one young collection after it (the next allocation starts it). The render lock is held,
    so no other render turns it back on halfway.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _document(html: str):
    font_config, css = _engine()
    return _html_class()(string=html, base_url=str(settings.BASE_DIR)).render(
        stylesheets=[css], font_config=font_config
    )


def render_document(template: str, context: dict):
    """Lay ``template`` (HTML) out as a WeasyPrint document: its pages and boxes, before PDF.

    Tests look at the layout through it (which box lands on which page)."""
    html = render_to_string(template, context)
    with _lock, _collector_paused():  # WeasyPrint is not documented thread-safe
        return _document(html)


def render_pdf(template: str, context: dict) -> bytes:
    """Render ``template`` (HTML) to PDF bytes."""
    html = render_to_string(template, context)
    with _lock, _collector_paused():
        return _document(html).write_pdf()
