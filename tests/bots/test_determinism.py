"""Same view and seed, same decision — for every level, also across processes' worth of calls."""

import pytest

from games import bots
from games.engine import Game, Rules

from .helpers import RULE_SETS, drive


def _views(rules, seed):
    views = []

    def keep(game, seat, view, action):
        views.append(view)

    drive(Game.new(rules, seed=seed), ["medium"] * rules.players, seed=seed, check=keep)
    return views[:: max(1, len(views) // 12)]


@pytest.mark.parametrize("level", bots.LEVELS)
def test_same_seed_same_action(level):
    opts = {"samples": 8} if level in bots.SEARCHES else {}
    for i, rules in enumerate(RULE_SETS[:6]):
        for v in _views(rules, seed=i):
            a = bots.choose_action(v, level, seed=42, **opts)
            b = bots.choose_action(v, level, seed=42, **opts)
            assert a == b


def test_hard_default_effort_is_deterministic():
    views = _views(Rules(), seed=3)
    plays = [v for v in views if v.phase == "play" and len(v.legal) > 1][:3]
    assert plays
    for v in plays:
        assert bots.choose_action(v, "hard", seed=9) == bots.choose_action(v, "hard", seed=9)


def test_whole_games_replay_identically():
    def play(seed):
        g = Game.new(Rules(players=5, moon="choose"), seed=seed)
        drive(g, ["hard", "medium", "easy", "medium", "hard"], seed=seed, deals=2)
        return g.to_dict()["log"]

    assert play(4) == play(4)
