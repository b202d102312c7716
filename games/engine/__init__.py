"""A pure-Python Hearts rules engine (no Django), modelled on python-chess.

Small immutable values (:class:`Card`, :class:`Rules`, :class:`Trick`,
:class:`PlayerView`), one entry point (:class:`Game`), over one bitmask rules kernel
(:mod:`games.engine.kernel`) that the bots' searches play out too.

>>> from games.engine import Game, Rules, Card
>>> g = Game.new(Rules(passing="none"), seed=42)
>>> seat = g.to_act[0]
>>> g.legal(seat)
[Card.parse('2C')]
>>> [e["type"] for e in g.apply(seat, "2C")]
['card_played']
>>> g.view(seat).current_trick
((1, Card.parse('2C')),)
"""

from . import kernel
from .cards import FULL_DECK, Card, Rank, Suit, cards_to_mask, mask_to_cards, parse_cards
from .game import MOON_OPTIONS, PHASES, Game, IllegalAction, PlayerView, Trick, game_winners
from .rules import PassDirection, Rules

__all__ = [
    "Card", "Suit", "Rank", "parse_cards", "FULL_DECK", "cards_to_mask", "mask_to_cards",
    "Rules", "PassDirection",
    "kernel", "Game", "IllegalAction", "PlayerView", "Trick", "PHASES", "MOON_OPTIONS", "game_winners",
]
