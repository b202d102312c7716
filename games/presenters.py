"""What a seat sees at a table, ready for a template: the one renderer of the table.

Solo and live tables alike are drawn by :func:`draw_table`: the table's parts (sent when they
change) and the whole table laid out from them (when a page opens or a socket connects;
:func:`render_table`). Everything in them comes from the engine's ``view(seat)`` of that seat
plus public events, never another seat's cards.

The table's forms use ``ws-send``; the htmx ws extension sends their fields as JSON, and the
page's script (``games/table.js``) adds the version the player saw::

    {"action": "play", "card": "QS", "version": 17}
    {"action": "pass", "cards": ["2C", "3C", "4C"], "version": 3}
    {"action": "moon", "choice": "subtract", "version": 60}
    {"action": "hint"}

:mod:`live.consumers` applies them through ``services.submit_action``;
``submit_fields(table_id, seat_number, data, user=user)`` does the same for the HTTP form
(script off) and returns the player-facing error or None.
"""
from __future__ import annotations

import collections
import functools
import json
from dataclasses import dataclass

from django.template import engines
from django.template.backends.utils import csrf_input_lazy
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.urls import reverse

from games import bots, learn, services, snapshots
from games.engine import Card, Game, PassDirection, Rules
from games.models import Seat, Table
from games.protocol import BadMove, parse_move
from games.snapshots import Snapshot, Step, game_with_history
from ratings.models import PROVISIONAL_GAMES

# Friendly names for computer seats (seat number -> name); the level is shown beside it.
SEAT_NAMES = bots.COMPUTER_NAMES[:6]

# Where the other seats sit around you, clockwise from your left, by how many there are.
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


# --------------------------------------------------------------------------- the log, replayed


def game_at(state: dict, ply: int) -> tuple[Game, Step | None]:
    """The game after ``ply`` actions and the step that led there (None at the start)."""
    game, steps = game_with_history(state, ply)
    return game, steps[-1] if steps else None


# --------------------------------------------------------------------------- small values


def card_info(card: Card, **extra) -> dict:
    """A card for templates; ``face`` is its markup (``games/_card.html``)."""
    info = dict(_card_values(str(card)))
    info.update(extra)
    return info


@functools.cache
def _card_values(code: str) -> dict:
    card = Card.parse(code)
    values = {
        "code": code,
        "symbol": card.symbol,
        "rank": card.symbol[:-1],
        "suit": card.suit.symbol,
        "suit_letter": card.suit.value,
        "color": "red" if card.suit.value in ("H", "D") else "black",
        "name": card.name,
    }
    # Drawn once per card and process: a table shows up to 30 cards, for every seat at every move.
    values["face"] = mark_safe(render_to_string("games/_card.html", {"c": values}))
    return values


CARD_BACK = "<i></i>"  # drawn by the stylesheet (.backs i); short, as plates are sent at every move


def card_backs_html(count: int) -> str:
    return mark_safe(CARD_BACK * count)


def seat_name(seat: Seat) -> str:
    if seat.user_id:
        return seat.user.public_name
    if seat.bot_level:
        return SEAT_NAMES[seat.number % len(SEAT_NAMES)]
    return "Empty seat"


def seat_subtitle(seat: Seat) -> str:
    if seat.user_id and seat.resigned:
        return "Left the game; a computer plays"
    if seat.user_id and seat.standing_in:
        return "Computer playing for them"
    if seat.user_id:
        return "Player"
    if seat.bot_level:
        return f"{seat.get_bot_level_display()} computer"
    return ""


def seat_names(table: Table) -> dict[int, str]:
    return {seat.number: seat_name(seat) for seat in table.seats.all()}


