"""The bitmask core used by bots: legal masks, scoring, random playouts."""

import random
from collections import Counter

import pytest

from games.engine import Game, Rules, fast
from games.engine.fast import HEARTS, JD, QS, cards_of, config, mask_of

from .helpers import play


def test_card_ints():
    assert fast.name(QS) == "QS" and fast.name(JD) == "JD" and fast.name(0) == "2C" and fast.name(51) == "AH"
    assert mask_of("2C QS") == 1 | 1 << QS
    assert cards_of(HEARTS) == "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"
    assert list(fast.iter_bits(mask_of("AH 2C"))) == [0, 51]


def test_legal_mask_cases():
    cfg = config(Rules())
    hand = mask_of("2C 5C QS 3H")
    assert cards_of(fast.legal_mask(cfg, hand, -1, True, False, 0)) == "2C"
    assert cards_of(fast.legal_mask(cfg, hand, 0, False, False)) == "2C 5C"
    assert cards_of(fast.legal_mask(cfg, hand, 1, False, False)) == "2C 5C QS 3H"
    assert cards_of(fast.legal_mask(cfg, hand, -1, False, False)) == "2C 5C QS"
    assert cards_of(fast.legal_mask(cfg, hand, -1, False, True)) == "2C 5C QS 3H"
    assert cards_of(fast.legal_mask(cfg, mask_of("QS 3H"), 1, True, False)) == "3H"
    old = config(Rules(lead="left_of_dealer"))
    # following spades on the first trick: the queen only when no other spade
    assert cards_of(fast.legal_mask(old, mask_of("5S QS 3H"), 2, True, False)) == "5S"
    assert cards_of(fast.legal_mask(old, mask_of("QS 3H"), 2, True, False)) == "QS"


def test_why_illegal_play_messages():
    cfg = config(Rules())
    hand = mask_of("2C 5C QS 3H")
    assert fast.why_illegal_play(cfg, hand, 12, 0, False, False) == "You don't hold A♣."
    assert fast.why_illegal_play(cfg, hand, QS, 0, False, False) == "You must follow clubs."
    assert fast.why_illegal_play(cfg, hand, 3, 0, False, False) is None
    assert fast.why_illegal_play(cfg, hand, 39 + 1, -1, False, False).startswith("Hearts are not broken")


def test_deal_points_modes():
    moon = [HEARTS | 1 << QS, 1 << JD, 0, 0]
    assert fast.deal_points(config(Rules()), moon) == ([0, 26, 26, 26], 0)
    assert fast.deal_points(config(Rules(jack_of_diamonds=True)), moon) == ([0, 16, 26, 26], 0)
    assert fast.deal_points(config(Rules(moon="subtract_26")), moon) == ([-26, 0, 0, 0], 0)
    assert fast.deal_points(config(Rules(moon="choose")), moon, "subtract") == ([-26, 0, 0, 0], 0)
    assert fast.deal_points(config(Rules(moon="choose")), moon, "add") == ([0, 26, 26, 26], 0)
    assert fast.deal_points(config(Rules(moon="off")), moon) == ([26, 0, 0, 0], None)
    miss = [HEARTS & ~1 << 39 | 1 << QS, 1 << 39, 0, 0]
    assert fast.deal_points(config(Rules()), miss) == ([25, 1, 0, 0], None)
    bm = config(Rules(black_maria=True))
    assert fast.deal_points(bm, moon)[1] is None  # KS, AS missing
    full = [HEARTS | mask_of("QS KS AS"), 0, 0, 0]
    assert fast.deal_points(bm, full) == ([0, 43, 43, 43], 0)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_playout_from_a_fresh_deal(players):
    rules = Rules(players=players)
    cfg = config(rules)
    rng = random.Random(players)
    for _ in range(20):
        hands = fast.deal(cfg, rng)
        record = []
        taken = fast.playout_taken(cfg, hands, rng=rng, record=record)
        assert len(record) == rules.hand_size
        allc = 0
        for t in taken:
            assert not allc & t
            allc |= t
        assert allc == cfg.deck_mask
        assert sum(fast.mask_points(cfg, t) for t in taken) == 26
        # the first trick is led by the lowest club's holder, with that club
        low = fast.first_lead_card(cfg, hands)
        assert record[0][1] >> low & 1 and hands[record[0][0]] >> low & 1


