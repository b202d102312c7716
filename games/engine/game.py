"""The game: one :class:`Game` with ``legal``, ``apply``, ``view``; plus the values it hands out.

>>> from games.engine import Game, Rules, Card
>>> g = Game.new(Rules(), seed=7)
>>> g.phase, g.to_act, g.pass_direction
('pass', (0, 1, 2, 3), PassDirection.LEFT)
>>> for seat in range(4):
...     events = g.apply(seat, g.legal(seat)[:3])
>>> [e["type"] for e in events]
['cards_passed', 'passes_done']
>>> g.phase, g.legal(g.to_act[0])
('play', [Card.parse('2C')])
>>> g.apply(g.to_act[0], "2C")[0]
{'type': 'card_played', 'seat': 1, 'card': '2C', 'deal': 1, 'trick': 1}
>>> g.ply
5

Illegal actions raise :class:`IllegalAction` (a ``ValueError``) with a message for the
player, and change nothing:

>>> seat = g.to_act[0]
>>> g.apply((seat + 1) % 4, g.hands[(seat + 1) % 4][0])
Traceback (most recent call last):
...
games.engine.game.IllegalAction: It is not your turn — waiting for seat 2.
"""

from __future__ import annotations

import random
import secrets
import dataclasses
from dataclasses import dataclass
from typing import Any, Iterable, Iterator, Sequence

from . import kernel
from .cards import (
    _BY_TEXT, _CARDS, _CLUB_SEGMENTS, _DIAMOND_SEGMENTS, _HEART_SEGMENTS, _SPADE_SEGMENTS, Card, Suit,
    cards_to_mask, mask_to_cards, parse_cards,
)
from .rules import PassDirection, Rules

__all__ = ["Game", "IllegalAction", "PlayerView", "Trick", "PHASES", "MOON_OPTIONS", "game_winners"]

PHASES = ("pass", "play", "moon_choice", "over")
MOON_OPTIONS = (kernel.MOON_SUBTRACT, kernel.MOON_ADD)
_SUITS = (Suit.CLUBS, Suit.DIAMONDS, Suit.SPADES, Suit.HEARTS)
_NAMES = tuple(str(c) for c in _CARDS)
_BIT = tuple(1 << i for i in range(52))
# bitmask of suits (bit 0 clubs .. bit 3 hearts) -> frozenset of Suit, for view.voids
_SUIT_SETS = tuple(frozenset(_SUITS[i] for i in range(4) if v >> i & 1) for v in range(16))
_FORMAT = "hearts-game/1"


class IllegalAction(ValueError):
    """An action that is not allowed now.  The message says what was wrong and what is allowed."""


@dataclass(frozen=True)
class Trick:
    """A completed (or current) trick: who led, the ``(seat, card)`` plays in order, the winner."""

    leader: int
    plays: tuple[tuple[int, Card], ...]
    winner: "int | None" = None

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(c for _, c in self.plays)

    def to_dict(self) -> dict[str, Any]:
        return {
            "leader": self.leader,
            "plays": [[s, str(c)] for s, c in self.plays],
            "winner": self.winner,
        }


@dataclass(frozen=True)
class PlayerView:
    """Everything one seat may know, and nothing more.  Bots and the web UI get this, never a Game.

    Cards are :class:`Card` values; seats are ints.  See :meth:`Game.view`.
    """

    seat: int
    rules: Rules
    phase: str
    players: int
    dealer: int
    deal_number: int
    pass_direction: PassDirection
    hand: tuple[Card, ...]
    legal: tuple
    to_act: tuple[int, ...]
    passed: "tuple[Card, ...] | None"
    received: "tuple[Card, ...] | None"
    pass_target: "int | None"
    passed_done: tuple[int, ...]
    current_trick: tuple[tuple[int, Card], ...]
    leader: "int | None"
    tricks: tuple[Trick, ...]
    played: frozenset
    hearts_broken: bool
    hand_sizes: tuple[int, ...]
    points_taken: tuple[int, ...]
    kitty_size: int
    kitty: tuple[Card, ...]
    kitty_taker: "int | None"
    removed: tuple[Card, ...]
    voids: tuple[frozenset, ...]
    scores: tuple[int, ...]
    deal_points: tuple[int, ...]
    winners: tuple[int, ...]
    moon_shooter: "int | None"
    is_first_trick: bool
    moon_outcomes: "dict[str, tuple[int, ...]]"

    @property
    def my_turn(self) -> bool:
        return self.seat in self.to_act

    def to_dict(self) -> dict[str, Any]:
        """JSON-serialisable: cards as ``"QS"`` strings, suits as letters."""

        def cs(cards):
            return None if cards is None else [str(c) for c in cards]

        return {
            "seat": self.seat,
            "rules": self.rules.to_dict(),
            "phase": self.phase,
            "players": self.players,
            "dealer": self.dealer,
            "deal_number": self.deal_number,
            "pass_direction": str(self.pass_direction),
            "hand": cs(self.hand),
            "legal": [str(a) for a in self.legal],
            "to_act": list(self.to_act),
            "passed": cs(self.passed),
            "received": cs(self.received),
            "pass_target": self.pass_target,
            "passed_done": list(self.passed_done),
            "current_trick": [[s, str(c)] for s, c in self.current_trick],
            "leader": self.leader,
            "tricks": [t.to_dict() for t in self.tricks],
            "played": [str(c) for c in sorted(self.played)],
            "hearts_broken": self.hearts_broken,
            "hand_sizes": list(self.hand_sizes),
            "points_taken": list(self.points_taken),
            "kitty_size": self.kitty_size,
            "kitty": cs(self.kitty),
            "kitty_taker": self.kitty_taker,
            "removed": cs(self.removed),
            "voids": [sorted((str(s) for s in v), key="CDSH".index) for v in self.voids],
            "scores": list(self.scores),
            "deal_points": list(self.deal_points),
            "winners": list(self.winners),
            "moon_shooter": self.moon_shooter,
            "is_first_trick": self.is_first_trick,
            "moon_outcomes": {choice: list(points) for choice, points in self.moon_outcomes.items()},
        }