def _join(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def submit_fields(table_id: int, seat_number: int, data, *, user=None) -> str | None:
    """Apply what a client sent (HTTP POST or ws frame) for a seat; the player-facing error or None."""
    try:
        action, version = parse_move(data)
    except BadMove as problem:
        return str(problem)
    try:
        services.submit_action(table_id, seat_number, action, expected_version=version, user=user)
    except services.ActionRejected as rejected:
        return str(rejected)
    return None


# --------------------------------------------------------------------------- the table context


def _urls(table: Table) -> dict:
    return _table_urls(table.pk, table.code)


@functools.lru_cache(maxsize=4096)
def _table_urls(table_id: int, table_code: str) -> dict:
    def url(name, *args):
        return reverse(name, args=args)

    return {
        "page_url": url("solo:table", table_id),
        "action_url": url("solo:act", table_id),
        "replay_url": url("solo:replay", table_id),
        "new_game_url": url("solo:new"),
        "learn_url": url("solo:learn"),
        "my_games_url": url("solo:my_games"),
        "lobby_url": url("live:lobby"),
        "resign_url": url("live:resign", table_code),
        "new_room_url": url("live:lobby") + "#create-room",
    }


def _deal_summary(steps: list[Step], deal: int, names: dict[int, str], me: int, players: int, value: int) -> dict | None:
    """Who took what in ``deal`` (public: the tricks and the scores), from the log's events."""
    taken = [0] * players
    tricks = [0] * players
    scored = None
    last_trick = None
    for step in steps:
        if step.deal != deal:
            continue
        for event in step.events:
            if event["type"] == "trick_won":
                taken[event["seat"]] += event["points"]
                tricks[event["seat"]] += 1
                last_trick = event
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
        "last_trick_cards": [card_info(Card.parse(code)) for code in (last_trick or {}).get("cards", [])],
    }


def _seat_dicts(seat_rows: list[Seat], view, me: int, you: int | None) -> tuple[dict, list[dict], dict[int, dict]]:
    seats = {seat.number: seat for seat in seat_rows}
    n = view.players
    positions = POSITIONS[n - 1]
    out = {}
    trick_cards = dict(view.current_trick)
    for number in range(n):
        seat = seats[number]
        offset = (number - me) % n
        out[number] = {
            "number": number,
            "name": "You" if number == you else seat_name(seat),
            "full_name": seat_name(seat),
            "subtitle": seat_subtitle(seat),
            "is_me": number == you,
            "is_bot": seat.is_bot,
            "is_person": bool(seat.user_id),
            "connected": seat.connected,
            "standing_in": seat.standing_in,
            "resigned": seat.resigned,
            "computer_plays": seat.computer_plays,
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
            "void_suits": "".join(sorted((s.symbol for s in view.voids[number]), key="♣♦♠♥".index)),
        }
    opponents = [out[(me + k) % n] for k in range(1, n)]
    return out[me], opponents, out


