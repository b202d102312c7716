"""The table of a stored game as a seat sees it: the facts of the row and its seats, drawn by
:mod:`games.table.drawing` (the one renderer of the table, for solo, live and offline tables).

The table's forms use ``ws-send``; the htmx ws extension sends their fields as JSON, and the
page's script (``games/table.js``) adds the version the player saw::

    {"action": "play", "card": "QS", "version": 17}
    {"action": "pass", "cards": ["2C", "3C", "4C"], "version": 3}
    {"action": "moon", "choice": "subtract", "version": 60}
    {"action": "hint"}

:mod:`live.consumers` reads them with ``games.table.protocol.parse_move`` and applies them through
``services.submit_action``, as ``solo.views.act`` does for the HTTP form (script off). This
module only draws: it writes nothing.
"""
from __future__ import annotations

import functools
import json
import math
from datetime import datetime

from django.template.backends.utils import csrf_input_lazy
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe

from games import bots, storage
from games.table import drawing
from games.table.drawing import Person, TableDrawing, TableFacts, describe_rules
from games.engine import Game
from games.table.history import Step, game_with_history
from games.models import Seat, Table
from games.storage import Snapshot
from ratings.models import PROVISIONAL_GAMES

# Friendly names for computer seats (seat number -> name); the level is shown beside it.
SEAT_NAMES = bots.COMPUTER_NAMES[:6]


# --------------------------------------------------------------------------- the log, replayed


def game_at(state: dict, ply: int) -> tuple[Game, Step | None]:
    """The game after ``ply`` actions and the step that led there (None at the start)."""
    game, steps = game_with_history(state, ply)
    return game, steps[-1] if steps else None


# --------------------------------------------------------------------------- small values


def seat_name(seat: Seat) -> str:
    if seat.user_id:
        return seat.user.public_name
    if seat.bot_level:
        return SEAT_NAMES[seat.number % len(SEAT_NAMES)]
    return "Empty seat"


def seat_subtitle(seat: Seat) -> str:
    if seat.user_id and seat.resigned:
        return "A computer plays for them"
    if seat.user_id and seat.standing_in:
        return "Computer playing for them"
    if seat.user_id:
        return "Player"
    if seat.bot_level:
        return f"{seat.get_bot_level_display()} computer"
    return ""


def seat_names(table: Table) -> dict[int, str]:
    return {seat.number: seat_name(seat) for seat in table.seats.all()}


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


REMATCH_ANSWERS = {"yes": "ready", "no": "said no", "late": "did not answer"}


def _rematch(table: Table, seat_rows, me: int, seats: dict[int, dict]) -> dict | None:
    """The rematch of a finished live game as ``me`` sees it (``live.rooms.answer_rematch``);
    None for someone who left the game."""
    mine = next(seat for seat in seat_rows if seat.number == me)
    if not mine.user_id or mine.resigned:
        return None
    offer = table.rematch or {"state": "none", "answers": {}}
    answers = offer["answers"]
    until = offer.get("until", "")
    return {
        "state": offer["state"],
        # Who said yes is taken to the rematch when it starts (games/table.js follows the link).
        "going": answers.get(str(mine.user_id)) == "yes",
        "seconds_left": max(0, math.ceil((datetime.fromisoformat(until) - timezone.now()).total_seconds()))
        if until else 0,
        "url": reverse("live:room", args=[offer["code"]]) if "code" in offer else "",
        "answer_url": reverse("live:rematch", args=[table.code]),
        "answered": str(mine.user_id) in answers,
        "until": until,
        "people": [{"name": seats[seat.number]["name"],
                    "answer": REMATCH_ANSWERS.get(answers.get(str(seat.user_id)), "not yet")}
                   for seat in seat_rows if seat.user_id and not seat.resigned],
    }


def rating_text(rating) -> str:
    """A rating as shown beside a name: ``1523``, or ``1500?`` while provisional; "" for none."""
    if rating is None:
        return ""
    return f"{rating.display}{'?' if rating.provisional else ''}"


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


def table_facts(snapshot: Snapshot) -> TableFacts:
    """What drawing ``snapshot``'s table needs besides its game, as plain values."""
    table = snapshot.table
    changes = snapshot.rating_changes
    ratings = snapshot.ratings
    return TableFacts(
        table_id=table.pk,
        version=table.version,
        people=tuple(
            Person(
                name=seat_name(seat), subtitle=seat_subtitle(seat), is_bot=seat.is_bot,
                is_person=bool(seat.user_id), connected=seat.connected, standing_in=seat.standing_in,
                resigned=seat.resigned, computer_plays=seat.computer_plays,
                counted_as_left=seat.counted_as_left, rating=rating_text(ratings.get(seat.user_id)),
            )
            for seat in sorted(snapshot.seats, key=lambda seat: seat.number)
        ),
        kind=table.kind,
        status=table.status,
        live=table.is_live,
        rated=table.rated,
        watchers=table.watchers,
        end_reason=table.end_reason,
        turn_deadline=table.turn_deadline.isoformat() if table.turn_deadline else None,
        turn_timer_seconds=table.turn_timer_seconds,
        rules_lines=rules_lines(table),
        urls=_urls(table),
        rating_changes={seat.number: _rating_change(changes[seat.user_id])
                        for seat in snapshot.seats if seat.user_id in changes},
    )


