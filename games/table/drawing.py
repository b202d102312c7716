"""The table a seat sees, drawn from plain facts: the one renderer of the table.

No Django here (the server's tables are drawn by :mod:`games.presenters`, which gathers the
facts of a stored table; the browser's offline table by :mod:`games.table.offline`), so solo,
live and offline tables are drawn by the same code and templates.

:func:`draw` draws a table's parts (sent when they change) and :class:`TableDrawing`
lays out the whole table from them (when a page opens or a socket connects). Everything in
them comes from the engine's ``view(seat)`` of that seat plus public events, never another
seat's cards.

>>> from games.engine import Game, Rules
>>> from games.table.history import game_with_history
>>> game, steps = game_with_history(Game.new(Rules(), seed=1).to_dict())
>>> people = tuple(Person(name) for name in ("Sam", "Ada", "Ben", "Cleo"))
>>> facts = TableFacts(table_id=0, version=0, people=people)
>>> drawing = draw(table_context(facts, game, steps, game.view(0)))
>>> sorted(drawing.parts)[:3], drawing.context["status_text"]
(['t-alert', 't-announce', 't-bar'], 'Choose 3 cards to pass to the left to Ada.')
"""
from __future__ import annotations

import bisect
import collections
import functools
import json
import operator
import re
from dataclasses import dataclass, field

from jinja2 import meta, nodes
from markupsafe import Markup

from games.table import conduct, learn
from games.engine import Card, Game, PassDirection, Rules, Suit, Trick
from games.table.history import Step
from games.table.templating import table_templates


@dataclass(frozen=True)
class Person:
    """Who sits in a seat, as the table shows them."""

    name: str
    subtitle: str = ""
    is_bot: bool = False
    is_person: bool = True
    connected: bool = True
    standing_in: bool = False
    resigned: bool = False
    computer_plays: bool = False
    counted_as_left: bool = False  # the result ranks them below everyone who stayed (games.table.conduct)
    rating: str = ""  # at a rated live table: "1523", or "1500?" while provisional


@dataclass(frozen=True)
class TableFacts:
    """What drawing a table needs besides its game: plain values (``kind`` and ``status`` as
    ``games.models.Table`` spells them; ``turn_deadline`` an ISO time or None; ``urls`` the
    table's links, as in ``presenters``; ``people`` by seat number; ``rating_changes`` by seat
    number, each drawn by ``presenters._rating_change``)."""

    table_id: int
    version: int
    people: tuple[Person, ...]
    kind: str = "solo"
    status: str = "playing"
    live: bool = False
    rated: bool = False
    watchers: int = 0
    end_reason: str = ""
    turn_deadline: "str | None" = None
    turn_timer_seconds: "int | None" = None
    rules_lines: tuple[str, ...] = ()
    urls: dict = field(default_factory=dict)
    rating_changes: dict = field(default_factory=dict)


POSITIONS = {
    2: ("left", "right"),
    3: ("left", "top", "right"),
    4: ("left", "top-left", "top-right", "right"),
    5: ("left", "top-left", "top", "top-right", "right"),
}

DIRECTION_WORDS = {
    PassDirection.LEFT: "to the left",
    PassDirection.RIGHT: "to the right",
    PassDirection.ACROSS: "across",
}


def card_info(card: Card, **extra) -> dict:
    """A card for templates; ``face`` is its markup (the face is drawn by the stylesheet from
    the card's ``data-card``; the name is for screen readers)."""
    info = dict(_card_values(str(card)))
    info.update(extra)
    return info


def _colour(suit: Suit) -> str:
    return "red" if suit.value in ("H", "D") else "black"


@functools.cache
def _card_values(code: str) -> dict:
    card = Card.parse(code)
    values = {
        "code": code,
        "symbol": card.symbol,
        "rank": card.symbol[:-1],
        "suit": card.suit.symbol,
        "suit_letter": card.suit.value,
        "color": _colour(card.suit),
        "name": card.name,
    }
    # Drawn once per card and process: a table shows up to 30 cards, for every seat at every move.
    values["face"] = Markup('<i class="pc-face"></i><span class="sr-only">{}</span>').format(card.name)
    return values


CARD_BACK = "<i></i>"  # drawn by the stylesheet (.backs i); short, as plates are sent at every move


@functools.cache
def card_backs_html(count: int) -> str:
    return Markup(CARD_BACK * count)


