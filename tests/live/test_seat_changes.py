"""A socket serves the seat its person holds now, never the one they held when it opened:
leaving, changing seats and a new occupant must not send one seat's cards to another's socket,
and the connection rows follow the person so a new occupant who drops is stood in."""
import re

import pytest
from asgiref.sync import sync_to_async

from games import services, storage
from games.engine import Rules
from games.models import Seat, Table
from live import rooms
from live.models import TableConnection
from tests.live.conftest import Player, wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

HAND_CARD = re.compile(r'data-(?:card|face)="([0-9TJQKA][CDSH])"')


def room_with(host):
    return services.create_table(host, Rules(passing="none"), kind=Table.Kind.FRIENDS, seat_bots=[None] * 4, seed=11)


def hands(table_id):
    return storage.game_of(Table.objects.get(pk=table_id)).hands


def cards_shown(frame) -> set[str]:
    if isinstance(frame, dict):
        view = (frame.get("state") or {}).get("view") or {}
        return set(view.get("hand") or [])
    return set(HAND_CARD.findall(frame))


@pytest.mark.parametrize("fmt", ["json", "html"])
async def test_a_socket_follows_its_person_to_their_new_seat_and_never_shows_the_old_one(people, fmt):
    ann, bob, cat, dan = people
    table = await sync_to_async(room_with)(ann)
    await sync_to_async(rooms.take_seat)(table.pk, bob, 1)
    socket = await Player.create(bob, table.pk, fmt=fmt)
    assert await socket.connect()
    await socket.receive()
    await sync_to_async(rooms.leave_seat)(table.pk, bob)
    await sync_to_async(rooms.take_seat)(table.pk, bob, 2)
    await sync_to_async(rooms.take_seat)(table.pk, cat, 1)
    await sync_to_async(rooms.take_seat)(table.pk, dan, 3)
    await sync_to_async(services.start_table)(table.pk)
    frames = await socket.drain(0.5)
    dealt = await sync_to_async(hands)(table.pk)
    started = [frame for frame in frames if cards_shown(frame)]
    assert started, "bob's socket was told of the start"
    for frame in started:
        assert cards_shown(frame) == {str(card) for card in dealt[2]}, "only bob's own (new) seat's hand"
    if fmt == "json":
        assert started[-1]["state"]["seat"] == 2
    # His socket row followed him; the seat he left is cat's, and hers alone.
    assert await sync_to_async(lambda: Seat.objects.get(table=table, number=2).connected)()
    assert not await sync_to_async(lambda: Seat.objects.get(table=table, number=1).connected)()
    await socket.close()


async def test_a_new_occupant_of_a_seat_left_with_a_socket_open_is_stood_in_when_they_drop(people, settings):
    settings.LIVE_RECONNECT_GRACE_SECONDS = 0
    ann, bob, cat, dan = people
    table = await sync_to_async(room_with)(ann)
    await sync_to_async(rooms.take_seat)(table.pk, bob, 1)
    bob_socket = await Player.create(bob, table.pk)
    assert await bob_socket.connect()
    await bob_socket.receive()
    await sync_to_async(rooms.leave_seat)(table.pk, bob)
    await sync_to_async(rooms.take_seat)(table.pk, cat, 1)
    cat_socket = await Player.create(cat, table.pk)
    assert await cat_socket.connect()
    await cat_socket.receive()
    await sync_to_async(rooms.take_seat)(table.pk, dan, 2)
    await sync_to_async(rooms.fill_empty_seats)(table.pk, ann)
    await sync_to_async(rooms.start_live_table)(table.pk, ann)
    await cat_socket.close()  # cat drops: bob's socket, still open on the room, is not hers
    assert await wait_for(lambda: Seat.objects.get(table=table, number=1).standing_in, timeout=10)
    await bob_socket.close()


async def test_a_watcher_of_the_waiting_room_goes_on_watching_the_game_with_public_information_only(people, subscribe):
    ann, bob, cat, eve = people
    await sync_to_async(subscribe)(eve, days=30)
    table = await sync_to_async(room_with)(ann)
    watcher = await Player.create(eve, table.pk)
    assert await watcher.connect()
    first = await watcher.receive()
    assert first["type"] == "state" and first["state"]["seat"] is None
    await sync_to_async(rooms.take_seat)(table.pk, bob, 1)
    await sync_to_async(rooms.take_seat)(table.pk, cat, 2)
    await sync_to_async(rooms.fill_empty_seats)(table.pk, ann)
    await sync_to_async(rooms.start_live_table)(table.pk, ann)
    started = await watcher.receive_until(lambda f: f.get("state", {}).get("status") == "playing")
    state = started["state"]
    assert state["seat"] is None and state["watchers"] == 1
    view = state["view"]
    assert (view["hand"], view["legal"], view["passed"], view["received"]) == ([], [], None, None)
    assert view["hand_sizes"] == [13, 13, 13, 13]
    await watcher.send({"action": "play", "card": "2C", "version": started["version"]})
    refused = await watcher.receive_until(lambda f: f.get("type") == "error")
    assert refused["code"] == "no_seat", "watching has no effect on the game"
    await watcher.close()
    assert await wait_for(lambda: not TableConnection.objects.filter(table=table, user=eve).exists(), timeout=5)


async def test_one_person_may_hold_only_a_few_sockets_at_one_table(people, settings):
    ann = people[0]
    table = await sync_to_async(room_with)(ann)
    sockets = []
    for _ in range(settings.SOCKETS_PER_PERSON_PER_TABLE):
        socket = await Player.create(ann, table.pk)
        assert await socket.connect()
        assert (await socket.receive())["type"] == "state"
        sockets.append(socket)
    extra = await Player.create(ann, table.pk)
    assert await extra.connect()
    refused = await extra.receive()
    assert refused["type"] == "error" and refused["code"] == "too_many_sockets"
    assert "close one" in refused["message"]
    assert (await extra.comm.receive_output(2))["code"] == 4429
    count = await sync_to_async(TableConnection.objects.filter(table=table, user=ann).count)()
    assert count == settings.SOCKETS_PER_PERSON_PER_TABLE
    for socket in sockets:
        await socket.close()