"""Medium: a solid rule-based player (the rules live in :mod:`games.bots.policy`).

Passing: the queen and high spades when short in spades, a short suit to void it, high
hearts.  Play: duck under the winning card, dump the queen and high hearts when void,
lead low, keep off the queen, block a moon, take the moon when it is all but certain.
"""

from __future__ import annotations

from games.engine import MOON_OPTIONS, Card, kernel
from games.engine.cards import mask_to_cards

from . import policy, standing
from .state import Knowledge, card_mask

__all__ = ["pass_cards", "play", "moon_choice", "moon_options"]


def pass_cards(view, why: "list | None" = None) -> list[Card]:
    cfg = kernel.config(view.rules)
    return list(mask_to_cards(policy.pass_cards(cfg, card_mask(view.hand), why)))


def play(view, why: "list | None" = None, knowledge: "Knowledge | None" = None) -> Card:
    k = knowledge or Knowledge.from_view(view)
    return Card.from_index(policy.play(k.deal, why))


def moon_options(view) -> dict:
    """The deal's points per seat for each moon choice (``view.phase == "moon_choice"``)."""
    k = Knowledge.from_view(view)
    return {c: k.deal.score(c)[0] for c in MOON_OPTIONS}


def moon_choice(view) -> str:
    return standing.moon_choice(view.rules, view.scores, view.seat, moon_options(view))
