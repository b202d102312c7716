"""Cards: small immutable value types that print and parse in the usual notation.

A card is written rank then suit: ranks ``2-9 T J Q K A`` (``10`` is accepted
for the ten), suits ``C D S H``.  Cards sort by suit, then rank, in the suit
order clubs, diamonds, spades, hearts (the order a Hearts player sorts a hand).

>>> qs = Card.parse("QS")
>>> qs
Card.parse('QS')
>>> str(qs), qs.symbol
('QS', 'Q♠')
>>> qs.suit, qs.rank
(Suit.SPADES, Rank.QUEEN)
>>> qs.suit == "S" and qs.rank == 12 and qs.rank == "Q"
True
>>> Card.parse("10h") == Card.parse("TH") == Card("H", 10)
True
>>> sorted(parse_cards("2H AS 3C KD"))
[Card.parse('3C'), Card.parse('KD'), Card.parse('AS'), Card.parse('2H')]

Every card exists once: ``Card.parse("QS") is Card.parse("QS")``.  Internally
a card is its :attr:`Card.index` ``0..51`` (``suit * 13 + rank - 2``), which
is also the bit used by the rules kernel (:mod:`games.engine.kernel`).
"""

from __future__ import annotations

import enum
from typing import Iterable

__all__ = ["Suit", "Rank", "Card", "parse_cards", "FULL_DECK", "cards_to_mask", "mask_to_cards"]

_SUIT_CHARS = "CDSH"
_SUIT_SYMBOLS = "♣♦♠♥"
_SUIT_WORDS = ("clubs", "diamonds", "spades", "hearts")
_RANK_CHARS = "23456789TJQKA"
_RANK_WORDS = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
               "jack", "queen", "king", "ace")


class Suit(enum.StrEnum):
    """A suit.  Compares equal to its letter; orders clubs < diamonds < spades < hearts.

    >>> Suit("S") is Suit.SPADES, Suit.HEARTS.symbol, Suit.CLUBS.plural
    (True, '♥', 'clubs')
    >>> sorted([Suit.HEARTS, Suit.SPADES, Suit.CLUBS])
    [Suit.CLUBS, Suit.SPADES, Suit.HEARTS]
    """

    CLUBS = "C"
    DIAMONDS = "D"
    SPADES = "S"
    HEARTS = "H"

    @property
    def index(self) -> int:  # type: ignore[override]  # a suit's place, not str.index
        """0 clubs, 1 diamonds, 2 spades, 3 hearts."""
        return _SUIT_CHARS.index(self.value)

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self.index]

    @property
    def plural(self) -> str:
        """The English word, as used in messages: ``"You must follow clubs."``"""
        return _SUIT_WORDS[self.index]

    @classmethod
    def parse(cls, text: "str | Suit") -> "Suit":
        """Parse ``"S"``, ``"s"``, ``"♠"`` or ``"spades"``."""
        if isinstance(text, Suit):
            return text
        t = str(text).strip()
        if t in _SUIT_SYMBOLS and len(t) == 1:
            return _SUITS[_SUIT_SYMBOLS.index(t)]
        u = t.upper()
        if len(u) == 1 and u in _SUIT_CHARS:
            return _SUITS[_SUIT_CHARS.index(u)]
        low = t.lower()
        for i, word in enumerate(_SUIT_WORDS):
            if low in (word, word[:-1]):
                return _SUITS[i]
        raise ValueError(f"Not a suit: {text!r} — use C, D, S or H.")

    def __repr__(self) -> str:
        return f"Suit.{self.name}"

    def __lt__(self, other):
        if isinstance(other, Suit):
            return self.index < other.index
        return NotImplemented

    def __le__(self, other):
        if isinstance(other, Suit):
            return self.index <= other.index
        return NotImplemented

    def __gt__(self, other):
        if isinstance(other, Suit):
            return self.index > other.index
        return NotImplemented

    def __ge__(self, other):
        if isinstance(other, Suit):
            return self.index >= other.index
        return NotImplemented

    __hash__ = str.__hash__


_SUITS = (Suit.CLUBS, Suit.DIAMONDS, Suit.SPADES, Suit.HEARTS)


