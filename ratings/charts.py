"""A rating-history chart as inline SVG, drawn on the server (no JavaScript).

:func:`rating_history_svg` takes the display rating after each rated game and returns an
``<svg>`` element with axes, grid lines, tick labels, one ``<polyline>`` through every point
(from two points on) and a dot per point (up to ``MAX_DOTS``). No games gives a message instead.
"""
from __future__ import annotations

import math
from collections.abc import Sequence

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


def rating_history_svg(
    values: Sequence[int],
    *,
    provisional_games: int = 0,
    label: str = "Rating history",
) -> SafeString:
    """The chart of ``values`` (display rating after game 1, 2, ...). The first
    ``provisional_games`` games are shaded as provisional."""
    n = len(values)
    parts = [
        f'<svg class="rating-chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'role="img" aria-label="{escape(label)}" data-points="{n}">',
        f"<title>{escape(label)}</title>",
    ]
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    if n == 0:
        parts[0] = parts[0].replace(f"0 0 {WIDTH} {HEIGHT}", f"0 0 {WIDTH} {EMPTY_HEIGHT}")
        parts.append(
            f'<rect class="frame" x="{LEFT}" y="{TOP}" width="{plot_w}" height="{EMPTY_HEIGHT - 2 * TOP}"/>'
            f'<text class="empty" x="{LEFT + plot_w / 2}" y="{EMPTY_HEIGHT / 2}" text-anchor="middle" '
            'dominant-baseline="middle">No rated games yet</text></svg>'
        )
        return mark_safe("".join(parts))

    # Y: round numbers around the values, at least 100 points tall.
    low, high = min(values), max(values)
    if high - low < 100:
        middle = (high + low) / 2
        low, high = middle - 50, middle + 50
    y_step = _nice_step(high - low, 5, (10, 20, 25, 50, 100, 200, 250, 500, 1000))
    y_min = math.floor(low / y_step) * y_step
    y_max = math.ceil(high / y_step) * y_step

    def y_of(value: float) -> float:
        return TOP + plot_h - (value - y_min) / (y_max - y_min) * plot_h

    # X: game 1 at the left edge, game n at the right (a single game in the middle).
    def x_of(game: int) -> float:
        if n == 1:
            return LEFT + plot_w / 2
        return LEFT + (game - 1) / (n - 1) * plot_w

    if provisional_games and n > 1:
        last = min(provisional_games, n)
        parts.append(
            f'<rect class="provisional" x="{_fmt(x_of(1))}" y="{TOP}" width="{_fmt(x_of(last) - x_of(1))}" '
            f'height="{plot_h}"><title>Provisional: first {provisional_games} games</title></rect>'
        )
        if last >= max(3, n / 8):  # room for the word
            parts.append(
                f'<text class="provisional-label" x="{_fmt(x_of(1) + 5)}" y="{TOP + 13}">provisional</text>'
            )

    # Grid and Y labels.
    tick = y_min
    while tick <= y_max + 1e-9:
        y = _fmt(y_of(tick))
        parts.append(f'<line class="grid" x1="{LEFT}" y1="{y}" x2="{LEFT + plot_w}" y2="{y}"/>')
        parts.append(f'<text class="tick" x="{LEFT - 6}" y="{y}" text-anchor="end" dominant-baseline="middle">{int(tick)}</text>')
        tick += y_step

    # X labels: game numbers at round steps, always the last game.
    x_step = int(_nice_step(max(n - 1, 1), 8, (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000)))
    games = sorted({1, *range(x_step, n + 1, x_step), n})
    if len(games) > 1 and games[-1] - games[-2] < x_step / 2 and games[-2] != 1:
        games.pop(-2)  # keep the last label clear of its neighbour
    for game in games:
        x = _fmt(x_of(game))
        parts.append(f'<line class="tickmark" x1="{x}" y1="{TOP + plot_h}" x2="{x}" y2="{TOP + plot_h + 4}"/>')
        parts.append(f'<text class="tick" x="{x}" y="{TOP + plot_h + 16}" text-anchor="middle">{game}</text>')

    # Axes and their titles.
    parts.append(f'<line class="axis" x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{TOP + plot_h}"/>')
    parts.append(f'<line class="axis" x1="{LEFT}" y1="{TOP + plot_h}" x2="{LEFT + plot_w}" y2="{TOP + plot_h}"/>')
    parts.append(
        f'<text class="axis-title" x="{LEFT + plot_w / 2}" y="{HEIGHT - 6}" text-anchor="middle">Rated games</text>'
    )
    parts.append(
        f'<text class="axis-title" x="14" y="{TOP + plot_h / 2}" text-anchor="middle" '
        f'transform="rotate(-90 14 {TOP + plot_h / 2})">Rating</text>'
    )

    # The data.
    points = [(x_of(i), y_of(v)) for i, v in enumerate(values, start=1)]
    if n > 1:
        coords = " ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in points)
        parts.append(f'<polyline class="line" points="{coords}"/>')
    if n <= MAX_DOTS:
        for game, ((x, y), value) in enumerate(zip(points, values), start=1):
            parts.append(
                f'<circle class="dot" cx="{_fmt(x)}" cy="{_fmt(y)}" r="3.5"><title>Game {game}: {value}</title></circle>'
            )
    last_x, last_y = points[-1]
    parts.append(
        f'<text class="last" x="{_fmt(last_x + 7)}" y="{_fmt(last_y)}" dominant-baseline="middle">{values[-1]}</text>'
    )
    parts.append("</svg>")
    return mark_safe("".join(parts))
