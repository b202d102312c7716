"""The game standing: who wins if the game ends now, and how good a deal's points are.

Points in one deal are not all that matters: near the target, what counts is being lowest
when someone reaches it.  :func:`utility` turns one deal's points into a value for a seat
(higher is better) that Hard's search maximises; :func:`moon_choice` picks "add" or
"subtract" for a shooter.

>>> from games.engine import Rules
>>> moon_choice(Rules(moon="choose"), [62, 40, 55, 48], 0, {"subtract": [-26, 0, 0, 0], "add": [0, 26, 26, 26]})
'subtract'
>>> moon_choice(Rules(moon="choose"), [30, 80, 85, 90], 0, {"subtract": [-26, 0, 0, 0], "add": [0, 26, 26, 26]})
'add'
"""

from __future__ import annotations

from games.engine import MOON_OPTIONS
from games.engine.kernel import MOON_ADD, MOON_SUBTRACT

__all__ = ["outcome", "utility", "moon_choice", "WIN_VALUE"]

#: what winning the game is worth, in deal points
WIN_VALUE = 40.0
#: weight of the other seats' points (they are good for us, a little)
OTHERS_WEIGHT = 0.1


def outcome(rules, totals, me: int) -> "float | None":
    """None if the game goes on after these totals; else 1 (``me`` wins), 0.5 (shares the
    win) or 0 (loses)."""
    if max(totals) < rules.target:
        return None
    low = min(totals)
    tied = sum(1 for t in totals if t == low)
    if tied > 1 and rules.ties == "continue":
        return None
    if totals[me] != low:
        return 0.0
    return 1.0 if tied == 1 else 0.5


def utility(rules, scores, pts, me: int) -> float:
    """Value to ``me`` of a deal scoring ``pts`` when the totals before it were ``scores``."""
    n = len(pts)
    own = pts[me]
    u = OTHERS_WEIGHT * (sum(pts) - own) / (n - 1) - own
    totals = [s + p for s, p in zip(scores, pts)]
    if max(totals) >= rules.target:
        res = outcome(rules, totals, me)
        if res is not None:
            # ending the game: win or lose, and by how much we are ahead of the next best
            u += WIN_VALUE * (2 * res - 1)
    return u


def moon_choice(rules, scores, me: int, options: dict) -> str:
    """``"add"`` or ``"subtract"``: ``options`` maps each to the deal's points per seat.

    Take a choice that wins the game now; avoid one that loses it; otherwise subtract
    (it keeps the others away from the target while we are behind)."""
    results = {}
    for choice, pts in options.items():
        totals = [s + p for s, p in zip(scores, pts)]
        results[choice] = outcome(rules, totals, me)
    for choice in MOON_OPTIONS:
        if results.get(choice) == 1.0:
            return choice
    for choice in MOON_OPTIONS:
        if results.get(choice) == 0.5:
            return choice
    if results.get(MOON_SUBTRACT) == 0.0 and results.get(MOON_ADD) is None:
        return MOON_ADD
    return MOON_SUBTRACT
