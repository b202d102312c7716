"""The channel layers: the embedded default's (:class:`ThrottledInMemoryChannelLayer`) and
production's (:class:`RedisPubSubChannelLayer`).

The embedded default's is channels' in-memory layer, expiring old messages at most once every
``clean_interval_seconds`` instead of on every receive. channels' ``InMemoryChannelLayer``
scans every channel and every group before each ``receive`` — each socket receives once per
change of its table — so with 2,000 sockets the scans cost more than the games themselves
(about a quarter of the server's time in ``python -m tests.load --tables 500``). Once a
second, the scans still took 2.6% of the server's time with 3,200 sockets (py-spy, ``--tables
800``), so they run every ten seconds. Only a message nobody received waits for a scan (its
socket closed without leaving its group): it is dropped after ``expiry`` seconds, give or take ten.
"""
import asyncio
import time

from channels.layers import InMemoryChannelLayer
from channels_redis import pubsub
from redis.exceptions import ConnectionError as RedisConnectionError

from games.faults import LAYER_FAULTS, describe

CHECKED_WITH = {"channels": "4.3.2", "channels_redis": "4.3.0"}
"""The versions whose source the overrides below were read against (channels'
``InMemoryChannelLayer._clean_expired``; channels_redis' ``RedisPubSubChannelLayer._get_layer``,
``RedisPubSubLoopLayer``, ``RedisSingleShardConnection._do_receiving``, ``pubsub._wrap_close``
and ``pubsub._close_redis``); ``tests/test_library_internals.py`` fails on an upgrade."""


class ThrottledInMemoryChannelLayer(InMemoryChannelLayer):
    clean_interval_seconds = 10.0

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._next_clean = 0.0

    def _clean_expired(self):
        now = time.monotonic()
        if now < self._next_clean:
            return
        self._next_clean = now + self.clean_interval_seconds
        super()._clean_expired()


class RedisPubSubChannelLayer(pubsub.RedisPubSubChannelLayer):
    """Production's channel layer: channels_redis' pub/sub layer, whose losses are faults the
    sockets hear of.

    A group message is published once, and each process hands it to its own members. With
    channels_redis' list-based layer every member's copy was pushed to Redis and popped back
    one round trip at a time, which was about a fifth of a loaded server's time and made the
    news of moves queue (``python -m tests.load --tables 500`` on production settings: 8.3 ms
    of CPU per move and a p95 of 2.9 s, against 5.1 ms and 116 ms).

    Pub/sub keeps nothing for a process that is not listening: what is published while its
    connection is down is lost. So when its connection to Redis fails, every socket of the
    process is told: its pending ``receive`` raises Redis's ``ConnectionError``, as the
    list-based layer's did, and the consumer closes every socket of its process for the
    clients to reconnect and get the whole table (``live.consumers.TableConsumer.layer_lost``).
    The process then starts over with a new connection and no subscriptions: whoever connects
    meanwhile is refused when joining a group fails.

    A new channel is subscribed when Redis answers; while it does not, ``new_channel`` does
    not fail (as the list-based layer's, which does not touch Redis), and the socket is
    refused when it joins its table's group.
    """

    def _get_layer(self):
        loop = asyncio.get_running_loop()
        layer = self._layers.get(loop)
        if layer is None:
            layer = self._layers[loop] = _LoopLayer(*self._args, **self._kwargs, channel_layer=self)
            pubsub._wrap_close(self, loop)
        return layer


CONNECTION_LOST = "channel_layer.connection_lost"
"""The type of the message each channel of a process is handed when its connection to Redis
fails: its ``receive`` raises instead of returning it."""


class _LoopLayer(pubsub.RedisPubSubLoopLayer):
    def __init__(self, hosts=None, *args, **kwargs):
        super().__init__(hosts, *args, **kwargs)
        self._shards = [_Shard(host, self) for host in pubsub.decode_hosts(hosts)]

    async def _subscribe_to_channel(self, channel):
        try:
            await super()._subscribe_to_channel(channel)  # the channel's queue, then Redis
        except LAYER_FAULTS:
            pass  # Redis is down: joining a group will fail and say so

    async def receive(self, channel):
        message = await super().receive(channel)
        if message.get("type") == CONNECTION_LOST:
            self.channels.pop(channel, None)
            raise RedisConnectionError(message["error"])
        return message

    def connection_lost(self, shard: "_Shard", error: BaseException) -> None:
        """``shard``'s connection failed: every channel hears of it, and every group and
        channel of the shard is forgotten (the consumers leave as they close)."""
        lost = self.channel_layer.serialize({"type": CONNECTION_LOST, "error": describe(error)})
        for channel, queue in self.channels.items():
            if self._get_shard(channel) is shard:
                queue.put_nowait(lost)
        for group in [group for group in self.groups if self._get_shard(group) is shard]:
            del self.groups[group]


class _Shard(pubsub.RedisSingleShardConnection):
    async def _do_receiving(self):
        """channels_redis' receiving loop, except that a failed connection is handed to the
        layer (:meth:`_LoopLayer.connection_lost`) instead of logged and retried each second."""
        pubsub_client = self._pubsub
        while True:
            try:
                if pubsub_client.subscribed:
                    message = await pubsub_client.get_message(ignore_subscribe_messages=True, timeout=0.1)
                    self._receive_message(message)
                else:
                    await asyncio.sleep(0.1)
            except LAYER_FAULTS as error:
                self._forget(pubsub_client)
                self.channel_layer.connection_lost(self, error)
                return

    def _forget(self, pubsub_client) -> None:
        """Start over: the next subscription opens a new connection and a new receiving loop."""
        if self._pubsub is pubsub_client:
            redis = self._redis
            self._redis = self._pubsub = self._receive_task = None
            self._subscribed_to = set()
            asyncio.ensure_future(_close_quietly(redis, pubsub_client))


async def _close_quietly(redis, pubsub_client) -> None:
    try:
        await pubsub_client.aclose()
        await pubsub._close_redis(redis)
    except Exception:  # the connection is gone already
        pass
