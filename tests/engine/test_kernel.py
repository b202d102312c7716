"""The rules kernel: legal masks, scoring, the Deal, and the random playout's speed trick."""

import random
from collections import Counter

import pytest

from games.engine import Game, Rules, kernel
from games.engine.kernel import HEARTS, JD, QS, Deal, cards_of, config, lowest, mask_of

from .helpers import DEAL_FIELDS, play


def test_card_ints():
    assert kernel.name(QS) == "QS" and kernel.name(JD) == "JD" and kernel.name(0) == "2C" and kernel.name(51) == "AH"
    assert mask_of("2C QS") == 1 | 1 << QS
    assert cards_of(HEARTS) == "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"
    assert list(kernel.iter_bits(mask_of("AH 2C"))) == [0, 51]


def test_card_values_come_from_one_table():
    for bm in (False, True):
        for jd in (False, True):
            cfg = config(Rules(black_maria=bm, jack_of_diamonds=jd))
            assert cfg.points == kernel.card_points(bm, jd)
            assert cfg.moon_value == Rules(black_maria=bm).deal_value == (43 if bm else 26)
            assert kernel.mask_points(cfg, kernel.FULL) == sum(cfg.points)
            assert cfg.moon_mask == sum(1 << c for c in range(52) if cfg.points[c] > 0)


def test_legal_mask_cases():
    cfg = config(Rules())
    hand = mask_of("2C 5C QS 3H")
    assert cards_of(kernel.legal_mask(cfg, hand, -1, True, False, 0)) == "2C"
    assert cards_of(kernel.legal_mask(cfg, hand, 0, False, False)) == "2C 5C"
    assert cards_of(kernel.legal_mask(cfg, hand, 1, False, False)) == "2C 5C QS 3H"
    assert cards_of(kernel.legal_mask(cfg, hand, -1, False, False)) == "2C 5C QS"
    assert cards_of(kernel.legal_mask(cfg, hand, -1, False, True)) == "2C 5C QS 3H"
    assert cards_of(kernel.legal_mask(cfg, mask_of("QS 3H"), 1, True, False)) == "3H"
    old = config(Rules(lead="left_of_dealer"))
    # following spades on the first trick: the queen only when no other spade
    assert cards_of(kernel.legal_mask(old, mask_of("5S QS 3H"), 2, True, False)) == "5S"
    assert cards_of(kernel.legal_mask(old, mask_of("QS 3H"), 2, True, False)) == "QS"


def test_why_illegal_play_messages():
    cfg = config(Rules())
    hand = mask_of("2C 5C QS 3H")
    assert kernel.why_illegal_play(cfg, hand, 12, 0, False, False) == "You don't hold A♣."
    assert kernel.why_illegal_play(cfg, hand, QS, 0, False, False) == "You must follow clubs."
    assert kernel.why_illegal_play(cfg, hand, 3, 0, False, False) is None
    assert kernel.why_illegal_play(cfg, hand, 39 + 1, -1, False, False).startswith("Hearts are not broken")


def test_deal_points_modes():
    moon = [HEARTS | 1 << QS, 1 << JD, 0, 0]
    assert kernel.deal_points(config(Rules()), moon) == ([0, 26, 26, 26], 0)
    assert kernel.deal_points(config(Rules(jack_of_diamonds=True)), moon) == ([0, 16, 26, 26], 0)
    assert kernel.deal_points(config(Rules(moon="subtract_26")), moon) == ([-26, 0, 0, 0], 0)
    assert kernel.deal_points(config(Rules(moon="choose")), moon, "subtract") == ([-26, 0, 0, 0], 0)
    assert kernel.deal_points(config(Rules(moon="choose")), moon, "add") == ([0, 26, 26, 26], 0)
    assert kernel.deal_points(config(Rules(moon="off")), moon) == ([26, 0, 0, 0], None)
    miss = [HEARTS & ~1 << 39 | 1 << QS, 1 << 39, 0, 0]
    assert kernel.deal_points(config(Rules()), miss) == ([25, 1, 0, 0], None)
    bm = config(Rules(black_maria=True))
    assert kernel.deal_points(bm, moon)[1] is None  # KS, AS missing
    full = [HEARTS | mask_of("QS KS AS"), 0, 0, 0]
    assert kernel.deal_points(bm, full) == ([0, 43, 43, 43], 0)
    # the shooter's own Omnibus jack still counts for them
    jd = config(Rules(jack_of_diamonds=True, moon="subtract_26"))
    assert kernel.deal_points(jd, [HEARTS | 1 << QS | 1 << JD, 0, 0, 0]) == ([-36, 0, 0, 0], 0)


