"""The embedded default's channel layer expires undelivered messages like channels' own,
but scans for them at most once per interval instead of before every receive."""
import asyncio

from hearts_site.channel_layers import ThrottledInMemoryChannelLayer


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
