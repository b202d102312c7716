"""Hard: Monte Carlo search over the hidden cards.

For a play, Hard deals the unseen cards at random many times, consistently with all it
knows (:mod:`games.bots.sampling`); in each such world it plays every candidate card and
rolls the deal out with the Medium policy for every seat (the rules kernel's ``Deal``) —
which goes for the moon with a hand that can and stops others' — and solves the last
``EXACT_TRICKS`` tricks exactly, every seat playing for its own fewest points.  It scores
the result with a utility that weighs the game standing
(:func:`games.bots.standing.utility`): its own points, a little of the others', and — near
the target — winning or losing the game.  The same worlds serve every candidate, so the
comparison is fair; it plays the card with the best average.

A world counts in the average as much as it explains what the others just played: each of
their cards in the last ``LIKELY_TRICKS`` tricks and the current one is as likely as a
player who plays Medium's card, or another legal card ``OTHERWISE`` of the time, makes it
(:func:`likelihood`).

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
from dataclasses import dataclass

from games.engine import Card, Game, Rules, kernel
from games.engine.cards import mask_to_cards
from games.engine.kernel import SUIT_MASKS, Deal

from . import medium, policy, standing
from .sampling import sample
from .state import Knowledge

__all__ = ["play", "pass_cards", "moon_choice", "rollout", "evaluate", "Search", "HARD", "EXPERT", "plays_per_second"]


@dataclass(frozen=True)
class Search:
    """How much a search may spend on one decision: simulated card plays for a card
    (``play``) and for a pass (``passing``), and the most worlds it deals (``worlds``).
    Counted in plays, not seconds, so a decision is the same on every machine.

    >>> HARD.play < EXPERT.play and HARD.worlds < EXPERT.worlds
    True
    """

    play: int
    passing: int
    worlds: int


#: Hard: a median under 100 ms a card, 95% of cards under 200 ms, on one core
HARD = Search(play=50_000, passing=30_000, worlds=600)
#: Expert: the same search with more effort; 95% of cards under a second on one core
#: (``python -m games.bots.arena --players expert,hard,expert,hard`` prints its times)
EXPERT = Search(play=140_000, passing=100_000, worlds=4_000)
MIN_WORLDS = 12
#: every so many worlds, drop candidates more than PRUNE_Z standard errors behind the best
PRUNE_EVERY = 8
PRUNE_Z = 3.0
#: passes compared when a searching level passes
PASS_CANDIDATES = 5
#: late in a deal (from this many tricks before its end) the rollouts solve their last
#: EXACT_TRICKS tricks exactly instead of playing them by the policy — at tables of up to
#: EXACT_PLAYERS, where that search is small (16 lines of play with four players; 64 with six)
EXACT_FROM = 4
EXACT_TRICKS = 2
EXACT_PLAYERS = 4
#: the weighting of worlds: the recent tricks whose plays count, and how often a player is
#: taken to play another legal card than Medium's
LIKELY_TRICKS = 2
OTHERWISE = 0.8

def pass_cards(view, seed: int = 0, search: Search = HARD, samples: "int | None" = None) -> list:
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
    max_worlds = samples if samples is not None else search.worlds
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
            values[j].append(standing.utility(rules, scores, rollout(world, rules, scores), me))
        spent += len(active) * n * hs
        done += 1
        if samples is None and spent >= search.passing and done >= MIN_WORLDS:
            break
        if done % PRUNE_EVERY == 0 and len(active) > 1:
            active = _prune(values, [1.0] * done, active)
            if len(active) == 1:
                break
    best = max(active, key=lambda j: sum(values[j]) / len(values[j]))
    return list(mask_to_cards(options[best]))


def moon_choice(view) -> str:
    return medium.moon_choice(view)


def rollout(world: Deal, rules, scores, first_card: int = -1, exact: bool = False) -> list[int]:
    """The deal's points when ``world`` (all hands known) is played to its end by the Medium
    policy for every seat — with ``exact``, the last ``EXACT_TRICKS`` tricks solved exactly.
    The seat to play plays ``first_card`` if given."""
    if first_card >= 0:
        world.play(first_card)
    pol = policy.play
    exact_from = world.cfg.tricks_per_deal - EXACT_TRICKS if exact else world.cfg.tricks_per_deal
    while world.turn >= 0:
        if world.tricks >= exact_from:
            return solve(world, rules, scores)
        world.play(pol(world))
    return _score(rules, scores, world)


def solve(d: Deal, rules, scores) -> list[int]:
    """The deal's points when every seat plays the rest of ``d`` for its own fewest points,
    knowing every hand (max^n search; ties go to the lowest card).  For the last few tricks.

    Two tricks left; seat 0 took the other eleven and leads:

    >>> from games.engine import Rules
    >>> from games.engine.kernel import config, mask_of
    >>> cfg = config(Rules())
    >>> hands = [mask_of("2C QS"), mask_of("3C 4H"), mask_of("AC 5H"), mask_of("KC 6H")]
    >>> rest = cfg.deck_mask & ~sum(hands)
    >>> d = Deal.at(cfg, hands, [rest, 0, 0, 0], [], leader=0, broken=True)
    >>> solve(d, Rules(), [0, 0, 0, 0])  # 2♣ led, the ace takes it and leads a heart: 6♥ and Q♠ to seat 3
    [10, 0, 0, 16]
    """
    if d.turn < 0:
        return _score(rules, scores, d)
    if d.tricks == d.cfg.tricks_per_deal - 1 and not d.trick:
        # the last trick: every card is forced
        d = d.copy()
        while d.turn >= 0:
            d.play(d.legal.bit_length() - 1)
        return _score(rules, scores, d)
    seat = d.turn
    best = None
    for c in kernel.iter_bits(d.legal):
        child = d.copy()
        child.play(c)
        pts = solve(child, rules, scores)
        if best is None or pts[seat] < best[seat]:
            best = pts
    assert best is not None  # the seat to play holds a legal card
    return best


def likelihood(k: Knowledge, world: Deal) -> float:
    """How well ``world`` explains the other seats' cards in the last ``LIKELY_TRICKS``
    tricks and the current one: the product, over those cards, of the chance that a player
    who plays Medium's card, or another legal card ``OTHERWISE`` of the time, plays it."""
    view = k.view
    cfg = k.cfg
    tricks = view.tricks
    start = max(0, len(tricks) - LIKELY_TRICKS)
    plays = [p for t in tricks[start:] for p in t.plays] + list(view.current_trick)
    if not plays:
        return 1.0
    hands = list(world.hands)
    for seat, c in plays:
        hands[seat] |= 1 << c.index
    taken = [0] * k.n
    broken = False
    for t in tricks[:start]:
        for _, c in t.plays:
            taken[t.winner] |= 1 << c.index
            broken = broken or bool(cfg.breaks_mask >> c.index & 1)
    if start and view.kitty:
        taken[view.kitty_taker] |= sum(1 << c.index for c in view.kitty)
    leader = tricks[start].leader if start < len(tricks) else view.leader
    kitty = 0
    if start == 0:  # the first trick is replayed: with the kitty its winner takes
        kitty = sum(1 << c.index for c in view.kitty) if view.kitty else world.kitty
    d = Deal.at(cfg, hands, taken, [], leader, broken, kitty)
    w = 1.0
    for seat, c in plays:
        if seat != k.me and d.legal & (d.legal - 1):
            other = OTHERWISE / d.legal.bit_count()
            w *= (1 - OTHERWISE + other) if policy.play(d) == c.index else other
        d.play(c.index)
    return w


