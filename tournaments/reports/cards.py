"""Share cards drawn as PNG pictures (1200×630, the size LINE, X and others show under a link).

Drawn with Pillow (already here for WeasyPrint) in the PDFs' Japanese font, found the same way
(``pdf.font_path``: ``settings.PDF_FONT_PATHS``, Debian's fonts-ipaexfont-gothic). Names are
drawn as text, cut with "…" to the room they have; control characters become spaces. Without
the font a card is still drawn, in Pillow's own font (Japanese then shows as boxes).
"""

from __future__ import annotations

import io
import unicodedata
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from ..selectors.cards import ShareCard
from .pdf import font_path

WIDTH, HEIGHT = 1200, 630
MARGIN = 64
RED = (155, 28, 28)  # the site's theme colour
INK = (31, 31, 31)
MUTED = (107, 107, 107)
PAPER = (250, 247, 242)
STRIPE = (242, 235, 225)
WHITE = (255, 255, 255)
ROW_TOP, ROW_HEIGHT = 236, 64


@lru_cache(maxsize=16)
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    path = font_path()
    if path is None:
        return ImageFont.load_default(size=size)
    return ImageFont.truetype(str(path), size)


def _clean(text: str) -> str:
    return "".join(" " if unicodedata.category(c).startswith("C") else c for c in text).strip()


def fit(text: str, font, room: float) -> str:
    """``text`` cut with "…" to at most ``room`` pixels wide in ``font``."""
    text = _clean(text)
    if font.getlength(text) <= room:
        return text
    while text and font.getlength(text + "…") > room:
        text = text[:-1]
    return text + "…"


def _header(draw: ImageDraw.ImageDraw, card: ShareCard) -> None:
    draw.rectangle((0, 0, WIDTH, 96), fill=RED)
    brand, brand_font = "efuda 絵札", _font(30)
    brand_width = brand_font.getlength(brand)
    draw.text((WIDTH - MARGIN, 48), brand, font=brand_font, fill=WHITE, anchor="rm")
    room = WIDTH - 2 * MARGIN - brand_width - 40
    draw.text((MARGIN, 48), fit(card.club, _font(40), room), font=_font(40), fill=WHITE,
              anchor="lm")  # fmt: skip
    draw.text((MARGIN, 126), fit(card.title, _font(50), WIDTH - 2 * MARGIN), font=_font(50),
              fill=INK, anchor="lt")  # fmt: skip
    if card.subtitle:
        draw.text((MARGIN, 188), fit(card.subtitle, _font(28), WIDTH - 2 * MARGIN),
                  font=_font(28), fill=MUTED, anchor="lt")  # fmt: skip


def _lines(draw: ImageDraw.ImageDraw, card: ShareCard) -> None:
    name_font, rank_font = _font(42), _font(34)
    if not card.lines:
        draw.text((MARGIN, ROW_TOP + 20), "—", font=name_font, fill=MUTED, anchor="lt")
    for index, line in enumerate(card.lines):
        top = ROW_TOP + index * ROW_HEIGHT
        middle = top + ROW_HEIGHT // 2
        if index % 2 == 0:
            draw.rectangle((MARGIN - 16, top, WIDTH - MARGIN + 16, top + ROW_HEIGHT), fill=STRIPE)
        rank_colour = RED if line.rank == 1 else MUTED
        draw.text((MARGIN + 40, middle), f"{line.rank}", font=rank_font, fill=rank_colour,
                  anchor="rm")  # fmt: skip
        points = line.signed
        draw.text((WIDTH - MARGIN, middle), points, font=name_font,
                  fill=RED if line.points > 0 else INK, anchor="rm")  # fmt: skip
        room = WIDTH - MARGIN - name_font.getlength(points) - 40 - (MARGIN + 70)
        draw.text((MARGIN + 70, middle), fit(line.name, name_font, room), font=name_font,
                  fill=INK, anchor="lm")  # fmt: skip


def card_png(card: ShareCard) -> bytes:
    """``card`` drawn: the bytes of a 1200×630 PNG."""
    image = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    draw = ImageDraw.Draw(image)
    _header(draw, card)
    _lines(draw, card)
    footer_top = HEIGHT - 52
    draw.line((MARGIN, footer_top - 14, WIDTH - MARGIN, footer_top - 14), fill=STRIPE, width=2)
    draw.text((MARGIN, footer_top + 10), fit(card.footer, _font(26), WIDTH - 2 * MARGIN),
              font=_font(26), fill=MUTED, anchor="lm")  # fmt: skip
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
