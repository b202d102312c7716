"""When a connection opens or closes, every socket at the table asks for the table as it is
now: one read of it, made after the news was heard, serves them all (a server's sockets all
reconnecting at once after a restart made four reads per table per connection)."""
import asyncio
from types import SimpleNamespace

from live import consumers


class SlowLoads:
    """Stands in for ``db(snapshots.load)``: counts the reads, each taking a moment."""

    def __init__(self):
        self.reads = 0

    def __call__(self, function):
        async def load(table_id):
            self.reads += 1
            number = self.reads
            await asyncio.sleep(0.05)
            return SimpleNamespace(table=table_id, read=number, version=0)

        return load


async def test_the_sockets_of_a_table_share_one_read_after_the_same_presence_news(monkeypatch):
    loads = SlowLoads()
    monkeypatch.setattr(consumers, "db", loads)
    monkeypatch.setattr(consumers, "_presence_heard", {})
    news = {"type": "table.presence", "table": 7, "id": "a1"}

    async def socket():
        await asyncio.sleep(0)  # the sockets handle the news one after another
        return await consumers.snapshot_read_since(7, consumers.presence_heard_at(dict(news)))

    got = await asyncio.gather(*(socket() for _ in range(4)))
    assert loads.reads == 1 and [snapshot.read for snapshot in got] == [1, 1, 1, 1]


async def test_a_read_that_began_before_the_news_was_heard_is_not_shared(monkeypatch):
    loads = SlowLoads()
    monkeypatch.setattr(consumers, "db", loads)
    monkeypatch.setattr(consumers, "_presence_heard", {})
    earlier = asyncio.ensure_future(consumers.snapshot_read_since(7, asyncio.get_running_loop().time()))
    await asyncio.sleep(0.01)  # that read is on its way when the news comes
    heard = consumers.presence_heard_at({"table": 7, "id": "b2"})
    assert (await consumers.snapshot_read_since(7, heard)).read == 2
    assert (await earlier).read == 1


async def test_each_presence_message_is_heard_once_per_table(monkeypatch):
    monkeypatch.setattr(consumers, "_presence_heard", {})
    first = consumers.presence_heard_at({"table": 3, "id": "x"})
    await asyncio.sleep(0.01)
    assert consumers.presence_heard_at({"table": 3, "id": "x"}) == first, "the same news: when first heard"
    later = consumers.presence_heard_at({"table": 3, "id": "y"})
    assert later > first, "newer news: heard now"
    assert consumers.presence_heard_at({"table": 4, "id": "x"}) > first, "another table's"
