"""Who is at a live table: the sockets open to it, the reconnect grace period, the computer
that stands in for a person who dropped and hands the seat back when they return, and the
server processes (daphne) that hold the sockets, known by their heartbeats.

Once a game has started a person who drops keeps their seat for a grace period, then a
computer stands in until they come back.
"""
import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.models import Seat, Table
from games.realtime import notify_presence
from games import storage
from games.table import conduct
from games.services import (
    ActionRejected, apply_conduct, apply_conduct_and_announce, life_of, )
from hearts_site.taskrunner import task_batch
from live.models import LiveServer, TableConnection

log = logging.getLogger(__name__)


def start_grace_for_absent(table_id: int) -> int:
    """Start the reconnect grace period of every seated person not connected to a table that
    has just started (a computer stands in if they never arrive): to the rules of conduct,
    their sockets are closed (``games.table.conduct.SocketsClosed``). Returns how many."""
    with task_batch(), transaction.atomic():
        table = Table.objects.select_for_update().filter(pk=table_id).first()
        if table is None:
            return 0
        seats = list(table.seats.all())
        absent = [seat.number for seat in seats if seat.user_id is not None and not seat.connected and not seat.standing_in]
        for number in absent:
            seats, _ = apply_conduct(table, seats, None, conduct.SocketsClosed(number))
    return len(absent)


def reconnect_grace_seconds() -> float:
    return float(settings.LIVE_RECONNECT_GRACE_SECONDS)


def connection_opened(table_id: int, user, channel_name: str, server: str) -> Seat | None:
    """A person's websocket to a table opened on the server process ``server`` (a
    ``LiveServer.name``, registered before). Returns their seat (None if they have none).

    Records the socket for the person at the table (:class:`live.models.TableConnection`),
    whether seated or not (how many a person may open: ``live.server.take_socket_place``); marks their seat
    connected and, when a computer was standing in, hands it back (:func:`reclaim_seat`) so
    they play their own cards again.
    """
    with task_batch(), transaction.atomic():
        # The table row lock orders this against stand_in_if_gone and the seat changes.
        table = Table.objects.select_for_update().filter(pk=table_id).first()
        if table is None:
            raise ActionRejected("no_table", "There is no table here.")
        # Every socket of a restarted server opens at once: few statements here.
        open_here = list(
            TableConnection.objects.filter(table_id=table_id, user=user).values_list("channel_name", flat=True)
        )
        if channel_name not in open_here:
            # A socket's channel name is its own: no other table or person has a row with it.
            TableConnection.objects.create(channel_name=channel_name, table_id=table_id, user=user, server=server)
        seats = list(table.seats.all())
        seat = next((seat for seat in seats if seat.user_id == user.pk), None)
        if seat is None:
            count_watchers(table_id)
            return None
        if seat.resigned:
            return seat  # they left for good: they may look, the computer keeps playing
        opened = conduct.SocketOpened(seat.number)
        needs_game = table.has_game and conduct.needs_who_acts(life_of(table, seats, None), opened)
        game = storage.game_of(table) if needs_game else None
        events = apply_conduct_and_announce(table, seats, game, opened)
        if events:
            log.info("seat_opened table=%s seat=%s events=%s", table_id, seat.number,
                     ",".join(event["type"] for event in events))
        elif not seat.connected:
            transaction.on_commit(lambda: notify_presence(table_id))
    seat = next(row for row in seats if row.user_id == user.pk)
    seat.connected, seat.left_at = True, None  # as written (a seat read again has it already)
    return seat


def count_watchers(table_id: int) -> None:
    """Count again the people watching a game they have no seat at (sockets open, after its
    start); the table shows how many. No new version: everyone at the table is told as of a
    presence change."""
    seated = Seat.objects.filter(table_id=table_id, user__isnull=False).values("user")
    watchers = (TableConnection.objects.filter(table_id=table_id).exclude(user__in=seated)
                .values("user").distinct().count())
    started = Table.objects.filter(pk=table_id).exclude(status=Table.Status.WAITING)
    if started.exclude(watchers=watchers).update(watchers=watchers):
        transaction.on_commit(lambda: notify_presence(table_id))