def _join(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _deal_summary(steps: list[Step], deal: int, names: dict[int, str], me: int | None, players: int, value: int) -> dict | None:
    """Who took what in ``deal`` (public: the tricks and the scores), from the log's events."""
    taken = [0] * players
    tricks = [0] * players
    scored = None
    for step in steps:
        if step.deal != deal:
            continue
        for event in step.events:
            if event["type"] == "trick_won":
                taken[event["seat"]] += event["points"]
                tricks[event["seat"]] += 1
            elif event["type"] == "deal_scored":
                scored = event
    if scored is None:
        return None
    shooter = scored["moon_shooter"]
    rows = []
    for seat in range(players):
        rows.append({
            "seat": seat,
            "name": "You" if seat == me else names.get(seat, f"Seat {seat}"),
            "is_me": seat == me,
            "tricks": tricks[seat],
            "taken": taken[seat],
            "points": scored["points"][seat],
            "total": scored["scores"][seat],
            "shot_moon": seat == shooter,
        })
    moon_text = ""
    if shooter is not None:
        who = "You" if shooter == me else names.get(shooter, f"Seat {shooter}")
        choice = scored.get("moon_choice")
        if choice == "subtract":
            how = f"and took {value} off their score" if shooter != me else f"and took {value} off your score"
        elif choice == "add":
            how = f"and everyone else scores {value}"
        else:
            how = ""
        moon_text = f"{who} shot the moon{(' ' + how) if how else ''}!"
    return {
        "deal": deal,
        "rows": rows,
        "moon_text": moon_text,
        "moon_shooter": shooter,
    }


def _seat_dicts(people: tuple[Person, ...], view, me: int, you: int | None) -> tuple[dict, list[dict], dict[int, dict]]:
    n = view.players
    positions = POSITIONS[n - 1]
    out = {}
    trick_cards = dict(view.current_trick)
    for number in range(n):
        person = people[number]
        offset = (number - me) % n
        out[number] = {
            "number": number,
            "name": "You" if number == you else person.name,
            "full_name": person.name,
            "subtitle": person.subtitle,
            "is_me": number == you,
            "is_bot": person.is_bot,
            "is_person": person.is_person,
            "connected": person.connected,
            "standing_in": person.standing_in,
            "resigned": person.resigned,
            "computer_plays": person.computer_plays,
            "rating": person.rating,
            "hand_size": view.hand_sizes[number],
            "backs": card_backs_html(min(view.hand_sizes[number], 13)),
            "points_taken": view.points_taken[number],
            "score": view.scores[number],
            "position": "bottom" if number == me else positions[offset - 1],
            "to_act": number in view.to_act,
            "has_passed": number in view.passed_done,
            "is_dealer": number == view.dealer,
            "is_leader": number == view.leader and view.phase == "play",
            "trick_card": card_info(trick_cards[number]) if number in trick_cards else None,
        }
    opponents = [out[(me + k) % n] for k in range(1, n)]
    return out[me], opponents, out


def table_context(table: TableFacts, game: Game, steps: list[Step], view, *, spectator: bool = False,
                  hint=None, error: str | None = None) -> dict:
    """Everything the table shows to the seat of ``view`` (``game.view(seat)``, or
    ``game.public_view(seat)`` for someone watching from that seat's place), from that view,
    the public ``steps`` of the game and the ``table``'s facts.

    Keys (all plain values, safe to hand to any template):

    - ``table_id``, ``version``, ``kind``, ``status``, ``live``, ``is_learn``, ``seat`` (the
      viewer's seat number), ``phase``, ``deal_number``, ``hearts_broken``, ``my_turn``,
      ``is_over``, ``error``.
    - ``me``, ``opponents`` (clockwise from the viewer's left) and ``seats`` (by number): dicts
      with ``name``, ``subtitle``, ``is_bot``, ``is_person``, ``connected``, ``standing_in``,
      ``hand_size``, ``points_taken``, ``score``, ``position``, ``to_act``, ``has_passed``,
      ``is_dealer``, ``trick_card``; ``score_list``, each seat's ``name``, ``score`` and
      ``is_me`` by seat number, for the scoreboard.
    - ``hand``: the viewer's cards (``code``, ``symbol``, ``rank``, ``suit``, ``color``,
      ``legal``, ``why`` — why it cannot be played now, ``received`` — passed to you,
      ``hinted``; the stylesheet fans them by their place in the hand).
    - ``trick`` (cards on the table by seat), ``last_trick`` (the trick just taken, while no
      card of the next is down; the last of a deal until you act in the next or a card of it
      is played),
      ``previous_trick`` (the trick taken last, of the deal before until one is taken in this;
      its ``of_deal`` says which deal it ended when it is not this one),
      ``passing`` (direction, target name, label, whether you passed, what you passed),
      ``moon`` (choices for the shooter), ``deal_summary``, ``game_over`` (its ``rematch``
      is the caller's to fill in), ``status_text``, ``announcement`` (the last action and
      the status, for screen readers), ``turn_deadline`` (ISO time or None: show a
      countdown), ``hint``, ``notes`` (learn mode), ``rules_lines``, ``score_sheet`` (each
      scored deal's ``points`` by seat, and its ``moon`` shooter), and the table's URLs.
    """
    # ``me``: the seat at the bottom of the table; ``you``: the viewer's seat, None for someone
    # watching, who sees the table from seat ``me``'s place and only what is public.
    me = view.seat
    you = None if spectator else me
    n = view.players
    me_dict, opponents, seats = _seat_dicts(table.people, view, me, you)
    names = {number: info["full_name"] for number, info in seats.items()}
    ended = table.status in ("finished", "abandoned")
    this_deal = _steps_of_deal(steps, view.deal_number)
    yours = _yours(view, game, steps, this_deal, seats, names, you, ended, hint)
    trick, last_trick, previous_trick = _tricks_shown(view, steps, this_deal, seats, you)
    game_over = _game_over(table, view, seats, you) if view.phase == "over" or ended else None
    status_text = _status_text(view, seats, you, ended, table)
    context = {
        **_about_the_table(table, spectator, ended),
        **yours,
        "seat": me,
        "players": n,
        "phase": view.phase,
        "deal_number": view.deal_number,
        "hearts_broken": view.hearts_broken,
        "pass_direction": str(view.pass_direction),
        "pass_direction_text": _direction_text(view, names),
        "turn": " ".join(str(s) for s in view.to_act) if not ended else "",
        "is_over": view.phase == "over" or ended,
        "error": error,
        "me": me_dict,
        "opponents": opponents,
        "seats": seats,
        "score_list": [{"name": seats[s]["name"], "score": seats[s]["score"], "is_me": seats[s]["is_me"]}
                       for s in range(n)],
        "score_sheet": _score_sheet(steps),
        "trick": trick,
        "last_trick": last_trick,
        "previous_trick": previous_trick,
        "game_over": game_over,
        "status_text": status_text,
        "announcement": _announcement(steps[-1] if steps else None, seats, status_text, view.deal_number)
                        + (f" {game_over['winners_text']}" if game_over else ""),
        # Shown by the stylesheet only while it is your turn (#table.my-turn), so that a change
        # of turn does not send the hand again.
        "can_hint": not table.live and not spectator and view.phase in ("pass", "play", "moon_choice"),
        **_cards_aside(view, seats, table.live),
        "target": view.rules.target,
    }
    context["notes"] = learn.notes(view, steps, names) if table.kind == "learn" else []
    return context


def _yours(view, game: Game, steps: list[Step], this_deal: list[Step], seats: dict[int, dict], names: dict[int, str],
           you: "int | None", ended: bool, hint) -> dict:
    """What of the table is the viewer's own (``you``; None for a watcher): their hand, with
    the cards passed to them marked until their first play, whether it is their turn, their
    pass, the cards they received, the moon's choice, the hint and the last deal's summary.
    ``this_deal``: the steps of the deal in progress."""
    # What the viewer has done this deal: the passed-card dots last until their first play.
    my_steps_this_deal = [s for s in this_deal if s.seat == you]
    played_this_deal = any(s.kind == "play" for s in my_steps_this_deal)
    received = set(view.received or ()) if view.phase == "play" and not played_this_deal else set()
    hint_info = _hint(hint)
    hinted_codes = set(hint_info["codes"]) if hint_info else set()
    my_turn = you in view.to_act and not ended
    hand, hand_why = _hand(view, game, names, my_turn, ended, received, hinted_codes)
    return {
        "my_turn": my_turn,
        "hand": hand,
        "hand_size": len(view.hand),
        "hand_why": hand_why,
        "passing": _passing(view, seats, names) if view.phase == "pass" and not ended and you is not None else None,
        "received": (_received(view, names) if view.phase == "play" and view.received and not played_this_deal
                     else None),
        "moon": _moon(view, seats, names, you, hint_info) if view.phase == "moon_choice" and not ended else None,
        "deal_summary": _last_deal_shown(view, steps, names, you, ended, acted_this_deal=bool(my_steps_this_deal)),
        "hint": hint_info,
    }


def _about_the_table(table: TableFacts, spectator: bool, ended: bool) -> dict:
    """What the table shows of itself, whoever looks: its kind, state, clock, rules and links."""
    return {
        "table_id": table.table_id,
        "version": table.version,
        "kind": table.kind,
        "status": table.status,
        "live": table.live,
        "spectator": spectator,
        "watchers": table.watchers,
        "rated": table.rated,
        "is_learn": table.kind == "learn",
        "turn_deadline": table.turn_deadline if not ended else None,
        "turn_timer_seconds": table.turn_timer_seconds,
        "rules_lines": table.rules_lines,
        **table.urls,
    }


def _tricks_shown(view, steps: list[Step], this_deal: list[Step], seats: dict[int, dict],
                  you: "int | None") -> tuple[list[dict], "dict | None", "dict | None"]:
    """The cards in the centre, the trick taken last while it is shown there (``last_trick``),
    and the trick taken last for the "Last trick" panel (``previous_trick``); ``this_deal``: the
    steps of the deal in progress.

    The trick taken last stays in the centre until the next card is led (drawn as the trick in
    progress was, with its caption added), and in the panel until the next trick is taken. The
    last trick of a deal is taken as the deal is scored and the next dealt: it stays in the
    panel until a trick of the new deal is taken, and in the centre until you act in the new
    deal or a card of it is played, so that it is seen whole like every other trick. Others'
    passes do not take it away: computers pass at once, and a page drawn a moment after the
    deal ended would otherwise never show the trick."""
    if view.tricks:
        taken_last, of_deal = view.tricks[-1], None
    elif view.deal_number > 1:
        taken_last, of_deal = _final_trick(steps, view.deal_number - 1), view.deal_number - 1
    else:
        taken_last, of_deal = None, None
    previous_trick = _taken_trick(taken_last, seats, view.rules, of_deal) if taken_last else None
    in_centre = (not view.current_trick and taken_last is not None
                 and (of_deal is None or not any(step.kind == "play" or step.seat == you for step in this_deal)))
    last_trick = previous_trick if in_centre else None
    trick = [
        {"seat": seat, "name": seats[seat]["name"], "position": seats[seat]["position"], "card": card_info(card),
         "led": i == 0}
        for i, (seat, card) in enumerate(view.current_trick or (taken_last.plays if last_trick and taken_last else ()))
    ]
    return trick, last_trick, previous_trick


def _last_deal_shown(view, steps: list[Step], names: dict[int, str], you: "int | None", ended: bool, *,
                     acted_this_deal: bool) -> "dict | None":
    """The last deal's result: shown once the game is over, and from the start of the next deal
    until your first move in it."""
    if view.phase == "over" or ended:
        return _deal_summary(steps, _last_scored_deal(steps), names, you, view.players, view.rules.deal_value)
    if view.deal_number > 1 and not acted_this_deal and not view.tricks:
        summary = _deal_summary(steps, view.deal_number - 1, names, you, view.players, view.rules.deal_value)
        if summary is not None:
            summary["goes_on"] = _why_the_game_goes_on(summary, view.rules.target)
        return summary
    return None


def _cards_aside(view, seats: dict[int, dict], live: bool) -> dict:
    """The cards out of the hands and the trick: the kitty, the cards removed from the deck,
    and (solo tables) the cards played, by suit."""
    return {
        "kitty": [card_info(card) for card in view.kitty],
        "kitty_size": view.kitty_size,
        # Face up once taken (with the deal's first trick).
        "kitty_taker": seats[view.kitty_taker]["name"] if view.kitty else None,
        "removed": [card_info(card) for card in view.removed],
        # Solo tables only: at a live table it would cost every seat bytes and drawing at every
        # card, against the live budget (tests.load), for an aid no rated game needs.
        "played_by_suit": None if live else _played_by_suit(view.played),
    }


# --------------------------------------------------------------------------- the table's parts


def _hint(hint) -> "dict | None":
    """The computer's advice (``bots.hint``) as the table shows it: the cards it names (their
    ``codes`` too), the moon choice, the reason."""
    if hint is None:
        return None
    action = hint.action
    if isinstance(action, Card):
        codes = {str(action)}
    elif isinstance(action, (list, tuple)):
        codes = {str(card) for card in action}
    else:
        codes = set()
    ordered = sorted(codes, key=Card.parse)
    return {
        "reason": hint.reason,
        "codes": ordered,
        "cards": [card_info(Card.parse(code)) for code in ordered],
        "choice": action if isinstance(action, str) else None,
    }


def _hand(view, game: Game, names: dict[int, str], my_turn: bool, ended: bool, received: set,
          hinted_codes: set[str]) -> tuple[list[dict], "str | None"]:
    """The viewer's cards, each playable or with the reason it is not, and the reason most of
    them share (told once, on the status line)."""
    me = view.seat
    playable = set(view.legal) if my_turn and view.phase in ("play", "pass") else set()
    reasons: dict[Card, str | None]
    if not my_turn:
        waiting = _not_your_turn(view, names, me, ended)
        reasons = {card: waiting for card in view.hand}
    elif view.phase == "play":
        reasons = {card: game.why_illegal(me, card) for card in view.hand if card not in playable}
    elif view.phase == "moon_choice":
        reasons = {card: "First choose how to score the moon." for card in view.hand}
    else:
        reasons = {}
    # Why a card cannot be played is told once for the hand (on the status line) when most
    # cards share it, and by a card only when its reason is another: while it is not your
    # turn the reason changes at every move, and the hand is then not sent again.
    hand_why = collections.Counter(reasons.values()).most_common(1)[0][0] if reasons else None
    hand = []
    for card in view.hand:
        why = reasons.get(card)
        hand.append(card_info(
            card,
            legal=card in playable,
            why=why if why != hand_why else "",
            received=card in received,
            hinted=str(card) in hinted_codes,
        ))
    return hand, hand_why


def _passing(view, seats: dict[int, dict], names: dict[int, str]) -> dict:
    """The viewer's pass: to whom, whether done, who is still choosing."""
    target = view.pass_target
    direction = DIRECTION_WORDS.get(view.pass_direction, "")
    target_name = names.get(target, "") if target is not None else ""
    waiting = [seats[s]["name"] for s in view.to_act if s != view.seat]
    return {
        "direction": str(view.pass_direction),
        "direction_words": direction,
        "target": target,
        "target_name": target_name,
        "label": f"Pass 3 cards {direction} ({target_name})",
        "done": view.passed is not None,
        "passed": [card_info(card) for card in view.passed or ()],
        "waiting_text": f"Waiting for {_join(waiting)} to pass." if waiting else "",
    }


def _received(view, names: dict[int, str]) -> dict:
    """The cards passed to the viewer, and by whom (shown until their first card)."""
    sender = (view.seat - view.pass_direction.offset(view.players)) % view.players
    return {
        "from_name": names.get(sender, ""),
        "cards": [card_info(card) for card in view.received],
        "passed": [card_info(card) for card in view.passed or ()],
    }


def _moon(view, seats: dict[int, dict], names: dict[int, str], you: "int | None", hint_info: "dict | None") -> dict:
    """A moon shot to score: the shooter's two choices with their results, or who is choosing."""
    shooter = view.moon_shooter
    value = view.rules.deal_value
    if shooter != you:
        return {"mine": False, "shooter_name": names.get(shooter, ""), "value": value}
    subtract_scores = [s + p for s, p in zip(view.scores, view.moon_outcomes["subtract"])]
    add_scores = [s + p for s, p in zip(view.scores, view.moon_outcomes["add"])]
    hinted = hint_info["choice"] if hint_info else None
    return {
        "mine": True,
        "value": value,
        "takes": view.rules.moon_takes,
        "options": [
            {"choice": "subtract", "label": f"Take {value} off my score",
             "result": _score_line(subtract_scores, seats), "hinted": hinted == "subtract"},
            {"choice": "add", "label": f"Everyone else scores {value}",
             "result": _score_line(add_scores, seats), "hinted": hinted == "add"},
        ],
    }


def _game_over(table: TableFacts, view, seats: dict[int, dict], you: "int | None") -> dict:
    """The end of the game: the standings, the winners, rating changes (``rematch`` is the
    caller's to fill in)."""
    left = {s for s in range(view.players) if table.people[s].counted_as_left}
    result = conduct.standings(view.scores, left)
    places = result.places
    order = sorted(range(view.players), key=lambda s: (places[s], view.scores[s], s))
    winners = list(result.winners) if view.phase == "over" else []
    changes = table.rating_changes
    return {
        "finished": view.phase == "over",
        "abandoned": table.status == "abandoned",
        "end_reason": table.end_reason,
        "winners": [seats[s]["name"] for s in winners],
        "winners_text": _winners_text(winners, seats, you),
        "i_won": you in winners,
        "standings": [
            {"place": places[s], "name": seats[s]["name"],
             "score": view.scores[s], "is_me": s == you, "won": s in winners, "rating": changes.get(s),
             "left": s in left}
            for s in order
        ],
        "rated": bool(changes),
        "my_rating": changes.get(you),
        "rematch": None,
    }


def _steps_of_deal(steps: list[Step], deal: int) -> list[Step]:
    """The steps of ``deal`` when it is the newest one (none if it has not begun). Found from
    the end: a whole game's history is long, and every seat is drawn at every move."""
    start = len(steps)
    while start and steps[start - 1].deal == deal:
        start -= 1
    return steps[start:]


def _why_the_game_goes_on(summary: dict, target: int) -> str:
    """Someone reached the target, yet the game goes on: the lowest score is shared (the
    rules' ``ties="continue"``). Said in words; "" when nobody reached the target."""
    totals = [row["total"] for row in summary["rows"]]
    if max(totals) < target:
        return ""
    lowest = min(totals)
    tied = _join([row["name"] for row in summary["rows"] if row["total"] == lowest])
    return (f"{tied} share the lowest score, {lowest}, so nobody has won yet: "
            f"the game goes on until one player alone has the lowest score.")


def _played_by_suit(played) -> list[dict]:
    """The cards played so far this deal (the card tracker; public): each suit's ranks, high
    to low.

    >>> [(row["suit"], row["ranks"]) for row in _played_by_suit({Card.parse("QS"), Card.parse("2S")})]
    [('♣', []), ('♦', []), ('♠', ['Q', '2']), ('♥', [])]
    """
    ranks: dict[Suit, list[str]] = {suit: [] for suit in Suit}
    for card in sorted(played, reverse=True):
        ranks[card.suit].append(_card_values(str(card))["rank"])
    return [{"suit": suit.symbol, "plural": suit.plural, "color": _colour(suit), "ranks": suit_ranks}
            for suit, suit_ranks in ranks.items()]


def _score_sheet(steps: list[Step]) -> list[dict]:
    """Each scored deal's points for every seat, in order (public: the ``deal_scored`` events),
    and who shot the moon in it. A deal is scored by its last step, found by bisection: every
    seat is drawn at every move, and a whole game's history is long."""
    rows = []
    for deal in range(1, (steps[-1].deal if steps else 0) + 1):
        last = steps[bisect.bisect_right(steps, deal, key=_deal_of) - 1]
        rows += [{"deal": deal, "points": event["points"], "moon": event["moon_shooter"]}
                 for event in last.events if event["type"] == "deal_scored"]
    return rows


_deal_of = operator.attrgetter("deal")


def _last_scored_deal(steps: list[Step]) -> int:
    for step in reversed(steps):
        if any(event["type"] == "deal_scored" for event in step.events):
            return step.deal
    return 1


@functools.lru_cache(maxsize=256)
def describe_rules(learning: bool, rules_json: str) -> tuple[str, ...]:
    """Drawn once per set of rules: every seat's table lists them at every move."""
    described = tuple(Rules.from_dict(json.loads(rules_json)).describe())
    if learning:
        return (
            "One practice hand against three friendly computer players.",
            "A real game goes on, deal after deal, until someone reaches 100 points; the lowest score wins.",
        ) + described[1:-1]
    return described


def _score_line(scores: list[int], seats: dict[int, dict]) -> str:
    return ", ".join(f"{seats[s]['name']} {score}" for s, score in enumerate(scores))


def _winners_text(winners: list[int], seats: dict[int, dict], me: int | None) -> str:
    if not winners:
        return "The game ended without a winner."
    if winners == [me]:
        return "You win!"
    names = [seats[s]["name"] for s in winners]
    if len(winners) == 1:
        return f"{names[0]} wins."
    return f"{_join(names)} share the win."


def _direction_text(view, names: dict[int, str]) -> str:
    direction = view.pass_direction
    if direction is PassDirection.HOLD:
        return "Hold deal: no passing"
    target = view.pass_target
    return f"Pass {DIRECTION_WORDS[direction]} → {names.get(target, '')}"


def _not_your_turn(view, names, me, ended) -> str:
    if ended or view.phase == "over":
        return "The game is over."
    if view.phase == "pass":
        return "You have passed; wait for the others."
    if view.phase == "moon_choice":
        return f"Wait for {names.get(view.moon_shooter, 'the shooter')} to score the moon."
    turn = view.to_act[0] if view.to_act else None
    return f"Wait for your turn — {names.get(turn, 'someone else')} is playing."


def _status_text(view, seats, me, ended, table) -> str:
    if table.status == "abandoned":
        return "This game was stopped" + (f": {table.end_reason}" if table.end_reason else ".")
    if ended or view.phase == "over":
        return "Game over."
    if view.phase == "pass":
        if me in view.to_act:
            target = seats[view.pass_target]["name"] if view.pass_target is not None else ""
            return f"Choose 3 cards to pass {DIRECTION_WORDS[view.pass_direction]} to {target}."
        waiting = [seats[s]["name"] for s in view.to_act]
        return f"Waiting for {_join(waiting)} to pass."
    if view.phase == "moon_choice":
        if view.moon_shooter == me:
            return "You shot the moon! Choose how to score it."
        return f"{seats[view.moon_shooter]['name']} shot the moon and is choosing how to score it."
    turn = view.to_act[0]
    if turn == me:
        if not view.current_trick:
            return "Your lead: play any highlighted card."
        suit = view.current_trick[0][1].suit
        if any(card.suit == suit for card in view.hand):
            return f"Your turn: follow {suit.plural}."
        return f"Your turn: you have no {suit.plural}, so play any highlighted card."
    name = seats[turn]["name"]
    if seats[turn]["computer_plays"]:
        return f"{name} is thinking…"
    return f"Waiting for {name} to play."


def _final_trick(steps: list[Step], deal: int) -> "Trick | None":
    """The last trick of ``deal``, from the public steps: the plays after the trick before it,
    found from the end (as :func:`_steps_of_deal`)."""
    plays: list[tuple[int, Card]] = []
    winner = None
    for step in reversed(steps):
        if step.deal > deal or step.kind != "play":
            continue
        won = next((event["seat"] for event in step.events if event["type"] == "trick_won"), None)
        if step.deal < deal or (plays and won is not None):
            break  # the deal before, or the trick before
        winner = won if not plays else winner
        plays.append((step.seat, Card.parse(step.card or "")))
    return Trick(plays[-1][0], tuple(reversed(plays)), winner) if plays and winner is not None else None


def _taken_trick(done, seats: dict[int, dict], rules, of_deal: "int | None" = None) -> dict:
    """A taken trick as drawn; ``of_deal``: the deal it ended, when it is not the current one."""
    points = sum(rules.card_points(card) for card in done.cards)
    winner = seats[done.winner]["name"]
    caption = _does(winner, "take", "takes") + " the trick"
    if of_deal is not None:
        caption = _does(winner, "take", "takes") + f" the last trick of deal {of_deal}"
    if points:
        caption += f" · {points} pt{'' if points == 1 else 's'}"
    return {
        "winner": done.winner,
        "winner_name": winner,
        "caption": caption,
        "points": points,
        "of_deal": of_deal,
        "plays": [
            {"seat": seat, "name": seats[seat]["name"], "position": seats[seat]["position"],
             "card": card_info(card), "won": seat == done.winner}
            for seat, card in done.plays
        ],
    }


def _does(name: str, your_verb: str, their_verb: str) -> str:
    """``name`` with the verb that fits it: "You take", "Ben takes"."""
    return f"{name} {your_verb if name == 'You' else their_verb}"


def _announcement(step: Step | None, seats: dict[int, dict], status_text: str, deal: int) -> str:
    """What a screen reader says after a change: the last action of this deal, in words, then
    the status. (The last action of the deal before is not repeated: its cards are dealt again.)"""
    said = []
    if step is not None:
        ended = step.deal != deal  # its cards are in new hands now: the card is not named
        name = seats[step.seat]["name"]
        if step.kind == "play" and not ended:
            said.append(_does(name, "play", "plays") + f" the {Card.parse(step.card or '').name}.")
        elif step.kind == "pass":
            said.append(_does(name, "pass", "passed") + " 3 cards.")
        said.extend(events_said(step.events, {number: seat["name"] for number, seat in seats.items()}))
    said.append(status_text)
    return " ".join(said)


def events_said(events, names: dict[int, str]) -> list[str]:
    """The public events of a move in words, for the table's announcement (what a screen reader
    says) and the replay's log alike: a trick taken, hearts broken, the passes done, a deal
    scored. ``names`` by seat ("You" for the viewer).

    >>> events_said([{"type": "trick_won", "seat": 1, "trick": 3, "points": 2}], {0: "You", 1: "Ben"})
    ['Ben takes trick 3, 2 points.']
    >>> events_said([{"type": "trick_won", "seat": 0, "trick": 13, "points": 0},
    ...              {"type": "deal_scored", "deal": 2, "points": [0, 26], "scores": [40, 26], "moon_shooter": None}],
    ...             {0: "You", 1: "Ben"})
    ['You take the last trick.', 'Deal 2 is over. This deal: You 0, Ben 26. Scores: You 40, Ben 26.']
    """
    last_of_deal = any(event["type"] == "deal_scored" for event in events)
    said = []
    for event in events:
        kind = event["type"]
        if kind == "trick_won":
            points = event["points"]
            said.append(_does(names[event["seat"]], "take", "takes")
                        + (" the last trick" if last_of_deal else f" trick {event['trick']}")
                        + (f", {points} point{'' if points == 1 else 's'}." if points else "."))
        elif kind == "hearts_broken":
            said.append("Hearts are broken.")
        elif kind == "passes_done":
            said.append("Everyone has passed.")
        elif kind == "deal_scored":
            said.append(f"Deal {event['deal']} is over. This deal: {_said_by_seat(names, event['points'])}. "
                        f"Scores: {_said_by_seat(names, event['scores'])}.")
            if event["moon_shooter"] is not None:
                said.append(f"{names[event['moon_shooter']]} shot the moon!")
    return said


def _said_by_seat(names: dict[int, str], values) -> str:
    """``values`` by seat, in words: "You 3, Ben 13, Cleo 0, Dev 10"."""
    return ", ".join(f"{names[seat]} {value}" for seat, value in enumerate(values))


TABLE_PARTS = ("state", "bar", "alert", "centre", "overlay", "status_line", "announce", "hint_box",
               "me_area", "coach", "scores", "previous_trick_panel", "score_sheet", "tracker")
"""The blocks of ``_table_parts.html`` drawn for every seat, besides one ``seat_plate`` per
other seat."""


@dataclass
class TableDrawing:
    """One seat's table: its ``parts`` by element id (``t-bar``, ``t-seat-2``, …; none before
    the game starts), and :meth:`whole`, the whole table laid out from those same parts.

    A socket is sent the whole table once, then only the parts that changed
    (:func:`changed_parts`).  ``part_ids`` names the part each block drew (a plate's block by
    its seat), so that the next drawing for the same seat takes a part whose inputs in
    ``context`` did not change instead of drawing it again (:func:`draw`)."""

    context: dict
    parts: dict[str, str]
    part_ids: dict[str, str] = field(default_factory=dict, repr=False)

    def whole(self) -> str:
        """HTML of the whole table; its root element is ``<div id="table">``.  A plain ``str``
        (text added to it is not escaped), safe to put in a page as it is: Jinja2 escaped what
        it printed."""
        parts = {part: Markup(html) for part, html in self.parts.items()}  # drawn by Jinja2, escaped
        return table_templates().get_template("games/table_fragment.html").render({**self.context, "parts": parts})


def changed_parts(sent: dict[str, str], parts: dict[str, str]) -> str | None:
    """The parts of ``parts`` that differ from those ``sent`` last, as one message ("" when
    none did); None when the two are not the same set of parts (the whole table must be sent).

    >>> changed_parts({"t-a": "<b id=t-a>1</b>"}, {"t-a": "<b id=t-a>2</b>"})
    '<b id=t-a>2</b>'
    >>> changed_parts({"t-a": "<b id=t-a>1</b>"}, {}) is None
    True
    """
    if not sent or sent.keys() != parts.keys():
        return None
    return "".join(part_change(sent[part], html) for part, html in parts.items() if sent[part] != html)


TRICK_OPEN = '<div class="trick" id="t-trick" role="group" aria-label="Cards on the table">'
TRICK_CARD = '<div class="trick-card '
TRICK_CARD_END = "</div></div>"  # a trick card's own element and the card in it


def part_change(old: str, new: str) -> str:
    """What to send for a part of the table that was ``old`` and is ``new``: ``new`` itself,
    or less when that says the same:

    - when the only change is cards added to the trick in progress, just those cards, to be
      added to the end of ``#t-trick`` (htmx's out-of-band swap ``beforeend``);
    - in your hand and the other seats' plates, when the only change is pieces (:data:`PIECE`)
      that changed or left, those pieces, and for each piece gone an empty element that says
      so (the out-of-band swap ``delete``).

    Every other element of a frame replaces the one with its id (``games/table.js`` hands a
    frame to ``htmx.swap``, whose out-of-band swaps do all three). What changed is worked out
    here because htmx has no way to tell it: sending each changed part whole instead would
    send a whole hand for every card played.

    >>> old = '<div id="t-centre">' + TRICK_OPEN + '<div class="trick-card a"><i></i></div></div></div></div>'
    >>> new = old.replace('</div></div></div></div>', '</div></div><div class="trick-card b"><i></i></div></div></div></div>')
    >>> part_change(old, new)
    '<div id="t-trick" hx-swap-oob="beforeend"><div class="trick-card b"><i></i></div></div></div>'
    >>> part_change(old, '<div id="t-centre"></div>')
    '<div id="t-centre"></div>'
    >>> hand = '<div id="t-me"><p>You</p><div class="hand">{}</div></div>'.format
    >>> idle = '<button id="card-2C" class="dimmed">2C</button><button id="card-QS" class="dimmed">QS</button>'
    >>> part_change(hand(idle), hand('<button id="card-2C" class="legal">2C</button><button id="card-QS" class="dimmed">QS</button>'))
    '<button id="card-2C" class="legal">2C</button>'
    >>> part_change(hand(idle), hand('<button id="card-QS" class="dimmed">QS</button>'))
    '<i id="card-2C" hx-swap-oob="delete"></i>'
    >>> part_change(hand(idle), hand(idle).replace('You', 'You, dealer'))[:14]
    '<div id="t-me"'
    """
    if old.startswith(PIECED_PARTS):
        return _pieces_change(old, new) or new
    start = old.find(TRICK_OPEN)
    if start < 0 or len(new) <= len(old):
        return new
    end = start + len(TRICK_OPEN)
    while old[end:end + 1].isspace():
        end += 1
    while old.startswith(TRICK_CARD, end):
        end = old.index(TRICK_CARD_END, end) + len(TRICK_CARD_END)
    added = new[end:len(new) - (len(old) - end)]
    if added.startswith(TRICK_CARD) and new == old[:end] + added + old[end:]:
        return f'<div id="t-trick" hx-swap-oob="beforeend">{added}</div>'
    return new


PIECED_PARTS = ('<div id="t-me"', '<div id="t-seat-', '<details id="t-tracker"')
PIECE = re.compile(r'(<(button|label|span|div) id="(card-\w\w|me-stats|t-seat-\d-(?:backs|count|taken)|t-tracker-\d)".*?</\2>)', re.S)
"""A piece of your hand, of another seat's plate or of the card tracker that changes alone
(``me_area``, ``seat_plate`` and ``tracker`` in ``_table_parts.html``): a card of your hand, the
line of your points under it; the backs of another seat's cards, how many it holds, its points;
a suit's cards played. None holds an element of its own kind. Groups: the piece, its tag, its
id."""


def _pieces_change(old: str, new: str) -> "str | None":
    """The pieces (:data:`PIECE`) of ``new`` that differ from those of ``old``, and a
    ``delete`` swap for each piece gone (a card played); None when anything else
    changed, or a piece came or moved."""
    old_split, new_split = PIECE.split(old), PIECE.split(new)  # text, piece, tag, id, text, ...
    if "".join(old_split[::4]) != "".join(new_split[::4]):
        return None  # what is around the pieces changed
    olds = dict(zip(old_split[3::4], old_split[1::4]))
    news = list(zip(new_split[3::4], new_split[1::4]))
    new_ids = {key for key, _ in news}
    if [key for key in olds if key in new_ids] != [key for key, _ in news]:
        return None
    return "".join([html for key, html in news if olds[key] != html]
                   + [f'<i id="{key}" hx-swap-oob="delete"></i>' for key in olds if key not in new_ids])


def _part_id(html: str) -> str:
    start = html.index(' id="') + 5
    return html[start:html.index('"', start)]


def draw(context: dict, before: "TableDrawing | None" = None) -> TableDrawing:
    """Draw each part of the table of ``context`` (:func:`table_context`) once: each is a block
    of ``_table_parts.html``, rendered alone.

    ``before`` is this seat's last drawing (the one its socket was sent): a part whose inputs
    (:func:`block_inputs`) are equal to those it was drawn from there is taken from it, not
    drawn again.  At a move most parts of a seat's table do not change: the other seats'
    plates, the scores, and the hand of a seat whose turn neither came nor went.  The result
    is the same as without ``before`` (``tests/games/test_drawing.py``).
    """
    template = table_templates().get_template("games/_table_parts.html")
    blocks = template.blocks
    inputs = block_inputs()
    seen = None
    parts: dict[str, str] = {}
    part_ids: dict[str, str] = {}
    for key, block, seat in [(name, name, None) for name in TABLE_PARTS] + [
        (f"seat_plate {seat['number']}", "seat_plate", seat) for seat in context["opponents"]
    ]:
        part_id = before.part_ids.get(key) if before is not None else None
        if before is None or part_id is None or not _same_inputs(inputs[block], before.context, context, seat):
            if seen is None:
                seen = template.new_context(context)
            html = "".join(blocks[block](seen if seat is None else seen.derived({"seat": seat})))
            part_id = _part_id(html)
        else:
            html = before.parts[part_id]
        parts[part_id] = html
        part_ids[key] = part_id
    return TableDrawing(context, parts, part_ids)


_MISSING = object()


def _same_inputs(reads, old: dict, new: dict, seat: "dict | None") -> bool:
    """Whether a block that ``reads`` (:func:`block_inputs`) reads the same of the context
    ``new`` as of ``old``; for a plate, ``seat`` (of ``new``) is its seat, the seat of the
    same number in ``old``."""
    for name, attributes in reads:
        if seat is not None and name == "seat":
            was, now = old["seats"].get(seat["number"], _MISSING), seat
        else:
            was, now = old.get(name, _MISSING), new.get(name, _MISSING)
        if was is now:
            continue
        if attributes is None or type(was) is not dict or type(now) is not dict:
            if was != now:
                return False
        else:
            for attribute in attributes:
                if was.get(attribute, _MISSING) != now.get(attribute, _MISSING):
                    return False
    return True


@functools.cache
def block_inputs() -> dict[str, tuple[tuple[str, "tuple[str, ...] | None"], ...]]:
    """What each block of ``_table_parts.html`` reads of its context, found in the template
    itself: ``(name, attributes)`` pairs, the attributes read of ``name`` when the block only
    ever reads ``name.attribute``, else None (all of it).

    >>> dict(block_inputs()["announce"])
    {'announcement': None}
    >>> dict(block_inputs()["seat_plate"])["seat"][:3]
    ('backs', 'connected', 'hand_size')
    """
    environment = table_templates()
    assert environment.loader is not None
    source = environment.loader.get_source(environment, "games/_table_parts.html")[0]
    found = {}
    for block in environment.parse(source).find_all(nodes.Block):
        body = nodes.Template(block.body, lineno=block.lineno)
        body.set_environment(environment)
        names = meta.find_undeclared_variables(body)
        loads = collections.Counter(node.name for node in body.find_all(nodes.Name) if node.ctx == "load")
        attributes: dict[str, set[str]] = collections.defaultdict(set)
        read_as_attribute: collections.Counter[str] = collections.Counter()
        for node in body.find_all(nodes.Getattr):
            if isinstance(node.node, nodes.Name):
                attributes[node.node.name].add(node.attr)
                read_as_attribute[node.node.name] += 1
        found[block.name] = tuple(
            (name, tuple(sorted(attributes[name]))
             if read_as_attribute[name] == loads[name] and not any(hasattr(dict, a) for a in attributes[name])
             else None)
            for name in sorted(names)
        )
    return found
