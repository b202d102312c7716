"""CPython tuned for a long-running server process: its garbage collector, and how often
it lets another thread run.

:func:`tune_for_server`, called once the application is loaded (``hearts_site/asgi.py``):

* freezes what exists by then (modules, Django's registries, compiled templates: it lives
  as long as the process), so no collection walks it again (:func:`gc.freeze`);
* sets the collector's thresholds (setting ``GC_THRESHOLDS``, default ``2000,300,100``):
  the middle generation is collected after 300 collections of the youngest instead of 10,
  the youngest after 2,000 new objects instead of 700;
* sets the thread switch interval (setting ``THREAD_SWITCH_INTERVAL_MS``, default 1):
  a thread waiting for the interpreter lock gets it after 1 ms instead of 5.

**The collector.** A live server holds about half a million container objects: every
socket's coroutines, queues and protocol objects, every table's snapshot. A full collection
walks all of them, and nothing else runs meanwhile: with 2,000 sockets on this project's
2-core test machine it took 250-600 ms, and with CPython's default thresholds it came every
5-10 s under load, so most of the slow moves in a load run were the ones caught behind it.

Most of what a move leaves behind lives a few seconds — each socket's last drawing of its
table and its pending receive, replaced at the next move of that table. Collected after
every 10 young collections (CPython's default, and this project's until December 2026), the
middle generation walked those objects a second time and moved them to the old generation,
where they died; as they filled it, full collections still came about once a minute under
load. Collected less often, the middle generation lets most of them die first, and full
collections (CPython also waits until a quarter of the old objects are new) become rare.
Objects freed by reference counting (nearly all) are not affected; memory held by reference
cycles is returned a little later. With ``700,10,100`` the collector took about a tenth of
a loaded server's time (``python -m tests.load --tables 500`` on production settings), half
that with these.

**The switch interval.** The event loop runs in one thread and the database calls in
others (a pool on PostgreSQL, one thread on SQLite); one thread at a time runs Python. A
database driver lets go of the interpreter lock around its calls into C (psycopg around
each call into libpq), and a thread that wants the lock back while another runs Python
waits until that one hands it over, which CPython asks for after the switch interval.
Beside a thread kept busy (``python -m tests.load.beside_busy_thread``), a move's
transaction took 63 ms with the default 5 ms and 10 ms with 1 ms, against 1.3 ms alone, on
PostgreSQL; 46 and 5 ms against 0.4 ms on SQLite: it waited about a dozen times. Under
load the busy thread is the event loop drawing frames: at 1,000 tables on one process on
production settings, runs in the same hour made a p95 of 0.5-2.6 s with 5 ms and 115-133 ms
with 1 ms, for about the same CPU (the process near a full core: in slower hours it still
falls behind). See ``live/LIVE.md``, "Performance".

    >>> parse_thresholds("2000,300,100")
    (2000, 300, 100)
    >>> parse_switch_interval("0.5")
    0.0005
"""
import gc
import sys

from django.core.exceptions import ImproperlyConfigured

DEFAULT_THRESHOLDS = (2000, 300, 100)
DEFAULT_SWITCH_INTERVAL = 0.001
"""Seconds."""


def parse_thresholds(text: str) -> tuple[int, int, int]:
    """``"gen0,gen1,gen2"`` as three whole numbers, all above 0 (a first threshold of 0 would
    turn the collector off, which leaks every reference cycle)."""
    try:
        values = tuple(int(part.strip()) for part in text.split(","))
    except ValueError:
        values = ()
    if len(values) != 3 or min(values) < 1:
        raise ImproperlyConfigured(
            "GC_THRESHOLDS must be three whole numbers above 0 separated by commas, such as "
            f"{','.join(map(str, DEFAULT_THRESHOLDS))} (not {text!r})."
        )
    return values


def parse_switch_interval(milliseconds: str) -> float:
    """A number of milliseconds from 0.1 to 100, as seconds (what :func:`sys.setswitchinterval`
    takes)."""
    try:
        value = float(milliseconds)
    except ValueError:
        value = None
    if value is None or not 0.1 <= value <= 100:
        raise ImproperlyConfigured(
            "THREAD_SWITCH_INTERVAL_MS must be a number of milliseconds from 0.1 to 100, such as "
            f"{DEFAULT_SWITCH_INTERVAL * 1000:g} (not {milliseconds!r})."
        )
    return value / 1000


def tune_for_server(thresholds: tuple[int, int, int], switch_interval: float) -> None:
    gc.collect()
    gc.freeze()
    gc.set_threshold(*thresholds)
    sys.setswitchinterval(switch_interval)
