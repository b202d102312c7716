"""Easy: a beginner.  Legal cards from simple habits — lead low, follow low, throw away the
highest card when void, pass the three highest — and frequent random mistakes."""

from __future__ import annotations

import random

from games.engine import MOON_OPTIONS, Card

__all__ = ["pass_cards", "play", "moon_choice", "MISTAKE_RATE"]

#: how often Easy plays a random legal card instead of its habit
MISTAKE_RATE = 0.3


def _rank(card: Card):
    return (card.rank, card.suit)


def pass_cards(view, rng: random.Random) -> list[Card]:
    hand = list(view.hand)
    rng.shuffle(hand)
    if rng.random() < MISTAKE_RATE:
        return sorted(hand[:3])
    return sorted(sorted(hand, key=lambda c: c.rank)[-3:])


def play(view, rng: random.Random) -> Card:
    legal = list(view.legal)
    if len(legal) == 1 or rng.random() < MISTAKE_RATE:
        return rng.choice(legal)
    if view.current_trick:
        led = view.current_trick[0][1].suit
        follow = [c for c in legal if c.suit == led]
        if follow:
            return min(follow, key=_rank)
        return max(legal, key=_rank)
    return min(legal, key=_rank)


def moon_choice(view, rng: random.Random) -> str:
    return rng.choice(MOON_OPTIONS)
