"""Celery tasks of live play: thin wrappers over live.presence, live.rooms and
live.matchmaking, and the re-planning of everything pending when a worker connects.

The task names keep the "games." prefix they had before live play became its own app: a
task already sent keeps its name across a deploy.
"""
import logging

from celery import bootsteps, shared_task

from games import services
from games.faults import describe
from hearts_site.celery import app
from live import matchmaking, presence, rooms

log = logging.getLogger(__name__)


@shared_task(name="games.stand_in_if_gone", acks_late=True)
def stand_in_task(table_id: int, seat_number: int, left_at_iso: str = "") -> bool:
    return presence.stand_in_if_gone(table_id, seat_number, left_at_iso)


@shared_task(name="games.match_players", acks_late=True)
def match_players_task(table_size: int) -> int:
    return len(matchmaking.match_players(table_size))


@shared_task(name="games.replan")
def replan_task(sole_server: str = "") -> dict:
    """Send again everything that may be pending: computer turns, overdue turn timers,
    stand-ins of people who left, and sweep the sockets of dead server processes.

    ``sole_server``: the name of a server process that has just started and is the only one
    there can be (see :func:`live.server.recover_after_start`): every other is gone,
    so their sockets are swept at once."""
    if sole_server:
        presence.forget_other_live_servers(sole_server)
    done = {
        "swept": presence.sweep_dead_connections(),
        "tables": services.replan_playing_tables(),
    }
    log.info("replanned swept=%(swept)s tables=%(tables)s", done)
    return done


class ReplanWhenConnected(bootsteps.StartStopStep):
    """Each time the worker connects to the broker (at start, and again after losing it),
    re-plan what may be pending (:func:`replan_task`).

    A worker that loses its broker connection cancels the tasks it holds for later (computer
    turns, turn timers, stand-ins: all sent with a countdown) and leaves them to the broker to
    deliver again; a Redis restarted without persistence has lost them, one with persistence
    gives them back only after the visibility timeout (minutes). Sending them again is
    harmless: each task checks the table version and does nothing once its moment has passed.
    """

    requires = {"celery.worker.consumer.tasks:Tasks"}

    def start(self, consumer):
        try:
            replan_task.delay()
        except Exception as error:  # the broker went away again: the next connection re-plans
            log.warning("replan_not_sent error=%s", describe(error))


app.steps["consumer"].add(ReplanWhenConnected)


@shared_task(name="games.rematch_expired", acks_late=True)
def rematch_expired_task(table_id: int, code: str) -> bool:
    return rooms.rematch_expired(table_id, code)
