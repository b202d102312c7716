"""Bots always return a legal action, for every level, player count and rule set."""

import random

import pytest
from hypothesis import HealthCheck, given, settings as hsettings, strategies as st

from games import bots
from games.engine import Game, Rules

from tests.engine.helpers import any_rules

from .helpers import RULE_SETS, drive, random_levels


def _check(game, seat, view, action):
    assert view.seat == seat and seat in view.to_act
    if view.phase == "pass":
        assert isinstance(action, list) and len(action) == 3 and len(set(action)) == 3
        assert set(action) <= set(view.hand)
    elif view.phase == "play":
        assert action in view.legal
        assert game.why_illegal(seat, action) is None
    else:
        assert action in ("add", "subtract")


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: f"{r.players}p-{r.odd_cards}-{r.moon}")
def test_all_levels_play_legal_deals(rules):
    rng = random.Random(rules.players * 7 + len(rules.describe()))
    for game_seed in range(2):
        g = Game.new(rules, seed=game_seed)
        drive(g, random_levels(rng, rules.players), seed=game_seed, deals=2, check=_check)


@pytest.mark.parametrize("level", bots.LEVELS)
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_each_level_alone(level, players):
    g = Game.new(Rules(players=players), seed=players)
    drive(g, [level] * players, seed=3, deals=1, check=_check)


rules_strategy = any_rules()


@hsettings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rules_strategy, seed=st.integers(0, 10**6), levels_seed=st.integers(0, 10**6))
def test_random_rules_and_levels(rules, seed, levels_seed):
    g = Game.new(rules, seed=seed)
    drive(g, random_levels(random.Random(levels_seed), rules.players), seed=seed, deals=1, check=_check)


def test_moon_choice_is_legal_for_every_level():
    from .helpers import MOON_HANDS

    for level in bots.LEVELS:
        g = Game.new(Rules(moon="choose", passing="none"), hands=MOON_HANDS)
        while g.phase == "play":
            seat = g.to_act[0]
            g.apply(seat, bots.choose_action(g.view(seat), "medium"))
        assert g.phase == "moon_choice" and g.to_act == (0,)
        action = bots.choose_action(g.view(0), level, seed=1)
        assert action in ("add", "subtract")
        g.apply(0, action)


def test_refuses_unknown_level_and_wrong_turn():
    g = Game.new(Rules(passing="none"), seed=1)
    seat = g.to_act[0]
    with pytest.raises(ValueError, match="level"):
        bots.choose_action(g.view(seat), "grandmaster")
    with pytest.raises(ValueError, match="nothing to do"):
        bots.choose_action(g.view((seat + 1) % 4), "medium")
