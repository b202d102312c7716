"""Benchmark: random full 4-player deals ("hands") per second on one core.

Run ``python -m games.engine.bench [seconds]``.  Timed in process CPU time
(``time.process_time``), best of 3 runs, so a busy machine skews the figures less.  The figures:

- *full API*: whole games of random legal actions through ``Game.new``, ``legal`` and
  ``apply`` (the 4 passes, 52 plays and scoring of every hand, with event dicts and the
  action log, exactly as the web layer drives it), counted per hand played.  Whole games,
  so each hand pays for dealing once, as at a table (a game deals its next hand as the
  last one is scored);
- *kernel*: :func:`games.engine.kernel.random_deal_points` on bitmasks — deal, pass 3
  random cards each, play random legal cards, score — what a Monte Carlo bot's random
  rollouts cost.  Also timed: :func:`games.engine.kernel.random_playout` alone from a
  fresh deal.
"""

from __future__ import annotations

import random
import sys
import time

from . import kernel
from .game import Game
from .rules import Rules


def api_game(rules: Rules, seed: int, rng: random.Random) -> int:
    """Play one game through the public API with random legal actions; return its hands."""
    g = Game.new(rules, seed=seed)
    rnd = rng.random
    legal = g.legal
    apply = g.apply
    plays = rules.hand_size * rules.players
    hands = 0
    while g.phase != "over":
        if g.phase == "pass":
            for seat in range(rules.players):
                # 3 random cards, with cheaper draws than rng.sample (which cost more than the pass)
                cards = legal(seat)
                n = len(cards)
                apply(seat, [cards.pop(int(rnd() * n)), cards.pop(int(rnd() * (n - 1))),
                             cards.pop(int(rnd() * (n - 2)))])
        for _ in range(plays):
            seat = g.turn  # type: ignore[assignment]  # the play phase: a seat
            cards = legal(seat)
            apply(seat, cards[int(rnd() * len(cards))])
        if g.phase == "moon_choice":
            apply(g.to_act[0], "add")
        hands += 1
    return hands


def bench_api(seconds: float = 2.0, rules: "Rules | None" = None) -> float:
    rules = rules or Rules()
    rng = random.Random(1)
    hands = games = 0
    t0 = time.process_time()
    end = t0 + seconds
    while time.process_time() < end:
        hands += api_game(rules, games, rng)
        games += 1
    return hands / (time.process_time() - t0)


def bench_kernel(seconds: float = 2.0, rules: "Rules | None" = None) -> float:
    cfg = kernel.config(rules or Rules())
    rng = random.Random(1)
    play = kernel.random_deal_points
    n = 0
    t0 = time.process_time()
    end = t0 + seconds
    while time.process_time() < end:
        for _ in range(500):
            play(cfg, rng)
        n += 500
    return n / (time.process_time() - t0)


def bench_playout(seconds: float = 2.0, rules: "Rules | None" = None) -> float:
    """Playouts only (no dealing): the same 200 deals replayed with fresh random play."""
    cfg = kernel.config(rules or Rules())
    rng = random.Random(2)
    deals = []
    for _ in range(200):
        d = kernel.Deal(cfg, kernel.deal(cfg, rng))
        d.begin(leader=1)
        deals.append(d)
    play = kernel.random_playout
    n = 0
    t0 = time.process_time()
    end = t0 + seconds
    while time.process_time() < end:
        for d in deals:
            play(d.copy(), rng)
        n += len(deals)
    return n / (time.process_time() - t0)


def best_of(bench, seconds: float, runs: int = 3) -> float:
    """The best of ``runs`` measurements (a loaded machine only ever makes a run slower)."""
    return max(bench(seconds) for _ in range(runs))


def main(argv: "list[str] | None" = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    seconds = float(argv[0]) if argv else 3.0
    print(
        f"Hearts engine benchmark: 4 players, default rules, one core; hands per CPU-second "
        f"(time.process_time), best of 3 runs of {seconds:g} CPU-s each."
    )
    api = best_of(bench_api, seconds)
    print(f"  1. full API   whole games of Game.new + legal + apply (passes, play, score): {api:9,.0f} hands/s")
    fc = best_of(bench_kernel, seconds)
    print(f"  2. kernel     kernel.random_deal_points (deal, pass, playout, score): {fc:9,.0f} hands/s")
    po = best_of(bench_playout, seconds)
    print(f"  3. kernel     kernel.random_playout alone, from a dealt position:     {po:9,.0f} hands/s")
    print("  (1 is what the web layer pays, target 8,000/s; 2 is what random rollouts pay, target 30,000/s.)")


if __name__ == "__main__":
    main()
