"""Run a Celery task later, the same way in every mode.

Services call :func:`schedule` instead of ``task.apply_async`` so that the embedded default
(no broker, no worker) still plays bot turns and fires turn timers. A task is named, not
imported: the task modules import the services that schedule them.

* ``celery`` — ``apply_async`` with a countdown, sent before the current transaction commits,
  so a broker that is down makes the whole service call fail (:class:`TaskBrokerUnavailable`)
  and roll back instead of leaving a move with no follow-up. A task that arrives before the
  commit retries (see games.tasks and live.tasks).
* ``thread`` — a timer thread in this process runs the task after the countdown.
* ``eager`` — tests: the task runs synchronously once the surrounding :func:`task_batch`
  (a service call) has finished; tasks scheduled while one runs are queued and run after it,
  so a whole bot-only game does not recurse.
"""
import logging
import threading
from collections import deque
from contextlib import contextmanager

from django.conf import settings
from django.db import connections, transaction

from hearts_site.celery import app

log = logging.getLogger(__name__)

_eager_queue: deque = deque()
_eager_state = threading.local()


class TaskBrokerUnavailable(RuntimeError):
    """The task broker could not take the task."""


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
        try:
            task.apply_async(args=args, countdown=countdown, queue=queue or settings.CELERY_TASK_DEFAULT_QUEUE)
        except Exception as error:  # kombu/redis connection errors, whatever the transport
            raise TaskBrokerUnavailable(str(error)) from error


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
