"""Tell a table's connected clients that it changed. The message carries no cards: each
connection renders its own seat's view when it hears of a new version.

Services call :func:`notify_table` from worker threads (the consumers' database thread, the
in-process task threads) or from a Celery worker process. In a server process the message
is handed to the server's event loop — the in-memory channel layer (embedded default) is not
thread-safe — through one ordered queue, so the calling thread never waits for the loop and
messages leave in the order the changes were committed.
"""
import asyncio
import logging
import uuid

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games.faults import LAYER_FAULTS, describe

log = logging.getLogger(__name__)

_server_loop: asyncio.AbstractEventLoop | None = None
_outbox: asyncio.Queue | None = None
_outbox_task: asyncio.Task | None = None
_presence_queued: set[int] = set()
"""Tables whose presence news waits in the outbox. Newer news of such a table is not queued
again: the sockets read who is online when they hear the news, after every change so far was
committed, so one message says it all. When every seat of many tables connects at once (a
restart, a tournament), the outbox would otherwise hold one message per socket, and the news
of moves would wait behind them."""


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


def remember_server_loop() -> None:
    """Called from a consumer: the event loop the channel layer lives in (and the sender)."""
    global _server_loop, _outbox, _outbox_task
    loop = asyncio.get_running_loop()
    if _server_loop is not loop or _outbox is None or _outbox_task is None or _outbox_task.done():
        _server_loop = loop
        _outbox = asyncio.Queue()
        _presence_queued.clear()
        _outbox_task = loop.create_task(_send_outbox(_outbox))


RETRY_PAUSES = (0.05, 0.2, 0.5)
"""Pauses before sending a message again after the channel layer failed: a blip (a full
connection pool, a failover) must not lose the news of a move, or the table would look
stuck to its players until the next change."""


async def _send_outbox(outbox: asyncio.Queue) -> None:
    """Send queued group messages one after another, in order (runs on the server loop)."""
    failing = False  # the last message was given up on: do not hold the queue up again
    while True:
        group, message = await outbox.get()
        if message.get("type") == "table.presence":
            _presence_queued.discard(message["table"])  # before it is sent: news from now on is newer
        for pause in (() if failing else RETRY_PAUSES) + (None,):
            try:
                layer = get_channel_layer()
                if layer is not None:
                    await layer.group_send(group, message)
                failing = False
                break
            except LAYER_FAULTS as error:
                if pause is not None:
                    await asyncio.sleep(pause)
                    continue
                # Redis is down: the sockets of this process are closed meanwhile (see
                # TableConsumer.layer_lost) and get the full state when they reconnect.
                failing = True
                log.warning(
                    "notify_failed group=%s version=%s error=%s", group, message.get("version"), describe(error)
                )
            except Exception:
                log.exception("notify_failed group=%s version=%s", group, message.get("version"))
                break


def notify_table(table_id: int, version: int, events=()) -> None:
    """A change of the table was committed: its version is now ``version``."""
    _send(table_id, {"type": "table.changed", "table": table_id, "version": version, "events": list(events)})


def notify_presence(table_id: int) -> None:
    """Someone's connection to the table opened or closed: who is online changed, without a
    new version (a new version would restart the turn timer of whoever is to act)."""
    # Its id lets the table's sockets in a process share one read of the table (live.consumers).
    _send(table_id, {"type": "table.presence", "table": table_id, "id": uuid.uuid4().hex})


def notify_chat(table_id: int, line: dict) -> None:
    """A chat message was posted at the table (``live.chat.post_chat``)."""
    _send(table_id, {"type": "table.chat", "table": table_id, "line": line})


def _send(table_id: int, message: dict) -> None:
    version = message.get("version")
    group = table_group(table_id)
    try:
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        loop, outbox = _server_loop, _outbox
        if loop is not None and outbox is not None and loop.is_running() and not loop.is_closed():
            if message["type"] == "table.presence":
                if table_id in _presence_queued:
                    return
                _presence_queued.add(table_id)
            if running is loop:
                outbox.put_nowait((group, message))
            else:
                loop.call_soon_threadsafe(outbox.put_nowait, (group, message))
            return
        layer = get_channel_layer()
        if layer is None:
            return
        async_to_sync(layer.group_send)(group, message)
    except LAYER_FAULTS as error:
        log.warning("notify_failed table=%s version=%s error=%s", table_id, version, describe(error))
    except Exception:
        log.exception("notify_failed table=%s version=%s", table_id, version)
