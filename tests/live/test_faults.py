"""Faults of the live machinery, in one process: a server process that dies with its sockets
open, the channel layer (Redis) lost, the task broker down. Real processes: test_processes.py."""
import asyncio
import datetime as dt
import logging

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.utils import timezone
from redis.exceptions import ConnectionError as RedisConnectionError

from games import services, storage
from games.engine import Rules
from games.models import Action, Seat, Table
from live import presence, rooms, server
from live.consumers import CLOSE_TRY_AGAIN
from live.models import LiveServer, TableConnection
from tests.live.conftest import Player, connect_all, seat_people

pytestmark = pytest.mark.django_db(transaction=True)  # async tests: asyncio_mode = auto

DEAD = "old-host:4242:deadbeef"


def seat_row(table_id, number):
    return Seat.objects.get(table_id=table_id, number=number)


def table_row(table_id):
    return Table.objects.get(pk=table_id)


def server_died(name, seconds_ago):
    """A server process that registered and then fell silent ``seconds_ago`` seconds ago."""
    heard = timezone.now() - dt.timedelta(seconds=seconds_ago)
    LiveServer.objects.update_or_create(name=name, defaults={"heartbeat_at": heard})
    return heard


def hidden_cards(table_id):
    return {str(card) for hand in storage.game_of(table_row(table_id)).hands for card in hand}


# --------------------------------------------------------------------------- a server dies


def test_the_sockets_of_a_crashed_server_are_closed_and_a_computer_stands_in(people, settings):
    """The bug: a daphne killed with sockets open left their TableConnection rows, so the seat
    looked connected forever and no computer ever stood in."""
    settings.LIVE_RECONNECT_GRACE_SECONDS = 60
    table = seat_people(people)
    server_died(DEAD, seconds_ago=5)
    presence.connection_opened(table.pk, people[1], "specific.old!bob", DEAD)  # bob's socket on that server
    heard = server_died(DEAD, seconds_ago=61)  # ...which then crashed, 61 s ago
    assert seat_row(table.pk, 1).connected

    assert presence.sweep_dead_connections() == 1
    seat = seat_row(table.pk, 1)
    assert not seat.connected and seat.left_at > heard, "the grace period counts from when the outage is noticed"
    assert not seat.standing_in, "bob could not come back while his server was away"
    Seat.objects.filter(pk=seat.pk).update(left_at=timezone.now() - dt.timedelta(seconds=61))
    assert presence.stand_in_overdue_seats() == 1
    seat = seat_row(table.pk, 1)
    assert seat.standing_in, "grace over: a computer stands in"
    assert not TableConnection.objects.filter(table_id=seat.table_id, user_id=seat.user_id).exists()
    assert not LiveServer.objects.filter(name=DEAD).exists(), "a dead server with no sockets is forgotten"
    assert presence.sweep_dead_connections() == 0


def test_a_dead_servers_socket_is_closed_with_the_grace_period_still_running(people, settings):
    settings.LIVE_RECONNECT_GRACE_SECONDS = 60
    table = seat_people(people)
    server_died(DEAD, seconds_ago=40)
    presence.connection_opened(table.pk, people[2], "specific.old!cat", DEAD)
    presence.sweep_dead_connections()
    seat = seat_row(table.pk, 2)
    assert not seat.connected and not seat.standing_in, "20 s of grace are left"
    # the stand-in task of that absence comes later; the heartbeat's safety net finds nothing yet
    assert presence.stand_in_overdue_seats() == 0
    # cat comes back on another server: her seat is hers, nothing was stood in
    presence.register_live_server("new-host:1:cafe")
    presence.connection_opened(table.pk, people[2], "specific.new!cat", "new-host:1:cafe")
    assert seat_row(table.pk, 2).connected


