"""Computer players for Hearts, and hints for people.  Pure Python, no Django.

A bot is a function of a :class:`~games.engine.PlayerView` only: it never receives the
``Game`` or another seat's cards.

- :func:`choose_action` — ``(view, level, seed)`` → a :class:`~games.engine.Card` to play,
  a list of 3 cards to pass, or ``"add"`` / ``"subtract"`` for a moon choice.  Levels:
  ``"easy"`` (a beginner, with mistakes), ``"medium"`` (solid rules,
  :mod:`games.bots.policy`), ``"hard"`` (Monte Carlo search over the hidden cards,
  :mod:`games.bots.hard`), ``"expert"`` (the same search with more effort: up to about a
  second a card).  Deterministic for a given view and seed.
- :func:`hint` — the suggestion for the person in that seat, with a one-line reason.

>>> from games.engine import Game, Rules
>>> g = Game.new(Rules(), seed=3)
>>> action = choose_action(g.view(0), "medium", seed=1)
>>> len(action), all(c in g.view(0).hand for c in action)
(3, True)
>>> h = hint(g.view(0))
>>> len(h.action), bool(h.reason)
(3, True)

Module layout: :mod:`.state` (a view as bitmasks, with what the table has revealed),
:mod:`.policy` (the Medium rules on bitmasks), :mod:`.easy`, :mod:`.medium`, :mod:`.hard`
(:mod:`.sampling` deals the hidden cards), :mod:`.standing` (game standing, moon choice),
:mod:`.hints` (reasons in words), :mod:`.arena` (duplicate matches between levels).
"""

from __future__ import annotations

import random
import zlib

from . import easy, hard, medium
from .hints import Hint, make_hint

__all__ = ["COMPUTER_NAMES", "LEVELS", "LEVEL_NAMES", "LEVEL_DESCRIPTIONS", "SEARCHES", "Hint", "choose_action",
           "decision_seed", "hint"]

LEVELS = ("easy", "medium", "hard", "expert")

#: how pages name each level
LEVEL_NAMES = {"easy": "Easy", "medium": "Medium", "hard": "Hard", "expert": "Expert"}

#: the levels that search (:mod:`.hard`), and how much each spends on a decision
SEARCHES = {"hard": hard.HARD, "expert": hard.EXPERT}

#: what each level does, in plain words (the page "How strong are the computers")
LEVEL_DESCRIPTIONS = {
    "easy": (
        "A beginner with simple habits: it leads low, follows low, throws away its highest card "
        "when it cannot follow suit and passes its three highest cards — but about a third of the "
        "time it plays (or passes) a random legal card instead, and it never plans ahead."
    ),
    "medium": (
        "A solid club player who plays by rules. It passes the queen and high spades when it is short "
        "in spades, and empties a short suit when its cards there are high. It ducks under the winning "
        "card, leads low, throws the queen and high hearts when it cannot follow, and keeps track of who "
        "has taken points. With a hand that can win every trick it goes for the moon — keeping its "
        "winners on the pass — and it gives up as soon as someone else takes a point. When another "
        "player may be going for the moon, it takes a heart to stop them."
    ),
    "hard": (
        "A searcher. Before each card it deals the cards it cannot see at random many times, in ways "
        "that agree with everything shown so far (who could not follow which suit, the cards it passed), "
        "counting each deal by how well it explains what the others just played. In each deal it tries "
        "every sensible card and plays the rest of the hand out with Medium's rules for everyone — moon "
        "attempts and moon stops included — solving the last tricks exactly near the end. It picks the "
        "card that does best on average, weighing the game score: near the end it plays to win the game, "
        "not just to take few points. It sees only what a person in its seat would see."
    ),
    "expert": (
        "Hard with more time to think: the same search, dealing about three times as many worlds before "
        "each card and each pass, so close calls are decided on more evidence. It takes up to about a "
        "second a card."
    ),
}

COMPUTER_NAMES = ("Ada", "Ben", "Cleo", "Dev", "Eve", "Finn", "CPU", "Computer")
"""What computer players are called at a table (by seat: ``COMPUTER_NAMES[seat % 6]``), and
what a person may therefore not be called."""


def decision_seed(game, ply: int, seat: int) -> int:
    """The seed of a computer's decision at move ``ply`` of ``game`` (any key of the game: an
    offline game's id, a table's seed) for ``seat``: the same in every process, at the server
    and in the browser (not Python's ``hash``, which strings make differ between processes).

    >>> decision_seed("g1", 4, 2) == decision_seed("g1", 4, 2) != decision_seed("g1", 4, 3)
    True
    """
    return zlib.crc32(f"{game}/{ply}/{seat}".encode())


def choose_action(view, level: str, seed: int = 0, *, samples: "int | None" = None,
                  time_budget: "float | None" = None, effort: "int | None" = None):
    """The bot's action for the seat of ``view`` (which must be to act).

    ``samples`` (worlds per decision), ``effort`` (simulated card plays per card) and
    ``time_budget`` (seconds, not deterministic) tune the searching levels (:data:`SEARCHES`);
    without them each spends what its :class:`~games.bots.hard.Search` says.
    """
    if level not in LEVELS:
        raise ValueError(f"Unknown bot level {level!r} — use one of {', '.join(LEVELS)}.")
    if view.seat not in view.to_act or not view.legal:
        raise ValueError(f"Seat {view.seat} has nothing to do now (phase {view.phase}).")
    phase = view.phase
    rng = random.Random(seed)
    if phase == "pass":
        if level == "easy":
            return easy.pass_cards(view, rng)
        if level == "medium":
            return medium.pass_cards(view)
        return hard.pass_cards(view, seed, SEARCHES[level], samples=samples)
    if phase == "moon_choice":
        if level == "easy":
            return easy.moon_choice(view, rng)
        return medium.moon_choice(view) if level == "medium" else hard.moon_choice(view)
    if phase == "play":
        if level == "easy":
            card = easy.play(view, rng)
        elif level == "medium":
            card = medium.play(view)
        else:
            card = hard.play(view, seed, samples=samples, time_budget=time_budget, effort=effort,
                             search=SEARCHES[level])
        if card not in view.legal:  # pragma: no cover - a bug; never play an illegal card
            card = view.legal[0]
        return card
    raise ValueError(f"Nothing to choose in phase {phase!r}.")


def hint(view) -> Hint:
    """What the person in this seat might do now, and why, in one line.  Under 300 ms."""
    return make_hint(view)
