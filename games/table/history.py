"""A stored game's public history: the steps of its log, replayed through the engine.

Pure Python over :mod:`games.engine` (no Django), so the browser's offline table
(:mod:`games.table.offline`) replays its games the same way the server does.

>>> from games.engine import Rules
>>> game = Game.new(Rules(passing="none"), seed=5)
>>> events = game.apply(game.turn, "2C")
>>> replayed, steps = game_with_history(game.to_dict())
>>> replayed.ply, [(step.seat, step.kind, step.card) for step in steps]
(1, [(2, 'play', '2C')])
"""
from __future__ import annotations

from dataclasses import dataclass, field

from games.engine import MOON_OPTIONS, Game


@dataclass
class Step:
    """One applied action, with its public events. Never carries another seat's passed cards."""

    ply: int
    deal: int
    seat: int
    kind: str  # "pass" | "play" | "moon"
    card: str | None = None  # the card played (public), for "play"
    choice: str | None = None  # for "moon"
    events: list = field(default_factory=list)


def step_of(ply: int, entry: dict, events: list) -> Step:
    """The public :class:`Step` for log ``entry`` (the ``ply``-th action) and its events."""
    action = entry["action"]
    if isinstance(action, list):
        return Step(ply, entry["deal"], entry["seat"], "pass", events=events)
    if action in MOON_OPTIONS:
        return Step(ply, entry["deal"], entry["seat"], "moon", choice=action, events=events)
    return Step(ply, entry["deal"], entry["seat"], "play", card=str(action), events=events)


def initial_game(state: dict) -> Game:
    """The stored game before its first action."""
    base = {key: state[key] for key in ("format", "rules", "seed", "setup")}
    base["log"] = []
    return Game.from_dict(base)


def game_with_history(state: dict, ply: int | None = None) -> tuple[Game, list[Step]]:
    """Replay a stored game: the game now (or after ``ply`` actions) and every step up to
    there with its (public) events."""
    game = initial_game(state)
    steps = []
    for index, entry in enumerate(state.get("log", ())[:ply]):
        events = game.apply(entry["seat"], entry["action"])
        steps.append(step_of(index + 1, entry, events))
    return game, steps
