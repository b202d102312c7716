"""Live rooms: people take seats before the start, the host fills the rest with computers and
starts; after the game, a rematch; a person may leave a game in progress for good.

Every change a client must see bumps the table version and is announced (through
:func:`games.services.notify_after_commit`, like a move).
"""
import logging
from collections import defaultdict
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from games import conduct, snapshots
from games.engine import Rules
from games.models import Seat, Table
from games.services import (
    ActionRejected, abandon_table, apply_conduct_and_announce, create_table, notify_after_commit,
    start_table,
)
from hearts_site.taskrunner import schedule, task_batch
from live.presence import count_watchers, has_open_socket, start_grace_for_absent

log = logging.getLogger(__name__)


def _announce(table: Table, events) -> None:
    """Bump the version of a locked ``table``, save it and tell its clients after commit."""
    table.version += 1
    table.save()
    notify_after_commit(table, events)


LIVE_KINDS = (Table.Kind.FRIENDS, Table.Kind.MATCHED)


def live_games_in_progress(users, *, besides: int | None = None) -> dict[int, Table]:
    """The live game in progress where each of ``users`` holds a seat they have not left
    (``games.conduct``, rule 5: one at a time), by user id; the table ``besides`` is not
    counted."""
    rows = Seat.objects.filter(user__in=users, table__status=Table.Status.PLAYING, table__kind__in=LIVE_KINDS)
    by_person = defaultdict(list)  # each person's seats only: the queue asks for hundreds at once
    for table_id, user_id, standing_in, resigned in rows.order_by("table_id").values_list(
            "table_id", "user_id", "standing_in", "resigned"):
        by_person[user_id].append((table_id, user_id, conduct.presence_of(standing_in=standing_in, resigned=resigned)))
    busy = {}
    for person, seats in by_person.items():
        other = conduct.busy_elsewhere(person, seats, besides)
        if other is not None:
            busy[person] = other
    tables = Table.objects.in_bulk(set(busy.values()))
    return {person: tables[table_id] for person, table_id in busy.items()}


def _refuse_if_playing_elsewhere(table: Table, users) -> None:
    """Raise :class:`ActionRejected` when one of ``users`` plays another live game now."""
    busy = live_games_in_progress(users, besides=table.pk)
    if busy:
        names = sorted(user.public_name for user in users if user.pk in busy)
        raise ActionRejected(
            "in_game", f"{' and '.join(names)} {'is' if len(names) == 1 else 'are'} playing another live game: "
                       "one live game at a time. Start once it is over, or they have left it.")


def take_seat(table_id: int, user, seat_number: int | None = None) -> Seat:
    """Seat ``user`` at a table that has not started: an empty seat, or else a computer's.

    Idempotent: a person already seated gets their seat back. Raises :class:`ActionRejected`
    when the game has started or every seat holds a person. (Whether the person may play
    live at all is the caller's question: see ``accounts.selectors.has_live_access``.)
    """
    with task_batch(), transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        seats = list(table.seats.select_related("user"))
        mine = next((seat for seat in seats if seat.user_id == user.pk), None)
        if mine is not None:
            return mine
        if table.status != Table.Status.WAITING:
            raise ActionRejected("already_started", "This game has already started, so its seats are taken.")
        if table.is_live and live_games_in_progress([user], besides=table.pk):
            raise ActionRejected(
                "in_game", "You are playing a live game: one at a time. Finish it (or leave it) before you sit here.")
        kept = _kept_seats(table)
        if kept is not None:
            if user.pk not in kept:
                raise ActionRejected("seat_kept", "This table's seats are kept for the players of the last game "
                                                  "while they answer the rematch.")
            seat_number = kept[user.pk]
        if seat_number is not None:
            candidates = [seat for seat in seats if seat.number == seat_number and seat.user_id is None]
            if not candidates:
                raise ActionRejected("seat_taken", f"Seat {seat_number + 1} is not free; pick an empty seat.")
        else:
            candidates = [seat for seat in seats if seat.is_empty] or [seat for seat in seats if seat.is_bot]
        if not candidates:
            raise ActionRejected("table_full", "Every seat at this table is taken.")
        seat = candidates[0]
        seat.user, seat.bot_level, seat.standing_in, seat.left_at = user, "", False, None
        seat.connected = has_open_socket(table_id, user)  # their sockets follow them to the seat
        seat.save()
        _announce(table, [{"type": "seat_taken", "seat": seat.number}])
    return seat


