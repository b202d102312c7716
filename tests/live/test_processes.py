"""Faults with real processes (production settings: PostgreSQL, Redis; skipped on the embedded
default): daphne killed mid-game and restarted, a seat whose server died, Redis stopped and
started again. Clients are real websocket clients over TCP (tests/processes.py)."""
import asyncio
import re
import time

import pytest
from asgiref.sync import sync_to_async
from websockets.exceptions import ConnectionClosed

from games import services, storage
from games.engine import Rules
from games.models import Action, Seat, Table
from live.consumers import CLOSE_TRY_AGAIN
from live.models import LiveServer, TableConnection
from tests.live.conftest import open_sockets, seat_people, wait_for
from tests.processes import Socket

pytestmark = pytest.mark.worker

FAST_HEARTBEAT = {"LIVE_SERVER_HEARTBEAT_SECONDS": 0.5, "LIVE_SERVER_TIMEOUT_SECONDS": 2}


def table_row(table_id):
    return Table.objects.get(pk=table_id)


def seat_rows(table_id):
    return list(Seat.objects.filter(table_id=table_id).order_by("number"))


def connection_servers(table_id):
    return set(TableConnection.objects.filter(table_id=table_id).values_list("server", flat=True))


def action_log(table_id):
    return list(Action.objects.filter(table_id=table_id).order_by("ply").values_list("version", "seat", "action", "actor"))


async def catch_up(sockets, version, timeout=10):
    """Every socket has seen ``version`` (updates arrive in order; a socket may be ahead)."""
    for socket in sockets:
        while socket.version < version:
            await socket.receive(timeout)


async def play(sockets, moves, made):
    """Whoever is to act plays their first legal card, ``moves`` times; each move is acked and
    reaches every socket. ``made`` collects (the table version it made, seat, card)."""
    for _ in range(moves):
        version = max(socket.version for socket in sockets)
        await catch_up(sockets, version)
        seat = sockets[0].state["view"]["to_act"][0]
        mover = sockets[seat]
        card = mover.state["view"]["legal"][0]
        await mover.send({"action": "play", "card": card, "version": version})
        answer = await mover.receive_until(lambda f: f["type"] in ("ack", "error"))
        assert answer == {"type": "ack", "version": version + 1}, answer
        await catch_up(sockets, version + 1)
        made.append((version + 1, seat, card))


def assert_each_move_applied_once(table_id, made):
    """The log holds exactly the moves made, in order, at consecutive table versions, and the
    saved game has applied each once."""
    log = action_log(table_id)
    assert [(version, seat, card) for version, seat, card, _actor in log] == made
    versions = [version for version, *_ in log]
    assert versions == list(range(versions[0], versions[0] + len(versions))), "no move missing or repeated"
    game = storage.game_of(table_row(table_id))
    assert game.ply == len(log)


def card_tokens(text):
    return set(re.split(r"[^0-9A-Za-z]+", text))


async def close_all(sockets):
    for socket in sockets:
        await socket.close()


# --------------------------------------------------------------------------- daphne restarts


async def test_daphne_killed_mid_game_clients_reconnect_to_its_successor_and_play_on(live_processes, people):
    table = await sync_to_async(seat_people)(people)
    server = await sync_to_async(live_processes.daphne)(**FAST_HEARTBEAT)
    sockets, frames = await open_sockets(server.port, table.pk, people)
    try:
        assert [frame["type"] for frame in frames] == ["state"] * 4
        assert {frame["version"] for frame in frames} == {table.version}
        made = []
        await play(sockets, 6, made)
        before = await sync_to_async(table_row)(table.pk)
        assert before.version == made[-1][0]
        (dead,) = await sync_to_async(connection_servers)(table.pk)

        started = time.monotonic()
        server.kill()  # SIGKILL: no socket is closed properly, no row removed
        for socket in sockets:
            assert await socket.close_code(5) == 1006, "the connection just broke"
        assert await sync_to_async(connection_servers)(table.pk) == {dead}, "the dead server's rows stayed behind"

        successor = await sync_to_async(live_processes.daphne)(port=server.port, **FAST_HEARTBEAT)
        for socket in sockets:
            hand = socket.state["view"]["hand"]
            state = await socket.reopen(timeout=20)
            assert state["version"] == before.version, "the full state, at the version the game was at"
            assert state["state"]["view"]["hand"] == hand
        back_in = time.monotonic() - started
        await play(sockets, 6, made)

        await sync_to_async(assert_each_move_applied_once)(table.pk, made)
        # the successor swept the dead server's sockets; everyone is connected through it
        swept = await wait_for(
            lambda: dead not in connection_servers(table.pk) and not LiveServer.objects.filter(name=dead).exists(), 10
        )
        assert swept, await sync_to_async(connection_servers)(table.pk)
        assert len(await sync_to_async(connection_servers)(table.pk)) == 1
        seats = await sync_to_async(seat_rows)(table.pk)
        assert all(seat.connected and not seat.standing_in for seat in seats)
        assert "Exception inside application" not in server.log() + successor.log()
        print(f"daphne restart: clients back with the full state {back_in:.1f} s after the kill")
    finally:
        await close_all(sockets)