def test_the_sockets_of_living_servers_are_kept(people, settings):
    settings.LIVE_RECONNECT_GRACE_SECONDS = 0
    table = seat_people(people)
    presence.register_live_server("alive:1:aaaa")
    presence.connection_opened(table.pk, people[1], "specific.alive!bob", "alive:1:aaaa")
    server_died(DEAD, seconds_ago=5)
    presence.connection_opened(table.pk, people[3], "specific.old!dan-tab1", DEAD)
    presence.connection_opened(table.pk, people[3], "specific.alive!dan-tab2", "alive:1:aaaa")
    server_died(DEAD, seconds_ago=61)

    assert presence.sweep_dead_connections() == 1
    assert seat_row(table.pk, 1).connected
    dan = seat_row(table.pk, 3)
    assert dan.connected and not dan.standing_in, "dan's other tab, on a living server, is still open"
    assert list(TableConnection.objects.filter(table_id=dan.table_id, user_id=dan.user_id).values_list("channel_name", flat=True)) == ["specific.alive!dan-tab2"]


def test_connections_recorded_before_servers_registered_are_swept(people, settings):
    """Rows from before the LiveServer migration (server "") belong to no living server."""
    settings.LIVE_RECONNECT_GRACE_SECONDS = 0
    table = seat_people(people)
    presence.connection_opened(table.pk, people[1], "specific.legacy!bob", "")
    assert presence.sweep_dead_connections() == 1
    assert seat_row(table.pk, 1).standing_in


def test_a_socket_reported_closed_twice_keeps_its_grace_period(people, settings):
    settings.LIVE_RECONNECT_GRACE_SECONDS = 60
    table = seat_people(people)
    presence.register_live_server("alive:1:aaaa")
    presence.connection_opened(table.pk, people[1], "specific.x!bob", "alive:1:aaaa")
    assert presence.connection_closed(table.pk, people[1], "specific.x!bob")
    first = seat_row(table.pk, 1).left_at
    # a sweep (or a second server) reports the same socket again: nothing changes
    assert presence.connection_closed(table.pk, people[1], "specific.x!bob")
    assert seat_row(table.pk, 1).left_at == first


def test_an_absence_recorded_with_the_broker_down_still_gets_its_stand_in(people, settings, monkeypatch, caplog):
    """connection_closed records the absence whatever the broker; its stand-in task waits for
    the broker, and the heartbeat's safety net stands in once the grace period is over."""
    from kombu.exceptions import OperationalError

    from hearts_site import taskrunner
    from live.tasks import stand_in_task

    settings.LIVE_RECONNECT_GRACE_SECONDS = 60
    table = seat_people(people)
    presence.register_live_server("alive:1:aaaa")
    presence.connection_opened(table.pk, people[1], "specific.x!bob", "alive:1:aaaa")
    settings.TASK_RUNNER = "celery"

    def broker_down(*args, **kwargs):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(stand_in_task, "apply_async", broker_down)
    monkeypatch.setattr(taskrunner, "_unsent", __import__("collections").deque())
    with caplog.at_level(logging.WARNING, logger="hearts_site.taskrunner"):
        assert presence.connection_closed(table.pk, people[1], "specific.x!bob")
    seat = seat_row(table.pk, 1)
    assert not seat.connected and seat.left_at is not None and not TableConnection.objects.filter(table_id=seat.table_id, user_id=seat.user_id).exists()
    assert any("task_not_sent task=games.stand_in_if_gone" in r.getMessage() for r in caplog.records)
    assert taskrunner.unsent() == 1

    settings.TASK_RUNNER = "eager"
    assert presence.stand_in_overdue_seats() == 0, "within the grace period"
    Seat.objects.filter(pk=seat.pk).update(left_at=timezone.now() - dt.timedelta(seconds=61))
    assert presence.stand_in_overdue_seats() == 1
    assert seat_row(table.pk, 1).standing_in


def test_a_server_heartbeat_says_whether_it_had_been_taken_for_dead():
    presence.register_live_server("s:1:a")
    assert presence.live_server_heartbeat("s:1:a")
    LiveServer.objects.filter(name="s:1:a").delete()  # swept while it was stalled
    assert not presence.live_server_heartbeat("s:1:a")
    assert LiveServer.objects.filter(name="s:1:a").exists(), "registered again"


