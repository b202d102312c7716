"""Hints for people: Medium/Hard's choice with a one-line reason in plain words.

The card comes from a short Hard search (a few thousand simulated plays, well under
300 ms); the reason describes that card in its situation — ducking, dumping, leading low,
blocking or shooting the moon — using Medium's rules where they agree.

>>> from games.engine import Game, Rules
>>> g = Game.new(Rules(passing="none"), seed=11)
>>> h = make_hint(g.view(g.to_act[0]))
>>> h.action, h.reason
(Card.parse('2C'), 'Lead the 2♣: the lowest club always leads the first trick.')
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine import Card
from games.engine import kernel
from games.engine.kernel import HEARTS, JD, MOON_ADD, MOON_SUBTRACT, QS, SUIT_MASKS, highest

from . import hard, medium, policy
from .policy import Reason
from .standing import outcome
from .state import Knowledge, card_mask

__all__ = ["Hint", "make_hint", "reason_for", "pass_reason", "moon_reason", "HINT_EFFORT", "HINT_TIME"]


@dataclass(frozen=True)
class Hint:
    """A suggested action (3 cards to pass, a card to play, or a moon choice) and why."""

    action: object
    reason: str

#: search effort for a hint (simulated card plays) and a time cap in seconds
HINT_EFFORT = 9000
HINT_TIME = 0.2

_SUIT_WORD = ("clubs", "diamonds", "spades", "hearts")
_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


def _number(n: int) -> str:
    return _WORDS.get(n, str(n))


def make_hint(view, time_budget: "float | None" = HINT_TIME) -> Hint:
    """The hint for ``view``.  ``time_budget`` caps the search (None: effort only, which
    makes the hint deterministic)."""
    if view.seat not in view.to_act or not view.legal:
        return Hint(None, "Nothing to do now: waiting for the other players.")
    if view.phase == "pass":
        return _pass_hint(view)
    if view.phase == "moon_choice":
        return _moon_hint(view)
    return _play_hint(view, time_budget)


# ---------------------------------------------------------------------------------


def _pass_hint(view) -> Hint:
    cards = medium.pass_cards(view)
    return Hint(cards, pass_reason(view, cards))


def pass_reason(view, cards) -> str:
    """The reason, in a hint's words, for passing ``cards`` from the hand of ``view``."""
    cfg = kernel.config(view.rules)
    code = policy.pass_reason(cfg, card_mask(view.hand), card_mask(cards))
    names = ", ".join(c.symbol for c in cards)
    spades = [c for c in view.hand if c.suit == "S"]
    low_spades = [c for c in spades if c.rank < 12]
    if code == "moon":
        reason = (f"Pass {names}, your weakest cards: the rest can win every trick, so go for "
                  "the moon")
    elif code == "queen_short":
        reason = (f"Pass the queen ({names}): you hold only {_number(len(low_spades))} other "
                  f"spade{'s' if len(low_spades) != 1 else ''} to guard her"
                  if low_spades else f"Pass the queen ({names}): you have no other spades to guard her")
    elif code == "high_spades":
        reason = (f"Pass {names}: with only {_number(len(low_spades))} low "
                  f"spade{'s' if len(low_spades) != 1 else ''}, high spades may catch the queen")
    elif code.startswith("void:"):
        suit = code.split(":")[1]
        reason = f"Pass {names}: that leaves you void in {suit}, free to throw away points"
    elif code == "high_hearts":
        reason = f"Pass {names}: high hearts win tricks full of points"
    else:
        reason = f"Pass {names}: your highest cards are the likeliest to take points"
    return reason + "."


def _moon_hint(view) -> Hint:
    return Hint(hard.moon_choice(view), moon_reason(view))


def moon_reason(view) -> str:
    """The reason, in a hint's words, for the moon choice Hard makes from ``view``."""
    options = medium.moon_options(view)
    choice = hard.moon_choice(view)
    v = view.rules.deal_value
    totals = {c: [s + p for s, p in zip(view.scores, pts)] for c, pts in options.items()}
    other = MOON_ADD if choice == MOON_SUBTRACT else MOON_SUBTRACT
    res = outcome(view.rules, totals[choice], view.seat)
    if res == 1.0:
        reason = (f"Add {v} to everyone else: that ends the game with you lowest" if choice == MOON_ADD
                  else f"Subtract {v}: that wins you the game")
    elif outcome(view.rules, totals[other], view.seat) == 0.0:
        reason = (f"Subtract {v}: adding would end the game with someone else ahead" if choice == MOON_SUBTRACT
                  else f"Add {v}: subtracting would still lose")
    elif choice == MOON_SUBTRACT:
        reason = f"Subtract {v}: it keeps everyone away from the target while you catch up"
    else:
        reason = f"Add {v} to everyone else: it brings the end nearer while you lead"
    return reason + "."


def _play_hint(view, time_budget) -> Hint:
    if len(view.legal) == 1:
        card = view.legal[0]
    else:
        card = hard.play(view, seed=view.deal_number * 1000 + len(view.played),
                         effort=HINT_EFFORT, time_budget=time_budget)
    return Hint(card, reason_for(view, card))


def reason_for(view, card: Card) -> str:
    """The reason, in a hint's words, for playing ``card`` from ``view``."""
    k = Knowledge.from_view(view)
    why: list = []
    med = policy.play(k.deal, why)
    code = why[0] if why and card.index == med else None
    return _describe(view, k, card, code) + "."


