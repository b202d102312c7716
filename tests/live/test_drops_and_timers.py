"""A person who drops keeps their seat for a grace period, then a computer stands in until
they are back; a person who runs out of time has the Medium computer play that turn."""
import datetime as dt

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from games import services, storage
from games.engine import Rules
from games.models import Action, Seat, Table
from live import presence
from live.models import TableConnection
from tests.live.conftest import Player, connect_all, seat_people

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def seat_row(table_id, number):
    return Seat.objects.get(table_id=table_id, number=number)


def table_row(table_id):
    return Table.objects.get(pk=table_id)


async def test_drop_then_stand_in_after_grace_then_reclaim(people, settings):
    settings.LIVE_RECONNECT_GRACE_SECONDS = 60
    table = await sync_to_async(seat_people)(people)
    players = await connect_all(people, table.pk)
    for player in players:
        await player.receive()
    game = await sync_to_async(storage.game_of)(table)
    seat = game.to_act[0]
    assert (await sync_to_async(seat_row)(table.pk, seat)).connected

    await players[seat].close()  # the person whose turn it is drops
    dropped = await sync_to_async(seat_row)(table.pk, seat)
    assert not dropped.connected and dropped.left_at is not None and not dropped.standing_in
    assert not await sync_to_async(TableConnection.objects.filter(table_id=dropped.table_id, user_id=dropped.user_id).exists)()
    # within the grace period nothing happens (the eager task ran too early and did nothing)
    assert (await sync_to_async(table_row)(table.pk)).version == table.version
    assert not await sync_to_async(presence.stand_in_if_gone)(table.pk, seat, dropped.left_at.isoformat())

    # the grace period is over: a computer stands in and, as it is that seat's turn, plays
    past = timezone.now() - dt.timedelta(seconds=61)
    await sync_to_async(Seat.objects.filter(pk=dropped.pk).update)(left_at=past)
    assert await sync_to_async(presence.stand_in_if_gone)(table.pk, seat, past.isoformat())
    after = await sync_to_async(table_row)(table.pk)
    assert after.version >= table.version + 2, "version bumped for the stand-in, then its move"
    assert await sync_to_async(Action.objects.filter(table_id=table.pk, seat=seat, actor=Action.Actor.STANDIN).count)() == 1
    other = players[(seat + 1) % 4]
    update = await other.receive_until(lambda f: f["type"] == "update" and f["events"][0]["type"] == "stand_in")
    assert update["version"] == table.version + 1
    names = {s["seat"]: s for s in update["state"]["seats"]}
    assert names[seat]["standing_in"] is True
    played = await other.receive_until(lambda f: f["type"] == "update" and f["events"][0]["type"] == "card_played")
    assert played["events"][0]["seat"] == seat

    # the person comes back on the same account: their seat, the full state, their own cards again
    back = await Player.create(people[seat], table.pk)
    assert await back.connect()
    state = await back.receive_until(lambda f: f["type"] == "state")
    seat_now = await sync_to_async(seat_row)(table.pk, seat)
    assert seat_now.connected and not seat_now.standing_in
    assert state["state"]["seat"] == seat
    reclaimed = await other.receive_until(lambda f: f["type"] == "update" and f["events"][0]["type"] == "seat_reclaimed")
    assert reclaimed["version"] == state["version"]
    for player in players + [back]:
        await player.close()


async def test_a_person_back_within_the_grace_period_keeps_playing(people, settings):
    settings.LIVE_RECONNECT_GRACE_SECONDS = 60
    table = await sync_to_async(seat_people)(people)
    player = await Player.create(people[1], table.pk)
    assert await player.connect()
    await player.receive()
    await player.close()
    left = (await sync_to_async(seat_row)(table.pk, 1)).left_at
    again = await Player.create(people[1], table.pk)
    assert await again.connect()
    await again.receive()
    assert not await sync_to_async(presence.stand_in_if_gone)(table.pk, 1, left.isoformat()), "an old absence"
    assert not (await sync_to_async(seat_row)(table.pk, 1)).standing_in
    await again.close()


async def test_two_tabs_closing_one_keeps_the_connection_opened(people, settings):
    settings.LIVE_RECONNECT_GRACE_SECONDS = 0
    table = await sync_to_async(seat_people)(people)
    tab1, tab2 = await connect_all([people[2], people[2]], table.pk)
    await tab1.receive()
    await tab2.receive()
    await tab1.close()
    seat = await sync_to_async(seat_row)(table.pk, 2)
    assert seat.connected and not seat.standing_in
    await tab2.close()
    seat = await sync_to_async(seat_row)(table.pk, 2)
    assert not seat.connected and seat.standing_in, "grace 0: a computer stands in at once"


async def test_no_grace_means_a_computer_plays_at_once_and_plays_the_game_through(people, settings):
    """Everyone leaves with a zero grace period: computers finish the game for them."""
    settings.LIVE_RECONNECT_GRACE_SECONDS = 0
    table = await sync_to_async(seat_people)(people, rules=Rules(target=20))
    players = await connect_all(people, table.pk)
    for player in players:
        await player.receive()
        await player.close()
    final = await sync_to_async(table_row)(table.pk)
    assert final.status == Table.Status.FINISHED


