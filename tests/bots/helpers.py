"""Shared helpers for the bots tests: scenario deals and random games."""

from __future__ import annotations

import random

from games import bots
from games.engine import Game, Rules

#: 4 hands for a scripted deal (see test_medium): seat 3 is void in clubs and diamonds
DUCK_HANDS = [
    "2C 3C 4C 6C 7C 8C 2D 3D 4D 5D 6D 7D 8D",
    "KC TC JC 9D TD JD QD KD AD 2S 3S 4S 5S",
    "5C 9C QC AC 6S 7S 8S 9S TS JS 2H 3H 4H",
    "QS KS AS 5H 6H 7H 8H 9H TH JH QH KH AH",
]

#: seat 0 holds every club, so it wins every trick and shoots the moon
MOON_HANDS = [
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
]

RULE_SETS = [
    Rules(),
    Rules(players=3),
    Rules(players=5),
    Rules(players=6),
    Rules(players=3, odd_cards="kitty", moon="choose"),
    Rules(players=5, odd_cards="kitty", jack_of_diamonds=True),
    Rules(players=6, odd_cards="kitty", black_maria=True, moon="subtract_26"),
    Rules(jack_of_diamonds=True, moon="choose", hearts_lead="queen_breaks"),
    Rules(black_maria=True, first_trick_points=True, moon="off", passing="left"),
    Rules(lead="left_of_dealer", hearts_lead="any", passing="none"),
    Rules(players=5, lead="left_of_dealer", first_trick_points=True, black_maria=True),
    Rules(players=4, target=30, ties="share", moon="choose", jack_of_diamonds=True, black_maria=True),
]

FAST_HARD = {"samples": 2}


def drive(game: Game, levels, seed: int = 0, deals: int = 1, check=None, hard_options=None):
    """Play ``deals`` deals of ``game`` with bots, calling ``check(game, seat, view, action)``
    before each action.  Illegal actions raise (the Game referees)."""
    start = game.deal_number
    hard_options = FAST_HARD if hard_options is None else hard_options
    while game.deal_number < start + deals and not game.is_over:
        for seat in game.to_act:
            view = game.view(seat)
            level = levels[seat]
            opts = hard_options if level in bots.SEARCHES else {}
            action = bots.choose_action(view, level, seed=seed * 1000 + game.ply, **opts)
            if check is not None:
                check(game, seat, view, action)
            game.apply(seat, action)
    return game


def random_levels(rng: random.Random, n: int):
    return [rng.choice(bots.LEVELS) for _ in range(n)]