def table_context(table: Table | Snapshot, seat_number: int, *, hint=None, error: str | None = None,
                  spectator: bool = False) -> dict:
    """Everything the table fragment shows to ``seat_number``, derived from its view only.

    ``table`` is a row or, cheaper when several seats are drawn at one version, its
    :class:`games.snapshots.Snapshot`.

    Keys (all plain values, safe to hand to any template):

    - ``table_id``, ``version``, ``kind``, ``status``, ``live``, ``is_learn``, ``seat`` (the
      viewer's seat number), ``phase``, ``deal_number``, ``hearts_broken``, ``my_turn``,
      ``is_over``, ``error``.
    - ``me``, ``opponents`` (clockwise from the viewer's left) and ``seats`` (by number): dicts
      with ``name``, ``subtitle``, ``is_bot``, ``is_person``, ``connected``, ``standing_in``,
      ``hand_size``, ``points_taken``, ``score``, ``position``, ``to_act``, ``has_passed``,
      ``is_dealer``, ``trick_card``.
    - ``hand``: the viewer's cards (``code``, ``symbol``, ``rank``, ``suit``, ``color``,
      ``legal``, ``why`` — why it cannot be played now, ``received`` — passed to you,
      ``hinted``; the stylesheet fans them by their place in the hand).
    - ``trick`` (cards on the table by seat), ``last_trick`` (the trick just taken, while no
      card of the next is down), ``previous_trick`` (the trick taken last this deal),
      ``passing`` (direction, target name, label, whether you passed, what you passed),
      ``moon`` (choices for the shooter), ``deal_summary``, ``game_over``, ``status_text``,
      ``announcement`` (the last action and the status, for screen readers),
      ``turn_deadline`` (ISO time or None: show a countdown), ``hint``, ``notes`` (learn
      mode), ``rules_lines``, and URLs.
    """
    snapshot = table if isinstance(table, Snapshot) else snapshots.of_row(table)
    table = snapshot.table
    live = table.is_live
    if snapshot.game is None:
        return {
            "table_id": table.pk, "version": table.version, "status": table.status, "live": live,
            "kind": table.kind, "waiting": True, "error": error, "seat": seat_number,
            "status_text": (table.end_reason or "This game is over.") if not table.is_active
            else "Waiting for the game to start.",
            "rules_lines": rules_lines(table), **_urls(table),
        }
    game, steps = snapshot.game, snapshot.steps
    # ``me``: the seat at the bottom of the table; ``you``: the viewer's seat, None for someone
    # watching, who sees the table from seat ``me``'s place and only what is public.
    me = seat_number
    you = None if spectator else me
    view = game.public_view(me) if spectator else snapshot.view(me)
    n = view.players
    me_dict, opponents, seats = _seat_dicts(snapshot.seats, view, me, you)
    names = {number: info["full_name"] for number, info in seats.items()}
    is_learn = table.kind == Table.Kind.LEARN
    ended = table.status in (Table.Status.FINISHED, Table.Status.ABANDONED)

    # What the viewer has done this deal: the passed-card dots last until their first play.
    my_steps_this_deal = [s for s in _steps_of_deal(steps, view.deal_number) if s.seat == you]
    played_this_deal = any(s.kind == "play" for s in my_steps_this_deal)
    received = set(view.received or ()) if view.phase == "play" and not played_this_deal else set()

    hinted_codes: set[str] = set()
    hint_info = None
    if hint is not None:
        action = hint.action
        if isinstance(action, Card):
            hinted_codes = {str(action)}
        elif isinstance(action, (list, tuple)):
            hinted_codes = {str(card) for card in action}
        hint_info = {
            "reason": hint.reason,
            "cards": [card_info(Card.parse(code)) for code in sorted(hinted_codes, key=lambda c: Card.parse(c))],
            "choice": action if isinstance(action, str) else None,
        }

    my_turn = you in view.to_act and not ended
    hand = []
    size = len(view.hand)
    playable = set(view.legal) if my_turn and view.phase in ("play", "pass") else set()
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
    for card in view.hand:
        why = reasons.get(card)
        hand.append(card_info(
            card,
            legal=card in playable,
            why=why if why != hand_why else "",
            received=card in received,
            hinted=str(card) in hinted_codes,
        ))

    trick = [
        {"seat": seat, "name": seats[seat]["name"], "position": seats[seat]["position"], "card": card_info(card),
         "led": i == 0}
        for i, (seat, card) in enumerate(view.current_trick)
    ]
    # The trick taken last this deal: in the centre until the next card is led, and in the
    # "Last trick" panel until the next trick is taken.
    previous_trick = _taken_trick(view.tricks[-1], seats, view.rules) if view.tricks else None
    last_trick = previous_trick if not view.current_trick else None

    passing = None
    if view.phase == "pass" and not ended and you is not None:
        target = view.pass_target
        direction = DIRECTION_WORDS.get(view.pass_direction, "")
        target_name = names.get(target, "") if target is not None else ""
        waiting = [seats[s]["name"] for s in view.to_act if s != me]
        passing = {
            "direction": str(view.pass_direction),
            "direction_words": direction,
            "target": target,
            "target_name": target_name,
            "label": f"Pass 3 cards {direction} ({target_name})",
            "done": view.passed is not None,
            "passed": [card_info(card) for card in view.passed or ()],
            "waiting_text": f"Waiting for {_join(waiting)} to pass." if waiting else "",
        }

    received_info = None
    if view.phase == "play" and view.received and not played_this_deal:
        sender = (me - view.pass_direction.offset(n)) % n
        received_info = {
            "from_name": names.get(sender, ""),
            "cards": [card_info(card) for card in view.received],
            "passed": [card_info(card) for card in view.passed or ()],
        }

    moon = None
    if view.phase == "moon_choice" and not ended:
        shooter = view.moon_shooter
        value = view.rules.deal_value
        if shooter == you:
            subtract_scores = [s + p for s, p in zip(view.scores, view.moon_outcomes["subtract"])]
            add_scores = [s + p for s, p in zip(view.scores, view.moon_outcomes["add"])]
            moon = {
                "mine": True,
                "value": value,
                "takes": view.rules.moon_takes,
                "options": [
                    {"choice": "subtract", "label": f"Take {value} off my score",
                     "result": _score_line(subtract_scores, seats), "hinted": bool(hint_info and hint_info["choice"] == "subtract")},
                    {"choice": "add", "label": f"Everyone else scores {value}",
                     "result": _score_line(add_scores, seats), "hinted": bool(hint_info and hint_info["choice"] == "add")},
                ],
            }
        else:
            moon = {"mine": False, "shooter_name": names.get(shooter, ""), "value": value}

    # The last deal's result: shown from the start of the next deal until your first move in it.
    deal_summary = None
    if view.phase == "over" or ended:
        deal_summary = _deal_summary(steps, _last_scored_deal(steps), names, you, n, view.rules.deal_value)
    elif view.deal_number > 1 and not my_steps_this_deal and not view.tricks:
        deal_summary = _deal_summary(steps, view.deal_number - 1, names, you, n, view.rules.deal_value)

    game_over = None
    if view.phase == "over" or ended:
        order = sorted(range(n), key=lambda s: (view.scores[s], s))
        places = standing_places(view.scores)
        winners = list(view.winners)
        changes = {seat.number: _rating_change(snapshot.rating_changes.get(seat.user_id))
                   for seat in snapshot.seats if seat.user_id in snapshot.rating_changes}
        game_over = {
            "finished": view.phase == "over",
            "abandoned": table.status == Table.Status.ABANDONED,
            "end_reason": table.end_reason,
            "winners": [seats[s]["name"] for s in winners],
            "winners_text": _winners_text(winners, seats, you),
            "i_won": you in winners,
            "standings": [
                {"place": places[s], "name": seats[s]["name"],
                 "score": view.scores[s], "is_me": s == you, "won": s in winners, "rating": changes.get(s)}
                for s in order
            ],
            "rated": bool(changes),
            "my_rating": changes.get(you),
            "rematch": _rematch(table, snapshot.seats, me, seats) if live and you is not None and view.phase == "over"
            else None,
        }

    deadline = table.turn_deadline.isoformat() if table.turn_deadline and not ended else None
    status_text = _status_text(view, seats, you, ended, table)

    context = {
        "table_id": table.pk,
        "version": table.version,
        "kind": table.kind,
        "status": table.status,
        "live": live,
        "spectator": spectator,
        "watchers": table.watchers,
        "rated": table.rated,
        "is_learn": is_learn,
        "seat": me,
        "players": n,
        "phase": view.phase,
        "deal_number": view.deal_number,
        "hearts_broken": view.hearts_broken,
        "pass_direction": str(view.pass_direction),
        "pass_direction_text": _direction_text(view, names),
        "my_turn": my_turn,
        "turn": " ".join(str(s) for s in view.to_act) if not ended else "",
        "is_over": view.phase == "over" or ended,
        "error": error,
        "me": me_dict,
        "opponents": opponents,
        "seats": seats,
        "seat_list": [seats[s] for s in range(n)],
        "hand": hand,
        "hand_size": size,
        "trick": trick,
        "last_trick": last_trick,
        "previous_trick": previous_trick,
        "passing": passing,
        "received": received_info,
        "moon": moon,
        "deal_summary": deal_summary,
        "game_over": game_over,
        "status_text": status_text,
        "hand_why": hand_why,
        "announcement": _announcement(steps[-1] if steps else None, seats, status_text, view.deal_number),
        "turn_deadline": deadline,
        "turn_timer_seconds": table.turn_timer_seconds,
        "hint": hint_info,
        "can_hint": not live and my_turn and view.phase in ("pass", "play", "moon_choice"),
        "kitty": [card_info(card) for card in view.kitty],
        "kitty_size": view.kitty_size,
        "removed": [card_info(card) for card in view.removed],
        "target": view.rules.target,
        "rules_lines": rules_lines(table),
        **_urls(table),
    }
    context["notes"] = learn.notes(view, steps, names) if is_learn else []
    return context