def _score(rules, scores, world: Deal) -> list[int]:
    """The deal's points; a moon's shooter chooses as the standing suggests."""
    pts, shooter = world.score(kernel.MOON_SUBTRACT)
    if shooter is not None and world.cfg.moon == kernel.CHOOSE:
        options = {kernel.MOON_SUBTRACT: pts, kernel.MOON_ADD: world.score(kernel.MOON_ADD)[0]}
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
             effort: "int | None" = None, knowledge: "Knowledge | None" = None, search: Search = HARD):
    """``(candidates, mean utility per candidate, worlds used)`` for the seat to play.

    Worlds are dealt one after another and every candidate still in the running is rolled
    out in each; every few worlds a candidate clearly worse than the best (paired over the
    same worlds) drops out, so the effort goes to the close calls.  It stops when ``effort``
    card plays (default: ``search.play``) are spent, or after ``search.worlds`` worlds (or
    ``samples``), or at ``time_budget`` seconds."""
    k = knowledge or Knowledge.from_view(view)
    cfg = k.cfg
    legal = k.legal
    cands = candidates(k, legal)
    if len(cands) <= 1:
        return cands, [0.0] * len(cands), 0
    rules = view.rules
    scores = list(view.scores)
    me = k.me
    remaining = _cards_left(k)
    exact = k.deal.tricks >= cfg.tricks_per_deal - EXACT_FROM and cfg.players <= EXACT_PLAYERS
    max_worlds = samples if samples is not None else search.worlds
    effort = effort or search.play
    rng = random.Random(seed)
    deadline = time.perf_counter() + time_budget if time_budget else None
    values: list[list[float]] = [[] for _ in cands]
    weights: list[float] = []
    active = list(range(len(cands)))
    util = standing.utility
    spent = 0
    done = 0
    while done < max_worlds:
        hands, kitty = sample(k, rng)
        world = k.deal.filled(hands, kitty)
        weights.append(likelihood(k, world))
        for i in active:
            pts = rollout(world.copy(), rules, scores, cands[i], exact)
            values[i].append(util(rules, scores, pts, me))
        spent += len(active) * remaining
        done += 1
        if samples is None and spent >= effort and done >= MIN_WORLDS:
            break
        if deadline is not None and done >= 4 and time.perf_counter() > deadline:
            break
        if done % PRUNE_EVERY == 0 and len(active) > 1:
            active = _prune(values, weights, active)
            if len(active) == 1:
                break
    total = sum(weights)
    means = [sum(w * x for w, x in zip(weights, v)) / total if v else float("-inf") for v in values]
    for i in range(len(cands)):
        if i not in active:
            means[i] = min(means[i], min(means[j] for j in active) - 1e-6)
    return cands, means, done


