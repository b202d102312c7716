"""This server process as live play sees it: its name, its heartbeat and its open table sockets.

Why: a seat counts as connected while its person has a ``TableConnection`` row, and a row goes when its
socket closes. A daphne process that crashes (SIGKILL, out of memory, a lost machine) closes
nothing, so its rows would stay and their seats look connected forever: no grace period, no
computer standing in. Hence every process holding table sockets

* registers itself (:class:`live.models.LiveServer`) before it records its first socket,
  and records each socket with its name;
* from a task on its event loop, every ``LIVE_SERVER_HEARTBEAT_SECONDS`` (:func:`beat`):
  writes its heartbeat, sweeps the sockets of processes silent for
  ``LIVE_SERVER_TIMEOUT_SECONDS`` (:func:`live.presence.sweep_dead_connections`, which closes
  them through the one path for closed sockets, ``presence.connection_closed``), stands in
  for people whose grace period is over (:func:`live.presence.stand_in_overdue_seats`) and
  sends the tasks still waiting for the broker (:func:`hearts_site.taskrunner.resend_unsent`).

A Celery worker sweeps too whenever it connects (``live.tasks.replan_task``), so a crash is
cleaned up even before anyone reconnects to a server.

The process also keeps the set of its open table sockets: a fault that concerns them all (the
channel layer lost, or this process taken for dead while it was merely stalled) closes them
all (:func:`drop_every_socket`) and their clients reconnect.

And it counts each person's sockets (:func:`take_socket_place`): at most
``SOCKETS_PER_PERSON_PER_TABLE`` to one table and ``SOCKETS_PER_PERSON`` in all, per process
(a person's tabs reach one process or a few behind the balancer, so the whole site holds a
few times that at most). The rest are refused with 4429 before anything is read or joined.
"""
import collections
import asyncio
import functools
import logging
import os
import secrets
import socket

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import close_old_connections, connection
from django.utils import timezone

from games.table import conduct
from games.faults import describe
from games.models import Seat, Table
from hearts_site.taskrunner import resend_unsent, schedule
from live import presence
from live.models import LiveServer, TableConnection

log = logging.getLogger(__name__)

SERVER_NAME = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
"""New at every start: a restarted process (in a container often with the same pid) is
another server, so the sockets of the one that died are still swept."""


def db(function):
    """``function`` run off the event loop. PostgreSQL takes concurrent transactions, so calls
    go to a pool of threads; SQLite has one writer at a time, so they share one thread.

    Connections past ``CONN_MAX_AGE`` (or broken) are closed at the end of the call, inside
    it: asgiref runs the call in a copy of the caller's context, where channels' own closing
    (outside that context) does not always see the connection the call opened, which then
    stayed open for as long as its thread lived."""

    @functools.wraps(function)
    def closing(*args, **kwargs):
        try:
            return function(*args, **kwargs)
        finally:
            close_old_connections()

    return database_sync_to_async(closing, thread_sensitive=connection.vendor == "sqlite")


_sockets: set = set()
_beat_task: asyncio.Task | None = None
_start: tuple | None = None  # (event loop, asyncio.Lock): one registration per loop


def _beating_on(loop) -> bool:
    return _beat_task is not None and not _beat_task.done() and _beat_task.get_loop() is loop


async def socket_opened(consumer) -> None:
    """A table socket of this process joined its table. The first one registers the process
    and starts its heartbeat (on this event loop), before any socket is recorded."""
    global _beat_task, _start
    loop = asyncio.get_running_loop()
    if not _beating_on(loop):
        if _start is None or _start[0] is not loop:
            _start = (loop, asyncio.Lock())
        async with _start[1]:
            if not _beating_on(loop):
                _sockets.clear()  # sockets of an earlier event loop (tests) are gone with it
                await db(presence.register_live_server)(SERVER_NAME)
                _beat_task = loop.create_task(_beat_forever(), name="live-server-heartbeat")
    _sockets.add(consumer)


def socket_closed(consumer) -> None:
    _sockets.discard(consumer)


_places_per_person: collections.Counter = collections.Counter()
_places_per_table: collections.Counter = collections.Counter()  # by (person, table)


def take_socket_place(user_id: int, table_id: int) -> bool:
    """Counts one more socket of ``user_id`` to ``table_id`` in this process; False (and
    nothing counted) when the person already has as many as they may."""
    if (_places_per_table[user_id, table_id] >= settings.SOCKETS_PER_PERSON_PER_TABLE
            or _places_per_person[user_id] >= settings.SOCKETS_PER_PERSON):
        return False
    _places_per_table[user_id, table_id] += 1
    _places_per_person[user_id] += 1
    return True


