"""Rule 6 end to end, with real processes (production settings): daphne is killed while a
person's turn runs, and the Celery worker's turn timer falls due after the server has been
silent for half its timeout but before anyone has noticed it gone. The timer does not fire: the
clock starts again whole with the time to reconnect. A successor daphne then notices the outage,
the browsers come back to it, and nobody was timed out or stood in for. The timeline is printed
(``pytest -s``)."""
import time
import uuid
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from games import storage
from games.models import Action, Seat, Table
from hearts_site.taskrunner import schedule
from live.models import LiveServer, TableConnection
from tests.live.conftest import open_sockets, seat_people, wait_for

pytestmark = pytest.mark.django_db(transaction=True)

TIMING = {
    "LIVE_SERVER_HEARTBEAT_SECONDS": 0.5,
    "LIVE_SERVER_TIMEOUT_SECONDS": 8,  # silent for 4 s: cut off; for 8 s: taken for gone
    "LIVE_RECONNECT_GRACE_SECONDS": 120,
    "LIVE_ARRIVAL_GRACE_SECONDS": 20,
}
DUE_AFTER_KILL = 5.0
TURN = 30


def table_row(table_id) -> Table:
    return Table.objects.get(pk=table_id)


async def close_all(sockets):
    for socket in sockets:
        await socket.close()


async def test_a_timer_due_while_the_server_is_down_unnoticed_does_not_fire_and_the_clock_waits_for_the_browsers(
    live_processes, people, settings,
):
    queue = f"test-{uuid.uuid4().hex[:8]}"
    settings.TASK_RUNNER, settings.CELERY_TASK_DEFAULT_QUEUE = "celery", queue
    env = dict(TIMING, CELERY_QUEUE=queue)
    table = await sync_to_async(seat_people)(people, timer=TURN)
    worker = await sync_to_async(live_processes.worker)(**env)
    server = await sync_to_async(live_processes.daphne)(**env)
    sockets, frames = await open_sockets(server.port, table.pk, people)
    try:
        assert [frame["type"] for frame in frames] == ["state"] * 4
        dead = {name for name in await sync_to_async(
            lambda: set(TableConnection.objects.filter(table_id=table.pk).values_list("server", flat=True)))()}
        server.kill()
        killed = time.monotonic()

        # the turn's clock runs out DUE_AFTER_KILL s after the kill, in the worker
        due = timezone.now() + timedelta(seconds=DUE_AFTER_KILL)

        def clock_runs_out_soon():
            Table.objects.filter(pk=table.pk).update(turn_deadline=due)
            schedule("games.turn_timeout", table.pk, due.isoformat(), countdown=DUE_AFTER_KILL)

        await sync_to_async(clock_runs_out_soon)()
        assert await wait_for(lambda: table_row(table.pk).turn_deadline > due, 30), "the timer was held"
        held = time.monotonic() - killed
        restarted = (await sync_to_async(table_row)(table.pk)).turn_deadline
        assert (restarted - due).total_seconds() >= TURN + TIMING["LIVE_ARRIVAL_GRACE_SECONDS"] - 1, (
            "the whole turn and the time to reconnect, from when the timer fell due"
        )
        assert "timer_held_in_outage" in worker.log()

        successor = await sync_to_async(live_processes.daphne)(port=server.port, **env)
        up = time.monotonic() - killed
        first_back = None
        for socket in sockets:
            state = await socket.reopen(timeout=30)
            first_back = first_back or time.monotonic() - killed
            assert state["type"] == "state"
        assert await wait_for(lambda: not LiveServer.objects.filter(name__in=dead).exists(), 30), "the outage was noticed"
        noticed = time.monotonic() - killed
        row = await sync_to_async(table_row)(table.pk)
        clock_left = (row.turn_deadline - timezone.now()).total_seconds()
        assert clock_left >= TURN, "the clock runs again with the whole turn once everyone is back"
        assert not await sync_to_async(Action.objects.filter(table_id=table.pk).exists)(), "nobody was timed out"
        assert not await sync_to_async(Seat.objects.filter(table_id=table.pk, standing_in=True).exists)()
        game = await sync_to_async(storage.game_of)(row)
        assert len(game.to_act) == 1
        print(
            f"outage timeline: server killed at 0 s; the turn timer fell due at {DUE_AFTER_KILL:.1f} s and was held "
            f"(clock restarted by {held:.1f} s); successor up at {up:.1f} s; first browser back at {first_back:.1f} s; "
            f"outage noticed (sweep) by {noticed:.1f} s; the clock then had {clock_left:.0f} s to run"
        )
        assert "Exception inside application" not in successor.log()
    finally:
        await close_all(sockets)
