"""A deal rebuilt from its start as one seat could have seen it, for the programs from outside
the project that replay a deal from the deal itself (OpenSpiel, Sturtevant's program).

The seat's own cards, its passes and the public play are the real ones; the other hands come
from a world the seat believes possible (:func:`games.bots.sampling.sample`), so what such a
program is told about them is a placeholder, never the truth.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from games.engine import kernel

from . import policy

__all__ = ["Replay", "replay_of"]


@dataclass(frozen=True)
class Replay:
    """Each seat's hand as dealt and the three cards it passed (0: none, or not yet known)."""

    dealt: tuple[int, ...]
    passed: tuple[int, ...]

    def passes_before(self, seat: int, cfg) -> list[int]:
        """The cards passed by the seats before ``seat``, seat by seat, for programs that take
        the passes in seat order: a seat whose pass is unknown passes as Medium would."""
        cards: list[int] = []
        for s in range(seat):
            cards.extend(kernel.iter_bits(self.passed[s] or policy.quick_pass(cfg, self.dealt[s])))
        return cards


def _masks(cards) -> int:
    return sum(1 << c.index for c in cards)


def replay_of(view, hands: list[int], rng: random.Random) -> Replay:
    """The deal ``view`` is in, from its start, with the hidden hands of one world.

    ``hands``: every seat's cards now (``hands[view.seat]`` its own). The cards played go back
    to their players and the passes are undone: ours and the one we received are known; a
    pass between two other seats is any three cards the receiver holds that it did not get
    from us, which is as good a guess as any. During the pass, a seat that has passed holds
    10 cards, and the three it passed are among the cards nobody holds."""
    n = view.rules.players
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
        loose = [c for c in kernel.iter_bits(cfg.deck_mask & ~sum(dealt))]
        rng.shuffle(loose)
        for s in range(n):
            if s != me and dealt[s].bit_count() < cfg.hand_size:
                passed[s] = sum(1 << c for c in loose[:3])
                loose = loose[3:]
                dealt[s] |= passed[s]
    return Replay(tuple(dealt), tuple(passed))
