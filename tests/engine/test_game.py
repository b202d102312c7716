"""Passing, views, dealing, saving, replay and copying."""

import json
import random

import pytest

from games.engine import Card, Game, IllegalAction, PassDirection, PlayerView, Rules, Trick

from .helpers import play, play_out, strs

# -- passing ---------------------------------------------------------------------------------


def test_pass_phase_basics():
    g = Game.new(Rules(), seed=1)
    assert g.phase == "pass" and g.to_act == (0, 1, 2, 3) and g.pass_direction == PassDirection.LEFT
    assert g.leader is None and g.turn is None and g.is_first_trick
    for s in range(4):
        assert g.legal(s) == list(g.hands[s]) and len(g.hands[s]) == 13
    give = g.hands[0][:3]
    events = g.apply(0, list(give))
    assert events == [{"type": "cards_passed", "seat": 0, "deal": 1}]
    assert g.to_act == (1, 2, 3) and g.legal(0) == [] and len(g.hands[0]) == 10
    v0, v1 = g.view(0), g.view(1)
    assert v0.passed == give and v0.received is None and v0.pass_target == 1 and v0.legal == ()
    assert v1.passed is None and v1.passed_done == (0,) and v1.hand_sizes == (10, 13, 13, 13)
    assert g.why_illegal(0, g.hands[0][0]) == "You have already passed — waiting for seats 1, 2 and 3."
    with pytest.raises(IllegalAction, match="already passed"):
        g.apply(0, list(g.hands[0][:3]))


def test_pass_validation_messages():
    g = Game.new(Rules(), seed=2)
    h = list(g.hands[1])
    not_held = next(c for c in Rules().deck if c not in h)
    cases = [
        (h[:2], "^Pass exactly 3 cards.$"), (h[:4], "^Pass exactly 3 cards.$"), (h[0], "^Pass exactly 3 cards.$"),
        ([h[0], h[0], h[1]], "3 different cards"), ([h[0], h[1], not_held], f"^You don't hold {not_held.symbol}.$"),
        (["2C", "3C", "XX"], "Not a card"), (42, "Pass exactly 3 cards"),
    ]
    before = g.to_dict()
    for action, match in cases:
        with pytest.raises(IllegalAction, match=match):
            g.apply(1, action)
    assert g.to_dict() == before
    assert g.why_illegal(1, not_held) == f"You don't hold {not_held.symbol}."
    assert g.why_illegal(1, h[0]) is None
    g.apply(1, " ".join(str(c) for c in h[:3]))  # a string of 3 cards is fine too
    assert g.view(1).passed == tuple(h[:3])


@pytest.mark.parametrize("players,deal,direction,offset", [
    (4, 1, "left", 1), (4, 2, "right", 3), (4, 3, "across", 2), (6, 3, "across", 3),
    (3, 2, "right", 2), (5, 1, "left", 1), (5, 2, "right", 4),
])
def test_pass_exchange(players, deal, direction, offset):
    g = Game.new(Rules(players=players), seed=deal * 10 + players, deal_number=deal)
    assert g.pass_direction == direction
    before = g.hands
    given = {}
    for s in reversed(range(players)):
        given[s] = before[s][-3:]
        events = g.apply(s, list(given[s]))
        assert g.view(s).received is None or s == 0
    assert events[-1] == {"type": "passes_done", "deal": deal, "direction": direction, "leader": g.leader}
    assert g.phase == "play"
    for s in range(players):
        t = (s + offset) % players
        v = g.view(t)
        assert v.received == tuple(sorted(given[s]))
        assert g.view(s).pass_target == t and g.view(s).passed == tuple(sorted(given[s]))
        assert set(given[s]) <= set(g.hands[t])
        assert set(g.hands[t]) == (set(before[t]) - set(given[t])) | set(given[s])
        assert v.passed_done == tuple(range(players))
    low = g.legal(g.to_act[0])
    assert len(low) == 1 and low[0].suit == "C"


@pytest.mark.parametrize("players,deal", [(4, 4), (6, 4), (3, 3), (5, 3)])
def test_hold_deal_plays_at_once(players, deal):
    g = Game.new(Rules(players=players), seed=5, deal_number=deal)
    assert g.pass_direction == "hold" and g.phase == "play"
    v = g.view(0)
    assert v.pass_target is None and v.passed is None and v.received is None and v.passed_done == ()


def test_passing_always_left_and_none():
    g = Game.new(Rules(passing="left"), seed=1, deal_number=3)
    assert g.pass_direction == "left" and g.phase == "pass"
    g = Game.new(Rules(passing="none"), seed=1)
    assert g.pass_direction == "hold" and g.phase == "play"