REMATCH_ANSWERS = {"yes": "ready", "no": "said no", "late": "did not answer"}


def _rematch(table: Table, seat_rows, me: int, seats: dict[int, dict]) -> dict | None:
    """The rematch of a finished live game as ``me`` sees it (``live.rooms.answer_rematch``);
    None for someone who left the game."""
    mine = next(seat for seat in seat_rows if seat.number == me)
    if not mine.user_id or mine.resigned:
        return None
    offer = table.rematch or {"state": "none", "answers": {}}
    answers = offer["answers"]
    return {
        "state": offer["state"],
        "url": reverse("live:room", args=[offer["code"]]) if "code" in offer else "",
        "answer_url": reverse("live:rematch", args=[table.code]),
        "answered": str(mine.user_id) in answers,
        "until": offer.get("until", ""),
        "people": [{"name": seats[seat.number]["name"],
                    "answer": REMATCH_ANSWERS.get(answers.get(str(seat.user_id)), "not yet")}
                   for seat in seat_rows if seat.user_id and not seat.resigned],
    }


def standing_places(scores) -> list[int]:
    """Each seat's place at the end of a game: lower scores first, and equal scores share a
    place, as they do in the ratings (``ratings.services``).

    >>> standing_places([26, 13, 13, 0])
    [4, 2, 2, 1]
    """
    return [1 + sum(other < score for other in scores) for score in scores]


