"""OpenSpiel's ISMCTS bot seated in the arena (runs where the benchmark requirement
open_spiel is installed: requirements-bench.txt)."""

import random

import pytest

pytest.importorskip("pyspiel")

from games.bots import outside_arena  # noqa: E402
from games.bots.sampling import sample  # noqa: E402
from games.bots.state import Knowledge  # noqa: E402
from games.engine import Card, Game, Rules  # noqa: E402


def test_card_numbers_match_openspiel():
    dealing = outside_arena.GAME.new_initial_state()
    dealing.apply_action(0)  # no pass; now the cards are dealt
    for i in range(52):
        assert outside_arena.card_of_action(outside_arena.os_action(i)) == i
        assert dealing.action_to_string(outside_arena.os_action(i)) == str(Card.from_index(i))


def test_a_rebuilt_state_is_the_game_as_the_seat_knows_it():
    g = Game.new(Rules(), seed=8)
    rng = random.Random(2)
    for s in range(4):
        g.apply(s, rng.sample(g.legal(s), 3))
    for _ in range(23):
        g.apply(g.to_act[0], rng.choice(g.legal(g.to_act[0])))
    seat = g.to_act[0]
    view = g.view(seat)
    k = Knowledge.from_view(view)
    for world in range(5):
        hands, _ = sample(k, rng)
        state = outside_arena.openspiel_state(view, hands, rng)
        assert state.current_player() == seat
        legal = sorted(outside_arena.card_of_action(a) for a in state.legal_actions())
        assert legal == sorted(c.index for c in view.legal)
        # the seat's own information is the same in every world: its hand, passes and the play
        if world == 0:
            first = state.information_state_string(seat)
        assert state.information_state_string(seat) == first


def test_a_duplicate_match_against_ismcts():
    player = outside_arena.ISMCTSPlayer(simulations=10)
    res = outside_arena.arena.run(["medium", "ismcts", "medium", "ismcts"], 1, seed=3,
                                  outside={"ismcts": player})
    for r in res["deals"][0]:
        assert sum(r["points"]) in (26, 78)
    assert len(res["deals"][0]) == 4
