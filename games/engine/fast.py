"""The fast core: cards as ints 0..51, sets of cards as int bitmasks.

This is where the play rules live (:func:`legal_mask`, :func:`why_illegal_play`,
:func:`trick_winner`, :func:`deal_points`); :class:`games.engine.Game` calls
these, and so do the random playouts bots use for Monte Carlo rollouts.

Card ``i`` is suit ``i // 13`` (0 clubs, 1 diamonds, 2 spades, 3 hearts) and
rank ``i % 13 + 2``; a hand is an int with bit ``i`` set for each card held.

>>> from games.engine import Rules, parse_cards
>>> cfg = config(Rules())
>>> hand = mask_of("AS QS 7S 3S KD JD 8D 4D AH TH 9H 6H 2H")
>>> cards_of(legal_mask(cfg, hand, led=CLUB, first_trick=True, broken=False))
'4D 8D JD KD 3S 7S AS'

A random playout from a position, returning the deal points per seat:

>>> import random
>>> hands = deal(cfg, random.Random(1))
>>> pts = playout(cfg, hands, rng=random.Random(2))
>>> len(pts), sum(pts) in (26, 78, -26)
(4, True)
"""

from __future__ import annotations

import random as _random
from functools import lru_cache
from typing import Iterable, Sequence

from .cards import Card, parse_cards

