"""The production channel layer (hearts_site.channel_layers.RedisPubSubChannelLayer) as
configured: hundreds of sockets joining at once do not exhaust its connections."""
import os

import pytest


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="production settings only")
async def test_hundreds_of_sockets_joining_at_once_do_not_exhaust_the_redis_pool():
    """A server's sockets all join their tables after a restart or an outage; redis-py's pool
    (100 connections by default) refused the rest with "Too many connections", which the
    server takes for a Redis outage and closes every socket: a reconnect storm."""
    import asyncio
    import uuid

    from hearts_site import settings as site_settings  # as configured, not as tests adjust it
    from hearts_site.channel_layers import RedisPubSubChannelLayer

    layer = RedisPubSubChannelLayer(**site_settings.CHANNEL_LAYERS["default"]["CONFIG"])
    prefix = uuid.uuid4().hex[:8]
    try:
        channels = await asyncio.gather(*(layer.new_channel() for _ in range(400)))
        await asyncio.gather(*(layer.group_add(f"t{prefix}-{i % 50}", c) for i, c in enumerate(channels)))
        await asyncio.gather(*(layer.group_send(f"t{prefix}-{i}", {"type": "table.changed"}) for i in range(50)))
        received = await asyncio.wait_for(asyncio.gather(*(layer.receive(c) for c in channels)), 10)
        assert [message["type"] for message in received] == ["table.changed"] * 400
        await asyncio.gather(*(layer.group_discard(f"t{prefix}-{i % 50}", c) for i, c in enumerate(channels)))
    finally:
        await layer.flush()
