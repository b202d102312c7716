"""Property tests over random legal games: every player count (3-6) and rule set."""

from __future__ import annotations

import json
import random
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import FULL_DECK, Card, Game, IllegalAction, Rules, kernel
from .helpers import DEAL_FIELDS, any_rules

RULES = any_rules(target=st.integers(20, 70))
SEEDS = st.integers(0, 2**32)
SETTINGS = dict(deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
CARD_RE = re.compile(r'"([2-9TJQKA][CDSH])"')
MAX_DEALS = 8


def choose(g: Game, rnd):
    """A random legal (seat, action)."""
    seat = rnd.choice(g.to_act)
    legal = g.legal(seat)
    if g.phase == "pass":
        return seat, rnd.sample(legal, 3)
    return seat, rnd.choice(legal)


def all_cards(g: Game) -> list:
    """Every card of the deal, wherever it is now (hands, tricks, trick, kitty, in transit)."""
    cards = [c for h in g.hands for c in h]
    cards += [c for t in g.tricks for c in t.cards]
    cards += [c for _, c in g.current_trick]
    cards += list(g.kitty)
    if g.phase == "pass":
        for s in range(g.players):
            p = g.view(s).passed
            cards += list(p or ())
    return cards


def snapshot(g: Game):
    return g._state(), g.ply, g.log()


def check_view_privacy(g: Game, seat: int) -> None:
    v = g.view(seat)
    assert v.hand == g.hands[seat]
    assert tuple(g.legal(seat)) == v.legal
    allowed = set(v.hand) | set(v.played) | set(v.removed) | set(v.kitty)
    allowed |= set(v.passed or ()) | set(v.received or ())
    text = json.dumps(v.to_dict())
    shown = set(CARD_RE.findall(text))
    others = {str(c) for t in range(g.players) if t != seat for c in g.hands[t]}
    assert shown <= {str(c) for c in allowed}
    leaked = (shown & others) - {str(c) for c in allowed}
    assert not leaked
    if g.kitty_taker is None:
        assert not shown & {str(c) for c in g.kitty}
    assert v.hand_sizes == tuple(len(h) for h in g.hands)


def is_point_card(rules: Rules, c) -> bool:
    return c.suit == "H" or str(c) == "QS" or (rules.black_maria and str(c) in ("KS", "AS"))


def reference_legal(g: Game, seat: int) -> set:
    """The play rules of rules.md written out plainly, independent of the engine's masks."""
    rules = g.rules
    hand = set(g.hands[seat])
    first = not g.tricks
    no_points = first and not rules.first_trick_points
    if g.current_trick:
        led = g.current_trick[0][1].suit
        cands = {c for c in hand if c.suit == led} or hand
    else:
        if first and rules.lead == "lowest_club":
            return {min(c for h in g.hands for c in h if c.suit == "C")}
        cands = hand
        if not no_points and not g.hearts_broken and rules.hearts_lead != "any":
            cands = {c for c in hand if c.suit != "H"} or hand
    if no_points:
        safe = {c for c in cands if not is_point_card(rules, c)}
        cands = safe or {c for c in cands if c.suit == "H"} or cands
    return cands


def check_step(g: Game, rnd) -> None:
    """The legality properties at one position."""
    rules = g.rules
    if g.phase == "over":
        assert g.to_act == () and g.winners
        return
    assert g.to_act
    for s in range(g.players):
        if s in g.to_act:
            assert g.legal(s), (g, s)
        else:
            assert g.legal(s) == []
    cards = all_cards(g)
    assert sorted(cards) == list(rules.deck) and len(set(cards)) == len(cards)
    if g.phase == "play":
        seat = g.to_act[0]
        legal = set(g.legal(seat))
        assert legal <= set(g.hands[seat])
        assert legal == reference_legal(g, seat)
        played = [c for t in g.tricks for c in t.cards] + [c for _, c in g.current_trick]
        breakers = {c for c in played if c.suit == "H" or (rules.hearts_lead == "queen_breaks" and str(c) == "QS")}
        assert g.hearts_broken == bool(breakers)
        for t in g.tricks:
            led = t.plays[0][1].suit
            assert t.winner == max((c, s) for s, c in t.plays if c.suit == led)[1]
        before = snapshot(g)
        for c in FULL_DECK:
            why = g.why_illegal(seat, c)
            if c in legal:
                assert why is None
            else:
                assert isinstance(why, str) and why
                try:
                    g.apply(seat, c)
                except IllegalAction as exc:
                    assert str(exc) == why
                else:  # pragma: no cover
                    raise AssertionError(f"{c} was accepted but not listed")
        other = (seat + 1) % g.players
        try:
            g.apply(other, g.hands[other][0] if g.hands[other] else "2C")
        except IllegalAction as exc:
            assert "not your turn" in str(exc)
        else:  # pragma: no cover
            raise AssertionError("out-of-turn play accepted")
        assert snapshot(g) == before
        for c in legal:
            x = g.copy()
            events = x.apply(seat, c)
            assert events[0] == {"type": "card_played", "seat": seat, "card": str(c), "deal": g.deal_number,
                                 "trick": len(g.tricks) + 1}
            assert x.ply == g.ply + 1
    elif g.phase == "pass":
        seat = rnd.choice(g.to_act)
        hand = g.legal(seat)
        assert hand == list(g.hands[seat])
        before = snapshot(g)
        for bad in (hand[:2], hand[:4]):
            try:
                g.apply(seat, bad)
            except IllegalAction as exc:
                assert "Pass exactly 3 cards" in str(exc)
            else:  # pragma: no cover
                raise AssertionError("bad pass accepted")
        not_held = next(c for c in FULL_DECK if c not in hand)
        try:
            g.apply(seat, [hand[0], hand[1], not_held])
        except IllegalAction as exc:
            assert str(exc) == f"You don't hold {not_held.symbol}."
        else:  # pragma: no cover
            raise AssertionError("pass of a card not held accepted")
        assert g.why_illegal(seat, not_held) == f"You don't hold {not_held.symbol}."
        assert all(g.why_illegal(seat, c) is None for c in hand)
        assert snapshot(g) == before
        x = g.copy()
        assert x.apply(seat, rnd.sample(hand, 3))[0]["type"] == "cards_passed"
        assert x.phase == "play" or (seat not in x.to_act and x.legal(seat) == [])
    else:  # moon_choice
        (seat,) = g.to_act
        assert g.legal(seat) == ["subtract", "add"]
        for choice in ("subtract", "add"):
            g.copy().apply(seat, choice)


def check_deal_scored(rules: Rules, event: dict, raw: list[int]) -> None:
    """deal_scored agrees with the points taken trick by trick."""
    jd = -10 if rules.jack_of_diamonds else 0
    assert sum(raw) == rules.deal_value + jd
    pts = event["points"]
    shooter = event["moon_shooter"]
    v = rules.deal_value
    if shooter is None:
        assert pts == raw
        return
    assert rules.moon != "off"
    # the shooter took all the penalty cards: what is left of its raw score is the jack
    jack = [r - (v if s == shooter else 0) for s, r in enumerate(raw)]
    assert all(j in (0, -10) for j in jack) and sum(jack) == jd
    mode = rules.moon if rules.moon != "choose" else ("subtract_26" if event["moon_choice"] == "subtract" else "others_26")
    for s, p in enumerate(pts):
        if mode == "others_26":
            assert p == jack[s] + (0 if s == shooter else v)
        else:
            assert p == jack[s] - (v if s == shooter else 0)


def run_game(rules: Rules, seed: int, rnd, every_step_round_trip: bool, deals: int):
    g = Game.new(rules, seed=seed)
    raw = [0] * rules.players
    took: list[set] = [set() for _ in range(rules.players)]
    ply = 0
    while g.phase != "over" and g.deal_number <= deals:
        check_step(g, rnd)
        if every_step_round_trip:
            d = g.to_dict()
            assert json.loads(json.dumps(d)) == d
            assert Game.from_dict(d).to_dict() == d
            for s in range(rules.players):
                check_view_privacy(g, s)
        seat, action = choose(g, rnd)
        scores_before = g.scores
        events = g.apply(seat, action)
        ply += 1
        assert g.ply == ply
        for e in events:
            json.dumps(e)
            if e["type"] == "trick_won":
                got = [c for c in e["cards"]] + e.get("kitty", [])
                pts = sum(rules.card_points(Card.parse(c)) for c in got)
                assert e["points"] == pts
                raw[e["seat"]] += pts
                took[e["seat"]] |= set(got)
            elif e["type"] == "deal_scored":
                check_deal_scored(rules, e, raw)
                moon = {f"{r}H" for r in "23456789TJQKA"} | {"QS"} | ({"KS", "AS"} if rules.black_maria else set())
                shooters = [s for s in range(rules.players) if moon <= took[s]]
                assert e["moon_shooter"] == (shooters[0] if shooters and rules.moon != "off" else None)
                took = [set() for _ in range(rules.players)]
                assert e["scores"] == [a + b for a, b in zip(scores_before, e["points"])]
                raw = [0] * rules.players
            elif e["type"] == "game_over":
                assert g.phase == "over" and tuple(e["winners"]) == g.winners
                low = min(g.scores)
                assert max(g.scores) >= rules.target
                assert g.winners == tuple(s for s in range(rules.players) if g.scores[s] == low)
                assert len(g.winners) == 1 or rules.ties == "share"
    check_step(g, rnd)
    d = g.to_dict()
    assert Game.from_dict(json.loads(json.dumps(d))).to_dict() == d
    return g


@settings(max_examples=40, **SETTINGS)
@given(rules=RULES, seed=SEEDS, rnd=st.randoms(use_true_random=False))
def test_random_games_legality_and_scoring(rules, seed, rnd):
    """Whole games: legal lists, illegal actions, conservation, scoring, game end."""
    run_game(rules, seed, rnd, every_step_round_trip=False, deals=MAX_DEALS)


@settings(max_examples=25, **SETTINGS)
@given(rules=RULES, seed=SEEDS, rnd=st.randoms(use_true_random=False))
def test_random_deal_round_trip_and_privacy_every_step(rules, seed, rnd):
    """One deal: to_dict round trip and view privacy at every step."""
    run_game(rules, seed, rnd, every_step_round_trip=True, deals=1)


def _position(rules, seed, rnd, stop) -> "Game | None":
    """A game of deal 1 after up to ``stop`` random actions, in the play phase (else None)."""
    g = Game.new(rules, seed=seed)
    for _ in range(stop):
        if g.phase not in ("pass", "play") or g.deal_number > 1:
            break
        seat, action = choose(g, rnd)
        g.apply(seat, action)
    if g.phase != "play" or g.deal_number > 1:
        return None
    return g


def _deal_of(g: Game) -> kernel.Deal:
    def m(cards):
        return sum(1 << c.index for c in cards)

    return kernel.Deal.at(
        kernel.config(g.rules), [m(h) for h in g.hands], [m(t) for t in g.cards_taken],
        [c.index for _, c in g.current_trick], g.leader, g.hearts_broken,
        kitty=m(g.kitty) if g.kitty_taker is None else 0,
    )


@settings(max_examples=80, **SETTINGS)
@given(rules=RULES, seed=SEEDS, rnd=st.randoms(use_true_random=False), stop=st.integers(0, 80),
       draws=st.integers(0, 2**32))
def test_random_playout_equals_playing_card_by_card(rules, seed, rnd, stop, draws):
    """The speed trick: random_playout ends in exactly the state that Deal.play of the same
    random legal cards reaches, from any position of a real game."""
    g = _position(rules, seed, rnd, stop)
    if g is None:
        return
    fast, plain = _deal_of(g), _deal_of(g)
    kernel.random_playout(fast, random.Random(draws))
    kernel.plain_random_playout(plain, random.Random(draws))
    for field in DEAL_FIELDS:
        assert getattr(fast, field) == getattr(plain, field), field


@settings(max_examples=60, **SETTINGS)
@given(rules=RULES, seed=SEEDS, rnd=st.randoms(use_true_random=False), stop=st.integers(0, 80))
def test_a_kernel_deal_played_out_is_a_legal_game(rules, seed, rnd, stop):
    """A Deal built from a game's position and played out card by card: the Game accepts
    every card, and scores the deal as the kernel does."""
    g = _position(rules, seed, rnd, stop)
    if g is None:
        return
    d = _deal_of(g)
    deal = g.deal_number
    while d.turn >= 0:
        card = kernel.pick_random(d.legal, rnd.random)
        assert g.to_act == (d.turn,)
        d.play(card)
        g.apply(g.to_act[0], Card.from_index(card))  # raises IllegalAction if the kernel broke a rule
    if g.phase == "moon_choice":
        g.apply(g.to_act[0], "add")
    assert g.deal_number > deal or g.phase == "over"
    assert list(g.deal_points) == d.score("add")[0]


@settings(max_examples=30, **SETTINGS)
@given(rules=RULES, rnd=st.randoms(use_true_random=False))
def test_random_deal_points_sum(rules, rnd):
    cfg = kernel.config(rules)
    pts = kernel.random_deal_points(cfg, rnd)
    jd = -10 if rules.jack_of_diamonds else 0
    v = rules.deal_value
    n = rules.players
    allowed = {v + jd, (n - 1) * v + jd, -v + jd, v + jd}
    assert len(pts) == n and sum(pts) in allowed