def _rating_change(change) -> dict:
    """One person's rating change, in words for the game's end (``ratings.models.RatingChange``)."""
    delta = change.display_after - change.display_before
    return {
        "before": change.display_before,
        "after": change.display_after,
        "delta": f"{delta:+d}".replace("-", "−") if delta else "±0",
        "provisional": change.games_after < PROVISIONAL_GAMES,
        "games": change.games_after,
        "needed": PROVISIONAL_GAMES,
        "dropped": change.dropped,
    }


def _steps_of_deal(steps: list[Step], deal: int) -> list[Step]:
    """The steps of ``deal`` when it is the newest one (none if it has not begun). Found from
    the end: a whole game's history is long, and every seat is drawn at every move."""
    start = len(steps)
    while start and steps[start - 1].deal == deal:
        start -= 1
    return steps[start:]


def _last_scored_deal(steps: list[Step]) -> int:
    for step in reversed(steps):
        if any(event["type"] == "deal_scored" for event in step.events):
            return step.deal
    return 1


def rules_lines(table: Table) -> tuple[str, ...]:
    """The rules of ``table`` in words, one line each (the target and every house rule)."""
    return _describe_rules(table.kind == Table.Kind.LEARN, json.dumps(table.rules, sort_keys=True))


@functools.lru_cache(maxsize=256)
def _describe_rules(learning: bool, rules_json: str) -> tuple[str, ...]:
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


def _winners_text(winners: list[int], seats: dict[int, dict], me: int) -> str:
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
    if table.status == Table.Status.ABANDONED:
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


def hint_for(table: Table | Snapshot, seat_number: int):
    """The computer's advice for this seat now, from its view only (``bots.hint``); None when
    it is not the seat's turn."""
    view = table.view(seat_number) if isinstance(table, Snapshot) else snapshots.game_of(table).view(seat_number)
    if seat_number not in view.to_act:
        return None
    return bots.hint(view)


