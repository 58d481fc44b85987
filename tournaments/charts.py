"""Server-side SVG charts (matplotlib, Agg). The same SVG string goes inline into pages and
into PDFs. Text is drawn as paths with IPAex Gothic, so Japanese labels need no client font."""

from __future__ import annotations

import io
import re
import threading
from collections.abc import Sequence
from functools import lru_cache

import matplotlib

matplotlib.use("Agg")

from django.conf import settings  # noqa: E402
from matplotlib import font_manager  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

_lock = threading.Lock()  # matplotlib's font cache and rcParams are not thread-safe
_font_family: list[str] | None = None
_XML_HEAD = re.compile(r"^.*?(?=<svg)", re.S)


def _fonts() -> list[str]:
    global _font_family
    if _font_family is None:
        family = []
        for path in settings.PDF_FONT_PATHS:
            if path.exists():
                font_manager.fontManager.addfont(str(path))
                family.append(font_manager.FontProperties(fname=str(path)).get_name())
                break
        _font_family = family + ["DejaVu Sans"]
    return _font_family


_COMMENT = re.compile(r"<!--.*?-->", re.S)


def _rc(salt: str) -> dict:
    # parse_math off: a player called "$x$" is a name, not a formula.
    return {
        "svg.hashsalt": salt,
        "svg.fonttype": "path",
        "font.family": _fonts(),
        "text.parse_math": False,
    }


def _svg(fig: Figure) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight")
    # Drop the XML declaration/doctype (inline in HTML) and the comments matplotlib writes
    # with each label's text: names appear only as drawn paths.
    return _COMMENT.sub("", _XML_HEAD.sub("", buf.getvalue(), count=1))


def _figure() -> Figure:
    fig = Figure(figsize=(6.4, 2.6), dpi=72)
    return fig


def _style(ax) -> None:
    ax.grid(axis="y", color="#dddddd", linewidth=0.6)
    ax.spines[["top", "right"]].set_visible(False)
    ax.axhline(0, color="#888888", linewidth=0.8)
    ax.tick_params(labelsize=8)


def _ticks(ax, labels: Sequence[str]) -> None:
    step = max(1, len(labels) // 12)
    positions = list(range(0, len(labels), step))
    ax.set_xticks(positions, [labels[i] for i in positions], rotation=45, ha="right")


def line_chart(
    *, labels: Sequence[str], series: dict[str, Sequence[int]], title: str, salt: str
) -> str:
    """Cumulative points: one line per series over the same month labels."""
    return _line_chart(
        tuple(labels), tuple((k, tuple(v)) for k, v in series.items()), str(title), salt
    )


# A chart depends only on its data: the same data (no new deal since) reuses the drawing.
@lru_cache(maxsize=512)
def _line_chart(labels: tuple, series: tuple, title: str, salt: str) -> str:
    series = dict(series)
    with _lock, matplotlib.rc_context(_rc(salt)):
        fig = _figure()
        ax = fig.add_subplot()
        colors = ("#9b1c1c", "#1d4e89", "#1b6e2f")
        for (name, values), color in zip(series.items(), colors, strict=False):
            ax.plot(
                range(len(values)),
                values,
                marker="o",
                markersize=3,
                linewidth=1.6,
                color=color,
                label=name,
            )
        _style(ax)
        _ticks(ax, labels)
        if len(series) > 1:
            ax.legend(fontsize=8, frameon=False)
        ax.set_title(title, fontsize=10)
        return _svg(fig)


def bar_chart(
    *, labels: Sequence[str], values: Sequence[int], title: str, salt: str, horizontal: bool = False
) -> str:
    """Points per month (or per player): green above zero, red below."""
    return _bar_chart(tuple(labels), tuple(values), str(title), salt, horizontal)


@lru_cache(maxsize=512)
def _bar_chart(labels: tuple, values: tuple, title: str, salt: str, horizontal: bool) -> str:
    with _lock, matplotlib.rc_context(_rc(salt)):
        fig = _figure()
        if horizontal:
            fig.set_size_inches(6.4, max(1.6, 0.22 * len(values) + 0.8))
        ax = fig.add_subplot()
        colors = ["#1b6e2f" if v >= 0 else "#a11111" for v in values]
        positions = range(len(values))
        if horizontal:
            ax.barh(positions, values, color=colors)
            ax.set_yticks(list(positions), list(labels))
            ax.invert_yaxis()
            ax.grid(axis="x", color="#dddddd", linewidth=0.6)
            ax.spines[["top", "right"]].set_visible(False)
            ax.axvline(0, color="#888888", linewidth=0.8)
            ax.tick_params(labelsize=8)
        else:
            ax.bar(positions, values, color=colors)
            _style(ax)
            _ticks(ax, labels)
        ax.set_title(title, fontsize=10)
        return _svg(fig)


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


def rating_chart(curve, *, salt: str) -> str:
    """A player's rating over their deals: μ and the headline μ − 3σ (stored history rows)."""
    from django.utils.translation import gettext

    from .models import Game

    return line_chart(
        labels=curve.dates,
        series={"μ": curve.mu, "μ − 3σ": curve.score},
        title=gettext("Rating: %(game)s") % {"game": Game(curve.game).label},
        salt=salt + curve.game,
    )