async def test_turn_timer_plays_for_the_person_and_everyone_sees_it(people):
    table = await sync_to_async(seat_people)(people, timer=30)
    players = await connect_all(people, table.pk)
    for player in players:
        state = await player.receive()
        assert state["state"]["turn_deadline"] is not None
        await player.drain()  # the clock started whole once everyone was here
    table = await sync_to_async(table_row)(table.pk)
    game = await sync_to_async(storage.game_of)(table)
    seat = game.to_act[0]
    deadline = table.turn_deadline
    assert 25 < (deadline - timezone.now()).total_seconds() <= 30
    # too early: ignored
    assert await sync_to_async(services.turn_timed_out)(table.pk, deadline.isoformat()) == 0
    past = timezone.now() - dt.timedelta(seconds=1)
    await sync_to_async(Table.objects.filter(pk=table.pk).update)(turn_deadline=past)
    assert await sync_to_async(services.turn_timed_out)(table.pk, past.isoformat()) == 1
    for player in players:
        update = await player.receive_until(lambda f: f["type"] == "update")
        assert update["events"][0]["seat"] == seat and update["version"] == table.version + 1
        assert update["state"]["turn_deadline"] is not None, "the next person's clock runs"
    assert await sync_to_async(Action.objects.filter(table_id=table.pk, actor=Action.Actor.TIMEOUT).count)() == 1
    # the move was made: the same timer firing again does nothing
    assert await sync_to_async(services.turn_timed_out)(table.pk, past.isoformat()) == 0
    for player in players:
        await player.close()


@pytest.mark.parametrize("runner", ["thread"])
async def test_turn_timer_fires_by_itself_on_the_in_process_runner(people, settings, runner):
    """The embedded default: a timer thread plays for the person and the move reaches the
    sockets through the server loop (the in-memory layer is not thread-safe)."""
    import asyncio

    settings.TASK_RUNNER = runner
    table = await sync_to_async(seat_people)(people, timer=30)
    players = await connect_all(people, table.pk)
    for player in players:
        await player.receive()
        await player.drain()  # the clock started whole once everyone was here
    table = await sync_to_async(table_row)(table.pk)
    # shorten the running timer: schedule the timeout task for a deadline just passed
    from hearts_site.taskrunner import schedule

    past = timezone.now() - dt.timedelta(seconds=1)

    def expire():
        Table.objects.filter(pk=table.pk).update(turn_deadline=past)
        schedule("games.turn_timeout", table.pk, past.isoformat(), countdown=0.05)

    await sync_to_async(expire)()
    for player in players:
        update = await player.receive_until(lambda f: f["type"] == "update", timeout=5)
        assert update["version"] == table.version + 1
    await asyncio.sleep(0.1)
    for player in players:
        await player.close()


def expire_turn(table_id) -> int:
    """The running turn timer runs out now (as its task would find it)."""
    past = timezone.now() - dt.timedelta(seconds=1)
    Table.objects.filter(pk=table_id).update(turn_deadline=past)
    return services.turn_timed_out(table_id, past.isoformat())


def others_play_until(table_id, idle, done) -> None:
    """The other people play (as Medium would) until ``done(table)`` holds; the idle seat's
    turns are left alone (a computer may play them)."""
    for _ in range(200):
        table = table_row(table_id)
        if done(table):
            return
        game = storage.game_of(table)
        number = game.to_act[0]
        assert number != idle, "the idle seat's turn waits"
        seat = table.seats.get(number=number)
        action = services.computer_action(game.view(number), "medium", table, number)
        services.submit_action(table_id, number, action, expected_version=table.version, user=seat.user)
    raise AssertionError("never happened")


def idle_to_act(idle):
    return lambda table: list(storage.game_of(table).to_act) == [idle]


async def test_a_person_whose_turn_runs_out_twice_in_a_row_is_away_until_they_are_back(people):
    from games import presenters, storage

    table = await sync_to_async(seat_people)(people, timer=30)
    idle = (await sync_to_async(storage.game_of)(table)).to_act[0]
    player = await Player.create(people[idle], table.pk)
    assert await player.connect()
    await player.receive()

    assert await sync_to_async(expire_turn)(table.pk) == 1
    assert not (await sync_to_async(seat_row)(table.pk, idle)).standing_in, "one turn missed is not away"
    await sync_to_async(others_play_until)(table.pk, idle, idle_to_act(idle))
    assert await sync_to_async(expire_turn)(table.pk) == 1
    assert (await sync_to_async(seat_row)(table.pk, idle)).standing_in, "two in a row: away"
    snapshot = await sync_to_async(storage.load)(table.pk)
    assert "I'm back</button>" in await sync_to_async(presenters.render_table)(snapshot, idle)
    plate = await sync_to_async(presenters.render_table)(snapshot, (idle + 1) % 4)
    assert f'id="t-seat-{idle}"' in plate and '<span class="presence">away</span>' in plate

    # Away: the seat's turns are played at once by a computer, never waiting for the timer.
    standins = Action.objects.filter(table_id=table.pk, seat=idle, actor=Action.Actor.STANDIN).count
    await sync_to_async(others_play_until)(table.pk, idle, lambda _table: standins() >= 2)
    assert await sync_to_async(Action.objects.filter(table_id=table.pk, actor=Action.Actor.TIMEOUT).count)() == 2

    await player.drain()
    await player.send({"action": "back"})
    back = await player.receive_until(lambda f: f["type"] == "update" and f["events"][0]["type"] == "seat_reclaimed")
    assert not {s["seat"]: s for s in back["state"]["seats"]}[idle]["standing_in"]
    await sync_to_async(others_play_until)(table.pk, idle, idle_to_act(idle))
    waiting = await sync_to_async(table_row)(table.pk)
    assert waiting.turn_deadline is not None and waiting.turn_deadline > timezone.now(), "their own clock again"
    await player.send({"action": "back"})
    refused = await player.receive_until(lambda f: f["type"] == "error")
    assert refused["code"] == "not_away"
    await player.close()
