"""The Medium player as a fast bitmask policy: one rule set, used three ways.

:func:`play` picks a card for the seat to play in a :class:`~games.engine.kernel.Deal`,
looking only at what that seat may know — its hand, the cards played, the current trick,
who has taken points — so the Medium bot calls it on the deal a view describes, the Hard
bot calls it for every seat inside its Monte Carlo rollouts, and hints explain its rules.

Cards are ints 0..51 (``suit * 13 + rank - 2``), sets of cards are bitmasks, as in
:mod:`games.engine.kernel`.

>>> from games.engine import Rules
>>> from games.engine.kernel import Deal, config, mask_of, cards_of
>>> cfg = config(Rules())
>>> # spades led by seat 3, the king is winning: seat 0 ducks with its highest spade below it
>>> d = Deal.at(cfg, [mask_of("8S 4H"), 0, 0, 0], [0, 0, 0, mask_of("AC KC QC JC")],
...             trick=[mask_of("KS").bit_length() - 1], leader=3, broken=False)
>>> cards_of(1 << play(d))
'8S'
"""

from __future__ import annotations

from itertools import combinations
from typing import Final

from games.engine import kernel
from games.engine.kernel import AS, HEARTS, JD, KS, QS, SUIT_MASKS, Deal, highest, lowest

__all__ = [
    "play", "pass_cards", "pass_ranking", "quick_pass", "moon_threat", "shooting", "losing_cards", "aiming_for_moon",
    "moon_pass",
    "Reason",
]