def test_playout_respects_first_trick_when_following_spades():
    cfg = config(Rules(lead="left_of_dealer"))
    deck = [c for c in range(52)]
    hands = [mask_of("3S"), mask_of("5S QS"), 0, 0]
    rest = [c for c in deck if not (hands[0] | hands[1]) >> c & 1]
    rng = random.Random(0)
    rng.shuffle(rest)
    hands[0] |= sum(1 << c for c in rest[:12])
    hands[1] |= sum(1 << c for c in rest[12:23])
    hands[2] = sum(1 << c for c in rest[23:36])
    hands[3] = sum(1 << c for c in rest[36:49])
    hands[0] &= ~(1 << 26 + 1)  # 3S is led already
    for seed in range(200):
        record = []
        fast.playout_taken(cfg, hands, trick=[27], leader=0, first_trick=True, rng=random.Random(seed),
                           record=record)
        assert not record[0][1] >> QS & 1


def test_playout_is_uniform_over_legal_follows():
    cfg = config(Rules())
    rng = random.Random(5)
    g = Game.new(Rules(passing="none"), seed=3)
    seat = g.to_act[0]
    play(g, "2C")
    v = g.view(g.to_act[0])
    kw = fast.position_from_view(v, [list(h) for h in g.hands])
    legal = {c.index for c in g.legal(g.to_act[0])}
    counts = Counter()
    for _ in range(3000):
        rec = []
        fast.playout_taken(cfg, rng=rng, record=rec, **kw)
        follower = (seat + 1) % 4
        (card,) = [c for c in fast.iter_bits(rec[0][1]) if kw["hands"][follower] >> c & 1]
        counts[card] += 1
    assert set(counts) == legal
    expected = 3000 / len(legal)
    assert all(abs(n - expected) < 0.25 * expected for n in counts.values()), counts


def test_position_from_view_mid_deal():
    g = Game.new(Rules(players=5, odd_cards="kitty", passing="none"), seed=9)
    rng = random.Random(1)
    for _ in range(17):
        s = g.to_act[0]
        g.apply(s, rng.choice(g.legal(s)))
    seat = g.to_act[0]
    v = g.view(seat)
    guess = [None if s == seat else list(h) for s, h in enumerate(g.hands)]
    kw = fast.position_from_view(v, guess)
    assert kw["hands"][seat] == sum(1 << c.index for c in g.hands[seat])
    assert kw["trick"] == [c.index for _, c in g.current_trick] and kw["leader"] == g.leader
    assert not kw["first_trick"] and kw["kitty"] == 0
    assert sum(fast.mask_points(config(g.rules), t) for t in kw["taken"]) == sum(g.points_taken)
    pts = fast.playout(config(g.rules), rng=rng, **kw)
    assert len(pts) == 5
    with pytest.raises(ValueError):
        fast.position_from_view(v, [None] * 5)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_random_deal_points(players):
    for odd in ("remove", "kitty"):
        cfg = config(Rules(players=players, odd_cards=odd))
        rng = random.Random(0)
        for _ in range(50):
            pts = fast.random_deal_points(cfg, rng)
            assert sum(pts) in (26, 26 * (players - 1))


def test_pick_random_uniform():
    rng = random.Random(0)
    m = mask_of("2C 9D QS AH")
    counts = Counter(fast.pick_random(m, rng.random) for _ in range(4000))
    assert set(counts) == set(fast.iter_bits(m)) and min(counts.values()) > 800


def test_bench_runs(capsys):
    from games.engine import bench

    assert bench.bench_api(0.05) > 0 and bench.bench_fast(0.05) > 0 and bench.bench_playout(0.05) > 0
    bench.main(["0.05"])
    out = capsys.readouterr().out
    assert "full API" in out and "fast core" in out
