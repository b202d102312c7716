"""How faults are told apart and written to the log.

Every rejected action and every fault is one log line ``event key=value ...`` (the event name
first, then the table, seat, server, error): easy to grep, easy for a log shipper to parse.
A line never holds a card: a card tried or passed reveals part of a hidden hand, so rejected
moves log their code, not the move, and errors are described by :func:`describe`, which callers
use only for infrastructure errors (their messages name hosts and ports, not cards).

Refusals: ``action_rejected`` (a move or frame; ``where=socket`` when the socket refused it
before the services), ``connection_refused`` (a socket refused at connect).

Faults and their events (see live/LIVE.md, "Faults"):

* the task broker is down: ``task_not_sent`` (the move stands; the task waits in the process,
  ``hearts_site.taskrunner``), ``task_dropped`` (too many waited);
* the channel layer (Redis) is down: ``layer_unavailable`` (the sockets of the process are
  closed with 4503 so clients reconnect), ``notify_failed``, ``group_discard_failed``;
* a socket's seat could not be released (the database is down): ``disconnect_failed``;
* a server process died: ``connection_swept``, ``live_server_gone``; a server that was taken
  for dead while it lived: ``live_server_was_taken_for_dead``, then ``sockets_dropped``;
* the heartbeat itself failed: ``live_server_heartbeat_failed``;
* the Celery worker (re)connected to the broker: ``replanned`` (info), or ``replan_not_sent``.
"""
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

LAYER_FAULTS: tuple = (RedisConnectionError, RedisTimeoutError)
"""Catch these around channel layer calls; the in-memory layer of the embedded default raises
none of them."""


def describe(error: BaseException) -> str:
    """An infrastructure error for a log line: its type and the first words of its message."""
    text = " ".join(str(error).split())[:120]
    return f"{type(error).__name__}({text!r})" if text else type(error).__name__