def has_open_socket(table_id: int, user) -> bool:
    return TableConnection.objects.filter(table_id=table_id, user=user).exists()


def connection_closed(table_id: int, user, channel_name: str) -> bool:
    """A person's websocket to a table closed. When it was their last one there and they hold
    a seat, the grace period starts now: if they are not back within
    ``LIVE_RECONNECT_GRACE_SECONDS`` a computer stands in (:func:`stand_in_if_gone`).
    Returns True when their seat is now disconnected.

    The one path for every socket that ends: closed by the person, by a fault, or found dead
    with its server process (:func:`sweep_dead_connections`). Reporting the same socket twice
    changes nothing the second time.
    """
    with task_batch(), transaction.atomic():
        TableConnection.objects.filter(channel_name=channel_name).delete()
        seat = Seat.objects.select_for_update().filter(table_id=table_id, user=user).first()
        if seat is None:
            count_watchers(table_id)
            return False
        if has_open_socket(table_id, user):
            return False
        table = Table.objects.get(pk=table_id)
        apply_conduct(table, list(table.seats.all()), None, conduct.SocketsClosed(seat.number))
        if seat.connected or seat.left_at is None:
            transaction.on_commit(lambda: notify_presence(table_id))
    return True


def stand_in_if_gone(table_id: int, seat_number: int, left_at_iso: str = "") -> bool:
    """The grace period of a person who dropped is over: if they are still away (and it is
    the same absence, ``left_at_iso``), a computer plays their seat from now on.

    Bumps the table version and plays computer turns at once if it is that seat's turn.
    """
    with task_batch(), transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        seats = list(table.seats.all())
        seat = next((seat for seat in seats if seat.number == seat_number), None)
        if table.status != Table.Status.PLAYING or seat is None or seat.left_at is None:
            return False
        since = datetime.fromisoformat(left_at_iso) if left_at_iso else seat.left_at
        game = storage.game_of(table)
        if not apply_conduct_and_announce(table, seats, game, conduct.GraceOver(seat_number, since.timestamp())):
            return False
    log.info("stand_in table=%s seat=%s", table_id, seat_number)
    return True


def reclaim_seat(table_id: int, user) -> bool:
    """A person is back at a seat a computer was playing for them: they play it again.

    Bumps the table version; restarts the turn timer if it is their turn.
    """
    with task_batch(), transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        seats = list(table.seats.all())
        seat = next((seat for seat in seats if seat.user_id == user.pk), None)
        if seat is None or table.status != Table.Status.PLAYING:
            return False
        game = storage.game_of(table)
        if not apply_conduct_and_announce(table, seats, game, conduct.CameBack(seat.number)):
            return False
    log.info("seat_reclaimed table=%s seat=%s", table_id, seat.number)
    return True


def stand_in_overdue_seats() -> int:
    """A computer for every person whose grace period is over but who has no stand-in yet.

    The stand-in normally comes from the task :func:`connection_closed` schedules; this is the
    safety net for a task that was lost (a broker restarted without persistence, a worker
    killed with it in hand).
    Run by every live server's heartbeat (:mod:`live.server`). Returns how many.
    """
    cutoff = timezone.now() - timedelta(seconds=reconnect_grace_seconds())
    overdue = Seat.objects.filter(
        table__status=Table.Status.PLAYING, user__isnull=False, standing_in=False, connected=False,
        left_at__lte=cutoff,
    ).values_list("table_id", "number", "left_at")
    count = 0
    for table_id, number, left_at in overdue:
        count += stand_in_if_gone(table_id, number, left_at.isoformat())
    return count


# --------------------------------------------------------------------------- server processes
#
# Sockets live in server processes (daphne). A process that stops without closing them (a
# crash, SIGKILL, a lost machine) leaves TableConnection rows behind; the heartbeat tells the
# living from the dead. The process side (the heartbeat loop) is live.server.


