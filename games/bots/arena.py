"""Duplicate matches between bot levels, refereed by the full :class:`~games.engine.Game`.

Each deal is played once per seating: the levels rotate round the table so every level
plays every seat's cards, and the luck of the deal cancels.  Bots only ever get
``game.view(seat)``.

    python -m games.bots.arena --players hard,medium,medium,medium --hands 2000 --seed 1
    python -m games.bots.arena --players medium,easy,easy,easy --hands 500 --processes 2
    python -m games.bots.arena --players hard,medium,medium --rules moon=choose,jack_of_diamonds=true

``--hands`` is the number of deals; each is played once per seat (so 4 players and
``--hands 300`` play 1200 hands).  Rules are ``key=value`` pairs of
:class:`~games.engine.Rules` fields (``players`` defaults to the number of levels).
``--samples`` fixes Hard's worlds per decision; ``--time-budget`` caps its seconds per
decision (not deterministic); ``--effort`` sets its simulated card plays per decision.
``--scores random`` starts each deal from random game totals (so the standing matters).

Prints, per level: average points per hand with a 95% interval (over deals), moons shot
per hand, and decision time (median and 95th percentile of the CPU time on one core, all
decisions and those with a real choice; and wall-clock time), then each level's ratio and difference against the next.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import random
import statistics
import sys
import time
from multiprocessing import Pool

from games.engine import Game, Rules

from . import LEVELS, choose_action
from . import hard as _hard

__all__ = ["parse_rules", "play_deal", "run", "format_report", "main"]


def parse_rules(text: str, players: "int | None" = None) -> Rules:
    """``"players=4,moon=choose,jack_of_diamonds=true"`` → :class:`Rules`."""
    d: dict = {}
    types = {f.name: f.type for f in dataclasses.fields(Rules)}
    for part in filter(None, (p.strip() for p in (text or "").split(","))):
        if "=" not in part:
            raise ValueError(f"Rules are key=value pairs, not {part!r}.")
        key, value = (x.strip() for x in part.split("=", 1))
        if key not in types:
            raise ValueError(f"Unknown rule {key!r} — known: {', '.join(types)}.")
        kind = str(types[key])
        if kind == "bool":
            if value.lower() not in ("true", "false", "1", "0", "yes", "no", "on", "off"):
                raise ValueError(f"{key} must be true or false, not {value!r}.")
            d[key] = value.lower() in ("true", "1", "yes", "on")
        elif kind == "int":
            d[key] = int(value)
        else:
            d[key] = value
    if players is not None:
        d.setdefault("players", players)
    return Rules(**d)


def _deal_setup(rules: Rules, seed: int, index: int, score_mode: str):
    rng = random.Random(f"arena/{seed}/{index}")
    n = rules.players
    cycle = len(rules.pass_cycle)
    scores = [0] * n
    if score_mode == "random":
        top = max(rules.target - 1, 0)
        scores = [rng.randint(0, top) for _ in range(n)]
    return {
        "seed": rng.getrandbits(48),
        "deal_number": index % cycle + 1,
        "dealer": index % n,
        "scores": scores,
    }


def play_deal(rules: Rules, levels, setup: dict, bot_seed: int, options: "dict | None" = None) -> dict:
    """Play one deal with ``levels[seat]`` bots; return points, shooter and decision times."""
    options = options or {}
    g = Game.new(rules, seed=setup["seed"], dealer=setup["dealer"], scores=setup["scores"],
                 deal_number=setup["deal_number"])
    deal = g.deal_number
    times: list[list] = [[] for _ in range(rules.players)]
    while g.deal_number == deal and not g.is_over:
        for seat in g.to_act:
            view = g.view(seat)
            level = levels[seat]
            opts = options if level == "hard" else {}
            t, c = time.perf_counter(), time.process_time()
            action = choose_action(view, level, seed=bot_seed * 7919 + g.ply, **opts)
            cpu, wall = time.process_time() - c, time.perf_counter() - t
            choice = view.phase != "play" or len(view.legal) > 1
            times[seat].append((cpu, wall, choice))
            g.apply(seat, action)
    return {"points": list(g.deal_points), "shooter": g.moon_shooter, "times": times}


def _seatings(levels):
    n = len(levels)
    return [[levels[(s - r) % n] for s in range(n)] for r in range(n)]


def _work(args):
    rules, levels, seed, index, options, score_mode = args
    setup = _deal_setup(rules, seed, index, score_mode)
    out = []
    for r, seating in enumerate(_seatings(levels)):
        res = play_deal(rules, seating, setup, seed * 100003 + index, options)
        res["seating"] = seating
        out.append(res)
    return index, out


def run(levels, hands: int, seed: int = 1, rules: "Rules | None" = None, processes: int = 1,
        options: "dict | None" = None, score_mode: str = "zero", progress=None) -> dict:
    """Play ``hands`` duplicate deals; return the raw results per deal."""
    rules = rules or Rules(players=len(levels))
    if len(levels) != rules.players:
        raise ValueError(f"{len(levels)} levels for {rules.players} players.")
    for lv in levels:
        if lv not in LEVELS:
            raise ValueError(f"Unknown level {lv!r} — use {', '.join(LEVELS)}.")
    jobs = [(rules, list(levels), seed, i, options or {}, score_mode) for i in range(hands)]
    results = [None] * hands
    t0 = time.time()
    if processes > 1:
        with Pool(processes) as pool:
            for k, (i, out) in enumerate(pool.imap_unordered(_work, jobs)):
                results[i] = out
                if progress:
                    progress(k + 1, hands, time.time() - t0)
    else:
        for k, job in enumerate(jobs):
            i, out = _work(job)
            results[i] = out
            if progress:
                progress(k + 1, hands, time.time() - t0)
    return {"rules": rules, "levels": list(levels), "seed": seed, "deals": results,
            "seconds": time.time() - t0, "processes": processes, "options": options or {},
            "score_mode": score_mode}


def _pct(xs, q):
    if not xs:
        return float("nan")
    xs = sorted(xs)
    i = min(len(xs) - 1, max(0, math.ceil(q * len(xs)) - 1))
    return xs[i]


def summarize(result: dict) -> dict:
    levels = result["levels"]
    distinct = list(dict.fromkeys(levels))
    per_deal = {lv: [] for lv in distinct}
    moons = {lv: 0 for lv in distinct}
    count = {lv: 0 for lv in distinct}
    times = {lv: [] for lv in distinct}
    walls = {lv: [] for lv in distinct}
    choice_times = {lv: [] for lv in distinct}
    for deal in result["deals"]:
        sums = {lv: 0.0 for lv in distinct}
        ns = {lv: 0 for lv in distinct}
        for res in deal:
            for seat, lv in enumerate(res["seating"]):
                sums[lv] += res["points"][seat]
                ns[lv] += 1
                count[lv] += 1
                if res["shooter"] == seat:
                    moons[lv] += 1
                for dt, wall, choice in res["times"][seat]:
                    times[lv].append(dt)
                    walls[lv].append(wall)
                    if choice:
                        choice_times[lv].append(dt)
        for lv in distinct:
            per_deal[lv].append(sums[lv] / ns[lv])
    out = {}
    for lv in distinct:
        xs = per_deal[lv]
        mean = statistics.fmean(xs)
        half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else float("nan")
        out[lv] = {
            "seats": levels.count(lv),
            "mean": mean,
            "ci": half,
            "hands": count[lv],
            "moons": moons[lv] / count[lv],
            "decisions": len(times[lv]),
            "median_ms": _pct(times[lv], 0.5) * 1000,
            "p95_ms": _pct(times[lv], 0.95) * 1000,
            "wall_median_ms": _pct(walls[lv], 0.5) * 1000,
            "wall_p95_ms": _pct(walls[lv], 0.95) * 1000,
            "choice_median_ms": _pct(choice_times[lv], 0.5) * 1000,
            "choice_p95_ms": _pct(choice_times[lv], 0.95) * 1000,
            "per_deal": xs,
        }
    return out


def format_report(result: dict) -> str:
    s = summarize(result)
    rules = result["rules"]
    n = rules.players
    deals = len(result["deals"])
    changed = [f"{f.name}={getattr(rules, f.name)}" for f in dataclasses.fields(Rules)
               if f.name != "players" and getattr(rules, f.name) != f.default]
    lines = [
        f"Duplicate arena: {','.join(result['levels'])} — {n} players, rules: "
        f"{', '.join(changed) or 'default'}",
        f"{deals} deals x {n} seatings = {deals * n} hands, seed {result['seed']}, "
        f"scores {result['score_mode']}, {result['seconds']:.0f} s on {result['processes']} process(es)"
        + (f", hard options {result['options']}" if result["options"] else ""),
        "",
        f"{'level':<8}{'seats':>6}{'points/hand':>13}{'95% CI':>18}{'moons/hand':>12}"
        f"{'decisions':>11}{'median ms':>11}{'p95 ms':>9}{'choice med':>12}{'choice p95':>12}"
        f"{'wall med':>10}{'wall p95':>10}",
    ]
    for lv, r in s.items():
        lo, hi = r["mean"] - r["ci"], r["mean"] + r["ci"]
        lines.append(
            f"{lv:<8}{r['seats']:>6}{r['mean']:>13.2f}{f'[{lo:.2f}, {hi:.2f}]':>18}{r['moons']:>12.4f}"
            f"{r['decisions']:>11}{r['median_ms']:>11.1f}{r['p95_ms']:>9.1f}"
            f"{r['choice_median_ms']:>12.1f}{r['choice_p95_ms']:>12.1f}"
            f"{r['wall_median_ms']:>10.1f}{r['wall_p95_ms']:>10.1f}"
        )
    lines.append("(decision times: CPU ms on one core, all decisions and those with a real choice; "
                 "wall ms includes waiting for a busy machine)")
    names = list(s)
    if len(names) > 1:
        lines.append("")
        for a, b in zip(names, names[1:]):
            xa, xb = s[a]["per_deal"], s[b]["per_deal"]
            diffs = [x - y for x, y in zip(xa, xb)]
            md = statistics.fmean(diffs)
            half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else float("nan")
            ratio = s[a]["mean"] / s[b]["mean"] if s[b]["mean"] else float("nan")
            lines.append(f"{a} vs {b}: ratio {ratio:.3f} of the points; difference {md:+.2f} "
                         f"± {half:.2f} points/hand (95%)")
    return "\n".join(lines)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m games.bots.arena", description=__doc__.split("\n")[0])
    p.add_argument("--players", default="hard,medium,medium,medium",
                   help="comma-separated level per seat (easy, medium, hard)")
    p.add_argument("--hands", type=int, default=200, help="number of deals (each played once per seat)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--rules", default="", help="key=value,... Rules fields, e.g. moon=choose")
    p.add_argument("--processes", type=int, default=1)
    p.add_argument("--samples", type=int, default=None, help="Hard: worlds per decision")
    p.add_argument("--time-budget", type=float, default=None, help="Hard: seconds per decision")
    p.add_argument("--effort", type=int, default=None, help="Hard: simulated card plays per decision")
    p.add_argument("--scores", choices=("zero", "random"), default="zero",
                   help="game totals each deal starts from")
    p.add_argument("--quiet", action="store_true")
    a = p.parse_args(argv)
    levels = [x.strip() for x in a.players.split(",") if x.strip()]
    try:
        rules = parse_rules(a.rules, players=len(levels))
    except ValueError as exc:
        p.error(str(exc))
    options = {}
    if a.samples is not None:
        options["samples"] = a.samples
    if a.time_budget is not None:
        options["time_budget"] = a.time_budget
    if a.effort is not None:
        options["effort"] = a.effort

    def progress(k, total, secs):
        if not a.quiet and (k == total or k % max(1, total // 20) == 0):
            print(f"  {k}/{total} deals, {secs:.0f} s", file=sys.stderr, flush=True)

    try:
        result = run(levels, a.hands, a.seed, rules, a.processes, options, a.scores, progress)
    except ValueError as exc:
        p.error(str(exc))
    print(format_report(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
