"""Hints: a legal suggestion with a reason, quickly."""

import random
import statistics
import time

from games import bots
from games.bots import Hint
from games.engine import Game, Rules

from .helpers import MOON_HANDS, RULE_SETS


def _positions(rules, seed, every=3):
    """Views of seats to act along a Medium game, every few plies."""
    g = Game.new(rules, seed=seed)
    out = []
    while g.deal_number == 1 and not g.is_over:
        for seat in g.to_act:
            v = g.view(seat)
            if g.ply % every == 0 or v.phase != "play":
                out.append(v)
            g.apply(seat, bots.choose_action(v, "medium", seed=g.ply))
    return out


def _legal(view, action):
    if view.phase == "pass":
        return isinstance(action, list) and len(set(action)) == 3 and set(action) <= set(view.hand)
    if view.phase == "play":
        return action in view.legal
    return action in ("add", "subtract")


def test_hints_are_legal_with_a_reason_and_fast():
    times = []
    for i, rules in enumerate(RULE_SETS[:8]):
        for v in _positions(rules, seed=i, every=4):
            t = time.perf_counter()
            h = bots.hint(v)
            times.append(time.perf_counter() - t)
            assert isinstance(h, Hint)
            assert _legal(v, h.action), (v.phase, h)
            assert isinstance(h.reason, str) and len(h.reason) > 10 and "\n" not in h.reason
    assert statistics.median(times) < 0.3
    assert max(times) < 1.5  # generous: the test machine may be busy


def test_hint_is_frozen():
    h = Hint("add", "x")
    try:
        h.reason = "y"
    except Exception:
        pass
    assert h.reason == "x"


def test_moon_choice_hint():
    g = Game.new(Rules(moon="choose", passing="none"), hands=MOON_HANDS)
    while g.phase == "play":
        g.apply(g.to_act[0], bots.choose_action(g.view(g.to_act[0]), "medium"))
    h = bots.hint(g.view(0))
    assert h.action in ("add", "subtract") and "26" in h.reason


def test_hint_when_not_your_turn():
    g = Game.new(Rules(passing="none"), seed=2)
    other = (g.to_act[0] + 1) % 4
    h = bots.hint(g.view(other))
    assert h.action is None and h.reason


def test_first_lead_hint_names_the_club():
    g = Game.new(Rules(passing="none"), seed=5)
    h = bots.hint(g.view(g.to_act[0]))
    assert str(h.action) == "2C" and "2♣" in h.reason


def test_pass_hint_says_what_and_why():
    rng = random.Random(3)
    for seed in range(5):
        g = Game.new(Rules(), seed=seed + rng.randint(0, 99))
        v = g.view(0)
        h = bots.hint(v)
        assert h.reason.startswith("Pass ") and h.action == bots.choose_action(v, "medium")
