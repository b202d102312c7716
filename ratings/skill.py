"""The rating system: openskill's Plackett-Luce model, with ties corrected (pure Python, no Django).

Every player has a skill estimate ``mu`` and an uncertainty ``sigma`` per table size. A game is
a ranking of the rated players (lower rank is better, equal ranks are tied); the model's
defaults are used (``mu`` 25, ``sigma`` 25/3, ``beta`` 25/6, ``tau`` 25/300).

Ties
----
openskill 6.2.0 handles ties (equal ``ranks``) in ``PlackettLuce._compute`` with the Weng-Lin
"A_q" counts and then gives every tied player the group's *average* ``mu`` change. That is
independent of seat order, but it is not what our rules ask for ("a shared win counts halfway
between a win and a loss against each player tied with you"). With four equal players ranked
``[0, 0, 1, 2]`` the package gives the two tied winners +0.93 each: less than a clear second
place (+1.55, against +2.80 for a clear win) and exactly what it gives the third player, who
finished behind them. (See ``tests/ratings/test_skill.py``, which checks this against the
pinned package.)

So ties never reach the package. :func:`rate` rates every strict ordering of each group of tied
players and averages the results (``mu`` and ``sigma``, summed with :func:`math.fsum`, which is
exact and so independent of order). For two tied players A and B that is literally "the update
when A beats B and the update when B beats A, averaged" — halfway between a win and a loss
against each other — and A and B get bit-for-bit identical updates when they start equal,
whatever seats they sat in. A usual tie (two players) costs two package calls; the worst case,
all six players tied, 720 (about 0.2 s).

Display rating
--------------
``display = 1500 + 24 * (mu - 25)``, rounded: the skill estimate itself on an Elo-like scale.
A new player shows 1500. It moves with the result: among players of equal standing, first goes
up, last goes down, and the changes of one game sum to about zero (exactly zero when the
players' uncertainties are equal), as Elo's and Glicko's do. openskill's ``ordinal`` (``mu - 3
sigma``), a conservative estimate, rose with every game played whatever the result (third of
four gained), so it is not what players see; their uncertainty shows as the provisional mark
(fewer than ``PROVISIONAL_GAMES`` rated games) instead.
"""
from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()

INITIAL_MU: float = MODEL.mu
INITIAL_SIGMA: float = MODEL.sigma
DISPLAY_SCALE = 24.0
DISPLAY_BASE = 1500.0


@dataclass(frozen=True)
class Skill:
    """A player's skill estimate: mean ``mu`` and uncertainty ``sigma``."""

    mu: float = INITIAL_MU
    sigma: float = INITIAL_SIGMA

    @property
    def display(self) -> int:
        return display_rating(self.mu)


def display_rating(mu: float) -> int:
    """The number players see: ``round(1500 + 24 * (mu - 25))``.

    >>> display_rating(INITIAL_MU), display_rating(INITIAL_MU + 2.8), display_rating(INITIAL_MU - 4.04)
    (1500, 1567, 1403)
    """
    return round(DISPLAY_BASE + DISPLAY_SCALE * (mu - INITIAL_MU))


def rate_package(skills: Sequence[Skill], ranks: Sequence[int]) -> list[Skill]:
    """openskill's own update, ties and all (kept for comparison and for strict rankings)."""
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
    result = MODEL.rate(teams, ranks=[float(r) for r in ranks])
    return [Skill(team[0].mu, team[0].sigma) for team in result]


def rate(skills: Sequence[Skill], ranks: Sequence[int]) -> list[Skill]:
    """New skills after one game. ``ranks[i]`` is player i's place: lower is better, equal is tied.

    Tied players are rated as the average over every strict order of their group (see the
    module docstring). With no ties this is exactly openskill's Plackett-Luce update.

    >>> a, b = rate([Skill(), Skill()], [0, 0])
    >>> a == b and round(a.mu, 6) == round(INITIAL_MU, 6)
    True
    """
    if len(skills) != len(ranks):
        raise ValueError("Give one rank per player.")
    if len(skills) < 2:
        raise ValueError("A rated game needs at least two players.")

    # Groups of tied players, best place first; each group is permuted independently.
    places = sorted(set(ranks))
    groups = [[i for i, r in enumerate(ranks) if r == place] for place in places]

    mus: list[list[float]] = [[] for _ in skills]
    sigmas: list[list[float]] = [[] for _ in skills]
    for orders in itertools.product(*(itertools.permutations(g) for g in groups)):
        order = [i for group in orders for i in group]  # player indices, winner first
        # The package sees only the ordered skills, never the seats: strict ranks 0, 1, 2...
        rated = rate_package([skills[i] for i in order], list(range(len(order))))
        for i, new in zip(order, rated):
            mus[i].append(new.mu)
            sigmas[i].append(new.sigma)
    return [Skill(math.fsum(m) / len(m), math.fsum(s) / len(s)) for m, s in zip(mus, sigmas)]