async def test_a_seat_whose_server_died_gets_its_stand_in_after_the_grace_period(
    live_processes, celery_worker_process, people
):
    table = await sync_to_async(seat_people)(people)
    absent = (await sync_to_async(storage.game_of)(table)).to_act[0]  # the person to play next never comes back
    env = dict(FAST_HEARTBEAT, LIVE_RECONNECT_GRACE_SECONDS=2)
    server = await sync_to_async(live_processes.daphne)(**env)
    sockets, frames = await open_sockets(server.port, table.pk, people)
    try:
        assert [frame["type"] for frame in frames] == ["state"] * 4
        server.kill()
        killed = time.monotonic()
        successor = await sync_to_async(live_processes.daphne)(port=server.port, **env)
        present = [socket for number, socket in enumerate(sockets) if number != absent]
        for socket in present:
            await socket.reopen(timeout=20)

        assert await wait_for(lambda: Seat.objects.get(table_id=table.pk, number=absent).standing_in, 20), (
            "the sweep closed the dead server's socket; a computer stood in after the grace period"
        )
        stood_in = time.monotonic() - killed
        for socket in present:
            update = await socket.receive_until(lambda f: f["type"] == "update" and f["events"][0]["type"] == "stand_in")
            assert update["events"][0]["seat"] == absent
            # it was that seat's turn: the computer (the Celery worker) plays it
            played = await socket.receive_until(lambda f: f["type"] == "update" and f["events"][0]["type"] == "card_played")
            assert played["events"][0]["seat"] == absent
        log = await sync_to_async(action_log)(table.pk)
        assert [(seat, actor) for _ply, seat, _card, actor in log] == [(absent, Action.Actor.STANDIN)]
        seats = await sync_to_async(seat_rows)(table.pk)
        assert [seat.standing_in for seat in seats] == [number == absent for number in range(4)]
        assert "connection_swept" in successor.log()
        # the grace period counts from the dead server's last heartbeat, so about max(timeout, grace)
        print(f"stand-in for a seat of a killed server: {stood_in:.1f} s after the kill (server timeout 2 s, grace 2 s)")
    finally:
        await close_all(sockets)


# --------------------------------------------------------------------------- Redis goes away


