"""Deals of the hidden cards consistent with everything a seat knows.

:func:`sample` places every unknown card (see :class:`~games.bots.state.Knowledge`) in an
other seat's hand or the unseen kitty, so that each seat gets exactly its number of cards,
no seat gets a card it cannot hold (a suit it showed void in, ...), and the cards we passed
stay with the seat we passed them to.

>>> import random
>>> from games.engine import Game, Rules
>>> g = Game.new(Rules(passing="none"), seed=4)
>>> k = Knowledge.from_view(g.view(0))
>>> hands, kitty = sample(k, random.Random(1))
>>> [h.bit_count() for h in hands], kitty, hands[0] == k.hand
([13, 13, 13, 13], 0, True)
"""

from __future__ import annotations

from itertools import combinations

from games.engine.kernel import iter_bits

from .state import Knowledge

__all__ = ["sample", "Knowledge"]


def _slots(k: Knowledge):
    """The places a hidden card can be: other seats with room, then the kitty (index n)."""
    n = k.n
    return [s for s in range(n + 1) if k.capacity[s] > 0]


def _feasible(groups: dict, cap: dict, slots) -> bool:
    """Hall's condition: every set of slots has room for the cards that must go in it."""
    for r in range(1, len(slots)):
        for sub in combinations(slots, r):
            m = 0
            room = 0
            for s in sub:
                m |= 1 << s
                room += cap[s]
            need = 0
            for sig, cnt in groups.items():
                if sig & ~m == 0:
                    need += cnt
            if need > room:
                return False
    for sig, cnt in groups.items():
        if cnt and sig == 0:
            return False
    return True


def sample(k: Knowledge, rng, constrained: bool = True) -> tuple[list[int], int]:
    """One consistent deal: ``(hands per seat as masks, kitty mask)``.  ``hands[me]`` is
    our own hand; known cards (what we passed) are where we know them to be."""
    n = k.n
    slots = _slots(k)
    cap = {s: k.capacity[s] for s in slots}
    cards = list(iter_bits(k.unknown))
    full = 0
    for s in slots:
        full |= 1 << s
    # which slots each card may go to
    sigs = {}
    constrained_any = False
    if constrained:
        for c in cards:
            sig = 0
            for s in slots:
                if s == n or k.allowed[s] >> c & 1:
                    sig |= 1 << s
            sigs[c] = sig
            if sig != full:
                constrained_any = True
    hands = [0] * (n + 1)
    if not constrained_any:
        rng.shuffle(cards)
        i = 0
        for s in slots:
            for c in cards[i:i + cap[s]]:
                hands[s] |= 1 << c
            i += cap[s]
        return _finish(k, hands)
    # most constrained cards first, at random within a level
    rng.shuffle(cards)
    cards.sort(key=lambda c: sigs[c].bit_count())
    for _attempt in range(12):
        left = dict(cap)
        hands = [0] * (n + 1)
        ok = True
        for c in cards:
            sig = sigs[c]
            opts = [s for s in slots if sig >> s & 1 and left[s] > 0]
            if not opts:
                ok = False
                break
            tot = sum(left[s] for s in opts)
            r = rng.random() * tot
            for s in opts:
                r -= left[s]
                if r < 0:
                    break
            hands[s] |= 1 << c
            left[s] -= 1
        if ok:
            return _finish(k, hands)
    return _careful(k, rng, cards, sigs, slots, cap)


def _careful(k, rng, cards, sigs, slots, cap):
    """Place cards one by one, keeping the rest placeable (Hall's condition)."""
    n = k.n
    groups: dict[int, int] = {}
    for c in cards:
        groups[sigs[c]] = groups.get(sigs[c], 0) + 1
    left = dict(cap)
    if not _feasible(groups, left, slots):
        # what we inferred cannot all be true: fall back to hand sizes only
        return sample(k, rng, constrained=False)
    hands = [0] * (n + 1)
    for c in cards:
        sig = sigs[c]
        groups[sig] -= 1
        opts = [s for s in slots if sig >> s & 1 and left[s] > 0]
        rng.shuffle(opts)
        for s in opts:
            left[s] -= 1
            if _feasible(groups, left, slots):
                hands[s] |= 1 << c
                break
            left[s] += 1
        else:  # pragma: no cover - feasibility was checked before
            return sample(k, rng, constrained=False)
    return _finish(k, hands)


def _finish(k, hands):
    n = k.n
    kitty = hands[n]
    hands = hands[:n]
    hands[k.me] = k.hand
    for s in range(n):
        hands[s] |= k.known[s]
    return hands, kitty
