"""The speed-ups in Game behave exactly like the plain code they replace."""

import dataclasses
import random

import pytest

from games.engine import Card, Game, IllegalAction, PlayerView, Rules
from games.engine import kernel
from games.engine.cards import mask_to_cards

from .helpers import play_out


def test_shuffle_is_random_shuffle():
    for seed in [0, 1, 7, 2**40, "abc", "12/3", *range(100, 160)]:
        for n in (48, 50, 51, 52):
            a, b = list(range(n)), list(range(n))
            random.Random(seed).shuffle(a)
            kernel.shuffle(b, random.Random(seed))
            assert a == b


def test_deal_is_the_shuffled_deck():
    for rules in (Rules(), Rules(players=3), Rules(players=5, odd_cards="kitty"), Rules(players=6)):
        for seed in (1, "x", 99):
            g = Game.new(rules, seed=seed)
            deck = list(rules.deck)
            random.Random(seed).shuffle(deck)
            hs = rules.hand_size
            assert g.hands == tuple(tuple(sorted(deck[s * hs:(s + 1) * hs])) for s in range(rules.players))
            assert g.kitty == tuple(sorted(deck[rules.players * hs:]))


def _views_equal_constructor(g):
    names = [f.name for f in dataclasses.fields(PlayerView)]
    for seat in range(g.players):
        v = g.view(seat)
        assert list(vars(v)) == names
        assert v == PlayerView(**{k: getattr(v, k) for k in names})
        with pytest.raises(dataclasses.FrozenInstanceError):
            v.seat = 3


def test_view_is_a_plain_player_view():
    rng = random.Random(3)
    for rules in (Rules(), Rules(players=3, odd_cards="kitty"), Rules(moon="choose", passing="none")):
        g = Game.new(rules, seed=11)
        for _ in range(3):
            _views_equal_constructor(g)
            play_out(g, rng)
            _views_equal_constructor(g)


def test_legal_is_a_fresh_list_each_time():
    g = Game.new(Rules(passing="none"), seed=5)
    s = g.to_act[0]
    a = g.legal(s)
    a.append("junk")
    assert g.legal(s) == [Card.parse("2C")]
    assert g.legal(s) == list(mask_to_cards(g._deal.legal))


def test_copies_keep_their_own_tricks():
    rng = random.Random(8)
    g = Game.new(Rules(passing="none"), seed=8)
    for _ in range(12):
        g.apply(g.to_act[0], rng.choice(g.legal(g.to_act[0])))
    first = g.tricks
    c = g.copy()
    for game in (g, c):
        for _ in range(8):
            game.apply(game.to_act[0], rng.choice(game.legal(game.to_act[0])))
    assert g.tricks[:3] == c.tricks[:3] == first
    replayed = Game.from_dict(g.to_dict())
    assert replayed.tricks == g.tricks
    assert Game.from_dict(c.to_dict()).tricks == c.tricks


@pytest.mark.parametrize("action", [[["2C"], "3C", "4C"], ["2C", "3C", 7], [{"x"}, "2C", "3C"]])
def test_pass_with_odd_items(action):
    g = Game.new(Rules(), seed=1)
    with pytest.raises(IllegalAction, match="^Play one card"):
        g.apply(0, action)


def test_play_with_odd_actions():
    g = Game.new(Rules(passing="none"), seed=5)
    s = g.to_act[0]
    other = next(str(c) for c in g.hands[s] if str(c) != "2C")
    for action, match in [(["2C"], "^Play one card"), (7, "^Play one card"), ("XX", "^Not a card"),
                          (other, "^The first trick must be led with the 2♣.$")]:
        with pytest.raises(IllegalAction, match=match):
            g.apply(s, action)
    missing = next(code for code in ("AH", "KH", "QH") if code not in {str(c) for c in g.hands[s]})
    with pytest.raises(IllegalAction, match=f"^You don't hold {Card.parse(missing).symbol}."):
        g.apply(s, missing)
    for text in (" 2c ", "2♣"):
        assert g.copy().apply(s, text)[0]["card"] == "2C"

    class Seat(int):
        pass

    assert g.copy().apply(Seat(s), "2C")[0]["seat"] == s
    with pytest.raises(IllegalAction, match="^There is no seat True"):
        g.apply(True, "2C")