_SPADES = SUIT_MASKS[2]
_QS_BIT = 1 << QS
_HIGH_SPADES = (1 << KS) | (1 << AS)
_BELOW = tuple((1 << c) - 1 for c in range(52))
_SUIT_OF = tuple(c // 13 for c in range(52))
_RANK_OF = tuple(c % 13 + 2 for c in range(52))
_SUIT_WORD = ("clubs", "diamonds", "spades", "hearts")


class Reason:
    """Codes :func:`play` reports through ``why`` (a list), turned into words by hints."""

    ONLY: Final = "only"
    SHOOT: Final = "shoot"
    BLOCK_TAKE: Final = "block_take"
    BLOCK_DUMP: Final = "block_dump"
    BLOCK_HOLD: Final = "block_hold"
    DUMP_QUEEN_UNDER: Final = "dump_queen_under"
    DUCK: Final = "duck"
    TAKE_SAFE: Final = "take_safe"
    WIN_JACK: Final = "win_jack"
    FORCED_HIGH: Final = "forced_high"
    SPADE_UNDER_QUEEN: Final = "spade_under_queen"
    HIGH_SAFE: Final = "high_safe"
    LOW_OVER: Final = "low_over"
    DUMP_QUEEN: Final = "dump_queen"
    DUMP_HIGH_SPADE: Final = "dump_high_spade"
    DUMP_HEART: Final = "dump_heart"
    DUMP_HIGH: Final = "dump_high"
    LEAD_LOW: Final = "lead_low"
    LEAD_FLUSH: Final = "lead_flush"
    LEAD_BOSS_HEART: Final = "lead_boss_heart"
    MOON_TRY: Final = "moon_try"


def _holder(mm: int, taken) -> int:
    """The one seat that has taken point cards (of ``mm``); -1 if none, -2 if several."""
    who = -1
    for s, t in enumerate(taken):
        if t & mm:
            if who >= 0:
                return -2
            who = s
    return who


def _threat(cfg, who: int, me: int, taken, played: int) -> int:
    if who < 0 or who == me or cfg.moon == kernel.OFF:
        return -1
    got = taken[who] & cfg.moon_mask
    hearts = (got & HEARTS).bit_count()
    if got & _QS_BIT:
        if hearts >= 3 or (hearts >= 1 and played.bit_count() * 2 >= cfg.deck_mask.bit_count()):
            return who
    elif hearts >= 7:
        return who
    return -1


def moon_threat(cfg, me: int, taken, played: int) -> int:
    """The other seat that has taken every point card so far, late enough in the deal and
    with enough of them to be going for the moon; else -1."""
    return _threat(cfg, _holder(cfg.moon_mask, taken), me, taken, played)


def _all_winners(d: Deal, hand: int, outstanding: int) -> bool:
    """Every card in ``hand`` beats every card still out in its suit, and the current
    trick, if any, is ours to win."""
    for m0 in SUIT_MASKS:
        m = hand & m0
        if m:
            o = outstanding & m0
            if o and (m & -m).bit_length() < o.bit_length():
                return False
    if d.trick:
        m = hand & SUIT_MASKS[_SUIT_OF[d.trick[0]]]
        if not m or highest(m) < d.best:
            return False
    return True


def shooting(d: Deal, outstanding: int) -> bool:
    """True when taking the moon is all but certain for the seat to play: nobody else has a
    point card, every card in hand beats every card still out in its suit, and this trick
    is ours to win."""
    cfg = d.cfg
    hand = d.hands[d.turn]
    if cfg.moon == kernel.OFF or not hand:
        return False
    if _holder(cfg.moon_mask, d.taken) not in (-1, d.turn):
        return False
    return _all_winners(d, hand, outstanding)


def losing_cards(cfg, hand: int, outstanding: int, stop_after: int = 52) -> int:
    """The cards of ``hand`` that would likely lose a trick if it tried to win them all.

    In each suit, from the top down, a card loses when more cards still out beat it than we
    hold above it — unless the cards above it will have drawn every card still out (long
    suits run).

    >>> from games.engine import Rules
    >>> from games.engine.kernel import cards_of, config, mask_of
    >>> cfg = config(Rules())
    >>> hand = mask_of("AH KH QH 5H 3H AS KS QS AD KD AC KC 2C")
    >>> cards_of(losing_cards(cfg, hand, cfg.deck_mask & ~hand))
    '2C'

    It stops looking once it has found more than ``stop_after`` cards (hearts first).
    """
    n = cfg.players
    lose = 0
    found = 0
    for suit in (3, 0, 1, 2):
        m = hand & SUIT_MASKS[suit]
        o = outstanding & SUIT_MASKS[suit]
        out = o.bit_count()
        above = 0
        while m:
            c = m.bit_length() - 1
            m ^= 1 << c
            if (o >> (c + 1)).bit_count() > above and out > above * (n - 1):
                lose |= 1 << c
                found += 1
                if found > stop_after:
                    return lose
            above += 1
    return lose


def _moon_hand(cfg, hand: int, outstanding: int, trick_lost: bool = False) -> bool:
    """No heart would lose a trick, and at most one trick in all would be lost: a weak card,
    a suit we are void in (someone else may lead it), or the current trick."""
    voids = sum(1 for suit in (0, 1, 2) if not hand & SUIT_MASKS[suit] and outstanding & SUIT_MASKS[suit])
    allowed = 1 - voids - trick_lost
    if allowed < 0:
        return False
    lose = losing_cards(cfg, hand, outstanding, stop_after=allowed)
    return not lose & HEARTS and lose.bit_count() <= allowed


def aiming_for_moon(d: Deal, outstanding: int) -> bool:
    """Whether the seat to play goes for the moon: nobody else has taken a point card, no
    heart in hand would lose a trick, and at most one trick in all would be lost (a weak card,
    or a suit we are void in), never one with a point card in it.  Checked afresh at every
    card, so it gives up as soon as someone else takes a point or the hand weakens."""
    if _holder(d.cfg.moon_mask, d.taken) not in (-1, d.turn):
        return False
    return _aiming(d, outstanding)


def _aiming(d: Deal, outstanding: int) -> bool:
    """:func:`aiming_for_moon` once we know nobody else has taken a point card."""
    cfg = d.cfg
    me = d.turn
    if cfg.moon == kernel.OFF:
        return False
    if d.kitty & cfg.moon_mask:
        return False  # a point card in the kitty goes to the first trick's winner: too blind
    hand = d.hands[me]
    trick_lost = False
    if d.trick:
        follow = hand & SUIT_MASKS[_SUIT_OF[d.trick[0]]]
        if not (follow and highest(follow) > d.best):
            if any(cfg.moon_mask >> c & 1 for c in d.trick):
                return False
            trick_lost = True
    return _moon_hand(cfg, hand, outstanding, trick_lost)


def _shoot(d: Deal, legal: int, outstanding: int, why) -> int:
    """The card of a seat going for the moon: win every trick that can hold a point card."""
    cfg = d.cfg
    if why is not None:
        why.append(Reason.MOON_TRY)
    trick = d.trick
    if trick:
        follow = legal & SUIT_MASKS[_SUIT_OF[trick[0]]]
        if follow:
            over = follow & ~_BELOW[d.best]
            if over:
                # last to play: the lowest card that wins; else the highest, to be sure
                return lowest(over) if len(trick) == cfg.players - 1 else highest(over)
            return lowest(follow)
        # void: keep the points for our own tricks, throw the lowest other card
        return lowest(legal & ~cfg.moon_mask or legal)
    hand = d.hands[d.turn]
    if d.tricks < 3:
        # lose the one weak card early, while nobody is void and can throw a point on it
        for suit in (0, 1, 2):
            m = legal & SUIT_MASKS[suit]
            if m and losing_cards(cfg, hand & SUIT_MASKS[suit], outstanding):
                return lowest(m)
    # lead a winner: hearts first (draw them), else from the suit with most cards still out
    best, best_o = -1, -1
    for suit in (3, 0, 1, 2):
        m = legal & SUIT_MASKS[suit]
        if m:
            o = outstanding & SUIT_MASKS[suit]
            if o.bit_length() - 1 > highest(m):
                continue
            count = o.bit_count() + (99 if suit == 3 and o else 0)
            if count > best_o:
                best, best_o = highest(m), count
    return best if best >= 0 else highest(legal)


def play(d: Deal, why: "list | None" = None) -> int:
    """The Medium card for the seat to play in ``d`` (``d.turn``).

    It reads that seat's hand and what is public — the current trick, the cards played
    (``d.played``) and taken (``d.taken``) — never another hand.  ``why``, if a list,
    receives a :class:`Reason` code.
    """
    cfg = d.cfg
    me = d.turn
    hand = d.hands[me]
    trick = d.trick
    played = d.played
    taken = d.taken
    legal = d.legal
    led = _SUIT_OF[trick[0]] if trick else -1
    if not legal & (legal - 1):
        if why is not None:
            why.append(Reason.ONLY)
        return ((legal & -legal).bit_length() - 1)
    outstanding = cfg.deck_mask & ~played & ~hand
    qs_out = bool(outstanding & _QS_BIT)
    who = _holder(cfg.moon_mask, taken)
    if (cfg.moon != kernel.OFF and (who == me or (who == -1 and played.bit_count() * 2 >= cfg.deck_mask.bit_count()))
            and _all_winners(d, hand, outstanding)):
        if why is not None:
            why.append(Reason.SHOOT)
        if trick:
            return (legal.bit_length() - 1)
        # lead a winner from the suit with most cards still out, to draw them
        best, best_o = -1, -1
        for suit in range(4):
            m = legal & SUIT_MASKS[suit]
            if m:
                o = (outstanding & SUIT_MASKS[suit]).bit_count()
                if o > best_o:
                    best, best_o = (m.bit_length() - 1), o
        return best
    if (who == -1 or who == me) and _aiming(d, outstanding):
        return _shoot(d, legal, outstanding, why)
    threat = _threat(cfg, who, me, taken, played) if who >= 0 else -1

    if not trick:
        return _lead(cfg, me, hand, legal, outstanding, qs_out, threat, why)

    follow = legal & SUIT_MASKS[led]
    if follow:
        return _follow(d, follow, led, outstanding, qs_out, threat, why)
    return _discard(d, legal, qs_out, threat, why)


def _follow(d: Deal, follow: int, led: int, outstanding: int, qs_out: bool, threat: int, why: "list | None") -> int:
    """The card to play from ``follow``, the cards of the suit ``led`` held by the seat to play."""
    cfg = d.cfg
    trick = d.trick
    best = d.best
    winner = d.winning
    last = len(trick) == cfg.players - 1
    under = follow & _BELOW[best]
    over = follow & ~under
    pts = cfg.points
    tp = 0
    for c in trick:
        tp += pts[c]
    if threat >= 0:
        # a heart must go to someone other than the shooter
        if over and (winner == threat or led == 3) and (tp > 0 or led == 3 or not last):
            if why is not None:
                why.append(Reason.BLOCK_TAKE)
            return (over.bit_length() - 1)
    if led == 2 and follow & _QS_BIT and best > QS:
        if why is not None:
            why.append(Reason.DUMP_QUEEN_UNDER)
        return QS
    if last:
        if tp > 0 and under:
            if why is not None:
                why.append(Reason.DUCK)
            return (under.bit_length() - 1)
        if cfg.jd and follow >> JD & 1 and JD > best and tp < 10:
            if why is not None:
                why.append(Reason.WIN_JACK)
            return JD
        if tp <= 0:
            # the trick is safe: take it with the highest card (never the queen)
            m = follow & ~_QS_BIT & ~(_HIGH_SPADES if cfg.black_maria else 0)
            if cfg.jd and m & ~(1 << JD):
                m &= ~(1 << JD)
            if m:
                if why is not None:
                    why.append(Reason.TAKE_SAFE)
                return (m.bit_length() - 1)
            return ((follow & -follow).bit_length() - 1)
        # points in it and no card under: we take it; shed the highest (not the queen)
        m = over & ~_QS_BIT
        if why is not None:
            why.append(Reason.FORCED_HIGH)
        return (m.bit_length() - 1) if m else (over.bit_length() - 1)
    if under:
        if why is not None:
            why.append(Reason.DUCK)
        return (under.bit_length() - 1)
    # no card under the winner, others still to play
    if led == 2 and qs_out:
        m = over & _BELOW[QS]
        if why is not None:
            why.append(Reason.SPADE_UNDER_QUEEN)
        return (m.bit_length() - 1) if m else ((over & -over).bit_length() - 1)
    behind = cfg.players - 1 - len(trick)
    out_suit = (outstanding & SUIT_MASKS[led]).bit_count()
    if led != 3 and tp <= 0 and out_suit >= 2 * behind + 1:
        m = over & ~_QS_BIT
        if cfg.jd and led == 1:
            m &= ~(1 << JD)
        if m:
            if why is not None:
                why.append(Reason.HIGH_SAFE)
            return (m.bit_length() - 1)
    if why is not None:
        why.append(Reason.LOW_OVER)
    return ((over & -over).bit_length() - 1)


def _discard(d: Deal, legal: int, qs_out: bool, threat: int, why: "list | None") -> int:
    """The card to throw away from ``legal`` by the seat to play, void in the suit led."""
    cfg = d.cfg
    n = cfg.players
    trick = d.trick
    winner = d.winning
    if threat >= 0:
        trick_seats = {(d.leader + i) % n for i in range(len(trick))}
        if winner != threat and threat in trick_seats:
            m = legal & (HEARTS | _QS_BIT)
            if m:
                if why is not None:
                    why.append(Reason.BLOCK_DUMP)
                return QS if m & _QS_BIT else (m.bit_length() - 1)
        if winner == threat or threat not in trick_seats:
            m = legal & ~cfg.moon_mask
            if m:
                if why is not None:
                    why.append(Reason.BLOCK_HOLD)
                return _shed(cfg, d.hands[d.turn], m)
    if legal & _QS_BIT:
        if why is not None:
            why.append(Reason.DUMP_QUEEN)
        return QS
    m = legal & _HIGH_SPADES
    if m and (qs_out or cfg.black_maria):
        if why is not None:
            why.append(Reason.DUMP_HIGH_SPADE)
        return (m.bit_length() - 1)
    m = legal & HEARTS
    if m:
        if why is not None:
            why.append(Reason.DUMP_HEART)
        return (m.bit_length() - 1)
    if why is not None:
        why.append(Reason.DUMP_HIGH)
    return _shed(cfg, d.hands[d.turn], legal)


def _shed(cfg, hand: int, m: int) -> int:
    """The card to throw away from ``m``: a high card, from a short suit."""
    if cfg.jd and m & ~(1 << JD):
        m &= ~(1 << JD)
    best, best_score = -1, -99
    for suit in range(4):
        s = m & SUIT_MASKS[suit]
        if s:
            c = (s.bit_length() - 1)
            length = (hand & SUIT_MASKS[suit]).bit_count()
            score = _RANK_OF[c] - length
            if suit == 2 and c < QS:
                score -= 4  # low spades guard against the queen
            if score > best_score:
                best, best_score = c, score
    return best


def _lead(cfg, me, hand, legal, outstanding, qs_out, threat, why) -> int:
    n = cfg.players
    if threat >= 0:
        m = legal & HEARTS
        o = outstanding & HEARTS
        if m and (not o or (m.bit_length() - 1) > (o.bit_length() - 1)):
            if why is not None:
                why.append(Reason.LEAD_BOSS_HEART)
            return (m.bit_length() - 1)
    best_card, best_score, best_reason = -1, 1 << 30, Reason.LEAD_LOW
    for suit in range(4):
        m = legal & SUIT_MASKS[suit]
        if not m:
            continue
        o = outstanding & SUIT_MASKS[suit]
        low = ((m & -m).bit_length() - 1)
        if cfg.jd and low == JD and m & ~(1 << JD):
            low = lowest(m & ~(1 << JD))
        below = (o & _BELOW[low]).bit_count()
        above = o.bit_count() - below
        score = 2 * below
        reason = Reason.LEAD_LOW
        if above == 0:
            score += 20
        elif o.bit_count() < n - 1:
            score += 3
        if suit == 2:
            if qs_out:
                if hand & _QS_BIT:
                    score += 15
                elif low > QS:
                    score += 25
                elif not hand & _HIGH_SPADES:
                    score -= 3
                    reason = Reason.LEAD_FLUSH
            elif low == QS:
                score += 30
            if cfg.black_maria and low >= KS:
                score += 20
        elif suit == 3:
            score += 1
        score = score * 16 + (hand & SUIT_MASKS[suit]).bit_count()
        if score < best_score:
            best_card, best_score, best_reason = low, score, reason
    if why is not None:
        why.append(best_reason)
    return best_card


# ---------------------------------------------------------------------------------
# Passing
# ---------------------------------------------------------------------------------


def _danger(cfg, hand: int) -> list[int]:
    """How much each card in ``hand`` wants to be passed (negative: keep it)."""
    spades = hand & _SPADES
    low_spades = (spades & _BELOW[QS]).bit_count()
    has_q = bool(hand & _QS_BIT)
    short = low_spades <= 2
    bm = cfg.black_maria
    out = [0] * 52
    for c in kernel.iter_bits(hand):
        suit, r = _SUIT_OF[c], _RANK_OF[c]
        if suit == 3:
            d = r - 4
        elif suit == 2:
            if c == QS:
                d = 40 if short else -6
            elif c > QS:
                if short:
                    d = 36 if bm else 30
                else:
                    d = 12 if bm else (4 if has_q else 8)
            else:
                d = -8 if r <= 9 else -3
        else:
            d = r - 7
            if cfg.jd and suit == 1:
                if c == JD:
                    d = -20
                elif c > JD:
                    d -= 4
        out[c] = d
    return out


def moon_pass(cfg, hand: int) -> int:
    """For a hand strong enough to go for the moon, the pass that keeps it so — its weakest
    cards, lowest first — as a mask; else 0.

    >>> from games.engine import Rules
    >>> from games.engine.kernel import cards_of, config, mask_of
    >>> cards_of(moon_pass(config(Rules()), mask_of("AH KH QH JH 9H 2H AS KS AD KD 3D AC 2C")))
    '2C 3D 2H'
    """
    if cfg.moon == kernel.OFF:
        return 0
    out = cfg.deck_mask & ~hand
    weak = losing_cards(cfg, hand, out)
    cards = sorted(kernel.iter_bits(hand), key=lambda c: (not weak >> c & 1, _RANK_OF[c], c))
    give = (1 << cards[0]) | (1 << cards[1]) | (1 << cards[2])
    keep = hand & ~give
    return give if _moon_hand(cfg, keep, cfg.deck_mask & ~keep) else 0


def pass_ranking(cfg, hand: int, top: int = 1) -> list[int]:
    """The ``top`` best 3-card passes for ``hand``, best first (masks): the moon pass of a
    hand that can shoot, then the passes of Medium's scoring.

    Emptying a suit scores more the higher its cards: a void lets us throw points away, but
    low cards are safe ways out of the lead, not worth giving up."""
    shoot = moon_pass(cfg, hand)
    danger = _danger(cfg, hand)
    cards = list(kernel.iter_bits(hand))
    counts = [(hand & SUIT_MASKS[s]).bit_count() for s in range(4)]
    scored = []
    for combo in combinations(cards, 3):
        score = danger[combo[0]] + danger[combo[1]] + danger[combo[2]]
        gone = [0, 0, 0, 0]
        for c in combo:
            gone[_SUIT_OF[c]] += 1
        for s in (0, 1):
            if counts[s] and gone[s] == counts[s]:
                low = min(_RANK_OF[c] for c in combo if _SUIT_OF[c] == s)
                score += max(0, min(12, 2 * (low - 4)))
        if counts[2] and gone[2] == counts[2]:
            score += 4
        scored.append((-score, combo))
    scored.sort()
    out = [shoot] if shoot else []
    for _, combo in scored:
        if len(out) >= top:
            break
        mask = (1 << combo[0]) | (1 << combo[1]) | (1 << combo[2])
        if mask != shoot:
            out.append(mask)
    return out


def pass_cards(cfg, hand: int, why: "list | None" = None) -> int:
    """The three cards Medium passes, as a mask.  ``why`` receives a reason code:

    ``"moon"`` (keeps a hand that can shoot the moon), ``"queen_short"`` (the queen, short
    in spades), ``"high_spades"`` (ace/king of spades with few low spades), ``"void:<suit>"``
    (empties a short suit), ``"high_hearts"``, ``"high"``.
    """
    mask = pass_ranking(cfg, hand)[0]
    if why is not None:
        why.append(pass_reason(cfg, hand, mask))
    return mask


def quick_pass(cfg, hand: int) -> int:
    """A cheap stand-in for :func:`pass_cards` (the three most dangerous cards), for
    guessing what other seats pass inside a search."""
    danger = _danger(cfg, hand)
    cards = sorted(kernel.iter_bits(hand), key=lambda c: -danger[c])
    return (1 << cards[0]) | (1 << cards[1]) | (1 << cards[2])


def pass_reason(cfg, hand: int, mask: int) -> str:
    """The reason code (see :func:`pass_cards`) of passing ``mask`` from ``hand``."""
    if mask == moon_pass(cfg, hand):
        return "moon"
    counts = [(hand & SUIT_MASKS[s]).bit_count() for s in range(4)]
    gone = [(mask & SUIT_MASKS[s]).bit_count() for s in range(4)]
    if mask & _QS_BIT:
        return "queen_short"
    if mask & _HIGH_SPADES:
        return "high_spades"
    for s in (0, 1):
        if counts[s] and gone[s] == counts[s]:
            return "void:" + _SUIT_WORD[s]
    if (mask & HEARTS).bit_count() >= 2:
        return "high_hearts"
    return "high"