def leave_seat(table_id: int, user) -> bool:
    """Give up a seat before the game starts. The host cannot leave their own room."""
    with task_batch(), transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        seat = table.seats.filter(user=user).first()
        if seat is None:
            return False
        if table.status != Table.Status.WAITING:
            raise ActionRejected("already_started", "The game has started; a computer plays for you if you leave.")
        if table.host_id == user.pk:
            raise ActionRejected("host_stays", "The host keeps their seat; close the room instead.")
        seat.user, seat.connected, seat.left_at = None, False, None
        seat.save()
        _announce(table, [{"type": "seat_left", "seat": seat.number}])
    return True


def close_room(table_id: int, host) -> None:
    """The host closes a room before its game has started: nobody can sit there any more, and
    those seated are told (through :func:`abandon_table`, the one way a table ends early)."""
    table = Table.objects.get(pk=table_id)
    if table.host_id != host.pk:
        raise ActionRejected("not_host", "Only the host can close the room.")
    if not abandon_table(table_id, "The host closed the room.", before_start=True):
        raise ActionRejected("already_started", "The game has started: the room cannot be closed now.")


def fill_empty_seats(table_id: int, host, level: str = Seat.BotLevel.MEDIUM) -> int:
    """The host puts computer players in every empty seat. Returns how many were filled."""
    if level not in Seat.BotLevel.values:
        raise ActionRejected("malformed", "Computer players are easy, medium or hard.")
    with task_batch(), transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        if table.host_id != host.pk:
            raise ActionRejected("not_host", "Only the host can seat computer players.")
        if table.status != Table.Status.WAITING:
            raise ActionRejected("already_started", "This game has already started.")
        filled = table.seats.filter(user__isnull=True, bot_level="").update(bot_level=level)
        if filled:
            _announce(table, [{"type": "seats_filled", "level": level, "count": filled}])
    return filled


def start_live_table(table_id: int, user) -> Table:
    """The host starts a friend room (:func:`start_table`), then starts the reconnect grace
    period for anyone seated who is not connected right now."""
    table = Table.objects.get(pk=table_id)
    if table.host_id != user.pk:
        raise ActionRejected("not_host", "Only the host can start the game.")
    with task_batch(), transaction.atomic():
        _refuse_if_playing_elsewhere(table, [seat.user for seat in table.seats.select_related("user") if seat.user_id])
        table = start_table(table_id)
        # Those who watched the room go on watching the game: counted in the same transaction,
        # so the started table is first sent with them.
        count_watchers(table_id)
    start_grace_for_absent(table_id)
    return table


def resign(table_id: int, user) -> bool:
    """A person leaves a live game in progress for good: a computer plays their seat at once
    and to the end; in a rated game they are rated below everyone who stayed
    (``ratings.services``, rule 5). Returns False if they had already left."""
    with task_batch(), transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        if table.status != Table.Status.PLAYING or not table.is_live:
            raise ActionRejected("not_playing", "Only a live game in progress can be left this way.")
        seat = table.seats.filter(user=user).first()
        if seat is None:
            raise ActionRejected("no_seat", "You have no seat at this table.")
        if seat.resigned:
            return False
        apply_conduct_and_announce(table, list(table.seats.all()), snapshots.game_of(table), conduct.Resigned(seat.number))
    log.info("resigned table=%s seat=%s", table_id, seat.number)
    return True


REMATCH_SECONDS = 60
"""How long the people of a finished live game have to answer a rematch."""


