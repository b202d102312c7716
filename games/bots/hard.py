"""Hard: Monte Carlo search over the hidden cards.

For a play, Hard deals the unseen cards at random many times, consistently with all it
knows (:mod:`games.bots.sampling`); in each such world it plays every candidate card and
rolls the deal out to the end with the Medium policy for every seat (the rules kernel's ``Deal``),
and scores the result with a utility that weighs the game standing
(:func:`games.bots.standing.utility`): its own points, a little of the others', and — near
the target — winning or losing the game.  The same worlds serve every candidate, so the
comparison is fair; it plays the card with the best average.

Effort is counted in simulated card plays, not seconds, so a decision is deterministic for
a seed (``samples`` fixes the number of worlds; ``time_budget`` stops early on the clock,
which is not deterministic).

For a pass, Hard takes Medium's five best-scored passes and compares them the same way:
random deals of the other hands, the others pass (a quick Medium-like guess), the deal is
played out.  The moon choice uses the standing (:func:`games.bots.standing.moon_choice`).

Every few worlds, a candidate clearly worse than the best over the same worlds drops out
(a paired test, ``PRUNE_Z`` standard errors), and the search stops when one is left: easy
decisions are quick, close ones get the whole effort.
"""

from __future__ import annotations

import random
import time

from games.engine import Card, kernel
from games.engine.cards import mask_to_cards
from games.engine.kernel import SUIT_MASKS, Deal

from . import medium, policy, standing
from .sampling import sample
from .state import Knowledge

__all__ = ["play", "pass_cards", "moon_choice", "rollout", "evaluate", "DEFAULT_EFFORT"]

#: simulated card plays per decision (a median of about 50 ms, at most about 200 ms, on one core)
DEFAULT_EFFORT = 50000
MIN_WORLDS = 12
MAX_WORLDS = 600
#: every so many worlds, drop candidates more than PRUNE_Z standard errors behind the best
PRUNE_EVERY = 8
PRUNE_Z = 3.0
#: passes compared, and simulated card plays spent, when Hard passes
PASS_CANDIDATES = 5
PASS_EFFORT = 30000

def pass_cards(view, seed: int = 0, effort: int = PASS_EFFORT, samples: "int | None" = None) -> list:
    """Search Medium's few best passes: deal the other hands at random, let the others pass
    (a quick Medium-like guess), play each candidate out and keep the best on average."""
    cfg = kernel.config(view.rules)
    n = view.players
    me = view.seat
    hand = 0
    for c in view.hand:
        hand |= 1 << c.index
    options = policy.pass_ranking(cfg, hand, PASS_CANDIDATES)
    if view.pass_target is None or len(options) <= 1:
        return list(mask_to_cards(options[0]))
    off = view.pass_direction.offset(n)
    rest = [c for c in kernel.iter_bits(cfg.deck_mask & ~hand)]
    hs = cfg.hand_size
    rules = view.rules
    scores = list(view.scores)
    first_leader = (view.dealer + 1) % n
    rng = random.Random(seed)
    max_worlds = samples if samples is not None else MAX_WORLDS
    values: list[list[float]] = [[] for _ in options]
    active = list(range(len(options)))
    spent = done = 0
    while done < max_worlds:
        rng.shuffle(rest)
        hands = [0] * n
        i = 0
        for s in range(n):
            if s == me:
                hands[s] = hand
                continue
            for c in rest[i:i + hs]:
                hands[s] |= 1 << c
            i += hs
        kitty = 0
        for c in rest[i:]:
            kitty |= 1 << c
        passes = [policy.quick_pass(cfg, hands[s]) if s != me else 0 for s in range(n)]
        for j in active:
            passes[me] = options[j]
            world = Deal(cfg, [hands[s] & ~passes[s] | passes[(s - off) % n] for s in range(n)], kitty)
            world.begin(first_leader)
            rollout(world)
            values[j].append(standing.utility(rules, scores, _score(rules, scores, world), me))
        spent += len(active) * n * hs
        done += 1
        if samples is None and spent >= effort and done >= MIN_WORLDS:
            break
        if done % PRUNE_EVERY == 0 and len(active) > 1:
            active = _prune(values, active, done)
            if len(active) == 1:
                break
    best = max(active, key=lambda j: sum(values[j]) / len(values[j]))
    return list(mask_to_cards(options[best]))


def moon_choice(view) -> str:
    return medium.moon_choice(view)


def rollout(world: Deal, first_card: int = -1) -> Deal:
    """Play ``world`` (all hands known) to its end with the Medium policy for every seat;
    the seat to play plays ``first_card`` if given.  Returns ``world``, played out."""
    if first_card >= 0:
        world.play(first_card)
    pol = policy.play
    while world.turn >= 0:
        world.play(pol(world))
    return world


def _score(rules, scores, world: Deal):
    """The deal's points; a moon's shooter chooses as the standing suggests."""
    pts, shooter = world.score("subtract")
    if shooter is not None and world.cfg.moon == kernel.CHOOSE:
        options = {"subtract": pts, "add": world.score("add")[0]}
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
        for c in kernel.iter_bits(m):
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
    """``(candidates, mean utility per candidate, worlds used)`` for the seat to play.

    Worlds are dealt one after another and every candidate still in the running is rolled
    out in each; every few worlds a candidate clearly worse than the best (paired over the
    same worlds) drops out, so the effort goes to the close calls.  It stops when ``effort``
    card plays are spent (or after ``samples`` worlds, or at ``time_budget`` seconds)."""
    k = knowledge or Knowledge.from_view(view)
    cfg = k.cfg
    legal = k.legal
    cands = candidates(k, legal)
    if len(cands) <= 1:
        return cands, [0.0] * len(cands), 0
    rules = view.rules
    scores = list(view.scores)
    me = k.me
    remaining = max(sum(view.hand_sizes) + len(k.deal.trick), 1)
    max_worlds = samples if samples is not None else MAX_WORLDS
    rng = random.Random(seed)
    deadline = time.perf_counter() + time_budget if time_budget else None
    values: list[list[float]] = [[] for _ in cands]
    active = list(range(len(cands)))
    util = standing.utility
    spent = 0
    done = 0
    while done < max_worlds:
        hands, kitty = sample(k, rng)
        world = k.deal.filled(hands, kitty)
        for i in active:
            played_out = rollout(world.copy(), first_card=cands[i])
            values[i].append(util(rules, scores, _score(rules, scores, played_out), me))
        spent += len(active) * remaining
        done += 1
        if samples is None and spent >= effort and done >= MIN_WORLDS:
            break
        if deadline is not None and done >= 4 and time.perf_counter() > deadline:
            break
        if done % PRUNE_EVERY == 0 and len(active) > 1:
            active = _prune(values, active, done)
            if len(active) == 1:
                break
    means = [sum(v) / len(v) if v else float("-inf") for v in values]
    for i in range(len(cands)):
        if i not in active:
            means[i] = min(means[i], min(means[j] for j in active) - 1e-6)
    return cands, means, done


def _prune(values, active, done):
    """Keep the candidates not clearly worse than the best over the last ``done`` worlds."""
    best = max(active, key=lambda i: sum(values[i][-done:]))
    vb = values[best][-done:]
    keep = []
    for i in active:
        if i == best:
            keep.append(i)
            continue
        d = [a - b for a, b in zip(values[i][-done:], vb)]
        mean = sum(d) / done
        var = sum((x - mean) ** 2 for x in d) / (done - 1)
        if mean + PRUNE_Z * (var / done) ** 0.5 >= 0 or var == 0 and mean >= 0:
            keep.append(i)
    return keep


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
