"""A rating-history chart as inline SVG, drawn on the server (no JavaScript).

:func:`rating_history_svg` takes the display rating after each rated game and returns an
``<svg>`` element with axes, grid lines, tick labels, one ``<polyline>`` through every point
(from two points on) and a dot per point (up to ``MAX_DOTS``). No games gives a message instead.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

WIDTH = 680
HEIGHT = 280
LEFT, RIGHT, TOP, BOTTOM = 56, 46, 16, 44
EMPTY_HEIGHT = 120
MAX_DOTS = 60


def _nice_step(span: float, target_ticks: int, steps: Sequence[float]) -> float:
    for step in steps:
        if span / step <= target_ticks:
            return step
    return steps[-1] * math.ceil(span / (steps[-1] * target_ticks))


def _fmt(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


@dataclass(frozen=True)
class _Plot:
    """Where values and games fall on the chart: ``n`` games, ratings from ``y_min`` to
    ``y_max`` (grid lines every ``y_step``)."""

    n: int
    y_min: float
    y_max: float
    y_step: float
    width: float = WIDTH - LEFT - RIGHT
    height: float = HEIGHT - TOP - BOTTOM

    @classmethod
    def of(cls, values: Sequence[int]) -> "_Plot":
        """Y: round numbers around the values, at least 100 points tall."""
        low, high = min(values), max(values)
        if high - low < 100:
            middle = (high + low) / 2
            low, high = middle - 50, middle + 50
        y_step = _nice_step(high - low, 5, (10, 20, 25, 50, 100, 200, 250, 500, 1000))
        return cls(len(values), math.floor(low / y_step) * y_step, math.ceil(high / y_step) * y_step, y_step)

    def y_of(self, value: float) -> float:
        return TOP + self.height - (value - self.y_min) / (self.y_max - self.y_min) * self.height

    def x_of(self, game: int) -> float:
        """Game 1 at the left edge, game n at the right (a single game in the middle)."""
        if self.n == 1:
            return LEFT + self.width / 2
        return LEFT + (game - 1) / (self.n - 1) * self.width


def rating_history_svg(
    values: Sequence[int],
    *,
    provisional_games: int = 0,
    label: str = "Rating history",
) -> SafeString:
    """The chart of ``values`` (display rating after game 1, 2, ...). The first
    ``provisional_games`` games are shaded as provisional."""
    n = len(values)
    height = HEIGHT if n else EMPTY_HEIGHT
    parts = [
        f'<svg class="rating-chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" '
        f'role="img" aria-label="{escape(label)}" data-points="{n}">',
        f"<title>{escape(label)}</title>",
    ]
    if n == 0:
        plot_w = WIDTH - LEFT - RIGHT
        parts.append(
            f'<rect class="frame" x="{LEFT}" y="{TOP}" width="{plot_w}" height="{EMPTY_HEIGHT - 2 * TOP}"/>'
            f'<text class="empty" x="{LEFT + plot_w / 2}" y="{EMPTY_HEIGHT / 2}" text-anchor="middle" '
            'dominant-baseline="middle">No rated games yet</text></svg>'
        )
        return mark_safe("".join(parts))
    plot = _Plot.of(values)
    parts += _provisional(plot, provisional_games) + _grid(plot) + _game_labels(plot) + _axes(plot)
    parts += _line(plot, values)
    parts.append("</svg>")
    return mark_safe("".join(parts))


def _provisional(plot: _Plot, provisional_games: int) -> list[str]:
    """The shade over the first games, while the rating was provisional."""
    if not provisional_games or plot.n <= 1:
        return []
    last = min(provisional_games, plot.n)
    parts = [
        f'<rect class="provisional" x="{_fmt(plot.x_of(1))}" y="{TOP}" width="{_fmt(plot.x_of(last) - plot.x_of(1))}" '
        f'height="{plot.height}"><title>Provisional: first {provisional_games} games</title></rect>'
    ]
    if last >= max(3, plot.n / 8):  # room for the word
        parts.append(f'<text class="provisional-label" x="{_fmt(plot.x_of(1) + 5)}" y="{TOP + 13}">provisional</text>')
    return parts


def _grid(plot: _Plot) -> list[str]:
    """The grid, and the ratings it marks."""
    parts = []
    tick = plot.y_min
    while tick <= plot.y_max + 1e-9:
        y = _fmt(plot.y_of(tick))
        parts.append(f'<line class="grid" x1="{LEFT}" y1="{y}" x2="{LEFT + plot.width}" y2="{y}"/>')
        parts.append(f'<text class="tick" x="{LEFT - 6}" y="{y}" text-anchor="end" dominant-baseline="middle">{int(tick)}</text>')
        tick += plot.y_step
    return parts


def _game_labels(plot: _Plot) -> list[str]:
    """Game numbers at round steps, always the last game."""
    n = plot.n
    x_step = int(_nice_step(max(n - 1, 1), 8, (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000)))
    games = sorted({1, *range(x_step, n + 1, x_step), n})
    if len(games) > 1 and games[-1] - games[-2] < x_step / 2 and games[-2] != 1:
        games.pop(-2)  # keep the last label clear of its neighbour
    parts = []
    bottom = TOP + plot.height
    for game in games:
        x = _fmt(plot.x_of(game))
        parts.append(f'<line class="tickmark" x1="{x}" y1="{bottom}" x2="{x}" y2="{bottom + 4}"/>')
        parts.append(f'<text class="tick" x="{x}" y="{bottom + 16}" text-anchor="middle">{game}</text>')
    return parts


def _axes(plot: _Plot) -> list[str]:
    """The axes and their titles."""
    bottom, middle = TOP + plot.height, TOP + plot.height / 2
    return [
        f'<line class="axis" x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{bottom}"/>',
        f'<line class="axis" x1="{LEFT}" y1="{bottom}" x2="{LEFT + plot.width}" y2="{bottom}"/>',
        f'<text class="axis-title" x="{LEFT + plot.width / 2}" y="{HEIGHT - 6}" text-anchor="middle">Rated games</text>',
        f'<text class="axis-title" x="14" y="{middle}" text-anchor="middle" '
        f'transform="rotate(-90 14 {middle})">Rating</text>',
    ]


def _line(plot: _Plot, values: Sequence[int]) -> list[str]:
    """The ratings: a line, a dot per game (when there are few) and the last rating's figure."""
    points = [(plot.x_of(i), plot.y_of(v)) for i, v in enumerate(values, start=1)]
    parts = []
    if plot.n > 1:
        parts.append(f'<polyline class="line" points="{" ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in points)}"/>')
    if plot.n <= MAX_DOTS:
        for game, ((x, y), value) in enumerate(zip(points, values), start=1):
            parts.append(
                f'<circle class="dot" cx="{_fmt(x)}" cy="{_fmt(y)}" r="3.5"><title>Game {game}: {value}</title></circle>'
            )
    last_x, last_y = points[-1]
    parts.append(f'<text class="last" x="{_fmt(last_x + 7)}" y="{_fmt(last_y)}" dominant-baseline="middle">{values[-1]}</text>')
    return parts
