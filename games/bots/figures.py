"""The arena's published figures (``strength.json``, written by ``python -m games.bots.arena
... --json games/bots/strength.json``), arranged for the page "How strong are the computers".

>>> runs = load()
>>> all(r["command"].startswith("python -m games.bots.") for r in runs)
True
"""

from __future__ import annotations

import json
from pathlib import Path

from . import LEVEL_NAMES, LEVELS

__all__ = ["FIGURES", "load", "matches", "self_play", "for_page", "title"]

#: how the page names the players
NAMES = {**LEVEL_NAMES, "ismcts": "OpenSpiel's ISMCTS", "sturtevant": "Sturtevant's program"}
_COUNT = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}

FIGURES = Path(__file__).with_name("strength.json")


def load(path: "Path | str | None" = None) -> list[dict]:
    """Every published run (of ``path``, default :data:`FIGURES`) in the order they were
    saved; ``[]`` if none yet."""
    try:
        with open(path or FIGURES, encoding="utf-8") as f:
            return json.load(f)
    except FileNotFoundError:
        return []


def matches(runs: list[dict]) -> list[dict]:
    """The runs where different players met (duplicate matches), most hands first."""
    return sorted((r for r in runs if len(set(r["table"])) > 1), key=lambda r: -r["hands"])


def self_play(runs: list[dict]) -> list[dict]:
    """The runs of one level at every seat (its statistics of play), in level order."""
    order = LEVELS
    one = [r for r in runs if len(set(r["table"])) == 1]
    return sorted(one, key=lambda r: order.index(r["table"][0]) if r["table"][0] in order else len(order))


def title(run: dict) -> str:
    """``"Hard against three Medium"`` — who met whom.

    >>> title({"table": ["hard", "medium", "medium", "medium"]})
    'Hard against three Medium'
    >>> title({"table": ["hard", "ismcts", "hard", "ismcts"]})
    "Two Hard against two OpenSpiel's ISMCTS"
    >>> title({"table": ["medium"] * 4})
    'Medium at every seat'
    """
    table = run["table"]
    levels = list(dict.fromkeys(table))
    if len(levels) == 1:
        return f"{NAMES.get(levels[0], levels[0])} at every seat"
    parts = []
    for i, level in enumerate(levels):
        count = table.count(level)
        name = NAMES.get(level, level)
        word = "" if count == 1 and i == 0 else _COUNT.get(count, str(count)) + " "
        parts.append(word + name)
    text = " against ".join(parts)
    return text[0].upper() + text[1:]


def for_page(run: dict) -> dict:
    """A run with what the page shows worked out: its title, the rules in words, the levels'
    rows with their names, and the statistics of play as percentages."""
    play = run["play"]
    rules = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in run["rules"].items()) or "the usual rules"
    return {
        **run,
        "title": title(run),
        "rules_text": rules,
        "rows": [{**row, "name": NAMES.get(row["level"], row["level"]),
                  "moons_percent": row["moons_per_hand"] * 100} for row in run["levels"]],
        "comparisons": [{**c, "name": NAMES.get(c["level"], c["level"]),
                         "against_name": NAMES.get(c["against"], c["against"]),
                         "fewer": -c["difference"]} for c in run["comparisons"]],
        "moon_hands_percent": play.get("moon_hands", float("nan")) * 100,
        "club_void_passing_percent": play["club_void_passing"] * 100,
        "club_void_hold_percent": play["club_void_hold"] * 100,
        "moons": [{"name": NAMES.get(lv, lv), "percent": v["moons_per_hand"] * 100,
                   "per_game": v.get("moons_per_game")} for lv, v in play["levels"].items()],
    }
