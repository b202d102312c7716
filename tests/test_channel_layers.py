"""The embedded default's channel layer expires undelivered messages like channels' own,
but scans for them at most once a second instead of before every receive."""
import asyncio

from hearts_site.channel_layers import ThrottledInMemoryChannelLayer


def test_expired_messages_are_still_dropped_and_scans_are_throttled(monkeypatch):
    async def scenario():
        layer = ThrottledInMemoryChannelLayer(expiry=1)
        clock = [1000.0]
        monkeypatch.setattr("channels.layers.time.time", lambda: clock[0])
        monkeypatch.setattr("hearts_site.channel_layers.time.monotonic", lambda: clock[0])
        await layer.group_add("table-1", "specific.a!x")
        await layer.group_add("table-1", "specific.a!y")
        await layer.send("specific.a!x", {"type": "old"})
        scans = []
        original = ThrottledInMemoryChannelLayer.__mro__[1]._clean_expired
        monkeypatch.setattr(ThrottledInMemoryChannelLayer.__mro__[1], "_clean_expired",
                            lambda self: (scans.append(clock[0]), original(self)))
        await layer.send("specific.a!y", {"type": "fresh"})
        assert (await layer.receive("specific.a!y"))["type"] == "fresh"
        await layer.send("specific.a!y", {"type": "fresh"})
        assert (await layer.receive("specific.a!y"))["type"] == "fresh"
        assert len(scans) == 1, "one scan in the same second"
        clock[0] += 5  # "old" is now expired and x is dropped from the group, as in channels
        await layer.send("specific.a!y", {"type": "fresh"})
        await layer.receive("specific.a!y")
        assert len(scans) == 2
        assert "specific.a!x" not in layer.groups["table-1"]
        assert "specific.a!x" not in layer.channels

    asyncio.run(scenario())