async def test_a_living_server_sweeps_a_dead_one_on_its_heartbeat(people, settings):
    settings.LIVE_RECONNECT_GRACE_SECONDS = 0
    table = await sync_to_async(seat_people)(people)
    ann = await Player.create(people[0], table.pk)
    assert await ann.connect()
    await ann.receive()
    assert await sync_to_async(LiveServer.objects.filter(name=server.SERVER_NAME).exists)()
    await sync_to_async(server_died)(DEAD, 5)
    await sync_to_async(presence.connection_opened)(table.pk, people[1], "specific.old!bob", DEAD)
    await sync_to_async(server_died)(DEAD, 61)

    await server.beat()
    assert (await sync_to_async(seat_row)(table.pk, 1)).standing_in
    assert (await sync_to_async(seat_row)(table.pk, 0)).connected, "ann's socket, on this living server, is kept"
    update = await ann.receive_until(lambda f: f["type"] == "update" and f["events"][0]["type"] == "stand_in")
    assert update["events"][0]["seat"] == 1
    await ann.close()


async def test_a_server_taken_for_dead_while_alive_closes_its_sockets_and_they_come_back(people, settings):
    settings.LIVE_RECONNECT_GRACE_SECONDS = 60
    table = await sync_to_async(seat_people)(people)
    bob = await Player.create(people[1], table.pk)
    assert await bob.connect()
    await bob.receive()
    # another server swept this one while it was stalled: bob's seat was marked disconnected
    await sync_to_async(LiveServer.objects.filter(name=server.SERVER_NAME).delete)()
    await sync_to_async(presence.sweep_dead_connections)()
    assert not (await sync_to_async(seat_row)(table.pk, 1)).connected

    await server.beat()
    error = await bob.receive()
    assert error["type"] == "error" and error["code"] == "unavailable"
    assert await bob.comm.receive_output(2) == {"type": "websocket.close", "code": CLOSE_TRY_AGAIN}
    again = await Player.create(people[1], table.pk)
    assert await again.connect()
    assert (await again.receive())["type"] == "state"
    assert (await sync_to_async(seat_row)(table.pk, 1)).connected
    await again.close()


# --------------------------------------------------------------------------- the channel layer is lost


def layer_outage(monkeypatch):
    """Make the channel layer's reads fail (as channels_redis's do when Redis goes away) once
    the returned event is set."""
    layer = get_channel_layer()
    original = layer.receive
    down = asyncio.Event()

    async def receive(channel):
        message = asyncio.ensure_future(original(channel))
        outage = asyncio.ensure_future(down.wait())
        done, pending = await asyncio.wait({message, outage}, return_when=asyncio.FIRST_COMPLETED)
        for task in pending:
            task.cancel()
        if message in done:
            return message.result()
        raise RedisConnectionError("Connection closed by server.")

    monkeypatch.setattr(layer, "receive", receive)
    return down


async def test_a_lost_channel_layer_closes_every_socket_cleanly_and_frees_the_seats(people, settings, monkeypatch, caplog):
    """Without care the consumers die (daphne: 1011, "Exception inside application") and their
    TableConnection rows stay, so the seats look connected for as long as the server runs."""
    settings.LIVE_RECONNECT_GRACE_SECONDS = 60
    down = layer_outage(monkeypatch)
    table = await sync_to_async(seat_people)(people)
    players = await connect_all(people[:2], table.pk)
    for player in players:
        await player.receive()

    with caplog.at_level(logging.INFO):
        down.set()
        for player in players:
            error = await player.receive()
            assert error["type"] == "error" and error["code"] == "unavailable"
            assert "Reconnecting" in error["message"]
            assert await player.comm.receive_output(3) == {"type": "websocket.close", "code": CLOSE_TRY_AGAIN}
        for player in players:
            await asyncio.wait_for(player.comm.future, 5)
            assert player.comm.future.exception() is None, "the consumer ended cleanly, not with an exception"
    for number in (0, 1):
        seat = await sync_to_async(seat_row)(table.pk, number)
        assert not seat.connected and seat.left_at is not None, "the grace period runs"
    assert not await sync_to_async(TableConnection.objects.filter(table_id=table.pk).exists)()
    faults = [r.getMessage() for r in caplog.records if "layer_unavailable" in r.getMessage()]
    assert len(faults) == 1 and "sockets_dropped=2" in faults[0] and f"table={table.pk}" in faults[0]
    cards = await sync_to_async(hidden_cards)(table.pk)
    for record in caplog.records:
        assert not cards & set(record.getMessage().replace("=", " ").split())


