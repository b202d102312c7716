"""Sturtevant's program seated in the arena (games.bots.sturtevant): the deal it is told is
the seat's own, with placeholders for the hidden hands, and its choices do not depend on them.
The program itself is built only for benchmarks; without it those tests are skipped."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.bots import sturtevant
from games.bots.placeholders import replay_of
from games.bots.sampling import sample
from games.bots.state import Knowledge
from games.engine import Game, Rules, kernel


def _masks(cards) -> int:
    return sum(1 << c.index for c in cards)


def _game_at(seed: int, moves: int):
    """A first deal of the default rules after the passes and ``moves`` random plays (fewer
    when the deal ends sooner), with every seat's hand as dealt."""
    g = Game.new(Rules(), seed=seed)
    rng = random.Random(seed)
    dealt = [_masks(g.view(s).hand) for s in range(4)]
    if g.phase == "pass":
        for s in range(4):
            g.apply(s, rng.sample(g.legal(s), 3))
    for _ in range(moves):
        if g.phase != "play" or g.deal_number != 1:
            break
        seat = g.to_act[0]
        g.apply(seat, rng.choice(g.legal(seat)))
    return g, dealt


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), moves=st.integers(0, 50), world=st.integers(0, 10**6))
def test_the_replay_is_the_seats_own_deal_with_placeholders_that_hold_what_was_played(seed, moves, world):
    g, dealt = _game_at(seed, moves)
    if g.phase != "play" or g.deal_number != 1:
        return
    me = g.to_act[0]
    view = g.view(me)
    rng = random.Random(world)
    hands, _ = sample(Knowledge.from_view(view), rng)
    replay = replay_of(view, hands, rng)
    assert replay.dealt[me] == dealt[me], "the seat's own hand as dealt"
    assert sum(replay.dealt) == kernel.config(view.rules).deck_mask
    assert all(replay.dealt[s] & replay.dealt[t] == 0 for s in range(4) for t in range(s))
    off = view.pass_direction.offset(4)
    if off:
        assert replay.passed[me] == _masks(view.passed)
        assert replay.passed[(me - off) % 4] == _masks(view.received)
    for s in range(4):
        assert replay.passed[s] & ~replay.dealt[s] == 0, "a seat passes cards it was dealt"
        after_pass = replay.dealt[s] & ~replay.passed[s] | replay.passed[(s - off) % 4] if off else replay.dealt[s]
        played = sum(1 << c.index for t in view.tricks for p, c in t.plays if p == s)
        played |= sum(1 << c.index for p, c in view.current_trick if p == s)
        assert played & ~after_pass == 0, "a seat held every card it played"
        if s == me:
            assert after_pass & ~played == _masks(view.hand)


needs_program = pytest.mark.skipif(not sturtevant.seat_program().is_file(),
                                   reason="benchmark only: build it with python -m games.bots.sturtevant build PATH")


@needs_program
@pytest.mark.parametrize("seed, moves", [(5, 1), (8, 7), (2, 4), (6, 12), (9, 16), (19, 5)])
def test_its_choice_does_not_depend_on_the_placeholder_hands(seed, moves):
    g, _ = _game_at(seed, moves)
    me = g.to_act[0]
    view = g.view(me)
    knowledge = Knowledge.from_view(view)
    player = sturtevant.SturtevantPlayer()
    lines = {}
    for world in range(4):
        rng = random.Random(world)
        hands, _ = sample(knowledge, rng)
        for decision_seed in range(6):
            line = sturtevant.decision_line(view, hands, random.Random(world), decision_seed, [], 600, 10)
            lines[world, decision_seed] = (line, player.ask(line)[0])
    assert len({line for line, _ in lines.values()}) == 24, "the placeholders differ between the worlds"
    by_seed = [{lines[world, s][1] for world in range(4)} for s in range(6)]
    assert all(len(answers) == 1 for answers in by_seed), f"one position told four ways got {by_seed}"
    assert len(set.union(*by_seed)) > 1, "the search's own chance changes the answer, so agreeing is no accident"


@needs_program
def test_its_passes_do_not_depend_on_the_placeholder_hands():
    g = Game.new(Rules(), seed=4)
    player = sturtevant.SturtevantPlayer(simulations=600, worlds=10)
    for me in (0, 2, 3):
        view = g.view(me)
        knowledge = Knowledge.from_view(view)
        answers = set()
        for world in range(3):
            rng = random.Random(world)
            hands, _ = sample(knowledge, rng)
            answers.add(player.ask(sturtevant.decision_line(view, hands, rng, 5, [], 600, 10))[0])
        assert len(answers) == 1
    passed = player(g.view(1), 9)
    assert len(set(passed)) == 3 and set(passed) <= set(g.view(1).hand)
    assert player.cpu_elsewhere > 0, "the program's own CPU is counted as the seat's"


@needs_program
def test_it_plays_whole_deals_in_the_arena():
    player = sturtevant.SturtevantPlayer(simulations=300, worlds=6)
    res = sturtevant.arena.run(["medium", "sturtevant", "medium", "sturtevant"], 1, seed=3,
                               outside={"sturtevant": player})
    assert len(res["deals"][0]) == 4
    for deal in res["deals"][0]:
        assert sum(deal["points"]) in (26, 78)
