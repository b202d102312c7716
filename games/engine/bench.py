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

``python -m games.engine.bench --openspiel [seconds]`` puts OpenSpiel's hearts beside them
(``requirements-bench.txt``; never needed by the site): the kernel against OpenSpiel's C++
playing whole random hands by itself (``pyspiel.evaluate_bots`` with uniform random bots),
and the full API against OpenSpiel's hearts driven from Python (``legal_actions`` and
``apply_action`` for every move and chance outcome).  Each pair runs in one process in
alternating slots of CPU time (:func:`side_by_side`), so a machine that speeds up or slows
down during the run affects both sides alike: only the ratio within one run is a figure.
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
            apply(g.to_act[0], kernel.MOON_ADD)
        hands += 1
    return hands


def api_hands(seconds: float = 2.0, rules: "Rules | None" = None) -> tuple[int, float]:
    """Whole games through the full API for about ``seconds`` of CPU: the hands played and
    the CPU they took."""
    rules = rules or Rules()
    rng = random.Random(1)
    hands = games = 0
    t0 = time.process_time()
    end = t0 + seconds
    while time.process_time() < end:
        hands += api_game(rules, games, rng)
        games += 1
    return hands, time.process_time() - t0


def kernel_hands(seconds: float = 2.0, rules: "Rules | None" = None) -> tuple[int, float]:
    """:func:`games.engine.kernel.random_deal_points` for about ``seconds`` of CPU: the hands
    played and the CPU they took."""
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
    return n, time.process_time() - t0


def bench_api(seconds: float = 2.0, rules: "Rules | None" = None) -> float:
    hands, cpu = api_hands(seconds, rules)
    return hands / cpu


def bench_kernel(seconds: float = 2.0, rules: "Rules | None" = None) -> float:
    hands, cpu = kernel_hands(seconds, rules)
    return hands / cpu


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


OPENSPIEL_RULES = {"qs_breaks_hearts": False}
"""OpenSpiel's hearts set to our default rules (as ``games.bots.outside_arena`` plays it)."""


def openspiel_cpp_hands(pyspiel, seconds: float) -> tuple[int, float]:
    """Whole random hands of OpenSpiel's hearts played by its C++ alone (deal, pass, play,
    score): how many in about ``seconds`` of CPU, and the CPU they took."""
    game = pyspiel.load_game("hearts", OPENSPIEL_RULES)
    bots = [pyspiel.make_uniform_random_bot(seat, seat + 1) for seat in range(4)]
    evaluate, new_state = pyspiel.evaluate_bots, game.new_initial_state
    n = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        for _ in range(100):
            evaluate(new_state(), bots, n)
            n += 1
    return n, time.process_time() - t0


def openspiel_python_hands(pyspiel, seconds: float) -> tuple[int, float]:
    """Whole random hands of OpenSpiel's hearts driven from Python, as a web layer would drive
    it: every chance outcome and action applied through its Python API."""
    game = pyspiel.load_game("hearts", OPENSPIEL_RULES)
    rnd = random.Random(1).random
    n = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            # chance outcomes (the deal, the pass direction) are uniform in hearts: drawn from
            # legal_actions like a move, the cheapest way OpenSpiel's API offers
            actions = state.legal_actions()
            state.apply_action(actions[int(rnd() * len(actions))])
        n += 1
    return n, time.process_time() - t0


def side_by_side(sides: dict, slot: float, rounds: int) -> dict[str, float]:
    """Hands per CPU-second of each of ``sides`` (name: a function of seconds giving the hands
    played and the CPU they took), run in turn for ``slot`` CPU-seconds, ``rounds`` times.

    >>> rates = side_by_side({"a": lambda s: (10, 0.5), "b": lambda s: (3, 1.0)}, slot=0.5, rounds=2)
    >>> rates
    {'a': 20.0, 'b': 3.0}
    """
    hands = dict.fromkeys(sides, 0)
    cpu = dict.fromkeys(sides, 0.0)
    for _ in range(rounds):
        for name, run in sides.items():
            played, took = run(slot)
            hands[name] += played
            cpu[name] += took
    return {name: hands[name] / cpu[name] for name in sides}


def compare_with_openspiel(seconds: float, slot: float = 0.5) -> None:
    """Print the kernel against OpenSpiel's C++ and the full API against OpenSpiel driven from
    Python, each pair timed side by side for about ``seconds`` of CPU per side."""
    import pyspiel  # optional: requirements-bench.txt

    rounds = max(1, round(seconds / slot))
    print(f"Side by side with OpenSpiel {getattr(pyspiel, '__version__', '')} (hearts, our default rules), "
          f"in alternating slots of {slot:g} CPU-s, {rounds} per side; hands per CPU-second:")
    pairs = (
        ("kernel.random_deal_points", kernel_hands, "OpenSpiel C++ (evaluate_bots, random bots)", openspiel_cpp_hands),
        ("full API (Game.new, legal, apply)", api_hands, "OpenSpiel from Python (pyspiel API)", openspiel_python_hands),
    )
    for our_name, ours, their_name, theirs in pairs:
        rates = side_by_side({our_name: ours, their_name: lambda s, theirs=theirs: theirs(pyspiel, s)}, slot, rounds)
        print(f"  {our_name:<36} {rates[our_name]:9,.0f}   {their_name:<44} {rates[their_name]:9,.0f}"
              f"   ours / theirs {rates[our_name] / rates[their_name]:.2f}x")


def best_of(bench, seconds: float, runs: int = 3) -> float:
    """The best of ``runs`` measurements (a loaded machine only ever makes a run slower)."""
    return max(bench(seconds) for _ in range(runs))


def main(argv: "list[str] | None" = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--openspiel"]:
        compare_with_openspiel(float(argv[1]) if len(argv) > 1 else 10.0)
        return
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
