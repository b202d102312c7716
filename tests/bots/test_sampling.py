"""Hard's deals of the hidden cards agree with everything the seat knows."""

import random

from games import bots
from games.bots.sampling import sample
from games.bots.state import Knowledge
from games.engine import Game, Rules
from games.engine.kernel import SUIT_MASKS

from .helpers import RULE_SETS


def _check_world(k: Knowledge, hands, kitty):
    n = k.n
    assert hands[k.me] == k.hand
    seen = 0
    for s in range(n):
        assert hands[s] & seen == 0
        seen |= hands[s]
        if s != k.me:
            assert hands[s].bit_count() == k.view.hand_sizes[s]
            assert hands[s] & k.known[s] == k.known[s]
            for suit in k.view.voids[s]:
                assert hands[s] & SUIT_MASKS[suit.index] == 0
            assert (hands[s] & ~k.known[s]) & ~k.allowed[s] == 0
    assert kitty & seen == 0
    assert kitty.bit_count() == k.kitty_unknown
    assert (seen | kitty) & k.deal.played == 0
    assert seen | kitty | k.deal.played == k.cfg.deck_mask


def test_worlds_are_consistent():
    rng = random.Random(0)
    checked = 0
    for i, rules in enumerate(RULE_SETS):
        g = Game.new(rules, seed=100 + i)
        while g.deal_number == 1 and not g.is_over:
            for seat in g.to_act:
                v = g.view(seat)
                if v.phase == "play" and g.ply % 3 == 0:
                    k = Knowledge.from_view(v)
                    for _ in range(5):
                        _check_world(k, *sample(k, rng))
                        checked += 1
                g.apply(seat, bots.choose_action(v, "medium", seed=g.ply))
    assert checked > 200


def test_passed_cards_stay_with_the_receiver():
    g = Game.new(Rules(), seed=8)
    for seat in range(4):
        g.apply(seat, bots.choose_action(g.view(seat), "medium"))
    v = g.view(0)
    k = Knowledge.from_view(v)
    assert k.known[v.pass_target] and k.known[v.pass_target].bit_count() == 3
    hands, _ = sample(k, random.Random(1))
    for c in v.passed:
        assert hands[v.pass_target] >> c.index & 1


def test_heart_lead_before_broken_means_only_hearts():
    # seat 1 holds only hearts, so it may lead one before hearts are broken
    hands = [
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
        "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
        "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    ]
    g = Game.new(Rules(passing="none", lead="left_of_dealer", first_trick_points=True), hands=hands, dealer=0)
    assert g.to_act == (1,)
    g.apply(1, "2H")
    k = Knowledge.from_view(g.view(2))
    assert k.allowed[1] & ~SUIT_MASKS[3] == 0
