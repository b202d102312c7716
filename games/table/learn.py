"""Learn to play: one guided hand, with a note the first time each thing happens.

Which note applies is decided here from the learner's view and the table's log (public events
only), so nothing is stored: a note is shown while its moment lasts — until the learner's next
move — and because that moment happens once per hand (the first pass, the first time following
suit, hearts being broken...), each note is seen once per table.
"""
from __future__ import annotations

from dataclasses import dataclass

from games.engine import Card, Rules

# A fixed, friendly deal: the learner (seat 0) holds the 2♣ and gets to lead, no high spades,
# a short suit to run out of, and a few hearts.
LESSON_SEED = 20240687
LESSON_BOT_LEVEL = "easy"


def lesson_rules() -> Rules:
    """One hand: any score ends the game (the lowest score wins; a tie is shared)."""
    return Rules(players=4, target=1, ties="share")


@dataclass(frozen=True)
class Note:
    key: str
    title: str
    text: str


QUEEN = Card.parse("QS")
_FIRST_TRICK = Note(
    "first_trick", "The first trick",
    "No points on the first trick: nobody may play a heart or the Q♠ on it, unless they hold nothing else.",
)


def _name(names: dict[int, str], seat: int, me: int) -> str:
    return "You" if seat == me else names.get(seat, f"Seat {seat}")


def notes(view, steps, names: dict[int, str]) -> list[Note]:
    """The notes for the learner now: ``view`` is their PlayerView, ``steps`` the table's log
    (``games.table.history.Step``: seat, kind, card, public events), ``names`` seat -> name."""
    me = view.seat
    mine = [i for i, step in enumerate(steps) if step.seat == me]
    window = steps[mine[-1]:] if mine else steps
    out = _what_happened([event for step in window for event in step.events], steps, names, me)
    my_turn = me in view.to_act
    if view.phase == "pass" and my_turn:
        target = names.get(view.pass_target, "the next player")
        out.insert(0, Note(
            "passing", "Passing 3 cards",
            f"Before the first trick everyone passes 3 cards — this hand to the left, to {target}. "
            "Pass the cards you least want: the Q♠, the A♠ and K♠ (they can end up taking the queen) "
            "and high hearts. Tap 3 cards, then press Pass.",
        ))
    if view.phase != "play" or not my_turn:
        return out
    return out + _your_play(view, steps)


def _what_happened(events: list[dict], steps, names: dict[int, str], me: int) -> list[Note]:
    """Notes on ``events``, what happened since the learner's last move."""
    out: list[Note] = []
    for event in events:
        if event["type"] == "hearts_broken":
            who = _name(names, event["seat"], me)
            card = Card.parse(event["card"]).symbol
            out.append(Note(
                "hearts_broken", "Hearts are broken",
                f"{who} broke hearts by playing the {card}. From now on anyone may lead a heart.",
            ))
        elif event["type"] == "card_played" and event["card"] == str(QUEEN):
            who = _name(names, event["seat"], me)
            out.append(Note(
                "queen", "The queen of spades",
                f"{who} played the Q♠ — it is worth 13 points to whoever takes this trick. "
                "Avoid winning a trick it is in; getting rid of it on someone else's trick is a great move.",
            ))
    first_points = next(
        (event for step in steps for event in step.events if event["type"] == "trick_won" and event["points"]), None
    )
    if first_points is not None and any(event is first_points for event in events):
        who = _name(names, first_points["seat"], me)
        points = first_points["points"]
        out.append(Note(
            "points", "Taking points",
            f"{who} took the first points of the hand: {points} point{'s' if points != 1 else ''}. "
            "Every heart you take is 1 point and the Q♠ 13; the lowest score wins, so take as few as you can.",
        ))
    scored = next((event for event in events if event["type"] == "deal_scored"), None)
    if scored is not None:
        points = scored["points"]
        line = ", ".join(f"{_name(names, seat, me)} {p}" for seat, p in enumerate(points))
        out.append(Note(
            "scoring", "Scoring the hand",
            f"The hand is over: {line}. In a real game deals go on until someone reaches "
            f"100 points; whoever has the lowest score then wins.",
        ))
        shooter = scored["moon_shooter"]
        if shooter is not None:
            who = _name(names, shooter, me)
            out.append(Note(
                "moon", "Shooting the moon",
                f"{who} shot the moon — took every heart and the Q♠ — so instead of 26 points for them, "
                "everyone else scores 26.",
            ))
        else:
            out.append(Note(
                "moon", "Shooting the moon",
                "A bold plan for later: take every heart and the Q♠ in one hand (\"shooting the moon\") and "
                "you score 0 while everyone else scores 26.",
            ))
    return out


def _your_play(view, steps) -> list[Note]:
    """Notes on the card the learner is to play, the first time each case comes."""
    me = view.seat
    rules = view.rules
    out: list[Note] = []
    my_plays = [step for step in steps if step.seat == me and step.kind == "play"]
    if view.received and not my_plays:
        out.append(Note(
            "received", "Cards passed to you",
            "The cards with a dot were passed to you. The dot goes away after your first play.",
        ))
    trick = view.current_trick
    my_follows = [t for t in view.tricks if t.leader != me and any(seat == me for seat, _ in t.plays)]
    if not trick:
        return out + _your_lead(view)
    suit = trick[0][1].suit
    can_follow = any(card.suit == suit for card in view.hand)
    if not my_follows:
        if can_follow:
            text = (f"{suit.plural.capitalize()} were led, so you must follow suit: play one of your "
                    f"{suit.plural}. The highest {suit.plural[:-1]} wins the trick. "
                    "Cards you can't play are dimmed — tap one to see why.")
        else:
            text = (f"{suit.plural.capitalize()} were led and you have none, so you may play any other card. "
                    "Cards you can't play are dimmed — tap one to see why.")
        out.append(Note("follow_suit", "Following suit", text))
    if view.is_first_trick and not rules.first_trick_points:
        out.append(_FIRST_TRICK)
    elif not can_follow and not view.voids[me]:
        out.append(Note(
            "void", "Out of a suit",
            f"You have no {suit.plural}, so you may play any card — a great chance to get rid of the Q♠ "
            "or a high heart on someone else's trick.",
        ))
    return out


def _your_lead(view) -> list[Note]:
    """Notes on leading a trick: the first one, and the first the learner leads after it."""
    me = view.seat
    out: list[Note] = []
    if view.is_first_trick:
        out.append(Note(
            "first_lead", "Leading the first trick",
            "You hold the 2♣, so you start: the 2♣ leads the first trick. "
            "Everyone else must play a club if they can.",
        ))
        if not view.rules.first_trick_points:
            out.append(_FIRST_TRICK)
    else:
        my_leads = [t for t in view.tricks[1:] if t.leader == me]
        if not my_leads:
            has_heart = any(card.suit == "H" for card in view.hand)
            if not view.hearts_broken and has_heart and any(card.suit != "H" for card in view.hand):
                text = ("You took the last trick, so you lead the next one. Hearts are not broken yet, "
                        "so you may not lead a heart — those cards are dimmed (tap one to see why).")
            else:
                text = ("You took the last trick, so you lead the next one. "
                        "A low card is a safe lead: someone else will probably have to win it.")
            out.append(Note("leading", "Leading", text))
    return out


