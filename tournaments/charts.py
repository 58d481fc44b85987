"""Server-side SVG charts: plain SVG text, no plotting library. The same SVG string goes inline
into pages and into PDFs (WeasyPrint draws SVG ``<text>`` with the embedded Japanese font).

matplotlib drew each of these charts in 85–140 ms (text converted to paths), which every new deal
paid again on every player page; the charts are lines and bars over at most a few dozen points,
so writing the SVG directly takes well under a millisecond and leaves the text selectable and
readable by screen readers. Colours and lines are presentation attributes, never ``style``
attributes or ``<style>`` elements, so the Content-Security-Policy needs no exception.

Charts are drawn for the width they are shown at: a page gets two drawings of each chart, one
``NARROW`` (a 360 px phone shows it at about its own size, so 12-unit text reads as ≥ 11 px)
and one ``WIDTH`` wide, and the stylesheet shows the one that fits (``.chart-narrow``,
``.chart-wide``); PDFs use the wide one. Date labels never repeat (a label is written only where
it changes, and only as many as fit), and a legend has a row of its own above the plot.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from html import escape

from django.utils.translation import gettext

from .models import Game

WIDTH = 640
HEIGHT = 260
NARROW = 340  # the content width of a 360 px phone (main's padding 2 × 10)
NARROW_HEIGHT = 240
FONT_SIZE = {WIDTH: 11, NARROW: 12}  # in chart units; NARROW is shown at ≈ 1:1 on a phone
LABEL_ROOM = 16  # chart units a rotated date label needs beside the next one
FONT = "IPAexGothic, 'IPAex Gothic', 'Hiragino Sans', 'Noto Sans CJK JP', sans-serif"
GRID = "#dddddd"
AXIS = "#888888"
TEXT = "#222222"
LINE_COLOURS = ("#9b1c1c", "#1d4e89", "#1b6e2f")
POSITIVE = "#1b6e2f"
NEGATIVE = "#a11111"


def _num(value: float) -> str:
    """Coordinates with one decimal: short output, still exact enough for 640 px."""
    return f"{value:.1f}".removesuffix(".0")


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round tick values (1, 2, 5 × 10ⁿ steps) covering [low, high] and always 0."""
    low, high = min(low, 0), max(high, 0)
    if low == high:
        high = low + 1
    raw = (high - low) / max(1, count)
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    start = math.floor(low / step) * step
    ticks = []
    value = start
    while value <= high + step * 1e-9:
        ticks.append(round(value, 10))
        value += step
    if ticks[-1] < high:
        ticks.append(ticks[-1] + step)
    return ticks