async def test_connecting_while_the_channel_layer_is_down_is_refused_with_try_again(people, monkeypatch, settings):
    table = await sync_to_async(seat_people)(people)
    layer = get_channel_layer()

    async def group_add(group, channel):
        raise RedisConnectionError("Error 111 connecting to 127.0.0.1:6399. Connection refused.")

    monkeypatch.setattr(layer, "group_add", group_add)
    player = await Player.create(people[1], table.pk)
    assert await player.connect()
    error = await player.receive()
    assert error["type"] == "error" and error["code"] == "unavailable"
    assert await player.comm.receive_output(2) == {"type": "websocket.close", "code": CLOSE_TRY_AGAIN}
    assert not await sync_to_async(TableConnection.objects.filter(table_id=table.pk).exists)()

    monkeypatch.undo()  # Redis is back
    again = await Player.create(people[1], table.pk)
    assert await again.connect()
    state = await again.receive()
    assert state["type"] == "state" and state["version"] == table.version
    await again.close()


# --------------------------------------------------------------------------- the broker is down


async def test_a_move_over_the_socket_while_the_broker_is_down_is_made_and_its_timer_sent_when_the_broker_is_back(
    people, settings, monkeypatch,
):
    from kombu.exceptions import OperationalError

    from games.tasks import turn_timeout_task
    from hearts_site import taskrunner

    table = await sync_to_async(seat_people)(people, timer=30)
    players = await connect_all(people, table.pk)
    for player in players:
        await player.receive()
    for player in players:  # the first clock started once everyone was here
        await player.drain()
    table = await sync_to_async(Table.objects.get)(pk=table.pk)
    game = await sync_to_async(storage.game_of)(table)
    seat = game.to_act[0]
    card = str(game.legal(seat)[0])
    settings.TASK_RUNNER = "celery"

    def broker_down(*args, **kwargs):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(turn_timeout_task, "apply_async", broker_down)
    monkeypatch.setattr(taskrunner, "_unsent", __import__("collections").deque())
    await players[seat].send({"action": "play", "card": card, "version": table.version})
    assert (await players[seat].receive_until(lambda f: f["type"] == "ack"))["version"] == table.version + 1
    after = await sync_to_async(table_row)(table.pk)
    assert (after.version, after.ply) == (table.version + 1, table.ply + 1), "the move stands"
    assert taskrunner.unsent() == 1, "the next turn's timer waits for the broker"

    sent = []
    monkeypatch.setattr(turn_timeout_task, "apply_async", lambda **kwargs: sent.append(kwargs))  # the broker is back
    await server.beat()
    assert [message["args"][0] for message in sent] == [table.pk], "the heartbeat sent the waiting timer"
    assert abs((sent[0]["eta"] - after.turn_deadline).total_seconds()) < 1, "due when the clock runs out, not later"
    for player in players:
        await player.close()


async def test_frames_refused_by_the_socket_are_logged_without_their_cards(people, caplog):
    table = await sync_to_async(seat_people)(people)
    player = await Player.create(people[0], table.pk)
    assert await player.connect()
    await player.receive()
    hand = (await sync_to_async(lambda: storage.game_of(table_row(table.pk)).hands[0])())
    with caplog.at_level(logging.INFO, logger="live.consumers"):
        await player.send({"action": "play", "card": str(hand[0])})  # no version
        assert (await player.receive())["code"] == "malformed"
        await player.send({"action": "play", "card": str(hand[1]), "version": table.version, "seat": 3})
        assert (await player.receive())["code"] == "not_your_seat"
    lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("action_rejected")]
    assert len(lines) == 2
    assert f"table={table.pk} seat=0" in lines[0] and "code=malformed" in lines[0]
    assert "code=not_your_seat" in lines[1]
    for line in lines:
        assert str(hand[0]) not in line and str(hand[1]) not in line
    await player.close()