def live_server_timeout_seconds() -> float:
    return float(settings.LIVE_SERVER_TIMEOUT_SECONDS)


def register_live_server(name: str) -> None:
    """A server process announces itself (before it records any socket)."""

    LiveServer.objects.update_or_create(name=name, defaults={"heartbeat_at": timezone.now()})
    log.info("live_server_started server=%s", name)


def live_server_heartbeat(name: str) -> bool:
    """The server process ``name`` is alive. Returns False when it had been taken for dead
    (its row swept): its sockets' seats were then marked disconnected, so the process must
    close them (clients reconnect and are recorded again). The row is written again."""

    if LiveServer.objects.filter(name=name).update(heartbeat_at=timezone.now()):
        return True
    register_live_server(name)
    log.warning("live_server_was_taken_for_dead server=%s", name)
    return False


def forget_other_live_servers(name: str) -> int:
    """Every server process but ``name`` is gone (it is the only one there can be): their
    rows go, so the next sweep closes their sockets. Returns how many rows went."""

    gone, _ = LiveServer.objects.exclude(name=name).delete()
    if gone:
        log.warning("live_servers_forgotten count=%s by=%s", gone, name)
    return gone


def sweep_dead_connections() -> int:
    """Close every socket held by a server process that is gone, through
    :func:`connection_closed` — so the grace period, the stand-in and the reclaim work as for
    any closed socket, the grace period counting from now, when the outage is noticed — and
    start the clocks of their tables again (:func:`restart_clock_after_outage`). Returns how
    many sockets were closed.

    One rule: a server whose heartbeat is older than ``LIVE_SERVER_TIMEOUT_SECONDS`` is gone
    (its row is deleted first: should it be alive after all, its next heartbeat finds no row
    and it closes its sockets, see :func:`live_server_heartbeat`); a socket whose server has no
    row is closed. Sockets opened after the sweep began are left to the next sweep (their
    server may have registered meanwhile). The servers' clocks must agree (NTP) to well
    under the timeout.

    Run by every live server's heartbeat and by a Celery worker when it connects; several
    sweeps at once are harmless (a socket closed twice changes nothing the second time).
    """
    began = timezone.now()
    cutoff = began - timedelta(seconds=live_server_timeout_seconds())
    last_heard = dict(LiveServer.objects.filter(heartbeat_at__lt=cutoff).values_list("name", "heartbeat_at"))
    for name in last_heard:
        # A heartbeat written meanwhile saves the row (the condition is checked again).
        if LiveServer.objects.filter(name=name, heartbeat_at__lt=cutoff).delete()[0]:
            log.warning("live_server_gone server=%s last_heartbeat=%s", name, last_heard[name].isoformat())
    registered = LiveServer.objects.values("name")
    dead = TableConnection.objects.exclude(server__in=registered).filter(opened_at__lt=began)
    closed = 0
    tables = set()
    for connection in dead:
        tables.add(connection.table_id)
        # The grace period counts from now, when the outage is noticed: while the server was
        # away its people could not come back to it (games.table.conduct, rule 6).
        connection_closed(connection.table_id, connection.user_id, connection.channel_name)
        closed += 1
        log.warning(
            "connection_swept server=%s table=%s user=%s",
            connection.server or "-", connection.table_id, connection.user_id,
        )
    for table_id in sorted(tables):
        restart_clock_after_outage(table_id)
    return closed


def restart_clock_after_outage(table_id: int) -> bool:
    """The sockets of ``table_id`` died with their server process: the outage is not charged
    to the person whose turn it is (``games.table.conduct``, rule 6). Their clock starts again
    with the whole turn and the arrival grace, from now, when the outage is noticed, while
    browsers reconnect. Returns True when a clock was running."""
    with task_batch(), transaction.atomic():
        table = Table.objects.select_for_update().filter(pk=table_id).first()
        if table is None:
            return False
        if not apply_conduct_and_announce(table, list(table.seats.all()), None, conduct.OutageNoticed()):
            return False
    log.info("clock_restarted table=%s deadline=%s", table_id, table.turn_deadline.isoformat())
    return True