def _cards_left(k: Knowledge) -> int:
    """The card plays one rollout of the deal makes from here: what :func:`evaluate` counts
    as its effort per world and candidate."""
    return max(sum(k.view.hand_sizes) + len(k.deal.trick), 1)


def _prune(values, weights, active):
    """Keep the candidates not clearly worse than the best over the worlds so far (weighted
    means of the paired differences; the spread from the worlds' effective number)."""
    total = sum(weights)
    n_eff = total * total / sum(w * w for w in weights)

    def mean(xs):
        return sum(w * x for w, x in zip(weights, xs)) / total

    best = max(active, key=lambda i: mean(values[i]))
    vb = values[best]
    keep = []
    for i in active:
        if i == best:
            keep.append(i)
            continue
        d = [a - b for a, b in zip(values[i], vb)]
        m = mean(d)
        var = sum(w * (x - m) ** 2 for w, x in zip(weights, d)) / total
        if n_eff < 2 or m + PRUNE_Z * (var / (n_eff - 1)) ** 0.5 >= 0 or var == 0 and m >= 0:
            keep.append(i)
    return keep


def play(view, seed: int = 0, samples=None, time_budget=None, effort: "int | None" = None,
         search: Search = HARD) -> Card:
    k = Knowledge.from_view(view)
    cands, values, _ = evaluate(view, seed, samples, time_budget, effort, knowledge=k, search=search)
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


def plays_per_second(seconds: float = 0.05) -> float:
    """How many simulated card plays a second this machine's search makes: searches of
    ``PRUNE_EVERY`` worlds from a fixed position (the sixth trick of a fixed deal), repeated
    for about ``seconds`` on the clock. A device that makes fewer than ``EXPERT.play`` a
    second would take Expert more than a second a card (the offline page asks before
    offering Expert).

    >>> plays_per_second() > 1000
    True
    """
    game = Game.new(Rules(passing="none"), seed=1)
    while True:
        seat = game.to_act[0]
        view = game.view(seat)
        k = Knowledge.from_view(view)
        if len(game.tricks) >= 5 and len(candidates(k, k.legal)) > 1:
            break
        game.apply(seat, medium.play(view, knowledge=k))
    plays = 0
    began = time.perf_counter()
    while True:
        cands, _, done = evaluate(view, seed=plays, samples=PRUNE_EVERY, knowledge=k)
        # every candidate is rolled out in every world: none is dropped before PRUNE_EVERY worlds
        plays += done * len(cands) * _cards_left(k)
        spent = time.perf_counter() - began
        if spent >= seconds:
            return plays / spent