__all__ = [
    "CLUB", "DIAMOND", "SPADE", "HEART", "SUIT_MASKS", "HEARTS", "QS", "KS", "AS", "JD",
    "Config", "config", "legal_mask", "why_illegal_play", "trick_winner", "mask_points",
    "moon_shooter", "deal_points", "first_lead_card", "deal", "playout", "playout_taken",
    "random_deal_points", "position_from_view", "mask_of", "cards_of", "iter_bits", "pick_random",
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


class Config:
    """The rules compiled to ints and masks for the hot loops.  Get one with :func:`config`."""

    __slots__ = (
        "rules", "players", "hand_size", "deck_mask", "removed_mask", "kitty_size",
        "no_first_points", "first_points_mask", "hearts_any", "breaks_mask", "lowest_club",
        "moon", "moon_mask", "moon_value", "jd", "points", "tricks_per_deal", "deck_cards",
        "deck", "pass_cycle", "removed_cards",
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
        penalty = HEARTS | (1 << QS)
        if rules.black_maria:
            penalty |= (1 << KS) | (1 << AS)
        #: cards the "no points on the first trick" rule keeps off the first trick
        self.first_points_mask = penalty
        self.hearts_any = rules.hearts_lead == "any"
        self.breaks_mask = HEARTS | ((1 << QS) if rules.hearts_lead == "queen_breaks" else 0)
        self.lowest_club = rules.lead == "lowest_club"
        self.moon = _MOON[rules.moon]
        #: what a player must take to shoot the moon
        self.moon_mask = penalty
        self.moon_value = rules.deal_value
        self.jd = rules.jack_of_diamonds
        pts = [0] * 52
        for i in range(39, 52):
            pts[i] = 1
        pts[QS] = 13
        if rules.black_maria:
            pts[KS] = 10
            pts[AS] = 7
        if rules.jack_of_diamonds:
            pts[JD] = -10
        self.points = tuple(pts)
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


def trick_winner(plays: Sequence[tuple[int, int]]) -> int:
    """Seat that wins a trick of ``(seat, card)`` plays: highest card of the suit led."""
    led = plays[0][1] // 13
    best_seat, best = plays[0]
    for seat, card in plays:
        if card > best and card // 13 == led:
            best, best_seat = card, seat
    return best_seat


def mask_points(cfg: Config, mask: int) -> int:
    """Points in a set of cards (hearts 1, QS 13, Black Maria, Omnibus jack)."""
    p = (mask & HEARTS).bit_count()
    if mask >> QS & 1:
        p += 13
    if cfg.moon_value == 43:
        if mask >> KS & 1:
            p += 10
        if mask >> AS & 1:
            p += 7
    if cfg.jd and mask >> JD & 1:
        p -= 10
    return p


def moon_shooter(cfg: Config, taken: Sequence[int]) -> "int | None":
    """The seat that took every heart and the queen (and KS, AS under Black Maria), or None."""
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
        mode = SUBTRACT if choice == "subtract" else OTHERS
    v = cfg.moon_value
    jd = cfg.jd
    out = []
    for seat, m in enumerate(taken):
        p = -10 if jd and m >> JD & 1 else 0
        if seat == shooter:
            if mode == SUBTRACT:
                p -= v
        elif mode == OTHERS:
            p += v
        out.append(p)
    return out, shooter


# ---------------------------------------------------------------------------------
# Dealing and random playouts
# ---------------------------------------------------------------------------------


def deal(cfg: Config, rng=_random) -> list[int]:
    """Random hands (bitmasks) for every seat; a kitty, if any, is what is left of the deck
    (``cfg.deck_mask`` minus the hands)."""
    deck = [i for i in range(52) if cfg.deck_mask >> i & 1]
    rng.shuffle(deck)
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


# Cards of a 13-bit suit segment: _SEG[bits] = tuple of rank offsets 0..12
_SEG = tuple(tuple(r for r in range(13) if b >> r & 1) for b in range(1 << 13))


def playout_taken(
    cfg: Config,
    hands: Sequence[int],
    taken: "Sequence[int] | None" = None,
    trick: Sequence[int] = (),
    leader: "int | None" = None,
    broken: bool = False,
    first_trick: "bool | None" = None,
    kitty: int = 0,
    rng=None,
    record: "list | None" = None,
) -> list[int]:
    """Play the deal out with uniformly random legal cards; return the cards each seat took.

    ``hands``: every seat's cards (a determinized position for a bot);
    ``taken``: cards each seat has taken so far (kitty included once taken);
    ``trick``: card ints played to the current trick, in order, led by ``leader``;
    ``leader``: who led the current trick (or leads next); it may be left out only at the
    start of a deal with ``lead="lowest_club"`` (the holder of the lowest club);
    ``broken``: hearts broken; ``first_trick``: whether the current trick is the first of
    the deal (default: no card has been played but ``trick``'s);
    ``kitty``: the untaken kitty (goes to the first trick's winner);
    ``rng``: a ``random.Random`` (default the module's);
    ``record``: if a list, ``(leader, cards mask, winner)`` is appended for each trick
    completed (kitty not included), so tests can check every play.

    :func:`position_from_view` builds these arguments from a :class:`PlayerView` and a
    guess of the other hands.
    """
    n = cfg.players
    hands = list(hands)
    taken = list(taken) if taken is not None else [0] * n
    if first_trick is None:
        first_trick = sum(h.bit_count() for h in hands) + len(trick) == n * cfg.hand_size
    first_lead = first_lead_card(cfg, hands) if first_trick and not trick else -1
    if leader is None:
        if first_lead >= 0:
            leader = next(s for s in range(n) if hands[s] >> first_lead & 1)
        else:
            leader = 0
    rnd = (rng or _random).random
    nfp = cfg.no_first_points and first_trick
    fpm = cfg.first_points_mask
    breaks = cfg.breaks_mask
    hearts_any = cfg.hearts_any
    seg = _SEG
    suit_masks = SUIT_MASKS
    trick = list(trick)
    # state of the current trick
    if trick:
        led = trick[0] // 13
        best = trick[0]
        best_i = 0
        for i, c in enumerate(trick):
            if c > best and c // 13 == led:
                best, best_i = c, i
        tmask = 0
        for c in trick:
            tmask |= 1 << c
    else:
        led = -1
    seat = (leader + len(trick)) % n
    count = len(trick)
    tleader = leader
    # General loop: the first trick (its special rules) and a trick already under way.
    while count or first_trick:
        hand = hands[seat]
        if count == 0:
            if not hand:
                return taken
            # lead
            if nfp:
                if first_lead >= 0:
                    card = first_lead
                else:
                    m = hand & ~fpm or hand & HEARTS or hand
                    card = pick_random(m, rnd)
            else:
                if first_trick and first_lead >= 0:
                    card = first_lead
                elif broken or hearts_any:
                    card = pick_random(hand, rnd)
                else:
                    card = pick_random(hand & ~HEARTS or hand, rnd)
            led = card // 13
            best = card
            best_i = 0
            tmask = 1 << card
            tleader = seat
        else:
            s13 = hand >> (13 * led) & _SUIT13
            if s13:
                if nfp and (s13 << (13 * led)) & fpm:
                    m = (s13 << (13 * led))
                    m = m & ~fpm or m & HEARTS or m
                    card = pick_random(m, rnd)
                else:
                    r = seg[s13]
                    card = r[int(rnd() * len(r))] + 13 * led
                if card > best:
                    best = card
                    best_i = count
            else:
                if nfp:
                    m = hand & ~fpm or hand & HEARTS or hand
                else:
                    m = hand
                card = pick_random(m, rnd)
            tmask |= 1 << card
        bit = 1 << card
        hands[seat] = hand ^ bit
        if bit & breaks:
            broken = True
        count += 1
        if count == n:
            winner = (seat + 1 + best_i) % n
            if record is not None:
                record.append((tleader, tmask, winner))
            if first_trick:
                tmask |= kitty
                kitty = 0
                first_trick = False
                nfp = False
                first_lead = -1
            taken[winner] |= tmask
            count = 0
            seat = winner
        else:
            seat = (seat + 1) % n
    # Fast loop: whole tricks after the first, no first-trick rules.
    leader = seat
    not_hearts = FULL ^ HEARTS
    orders = _ORDERS[n]
    while True:
        hand = hands[leader]
        if not hand:
            return taken
        if broken or hearts_any:
            m = hand
        else:
            m = hand & not_hearts or hand
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
            broken = True
        if record is not None:
            record.append((leader, tmask, winner))
        leader = winner
        taken[winner] |= tmask


# _ORDERS[n][leader] = the seats after the leader, in play order
_ORDERS = {n: tuple(tuple((l + i) % n for i in range(1, n)) for l in range(n)) for n in range(3, 7)}


def playout(
    cfg: Config,
    hands: Sequence[int],
    taken: "Sequence[int] | None" = None,
    trick: Sequence[int] = (),
    leader: "int | None" = None,
    broken: bool = False,
    first_trick: "bool | None" = None,
    kitty: int = 0,
    rng=None,
    choice: "str | None" = None,
) -> list[int]:
    """Random playout (see :func:`playout_taken`) returning the deal points per seat.

    With ``moon="choose"`` a shooter is scored with ``choice`` (default ``"add"``:
    everyone else takes the deal's value).
    """
    t = playout_taken(cfg, hands, taken, trick, leader, broken, first_trick, kitty, rng)
    return deal_points(cfg, t, choice)[0]


def position_from_view(view, hands, kitty=None) -> dict:
    """Keyword arguments for :func:`playout` / :func:`playout_taken` from a seat's view.

    ``hands``: a determinization, one card collection (``Card`` or ``"QS"``) per seat —
    the viewer's own entry may be None (its real hand is used); ``kitty``: the guessed
    kitty cards if it has not been taken yet.

    >>> from games.engine import Game, Rules
    >>> g = Game.new(Rules(passing="none"), seed=4)
    >>> v = g.view(0)
    >>> guess = [None] + [list(h) for h in g.hands[1:]]
    >>> kw = position_from_view(v, guess)
    >>> sorted(kw)
    ['broken', 'first_trick', 'hands', 'kitty', 'leader', 'taken', 'trick']
    >>> len(playout(config(v.rules), rng=__import__("random").Random(1), **kw))
    4
    """

    def m(cards):
        out = 0
        for c in cards:
            out |= 1 << Card.parse(c).index
        return out

    n = view.players
    masks = []
    for s in range(n):
        if s == view.seat or hands[s] is None:
            if s != view.seat:
                raise ValueError(f"Give a hand for seat {s}.")
            masks.append(m(view.hand))
        else:
            masks.append(m(hands[s]))
    taken = [0] * n
    for t in view.tricks:
        taken[t.winner] |= m(t.cards)
    if view.kitty and view.tricks:
        taken[view.tricks[0].winner] |= m(view.kitty)
    untaken_kitty = 0
    if view.kitty_size and not view.tricks:
        untaken_kitty = m(kitty or ())
    return {
        "hands": masks,
        "taken": taken,
        "trick": [c.index for _, c in view.current_trick],
        "leader": view.leader if view.leader is not None else (
            None if view.rules.lead == "lowest_club" else (view.dealer + 1) % n
        ),
        "broken": view.hearts_broken,
        "first_trick": view.is_first_trick,
        "kitty": untaken_kitty,
    }


def random_deal_points(cfg: Config, rng=None) -> list[int]:
    """Deal, pass 3 random cards (deal 1 direction), play out at random, score.  For the bench.

    The passes are the first 3 cards of each seat's share of the shuffled deck, which is a
    uniformly random choice of 3 from its hand.
    """
    rng = rng or _random
    rnd = rng.random
    deck = sorted(_DECKS[cfg.deck_mask], key=lambda _: rnd())
    n = cfg.players
    hs = cfg.hand_size
    bits = _BIT.__getitem__
    hands = [sum(map(bits, deck[s * hs:(s + 1) * hs])) for s in range(n)]
    kitty = sum(map(bits, deck[n * hs:]))
    off = cfg.rules.pass_direction(1).offset(n)
    if off:
        passes = [sum(map(bits, deck[s * hs:s * hs + 3])) for s in range(n)]
        for s in range(n):
            hands[s] ^= passes[s]
        for s in range(n):
            hands[(s + off) % n] |= passes[s]
    return deal_points(cfg, playout_taken(cfg, hands, kitty=kitty, rng=rng, first_trick=True))[0]


_BIT = tuple(1 << i for i in range(52))


class _Decks(dict):
    def __missing__(self, mask):
        deck = self[mask] = [i for i in range(52) if mask >> i & 1]
        return deck


_DECKS = _Decks()
