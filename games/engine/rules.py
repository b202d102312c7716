"""The rules in force at a table: a frozen dataclass of the house-rule choices.

../shared/rules.md (from the project root) is the reference; the defaults here are its defaults.

>>> r = Rules()
>>> r.players, r.hand_size, r.removed, r.kitty_size
(4, 13, (), 0)
>>> Rules(players=5).removed
(Card.parse('2C'), Card.parse('2D'))
>>> Rules(players=6, odd_cards="kitty").kitty_size
4
>>> Rules.from_dict(Rules(moon="choose").to_dict()) == Rules(moon="choose")
True
>>> Rules(players=7)
Traceback (most recent call last):
...
ValueError: players must be 3, 4, 5 or 6, not 7.
>>> [Rules(players=3).pass_direction(d).value for d in (1, 2, 3, 4)]
['left', 'right', 'hold', 'left']
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass
from typing import Any

from .cards import FULL_DECK, Card, parse_cards
from .kernel import card_points

__all__ = ["Rules", "PassDirection"]


class PassDirection(enum.StrEnum):
    """Which way cards are passed in a deal.  Compares equal to its value (``"left"``...).

    >>> PassDirection.LEFT.target(0, 4), PassDirection.RIGHT.target(0, 4), PassDirection.ACROSS.target(1, 6)
    (1, 3, 4)
    >>> PassDirection.HOLD.target(2, 4) is None
    True
    """

    LEFT = "left"
    RIGHT = "right"
    ACROSS = "across"
    HOLD = "hold"

    def offset(self, players: int) -> int:
        """Seats to the left the cards go: left 1, right players-1, across players//2, hold 0."""
        if self is PassDirection.LEFT:
            return 1
        if self is PassDirection.RIGHT:
            return players - 1
        if self is PassDirection.ACROSS:
            return players // 2
        return 0

    def target(self, seat: int, players: int) -> "int | None":
        """The seat that ``seat`` passes to, or None on a hold deal."""
        if self is PassDirection.HOLD:
            return None
        return (seat + self.offset(players)) % players

    def __repr__(self) -> str:
        return f"PassDirection.{self.name}"


_REMOVED = {3: "2D", 4: "", 5: "2C 2D", 6: "2C 3C 2D 2S"}
_KITTY = {3: 1, 4: 0, 5: 2, 6: 4}

_CHOICES = {
    "passing": ("standard", "left", "none"),
    "odd_cards": ("remove", "kitty"),
    "hearts_lead": ("broken", "queen_breaks", "any"),
    "lead": ("lowest_club", "left_of_dealer"),
    "moon": ("others_26", "subtract_26", "choose", "off"),
    "ties": ("continue", "share"),
}
_BOOLS = ("first_trick_points", "jack_of_diamonds", "black_maria")


