"""Production settings only: a real Celery worker process plays the computers and the turn
timer at a live table, its moves reach the person's websocket through Redis, and a worker
killed mid-game loses nothing once it is restarted."""
import asyncio
import datetime as dt

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from games import storage
from games.engine import Rules
from games.models import Action, Table
from tests.live.conftest import Player, seat_people, wait_for


def table_row(table_id):
    return Table.objects.get(pk=table_id)


@pytest.mark.worker
@pytest.mark.asyncio
async def test_worker_plays_computers_and_timer_at_a_live_table_and_survives_a_kill(celery_worker_process, people):
    ann = people[0]
    table = await sync_to_async(seat_people)(
        [ann], rules=Rules(passing="none"), timer=30, bots={1: "easy", 2: "easy", 3: "easy"}, seed=9
    )
    player = await Player.create(ann, table.pk)
    assert await player.connect()
    first = await player.receive(timeout=10)
    assert first["type"] == "state"
    # the worker plays the computers up to ann; each move reaches her socket in order
    assert await wait_for(lambda: 0 in storage.game_of(table_row(table.pk)).to_act, timeout=60)
    now = await sync_to_async(table_row)(table.pk)
    seen = [first["version"]]
    while seen[-1] < now.version:
        frame = await player.receive(timeout=10)
        if frame["type"] == "update":
            seen.append(frame["version"])
    assert seen == list(range(first["version"], now.version + 1)), "no update lost or repeated"

    # ann plays; the worker answers for the computers
    game = storage.game_of(now)
    await player.send({"action": "play", "card": str(game.legal(0)[0]), "version": now.version})
    assert await wait_for(lambda: table_row(table.pk).version >= now.version + 4, timeout=60)

    # kill the worker while ann's turn timer runs, let the deadline pass, restart: the
    # restarted worker recovers the timer and the Medium computer plays for her
    assert await wait_for(lambda: 0 in storage.game_of(table_row(table.pk)).to_act, timeout=60)
    celery_worker_process.kill()
    stopped = await sync_to_async(table_row)(table.pk)
    assert stopped.turn_deadline is not None
    past = timezone.now() - dt.timedelta(seconds=1)
    await sync_to_async(Table.objects.filter(pk=table.pk).update)(turn_deadline=past)
    await asyncio.sleep(1)
    assert (await sync_to_async(table_row)(table.pk)).version == stopped.version, "nobody moves while it is down"
    await sync_to_async(celery_worker_process.start)()
    assert await wait_for(
        lambda: Action.objects.filter(table_id=table.pk, seat=0, actor=Action.Actor.TIMEOUT).exists(), timeout=60
    ), "the restarted worker played ann's timed-out turn"
    assert await wait_for(lambda: table_row(table.pk).version > stopped.version + 1, timeout=60), "and the computers went on"
    update = await player.receive_until(lambda f: f["type"] == "update" and f["version"] > stopped.version, timeout=10)
    assert update["events"][0]["seat"] == 0
    await player.close()