def game_winners(rules: Rules, scores: Sequence[int]) -> tuple[int, ...]:
    """The winners if the game ends with these totals after a deal, else ``()``.

    It ends once someone has reached ``rules.target``; the lowest total wins; a tie for
    lowest shares the win (``ties="share"``) or plays on (``ties="continue"``).

    >>> game_winners(Rules(), [75, 101, 87, 88])
    (0,)
    >>> game_winners(Rules(), [75, 99, 87, 88]), game_winners(Rules(), [75, 101, 75, 88])
    ((), ())
    >>> game_winners(Rules(ties="share"), [75, 101, 75, 88])
    (0, 2)
    """
    if max(scores) < rules.target:
        return ()
    low = min(scores)
    tied = tuple(s for s, v in enumerate(scores) if v == low)
    if len(tied) == 1 or rules.ties == "share":
        return tied
    return ()


def _parse_card(action: Any) -> Card:
    if isinstance(action, Card):
        return action
    if isinstance(action, str):
        try:
            return Card.parse(action)
        except ValueError as exc:
            raise IllegalAction(str(exc)) from None
    raise IllegalAction(f"Play one card, e.g. 'QS' — not {action!r:.20}.")


# "QS", "qs", "Q♠", "10S"... -> card index
_TEXT_INDEX = {text: card.index for text, card in _BY_TEXT.items()}


def _card_index(action: Any) -> int:
    """``_parse_card(action).index``, with a fast path for a Card or a plain "QS" string."""
    if type(action) is Card:
        return action.index
    if type(action) is str:
        c = _TEXT_INDEX.get(action, -1)
        if c >= 0:
            return c
    return _parse_card(action).index


def _make_view(fields: dict[str, Any]) -> PlayerView:
    """``PlayerView(**fields)``, without the frozen dataclass's 30 ``object.__setattr__`` calls.

    ``fields`` must hold every field, in the dataclass's order (tests check this).
    """
    view = object.__new__(PlayerView)
    view.__dict__.update(fields)
    return view


def _seat_list(seats: Iterable[int]) -> str:
    seats = list(seats)
    if len(seats) == 1:
        return f"seat {seats[0]}"
    return "seats " + ", ".join(str(s) for s in seats[:-1]) + f" and {seats[-1]}"