def _describe(view, k: Knowledge, card: Card, code) -> str:
    c, s = card.index, card.symbol
    d = k.deal
    trick = d.trick
    threat = policy.moon_threat(k.cfg, k.me, d.taken, d.played)
    if len(view.legal) == 1:
        if d.first_trick and not trick and k.cfg.lowest_club:
            return f"Lead the {s}: the lowest club always leads the first trick"
        if trick and card.suit == view.current_trick[0][1].suit:
            return f"Play the {s}: it is your only {card.suit.plural[:-1]}, and you must follow suit"
        return f"Play the {s}: it is your only legal card"
    if code == Reason.SHOOT or policy.shooting(d, k.outstanding):
        return f"Play the {s}: every card you hold is a winner, so take the moon"
    if code == Reason.MOON_TRY:
        if trick and c // 13 == trick[0] // 13 and c > d.best:
            return f"Win this trick with the {s}: nobody else has a point yet — go for the moon"
        if trick:
            return f"Throw the {s}: keep your points for your own tricks while you go for the moon"
        return f"Lead the {s}: your hand can take every point — go for the moon"
    if not trick:
        return _describe_lead(k, card, code, threat)
    if c // 13 == trick[0] // 13:
        return _describe_follow(k, card, threat)
    return _describe_discard(k, card, threat, trick[0] // 13)


def _describe_lead(k: Knowledge, card: Card, code, threat: int) -> str:
    """Why lead ``card``."""
    c = card.index
    s = card.symbol
    out = k.outstanding
    suit_out = out & SUIT_MASKS[c // 13]
    if threat >= 0 and c // 13 == 3 and (not suit_out or c > highest(suit_out)):
        return f"Lead the {s}: win a heart so seat {threat} cannot shoot the moon"
    if code == Reason.LEAD_FLUSH or (c // 13 == 2 and c < QS and out >> QS & 1
                                     and not k.hand & ((1 << QS) | (1 << 37) | (1 << 38))):
        return f"Lead the {s}: low spades flush out the queen while you hold nothing above her"
    lower = (suit_out & ((1 << c) - 1)).bit_count()
    if lower == 0 and suit_out:
        return f"Lead the {s}: every {card.suit.plural[:-1]} still out is higher, so someone else takes it"
    if not suit_out:
        return f"Lead the {s}: nobody else holds {card.suit.plural}, but it clears your hand"
    higher = suit_out.bit_count() - lower
    if higher == 0:
        return (f"Lead the {s}: no {card.suit.plural[:-1]} still out beats it, so take this trick now "
                "rather than a later one full of points")
    if higher >= lower:
        return f"Lead low with the {s}: it is unlikely to win the trick"
    return (f"Lead the {s}: {_number(higher)} higher {card.suit.plural[:-1]}"
            f"{'s are' if higher != 1 else ' is'} still out, so it may well lose the trick to one")


def _describe_follow(k: Knowledge, card: Card, threat: int) -> str:
    """Why play ``card``, of the suit led."""
    c, s = card.index, card.symbol
    trick = k.deal.trick
    led = trick[0] // 13
    best = k.deal.best
    best_card = Card.from_index(best)
    bname = best_card.rank.word
    last = len(trick) == k.n - 1
    tp = sum(k.cfg.points[x] for x in trick)
    if c == QS and best > QS:
        return f"Dump the queen of spades under the {bname}: it takes the trick, not you"
    if c < best:
        who = "someone else takes this trick"
        return f"Duck under the {bname}: {who}"
    if threat >= 0:
        return f"Take this trick: seat {threat} has every point so far and may shoot the moon"
    suit_word = card.suit.plural[:-1]
    bsym = best_card.symbol
    if last and tp <= 0:
        return f"Take the trick with the {s}: it holds no points"
    if last:
        return f"You must take this trick: shed your highest {suit_word}, the {s}"
    mine_over = k.hand & SUIT_MASKS[led] & ~((1 << best) - 1)
    if led == 2 and k.outstanding >> QS & 1 and c < QS:
        return f"Play the {s}: you can't go under the {bsym}, but stay below the queen of spades"
    if c == (mine_over & -mine_over).bit_length() - 1:
        return f"Play the {s}, your lowest {suit_word}: you can't go under the {bsym}, and a later player may still beat it"
    if c == mine_over.bit_length() - 1:
        return f"Play the {s}: you can't go under the {bsym}, so shed a high {suit_word} while the trick is clean"
    return (f"Play the {s}: you can't go under the {bsym}, and keeping your lower {suit_word}s "
            "lets you duck later")


def _describe_discard(k: Knowledge, card: Card, threat: int, led: int) -> str:
    """Why throw ``card`` away, void in the suit ``led``."""
    c = card.index
    s = card.symbol
    cfg = k.cfg
    void = _SUIT_WORD[led]
    if threat >= 0 and not (1 << c) & cfg.moon_mask:
        return f"Throw the {s}: don't feed points to seat {threat}, who may shoot the moon"
    if threat >= 0:
        return f"Dump the {s} on this trick: seat {threat} must not take every point"
    if c == QS:
        return f"Dump the queen of spades: you are void in {void}"
    if c // 13 == 2 and c > QS:
        return f"Get rid of the {s} while the queen is out: you are void in {void}"
    if (1 << c) & HEARTS:
        return f"Dump the {s}: you are void in {void}"
    if cfg.jd and c == JD:
        return f"Throw the {s}: you are void in {void}"
    return f"Throw away the {s}: you are void in {void}"