def give_back_socket_place(user_id: int, table_id: int) -> None:
    """A socket counted by :func:`take_socket_place` closed."""
    for counter, key in ((_places_per_table, (user_id, table_id)), (_places_per_person, user_id)):
        counter[key] -= 1
        if counter[key] <= 0:
            del counter[key]


def socket_places() -> int:
    """How many sockets are counted now (0 once every socket closed)."""
    return sum(_places_per_person.values()) + len(_places_per_table)


RECOVERY_DELAY_SECONDS = 1.0
"""A started process plans pending work again after this pause (its imports are done)."""


def recover_after_start() -> None:
    """This server process has just started: plan again whatever waited on the one that
    stopped — computer turns, turn timers, stand-ins (:func:`live.tasks.replan_task`) —
    without waiting for anyone to open a table.

    On the embedded default the tasks ran in the stopped process and died with it; this is
    what makes its tables move again. On production settings the Celery workers keep them
    and re-plan when they connect; this covers a broker that lost them as well.

    With the in-memory channel layer only one process can serve the tables, so every other
    registered server is gone and its sockets are swept at once, not after
    ``LIVE_SERVER_TIMEOUT_SECONDS``."""
    sole = settings.CHANNEL_LAYERS["default"]["BACKEND"].endswith("InMemoryChannelLayer")
    schedule("games.replan", SERVER_NAME if sole else "", countdown=RECOVERY_DELAY_SECONDS)


async def drop_every_socket() -> int:
    """Close every table socket of this process for a server-side fault (each says so and
    closes with 4503, try again; see ``TableConsumer.drop``). Returns how many."""
    closing = [task for task in (consumer.drop() for consumer in list(_sockets)) if task is not None]
    await asyncio.gather(*closing, return_exceptions=True)
    return len(closing)


async def beat() -> None:
    """One heartbeat: I am alive; sweep the dead; stand in for those gone too long; send
    what waits for the broker."""
    try:
        if not await db(presence.live_server_heartbeat)(SERVER_NAME):
            # Swept while alive (stalled longer than the timeout): our sockets' seats were
            # marked disconnected. Reconnecting records them again.
            dropped = await drop_every_socket()
            log.warning("sockets_dropped server=%s count=%s reason=taken_for_dead", SERVER_NAME, dropped)
        await db(presence.sweep_dead_connections)()
        await db(presence.stand_in_overdue_seats)()
        await db(resend_unsent)()
    except Exception as error:  # the database is down: try again at the next beat
        log.warning("live_server_heartbeat_failed server=%s error=%s", SERVER_NAME, describe(error))


async def _beat_forever() -> None:
    while True:
        await asyncio.sleep(settings.LIVE_SERVER_HEARTBEAT_SECONDS)
        await beat()


def hold_timer_in_outage(sender, table: Table, seats: list, **kwargs) -> bool:
    """A turn timer fell due (``games.services.turn_timer_due``): when a person to act is cut
    off by an outage not yet noticed (every server process holding their sockets has missed
    its heartbeat, ``games.table.conduct.cut_off_by_outage``), their clock starts again whole
    instead (:func:`restart_clock_after_outage`). A Celery worker outlives a dead daphne; this
    keeps its timers from charging the outage to the players. Sockets of this very process
    (the embedded default runs timers in it) are alive: it is running this."""
    people = list(Seat.objects.filter(table=table, number__in=seats, user__isnull=False).values_list("user_id", flat=True))
    if not people:
        return False
    connections = list(TableConnection.objects.filter(table=table, user_id__in=people).values_list("user_id", "server"))
    beats = dict(LiveServer.objects.filter(name__in={server for _, server in connections}).values_list("name", "heartbeat_at"))
    now = timezone.now()
    every = float(settings.LIVE_SERVER_HEARTBEAT_SECONDS)
    timeout = float(settings.LIVE_SERVER_TIMEOUT_SECONDS)
    for person in people:
        servers = {server for user, server in connections if user == person and server}
        if SERVER_NAME in servers:
            continue
        silences = [(now - beats[server]).total_seconds() if server in beats else float("inf") for server in servers]
        if conduct.cut_off_by_outage(silences, every, timeout):
            log.info("timer_held_in_outage table=%s user=%s", table.pk, person)
            return presence.restart_clock_after_outage(table.pk)
    return False