class Game:
    """A game of Hearts: deals, passing, play, scoring, to the end.

    Make one with :meth:`Game.new` (or :meth:`Game.from_dict`).  Query it with
    :meth:`legal`, :meth:`why_illegal`, :meth:`view`; change it only with :meth:`apply`.

    Seats are ``0..players-1`` clockwise; play passes to ``seat + 1``.

    ``tricks_taken[seat]`` is the tuple of completed :class:`Trick` values the seat won
    this deal (the kitty is not a trick: see :attr:`kitty` / :attr:`kitty_taker`, and
    :attr:`cards_taken` which includes it).
    """

    __slots__ = (
        "_rules", "_cfg", "_seed", "_setup", "_n", "_deal_number", "_dealer", "_scores",
        "_deal_points", "_winners", "_phase", "_direction",
        "_deal",  # the deal in play (kernel.Deal): hands, trick, turn, legal cards, cards taken
        "_deal_kitty", "_kitty_taker", "_passes", "_received",
        "_tricks",  # completed tricks: (leader, card ints in the order played, winner)
        "_voids",
        "_moon_shooter", "_pending",
        "_log",  # every action applied, as (deal number, seat, action); the ply is its length
        "_trick_values",  # Trick values of the first completed tricks, made as views ask for them
    )

    _rules: Rules
    _cfg: kernel.Config
    _seed: int | str
    _setup: dict[str, Any]
    _n: int
    _deal_number: int
    _dealer: int
    _scores: list[int]
    _deal_points: list[int]
    _winners: tuple[int, ...]
    _phase: str
    _direction: PassDirection
    _deal: kernel.Deal
    _deal_kitty: int
    _kitty_taker: int | None
    _passes: list[int | None]
    _received: list[int] | None
    _tricks: list[tuple[int, list[int], int]]
    _voids: list[int]
    _moon_shooter: int | None
    _pending: int | None
    _log: list[tuple[int, int, Any]]
    _trick_values: list[Trick]

    FORMAT = _FORMAT
    """The ``"format"`` of a saved game: :meth:`to_dict` writes it, :meth:`from_dict` requires it."""

    def __init__(self) -> None:
        raise TypeError("Use Game.new(rules, seed=...) or Game.from_dict(d).")

    # ------------------------------------------------------------------ creation

    @classmethod
    def new(
        cls,
        rules: "Rules | None" = None,
        seed: "int | str | None" = None,
        hands: "Sequence[Iterable[Card | str]] | None" = None,
        kitty: "Iterable[Card | str] | None" = None,
        *,
        dealer: int = 0,
        scores: "Sequence[int] | None" = None,
        deal_number: int = 1,
    ) -> "Game":
        """Start a game.

        - ``seed``: every deal is shuffled by ``random.Random(seed)`` (deal 1) and
          ``random.Random(f"{seed}/{deal_number}")`` (later deals), so seed + action log
          reproduce a game.  ``None`` picks a random seed (kept in :meth:`to_dict`).
        - ``hands`` (one card list per seat) and ``kitty``: an exact first deal, for
          scenario tests.  With ``odd_cards="kitty"`` the kitty defaults to the cards
          not in any hand.
        - ``dealer`` (default 0), ``scores`` (starting totals, default zeros) and
          ``deal_number`` (default 1, which sets the pass direction) for scenarios.

        >>> g = Game.new(Rules(passing="none"), hands=[
        ...     "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC", "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
        ...     "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS", "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"])
        >>> g.phase, g.to_act, g.legal(0)
        ('play', (0,), [Card.parse('2C')])
        """
        rules = rules if rules is not None else Rules()
        if not isinstance(rules, Rules):
            raise ValueError("rules must be a Rules value.")
        n = rules.players
        if seed is None:
            seed = secrets.randbits(63)
        if isinstance(seed, bool) or not isinstance(seed, (int, str)):
            raise ValueError(f"seed must be an int or a str, not {seed!r}.")
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
            raise ValueError(f"dealer must be a seat 0..{n - 1}, not {dealer!r}.")
        if isinstance(deal_number, bool) or not isinstance(deal_number, int) or deal_number < 1:
            raise ValueError(f"deal_number must be 1 or more, not {deal_number!r}.")
        if scores is None:
            scores = [0] * n
        scores = list(scores)
        if len(scores) != n or not all(isinstance(s, int) and not isinstance(s, bool) for s in scores):
            raise ValueError(f"scores must be {n} whole numbers, not {scores!r}.")
        setup: dict[str, Any] = {
            "dealer": dealer,
            "scores": scores,
            "deal_number": deal_number,
            "hands": None,
            "kitty": None,
        }
        hand_masks = kitty_mask = None
        if hands is not None:
            hand_masks, kitty_mask = cls._check_deal(rules, hands, kitty)
            setup["hands"] = [[str(c) for c in mask_to_cards(m)] for m in hand_masks]
            setup["kitty"] = [str(c) for c in mask_to_cards(kitty_mask)]
        elif kitty is not None:
            raise ValueError("kitty= needs hands= too.")
        g = object.__new__(cls)
        g._rules = rules
        g._cfg = kernel.config(rules)
        g._seed = seed
        g._setup = setup
        g._n = n
        g._deal_number = deal_number
        g._dealer = dealer
        g._scores = list(scores)
        g._deal_points = [0] * n
        g._winners = ()
        g._moon_shooter = None
        g._log = []
        g._start_deal(hand_masks, kitty_mask)
        return g

    @staticmethod
    def _check_deal(rules: Rules, hands, kitty) -> tuple[list[int], int]:
        n = rules.players
        hands = list(hands)
        if len(hands) != n:
            raise ValueError(f"hands must give {n} hands, one per seat, not {len(hands)}.")

        seen: dict[Card, int] = {}
        masks = []
        for seat, h in enumerate(hands):
            cards = parse_cards(h)
            if len(cards) != rules.hand_size:
                raise ValueError(f"Seat {seat} must get {rules.hand_size} cards, not {len(cards)}.")
            for c in cards:
                if c in seen:
                    raise ValueError(f"{c} is dealt twice (seats {seen[c]} and {seat}).")
                seen[c] = seat
            masks.append(cards_to_mask(cards))
        removed = set(rules.removed)
        bad = sorted(c for c in seen if c in removed)
        if bad:
            raise ValueError(
                f"{' '.join(map(str, bad))} {'is' if len(bad) == 1 else 'are'} taken out of the deck "
                f"with {n} players."
            )
        dealt = cards_to_mask(seen)
        rest = kernel.config(rules).deck_mask & ~dealt
        if kitty is None:
            kitty_mask = rest
        else:
            kcards = parse_cards(kitty)
            for c in kcards:
                if c in seen:
                    raise ValueError(f"{c} is both in a hand and in the kitty.")
                if c in removed:
                    raise ValueError(f"{c} is taken out of the deck with {n} players.")
            kitty_mask = cards_to_mask(kcards)
            if len(set(kcards)) != len(kcards):
                raise ValueError("The kitty holds a card twice.")
        if kitty_mask.bit_count() != rules.kitty_size or kitty_mask != rest:
            raise ValueError(
                f"The kitty must hold exactly the {rules.kitty_size} card(s) not dealt to a seat."
                if rules.kitty_size
                else "There is no kitty with these rules."
            )
        return masks, kitty_mask

    def _deal_rng(self) -> random.Random:
        if self._deal_number == 1:
            return random.Random(self._seed)
        return random.Random(f"{self._seed}/{self._deal_number}")

    def _start_deal(self, hands: "list[int] | None" = None, kitty: "int | None" = None) -> None:
        n = self._n
        cfg = self._cfg
        if hands is None:
            # Shuffling the card ints gives the same order as shuffling the Cards.
            deck = list(cfg.deck)
            kernel.shuffle(deck, self._deal_rng())
            hs = cfg.hand_size
            bit = _BIT.__getitem__
            hands = [sum(map(bit, deck[s * hs:(s + 1) * hs])) for s in range(n)]
            kitty = sum(map(bit, deck[n * hs:]))
        self._deal = kernel.Deal(cfg, hands, kitty or 0)
        self._deal_kitty = kitty or 0
        self._kitty_taker = None
        cycle = cfg.pass_cycle
        self._direction = cycle[(self._deal_number - 1) % len(cycle)]
        self._passes = [None] * n
        self._received = None
        self._tricks = []
        self._trick_values = []
        self._voids = [0] * n
        self._pending = None
        if self._direction is PassDirection.HOLD:
            self._begin_play()
        else:
            self._phase = "pass"

    def _begin_play(self) -> None:
        self._phase = "play"
        self._deal.begin((self._dealer + 1) % self._n)

    # ------------------------------------------------------------------ queries

    @property
    def rules(self) -> Rules:
        return self._rules

    @property
    def players(self) -> int:
        return self._n

    @property
    def seed(self) -> "int | str":
        """The deal seed.  Secret: whoever knows it knows every hand."""
        return self._seed

    @property
    def phase(self) -> str:
        """``"pass"``, ``"play"``, ``"moon_choice"`` or ``"over"``."""
        return self._phase

    @property
    def to_act(self) -> tuple[int, ...]:
        """Seats that may act now: all still to pass; the one to play; the moon shooter; none."""
        ph = self._phase
        if ph == "play":
            return (self._deal.turn,)
        if ph == "pass":
            return tuple(s for s in range(self._n) if self._passes[s] is None)
        if ph == "moon_choice" and self._pending is not None:
            return (self._pending,)
        return ()

    @property
    def turn(self) -> "int | None":
        """The seat to play in the play phase, else None."""
        return self._deal.turn if self._phase == "play" else None

    @property
    def pass_direction(self) -> PassDirection:
        return self._direction

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """Each seat's cards, sorted.  During passing, cards a seat passed are out of its hand."""
        return tuple(mask_to_cards(m) for m in self._deal.hands)

    def _trick_plays(self) -> list[tuple[int, int]]:
        """The current trick as ``(seat, card int)`` plays."""
        return self._plays(self._deal.leader, self._deal.trick)

    def _plays(self, leader: int, cards: Sequence[int]) -> list[tuple[int, int]]:
        """A trick's cards, in the order played from ``leader``, as ``(seat, card int)`` plays."""
        n = self._n
        return [((leader + i) % n, c) for i, c in enumerate(cards)]

    @property
    def current_trick(self) -> tuple[tuple[int, Card], ...]:
        return tuple((s, _CARDS[c]) for s, c in self._trick_plays())

    @property
    def leader(self) -> "int | None":
        """The seat that led (or is to lead) the current trick; None during passing."""
        leader = self._deal.leader
        return leader if leader >= 0 else None

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """Completed tricks of this deal, in order."""
        made = self._trick_values
        if len(made) < len(self._tricks):
            for leader, cards, w in self._tricks[len(made):]:
                made.append(Trick(leader, tuple([(s, _CARDS[c]) for s, c in self._plays(leader, cards)]), w))
        return tuple(made)

    @property
    def tricks_taken(self) -> tuple[tuple[Trick, ...], ...]:
        """Per seat, the completed :class:`Trick` values it won this deal (kitty not included)."""
        out: list[list[Trick]] = [[] for _ in range(self._n)]
        for t in self.tricks:
            assert t.winner is not None  # a completed trick
            out[t.winner].append(t)
        return tuple(tuple(x) for x in out)

    @property
    def cards_taken(self) -> tuple[tuple[Card, ...], ...]:
        """Per seat, every card it took this deal, the kitty included, sorted."""
        return tuple(mask_to_cards(m) for m in self._deal.taken)

    @property
    def points_taken(self) -> tuple[int, ...]:
        """Per seat, the points it has taken so far this deal (kitty and jack counted, no moon)."""
        cfg = self._cfg
        return tuple(kernel.mask_points(cfg, m) for m in self._deal.taken)

    @property
    def moon_outcomes(self) -> "dict[str, tuple[int, ...]]":
        """While the moon's shooter chooses: the deal's points per seat for each choice (the
        Omnibus jack and Black Maria counted), else ``{}``.

        >>> from games.engine import Card, Rules
        >>> game = Game.new(Rules(moon="choose"), seed=1)
        >>> game.moon_outcomes
        {}
        """
        if self._phase != "moon_choice":
            return {}
        return {choice: tuple(self._deal.score(choice)[0]) for choice in MOON_OPTIONS}

    @property
    def hearts_broken(self) -> bool:
        return self._deal.broken

    @property
    def deal_number(self) -> int:
        return self._deal_number

    @property
    def dealer(self) -> int:
        return self._dealer

    @property
    def scores(self) -> tuple[int, ...]:
        """Running totals per seat."""
        return tuple(self._scores)

    @property
    def deal_points(self) -> tuple[int, ...]:
        """Points of the last completed deal per seat (zeros before the first)."""
        return tuple(self._deal_points)

    @property
    def winners(self) -> tuple[int, ...]:
        """Seats that won, once the game is over; empty before."""
        return self._winners

    @property
    def moon_shooter(self) -> "int | None":
        """Who shot the moon in the last scored deal, or the shooter choosing now; else None."""
        if self._phase == "moon_choice":
            return self._pending
        return self._moon_shooter

    @property
    def kitty(self) -> tuple[Card, ...]:
        """This deal's kitty cards (secret until taken; see :meth:`view`)."""
        return mask_to_cards(self._deal_kitty)

    @property
    def kitty_taker(self) -> "int | None":
        return self._kitty_taker

    @property
    def is_first_trick(self) -> bool:
        return not self._tricks and self._phase in ("pass", "play")

    @property
    def ply(self) -> int:
        """Number of actions applied so far; each :meth:`apply` adds 1."""
        return len(self._log)

    @property
    def is_over(self) -> bool:
        return self._phase == "over"

    # ------------------------------------------------------------------ legality

    def _check_seat(self, seat: Any) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self._n:
            raise IllegalAction(f"There is no seat {seat!r} — seats are 0 to {self._n - 1}.")


    def legal(self, seat: int) -> list:
        """What ``seat`` may do now, sorted.

        Play phase: the cards it may play.  Pass phase: the cards it may pass (its hand;
        empty once it has passed).  Moon choice: ``["subtract", "add"]`` for the shooter.
        Empty for a seat that is not to act.
        """
        ph = self._phase
        if ph == "play":
            if seat != self._deal.turn:
                return []
            m = self._deal.legal  # list(mask_to_cards(m)), written out: this is the hot path
            return [
                *_CLUB_SEGMENTS[m & 0x1FFF], *_DIAMOND_SEGMENTS[m >> 13 & 0x1FFF],
                *_SPADE_SEGMENTS[m >> 26 & 0x1FFF], *_HEART_SEGMENTS[m >> 39 & 0x1FFF],
            ]
        if ph == "pass":
            if not isinstance(seat, int) or not 0 <= seat < self._n or self._passes[seat] is not None:
                return []
            return list(mask_to_cards(self._deal.hands[seat]))
        if ph == "moon_choice" and seat == self._pending:
            return list(MOON_OPTIONS)
        return []

    def _not_turn(self, seat: int) -> str:
        ph = self._phase
        if ph == "over":
            return "The game is over."
        if ph == "play":
            return f"It is not your turn — waiting for seat {self._deal.turn}."
        if ph == "pass":
            waiting = self.to_act
            return f"You have already passed — waiting for {_seat_list(waiting)}."
        return f"It is not your turn — waiting for seat {self._pending} to score the moon."

    def why_illegal(self, seat: int, card: "Card | str") -> "str | None":
        """Why ``seat`` may not play (or pass) ``card`` now, or None if it may.

        >>> g = Game.new(Rules(passing="none"), seed=1)
        >>> s = g.to_act[0]
        >>> g.why_illegal(s, "2C") is None
        True
        >>> s
        2
        >>> g.why_illegal(0, "2C")
        'It is not your turn — waiting for seat 2.'
        """
        try:
            self._check_seat(seat)
            c = _parse_card(card)
        except IllegalAction as exc:
            return str(exc)
        ph = self._phase
        if ph == "pass":
            if self._passes[seat] is not None:
                return self._not_turn(seat)
            if not self._deal.hands[seat] >> c.index & 1:
                return f"You don't hold {c.symbol}."
            return None
        if ph == "moon_choice" and seat == self._pending:
            return 'You shot the moon — choose "subtract" or "add" first.'
        d = self._deal
        if ph != "play" or seat != d.turn:
            return self._not_turn(seat)
        return kernel.why_illegal_play(
            self._cfg, d.hands[seat], c.index, d.trick[0] // 13 if d.trick else -1, d.first_trick,
            d.broken, d.first_lead,
        )

    # ------------------------------------------------------------------ actions

    def apply(self, seat: int, action: Any, *, ply: "int | None" = None) -> list[dict[str, Any]]:
        """Do ``action`` for ``seat`` and return the events it caused.

        ``action`` is a :class:`Card` or card string (play), a list of 3 cards (pass) or
        ``"subtract"``/``"add"`` (moon choice).  Pass ``ply=game.ply`` to reject a stale
        action.  Raises :class:`IllegalAction` and changes nothing if not allowed.

        Events are JSON-serialisable dicts with a ``"type"``: ``cards_passed`` (seat only),
        ``passes_done``, ``card_played``, ``hearts_broken``, ``trick_won``, ``moon_choice``,
        ``deal_scored``, ``deal_started``, ``game_over``.  They carry only public
        information, so they can be broadcast to every seat.
        """
        if ply is not None and ply != len(self._log):
            raise IllegalAction(f"That action is out of date (game is at move {len(self._log)}, not {ply}).")
        d = self._deal
        if self._phase == "play" and seat == d.turn and type(seat) is int:
            # Playing a card: the common case, first.  The seat must be a plain int (not a
            # bool); other seat values are checked below.
            c = action.index if type(action) is Card else _card_index(action)
            if not d.legal >> c & 1:
                raise IllegalAction(self.why_illegal(seat, _CARDS[c]))
            name = _NAMES[c]
            number = self._deal_number
            self._log.append((number, seat, name))
            trick = d.trick
            if trick and c // 13 != trick[0] // 13:
                self._voids[seat] |= 1 << trick[0] // 13
            leader = d.leader
            was_broken = d.broken
            tricks = d.tricks
            winner = d.play(c)
            events: list[dict[str, Any]] = [{
                "type": "card_played", "seat": seat, "card": name, "deal": number, "trick": tricks + 1,
            }]
            if d.broken and not was_broken:
                events.append({"type": "hearts_broken", "seat": seat, "card": name})
            if winner >= 0:
                self._end_trick(leader, trick, winner, events)
            return events
        self._check_seat(seat)
        ph = self._phase
        if ph == "play":
            if seat != self._deal.turn:
                raise IllegalAction(self._not_turn(seat))
            return self.apply(int(seat), action)  # an int subclass, as a plain int
        if ph == "pass":
            return self._pass(seat, action)
        if ph == "moon_choice":
            if seat != self._pending:
                raise IllegalAction(self._not_turn(seat))
            choice = str(action).strip().lower() if isinstance(action, str) else None
            if choice not in MOON_OPTIONS:
                raise IllegalAction(
                    'You shot the moon: choose "subtract" (take 26 off your score) or "add" '
                    "(everyone else scores 26)."
                    if self._cfg.moon_value == 26
                    else f'You shot the moon: choose "subtract" or "add" ({self._cfg.moon_value} points).'
                )
            self._log.append((self._deal_number, seat, choice))
            scored: list[dict[str, Any]] = []
            self._score(choice, scored)
            return scored
        raise IllegalAction("The game is over.")

    def _pass(self, seat: int, action: Any) -> list[dict[str, Any]]:
        if self._passes[seat] is not None:
            raise IllegalAction(self._not_turn(seat))
        if isinstance(action, str):
            action = action.replace(",", " ").split()
        if isinstance(action, Card) or not isinstance(action, (list, tuple, set, frozenset)):
            raise IllegalAction("Pass exactly 3 cards.")
        cards = sorted(map(_card_index, action))
        if len(cards) != 3:
            raise IllegalAction("Pass exactly 3 cards.")
        a, b, c = cards
        if a == b or b == c:
            raise IllegalAction("Pass exactly 3 different cards.")
        hands = self._deal.hands
        hand = hands[seat]
        for x in cards:
            if not hand >> x & 1:
                raise IllegalAction(f"You don't hold {_CARDS[x].symbol}.")
        mask = 1 << a | 1 << b | 1 << c
        self._log.append((self._deal_number, seat, [_NAMES[a], _NAMES[b], _NAMES[c]]))
        self._passes[seat] = mask
        hands[seat] = hand & ~mask
        events: list[dict[str, Any]] = [{"type": "cards_passed", "seat": seat, "deal": self._deal_number}]
        if None not in self._passes:
            n = self._n
            off = self._direction.offset(n)
            received = [0] * n
            for s, passed in enumerate(self._passes):
                received[(s + off) % n] = passed or 0
            for s in range(n):
                hands[s] |= received[s]
            self._received = received
            self._begin_play()
            events.append({
                "type": "passes_done",
                "deal": self._deal_number,
                "direction": str(self._direction),
                "leader": self._deal.leader,
            })
        return events

    def _end_trick(self, leader: int, trick: list, winner: int, events: list) -> None:
        """Record the trick of ``trick``'s cards, led by ``leader``, that ``winner`` took."""
        ntricks = len(self._tricks)
        cfg = self._cfg
        event = {
            "type": "trick_won", "seat": winner, "deal": self._deal_number, "trick": ntricks + 1,
            "cards": list(map(_NAMES.__getitem__, trick)),
        }
        points = sum(map(cfg.points.__getitem__, trick))
        if ntricks == 0 and cfg.kitty_size:
            if self._deal_kitty:
                event["kitty"] = [str(k) for k in mask_to_cards(self._deal_kitty)]
                points += kernel.mask_points(cfg, self._deal_kitty)
            self._kitty_taker = winner
        event["points"] = points
        events.append(event)
        self._tricks.append((leader, trick, winner))  # the deal starts a new list for each trick
        if self._deal.over:
            self._end_deal(events)

    def _end_deal(self, events: list) -> None:
        cfg = self._cfg
        shooter = kernel.moon_shooter(cfg, self._deal.taken)
        if shooter is not None and cfg.moon == kernel.CHOOSE:
            self._phase = "moon_choice"
            self._pending = shooter
            events.append({"type": "moon_choice", "seat": shooter, "deal": self._deal_number,
                           "options": list(MOON_OPTIONS)})
            return
        self._score(None, events)

    def _score(self, choice: "str | None", events: list) -> None:
        pts, shooter = self._deal.score(choice)
        n = self._n
        for s in range(n):
            self._scores[s] += pts[s]
        self._deal_points = pts
        self._moon_shooter = shooter
        self._pending = None
        events.append({
            "type": "deal_scored", "deal": self._deal_number, "points": list(pts),
            "scores": list(self._scores), "moon_shooter": shooter, "moon_choice": choice,
        })
        winners = game_winners(self._rules, self._scores)
        if winners:
            self._phase = "over"
            self._winners = winners
            events.append({"type": "game_over", "winners": list(winners), "scores": list(self._scores)})
            return
        self._deal_number += 1
        self._dealer = (self._dealer + 1) % n
        self._start_deal()
        events.append({
            "type": "deal_started", "deal": self._deal_number, "dealer": self._dealer,
            "pass_direction": str(self._direction),
            "leader": self._deal.leader if self._phase == "play" else None,
        })

    # ------------------------------------------------------------------ views

    def _played_mask(self) -> int:
        """The cards played this deal: those taken in tricks (not the kitty) and the current trick's."""
        return self._deal.played & ~self._deal_kitty

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may know: its own hand, passes and everything public.

        >>> g = Game.new(Rules(), seed=3)
        >>> v = g.view(0)
        >>> len(v.hand), v.hand_sizes, v.received, v.legal == tuple(v.hand)
        (13, (13, 13, 13, 13), None, True)
        """
        self._check_seat(seat)
        n = self._n
        passes = self._passes
        mine = passes[seat]
        direction = self._direction
        # The fields in PlayerView's order (see _make_view).
        return _make_view({
            "seat": seat,
            "rules": self._rules,
            "phase": self._phase,
            "players": n,
            "dealer": self._dealer,
            "deal_number": self._deal_number,
            "pass_direction": direction,
            "hand": mask_to_cards(self._deal.hands[seat]),
            "legal": tuple(self.legal(seat)),
            "to_act": self.to_act,
            "passed": None if mine is None else mask_to_cards(mine),
            "received": None if self._received is None else mask_to_cards(self._received[seat]),
            "pass_target": None if direction is PassDirection.HOLD else direction.target(seat, n),
            "passed_done": tuple([s for s in range(n) if passes[s] is not None]),
            "current_trick": self.current_trick,
            "leader": self.leader,
            "tricks": self.tricks,
            "played": frozenset(mask_to_cards(self._played_mask())),
            "hearts_broken": self._deal.broken,
            "hand_sizes": tuple(map(int.bit_count, self._deal.hands)),
            "points_taken": self.points_taken,
            "kitty_size": self._cfg.kitty_size,
            "kitty": mask_to_cards(self._deal_kitty) if self._kitty_taker is not None else (),
            "kitty_taker": self._kitty_taker,
            "removed": self._cfg.removed_cards,
            "voids": tuple(map(_SUIT_SETS.__getitem__, self._voids)),
            "scores": tuple(self._scores),
            "deal_points": tuple(self._deal_points),
            "winners": self._winners,
            "moon_shooter": self.moon_shooter,
            "is_first_trick": self.is_first_trick,
            "moon_outcomes": self.moon_outcomes,
        })

    def public_view(self, seat: int) -> PlayerView:
        """What anyone watching the game may know, seen from ``seat``'s place at the table: the
        view of that seat without its hand, its legal moves and its passes.

        >>> g = Game.new(Rules(), seed=3)
        >>> v = g.public_view(0)
        >>> v.hand, v.legal, v.passed, v.received, v.hand_sizes
        ((), (), None, None, (13, 13, 13, 13))
        """
        return dataclasses.replace(self.view(seat), hand=(), legal=(), passed=None, received=None)

    def forced_to_end_of_deal(self) -> bool:
        """Whether every card left in this deal has just one way to be played: each seat to
        act, in turn to the deal's end, holds exactly one legal card (so the rest of the deal
        can be played at once). True at a deal's last trick; never while passing.

        >>> g = Game.new(Rules(passing="none"), seed=1)
        >>> g.forced_to_end_of_deal()
        False
        >>> while max(map(len, g.hands)) > 1:
        ...     _ = g.apply(g.turn, g.legal(g.turn)[0])
        >>> g.forced_to_end_of_deal()
        True
        """
        if self._phase != "play" or len(self.legal(self.to_act[0])) != 1:
            return False  # the usual case, known without a copy
        game, deal = self.copy(), self._deal_number
        while game._phase == "play" and game._deal_number == deal:
            seat = game.to_act[0]
            legal = game.legal(seat)
            if len(legal) != 1:
                return False
            game.apply(seat, legal[0])
        return True

    # ------------------------------------------------------------------ copying, saving, replay

    def copy(self) -> "Game":
        """An independent copy (fast: no replay)."""
        g = object.__new__(Game)
        g._rules = self._rules
        g._cfg = self._cfg
        g._seed = self._seed
        g._setup = self._setup
        g._n = self._n
        g._deal_number = self._deal_number
        g._dealer = self._dealer
        g._scores = list(self._scores)
        g._deal_points = list(self._deal_points)
        g._winners = self._winners
        g._phase = self._phase
        g._direction = self._direction
        g._deal = self._deal.copy()
        g._deal_kitty = self._deal_kitty
        g._kitty_taker = self._kitty_taker
        g._passes = list(self._passes)
        g._received = None if self._received is None else list(self._received)
        g._tricks = list(self._tricks)
        g._trick_values = list(self._trick_values)
        g._voids = list(self._voids)
        g._moon_shooter = self._moon_shooter
        g._pending = self._pending
        g._log = list(self._log)
        return g

    __copy__ = copy

    def __deepcopy__(self, memo) -> "Game":
        return self.copy()

    def log(self, start: int = 0) -> list[dict[str, Any]]:
        """The actions applied so far: ``[{"deal": 1, "seat": 0, "action": "2C"}, ...]``;
        with ``start``, only those after the first ``start`` (``log(g.ply - 1)`` is the last).

        >>> g = Game.new(Rules(passing="none"), seed=1)
        >>> _ = g.apply(g.turn, "2C")
        >>> g.log(g.ply - 1)
        [{'deal': 1, 'seat': 2, 'action': '2C'}]
        """
        return [
            {"deal": d, "seat": s, "action": list(a) if isinstance(a, list) else a}
            for d, s, a in self._log[start:]
        ]

    def _state(self) -> dict[str, Any]:
        def cs(m):
            return [str(c) for c in mask_to_cards(m)]

        return {
            "phase": self._phase,
            "deal_number": self._deal_number,
            "dealer": self._dealer,
            "pass_direction": str(self._direction),
            "scores": list(self._scores),
            "deal_points": list(self._deal_points),
            "winners": list(self._winners),
            "to_act": list(self.to_act),
            "hands": [cs(m) for m in self._deal.hands],
            "current_trick": [[s, _NAMES[c]] for s, c in self._trick_plays()],
            "tricks": [[leader, [[s, _NAMES[c]] for s, c in self._plays(leader, cards)], w]
                       for leader, cards, w in self._tricks],
            "hearts_broken": self._deal.broken,
            "kitty": cs(self._deal_kitty),
            "kitty_taker": self._kitty_taker,
            "moon_shooter": self.moon_shooter,
        }

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable dict: rules, seed, setup, the full action log and a state summary.

        :meth:`from_dict` rebuilds the game by replaying the log, so the dict round-trips
        exactly.  It holds every hand and the seed: keep it on the server.

        >>> import json
        >>> g = Game.new(Rules(), seed=5)
        >>> _ = g.apply(0, g.legal(0)[:3])
        >>> d = json.loads(json.dumps(g.to_dict()))
        >>> Game.from_dict(d).to_dict() == g.to_dict()
        True
        """
        return {
            "format": _FORMAT,
            "rules": self._rules.to_dict(),
            "seed": self._seed,
            "setup": {
                "dealer": self._setup["dealer"],
                "scores": list(self._setup["scores"]),
                "deal_number": self._setup["deal_number"],
                "hands": None if self._setup["hands"] is None else [list(h) for h in self._setup["hands"]],
                "kitty": None if self._setup["kitty"] is None else list(self._setup["kitty"]),
            },
            "ply": len(self._log),
            "log": self.log(),
            "state": self._state(),
        }

    @classmethod
    def _initial(cls, d: dict[str, Any]) -> "Game":
        if not isinstance(d, dict) or d.get("format") != _FORMAT:
            raise ValueError(f"Not a saved game (expected format {_FORMAT!r}).")
        setup = d["setup"]
        return cls.new(
            Rules.from_dict(d["rules"]), seed=d["seed"], hands=setup.get("hands"), kitty=setup.get("kitty"),
            dealer=setup["dealer"], scores=setup["scores"], deal_number=setup["deal_number"],
        )

    @staticmethod
    def _apply_entry(g: "Game", i: int, entry: dict[str, Any]) -> None:
        if entry.get("deal") != g._deal_number:
            raise ValueError(f"Log entry {i} is for deal {entry.get('deal')}, but the game is on deal {g._deal_number}.")
        try:
            g.apply(entry["seat"], entry["action"])
        except IllegalAction as exc:
            raise ValueError(f"Log entry {i} ({entry!r}) is illegal: {exc}") from None

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Game":
        """Rebuild a game saved with :meth:`to_dict` (replays and checks the log)."""
        g = cls._initial(d)
        apply = g.apply
        for i, entry in enumerate(d.get("log", ())):
            # _apply_entry, written out (the web layer rebuilds the game on every request)
            if entry.get("deal") != g._deal_number:
                cls._apply_entry(g, i, entry)  # raises the error
            try:
                apply(entry["seat"], entry["action"])
            except IllegalAction as exc:
                raise ValueError(f"Log entry {i} ({entry!r}) is illegal: {exc}") from None
        state = d.get("state")
        if state is not None and state != g._state():
            raise ValueError("The saved state does not match its action log.")
        if d.get("ply", g.ply) != g.ply:
            raise ValueError("The saved ply does not match its action log.")
        return g

    @classmethod
    def replay(cls, d: dict[str, Any]) -> Iterator["Game"]:
        """Yield the game before any action, then after each logged action (independent copies).

        >>> g = Game.new(Rules(passing="none"), seed=2)
        >>> _ = g.apply(g.to_act[0], "2C")
        >>> [s.ply for s in Game.replay(g.to_dict())]
        [0, 1]
        """
        g = cls._initial(d)
        yield g.copy()
        for i, entry in enumerate(d.get("log", ())):
            cls._apply_entry(g, i, entry)
            yield g.copy()

    def history(self) -> Iterator["Game"]:
        """Successive states of this game from its start (see :meth:`replay`)."""
        return Game.replay(self.to_dict())

    def __repr__(self) -> str:
        return (
            f"<Game {self._n}p deal {self._deal_number} {self._phase} to_act={self.to_act} "
            f"scores={list(self._scores)} ply={len(self._log)}>"
        )
