"""One person cannot hold sockets without end: at most SOCKETS_PER_PERSON_PER_TABLE to one
table and SOCKETS_PER_PERSON in all (per server process); the rest are refused with 4429,
and a flood of opened and closed sockets leaves nothing behind (counted: places, sockets,
group members and memory)."""
import gc
import tracemalloc

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

from games import services
from games.engine import Rules
from live import server
from live.consumers import CLOSE_TOO_MANY
from tests.live.conftest import Player, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)  # async tests: asyncio_mode = auto


def solo_table(user):
    table = services.create_table(user, Rules(), seat_bots=[None, "easy", "easy", "easy"], seed=3)
    return services.start_table(table.pk)


async def open_socket(user, table_id, cookie=None):
    """(the player, True) when accepted and sent the table, or (the player, the close code)."""
    player = await Player.create(user, table_id, cookie=cookie)
    assert await player.connect()
    frame = await player.receive(timeout=10)
    if isinstance(frame, dict) and frame.get("type") == "error":
        output = await player.comm.receive_output(timeout=5)
        assert output["type"] == "websocket.close", output
        return player, output.get("code")
    return player, True


async def test_sockets_beyond_the_caps_are_refused_with_4429_and_others_are_not_affected(people, settings):
    settings.SOCKETS_PER_PERSON_PER_TABLE, settings.SOCKETS_PER_PERSON = 3, 5
    ann, bob = people[0], people[1]
    first = await sync_to_async(solo_table)(ann)
    second = await sync_to_async(solo_table)(ann)
    opened = [await open_socket(ann, first.pk) for _ in range(5)]
    assert [result for _, result in opened] == [True] * 3 + [CLOSE_TOO_MANY] * 2
    refused = opened[-1][0].frames[-1]
    assert refused["code"] == "too_many_sockets" and "too many windows" in refused["message"]

    more = [await open_socket(ann, second.pk) for _ in range(3)]
    assert [result for _, result in more] == [True, True, CLOSE_TOO_MANY], "five in all"
    theirs = await sync_to_async(solo_table)(bob)
    other, result = await open_socket(bob, theirs.pk)
    assert result is True, "another person is not affected"

    await opened[0][0].comm.disconnect()
    again, result = await open_socket(ann, second.pk)
    assert result is True, "a closed socket gives its place back"
    for player, _ in opened + more + [(other, True), (again, True)]:
        await player.comm.disconnect()
    assert server.socket_places() == 0


async def test_a_flood_of_sockets_leaves_nothing_behind(people, settings):
    settings.SOCKETS_PER_PERSON_PER_TABLE = 4
    ann = people[0]
    table = await sync_to_async(solo_table)(ann)
    cookie = await sync_to_async(session_cookie)(ann)  # one browser: no login per socket

    async def flood(rounds):
        for _ in range(rounds):
            players = [await open_socket(ann, table.pk, cookie) for _ in range(10)]
            assert sum(result is True for _, result in players) == 4
            for player, _ in players:
                await player.comm.disconnect()

    await flood(3)  # warm: imports, caches, the first table snapshot
    # The log records pytest keeps to show on failure are the harness's, not the server's.
    harness = [tracemalloc.Filter(False, "*/logging/*"), tracemalloc.Filter(False, "*/_pytest/*")]

    async def growth(rounds):
        """Bytes still held after ``rounds`` floods, and the lines that hold the most."""
        gc.collect()
        tracemalloc.start()
        try:
            before = tracemalloc.take_snapshot().filter_traces(harness)
            await flood(rounds)
            gc.collect()
            diffs = tracemalloc.take_snapshot().filter_traces(harness).compare_to(before, "lineno")
        finally:
            tracemalloc.stop()
        return sum(stat.size_diff for stat in diffs), "; ".join(
            f"{stat.traceback} {stat.size_diff / 1024:+.0f} KiB" for stat in diffs[:6])

    # Two floods of 150 sockets: a leak grows in both, while bounded caches (the compiled
    # statements, the query log) and whatever else the process does meanwhile fill one at most.
    (first, first_growers), (second, second_growers) = await growth(15), await growth(15)
    layer = get_channel_layer()
    members = sum(len(channels) for channels in getattr(layer, "groups", {}).values())
    print(f"2 x 150 sockets opened and closed: memory grew by {first / 1024:.0f} and {second / 1024:.0f} KiB; "
          f"places {server.socket_places()}, open sockets {len(server._sockets)}, group members {members}")
    assert server.socket_places() == 0 and not server._sockets and members == 0
    # The flood reported kept 57 KB a socket; 8 KiB a socket in both floods is a leak.
    assert min(first, second) < 150 * 8 * 1024, (
        f"memory came back after each flood ({first / 1024:.0f} KiB: {first_growers}) "
        f"({second / 1024:.0f} KiB: {second_growers})")
