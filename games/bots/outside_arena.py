"""The arena with a player from outside the project: OpenSpiel's ISMCTS bot.

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

from . import arena, policy
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


def _masks(cards) -> int:
    return sum(1 << c.index for c in cards)


def openspiel_state(view, hands: list[int], rng: random.Random):
    """An OpenSpiel state of the deal ``view`` is in, with the hidden hands of one world.

    ``hands``: every seat's cards now (``hands[view.seat]`` its own).  The deal is rebuilt
    from the start: the cards played go back to their players, the passes are undone — ours
    and the one we received are known; a pass between two other seats is any three cards the
    receiver holds that it did not get from us, which is as good a guess as any."""
    n = 4
    me = view.seat
    cfg = kernel.config(view.rules)
    now = list(hands)
    for t in view.tricks:
        for seat, c in t.plays:
            now[seat] |= 1 << c.index
    for seat, c in view.current_trick:
        now[seat] |= 1 << c.index
    off = view.pass_direction.offset(n)
    passed = [0] * n
    in_play = view.phase != "pass"
    if off and in_play:
        passed[me] = _masks(view.passed)
        passed[(me - off) % n] = _masks(view.received)
        for seat in range(n):
            if seat in (me, (me - off) % n):
                continue
            receiver = (seat + off) % n
            pool = [c for c in kernel.iter_bits(now[receiver] & ~passed[me])]
            pool.sort()
            rng.shuffle(pool)
            passed[seat] = sum(1 << c for c in pool[:3])
    dealt = [now[s] & ~passed[(s - off) % n] | passed[s] if off and in_play else now[s] for s in range(n)]
    if not in_play:
        # a seat that has passed holds 10 cards; the 3 it passed are among the cards nobody holds
        loose = [c for c in kernel.iter_bits(cfg.deck_mask & ~sum(dealt))]
        rng.shuffle(loose)
        for s in range(n):
            if s != me and dealt[s].bit_count() < cfg.hand_size:
                passed[s] = sum(1 << c for c in loose[:3])
                loose = loose[3:]
                dealt[s] |= passed[s]
    state = GAME.new_initial_state()
    state.apply_action(_DIRECTION[view.pass_direction])
    cards = [sorted(kernel.iter_bits(dealt[s])) for s in range(n)]
    for i in range(13):
        for s in range(n):
            state.apply_action(os_action(cards[s][i]))
    if off:
        if in_play:
            for s in range(n):
                for c in kernel.iter_bits(passed[s]):
                    state.apply_action(os_action(c))
        else:
            # OpenSpiel passes seat by seat: the seats before ours have passed
            for s in range(me):
                for c in kernel.iter_bits(passed[s] or policy.quick_pass(cfg, dealt[s])):
                    state.apply_action(os_action(c))
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
    return arena.main(argv, outside={"ismcts": ISMCTSPlayer()}, prog="python -m games.bots.outside_arena")


if __name__ == "__main__":
    sys.exit(main())