# -- dealing -----------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("odd", ["remove", "kitty"])
def test_deal_sizes(players, odd):
    rules = Rules(players=players, odd_cards=odd)
    g = Game.new(rules, seed=players)
    assert [len(h) for h in g.hands] == [rules.hand_size] * players
    allc = [c for h in g.hands for c in h] + list(g.kitty)
    assert sorted(allc) == list(rules.deck) and len(set(allc)) == len(allc)
    assert not set(allc) & set(rules.removed)
    assert all(list(h) == sorted(h) for h in g.hands)
    assert g.view(0).removed == rules.removed


def test_seeded_deals_are_deterministic_including_later_deals():
    a, b = Game.new(Rules(), seed=99), Game.new(Rules(), seed=99)
    assert a.hands == b.hands and a.hands != Game.new(Rules(), seed=100).hands
    play_out(a, random.Random(1))
    play_out(b, random.Random(1))
    assert a.deal_number == b.deal_number == 2 and a.hands == b.hands
    c = Game.new(Rules(), seed=99, deal_number=2)
    assert c.hands == a.hands  # a deal depends on seed and deal number only
    assert Game.new(Rules(), seed="table-7").hands == Game.new(Rules(), seed="table-7").hands


def test_seed_none_is_reproducible_from_to_dict():
    g = Game.new(Rules())
    assert isinstance(g.seed, int)
    assert Game.from_dict(g.to_dict()).hands == g.hands


@pytest.mark.parametrize("hands,kitty,match", [
    (["2C 3C"] * 4, None, "must get 13"),
    ([["2C"] * 13] * 4, None, "dealt twice"),
    (None, None, None),
])
def test_bad_hands_rejected(hands, kitty, match):
    if hands is None:
        return
    with pytest.raises(ValueError, match=match):
        Game.new(Rules(), hands=hands, kitty=kitty)


def test_bad_deals_rejected():
    deck = list(Rules().deck)
    with pytest.raises(ValueError, match="4 hands"):
        Game.new(Rules(), hands=[deck[:13]] * 3)
    r3 = Rules(players=3)
    d3 = list(r3.deck)
    with_removed = [d3[:16] + [Card.parse("2D")], d3[16:33], d3[33:50]]
    with pytest.raises(ValueError, match="taken out"):
        Game.new(r3, hands=with_removed)
    rk = Rules(players=3, odd_cards="kitty")
    full = list(rk.deck)
    hands = [full[:17], full[17:34], full[34:51]]
    assert [str(c) for c in Game.new(rk, hands=hands).kitty] == [str(full[51])]
    with pytest.raises(ValueError, match="kitty"):
        Game.new(rk, hands=hands, kitty=[full[0]])
    with pytest.raises(ValueError, match="kitty"):
        Game.new(rk, hands=hands, kitty=[])
    with pytest.raises(ValueError, match="kitty"):
        Game.new(Rules(), hands=[deck[0:13], deck[13:26], deck[26:39], deck[39:52]], kitty=["2C"])
    with pytest.raises(ValueError, match="dealer"):
        Game.new(Rules(), dealer=4)
    with pytest.raises(ValueError, match="scores"):
        Game.new(Rules(), scores=[1, 2])
    with pytest.raises(ValueError, match="seed"):
        Game.new(Rules(), seed=1.5)
    with pytest.raises(TypeError):
        Game()


# -- views -----------------------------------------------------------------------------------


def test_view_fields_and_json():
    g = Game.new(Rules(), seed=8)
    for s in range(4):
        g.apply(s, g.legal(s)[:3])
    play(g, strs(g.legal(g.to_act[0])))
    v = g.view(2)
    assert isinstance(v, PlayerView) and v.seat == 2 and v.players == 4 and v.rules == Rules()
    assert v.hand == g.hands[2] and v.to_act == g.to_act and v.phase == "play"
    assert v.current_trick == g.current_trick and v.leader == g.leader and v.is_first_trick
    assert v.played == frozenset(c for _, c in g.current_trick)
    d = v.to_dict()
    assert json.loads(json.dumps(d)) == d
    fields = {
        "seat", "rules", "phase", "players", "dealer", "deal_number", "pass_direction", "hand", "legal",
        "to_act", "passed", "received", "pass_target", "passed_done", "current_trick", "leader", "tricks",
        "played", "hearts_broken", "hand_sizes", "points_taken", "kitty_size", "kitty", "kitty_taker", "removed", "voids",
        "scores", "deal_points", "winners", "moon_shooter", "is_first_trick", "moon_outcomes",
    }
    assert set(d) == fields
    with pytest.raises(Exception):
        v.seat = 3  # frozen


def test_view_tricks_after_a_trick():
    g = Game.new(Rules(passing="none"), seed=4)
    for _ in range(4):
        s = g.to_act[0]
        g.apply(s, g.legal(s)[-1])
    v = g.view(0)
    assert len(v.tricks) == 1 and isinstance(v.tricks[0], Trick)
    t = v.tricks[0]
    assert t.leader == g.tricks[0].leader and t.winner == g.tricks[0].winner and len(t.plays) == 4
    assert v.current_trick == () and v.leader == t.winner and not v.is_first_trick
    assert v.to_dict()["tricks"][0]["plays"][0] == [t.plays[0][0], str(t.plays[0][1])]


