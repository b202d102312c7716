"""games.realtime's outbox: the news of a change survives a blip of the channel layer, a
layer that stays down does not hold every later message up, and news of who is online waits
in it once per table."""
import asyncio

from redis.exceptions import ConnectionError as RedisConnectionError

from games import realtime


class FlakyLayer:
    def __init__(self, failures):
        self.failures = failures
        self.sent = []

    async def group_send(self, group, message):
        if self.failures:
            self.failures -= 1
            raise RedisConnectionError("Too many connections")
        self.sent.append((group, message["version"]))


async def run_outbox(layer, messages, monkeypatch, wait=1.5):
    monkeypatch.setattr(realtime, "get_channel_layer", lambda: layer)
    outbox = asyncio.Queue()
    for version in messages:
        outbox.put_nowait(("table-1", {"version": version}))
    task = asyncio.get_running_loop().create_task(realtime._send_outbox(outbox))
    await asyncio.sleep(wait)
    task.cancel()


async def test_a_blip_of_the_layer_delays_the_news_but_loses_none(monkeypatch):
    layer = FlakyLayer(failures=2)
    await run_outbox(layer, [5, 6], monkeypatch)
    assert layer.sent == [("table-1", 5), ("table-1", 6)], "sent again, in order"


async def test_a_layer_that_stays_down_is_tried_once_per_message_after_giving_up(monkeypatch, caplog):
    layer = FlakyLayer(failures=4 + 2)  # the first message's 4 tries, one try each for the next two
    await run_outbox(layer, [5, 6, 7, 8], monkeypatch)
    assert layer.sent == [("table-1", 8)]
    assert caplog.text.count("notify_failed") == 3


class RecordingLayer:
    def __init__(self):
        self.sent = []

    async def group_send(self, group, message):
        self.sent.append((group, message["type"]))


async def test_presence_news_of_a_table_waits_in_the_outbox_once(monkeypatch):
    layer = RecordingLayer()
    monkeypatch.setattr(realtime, "get_channel_layer", lambda: layer)
    realtime.remember_server_loop()
    try:
        for _ in range(3):  # three sockets of table 1 open while the outbox is busy
            realtime.notify_presence(1)
        realtime.notify_table(1, 5)
        realtime.notify_presence(2)
        realtime.notify_presence(1)
        await asyncio.sleep(0.1)
        assert layer.sent == [("table-1", "table.presence"), ("table-1", "table.changed"),
                              ("table-2", "table.presence")]
        realtime.notify_presence(1)  # news after the last was sent is sent
        await asyncio.sleep(0.1)
        assert layer.sent[3:] == [("table-1", "table.presence")]
    finally:
        task = realtime._outbox_task
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