def answer_rematch(table_id: int, user, yes: bool) -> dict | None:
    """After a live game, ``user`` asks for a rematch or accepts one (``yes``), or declines it.

    The first yes makes a new room with the same rules, rated or not and timer, the same
    computers, and the same people in the same order round the table (the first to ask in
    seat 0); each yes seats that person there. When every person of the game (but those who
    left it) has said yes, the rematch starts. A no, or an answer missing after
    :data:`REMATCH_SECONDS` (:func:`rematch_expired`), closes the new room. The finished
    table keeps the offer in ``Table.rematch`` and gets a new version at each answer, so its
    players see it. Returns the offer (None when there was nothing to decline)."""
    with task_batch(), transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        if table.status != Table.Status.FINISHED or not table.is_live:
            raise ActionRejected("not_over", "A rematch is offered once a live game is over.")
        seats = list(table.seats.select_related("user"))
        mine = next((seat for seat in seats if seat.user_id == user.pk), None)
        if mine is None or mine.resigned:
            raise ActionRejected("no_seat", "Only the people who played this game to the end can ask for a rematch.")
        offer = table.rematch
        if offer is not None and offer["state"] != "open":
            raise ActionRejected("rematch_settled", "That rematch is settled; start a new room from the lobby.")
        if offer is None and not yes:
            return None
        if offer is None:
            offer = _open_rematch(table, seats, mine)
        room = Table.objects.get(code=offer["code"])
        answers = offer["answers"]
        if yes:
            take_seat(room.pk, user, (mine.number - offer["first"]) % len(seats))
            answers[str(user.pk)] = "yes"
        else:
            answers[str(user.pk)] = "no"
            abandon_table(room.pk, f"{user.public_name} said no to the rematch.", before_start=True)
            offer["state"] = "closed"
        if all(answers.get(str(seat.user_id)) == "yes" for seat in seats if seat.user_id and not seat.resigned):
            _refuse_if_playing_elsewhere(room, [seat.user for seat in seats if seat.user_id and not seat.resigned])
            start_table(room.pk)
            count_watchers(room.pk)
            start_grace_for_absent(room.pk)
            offer["state"] = "started"
        _store_rematch(table, offer)
    return offer


def _kept_seats(room: Table) -> dict[int, int] | None:
    """The seats of a rematch's new room kept for the people of the finished game while the
    offer is open, by user id (``Table.rematch`` of the finished table); None for any other
    room."""
    if room.kind != Table.Kind.FRIENDS or room.status != Table.Status.WAITING:
        return None
    finished = Table.objects.filter(rematch__code=room.code, rematch__state="open").first()
    if finished is None:
        return None
    seats = list(finished.seats.all())
    kept = {seat.user_id: conduct.rematch_place(seat.number, finished.rematch["first"], len(seats),
                                                person=seat.user_id is not None, left=seat.resigned)
            for seat in seats}
    return {user: place for user, place in kept.items() if place is not None}


def _open_rematch(table: Table, seats: list[Seat], first: Seat) -> dict:
    players = len(seats)
    order = [seats[(first.number + k) % players] for k in range(players)]
    room = create_table(
        first.user, Rules.from_dict(table.rules), kind=Table.Kind.FRIENDS,
        seat_bots=[None if seat.user_id and not seat.resigned else (seat.bot_level or Seat.BotLevel.MEDIUM)
                   for seat in order],
        rated=table.rated, turn_timer_seconds=table.turn_timer_seconds, chat=table.chat,
    )
    until = timezone.now() + timedelta(seconds=REMATCH_SECONDS)
    schedule("games.rematch_expired", table.pk, room.code, countdown=REMATCH_SECONDS)
    return {"code": room.code, "state": "open", "first": first.number, "answers": {}, "until": until.isoformat()}


def _store_rematch(table: Table, offer: dict) -> None:
    table.rematch = offer
    table.version += 1
    table.save(update_fields=["rematch", "version", "updated_at"])
    notify_after_commit(table, [{"type": "rematch", "state": offer["state"]}])


def rematch_expired(table_id: int, code: str) -> bool:
    """The time to answer a rematch is over: if it is still open, whoever has not answered is
    marked late and the new room is closed. Returns True if it was still open."""
    with task_batch(), transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        offer = table.rematch
        if offer is None or offer["code"] != code or offer["state"] != "open":
            return False
        if timezone.now() < datetime.fromisoformat(offer["until"]):
            return False  # too early (a task runner that ignores countdowns)
        for seat in table.seats.filter(user__isnull=False, resigned=False):
            offer["answers"].setdefault(str(seat.user_id), "late")
        room = Table.objects.get(code=code)
        abandon_table(room.pk, "Not everyone answered the rematch in time.", before_start=True)
        offer["state"] = "closed"
        _store_rematch(table, offer)
    return True
