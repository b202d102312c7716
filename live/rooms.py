"""Live rooms: people take seats before the start, the host fills the rest with computers and
starts; after the game, a rematch; a person may leave a game in progress for good.

Every change a client must see bumps the table version and is announced (through
:func:`games.services.notify_after_commit`, like a move).
"""
import logging
from collections import defaultdict

from django.db import transaction
from django.utils import timezone

from games import storage
from games.table import conduct
from games.engine import Rules
from games.models import Seat, Table
from games.services import (
    ActionRejected, abandon_table, apply_conduct, apply_conduct_and_announce, conduct_step, create_table, life_of,
    notify_after_commit, schedule_deadlines, start_table, store_rematch,
)
from hearts_site.taskrunner import task_batch
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
    (``games.table.conduct``, rule 5: one at a time), by user id; the table ``besides`` is not
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
    """Seat ``user`` at a table that has not started (``games.table.conduct``, rule 10: the seat
    chosen, else an empty one, else a computer's; a rematch's room keeps its seats, rule 9).

    Idempotent: a person already seated gets their seat back. Raises :class:`ActionRejected`
    when the rules refuse. (Whether the person may play live at all is the caller's question:
    see ``accounts.selectors.has_live_access``.)
    """
    with task_batch(), transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        seats = list(table.seats.all())
        waiting = table.status == Table.Status.WAITING
        # Read only where the rules may sit them: their sockets follow them to the seat.
        sat = conduct.Sat(
            user.pk, seat_number, connected=waiting and has_open_socket(table_id, user),
            elsewhere=waiting and table.is_live and bool(live_games_in_progress([user], besides=table.pk)),
        )
        seats, events = apply_conduct(table, seats, None, sat, kept=_kept_seats(table) if waiting else None)
        if events:
            _announce(table, events)
    return next(seat for seat in seats if seat.user_id == user.pk)


def leave_seat(table_id: int, user) -> bool:
    """Give up a seat before the game starts (rule 10: the host cannot leave their own room).
    Returns False when ``user`` had no seat there."""
    with task_batch(), transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        _, events = apply_conduct(table, list(table.seats.all()), None, conduct.Stood(user.pk))
        if events:
            _announce(table, events)
    return bool(events)


def close_room(table_id: int, host) -> None:
    """The host closes a room before its game has started: nobody can sit there any more, and
    those seated are told (through :func:`abandon_table`, the one way a table ends early)."""
    table = Table.objects.get(pk=table_id)
    if table.host_id != host.pk:
        raise ActionRejected("not_host", "Only the host can close the room.")
    if not abandon_table(table_id, "The host closed the room.", before_start=True):
        raise ActionRejected("already_started", "The game has started: the room cannot be closed now.")


ROOM_LEVELS = (Seat.BotLevel.EASY, Seat.BotLevel.MEDIUM, Seat.BotLevel.HARD)
"""The computers a live room may seat. Not Expert: its second of thought a card, on the
server, would keep the room's people waiting at every computer's turn and take the cores
every other live table shares (solo and offline games offer it)."""


def fill_empty_seats(table_id: int, host, level: str = Seat.BotLevel.MEDIUM) -> int:
    """The host puts computer players in every empty seat. Returns how many were filled."""
    if level not in ROOM_LEVELS:
        raise ActionRejected("malformed", "Computer players in a live room are easy, medium or hard.")
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
        apply_conduct_and_announce(table, list(table.seats.all()), storage.game_of(table), conduct.Resigned(seat.number))
    log.info("resigned table=%s seat=%s", table_id, seat.number)
    return True


def answer_rematch(table_id: int, user, yes: bool) -> dict | None:
    """After a live game, ``user`` asks for a rematch or accepts one (``yes``), or declines it
    (``games.table.conduct``, rule 9).

    The first yes makes a new room with the same rules, rated or not and timer, the same
    computers, and the same people in the same order round the table (the first to ask in
    seat 0); each yes seats that person there. When every person of the game (but those who
    left it) has said yes, the rematch starts. A no, or an answer missing after
    ``conduct.REMATCH_SECONDS`` (:func:`rematch_expired`), closes the new room. The finished
    table keeps the offer in ``Table.rematch`` and gets a new version at each answer, so its
    players see it. Returns the offer as kept there (None when there was nothing to decline)."""
    with task_batch(), transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        seats = list(table.seats.select_related("user"))
        _, after = conduct_step(table, seats, None, conduct.RematchAnswered(user.pk, yes))
        offer = after.life.rematch
        if offer is None:
            return None
        stayed = set(conduct.stayed_to_the_end(after.life.seats))
        code = table.rematch["code"] if table.rematch else _open_rematch_room(table, seats, offer.first, stayed)
        room = Table.objects.get(code=code)
        if yes:
            mine = after.life.seat_of(user.pk)
            take_seat(room.pk, user, conduct.rematch_place(mine.number, offer.first, len(seats), person=True, left=False))
        if offer.state == "closed":
            abandon_table(room.pk, f"{user.public_name} said no to the rematch.", before_start=True)
        elif offer.state == "started":
            _refuse_if_playing_elsewhere(room, [seat.user for seat in seats if seat.user_id in stayed])
            start_table(room.pk)
            count_watchers(room.pk)
            start_grace_for_absent(room.pk)
        _store_rematch(table, after, code)
    return table.rematch


def _kept_seats(room: Table) -> dict[int, int] | None:
    """The seats of a rematch's new room kept for the people of the finished game while the
    offer is open, by user id (``games.table.conduct.kept_places``); None for any other room."""
    if room.kind != Table.Kind.FRIENDS or room.status != Table.Status.WAITING:
        return None
    finished = Table.objects.filter(rematch__code=room.code, rematch__state="open").first()
    if finished is None:
        return None
    return conduct.kept_places(life_of(finished, list(finished.seats.all()), None))


def _open_rematch_room(table: Table, seats: list[Seat], first: int, stayed: set[int]) -> str:
    """The new room of a rematch of ``table`` whose offer the person at seat ``first`` opened,
    a seat for each of the people who ``stayed`` and a computer in the others: its code."""
    players = len(seats)
    order = [seats[(first + k) % players] for k in range(players)]
    room = create_table(
        order[0].user, Rules.from_dict(table.rules), kind=Table.Kind.FRIENDS,
        seat_bots=[None if seat.user_id in stayed else (seat.bot_level or Seat.BotLevel.MEDIUM) for seat in order],
        rated=table.rated, turn_timer_seconds=table.turn_timer_seconds, chat=table.chat,
    )
    return room.code


def _store_rematch(table: Table, after: conduct.Step, code: str) -> None:
    """Keep the rematch of ``after`` (the step of an answer or of its time running out) on the
    finished ``table``, announce it, and schedule the end of its time when it was opened."""
    store_rematch(table, after.life.rematch, code)
    table.version += 1
    table.save(update_fields=["rematch", "version", "updated_at"])
    schedule_deadlines(table, after.life, after.deadlines, timezone.now().timestamp())
    notify_after_commit(table, list(after.events))


def rematch_expired(table_id: int, code: str) -> bool:
    """The time to answer a rematch is over: if it is still open, whoever has not answered is
    marked late and the new room is closed. Returns True if it was still open."""
    with task_batch(), transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        if table.rematch is None or table.rematch["code"] != code:
            return False
        _, after = conduct_step(table, list(table.seats.all()), None, conduct.RematchDue())
        if not after.events:
            return False
        room = Table.objects.get(code=code)
        abandon_table(room.pk, "Not everyone answered the rematch in time.", before_start=True)
        _store_rematch(table, after, code)
    return True