@dataclass(frozen=True)
class Rules:
    """The rules of a game.  All fields have the rules.md defaults.

    - ``players``: 3..6.
    - ``target``: the game ends after the deal in which someone reaches it.
    - ``passing``: ``"standard"`` (4/6 players: left, right, across, hold; 3/5: left, right,
      hold), ``"left"`` (always left) or ``"none"``.
    - ``odd_cards``: ``"remove"`` (3p: 2D; 5p: 2C 2D; 6p: 2C 3C 2D 2S) or ``"kitty"``
      (3p 1, 5p 2, 6p 4 face-down cards for the winner of the first trick).
    - ``first_trick_points``: False (default) means *no* hearts or queen of spades on
      the first trick unless a player holds nothing else; True allows them.
    - ``hearts_lead``: ``"broken"`` (a heart must have been played before one is led),
      ``"queen_breaks"`` (the queen of spades breaks them too) or ``"any"``.
    - ``lead``: ``"lowest_club"`` (holder of the lowest club in play leads it) or
      ``"left_of_dealer"`` (old style: the seat after the dealer leads any card).
    - ``moon``: ``"others_26"``, ``"subtract_26"``, ``"choose"`` or ``"off"``.
    - ``jack_of_diamonds``: Omnibus, the JD is -10 to whoever takes it.
    - ``black_maria``: KS 10 and AS 7 points too (a deal is worth 43).
    - ``ties``: tied for lowest at the end: ``"continue"`` dealing, or ``"share"`` the win.
    """

    players: int = 4
    target: int = 100
    passing: str = "standard"
    odd_cards: str = "remove"
    first_trick_points: bool = False
    hearts_lead: str = "broken"
    lead: str = "lowest_club"
    moon: str = "others_26"
    jack_of_diamonds: bool = False
    black_maria: bool = False
    ties: str = "continue"

    def __post_init__(self) -> None:
        p = self.players
        if isinstance(p, bool) or not isinstance(p, int) or not 3 <= p <= 6:
            raise ValueError(f"players must be 3, 4, 5 or 6, not {p!r}.")
        t = self.target
        if isinstance(t, bool) or not isinstance(t, int) or t <= 0:
            raise ValueError(f"target must be a positive whole number of points, not {t!r}.")
        for name, allowed in _CHOICES.items():
            value = getattr(self, name)
            if value not in allowed:
                opts = ", ".join(repr(a) for a in allowed)
                raise ValueError(f"{name} must be one of {opts}, not {value!r}.")
        for name in _BOOLS:
            value = getattr(self, name)
            if not isinstance(value, bool):
                raise ValueError(f"{name} must be True or False, not {value!r}.")

    # -- derived facts -------------------------------------------------------------

    @property
    def removed(self) -> tuple[Card, ...]:
        """Cards taken out of the deck (public), sorted.  Empty with a kitty or 4 players."""
        if self.odd_cards == "kitty":
            return ()
        return tuple(sorted(parse_cards(_REMOVED[self.players])))

    @property
    def kitty_size(self) -> int:
        return _KITTY[self.players] if self.odd_cards == "kitty" else 0

    @property
    def hand_size(self) -> int:
        return 52 // self.players

    @property
    def deck(self) -> tuple[Card, ...]:
        """The cards in play (hands plus kitty), sorted."""
        removed = set(self.removed)
        return tuple(c for c in FULL_DECK if c not in removed)

    @property
    def deal_value(self) -> int:
        """Points in one deal, before the Omnibus jack: 26, or 43 with Black Maria."""
        return sum(p for p in card_points(self.black_maria) if p > 0)

    @property
    def moon_takes(self) -> str:
        """What a player takes to shoot the moon, in words.

        >>> Rules(black_maria=True).moon_takes
        'all hearts, the Q♠, K♠ and A♠'
        """
        return "all hearts, the Q♠, K♠ and A♠" if self.black_maria else "all hearts and the Q♠"

    @property
    def pass_cycle(self) -> tuple[PassDirection, ...]:
        """The directions deal 1, 2, 3, ... pass in, repeating."""
        if self.passing == "none":
            return (PassDirection.HOLD,)
        if self.passing == "left":
            return (PassDirection.LEFT,)
        if self.players in (4, 6):
            return (PassDirection.LEFT, PassDirection.RIGHT, PassDirection.ACROSS, PassDirection.HOLD)
        return (PassDirection.LEFT, PassDirection.RIGHT, PassDirection.HOLD)

    def pass_direction(self, deal_number: int) -> PassDirection:
        """Direction of deal ``deal_number`` (1-based)."""
        cycle = self.pass_cycle
        return cycle[(deal_number - 1) % len(cycle)]

    def card_points(self, card: Card) -> int:
        """Points a card is worth to whoever takes it (before any moon): the kernel's one
        table of card values (:func:`games.engine.kernel.card_points`).

        >>> Rules(black_maria=True).card_points(Card.parse("KS")), Rules().card_points(Card.parse("KS"))
        (10, 0)
        """
        return card_points(self.black_maria, self.jack_of_diamonds)[card.index]

    # -- serialisation and description ---------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable dict of every option."""
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, d: "dict[str, Any] | None") -> "Rules":
        """Inverse of :meth:`to_dict`; missing keys take the defaults, unknown keys are an error."""
        d = dict(d or {})
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(d) - known)
        if unknown:
            raise ValueError(f"Unknown rule option(s): {', '.join(unknown)}.")
        return cls(**d)

    def summary(self) -> str:
        """The rules in one short line, for lists of games: the players, the target and each
        house rule that is not the default.

        >>> Rules().summary()
        '4 players · to 100'
        >>> Rules(players=5, target=50, black_maria=True, moon="choose", odd_cards="kitty").summary()
        '5 players · to 50 · kitty · moon: shooter chooses · Black Maria'
        """
        parts = [f"{self.players} players", f"to {self.target}"]
        default = Rules(players=self.players)
        if self.passing != default.passing:
            parts.append("no passing" if self.passing == "none" else f"passing: {self.passing}")
        if self.odd_cards != default.odd_cards and self.kitty_size:
            parts.append("kitty")
        if self.first_trick_points:
            parts.append("points on the first trick")
        if self.hearts_lead != default.hearts_lead:
            parts.append("hearts led any time" if self.hearts_lead == "any" else "the Q♠ breaks hearts")
        if self.lead != default.lead:
            parts.append(f"lead: {self.lead.replace('_', ' ')}")
        if self.moon != default.moon:
            parts.append({"subtract_26": "moon: shooter subtracts", "choose": "moon: shooter chooses",
                          "off": "no moon"}.get(self.moon, f"moon: {self.moon}"))
        if self.jack_of_diamonds:
            parts.append("Omnibus")
        if self.black_maria:
            parts.append("Black Maria")
        if self.ties != default.ties:
            parts.append(f"ties: {self.ties}")
        return " · ".join(parts)

    def describe(self) -> list[str]:
        """Plain-English lines describing the rules in force, for the table.

        >>> for line in Rules().describe(): print(line)
        4 players, 13 cards each; the game ends when someone reaches 100 points; lowest score wins.
        Passing: 3 cards left, right, across, then a hold deal, repeating.
        The holder of the 2♣ leads it to the first trick.
        No hearts or Q♠ on the first trick unless you hold nothing else.
        Hearts may not be led until a heart has been played (unless you hold only hearts).
        Each heart 1 point, Q♠ 13 points.
        Shooting the moon (all hearts and the Q♠): everyone else scores 26.
        Tied for lowest at the end: play on until one player is lowest.
        """
        n = self.players
        lines = [
            f"{n} players, {self.hand_size} cards each; the game ends when someone reaches "
            f"{self.target} points; lowest score wins."
        ]
        if self.odd_cards == "kitty" and self.kitty_size:
            k = self.kitty_size
            lines.append(
                f"Kitty: {k} card{'s lie' if k > 1 else ' lies'} face down until the winner of the first "
                f"trick takes {'them' if k > 1 else 'it'} (with any points); then {'they are' if k > 1 else 'it is'} "
                "turned face up for everyone."
            )
        elif self.removed:
            lines.append("Taken out of the deck: " + " ".join(c.symbol for c in self.removed) + ".")
        if self.passing == "none":
            lines.append("No passing.")
        elif self.passing == "left":
            lines.append("Passing: 3 cards to the left every deal.")
        else:
            dirs = [d.value for d in self.pass_cycle[:-1]]
            lines.append(f"Passing: 3 cards {', '.join(dirs)}, then a hold deal, repeating.")
        if self.lead == "lowest_club":
            low = self._lowest_club_text()
            lines.append(f"The holder of the {low} leads it to the first trick.")
        else:
            lines.append("The player left of the dealer leads any card to the first trick.")
        if self.first_trick_points:
            lines.append("Point cards may be played on the first trick.")
        else:
            extra = ", K♠, A♠" if self.black_maria else ""
            lines.append(f"No hearts or Q♠{extra} on the first trick unless you hold nothing else.")
        if self.hearts_lead == "broken":
            lines.append("Hearts may not be led until a heart has been played (unless you hold only hearts).")
        elif self.hearts_lead == "queen_breaks":
            lines.append(
                "Hearts may not be led until a heart or the Q♠ has been played (unless you hold only hearts)."
            )
        else:
            lines.append("Hearts may be led at any time.")
        pts = "Each heart 1 point, Q♠ 13 points"
        if self.black_maria:
            pts += ", K♠ 10, A♠ 7 (Black Maria)"
        lines.append(pts + ".")
        if self.jack_of_diamonds:
            lines.append("Omnibus: the J♦ counts −10 to whoever takes it.")
        v = self.deal_value
        what = self.moon_takes
        if self.moon == "others_26":
            lines.append(f"Shooting the moon ({what}): everyone else scores {v}.")
        elif self.moon == "subtract_26":
            lines.append(f"Shooting the moon ({what}): the shooter subtracts {v}.")
        elif self.moon == "choose":
            lines.append(
                f"Shooting the moon ({what}): the shooter chooses to subtract {v} or give everyone else {v}."
            )
        else:
            lines.append("No shooting the moon: every point counts to whoever takes it.")
        if self.ties == "continue":
            lines.append("Tied for lowest at the end: play on until one player is lowest.")
        else:
            lines.append("Tied for lowest at the end: the tied players share the win.")
        return lines

    def _lowest_club_text(self) -> str:
        if self.odd_cards == "kitty":
            return "lowest club not in the kitty (normally the 2♣)"
        removed = set(self.removed)
        for c in FULL_DECK[:13]:
            if c not in removed:
                return c.symbol
        raise AssertionError("no club in play")  # pragma: no cover
