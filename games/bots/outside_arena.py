"""The arena with players from outside the project: OpenSpiel's ISMCTS bot (``ismcts``) and
Sturtevant's program (``sturtevant``, :mod:`games.bots.sturtevant`, built apart).

Benchmark only: it needs the pip package ``open_spiel`` (``requirements-bench.txt``), which
the site never imports.

    python -m games.bots.outside_arena --players hard,ismcts,hard,ismcts --hands 200 --processes 2

takes the arena's options (:func:`games.bots.arena.main`).  OpenSpiel's Hearts has four
players and the standard rules (2♣ leads, no points on the first trick, hearts broken by a
heart, the moon gives the others 26), so the deals are of ``Rules()`` with four players.

The ISMCTS bot (information-set Monte Carlo tree search, OpenSpiel's Python
implementation, random rollouts) sees the game through a :class:`~games.engine.PlayerView`
only, as every computer does: before each decision its OpenSpiel state is rebuilt from the
view, and each search simulation starts from a world dealt by :mod:`games.bots.sampling`,
consistent with everything the seat knows (OpenSpiel's own resampling of Hearts states
crashes).  ``ISMCTS_SIMULATIONS`` sets its effort; the default spends about as much CPU per
decision as Hard.
"""

from __future__ import annotations

import random
import sys

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from games.engine import Card, PassDirection, Rules, kernel

from . import arena
from .placeholders import replay_of
from .sturtevant import SturtevantPlayer
from .sampling import sample
from .state import Knowledge

__all__ = ["ISMCTSPlayer", "os_action", "card_of_action", "openspiel_state", "main"]

#: simulations per decision (about Hard's CPU per decision on one core)
ISMCTS_SIMULATIONS = 150
UCT_C = 2.0

# OpenSpiel numbers a card rank * 4 + suit, suits in the order C D H S; ours are C D S H
_OS_SUIT = (0, 1, 3, 2)
_OUR_SUIT = (0, 1, 3, 2)
_DIRECTION = {PassDirection.HOLD: 0, PassDirection.LEFT: 1, PassDirection.ACROSS: 2, PassDirection.RIGHT: 3}
GAME = pyspiel.load_game("hearts", {"qs_breaks_hearts": False})


def os_action(card: int) -> int:
    """OpenSpiel's action for our card int: ``os_action(Card.parse("QS").index) == 43``."""
    return card % 13 * 4 + _OS_SUIT[card // 13]


def card_of_action(action: int) -> int:
    """Our card int for an OpenSpiel card action."""
    return _OUR_SUIT[action % 4] * 13 + action // 4


def openspiel_state(view, hands: list[int], rng: random.Random):
    """An OpenSpiel state of the deal ``view`` is in, with the hidden hands of one world
    (``hands``: every seat's cards now; see :func:`games.bots.placeholders.replay_of`)."""
    n = 4
    me = view.seat
    cfg = kernel.config(view.rules)
    replay = replay_of(view, hands, rng)
    in_play = view.phase != "pass"
    state = GAME.new_initial_state()
    state.apply_action(_DIRECTION[view.pass_direction])
    cards = [sorted(kernel.iter_bits(replay.dealt[s])) for s in range(n)]
    for i in range(13):
        for s in range(n):
            state.apply_action(os_action(cards[s][i]))
    if view.pass_direction.offset(n):
        # OpenSpiel passes seat by seat: during the pass, the seats before ours have passed
        for passed in replay.passes_before(n if in_play else me, cfg):
            state.apply_action(os_action(passed))
    if in_play:
        for t in view.tricks:
            for seat, c in t.plays:
                state.apply_action(os_action(c.index))
        for seat, c in view.current_trick:
            state.apply_action(os_action(c.index))
    return state


class ISMCTSPlayer:
    """``act(view, seed)`` for the arena: OpenSpiel's ISMCTS bot in the seat of ``view``."""

    name = "ismcts"

    def __init__(self, simulations: int = ISMCTS_SIMULATIONS) -> None:
        self.simulations = simulations

    def __call__(self, view, seed: int):
        if view.rules != Rules():
            raise ValueError("OpenSpiel's Hearts plays the default rules with four players only.")
        rng = random.Random(seed)
        knowledge = Knowledge.from_view(view)
        if view.phase == "pass":
            return self._pass(view, knowledge, rng)
        return Card.from_index(self._choose(view, knowledge, rng, []))

    def _choose(self, view, knowledge, rng, passing_now: list[int]) -> int:
        """One card: to play, or the next of the three to pass (``passing_now``: those chosen)."""

        def world():
            hands, _ = sample(knowledge, rng)
            state = openspiel_state(view, hands, rng)
            for c in passing_now:
                state.apply_action(os_action(c))
            return state

        bot = ismcts.ISMCTSBot(
            GAME, mcts.RandomRolloutEvaluator(1, np.random.RandomState(rng.getrandbits(31))), UCT_C,
            self.simulations, random_state=np.random.RandomState(rng.getrandbits(31)),
        )
        bot.set_resampler(lambda state, player: world())
        root = world()
        legal = {card_of_action(a) for a in root.legal_actions()}
        if len(legal) == 1:
            return legal.pop()
        ours = knowledge.legal if view.phase == "play" else knowledge.hand & ~sum(1 << c for c in passing_now)
        card = card_of_action(int(bot.step(root)))
        if not ours >> card & 1 or card not in legal:  # pragma: no cover - the rules agree
            card = kernel.lowest(ours)
        return card

    def _pass(self, view, knowledge, rng) -> list[Card]:
        chosen: list[int] = []
        for _ in range(3):
            chosen.append(self._choose(view, knowledge, rng, chosen))
        return [Card.from_index(c) for c in chosen]


def main(argv=None) -> int:
    return arena.main(argv, outside={"ismcts": ISMCTSPlayer(), "sturtevant": SturtevantPlayer()},
                      prog="python -m games.bots.outside_arena")


if __name__ == "__main__":
    sys.exit(main())
