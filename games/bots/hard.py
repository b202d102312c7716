"""Hard: Monte Carlo search over the hidden cards.

For a play, Hard deals the unseen cards at random many times, consistently with all it
knows (:mod:`games.bots.sampling`); in each such world it plays every candidate card and
rolls the deal out to the end with the Medium policy for every seat (the fast bitmask core),
and scores the result with a utility that weighs the game standing
(:func:`games.bots.standing.utility`): its own points, a little of the others', and — near
the target — winning or losing the game.  The same worlds serve every candidate, so the
comparison is fair; it plays the card with the best average.

Effort is counted in simulated card plays, not seconds, so a decision is deterministic for
a seed (``samples`` fixes the number of worlds; ``time_budget`` stops early on the clock,
which is not deterministic).

Passing uses Medium's heuristics; the moon choice uses the standing.
"""

from __future__ import annotations

import random
import time

from games.engine import Card, fast
from games.engine.fast import SUIT_MASKS

from . import medium, policy, standing
from .sampling import sample
from .state import Knowledge

__all__ = ["play", "pass_cards", "moon_choice", "rollout", "evaluate", "DEFAULT_EFFORT"]

#: simulated card plays per decision (about 150 ms on one core)
DEFAULT_EFFORT = 14000
MIN_WORLDS = 12
MAX_WORLDS = 400

_SUIT_OF = tuple(c // 13 for c in range(52))


def pass_cards(view, why=None):
    return medium.pass_cards(view, why)


def moon_choice(view) -> str:
    return medium.moon_choice(view)


def rollout(cfg, hands, taken, trick, leader, played, broken, first_trick, kitty, first_card=-1):
    """Play the deal to its end with the Medium policy for every seat; return ``taken``.

    ``hands`` are all seats' cards (a world); the seat to act plays ``first_card`` if given.
    """
    n = cfg.players
    hands = list(hands)
    taken = list(taken)
    trick = list(trick)
    seat = (leader + len(trick)) % n
    breaks = cfg.breaks_mask
    pol = policy.play
    first_lead = -1
    if first_trick and not trick and cfg.lowest_club:
        first_lead = fast.first_lead_card(cfg, hands)
    card = first_card
    while True:
        hand = hands[seat]
        if not trick and not hand:
            return taken
        if card < 0:
            card = pol(cfg, seat, hand, trick, leader, played, taken, broken, first_trick,
                       first_lead if not trick else -1)
        bit = 1 << card
        hands[seat] = hand ^ bit
        played |= bit
        if bit & breaks:
            broken = True
        trick.append(card)
        card = -1
        if len(trick) == n:
            led = _SUIT_OF[trick[0]]
            best, best_i, tm = trick[0], 0, 0
            for i in range(n):
                c = trick[i]
                tm |= 1 << c
                if c > best and _SUIT_OF[c] == led:
                    best, best_i = c, i
            winner = (leader + best_i) % n
            if first_trick:
                tm |= kitty
                played |= kitty
                first_trick = False
                first_lead = -1
            taken[winner] |= tm
            trick = []
            leader = seat = winner
        else:
            seat = (seat + 1) % n


def _score(cfg, rules, scores, taken):
    pts, shooter = fast.deal_points(cfg, taken, "subtract")
    if shooter is not None and cfg.moon == fast.CHOOSE:
        options = {"subtract": pts, "add": fast.deal_points(cfg, taken, "add")[0]}
        pts = options[standing.moon_choice(rules, scores, shooter, options)]
    return pts


def candidates(k: Knowledge, legal: int) -> list[int]:
    """The legal cards worth comparing: of cards next to each other in rank (no card still
    out between them) and of the same points, only the lowest."""
    out = []
    cfg = k.cfg
    pts = cfg.points
    between_free = ~k.outstanding  # cards that are not in another hand or the kitty
    for suit in range(4):
        m = legal & SUIT_MASKS[suit]
        prev = -2
        for c in fast.iter_bits(m):
            if prev >= 0 and pts[c] == pts[prev]:
                gap = ((1 << c) - 1) & ~((1 << (prev + 1)) - 1)
                if gap & ~between_free == 0:
                    prev = c
                    continue
            out.append(c)
            prev = c
    return out


def evaluate(view, seed: int = 0, samples: "int | None" = None, time_budget: "float | None" = None,
             effort: int = DEFAULT_EFFORT, knowledge: "Knowledge | None" = None):
    """``(candidates, mean utility per candidate, worlds used)`` for the seat to play."""
    k = knowledge or Knowledge.from_view(view)
    cfg = k.cfg
    legal = k.legal
    cands = candidates(k, legal)
    if len(cands) <= 1:
        return cands, [0.0] * len(cands), 0
    rules = view.rules
    scores = list(view.scores)
    me = k.me
    remaining = sum(view.hand_sizes) + len(k.trick)
    if samples is None:
        worlds = effort // (len(cands) * max(remaining, 1))
        worlds = max(MIN_WORLDS, min(MAX_WORLDS, worlds))
    else:
        worlds = samples
    rng = random.Random(seed)
    deadline = time.perf_counter() + time_budget if time_budget else None
    totals = [0.0] * len(cands)
    done = 0
    util = standing.utility
    for _ in range(worlds):
        hands, kitty = sample(k, rng)
        for i, c in enumerate(cands):
            taken = rollout(cfg, hands, k.taken, k.trick, k.leader, k.played, k.broken,
                            k.first_trick, kitty, first_card=c)
            totals[i] += util(rules, scores, _score(cfg, rules, scores, taken), me)
        done += 1
        if deadline is not None and time.perf_counter() > deadline and done >= 4:
            break
    return cands, [t / done for t in totals], done


def play(view, seed: int = 0, samples=None, time_budget=None, effort: int = DEFAULT_EFFORT) -> Card:
    k = Knowledge.from_view(view)
    cands, values, _ = evaluate(view, seed, samples, time_budget, effort, knowledge=k)
    if not cands:
        return view.legal[0]
    if len(cands) == 1:
        return Card.from_index(cands[0])
    best = max(values)
    # ties (within rounding) go to the card Medium would play, else the lowest
    fallback = medium.play(view, knowledge=k).index
    near = [c for c, v in zip(cands, values) if v >= best - 1e-9]
    if fallback in near:
        return Card.from_index(fallback)
    return Card.from_index(near[0])