def _trick_log(d: Deal, choose) -> list:
    """Play ``d`` out with ``choose(d)``; the ``(leader, cards, winner)`` of each trick."""
    log = []
    while d.turn >= 0:
        leader = d.leader
        card = choose(d)
        assert d.legal >> card & 1
        cards = d.trick + [card]
        winner = d.play(card)
        if winner >= 0:
            log.append((leader, cards, winner))
    return log


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_a_deal_from_the_deck_to_the_score(players):
    rules = Rules(players=players)
    cfg = config(rules)
    rng = random.Random(players)
    for _ in range(20):
        hands = kernel.deal(cfg, rng)
        d = Deal(cfg, hands)
        d.begin(leader=1)
        log = _trick_log(d, lambda d: kernel.pick_random(d.legal, rng.random))
        assert len(log) == rules.hand_size == d.tricks and d.over and d.turn == -1
        allc = 0
        for t in d.taken:
            assert not allc & t
            allc |= t
        assert allc == cfg.deck_mask == d.played
        assert sum(kernel.mask_points(cfg, t) for t in d.taken) == 26
        # the first trick is led by the lowest club's holder, with that club
        low = kernel.first_lead_card(cfg, hands)
        assert log[0][1][0] == low and hands[log[0][0]] >> low & 1
        for leader, cards, winner in log:
            led = cards[0] // 13
            top = max(c for c in cards if c // 13 == led)
            assert winner == (leader + cards.index(top)) % players


def test_the_first_trick_keeps_the_queen_off_when_following_spades():
    cfg = config(Rules(lead="left_of_dealer"))
    hands = [mask_of("3S"), mask_of("5S QS"), 0, 0]
    rest = [c for c in range(52) if not (hands[0] | hands[1]) >> c & 1]
    random.Random(0).shuffle(rest)
    hands[0] |= sum(1 << c for c in rest[:12])
    hands[1] |= sum(1 << c for c in rest[12:23])
    hands[2] = sum(1 << c for c in rest[23:36])
    hands[3] = sum(1 << c for c in rest[36:49])
    d = Deal(cfg, hands)
    d.begin(leader=0)
    d.play(27)  # 3S
    assert d.turn == 1 and cards_of(d.legal) == "5S"


def test_deal_at_a_position_matches_the_game():
    g = Game.new(Rules(players=5, odd_cards="kitty", passing="none"), seed=9)
    rng = random.Random(1)
    for _ in range(17):
        s = g.to_act[0]
        g.apply(s, rng.choice(g.legal(s)))
    d = _deal_of(g)
    seat = g.to_act[0]
    assert d.turn == seat and d.legal == sum(1 << c.index for c in g.legal(seat))
    assert d.trick == [c.index for _, c in g.current_trick] and d.leader == g.leader
    assert not d.first_trick and d.kitty == 0 and d.tricks == len(g.tricks)
    assert d.winning == max(g.current_trick, key=lambda p: (p[1].suit == g.current_trick[0][1].suit, p[1]))[0]
    assert [kernel.mask_points(d.cfg, t) for t in d.taken] == list(g.points_taken)


def _deal_of(g: Game) -> Deal:
    """The kernel's Deal of a game's position, from the game's public properties."""
    def m(cards):
        return sum(1 << c.index for c in cards)

    return Deal.at(
        config(g.rules), [m(h) for h in g.hands], [m(t) for t in g.cards_taken],
        [c.index for _, c in g.current_trick], g.leader, g.hearts_broken,
        kitty=m(g.kitty) if g.kitty_taker is None else 0,
    )


def test_random_play_is_uniform_over_legal_follows():
    rng = random.Random(5)
    g = Game.new(Rules(passing="none"), seed=3)
    play(g, "2C")
    follower = g.to_act[0]
    start = _deal_of(g)
    counts = Counter()
    for _ in range(3000):
        d = start.copy()
        before = d.hands[follower]
        d.play(kernel.pick_random(d.legal, rng.random))
        counts[lowest(before & ~d.hands[follower])] += 1
    legal = {c.index for c in g.legal(follower)}
    assert set(counts) == legal
    expected = 3000 / len(legal)
    assert all(abs(n - expected) < 0.25 * expected for n in counts.values()), counts


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_random_deal_points(players):
    for odd in ("remove", "kitty"):
        cfg = config(Rules(players=players, odd_cards=odd))
        rng = random.Random(0)
        for _ in range(50):
            pts = kernel.random_deal_points(cfg, rng)
            assert sum(pts) in (26, 26 * (players - 1))


def test_pick_random_uniform():
    rng = random.Random(0)
    m = mask_of("2C 9D QS AH")
    counts = Counter(kernel.pick_random(m, rng.random) for _ in range(4000))
    assert set(counts) == set(kernel.iter_bits(m)) and min(counts.values()) > 800


def test_bench_runs(capsys):
    from games.engine import bench

    assert bench.bench_api(0.05) > 0 and bench.bench_kernel(0.05) > 0 and bench.bench_playout(0.05) > 0
    bench.main(["0.05"])
    out = capsys.readouterr().out
    assert "full API" in out and "kernel.random_playout" in out


@pytest.mark.parametrize("rules", [
    Rules(), Rules(players=3), Rules(players=5, odd_cards="kitty"), Rules(players=6, black_maria=True),
    Rules(first_trick_points=True, lead="left_of_dealer", hearts_lead="queen_breaks"),
])
def test_random_playout_from_the_deal_equals_playing_card_by_card(rules):
    cfg = config(rules)
    for seed in range(60):
        rng = random.Random(seed)
        hands = kernel.deal(cfg, rng)
        kitty = cfg.deck_mask & ~sum(hands)
        fast, plain = Deal(cfg, hands, kitty), Deal(cfg, hands, kitty)
        fast.begin(leader=seed % cfg.players)
        plain.begin(leader=seed % cfg.players)
        kernel.random_playout(fast, random.Random(seed))
        kernel.plain_random_playout(plain, random.Random(seed))
        for field in DEAL_FIELDS:
            assert getattr(fast, field) == getattr(plain, field), (seed, field)


def test_the_openspiel_slot_plays_whole_hands_beside_ours():
    """The bench's OpenSpiel side (benchmark only: skipped where OpenSpiel is not installed)."""
    pyspiel = pytest.importorskip("pyspiel")
    from games.engine import bench

    hands, cpu = bench.openspiel_cpp_hands(pyspiel, 0.05)
    assert hands >= 100 and cpu >= 0.05
    hands, cpu = bench.openspiel_python_hands(pyspiel, 0.05)
    assert hands >= 1 and cpu >= 0.05
    sides = {"ours": bench.kernel_hands, "theirs": lambda s: bench.openspiel_cpp_hands(pyspiel, s)}
    rates = bench.side_by_side(sides, slot=0.05, rounds=2)
    assert set(rates) == {"ours", "theirs"} and min(rates.values()) > 0