def _tick_label(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


class _Svg:
    def __init__(self, width: int, height: int, title: str):
        self.width, self.height = width, height
        self.font = FONT_SIZE.get(width, 11)
        self.parts = [
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
            f'width="{width}" height="{height}" role="img" aria-label="{escape(title)}" '
            f'font-family="{escape(FONT)}" font-size="{self.font}" fill="{TEXT}">',
            f"<title>{escape(title)}</title>",
            f'<text x="{width / 2:g}" y="16" text-anchor="middle" font-size="{self.font + 2}">'
            f"{escape(title)}</text>",
        ]

    def add(self, element: str) -> None:
        self.parts.append(element)

    def line(self, x1, y1, x2, y2, colour: str, width: float = 1) -> None:
        self.add(
            f'<line x1="{_num(x1)}" y1="{_num(y1)}" x2="{_num(x2)}" y2="{_num(y2)}" '
            f'stroke="{colour}" stroke-width="{width:g}"/>'
        )

    def text(self, x, y, label: str, anchor: str = "middle", rotate: float = 0) -> None:
        x, y = _num(x), _num(y)
        transform = f' transform="rotate({rotate:g} {x} {y})"' if rotate else ""
        self.add(
            f'<text x="{x}" y="{y}" text-anchor="{anchor}"{transform}>{escape(str(label))}</text>'
        )

    def done(self) -> str:
        return "".join(self.parts) + "</svg>"


class _Frame:
    """The plotting area and the value axis of a vertical chart."""

    def __init__(self, svg: _Svg, values: Sequence[float], left=None, right=12, top=30,
                 bottom=66):  # fmt: skip
        left = left if left is not None else 54  # room for the first rotated date
        self.left, self.right = left, svg.width - right
        self.top, self.bottom = top, svg.height - bottom
        self.ticks = nice_ticks(min(values, default=0), max(values, default=0))
        self.low, self.high = self.ticks[0], self.ticks[-1]
        for tick in self.ticks:
            y = self.y(tick)
            svg.line(self.left, y, self.right, y, AXIS if tick == 0 else GRID, 0.8)
            svg.text(self.left - 6, y + 4, _tick_label(tick), anchor="end")

    def y(self, value: float) -> float:
        span = (self.high - self.low) or 1
        return self.bottom - (value - self.low) / span * (self.bottom - self.top)

    def ys_text(self, values: Sequence[float]) -> list[str]:
        """``_num(self.y(v))`` of each value, the same arithmetic in one pass."""
        low, bottom, height = self.low, self.bottom, self.bottom - self.top
        span = (self.high - low) or 1
        return [f"{bottom - (v - low) / span * height:.1f}".removesuffix(".0") for v in values]

    def x_labels(self, svg: _Svg, labels: Sequence[str], xs: Sequence[float]) -> None:
        """Each distinct label once (where it first appears), and only as many as fit side by
        side; the last one always (the latest date)."""
        shown: list[int] = []
        room = LABEL_ROOM * svg.font / 11
        for i, label in enumerate(labels):
            if shown and labels[shown[-1]] == label:
                continue
            if shown and xs[i] - xs[shown[-1]] < room:
                continue
            shown.append(i)
        last = len(labels) - 1
        if labels and labels[last] not in [labels[i] for i in shown]:
            while shown and xs[last] - xs[shown[-1]] < room:
                shown.pop()
            shown.append(last)
        for i in shown:
            svg.text(xs[i] + 4, self.bottom + 14, labels[i], anchor="end", rotate=-45)


def line_chart(
    *, labels: Sequence[str], series: dict[str, Sequence[int]], title: str, salt: str = "",
    width: int = WIDTH,
) -> str:  # fmt: skip
    """Cumulative points: one line per series over the same month labels."""
    return _line_chart(tuple(labels), tuple((k, tuple(v)) for k, v in series.items()), str(title),
                       width)  # fmt: skip


def _height(width: int) -> int:
    return HEIGHT if width >= WIDTH else NARROW_HEIGHT


# A chart depends only on its data: the same data (no new deal since) reuses the drawing.
@lru_cache(maxsize=1024)
def _line_chart(labels: tuple, series: tuple, title: str, width: int = WIDTH) -> str:
    svg = _Svg(width, _height(width), title)
    # A legend gets a row of its own under the title, never over the lines.
    top = 30 + (svg.font + 6 if len(series) > 1 else 0)
    frame = _Frame(svg, [v for _, values in series for v in values], top=top)
    count = max([len(labels)] + [len(values) for _, values in series])
    slot = (frame.right - frame.left) / max(1, count - 1) if count > 1 else 0
    xs = [
        frame.left + (i * slot if count > 1 else (frame.right - frame.left) / 2)
        for i in range(count)
    ]
    # Each point's coordinates written once, for its line and its dot (a rating chart has
    # two lines of up to 120 points, drawn at two widths).
    xs_text = [_num(x) for x in xs]
    for (name, values), colour in zip(series, LINE_COLOURS, strict=False):
        points = list(zip(xs_text, frame.ys_text(values), strict=False))
        svg.add(
            f'<polyline points="{" ".join([f"{x},{y}" for x, y in points])}" fill="none" '
            f'stroke="{colour}" stroke-width="1.6" '
            f'stroke-linejoin="round"><title>{escape(name)}</title></polyline>'
        )
        dot = f'" r="2.2" fill="{colour}"/>'
        svg.add("".join([f'<circle cx="{x}" cy="{y}{dot}' for x, y in points]))
    frame.x_labels(svg, labels, xs)
    if len(series) > 1:
        x, y = frame.left, 30 + svg.font / 2
        for (name, _), colour in zip(series, LINE_COLOURS, strict=False):
            svg.line(x, y, x + 16, y, colour, 2)
            svg.text(x + 20, y + svg.font / 3, name, anchor="start")
            x += 28 + svg.font * 0.62 * len(name) + 12
    return svg.done()


def bar_chart(
    *,
    labels: Sequence[str],
    values: Sequence[int],
    title: str,
    salt: str = "",
    horizontal: bool = False,
    width: int = WIDTH,
) -> str:
    """Points per month (or per player): green above zero, red below."""
    return _bar_chart(tuple(labels), tuple(values), str(title), horizontal, width)


@lru_cache(maxsize=1024)
def _bar_chart(labels: tuple, values: tuple, title: str, horizontal: bool,
               width: int = WIDTH) -> str:  # fmt: skip
    if horizontal:
        return _horizontal_bars(labels, values, title)
    svg = _Svg(width, _height(width), title)
    frame = _Frame(svg, values)
    slot = (frame.right - frame.left) / max(1, len(values))
    xs = [frame.left + slot * (i + 0.5) for i in range(len(values))]
    zero = frame.y(0)
    for x, label, value in zip(xs, labels, values, strict=False):
        y = frame.y(value)
        top = min(zero, y)
        height = abs(y - zero)
        svg.add(
            f'<rect x="{_num(x - slot * 0.35)}" y="{_num(top)}" width="{_num(slot * 0.7)}" '
            f'height="{_num(height)}" fill="{POSITIVE if value >= 0 else NEGATIVE}">'
            f"<title>{escape(str(label))}: {value}</title></rect>"
        )
    frame.x_labels(svg, labels, xs)
    return svg.done()


def _horizontal_bars(labels: tuple, values: tuple, title: str) -> str:
    row = 16
    height = max(115, 30 + row * len(values) + 26)
    svg = _Svg(WIDTH, height, title)
    left, right, top = 130, WIDTH - 16, 28
    bottom = top + row * len(values)
    ticks = nice_ticks(min(values, default=0), max(values, default=0))
    low, high = ticks[0], ticks[-1]
    span = (high - low) or 1

    def x(value: float) -> float:
        return left + (value - low) / span * (right - left)

    for tick in ticks:
        svg.line(x(tick), top, x(tick), bottom, AXIS if tick == 0 else GRID, 0.8)
        svg.text(x(tick), bottom + 14, _tick_label(tick))
    for i, (label, value) in enumerate(zip(labels, values, strict=False)):
        y = top + row * i
        start = min(x(0), x(value))
        svg.add(
            f'<rect x="{_num(start)}" y="{_num(y + 2)}" width="{_num(abs(x(value) - x(0)))}" '
            f'height="{row - 4}" fill="{POSITIVE if value >= 0 else NEGATIVE}">'
            f"<title>{escape(str(label))}: {value}</title></rect>"
        )
        svg.text(left - 6, y + row - 4, label, anchor="end")
    return svg.done()


# Builders from selector results (plain data in, SVG out).


def standings_chart(standings) -> str | None:
    """Points per player, best first; None when nobody has played."""
    rows = standings.rows[:40]
    if not rows:
        return None
    return bar_chart(
        labels=[r.name for r in rows],
        values=[r.points for r in rows],
        title=gettext("Points by player"),
        horizontal=True,
        salt=f"standings-{standings.game}-{standings.period.key}",
    )


@dataclass(frozen=True)
class Drawings:
    """One chart drawn twice: for a phone (``narrow``) and for a wider screen or a PDF."""

    narrow: str
    wide: str


def _both(draw, **kwargs) -> Drawings:
    return Drawings(narrow=draw(width=NARROW, **kwargs), wide=draw(width=WIDTH, **kwargs))


def month_range(first: str, last: str) -> list[str]:
    """Every month from ``first`` to ``last`` ("YYYY-MM"), idle months included."""
    year, month = int(first[:4]), int(first[5:7])
    out = []
    while f"{year:04d}-{month:02d}" <= last:
        out.append(f"{year:04d}-{month:02d}")
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return out


def player_charts(stats) -> tuple[Drawings | None, Drawings | None]:
    """(cumulative points over time, points per month), every game on the same month axis,
    idle months included (a month without deals keeps its place on the axis)."""
    played = sorted({row.month for rows in stats.months.values() for row in rows})
    if not played:
        return None, None
    months = month_range(played[0], played[-1])
    series: dict[str, list[int]] = {}
    monthly_total = dict.fromkeys(months, 0)
    for game in Game.values:
        rows = {row.month: row for row in stats.months.get(game, [])}
        if not rows:
            continue
        # Before the game's first month shown: its total from the months before the window.
        first = rows[min(rows)]
        running, values = first.cumulative - first.points, []
        for month in months:
            if month in rows:
                running = rows[month].cumulative
                monthly_total[month] += rows[month].points
            values.append(running)
        series[str(Game(game).label)] = values
    cumulative = _both(line_chart, labels=months, series=series,
                       title=gettext("Cumulative points"))  # fmt: skip
    monthly = _both(bar_chart, labels=months, values=[monthly_total[m] for m in months],
                    title=gettext("Points per month"))  # fmt: skip
    return cumulative, monthly


def rating_chart(curve) -> Drawings:
    """A player's rating over their deals: μ and the headline μ − 3σ (stored history rows);
    each date is written once, where the player's deals of that day begin."""
    return _both(
        line_chart,
        labels=curve.dates,
        series={"μ": curve.mu, "μ − 3σ": curve.score},
        title=gettext("Rating: %(game)s") % {"game": Game(curve.game).label},
    )
