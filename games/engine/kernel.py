"""The rules kernel: one deal as bitmasks, the only place where a card is played.

Cards are ints 0..51 — card ``i`` is suit ``i // 13`` (0 clubs, 1 diamonds, 2 spades,
3 hearts) and rank ``i % 13 + 2``, the same number as ``Card.index`` — and a set of cards is
an int with bit ``i`` set for each card in it.

- :class:`Config`: the rules compiled to ints and masks, with the card values in one table
  (:attr:`Config.points`); get one with :func:`config`.
- :func:`legal_mask` and :func:`why_illegal_play`: what may be played, and why not.
- :class:`Deal`: hands, the trick, leader, hearts broken, first trick, kitty and the cards
  each seat took, with :meth:`Deal.play` (→ the trick's winner when it completes) and
  :meth:`Deal.score`.  :class:`games.engine.Game` wraps one; the bots' searches copy one
  and play it out.
- :func:`random_playout`: the deal played out with uniformly random legal cards, for
  Monte Carlo search — the one speed trick, proven equal to :meth:`Deal.play` in a loop.

>>> from games.engine import Rules
>>> cfg = config(Rules())
>>> hand = mask_of("AS QS 7S 3S KD JD 8D 4D AH TH 9H 6H 2H")
>>> cards_of(legal_mask(cfg, hand, led=CLUB, first_trick=True, broken=False))
'4D 8D JD KD 3S 7S AS'

A deal from a shuffled deck, played to its end with random cards:

>>> import random
>>> d = Deal(cfg, deal(cfg, random.Random(1)))
>>> d.begin(leader=1)
>>> d.turn, cards_of(d.legal)          # the holder of the 2♣ leads it
(2, '2C')
>>> d.play(lowest(d.legal)), d.turn           # no trick completed yet: -1; the next seat plays
(-1, 3)
>>> random_playout(d, random.Random(2))
>>> d.over, sum(d.score()[0]) in (26, 78)
(True, True)
"""

from __future__ import annotations

import random as _random
from functools import lru_cache
from typing import Iterable, Sequence

from .cards import Card, parse_cards

__all__ = [
    "CLUB", "DIAMOND", "SPADE", "HEART", "SUIT_MASKS", "HEARTS", "QS", "KS", "AS", "JD",
    "OTHERS", "SUBTRACT", "CHOOSE", "OFF", "MOON_SUBTRACT", "MOON_ADD",
    "Config", "config", "legal_mask", "why_illegal_play", "mask_points", "moon_shooter",
    "deal_points", "first_lead_card", "Deal", "deal", "random_playout", "random_deal_points",
    "mask_of", "cards_of", "iter_bits", "pick_random", "name", "shuffle", "lowest", "highest", "card_points",
]

CLUB, DIAMOND, SPADE, HEART = 0, 1, 2, 3
_SUIT13 = 0x1FFF
SUIT_MASKS = (_SUIT13, _SUIT13 << 13, _SUIT13 << 26, _SUIT13 << 39)
HEARTS = SUIT_MASKS[HEART]
JD = 13 + 9
QS = 26 + 10
KS = 26 + 11
AS = 26 + 12
FULL = (1 << 52) - 1
_SUIT_WORDS = ("clubs", "diamonds", "spades", "hearts")
_RANKS = "23456789TJQKA"
_SUITS = "CDSH"