async def test_redis_briefly_unavailable_moves_fail_cleanly_then_succeed(live_processes, people):
    redis = await sync_to_async(live_processes.redis)()
    # a 30 s turn timer: every move sends a task to the broker (the private Redis)
    table = await sync_to_async(seat_people)(people, timer=30)
    server = await sync_to_async(live_processes.daphne)(REDIS_URL=redis.url, **FAST_HEARTBEAT)
    sockets, frames = await open_sockets(server.port, table.pk, people)
    try:
        assert [frame["type"] for frame in frames] == ["state"] * 4
        made = []
        await play(sockets, 2, made)
        before = await sync_to_async(table_row)(table.pk)

        redis.stop()
        stopped = time.monotonic()
        for socket in sockets:
            error = await socket.receive(5)
            assert error["type"] == "error" and error["code"] == "unavailable", error
            assert "Reconnecting" in error["message"]
            assert await socket.close_code(5) == CLOSE_TRY_AGAIN, "clients reconnect on this code"
        noticed = time.monotonic() - stopped

        # meanwhile the person to act tries again, and makes their move: refused, nothing changes
        seat = sockets[0].state["view"]["to_act"][0]
        mover = sockets[seat]
        card = mover.state["view"]["legal"][0]
        refused = Socket(server.port, table.pk, mover.cookie)
        frame = await refused.open()
        assert frame["type"] == "error" and frame["code"] == "unavailable", frame
        try:  # the server may have closed it already, or it ignores what comes after its refusal
            await refused.send({"action": "play", "card": card, "version": before.version})
        except ConnectionClosed:
            pass
        assert await refused.close_code(5) == CLOSE_TRY_AGAIN
        await asyncio.sleep(0.5)
        after = await sync_to_async(table_row)(table.pk)
        assert (after.version, after.ply) == (before.version, before.ply), "no move half-applied"

        redis.start()  # the same port, empty (no persistence): groups and queues are gone
        for socket in sockets:
            state = await socket.reopen(timeout=20)
            assert state["version"] == before.version
        back = time.monotonic() - stopped
        await mover.send({"action": "play", "card": card, "version": before.version})
        assert (await mover.receive_until(lambda f: f["type"] in ("ack", "error"))) == {
            "type": "ack", "version": before.version + 1,
        }, "the move succeeds once Redis is back (its turn timer was sent to the broker)"
        await catch_up(sockets, before.version + 1)
        made.append((before.version + 1, seat, card))
        await play(sockets, 2, made)  # and every socket hears of the next moves again
        await sync_to_async(assert_each_move_applied_once)(table.pk, made)

        log = server.log()
        assert "layer_unavailable" in log and "Exception inside application" not in log
        final = await sync_to_async(lambda: storage.game_of(table_row(table.pk)))()
        hidden = {str(c) for hand in final.hands for c in hand}
        leaked = hidden & card_tokens(log)
        assert not leaked, f"the server log names cards of hidden hands: {leaked}"
        print(f"redis outage: every socket told and closed in {noticed:.2f} s; all back {back:.1f} s after the stop")
    finally:
        await close_all(sockets)


def test_redis_restarted_computers_play_on_once_the_worker_is_back(live_processes, people, monkeypatch):
    """A worker that loses the broker drops the turns it held for later (sent with a
    countdown), and a Redis restarted without persistence has lost them too. The worker sends
    every pending turn again whenever it connects (live.tasks.ReplanWhenConnected) — after a
    reconnection, or after a restart: with celery/kombu 5.7.0 a worker holding such turns
    exits when Redis goes away ("Unrecoverable error: AttributeError ... 'hostname'"), so
    production runs it under a supervisor that restarts it, as this test does."""
    redis = live_processes.redis()
    monkeypatch.setattr(services, "schedule", lambda *args, **kwargs: None)  # this process sends nothing
    table = services.create_table(people[0], Rules(target=100), seat_bots=[None, "easy", "easy", "easy"], seed=5)
    Seat.objects.filter(table=table, number=0).update(standing_in=True)  # computers everywhere
    services.start_table(table.pk)
    monkeypatch.undo()
    start = table_row(table.pk).version
    worker = live_processes.worker(REDIS_URL=redis.url, BOT_DELAY_SECONDS=0.3)
    version = lambda: table_row(table.pk).version  # noqa: E731

    deadline = time.monotonic() + 30
    while version() < start + 8:  # the worker sent the first turn itself when it connected
        assert time.monotonic() < deadline, "the worker plays the computers"
        time.sleep(0.1)
    redis.stop()
    time.sleep(1)
    frozen = version()
    time.sleep(1)
    assert version() == frozen, "nothing moves while the broker is down (each next turn is a task it carries)"
    redis.start()
    restarted = time.monotonic()
    survived = True
    while version() < frozen + 5:
        if not worker.running:  # the supervisor's part: start it again
            survived = False
            worker.start()
        assert time.monotonic() - restarted < 30, "the worker connected again and sent the pending turn"
        time.sleep(0.1)
    print(f"broker restart: computers playing again {time.monotonic() - restarted:.1f} s after Redis was back "
          f"(the worker {'reconnected' if survived else 'had exited and was restarted'})")
    log = action_log(table.pk)
    assert [ply for ply, *_ in log] == list(range(log[0][0], log[0][0] + len(log))), "no ply missing or repeated"
