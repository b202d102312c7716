"""Run a Celery task later, the same way in every mode.

Services call :func:`schedule` instead of ``task.apply_async`` so that the embedded default
(no broker, no worker) still plays bot turns and fires turn timers. A task is named, not
imported: the task modules import the services that schedule them.

A task is sent once the transaction that scheduled it has committed (Django's
``transaction.on_commit``; at once outside a transaction), so it always finds what it was
sent for, and a transaction rolled back sends nothing.

* ``celery`` — ``apply_async`` with the moment it is due (``eta``). A send that fails (the
  broker is down) does not undo what was committed: the task waits in this process and is
  sent again, with its moment unchanged, at the next send after :data:`RESEND_PAUSE_SECONDS`
  or by :func:`resend_unsent` (every live server's heartbeat, ``live.server.beat``). What a
  process that dies takes with it is planned again by the re-planning of every start and
  every worker connection (``live.tasks.replan_task``).
* ``thread`` — a timer thread in this process runs the task after the countdown.
* ``eager`` — tests: the task runs synchronously once the surrounding :func:`task_batch`
  (a service call) has finished; tasks scheduled while one runs are queued and run after it,
  so a whole bot-only game does not recurse.
"""
import logging
import threading
import time
from collections import deque
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connections, transaction
from django.utils import timezone

from games.faults import describe

from hearts_site.celery import app

log = logging.getLogger(__name__)

_eager_queue: deque = deque()
_eager_state = threading.local()


def schedule(task_name: str, *args, countdown: float = 0.0, queue: str = "") -> None:
    """Run the task named ``task_name`` (e.g. ``"games.turn_timeout"``) with ``args`` about
    ``countdown`` seconds after the current transaction commits; with Celery, on ``queue``
    (default: ``CELERY_TASK_DEFAULT_QUEUE``)."""
    runner = settings.TASK_RUNNER
    task = task_named(task_name)
    if runner == "eager":
        _run_eager(task, args)
    elif runner == "thread":
        transaction.on_commit(lambda: _start_thread(task, args, countdown))
    else:
        due = timezone.now() + timedelta(seconds=max(countdown, 0.0))
        message = _Message(task, args, due, queue or settings.CELERY_TASK_DEFAULT_QUEUE)
        transaction.on_commit(lambda: _send(message))


@dataclass(frozen=True)
class _Message:
    task: object
    args: tuple
    due: datetime
    queue: str


RESEND_PAUSE_SECONDS = 1.0
"""After a failed send, the tasks scheduled next wait in line for this long before a send is
tried again: a broker that is down costs one move the publish retries, not every move."""

MAX_UNSENT = 100_000
"""Tasks kept waiting for the broker at most; the oldest go first (their tables are planned
again when a worker connects)."""

_unsent: deque = deque()
_unsent_lock = threading.Lock()
_next_try = 0.0


def _send(message: _Message) -> None:
    with _unsent_lock:
        if len(_unsent) >= MAX_UNSENT:
            dropped = _unsent.popleft()
            log.warning("task_dropped task=%s args=%s", dropped.task.name, dropped.args)
        _unsent.append(message)
        if len(_unsent) == 1 or time.monotonic() >= _next_try:
            _send_waiting()


def resend_unsent() -> int:
    """Send the tasks waiting for the broker, oldest first; stops at the first that fails.
    Returns how many still wait."""
    with _unsent_lock:
        _send_waiting()
        return len(_unsent)


def unsent() -> int:
    """How many tasks wait for the broker in this process."""
    return len(_unsent)


def _send_waiting() -> None:
    global _next_try
    while _unsent:
        message = _unsent[0]
        try:
            message.task.apply_async(args=message.args, eta=message.due, queue=message.queue)
        except Exception as error:  # kombu/redis connection errors, whatever the transport
            _next_try = time.monotonic() + RESEND_PAUSE_SECONDS
            log.warning("task_not_sent task=%s waiting=%s error=%s", message.task.name, len(_unsent), describe(error))
            return
        _unsent.popleft()


def task_named(name: str):
    """The task registered as ``name``; the apps' task modules are imported when Django starts
    (their AppConfig.ready), so every task is registered by then. An unknown name is a bug:
    KeyError."""
    return app.tasks[name]


@contextmanager
def task_batch():
    """Wrap a service call: in eager mode, tasks it schedules run when it has finished."""
    _eager_state.depth = getattr(_eager_state, "depth", 0) + 1
    try:
        yield
    finally:
        _eager_state.depth -= 1
    if _eager_state.depth == 0:
        _drain_eager()


def _run_eager(task, args) -> None:
    _eager_queue.append((task, args))
    if getattr(_eager_state, "depth", 0) == 0:
        _drain_eager()


def _drain_eager() -> None:
    if getattr(_eager_state, "draining", False):
        return
    _eager_state.draining = True
    try:
        while _eager_queue:
            queued_task, queued_args = _eager_queue.popleft()
            queued_task.apply(args=queued_args, throw=True)
    finally:
        _eager_state.draining = False
        _eager_queue.clear()


def _start_thread(task, args, countdown: float) -> None:
    timer = threading.Timer(max(countdown, 0.0), _run_in_thread, args=(task, args))
    timer.daemon = True
    timer.start()


def _run_in_thread(task, args) -> None:
    try:
        task.apply(args=args, throw=True)
    except Exception:
        log.exception("task_failed task=%s", task.name)
    finally:
        connections.close_all()  # the thread ends here: its connections with it