#: card index -> suit, for speed
SUIT_OF = tuple(i // 13 for i in range(52))

# moon modes
OTHERS, SUBTRACT, CHOOSE, OFF = 0, 1, 2, 3
_MOON = {"others_26": OTHERS, "subtract_26": SUBTRACT, "choose": CHOOSE, "off": OFF}
#: a shooter's two choices where the rules let them choose (``moon="choose"``): take the moon's
#: value off their own score, or add it to everyone else's
MOON_SUBTRACT, MOON_ADD = "subtract", "add"


def lowest(mask: int) -> int:
    """The lowest card in a non-empty mask: ``name(lowest(mask_of("QS 2C"))) == "2C"``."""
    return (mask & -mask).bit_length() - 1


def highest(mask: int) -> int:
    """The highest card in a non-empty mask: ``name(highest(mask_of("QS 2C"))) == "QS"``."""
    return mask.bit_length() - 1


def name(card: int) -> str:
    """``name(36) == "QS"``."""
    return _RANKS[card % 13] + _SUITS[card // 13]


def mask_of(text: "str | Iterable[str]") -> int:
    """Bitmask of cards written as text: ``mask_of("2C QS")``."""
    m = 0
    for c in parse_cards(text):
        m |= 1 << c.index
    return m


def iter_bits(mask: int):
    """Yield the card ints in a mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def cards_of(mask: int) -> str:
    """Text of the cards in a mask, sorted: ``cards_of(mask_of("QS 2C")) == "2C QS"``."""
    return " ".join(name(c) for c in iter_bits(mask))


@lru_cache(maxsize=None)
def card_points(black_maria: bool = False, jack_of_diamonds: bool = False) -> tuple[int, ...]:
    """What each card counts, by card int: the one table of card values.

    Hearts 1, the Q♠ 13; with Black Maria the K♠ 10 and the A♠ 7; with the Omnibus jack
    the J♦ −10.

    >>> pts = card_points(black_maria=True)
    >>> pts[QS], pts[KS], pts[AS], sum(pts)
    (13, 10, 7, 43)
    """
    pts = [0] * 52
    for i in range(39, 52):
        pts[i] = 1
    pts[QS] = 13
    if black_maria:
        pts[KS] = 10
        pts[AS] = 7
    if jack_of_diamonds:
        pts[JD] = -10
    return tuple(pts)


class Config:
    """The rules compiled to ints and masks for the hot loops.  Get one with :func:`config`."""

    __slots__ = (
        "rules", "players", "hand_size", "deck_mask", "removed_mask", "kitty_size",
        "no_first_points", "first_points_mask", "hearts_any", "breaks_mask", "lowest_club",
        "moon", "moon_mask", "moon_value", "black_maria", "jd", "points", "point_cards", "values",
        "tricks_per_deal", "deck_cards", "deck", "pass_cycle", "removed_cards",
    )

    def __init__(self, rules) -> None:
        self.rules = rules
        self.players = rules.players
        self.hand_size = rules.hand_size
        removed = 0
        for c in rules.removed:
            removed |= 1 << c.index
        self.removed_mask = removed
        #: the Card values taken out of the deck (rules.removed)
        self.removed_cards = rules.removed
        self.deck_mask = FULL & ~removed
        self.kitty_size = rules.kitty_size
        self.no_first_points = not rules.first_trick_points
        self.black_maria = rules.black_maria
        self.jd = rules.jack_of_diamonds
        #: points per card int (see :func:`card_points`)
        self.points = card_points(rules.black_maria, rules.jack_of_diamonds)
        #: the cards that count, as a mask
        self.point_cards = sum(1 << c for c in range(52) if self.points[c])
        #: the same table grouped as ``(mask of the cards worth v, v)``, for counting a mask's points
        self.values = tuple(
            (sum(1 << c for c in range(52) if self.points[c] == v), v)
            for v in sorted(set(self.points) - {0})
        )
        #: the penalty cards: what a player must take to shoot the moon, and what the
        #: "no points on the first trick" rule keeps off the first trick
        penalty = sum(1 << c for c in range(52) if self.points[c] > 0)
        self.first_points_mask = penalty
        self.moon_mask = penalty
        #: what a deal is worth (the penalty cards' points), what the moon moves
        self.moon_value = sum(p for p in self.points if p > 0)
        self.hearts_any = rules.hearts_lead == "any"
        self.breaks_mask = HEARTS | ((1 << QS) if rules.hearts_lead == "queen_breaks" else 0)
        self.lowest_club = rules.lead == "lowest_club"
        self.moon = _MOON[rules.moon]
        self.tricks_per_deal = rules.hand_size
        #: the Card values in play, sorted (what a deal shuffles)
        self.deck_cards = rules.deck
        #: the same cards as ints
        self.deck = tuple(c.index for c in self.deck_cards)
        #: pass directions of deals 1, 2, 3, ..., repeating
        self.pass_cycle = rules.pass_cycle


@lru_cache(maxsize=256)
def config(rules) -> Config:
    """The (cached) :class:`Config` of a :class:`~games.engine.Rules`."""
    return Config(rules)


# ---------------------------------------------------------------------------------
# The play rules
# ---------------------------------------------------------------------------------


def first_lead_card(cfg: Config, hands: Sequence[int]) -> int:
    """The card that must lead the first trick, or -1 (old-style lead: any card).

    The lowest club in the hands (so never a removed card or one in the kitty).
    """
    if not cfg.lowest_club:
        return -1
    allc = 0
    for h in hands:
        allc |= h
    clubs = allc & _SUIT13
    return (clubs & -clubs).bit_length() - 1


def legal_mask(cfg: Config, hand: int, led: int, first_trick: bool, broken: bool, first_lead: int = -1) -> int:
    """The cards of ``hand`` that may be played.

    ``led`` is the suit led to the current trick, or -1 when leading.
    ``first_lead`` is the card that must lead the first trick (see :func:`first_lead_card`).

    Rules, in this order:

    1. Leading the first trick with ``lead="lowest_club"``: only that club.
    2. Following: the cards of the suit led, if any.
    3. On the first trick with the no-points rule: drop the point cards (hearts, QS, and
       KS/AS under Black Maria) if that leaves something; if only point cards remain,
       hearts rather than the spades.  When leading the first trick (old-style lead) this
       rule replaces the breaking-hearts rule, so a hand of only hearts and the queen leads
       a heart.
    4. Leading a later trick (or the first, points allowed): no heart before hearts are
       broken (unless ``hearts_lead="any"``) unless the hand holds only hearts.
    """
    if led >= 0:
        m = hand & SUIT_MASKS[led]
        if not m:
            m = hand
    else:
        if first_trick:
            if first_lead >= 0:
                return hand & (1 << first_lead)
            if not cfg.no_first_points:
                if broken or cfg.hearts_any:
                    return hand
                return (hand & ~HEARTS) or hand
            m = hand
        else:
            if broken or cfg.hearts_any:
                return hand
            return (hand & ~HEARTS) or hand
    if first_trick and cfg.no_first_points:
        safe = m & ~cfg.first_points_mask
        if safe:
            return safe
        return (m & HEARTS) or m
    return m


def why_illegal_play(
    cfg: Config, hand: int, card: int, led: int, first_trick: bool, broken: bool, first_lead: int = -1
) -> "str | None":
    """Why ``card`` may not be played (a message for the player), or None if it may."""
    bit = 1 << card
    if not hand & bit:
        return f"You don't hold {Card.from_index(card).symbol}."
    legal = legal_mask(cfg, hand, led, first_trick, broken, first_lead)
    if legal & bit:
        return None
    if led < 0 and first_trick and first_lead >= 0:
        return f"The first trick must be led with the {Card.from_index(first_lead).symbol}."
    if led >= 0 and hand & SUIT_MASKS[led] and card // 13 != led:
        return f"You must follow {_SUIT_WORDS[led]}."
    if first_trick and cfg.no_first_points:
        if legal & ~HEARTS:
            return "No points on the first trick."
        return "No points on the first trick — with only point cards left, play a heart, not the " + (
            "queen of spades." if card == QS else f"{Card.from_index(card).symbol}."
        )
    return "Hearts are not broken yet — lead another suit."


def mask_points(cfg: Config, mask: int) -> int:
    """Points in a set of cards, from the card value table (:attr:`Config.points`, grouped
    by value in :attr:`Config.values`)."""
    p = 0
    for cards, value in cfg.values:
        p += (mask & cards).bit_count() * value
    return p


def moon_shooter(cfg: Config, taken: Sequence[int]) -> "int | None":
    """The seat that took every penalty card (hearts and the queen; K♠, A♠ under Black Maria), or None."""
    mm = cfg.moon_mask
    for seat, m in enumerate(taken):
        if m & mm == mm:
            return seat
    return None


def deal_points(cfg: Config, taken: Sequence[int], choice: "str | None" = None) -> tuple[list[int], "int | None"]:
    """Score a finished deal from the cards each seat took (kitty included).

    Returns ``(points per seat, moon shooter or None)``.  With ``moon="choose"`` pass
    ``choice="subtract"`` or ``"add"`` (default ``"add"``).  With ``moon="off"`` nobody is
    reported as shooter.  The Omnibus jack always counts for whoever took it.

    >>> from games.engine import Rules
    >>> cfg = config(Rules(jack_of_diamonds=True))
    >>> deal_points(cfg, [HEARTS | 1 << QS, 1 << JD, 0, 0])
    ([0, 16, 26, 26], 0)
    """
    pts = [mask_points(cfg, m) for m in taken]
    shooter = moon_shooter(cfg, taken)
    if shooter is None or cfg.moon == OFF:
        return pts, None
    mode = cfg.moon
    if mode == CHOOSE:
        mode = SUBTRACT if choice == MOON_SUBTRACT else OTHERS
    v = cfg.moon_value
    moon_mask = cfg.moon_mask
    out = []
    for seat, m in enumerate(taken):
        p = mask_points(cfg, m & ~moon_mask)  # what counts besides the moon: the Omnibus jack
        if seat == shooter:
            if mode == SUBTRACT:
                p -= v
        elif mode == OTHERS:
            p += v
        out.append(p)
    return out, shooter


# ---------------------------------------------------------------------------------
# A deal in play
# ---------------------------------------------------------------------------------


class Deal:
    """One deal as bitmasks; :meth:`play` is the only place a card is played.

    Fields (read them; change them only through :meth:`begin` and :meth:`play`):
    ``hands`` (per seat), ``kitty`` (until the first trick's winner takes it), ``taken``
    (per seat, the kitty included once taken), ``played`` (every card out of the hands:
    taken or in the current trick), ``trick`` (card ints in order, led by ``leader``),
    ``turn`` (the seat to play; -1 before :meth:`begin` and once the deal is over),
    ``legal`` (the mask ``turn`` may play), ``broken``, ``first_trick``, ``first_lead``
    (the card that must lead the first trick, or -1), ``winning`` (the seat winning the
    current trick so far) and ``best`` (its card), ``tricks`` (completed).

    >>> from games.engine import Rules
    >>> cfg = config(Rules(passing="none"))
    >>> d = Deal(cfg, [mask_of("2C 3H"), mask_of("AC 4H"), mask_of("KC 5H"), mask_of("QC 6H")])
    >>> d.begin(leader=1)
    >>> [d.play(lowest(d.legal)) for _ in range(4)], d.winning, d.tricks
    ([-1, -1, -1, 1], 1, 1)
    """

    __slots__ = (
        "cfg", "hands", "kitty", "taken", "played", "trick", "leader", "turn", "legal",
        "broken", "first_trick", "first_lead", "winning", "best", "tricks",
    )

    def __init__(self, cfg: Config, hands: Sequence[int], kitty: int = 0) -> None:
        """A dealt hand before the play (passes may still change ``hands``)."""
        self.cfg = cfg
        self.hands = list(hands)
        self.kitty = kitty
        self.taken = [0] * cfg.players
        self.played = 0
        self.trick: list[int] = []
        self.leader = self.turn = self.winning = self.best = -1
        self.legal = 0
        self.broken = False
        self.first_trick = True
        self.first_lead = -1
        self.tricks = 0

    def begin(self, leader: int) -> None:
        """Start the play: the holder of the lowest club leads it (``lead="lowest_club"``),
        else ``leader``."""
        cfg = self.cfg
        hands = self.hands
        fl = first_lead_card(cfg, hands)
        if fl >= 0:
            leader = 0
            while not hands[leader] >> fl & 1:
                leader += 1
        self.first_lead = fl
        self.leader = self.turn = leader
        self.legal = legal_mask(cfg, hands[leader], -1, True, self.broken, fl)

    @classmethod
    def at(cls, cfg: Config, hands: Sequence[int], taken: Sequence[int], trick: Sequence[int],
           leader: int, broken: bool, kitty: int = 0) -> "Deal":
        """A deal in the middle of play: ``hands`` now, ``taken`` (the kitty with the first
        trick), the current ``trick``'s cards led by ``leader``, hearts ``broken`` before it.

        The trick is played again through :meth:`play`, so ``winning`` and ``legal`` come
        out as in the game.  A hand may be 0 when it is unknown and not to play.
        """
        d = cls(cfg, hands, kitty)
        d.taken = list(taken)
        played = 0
        for m in taken:
            played |= m
        d.played = played
        # the kitty goes with the first trick
        d.tricks = (played.bit_count() - cfg.kitty_size) // cfg.players if played else 0
        d.first_trick = not played
        d.broken = broken
        d.leader = d.turn = leader
        n = cfg.players
        for i, c in enumerate(trick):
            d.hands[(leader + i) % n] |= 1 << c
        if d.first_trick:
            d.first_lead = first_lead_card(cfg, d.hands) if not trick else -1
        d.legal = legal_mask(cfg, d.hands[leader], -1, d.first_trick, broken, d.first_lead)
        for c in trick:
            d.play(c)
        return d

    def filled(self, hands: Sequence[int], kitty: int = 0) -> "Deal":
        """A copy with every hand, and the kitty not yet taken, filled in: one world a search
        deals for the cards it cannot see.  The seat to play keeps its own hand.

        >>> from games.engine import Rules
        >>> cfg = config(Rules(passing="none"))
        >>> d = Deal.at(cfg, [mask_of("2C 3H"), 0, 0, 0], [0] * 4, [], leader=0, broken=False)
        >>> w = d.filled([mask_of("2C 3H"), mask_of("AC 4H"), mask_of("KC 5H"), mask_of("QC 6H")])
        >>> [w.play(lowest(w.legal)) for _ in range(4)], d.hands[1]
        ([-1, -1, -1, 1], 0)
        """
        d = self.copy()
        d.hands = list(hands)
        d.kitty = kitty
        return d

    def copy(self) -> "Deal":
        d = Deal(self.cfg, self.hands, self.kitty)
        d.taken = list(self.taken)
        d.played = self.played
        d.trick = list(self.trick)
        d.leader = self.leader
        d.turn = self.turn
        d.legal = self.legal
        d.broken = self.broken
        d.first_trick = self.first_trick
        d.first_lead = self.first_lead
        d.winning = self.winning
        d.best = self.best
        d.tricks = self.tricks
        return d

    @property
    def over(self) -> bool:
        """Every trick has been played."""
        return self.tricks == self.cfg.tricks_per_deal

    def play(self, card: int) -> int:
        """Play ``card`` for the seat to play (``turn``); it must be in ``legal``.

        Returns the winner's seat when this card completes the trick (the winner takes it,
        and the kitty with the first trick, and leads next), else -1.
        """
        cfg = self.cfg
        bit = 1 << card
        seat = self.turn
        hands = self.hands
        hands[seat] ^= bit
        self.played |= bit
        if bit & cfg.breaks_mask:
            self.broken = True
        trick = self.trick
        if trick:
            led = trick[0] // 13
            if card > self.best and card // 13 == led:
                self.best = card
                self.winning = seat
        else:
            led = card // 13
            self.best = card
            self.winning = seat
        trick.append(card)
        n = cfg.players
        if len(trick) < n:
            nxt = self.turn = seat + 1 if seat + 1 < n else 0
            self.legal = legal_mask(cfg, hands[nxt], led, self.first_trick, self.broken)
            return -1
        winner = self.winning
        m = 0
        for c in trick:
            m |= 1 << c
        if self.first_trick:
            m |= self.kitty
            self.played |= self.kitty
            self.kitty = 0
            self.first_trick = False
            self.first_lead = -1
        self.taken[winner] |= m
        self.trick = []
        self.tricks += 1
        self.leader = winner
        if self.tricks == cfg.tricks_per_deal:
            self.turn = -1
            self.legal = 0
        else:
            self.turn = winner
            self.legal = legal_mask(cfg, hands[winner], -1, False, self.broken)
        return winner

    def score(self, choice: "str | None" = None) -> tuple[list[int], "int | None"]:
        """The points per seat and the moon shooter (see :func:`deal_points`)."""
        return deal_points(self.cfg, self.taken, choice)


# ---------------------------------------------------------------------------------
# Dealing and random playouts
# ---------------------------------------------------------------------------------


_BITS_BELOW = tuple((i + 1).bit_length() for i in range(64))


def shuffle(x: list, rng: _random.Random) -> None:
    """``rng.shuffle(x)``: the same permutation from the same generator, written out with
    ``getrandbits`` (no method call per card) where this Python's shuffle draws that way
    (checked at import)."""
    if _SHUFFLE_BY_BITS:
        _shuffle_by_bits(x, rng)
    else:  # pragma: no cover - a Python with another shuffle
        rng.shuffle(x)


def _shuffle_by_bits(x: list, rng: _random.Random) -> None:
    getrandbits = rng.getrandbits
    for i in range(len(x) - 1, 0, -1):
        k = _BITS_BELOW[i]
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


def _shuffle_matches_random() -> bool:
    for seed in (0, 1, "x/2", 2**70):
        a, b = list(range(52)), list(range(52))
        _random.Random(seed).shuffle(a)
        _shuffle_by_bits(b, _random.Random(seed))
        if a != b:
            return False
    return True


_SHUFFLE_BY_BITS = _shuffle_matches_random()


def deal(cfg: Config, rng=_random) -> list[int]:
    """Random hands (bitmasks) for every seat; a kitty, if any, is what is left of the deck
    (``cfg.deck_mask`` minus the hands)."""
    deck = list(cfg.deck)
    shuffle(deck, rng)
    hs = cfg.hand_size
    hands = []
    for s in range(cfg.players):
        m = 0
        for c in deck[s * hs:(s + 1) * hs]:
            m |= 1 << c
        hands.append(m)
    return hands


def pick_random(mask: int, rnd) -> int:
    """A uniformly random card from a non-empty mask; ``rnd`` is a ``random()`` function."""
    k = int(rnd() * mask.bit_count())
    while k:
        mask &= mask - 1
        k -= 1
    return (mask & -mask).bit_length() - 1


def plain_random_playout(d: Deal, rng) -> None:
    """:func:`random_playout` written plainly: :meth:`Deal.play` of a random legal card
    until the deal is over.  The reference the speed trick is tested against."""
    rnd = rng.random
    while d.turn >= 0:
        d.play(pick_random(d.legal, rnd))


# Cards of a 13-bit suit segment: _SEG[bits] = tuple of rank offsets 0..12
_SEG = tuple(tuple(r for r in range(13) if b >> r & 1) for b in range(1 << 13))
# _ORDERS[n][leader] = the seats after the leader, in play order
_ORDERS = {n: tuple(tuple((leader + i) % n for i in range(1, n)) for leader in range(n)) for n in range(3, 7)}


def random_playout(d: Deal, rng) -> None:
    """Play ``d`` to its end with uniformly random legal cards (``rng``: a ``random.Random``).

    The same cards, from the same random draws, as :func:`plain_random_playout`
    (``tests/engine/test_properties.py`` checks it from positions of real games).  A trick
    under way goes through :meth:`Deal.play`; a whole first trick runs in one go (its legal
    cards from :func:`legal_mask`, its winner taking the kitty); the whole tricks after it,
    which have no special rules, run in one loop with the trick and its winner kept in
    locals, several times faster.
    """
    rnd = rng.random
    if d.first_trick and not d.trick and d.turn >= 0:
        _random_first_trick(d, rnd)
    while d.trick or d.first_trick:
        if d.turn < 0:
            return
        d.play(pick_random(d.legal, rnd))
    if d.turn < 0:
        return
    hands = d.hands
    taken = d.taken
    leader = d.turn
    broken = d.broken
    lead_any = broken or d.cfg.hearts_any  # a heart may be led
    breaks = d.cfg.breaks_mask
    not_hearts = FULL ^ HEARTS
    orders = _ORDERS[d.cfg.players]
    seg = _SEG
    while True:
        hand = hands[leader]
        if not hand:
            break
        m = hand if lead_any else (hand & not_hearts or hand)
        k = int(rnd() * m.bit_count())
        while k:
            m &= m - 1
            k -= 1
        bit = m & -m
        hands[leader] = hand ^ bit
        tmask = bit
        card = bit.bit_length() - 1
        sh = card - card % 13
        best = card - sh
        winner = leader
        for seat in orders[leader]:
            hand = hands[seat]
            s13 = hand >> sh & 0x1FFF
            if s13:
                r = seg[s13]
                rank = r[int(rnd() * len(r))]
                if rank > best:
                    best = rank
                    winner = seat
                bit = 1 << (rank + sh)
            else:
                m = hand
                k = int(rnd() * m.bit_count())
                while k:
                    m &= m - 1
                    k -= 1
                bit = m & -m
            hands[seat] = hand ^ bit
            tmask |= bit
        if not broken and tmask & breaks:
            broken = lead_any = True
        taken[winner] |= tmask
        leader = winner
    # every card of the deck has been played and taken
    d.played = d.cfg.deck_mask
    d.tricks = d.cfg.tricks_per_deal
    d.broken = broken
    d.leader = d.winning = leader
    d.best = best + sh
    d.turn = -1
    d.legal = 0


def _random_first_trick(d: Deal, rnd) -> None:
    """The first trick of :func:`random_playout`, from its lead to its winner."""
    cfg = d.cfg
    hands = d.hands
    breaks = cfg.breaks_mask
    leader = d.turn
    best = pick_random(d.legal, rnd)
    bit = 1 << best
    hands[leader] ^= bit
    tmask = bit
    led = best // 13
    winner = leader
    broken = d.broken or bool(bit & breaks)
    for seat in _ORDERS[cfg.players][leader]:
        hand = hands[seat]
        card = pick_random(legal_mask(cfg, hand, led, True, broken), rnd)
        bit = 1 << card
        hands[seat] = hand ^ bit
        tmask |= bit
        if card > best and card // 13 == led:
            best = card
            winner = seat
        if bit & breaks:
            broken = True
    tmask |= d.kitty
    d.taken[winner] |= tmask
    d.played |= tmask
    d.kitty = 0
    d.first_trick = False
    d.first_lead = -1
    d.tricks += 1
    d.broken = broken
    d.best = best
    d.leader = d.turn = d.winning = winner
    d.legal = legal_mask(cfg, hands[winner], -1, False, broken)


def random_deal_points(cfg: Config, rng=None) -> list[int]:
    """Deal, pass 3 random cards (deal 1 direction), play out at random, score.  For the bench.

    The passes are the first 3 cards of each seat's share of the shuffled deck, which is a
    uniformly random choice of 3 from its hand.
    """
    rng = rng or _random
    deck = list(cfg.deck)
    shuffle(deck, rng)
    n = cfg.players
    hs = cfg.hand_size
    bits = _BIT.__getitem__
    hands = [sum(map(bits, deck[s * hs:(s + 1) * hs])) for s in range(n)]
    kitty = sum(map(bits, deck[n * hs:]))
    off = cfg.pass_cycle[0].offset(n)
    if off:
        passes = [sum(map(bits, deck[s * hs:s * hs + 3])) for s in range(n)]
        for s in range(n):
            hands[s] ^= passes[s]
        for s in range(n):
            hands[(s + off) % n] |= passes[s]
    d = Deal(cfg, hands, kitty)
    d.begin(leader=1 % n)
    random_playout(d, rng)
    return d.score()[0]


_BIT = tuple(1 << i for i in range(52))
