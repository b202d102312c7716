"""Benchmark of the post-game analysis: time per game, the estimate's noise, and a sanity
check — Medium's decisions must be called mistakes more often than Hard's.

Each game is played to ``--target`` with Medium in seats 0 and 2 and Hard in seats 1 and 3;
seat 0 (Medium) and seat 1 (Hard) are analysed at the default effort, one after the other on
one core::

    python -m games.bots.analysis_bench --games 4
"""
from __future__ import annotations

import argparse
import statistics
import time

from games.engine import Game, Rules

from . import choose_action
from .analysis import ANALYSIS_EFFORT, analyse_game, summary

LEVELS = ("medium", "hard", "medium", "hard")


def played_game(seed: int, target: int) -> Game:
    game = Game.new(Rules(target=target), seed=seed)
    while not game.is_over:
        seat = game.to_act[0]
        game.apply(seat, choose_action(game.view(seat), LEVELS[seat], seed=game.ply))
    return game


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--target", type=int, default=100)
    parser.add_argument("--effort", type=int, default=ANALYSIS_EFFORT)
    args = parser.parse_args(argv)
    by_level: dict[str, list] = {"medium": [], "hard": []}
    deals_by_level = {"medium": 0, "hard": 0}
    for index in range(args.games):
        game = played_game(args.seed + index, args.target)
        state = game.to_dict()
        deals = game.deal_number
        for seat in (0, 1):
            level = LEVELS[seat]
            started = time.process_time()
            decisions = list(analyse_game(state, seat, effort=args.effort))
            spent = time.process_time() - started
            by_level[level] += decisions
            deals_by_level[level] += deals
            errors = [d.error for d in decisions if d.kind != "moon"]
            figures = summary(decisions, deals)
            print(f"game {index + 1} ({deals} deals, {game.ply} moves) seat {seat} {level}: "
                  f"{len(decisions)} decisions in {spent:.1f} s CPU, standard error median "
                  f"{statistics.median(errors):.2f} / max {max(errors):.2f} points; accuracy "
                  f"{figures['accuracy']}%, {figures['lost_per_deal']} points lost a deal", flush=True)
    for level, decisions in by_level.items():
        errors = [d.error for d in decisions if d.kind != "moon"]
        wrong = sum(d.verdict in ("inaccuracy", "mistake", "blunder") for d in decisions)
        serious = sum(d.verdict in ("mistake", "blunder") for d in decisions)
        figures = summary(decisions, deals_by_level[level])
        print(f"{level}: {len(decisions)} decisions, {100 * wrong / len(decisions):.1f}% called inaccuracies or "
              f"worse, {100 * serious / len(decisions):.1f}% mistakes or blunders; accuracy {figures['accuracy']}%, "
              f"{figures['lost_per_deal']} points lost a deal; standard error mean {statistics.mean(errors):.2f}")


if __name__ == "__main__":
    main()
