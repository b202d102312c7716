"""Tell a table's connected clients that it changed. The message carries no cards: each
connection renders its own seat's view when it hears of a new version."""
import asyncio
import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger(__name__)

_server_loop: asyncio.AbstractEventLoop | None = None


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


def remember_server_loop() -> None:
    """Called from a consumer: the event loop the in-memory channel layer lives in.

    The in-memory layer (embedded default) is not thread-safe; messages sent from the
    in-process task threads must be handed to that loop.
    """
    global _server_loop
    _server_loop = asyncio.get_running_loop()


def notify_table(table_id: int, version: int, events=()) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    message = {"type": "table.changed", "table": table_id, "version": version, "events": list(events)}
    try:
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        loop = _server_loop
        if loop is not None and loop.is_running() and running is not loop:
            asyncio.run_coroutine_threadsafe(layer.group_send(table_group(table_id), message), loop).result(5)
        else:
            async_to_sync(layer.group_send)(table_group(table_id), message)
    except Exception:
        log.exception("notify_failed table=%s version=%s", table_id, version)