def _taken_trick(done, seats: dict[int, dict], rules) -> dict:
    points = sum(rules.card_points(card) for card in done.cards)
    winner = seats[done.winner]["name"]
    caption = _does(winner, "take", "takes") + " the trick"
    if points:
        caption += f" · {points} pt{'' if points == 1 else 's'}"
    return {
        "winner": done.winner,
        "winner_name": winner,
        "caption": caption,
        "points": points,
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
    if step is not None and step.deal != deal:
        said.append(f"Deal {step.deal} is over.")
    elif step is not None:
        name = seats[step.seat]["name"]
        if step.kind == "play":
            said.append(_does(name, "play", "plays") + f" the {Card.parse(step.card).name}.")
        elif step.kind == "pass":
            said.append(_does(name, "pass", "passed") + " 3 cards.")
        for event in step.events:
            if event["type"] == "trick_won":
                winner = seats[event["seat"]]["name"]
                points = event["points"]
                said.append(_does(winner, "take", "takes") + " the trick"
                            + (f", {points} point{'' if points == 1 else 's'}." if points else "."))
    said.append(status_text)
    return " ".join(said)


TABLE_PARTS = ("state", "bar", "alert", "centre", "overlay", "status_line", "announce", "hint_box",
               "me_area", "coach", "scores", "previous_trick_panel")
"""The macros of ``_table_parts.html`` drawn for every seat, besides one ``seat_plate`` per
other seat."""


@dataclass
class TableDrawing:
    """One seat's table: its ``parts`` by element id (``t-bar``, ``t-seat-2``, …; none before
    the game starts), and :meth:`whole`, the whole table laid out from those same parts.

    A socket is sent the whole table once, then only the parts that changed
    (``live.consumers.changed_parts``)."""

    context: dict
    parts: dict[str, str]

    def whole(self) -> str:
        """HTML of the whole table; its root element is ``<div id="table">``."""
        html = _templates().get_template("games/table_fragment.html").render({**self.context, "parts": self.parts})
        # Jinja2 escapes what it prints (autoescape), so its output is safe to embed in a page.
        return mark_safe(html)


TRICK_OPEN = '<div class="trick" id="t-trick" aria-label="Cards on the table">'
TRICK_CARD = '<div class="trick-card '
TRICK_CARD_END = "</div></div>"  # a trick card's own element and the card in it


def part_change(old: str, new: str) -> str:
    """What to send for a part of the table that was ``old`` and is ``new``: ``new`` itself,
    or, when the only change is cards added to the trick in progress, just those cards, to be
    added to the end of ``#t-trick`` (``data-append``, ``games/table.js``).

    >>> old = '<div id="t-centre">' + TRICK_OPEN + '<div class="trick-card a"><i></i></div></div></div></div>'
    >>> new = old.replace('</div></div></div></div>', '</div></div><div class="trick-card b"><i></i></div></div></div></div>')
    >>> part_change(old, new)
    '<div id="t-trick" data-append><div class="trick-card b"><i></i></div></div></div>'
    >>> part_change(old, '<div id="t-centre"></div>')
    '<div id="t-centre"></div>'
    """
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
        return f'<div id="t-trick" data-append>{added}</div>'
    return new


def draw_table(
    table: Table | Snapshot, seat_number: int, *, error: str | None = None, hint=None, request=None,
    spectator: bool = False,
) -> TableDrawing:
    """Draw the table one seat sees (from its view only): each part once.

    Its forms use ``ws-send``: the page holds the table inside ``<div hx-ext="ws"
    ws-connect=...>`` (the table's socket, :mod:`live.consumers`). With ``request`` the forms
    also carry a CSRF token, so they post to ``solo:act`` where script is off. ``error`` is
    shown as a player-facing alert, ``hint`` (``bots.hint``) marked on the table. With
    ``spectator`` it is what someone watching sees from that seat's place: only what is public.

    >>> drawing = draw_table(snapshot, 0)              # doctest: +SKIP
    >>> sorted(drawing.parts)[:3]                      # doctest: +SKIP
    ['t-alert', 't-announce', 't-bar']
    """
    context = table_context(table, seat_number, hint=hint, error=error, spectator=spectator)
    if request is not None:
        context["csrf_input"] = csrf_input_lazy(request)
    if context.get("waiting"):
        return TableDrawing(context, {})
    module = _templates().get_template("games/_table_parts.html").make_module(context)
    drawn = [getattr(module, name)() for name in TABLE_PARTS]
    drawn += [module.seat_plate(seat) for seat in context["opponents"]]
    return TableDrawing(context, {_part_id(html): html for html in drawn})


def _part_id(html: str) -> str:
    start = html.index(' id="') + 5
    return str(html[start:html.index('"', start)])


@functools.cache
def _templates():
    """The Jinja2 environment of the table's templates (``hearts_site.jinja2``)."""
    return engines["jinja2"].env


def render_table(
    table: Table | Snapshot, seat_number: int, *, error: str | None = None, request=None, hint=None,
    spectator: bool = False,
) -> str:
    """HTML of the whole table for one seat (:func:`draw_table`, laid out whole)."""
    return draw_table(table, seat_number, error=error, hint=hint, request=request, spectator=spectator).whole()


def table_assets_html() -> str:
    """The ``<link>``/``<script>`` tags the fragment needs (put them in the page's head)."""
    return render_to_string("games/_table_assets.html")

