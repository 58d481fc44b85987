"""Server-side SVG charts: plain SVG text, no plotting library. The same SVG string goes inline
into pages and into PDFs (WeasyPrint draws SVG ``<text>`` with the embedded Japanese font).

matplotlib drew each of these charts in 85–140 ms (text converted to paths), which every new deal
paid again on every player page; the charts are lines and bars over at most a few dozen points,
so writing the SVG directly takes well under a millisecond and leaves the text selectable and
readable by screen readers. Colours and lines are presentation attributes, never ``style``
attributes or ``<style>`` elements, so the Content-Security-Policy needs no exception.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from html import escape

WIDTH = 640
HEIGHT = 260
FONT = "IPAexGothic, 'IPAex Gothic', 'Hiragino Sans', 'Noto Sans CJK JP', sans-serif"
GRID = "#dddddd"
AXIS = "#888888"
TEXT = "#222222"
LINE_COLOURS = ("#9b1c1c", "#1d4e89", "#1b6e2f")
POSITIVE = "#1b6e2f"
NEGATIVE = "#a11111"


def _num(value: float) -> str:
    """Coordinates with one decimal: short output, still exact enough for 640 px."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


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
        self.parts = [
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
            f'width="{width}" height="{height}" role="img" aria-label="{escape(title)}" '
            f'font-family="{escape(FONT)}" font-size="11" fill="{TEXT}">',
            f"<title>{escape(title)}</title>",
            f'<text x="{width / 2:g}" y="16" text-anchor="middle" font-size="13">'
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
        transform = f' transform="rotate({rotate:g} {_num(x)} {_num(y)})"' if rotate else ""
        self.add(
            f'<text x="{_num(x)}" y="{_num(y)}" text-anchor="{anchor}"{transform}>'
            f"{escape(str(label))}</text>"
        )

    def done(self) -> str:
        return "".join(self.parts) + "</svg>"


class _Frame:
    """The plotting area and the value axis of a vertical chart."""

    def __init__(self, svg: _Svg, values: Sequence[float], left=52, right=12, top=30, bottom=58):
        self.left, self.right = left, WIDTH - right
        self.top, self.bottom = top, HEIGHT - bottom
        self.ticks = nice_ticks(min(values, default=0), max(values, default=0))
        self.low, self.high = self.ticks[0], self.ticks[-1]
        for tick in self.ticks:
            y = self.y(tick)
            svg.line(self.left, y, self.right, y, AXIS if tick == 0 else GRID, 0.8)
            svg.text(self.left - 6, y + 4, _tick_label(tick), anchor="end")

    def y(self, value: float) -> float:
        span = (self.high - self.low) or 1
        return self.bottom - (value - self.low) / span * (self.bottom - self.top)

    def x_labels(self, svg: _Svg, labels: Sequence[str], xs: Sequence[float]) -> None:
        step = max(1, math.ceil(len(labels) / 12))
        for i in range(0, len(labels), step):
            svg.text(xs[i] + 4, self.bottom + 14, labels[i], anchor="end", rotate=-45)


def line_chart(
    *, labels: Sequence[str], series: dict[str, Sequence[int]], title: str, salt: str = ""
) -> str:
    """Cumulative points: one line per series over the same month labels."""
    return _line_chart(tuple(labels), tuple((k, tuple(v)) for k, v in series.items()), str(title))


# A chart depends only on its data: the same data (no new deal since) reuses the drawing.
@lru_cache(maxsize=1024)
def _line_chart(labels: tuple, series: tuple, title: str) -> str:
    svg = _Svg(WIDTH, HEIGHT, title)
    frame = _Frame(svg, [v for _, values in series for v in values])
    count = max([len(labels)] + [len(values) for _, values in series])
    slot = (frame.right - frame.left) / max(1, count - 1) if count > 1 else 0
    xs = [
        frame.left + (i * slot if count > 1 else (frame.right - frame.left) / 2)
        for i in range(count)
    ]
    for (name, values), colour in zip(series, LINE_COLOURS, strict=False):
        points = " ".join(f"{_num(xs[i])},{_num(frame.y(v))}" for i, v in enumerate(values))
        svg.add(
            f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="1.6" '
            f'stroke-linejoin="round"><title>{escape(name)}</title></polyline>'
        )
        for i, v in enumerate(values):
            svg.add(f'<circle cx="{_num(xs[i])}" cy="{_num(frame.y(v))}" r="2.2" fill="{colour}"/>')
    frame.x_labels(svg, labels, xs)
    if len(series) > 1:
        x = frame.right - 4
        for row, ((name, _), colour) in enumerate(zip(series, LINE_COLOURS, strict=False)):
            y = frame.top + 4 + row * 14
            svg.line(x - 16, y, x, y, colour, 2)
            svg.text(x - 20, y + 4, name, anchor="end")
    return svg.done()


def bar_chart(
    *,
    labels: Sequence[str],
    values: Sequence[int],
    title: str,
    salt: str = "",
    horizontal: bool = False,
) -> str:
    """Points per month (or per player): green above zero, red below."""
    return _bar_chart(tuple(labels), tuple(values), str(title), horizontal)


@lru_cache(maxsize=1024)
def _bar_chart(labels: tuple, values: tuple, title: str, horizontal: bool) -> str:
    if horizontal:
        return _horizontal_bars(labels, values, title)
    svg = _Svg(WIDTH, HEIGHT, title)
    frame = _Frame(svg, values)
    slot = (frame.right - frame.left) / max(1, len(values))
    xs = [frame.left + slot * (i + 0.5) for i in range(len(values))]
    zero = frame.y(0)
    for x, label, value in zip(xs, labels, values, strict=False):
        top = min(zero, frame.y(value))
        height = abs(frame.y(value) - zero)
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
    from django.utils.translation import gettext

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


def player_charts(stats) -> tuple[str | None, str | None]:
    """(cumulative points over time, points per month), every game on the same month axis."""
    from django.utils.translation import gettext

    from .models import Game

    months = sorted({row.month for rows in stats.months.values() for row in rows})
    if not months:
        return None, None
    series: dict[str, list[int]] = {}
    monthly_total = dict.fromkeys(months, 0)
    for game in Game.values:
        rows = {row.month: row for row in stats.months.get(game, [])}
        if not rows:
            continue
        running, values = 0, []
        for month in months:
            if month in rows:
                running = rows[month].cumulative
                monthly_total[month] += rows[month].points
            values.append(running)
        series[str(Game(game).label)] = values
    salt = f"player-{stats.player.pk}"
    cumulative = line_chart(
        labels=months, series=series, title=gettext("Cumulative points"), salt=salt + "-c"
    )
    monthly = bar_chart(
        labels=months,
        values=[monthly_total[m] for m in months],
        title=gettext("Points per month"),
        salt=salt + "-m",
    )
    return cumulative, monthly


def rating_chart(curve) -> str:
    """A player's rating over their deals: μ and the headline μ − 3σ (stored history rows)."""
    from django.utils.translation import gettext

    from .models import Game

    return line_chart(
        labels=curve.dates,
        series={"μ": curve.mu, "μ − 3σ": curve.score},
        title=gettext("Rating: %(game)s") % {"game": Game(curve.game).label},
    )