class Rank(enum.IntEnum):
    """A rank, 2 (low) to 14 (ace, high).

    An int for arithmetic and comparison; prints as its letter; also compares
    equal to its letter, so ``rank == 12`` and ``rank == "Q"`` both work.

    >>> Rank.QUEEN == 12, Rank.QUEEN == "Q", str(Rank.TEN), Rank.parse("10")
    (True, True, 'T', Rank.TEN)
    """

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def char(self) -> str:
        return _RANK_CHARS[self - 2]

    @property
    def word(self) -> str:
        return _RANK_WORDS[self - 2]

    @classmethod
    def parse(cls, text: "str | int | Rank") -> "Rank":
        """Parse ``"Q"``, ``"q"``, ``"10"``, ``"T"`` or an int 2..14."""
        if isinstance(text, Rank):
            return text
        if isinstance(text, int) and not isinstance(text, bool):
            if 2 <= text <= 14:
                return _RANKS[text - 2]
            raise ValueError(f"Not a rank: {text!r} — ranks run from 2 to 14 (ace).")
        t = str(text).strip().upper()
        if t == "10":
            return Rank.TEN
        if len(t) == 1 and t in _RANK_CHARS:
            return _RANKS[_RANK_CHARS.index(t)]
        raise ValueError(f"Not a rank: {text!r} — use 2-9, T (or 10), J, Q, K or A.")

    def __str__(self) -> str:
        return self.char

    def __format__(self, spec: str) -> str:
        return format(self.char, spec)

    def __repr__(self) -> str:
        return f"Rank.{self.name}"

    def __eq__(self, other):
        if isinstance(other, str):
            try:
                return self is Rank.parse(other)
            except ValueError:
                return False
        return int.__eq__(self, other)

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    __hash__ = int.__hash__


_RANKS = tuple(Rank)


class Card:
    """A playing card.  Immutable, hashable, ordered by suit then rank.

    Build one with :meth:`Card.parse` or ``Card(suit, rank)``; both return
    the one shared instance of that card.

    >>> c = Card.parse("th")
    >>> c, c.index, c.symbol, c.name
    (Card.parse('TH'), 47, '10♥', 'ten of hearts')
    >>> Card.parse("2C") < Card.parse("AC") < Card.parse("2D")
    True
    >>> Card.parse("1X")
    Traceback (most recent call last):
    ...
    ValueError: Not a card: '1X' — write rank then suit, e.g. 'QS', 'TH' or '10H' (ranks 2-9 T J Q K A, suits C D S H).
    """

    __slots__ = ("index", "suit", "rank", "_str")

    index: int
    suit: Suit
    rank: Rank
    _str: str

    def __new__(cls, suit: "Suit | str", rank: "Rank | int | str") -> "Card":
        try:
            s = Suit.parse(suit)
            r = Rank.parse(rank)
        except ValueError as exc:
            raise ValueError(f"Not a card: suit {suit!r}, rank {rank!r} — {exc}") from None
        return _CARDS[s.index * 13 + r - 2]

    @classmethod
    def _make(cls, index: int) -> "Card":
        self = object.__new__(cls)
        s = _SUITS[index // 13]
        r = _RANKS[index % 13]
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "suit", s)
        object.__setattr__(self, "rank", r)
        object.__setattr__(self, "_str", r.char + s.value)
        return self

    @classmethod
    def parse(cls, text: "str | Card") -> "Card":
        """Parse ``"QS"``, ``"qs"``, ``"TH"``, ``"10H"`` or ``"Q♠"``.  A Card is returned as is."""
        if isinstance(text, Card):
            return text
        card = _BY_TEXT.get(text) if isinstance(text, str) else None
        if card is not None:
            return card
        if isinstance(text, str):
            t = text.strip()
            if len(t) >= 2:
                try:
                    return _CARDS[Suit.parse(t[-1]).index * 13 + Rank.parse(t[:-1]) - 2]
                except ValueError:
                    pass
        raise ValueError(
            f"Not a card: {text!r:.24} — write rank then suit, e.g. 'QS', 'TH' or '10H' "
            "(ranks 2-9 T J Q K A, suits C D S H)."
        )

    @classmethod
    def from_index(cls, index: int) -> "Card":
        """The card with :attr:`index` ``0..51`` (2C is 0, AH is 51)."""
        if not (isinstance(index, int) and 0 <= index < 52):
            raise ValueError(f"Not a card index: {index!r} — use 0..51.")
        return _CARDS[index]

    @property
    def symbol(self) -> str:
        """Pretty form for the UI: ``"Q♠"``, ``"10♥"``."""
        return ("10" if self.rank == 10 else self.rank.char) + self.suit.symbol

    @property
    def name(self) -> str:
        """``"queen of spades"``."""
        return f"{self.rank.word} of {self.suit.plural}"

    @property
    def bit(self) -> int:
        """``1 << index``: this card as a bitmask."""
        return 1 << self.index

    def __setattr__(self, key, value):
        raise AttributeError("Card is immutable")

    def __delattr__(self, key):
        raise AttributeError("Card is immutable")

    def __reduce__(self):
        # A plain function, not the bound classmethod: Twisted (loaded with daphne) replaces
        # how bound methods pickle, which breaks unpickling a classmethod of Card.
        return (_card_from_index, (self.index,))

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __str__(self) -> str:
        return self._str

    def __repr__(self) -> str:
        return f"Card.parse({self._str!r})"

    def __hash__(self) -> int:
        return self.index

    def __eq__(self, other):
        if isinstance(other, Card):
            return self.index == other.index
        return NotImplemented

    def __ne__(self, other):
        if isinstance(other, Card):
            return self.index != other.index
        return NotImplemented

    def __lt__(self, other):
        if isinstance(other, Card):
            return self.index < other.index
        return NotImplemented

    def __le__(self, other):
        if isinstance(other, Card):
            return self.index <= other.index
        return NotImplemented

    def __gt__(self, other):
        if isinstance(other, Card):
            return self.index > other.index
        return NotImplemented

    def __ge__(self, other):
        if isinstance(other, Card):
            return self.index >= other.index
        return NotImplemented


