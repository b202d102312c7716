"""Duplicate matches between bot levels, refereed by the full :class:`~games.engine.Game`.

Each deal is played once per seating: the levels rotate round the table so every level
plays every seat's cards, and the luck of the deal cancels.  Bots only ever get
``game.view(seat)``.

    python -m games.bots.arena --players hard,medium,medium,medium --hands 2000 --seed 1
    python -m games.bots.arena --players medium,easy,easy,easy --hands 500 --processes 2
    python -m games.bots.arena --players hard,medium,medium --rules moon=choose,jack_of_diamonds=true
    python -m games.bots.arena --self-play easy,medium,hard --games 40 --processes 2

``--hands`` is the number of deals; each is played once per seat (so 4 players and
``--hands 300`` play 1200 hands).  Rules are ``key=value`` pairs of
:class:`~games.engine.Rules` fields (``players`` defaults to the number of levels).
``--samples`` fixes the searching levels' (Hard's and Expert's) worlds per decision;
``--time-budget`` caps their seconds per decision (not deterministic); ``--effort`` sets
their simulated card plays per card.
``--scores random`` starts each deal from random game totals (so the standing matters).

Prints, per level: average points per hand with a 95% interval (over deals), moons shot
per hand, and decision time (median and 95th percentile of the CPU time on one core, all
decisions and those with a real choice; and wall-clock time), then each level's ratio and
difference against the next, then the statistics of play (see :func:`format_play_stats`).

``--games N`` plays whole games instead of single deals (each game once per seating, from
the same shuffles), so the statistics include hands per game, the winner's and the highest
score, and moons per game.  ``--self-play easy,medium,hard`` plays each level against
itself and prints one row of statistics of play per level.

Players from outside the project (OpenSpiel's ISMCTS, Sturtevant's program) sit in through
:mod:`games.bots.outside_arena`, which passes ``outside`` players to :func:`run`.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import json
import os
import math
import random
import statistics
import sys
import time
from multiprocessing import Pool

from games.engine import Card, Game, Rules

from . import LEVELS, SEARCHES, choose_action

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


class _DealWatch:
    """What a deal showed, read from the engine's events: the trick in which hearts were
    first broken, and whether someone could not follow the 2♣ on the first trick."""

    def __init__(self, passing: bool) -> None:
        self.passing = passing
        self.broken_in: "int | None" = None
        self.club_void = False
        self.trick = 1
        self.tricks: list[tuple[int, int, bool]] = []  # each trick's taker, its points, whether it held the Q♠

    def see(self, events) -> None:
        for e in events:
            kind = e["type"]
            if kind == "card_played":
                self.trick = e["trick"]
            elif kind == "hearts_broken" and self.broken_in is None:
                self.broken_in = self.trick
            elif kind == "trick_won":
                self.tricks.append((e["seat"], e["points"], "QS" in e["cards"]))
                if e["trick"] == 1 and e["cards"][0] == "2C":
                    self.club_void = any(c[1] != "C" for c in e["cards"])

    def record(self, g: Game, times) -> dict:
        return {"points": list(g.deal_points), "shooter": g.moon_shooter, "times": times,
                "passing": self.passing, "broken_in": self.broken_in, "club_void": self.club_void,
                "tricks": self.tricks}


def _act(view, level, seed: int, options: dict, outside: dict):
    if level in outside:
        return outside[level](view, seed)
    return choose_action(view, level, seed=seed, **(options if level in SEARCHES else {}))


def _cpu_elsewhere(level, outside: dict) -> float:
    """CPU seconds an outside player spent in its own processes on its last decision (its
    ``cpu_elsewhere``: Sturtevant's program searches in a program of its own)."""
    return getattr(outside.get(level), "cpu_elsewhere", 0.0)


def _play_one_deal(g: Game, levels, bot_seed: int, options: dict, outside: dict) -> dict:
    """Play the deal ``g`` is on to its end (the next deal dealt, or the game over)."""
    deal = g.deal_number
    watch = _DealWatch(g.phase == "pass")
    times: list[list] = [[] for _ in range(g.players)]
    while g.deal_number == deal and not g.is_over:
        for seat in g.to_act:
            view = g.view(seat)
            t, c = time.perf_counter(), time.process_time()
            action = _act(view, levels[seat], bot_seed * 7919 + g.ply, options, outside)
            cpu, wall = time.process_time() - c + _cpu_elsewhere(levels[seat], outside), time.perf_counter() - t
            choice = view.phase != "play" or len(view.legal) > 1
            times[seat].append((cpu, wall, choice))
            watch.see(g.apply(seat, action))
    return watch.record(g, times)


def play_deal(rules: Rules, levels, setup: dict, bot_seed: int, options: "dict | None" = None,
              outside: "dict | None" = None) -> dict:
    """Play one deal with ``levels[seat]`` bots; return points, shooter, decision times and
    what the deal showed (``passing``, ``broken_in``, ``club_void``)."""
    g = Game.new(rules, seed=setup["seed"], dealer=setup["dealer"], scores=setup["scores"],
                 deal_number=setup["deal_number"])
    return _play_one_deal(g, levels, bot_seed, options or {}, outside or {})


#: a game that runs this many deals is stopped (a tie for lowest plays on with ties="continue")
MAX_DEALS_PER_GAME = 60


def play_game(rules: Rules, levels, seed, bot_seed: int, options: "dict | None" = None,
              outside: "dict | None" = None) -> dict:
    """Play a whole game; return its deals (as :func:`play_deal`), final scores and winners."""
    g = Game.new(rules, seed=seed)
    deals: list[dict] = []
    while not g.is_over and len(deals) < MAX_DEALS_PER_GAME:
        deals.append(_play_one_deal(g, levels, bot_seed + len(deals), options or {}, outside or {}))
    return {"deals": deals, "scores": list(g.scores), "winners": list(g.winners)}


def _seatings(levels):
    n = len(levels)
    return [[levels[(s - r) % n] for s in range(n)] for r in range(n)]


def _work(args):
    rules, levels, seed, index, options, score_mode, outside = args
    setup = _deal_setup(rules, seed, index, score_mode)
    out = []
    for r, seating in enumerate(_seatings(levels)):
        res = play_deal(rules, seating, setup, seed * 100003 + index, options, outside)
        res["seating"] = seating
        out.append(res)
    return index, out


def _work_game(args):
    rules, levels, seed, index, options, outside = args
    out = []
    # a table of one level plays each game once: turning it round would play the same game
    for seating in {tuple(x): x for x in _seatings(levels)}.values():
        res = play_game(rules, seating, f"arena/{seed}/game/{index}", seed * 100003 + index * 1009, options,
                        outside)
        res["seating"] = seating
        out.append(res)
    return index, out


def _check(levels, rules: Rules, outside) -> None:
    if len(levels) != rules.players:
        raise ValueError(f"{len(levels)} levels for {rules.players} players.")
    for lv in levels:
        if lv not in LEVELS and lv not in outside:
            raise ValueError(f"Unknown level {lv!r} — use {', '.join(LEVELS + tuple(outside))}.")


def _map(work, jobs, processes: int, progress):
    results = [None] * len(jobs)
    t0 = time.time()
    if processes > 1:
        with Pool(processes) as pool:
            for k, (i, out) in enumerate(pool.imap_unordered(work, jobs)):
                results[i] = out
                if progress:
                    progress(k + 1, len(jobs), time.time() - t0)
    else:
        for k, job in enumerate(jobs):
            i, out = work(job)
            results[i] = out
            if progress:
                progress(k + 1, len(jobs), time.time() - t0)
    return results, time.time() - t0


def run(levels, hands: int, seed: int = 1, rules: "Rules | None" = None, processes: int = 1,
        options: "dict | None" = None, score_mode: str = "zero", progress=None,
        outside: "dict | None" = None) -> dict:
    """Play ``hands`` duplicate deals; return the raw results per deal.

    ``outside`` maps more player names to ``act(view, seed)`` functions (picklable, for
    ``processes > 1``)."""
    rules = rules or Rules(players=len(levels))
    outside = outside or {}
    _check(levels, rules, outside)
    jobs = [(rules, list(levels), seed, i, options or {}, score_mode, outside) for i in range(hands)]
    results, seconds = _map(_work, jobs, processes, progress)
    return {"rules": rules, "levels": list(levels), "seed": seed, "deals": results,
            "seconds": seconds, "processes": processes, "options": options or {},
            "score_mode": score_mode}


def run_games(levels, games: int, seed: int = 1, rules: "Rules | None" = None, processes: int = 1,
              options: "dict | None" = None, progress=None, outside: "dict | None" = None) -> dict:
    """Play ``games`` whole games, each once per seating; the result has the deals as
    :func:`run`'s (one list per deal index of a game and seating) and the games."""
    rules = rules or Rules(players=len(levels))
    outside = outside or {}
    _check(levels, rules, outside)
    jobs = [(rules, list(levels), seed, i, options or {}, outside) for i in range(games)]
    results, seconds = _map(_work_game, jobs, processes, progress)
    deals = []
    played = []
    for seatings in results:
        for game in seatings:
            played.append(game)
            for d in game["deals"]:
                d["seating"] = game["seating"]
        # pair the seatings' deals by their index in the game, as far as every seating went
        for k in range(min(len(game["deals"]) for game in seatings)):
            deals.append([game["deals"][k] for game in seatings])
    return {"rules": rules, "levels": list(levels), "seed": seed, "deals": deals, "games": played,
            "seconds": seconds, "processes": processes, "options": options or {},
            "score_mode": "games"}


def _pct(xs, q):
    if not xs:
        return float("nan")
    xs = sorted(xs)
    i = min(len(xs) - 1, max(0, math.ceil(q * len(xs)) - 1))
    return xs[i]


def summarize(result: dict) -> dict:
    levels = result["levels"]
    distinct = list(dict.fromkeys(levels))
    per_deal: dict[str, list] = {lv: [] for lv in distinct}
    moons = {lv: 0 for lv in distinct}
    count = {lv: 0 for lv in distinct}
    times: dict[str, list[float]] = {lv: [] for lv in distinct}
    walls: dict[str, list[float]] = {lv: [] for lv in distinct}
    choice_times: dict[str, list[float]] = {lv: [] for lv in distinct}
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


PHASES = ("moons", "queen", "first 4 tricks", "middle tricks", "last 4 tricks")
"""Where a hand's points come from (:func:`where_points_go`): hands with a moon as scored;
in the others, the queen of spades and the other points taken, by when the trick was (with
four players: tricks 1–4, 5–9 and 10–13)."""


def _phase_of_trick(trick: int, tricks: int) -> str:
    """The phase of the ``trick``-th trick (from 1) of a deal of ``tricks`` tricks: the first
    four, the last four, and those between."""
    if trick <= 4:
        return PHASES[2]
    return PHASES[4] if trick > tricks - 4 else PHASES[3]


def where_points_go(result: dict) -> dict:
    """Each level's points per hand split by where they come from (:data:`PHASES`), in hands
    with a pass and hold hands apart: the parts add up to the points per hand. In a duplicate
    match each level plays the same cards, so the difference of two levels in one part says
    where one loses points to the other. (Queen points are what the rules give the Q♠ in
    taking it, Black Maria's other spades included in the tricks'.)

    >>> result = {"levels": ["a", "b", "b"], "rules": Rules(players=3), "deals": [[
    ...     {"seating": ["a", "b", "b"], "points": [13, 0, 0], "shooter": None, "passing": True,
    ...      "tricks": [(0, 13, True)] + [(1, 0, False)] * 16},
    ...     {"seating": ["b", "a", "b"], "points": [26, 0, 26], "shooter": 1, "passing": True, "tricks": []}]]}
    >>> split = where_points_go(result)
    >>> split["a"]["pass"]["queen"], split["a"]["pass"]["moons"], split["b"]["pass"]["moons"]
    (6.5, 0.0, 13.0)
    """
    rules = result["rules"]
    queen_points = rules.card_points(Card.parse("QS"))
    levels = list(dict.fromkeys(result["levels"]))
    sums = {lv: {kind: dict.fromkeys(PHASES, 0.0) for kind in ("pass", "hold")} for lv in levels}
    hands = {lv: {"pass": 0, "hold": 0} for lv in levels}
    for deal in result["deals"]:
        for res in deal:
            kind = "pass" if res["passing"] else "hold"
            tricks = len(res["tricks"])
            for seat, lv in enumerate(res["seating"]):
                hands[lv][kind] += 1
                split = sums[lv][kind]
                if res["shooter"] is not None:
                    split["moons"] += res["points"][seat]
                    continue
                for number, (taker, points, queen) in enumerate(res["tricks"], start=1):
                    if taker == seat:
                        if queen:
                            split["queen"] += queen_points
                            points -= queen_points
                        split[_phase_of_trick(number, tricks)] += points
    return {lv: {kind: {phase: total / max(1, hands[lv][kind]) for phase, total in sums[lv][kind].items()}
                 | {"hands": hands[lv][kind]} for kind in ("pass", "hold")} for lv in levels}


def format_where_points_go(result: dict, indent: str = "") -> str:
    """:func:`where_points_go` as a table, with each level's difference from the first."""
    split = where_points_go(result)
    levels = list(split)
    lines = [f"{indent}{'points per hand':<26}" + "".join(f"{lv:>12}" for lv in levels)
             + "".join(f"{lv + ' - ' + levels[0]:>22}" for lv in levels[1:])]
    for kind in ("pass", "hold"):
        if not split[levels[0]][kind]["hands"]:
            continue
        for phase in PHASES + ("all",):
            values = [sum(split[lv][kind][p] for p in PHASES) if phase == "all" else split[lv][kind][phase]
                      for lv in levels]
            lines.append(f"{indent}{kind + ' hands, ' + phase:<26}" + "".join(f"{v:>12.2f}" for v in values)
                         + "".join(f"{v - values[0]:>+22.2f}" for v in values[1:]))
    return "\n".join(lines)


def play_stats(result: dict) -> dict:
    """The statistics of play of a run: moons per hand and per game by level (per hand and
    game a seat of that level played); over the hands, how often someone shot the moon,
    how often someone could not follow the 2♣ (hands with a pass and hold hands
    apart) and the trick in which hearts were first broken; over whole games, hands per
    game and the winner's and the highest score."""
    levels = result["levels"]
    distinct = list(dict.fromkeys(levels))
    hands = [res for deal in result["deals"] for res in deal]
    if "games" in result:
        hands = [d for game in result["games"] for d in game["deals"]]
    moons = {lv: 0 for lv in distinct}
    seat_hands = {lv: 0 for lv in distinct}
    for res in hands:
        for seat, lv in enumerate(res["seating"]):
            seat_hands[lv] += 1
            moons[lv] += res["shooter"] == seat
    out: dict = {"levels": {}}
    for lv in distinct:
        out["levels"][lv] = {"moons_per_hand": moons[lv] / seat_hands[lv] if seat_hands[lv] else float("nan")}
    passing = [r for r in hands if r["passing"]]
    hold = [r for r in hands if not r["passing"]]
    broken = [r["broken_in"] for r in hands if r["broken_in"] is not None]
    out["hands"] = len(hands)
    out["moon_hands"] = sum(r["shooter"] is not None for r in hands) / len(hands) if hands else float("nan")
    out["club_void_passing"] = sum(r["club_void"] for r in passing) / len(passing) if passing else float("nan")
    out["club_void_hold"] = sum(r["club_void"] for r in hold) / len(hold) if hold else float("nan")
    out["hands_passing"], out["hands_hold"] = len(passing), len(hold)
    out["broken_in"] = statistics.fmean(broken) if broken else float("nan")
    out["never_broken"] = 1 - len(broken) / len(hands) if hands else float("nan")
    games = result.get("games")
    if games:
        out["games"] = len(games)
        out["hands_per_game"] = statistics.fmean(len(g["deals"]) for g in games)
        out["winner_score"] = statistics.fmean(min(g["scores"]) for g in games)
        out["highest_score"] = statistics.fmean(max(g["scores"]) for g in games)
        out["games_with_a_moon"] = sum(any(d["shooter"] is not None for d in g["deals"]) for g in games) / len(games)
        for lv in distinct:
            seat_games = sum(g["seating"].count(lv) for g in games)
            shot = sum(1 for g in games for d in g["deals"]
                       if d["shooter"] is not None and g["seating"][d["shooter"]] == lv)
            out["levels"][lv]["moons_per_game"] = shot / seat_games if seat_games else float("nan")
    return out


def format_play_stats(stats: dict, label: str = "") -> str:
    """The statistics of play as lines of text (see :func:`play_stats`)."""
    lines = []
    moons = ", ".join(
        f"{lv} {v['moons_per_hand'] * 100:.2f}% of hands"
        + (f", {v['moons_per_game']:.2f} per game" if "moons_per_game" in v else "")
        for lv, v in stats["levels"].items()
    )
    lines.append(f"{label}moons shot: {moons}; a moon in {stats['moon_hands'] * 100:.2f}% of hands")
    lines.append(
        f"{label}someone could not follow the 2♣: {stats['club_void_passing'] * 100:.1f}% of hands with a pass"
        f" ({stats['hands_passing']}), {stats['club_void_hold'] * 100:.1f}% of hold hands ({stats['hands_hold']})"
    )
    lines.append(f"{label}hearts first broken in trick {stats['broken_in']:.1f} on average "
                 f"(never broken in {stats['never_broken'] * 100:.1f}% of hands)")
    if "games" in stats:
        lines.append(
            f"{label}{stats['games']} games: {stats['hands_per_game']:.1f} hands per game, winner's score "
            f"{stats['winner_score']:.1f}, highest score {stats['highest_score']:.1f}, a moon in "
            f"{stats['games_with_a_moon'] * 100:.0f}% of games"
        )
    return "\n".join(lines)


def _paired_differences(s: dict):
    """``(level, next level, mean difference per hand, 95% half-width)`` over the same deals,
    for each level and the next in a :func:`summarize`."""
    names = list(s)
    for a, b in zip(names, names[1:]):
        diffs = [x - y for x, y in zip(s[a]["per_deal"], s[b]["per_deal"])]
        half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else float("nan")
        yield a, b, statistics.fmean(diffs), half


def summary(result: dict, command: str) -> dict:
    """A run's figures as JSON-ready data, with the command that reproduces them: what the
    site's page "How strong are the computers" shows (see ``--json``)."""
    s = summarize(result)
    rules = result["rules"]
    levels = []
    for lv, r in s.items():
        levels.append({
            "level": lv, "seats": r["seats"], "points_per_hand": round(r["mean"], 2),
            "ci": round(r["ci"], 2), "moons_per_hand": round(r["moons"], 4), "decisions": r["decisions"],
            "choice_median_ms": round(r["choice_median_ms"], 1), "choice_p95_ms": round(r["choice_p95_ms"], 1),
            "median_ms": round(r["median_ms"], 1), "p95_ms": round(r["p95_ms"], 1),
        })
    comparisons = [{"level": a, "against": b, "difference": round(md, 2), "ci": round(half, 2)}
                   for a, b, md, half in _paired_differences(s)]
    stats = play_stats(result)
    return {
        "command": command,
        "seed": result["seed"],
        "date": datetime.date.today().isoformat(),
        "players": rules.players,
        "rules": {f.name: getattr(rules, f.name) for f in dataclasses.fields(Rules)
                  if f.name != "players" and getattr(rules, f.name) != f.default},
        "table": result["levels"],
        "deals": len(result["deals"]),
        "hands": sum(len(d) for d in result["deals"]),
        "seconds": round(result["seconds"]),
        "levels": levels,
        "comparisons": comparisons,
        "play": {k: (round(v, 4) if isinstance(v, float) else v) for k, v in stats.items() if k != "levels"}
        | {"levels": {lv: {k: round(v, 4) for k, v in d.items()} for lv, d in stats["levels"].items()}},
    }


def save_summary(path: str, entry: dict) -> None:
    """Put ``entry`` into the JSON list at ``path``, in place of a run of the same command."""
    runs = []
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            runs = json.load(f)
    runs = [r for r in runs if r["command"] != entry["command"]] + [entry]
    with open(path, "w", encoding="utf-8") as f:
        json.dump(runs, f, indent=1, ensure_ascii=False)
        f.write("\n")


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
        (f"{len(result['games']) // n} games x {n} seatings = {len(result['games'])} games, "
         f"{deals} deals played by every seating, seed {result['seed']}, "
         if "games" in result else
         f"{deals} deals x {n} seatings = {deals * n} hands, seed {result['seed']}, scores {result['score_mode']}, ")
        + f"{result['seconds']:.0f} s on {result['processes']} process(es)"
        + (f", search options {result['options']}" if result["options"] else ""),
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
    lines += ["", "Statistics of play", format_play_stats(play_stats(result), "  ")]
    lines += ["", "Where the points come from (hands with a moon as scored; in the others, by trick)",
              format_where_points_go(result, "  ")]
    if len(s) > 1:
        lines.append("")
        for a, b, md, half in _paired_differences(s):
            ratio = s[a]["mean"] / s[b]["mean"] if s[b]["mean"] else float("nan")
            lines.append(f"{a} vs {b}: ratio {ratio:.3f} of the points; difference {md:+.2f} "
                         f"± {half:.2f} points/hand (95%)")
    return "\n".join(lines)


def main(argv=None, outside: "dict | None" = None, prog: str = "python -m games.bots.arena") -> int:
    """The command line; ``outside`` adds players from outside (see :mod:`.outside_arena`)."""
    outside = outside or {}
    p = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n")[0])
    p.add_argument("--players", default="hard,medium,medium,medium",
                   help="comma-separated level per seat (" + ", ".join(LEVELS + tuple(outside)) + ")")
    p.add_argument("--hands", type=int, default=200, help="number of deals (each played once per seat)")
    p.add_argument("--games", type=int, default=None, help="play this many whole games instead of deals")
    p.add_argument("--self-play", default=None, metavar="LEVELS",
                   help="comma-separated levels, each playing every seat: one row of statistics each")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--rules", default="", help="key=value,... Rules fields, e.g. moon=choose")
    p.add_argument("--processes", type=int, default=1)
    p.add_argument("--samples", type=int, default=None, help="Hard and Expert: worlds per decision")
    p.add_argument("--time-budget", type=float, default=None, help="Hard and Expert: seconds per decision")
    p.add_argument("--effort", type=int, default=None, help="Hard and Expert: simulated card plays per card")
    p.add_argument("--scores", choices=("zero", "random"), default="zero",
                   help="game totals each deal starts from")
    p.add_argument("--quiet", action="store_true")
    p.add_argument("--json", default=None, metavar="PATH",
                   help="also put the figures in this JSON file (games/bots/strength.json: the site's page)")
    argv = sys.argv[1:] if argv is None else list(argv)
    a = p.parse_args(argv)
    shown = _without(argv, ("--json", "--quiet", "--processes"))
    if "--seed" not in (x.split("=", 1)[0] for x in shown):
        shown += ["--seed", str(a.seed)]
    command = " ".join([prog] + shown)
    levels = [x.strip() for x in a.players.split(",") if x.strip()]
    try:
        rules = parse_rules(a.rules, players=len(levels) if not a.self_play else None)
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
            print(f"  {k}/{total} {'games' if a.games else 'deals'}, {secs:.0f} s", file=sys.stderr, flush=True)

    try:
        if a.self_play:
            for level in [x.strip() for x in a.self_play.split(",") if x.strip()]:
                table = [level] * rules.players
                if a.games:
                    result = run_games(table, a.games, a.seed, rules, a.processes, options, progress, outside)
                else:
                    result = run(table, a.hands, a.seed, rules, a.processes, options, a.scores, progress, outside)
                print(f"{level} at every seat, {rules.players} players, {result['seconds']:.0f} s:")
                print(format_play_stats(play_stats(result), "  "))
                if a.json:
                    save_summary(a.json, summary(result, command.replace(a.self_play, level)))
            return 0
        if a.games:
            result = run_games(levels, a.games, a.seed, rules, a.processes, options, progress, outside)
        else:
            result = run(levels, a.hands, a.seed, rules, a.processes, options, a.scores, progress, outside)
    except ValueError as exc:
        p.error(str(exc))
    print(format_report(result))
    if a.json:
        save_summary(a.json, summary(result, command))
    return 0


def _without(argv, options) -> list:
    """``argv`` without the given options and their values (``--opt v`` or ``--opt=v``)."""
    out = []
    skip = False
    flags = {"--quiet"}
    for arg in argv:
        if skip:
            skip = False
            continue
        name = arg.split("=", 1)[0]
        if name in options:
            skip = "=" not in arg and name not in flags
            continue
        out.append(arg)
    return out


if __name__ == "__main__":
    sys.exit(main())
