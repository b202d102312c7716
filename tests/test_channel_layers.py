"""The channel layers (hearts_site/channel_layers.py): the embedded default's expires
undelivered messages like channels' own, but scans for them at most once per interval instead
of before every receive; production's publishes a group message once, and a process whose
connection to Redis fails tells every channel it holds."""
import asyncio
import os
import time

import pytest
from redis.exceptions import ConnectionError as RedisConnectionError

from hearts_site.channel_layers import RedisPubSubChannelLayer, ThrottledInMemoryChannelLayer
from tests import processes


async def test_expired_messages_are_still_dropped_but_scans_are_throttled():
    layer = ThrottledInMemoryChannelLayer(expiry=0.2)
    layer.clean_interval_seconds = 0.5
    for channel in ("specific.a!gone", "specific.a!here"):
        await layer.group_add("table-1", channel)
    await layer.send("specific.a!gone", {"type": "never.read"})

    async def round_trip():
        await layer.send("specific.a!here", {"type": "update"})
        assert (await layer.receive("specific.a!here"))["type"] == "update"

    await round_trip()  # scans: nothing has expired yet
    await asyncio.sleep(0.3)  # the unread message has expired ...
    await round_trip()  # ... but the next scan is not due
    assert "specific.a!gone" in layer.groups["table-1"]
    await asyncio.sleep(0.3)
    await round_trip()  # due: the expired message goes and its channel leaves the group, as in channels
    assert "specific.a!gone" not in layer.groups["table-1"]
    assert "specific.a!gone" not in layer.channels
    assert "specific.a!here" in layer.groups["table-1"]


@pytest.fixture
def redis(tmp_path):
    if not os.path.exists(processes.REDIS_SERVER):
        pytest.skip("needs redis-server")
    server = processes.RedisServer(tmp_path / "redis.log").start()
    yield server
    server.stop()


def pubsub_layer(redis) -> RedisPubSubChannelLayer:
    return RedisPubSubChannelLayer(hosts=[{"address": redis.url, "socket_timeout": 5}])


async def test_a_group_message_reaches_its_members_in_every_process_and_no_one_else(redis):
    here, there = pubsub_layer(redis), pubsub_layer(redis)  # two server processes
    try:
        ann, bob, cy = await here.new_channel(), await there.new_channel(), await there.new_channel()
        await here.group_add("table-1", ann)
        await there.group_add("table-1", bob)
        await there.group_add("table-2", cy)
        await here.group_send("table-1", {"type": "table.changed", "version": 3})
        assert await asyncio.wait_for(here.receive(ann), 2) == {"type": "table.changed", "version": 3}
        assert await asyncio.wait_for(there.receive(bob), 2) == {"type": "table.changed", "version": 3}
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(there.receive(cy), 0.3)
        own = await there.new_channel("healthz.")  # a channel of its own, as /healthz uses
        await here.send(own, {"type": "healthz.ping"})
        assert (await asyncio.wait_for(there.receive(own), 2))["type"] == "healthz.ping"
    finally:
        await here.flush()
        await there.flush()


async def test_when_redis_goes_away_every_channel_hears_it_and_joining_fails_until_it_is_back(redis):
    layer = pubsub_layer(redis)
    try:
        channels = [await layer.new_channel() for _ in range(3)]
        for number, channel in enumerate(channels):
            await layer.group_add(f"table-{number % 2}", channel)
        waiting = [asyncio.ensure_future(layer.receive(channel)) for channel in channels]
        await asyncio.sleep(0.2)

        redis.stop()
        stopped = time.monotonic()
        for receive in waiting:
            with pytest.raises(RedisConnectionError):
                await asyncio.wait_for(receive, 2)
        print(f"every channel told {time.monotonic() - stopped:.2f} s after Redis stopped")

        latecomer = await layer.new_channel()  # no error: as the list-based layer's, it waits for the group
        with pytest.raises(RedisConnectionError):
            await layer.group_add("table-0", latecomer)  # the socket is refused here, and tries again

        redis.start()  # the same port, empty
        again = await layer.new_channel()
        await layer.group_add("table-0", again)
        await layer.group_send("table-0", {"type": "table.changed", "version": 9})
        assert await asyncio.wait_for(layer.receive(again), 2) == {"type": "table.changed", "version": 9}
    finally:
        await layer.flush()