def test_the_view_names_who_took_the_kitty_once_the_first_trick_is_taken():
    g = Game.new(Rules(players=5, odd_cards="kitty"), seed=3)
    rng = random.Random(1)
    seen_taken = False
    while g.phase != "over" and g.deal_number == 1:
        for seat in range(5):
            v = g.view(seat)
            if v.tricks:
                assert v.kitty_taker == v.tricks[0].winner and v.kitty == tuple(sorted(g.kitty))
                seen_taken = True
            else:
                assert v.kitty_taker is None and v.kitty == ()
        seat = rng.choice(g.to_act)
        legal = g.legal(seat)
        g.apply(seat, rng.sample(legal, 3) if g.phase == "pass" else rng.choice(legal))
    assert seen_taken


def test_view_never_shows_other_hands():
    g = Game.new(Rules(players=5, odd_cards="kitty"), seed=3)
    rng = random.Random(0)
    while g.phase != "over" and g.deal_number == 1:
        for s in range(5):
            text = json.dumps(g.view(s).to_dict())
            for t in range(5):
                if t != s:
                    known = set(g.view(s).received or ()) | set(g.view(s).passed or ())
                    for c in g.hands[t]:
                        if c not in known:
                            assert f'"{c}"' not in text
            for c in g.kitty:
                if g.kitty_taker is None:
                    assert f'"{c}"' not in text
        seat = rng.choice(g.to_act)
        legal = g.legal(seat)
        g.apply(seat, rng.sample(legal, 3) if g.phase == "pass" else rng.choice(legal))


# -- saving, replay, copy -------------------------------------------------------------------------


def random_game(rules, seed, plies):
    g = Game.new(rules, seed=seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if g.phase == "over":
            break
        seat = rng.choice(g.to_act)
        legal = g.legal(seat)
        g.apply(seat, rng.sample(legal, 3) if g.phase == "pass" else rng.choice(legal))
    return g


def test_to_dict_round_trip():
    g = random_game(Rules(moon="choose", target=60), 5, 150)
    d = g.to_dict()
    assert json.loads(json.dumps(d)) == d
    h = Game.from_dict(json.loads(json.dumps(d)))
    assert h.to_dict() == d and h.ply == g.ply == len(d["log"])
    assert h.legal(h.to_act[0]) == g.legal(g.to_act[0]) if g.to_act else True
    assert d["log"][0] == {"deal": 1, "seat": d["log"][0]["seat"], "action": d["log"][0]["action"]}
    assert isinstance(d["log"][0]["action"], list) and len(d["log"][0]["action"]) == 3


def test_scenario_setup_round_trips():
    hands = [list(Rules().deck)[i::4] for i in range(4)]
    g = Game.new(Rules(passing="none"), hands=hands, scores=[10, 20, 30, 40], dealer=2, deal_number=3)
    play(g, "2C")
    h = Game.from_dict(g.to_dict())
    assert h.to_dict() == g.to_dict() and h.scores == (10, 20, 30, 40) and h.dealer == 2


def test_from_dict_rejects_tampering():
    g = random_game(Rules(), 6, 20)
    d = g.to_dict()
    bad = json.loads(json.dumps(d))
    bad["log"][10]["action"] = "AH" if bad["log"][10]["action"] != "AH" else "2C"
    with pytest.raises(ValueError):
        Game.from_dict(bad)
    bad = json.loads(json.dumps(d))
    bad["state"]["scores"] = [1, 2, 3, 4]
    with pytest.raises(ValueError, match="does not match"):
        Game.from_dict(bad)
    with pytest.raises(ValueError, match="saved game"):
        Game.from_dict({"rules": {}})


def test_replay_and_history():
    g = random_game(Rules(target=30), 7, 400)
    states = list(g.history())
    assert [s.ply for s in states] == list(range(g.ply + 1))
    assert states[-1].to_dict() == g.to_dict()
    assert states[0].ply == 0 and states[0].phase == "pass"
    # each step is one logged action
    log = g.log()
    for before, after, entry in zip(states, states[1:], log):
        x = before.copy()
        x.apply(entry["seat"], entry["action"])
        assert x.to_dict() == after.to_dict()


def test_copy_is_independent():
    g = random_game(Rules(), 8, 10)
    c = g.copy()
    assert c.to_dict() == g.to_dict()
    seat = c.to_act[0]
    c.apply(seat, c.legal(seat)[0])
    assert c.ply == g.ply + 1 and c.to_dict() != g.to_dict()
    assert Game.from_dict(g.to_dict()).to_dict() == g.to_dict()


def test_repr():
    assert "Game 4p deal 1 pass" in repr(Game.new(Rules(), seed=1))