def test_the_worker_sends_pending_turns_again_whenever_it_connects(people, monkeypatch):
    """A worker that lost the broker dropped the turns it held for later; when it connects
    (at start or again) it re-plans: computer turns, overdue timers, stand-ins, dead sockets."""
    from live.tasks import ReplanWhenConnected, replan_task
    from hearts_site.celery import app

    assert ReplanWhenConnected in app.steps["consumer"]
    sent = []
    monkeypatch.setattr(replan_task, "delay", lambda: sent.append(True))
    ReplanWhenConnected(parent=None).start(consumer=None)
    assert sent
    monkeypatch.undo()

    monkeypatch.setattr(services, "schedule", lambda *args, **kwargs: None)  # the computer's turn is lost
    table = services.create_table(people[0], Rules(passing="none", target=20), seat_bots=[None, "easy", "easy", "easy"], seed=3)
    Seat.objects.filter(table=table, number=0).update(standing_in=True)
    services.start_table(table.pk)
    monkeypatch.undo()
    stalled = table_row(table.pk).version
    assert replan_task.apply().get()["tables"] == 1
    assert table_row(table.pk).status == Table.Status.FINISHED or table_row(table.pk).version > stalled + 10, (
        "the computers play again (the eager runner plays on at once)"
    )


def test_replanning_wakes_again_each_clock_and_reconnect_grace_that_runs(people, monkeypatch, settings):
    """The turn timers and stand-in checks a worker held are lost with it: the re-planning
    schedules each again, at the moment it was due (``games.table.conduct.pending_deadlines``)."""
    settings.LIVE_RECONNECT_GRACE_SECONDS = 60
    ann, bob = people[0], people[1]
    monkeypatch.setattr(services, "schedule", lambda *args, **kwargs: None)  # lost
    table = services.create_table(ann, Rules(passing="none"), kind=Table.Kind.FRIENDS,
                                  seat_bots=[None, None, "easy", "easy"], seed=3, turn_timer_seconds=30)
    rooms.take_seat(table.pk, bob, 1)
    services.start_table(table.pk)
    dropped_at = timezone.now() - dt.timedelta(seconds=20)
    Seat.objects.filter(table=table, number=1).update(connected=False, left_at=dropped_at)
    Seat.objects.filter(table=table, number=0).update(connected=True, left_at=None)
    deadline = timezone.now() + dt.timedelta(seconds=12)
    Table.objects.filter(pk=table.pk).update(turn_deadline=deadline)
    sent = []
    monkeypatch.setattr(services, "schedule", lambda name, *args, countdown=0: sent.append((name, args, countdown)))
    services.replan_playing_tables()
    by_name = {name: (args, countdown) for name, args, countdown in sent}
    assert by_name["games.turn_timeout"][0] == (table.pk, deadline.isoformat())
    assert 10 < by_name["games.turn_timeout"][1] <= 12
    assert by_name["games.stand_in_if_gone"][0] == (table.pk, 1, dropped_at.isoformat())
    assert 38 < by_name["games.stand_in_if_gone"][1] <= 40, "the 60 s grace, less the 20 s gone"


def test_an_outage_is_not_charged_to_the_person_whose_turn_it_is(people, settings):
    """Reported: a restarted server timed out the person to act 2 s after it was back, before
    any browser had reconnected. The clock starts again, whole, when the outage is noticed."""
    settings.LIVE_RECONNECT_GRACE_SECONDS = 60
    settings.LIVE_ARRIVAL_GRACE_SECONDS = 20
    table = seat_people(people, timer=30)
    server_died(DEAD, seconds_ago=5)
    for number, person in enumerate(people):
        presence.connection_opened(table.pk, person, f"specific.old!{number}", DEAD)
    almost_over = timezone.now() + dt.timedelta(seconds=1)
    Table.objects.filter(pk=table.pk).update(turn_deadline=almost_over)
    server_died(DEAD, seconds_ago=300)  # down for five minutes

    version = Table.objects.get(pk=table.pk).version
    assert presence.sweep_dead_connections() == 4
    table.refresh_from_db()
    left = (table.turn_deadline - timezone.now()).total_seconds()
    assert 45 < left <= 50, "the whole turn and the time to reconnect"
    assert table.version == version + 1
    assert not Action.objects.filter(table_id=table.pk, actor=Action.Actor.TIMEOUT).exists()
    assert not Seat.objects.filter(table_id=table.pk, standing_in=True).exists()