def table_context(table: Table | Snapshot, seat_number: int, *, hint=None, error: str | None = None,
                  spectator: bool = False) -> dict:
    """Everything the table shows to ``seat_number`` (:func:`games.table.drawing.table_context`),
    with the rematch of a finished live game.

    ``table`` is a row or, cheaper when several seats are drawn at one version, its
    :class:`games.storage.Snapshot`.
    """
    snapshot = table if isinstance(table, Snapshot) else storage.of_row(table)
    table = snapshot.table
    if snapshot.game is None:
        return {
            "table_id": table.pk, "version": table.version, "status": table.status, "live": table.is_live,
            "kind": table.kind, "waiting": True, "error": error, "seat": seat_number,
            "status_text": (table.end_reason or "This game is over.") if not table.is_active
            else "Waiting for the game to start.",
            "rules_lines": rules_lines(table), **_urls(table),
        }
    game = snapshot.game
    view = game.public_view(seat_number) if spectator else snapshot.view(seat_number)
    facts = snapshot.drawn.get("facts")
    if facts is None:  # the same for every seat drawn at this version
        facts = snapshot.drawn["facts"] = table_facts(snapshot)
    context = drawing.table_context(facts, game, snapshot.steps, view, spectator=spectator,
                                    hint=hint, error=error)
    game_over = context["game_over"]
    if game_over and table.is_live and not spectator and view.phase == "over":
        game_over["rematch"] = _rematch(table, snapshot.seats, seat_number, context["seats"])
    return context


def rules_lines(table: Table) -> tuple[str, ...]:
    """The rules of ``table`` in words, one line each (the target and every house rule)."""
    return describe_rules(table.kind == Table.Kind.LEARN, json.dumps(table.rules, sort_keys=True))


def hint_for(table: Table | Snapshot, seat_number: int):
    """The computer's advice for this seat now, from its view only (``bots.hint``); None when
    it is not the seat's turn."""
    view = table.view(seat_number) if isinstance(table, Snapshot) else storage.game_of(table).view(seat_number)
    if seat_number not in view.to_act:
        return None
    return bots.hint(view)


def watching_place(own_seat: int | None, chosen: int | None = None) -> int:
    """The seat whose place someone watching sees the table from: the seat they chose to
    watch from, else their own old seat (someone who left the game), else seat 0.

    >>> watching_place(None), watching_place(2), watching_place(2, chosen=1)
    (0, 2, 1)
    """
    if chosen is not None:
        return chosen
    return own_seat if own_seat is not None else 0


def draw_table(
    table: Table | Snapshot, seat_number: int, *, error: str | None = None, hint=None, request=None,
    spectator: bool = False, before: TableDrawing | None = None,
) -> TableDrawing:
    """Draw the table one seat sees (from its view only): each part once.

    Its forms use ``ws-send``: the page holds the table inside ``<div hx-ext="ws"
    ws-connect=...>`` (the table's socket, :mod:`live.consumers`). With ``request`` the forms
    also carry a CSRF token, so they post to ``solo:act`` where script is off. ``error`` is
    shown as a player-facing alert, ``hint`` (``bots.hint``) marked on the table. With
    ``spectator`` it is what someone watching sees from that seat's place: only what is public.
    ``before``, the last drawing sent to this seat's socket, spares drawing what did not change
    (:func:`games.table.drawing.draw`).

    >>> drawing = draw_table(snapshot, 0)              # doctest: +SKIP
    >>> sorted(drawing.parts)[:3]                      # doctest: +SKIP
    ['t-alert', 't-announce', 't-bar']
    """
    context = table_context(table, seat_number, hint=hint, error=error, spectator=spectator)
    if request is not None:
        context["csrf_input"] = csrf_input_lazy(request)
    if context.get("waiting"):
        return TableDrawing(context, {})
    return drawing.draw(context, before)


def render_table(
    table: Table | Snapshot, seat_number: int, *, error: str | None = None, request=None, hint=None,
    spectator: bool = False,
) -> str:
    """HTML of the whole table for one seat (:func:`draw_table`, laid out whole)."""
    html = draw_table(table, seat_number, error=error, hint=hint, request=request, spectator=spectator).whole()
    return mark_safe(html)  # Jinja2 escaped what it printed