_CARDS: tuple[Card, ...] = tuple(Card._make(i) for i in range(52))
_BY_TEXT: dict[str, Card] = {}
for _c in _CARDS:
    for _r in {_c.rank.char, _c.rank.char.lower()} | ({"10"} if _c.rank == 10 else set()):
        for _s in (_c.suit.value, _c.suit.value.lower(), _c.suit.symbol):
            _BY_TEXT[_r + _s] = _c
del _c, _r, _s

#: All 52 cards in sorted order.
FULL_DECK: tuple[Card, ...] = _CARDS


def parse_cards(text: "str | Iterable[str | Card]") -> list[Card]:
    """Parse several cards: ``"2C 3C QS"``, ``"2C,3C"`` or an iterable of strings/cards.

    >>> parse_cards("2c, 10h QS")
    [Card.parse('2C'), Card.parse('TH'), Card.parse('QS')]
    """
    if isinstance(text, str):
        text = text.replace(",", " ").split()
    return [Card.parse(t) for t in text]


def cards_to_mask(cards: Iterable[Card]) -> int:
    """Bitmask of the cards (bit ``card.index``)."""
    m = 0
    for c in cards:
        m |= 1 << c.index
    return m


def mask_to_cards(mask: int) -> tuple[Card, ...]:
    """Sorted tuple of the cards in a bitmask.

    >>> mask_to_cards(cards_to_mask(parse_cards("QS 2C")))
    (Card.parse('2C'), Card.parse('QS'))
    """
    return (
        _CLUB_SEGMENTS[mask & 0x1FFF]
        + _DIAMOND_SEGMENTS[mask >> 13 & 0x1FFF]
        + _SPADE_SEGMENTS[mask >> 26 & 0x1FFF]
        + _HEART_SEGMENTS[mask >> 39 & 0x1FFF]
    )


def _suit_segments(suit: int) -> tuple[tuple[Card, ...], ...]:
    """Every 13-bit segment of one suit -> the tuple of its cards, ascending: all 8192.

    Built by doubling: the segments with rank bit ``r`` set are those below ``1 << r``
    with that card added last.  Indexing a tuple, unlike a dict filled as needed, is
    looked up without hashing, on every legal-card list and every hand drawn.
    """
    table: list[tuple[Card, ...]] = [()]
    for r in range(13):
        card = (_CARDS[13 * suit + r],)
        table += [cards + card for cards in table]
    return tuple(table)


_SEGMENTS: tuple[tuple[tuple[Card, ...], ...], ...] = tuple(_suit_segments(suit) for suit in range(4))
_CLUB_SEGMENTS, _DIAMOND_SEGMENTS, _SPADE_SEGMENTS, _HEART_SEGMENTS = _SEGMENTS


def _card_from_index(index: int) -> "Card":
    return Card.from_index(index)
