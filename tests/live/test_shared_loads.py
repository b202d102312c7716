"""Many sockets opening at once (a server restarted, a load run starting): when a connection
opens or closes, every socket at the table asks for the table as it is now, and one read of
it, made after the news was heard, serves them all (it was four reads per table per socket
opened); recording a socket takes few statements."""
import asyncio
from types import SimpleNamespace

import pytest

from live import consumers


class SlowLoads:
    """Stands in for ``db(storage.load)``: counts the reads, each taking a moment."""

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


@pytest.mark.django_db
def test_a_socket_opening_costs_few_statements(people):
    """Every socket of a restarted server opens at once: recording one is five statements
    (the row lock, this person's sockets there, the new socket, the seat, marking it)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.models import Seat
    from live import presence
    from tests.live.conftest import seat_people

    table = seat_people(people)
    with CaptureQueriesContext(connection) as queries:
        seat = presence.connection_opened(table.pk, people[1], "specific.x!1", "alive:1:aaaa")
    statements = [q["sql"].split()[0] for q in queries if q["sql"].split()[0] not in (
        "BEGIN", "COMMIT", "SAVEPOINT", "RELEASE")]
    assert statements == ["SELECT", "SELECT", "INSERT", "SELECT", "UPDATE"], [q["sql"][:150] for q in queries]
    assert seat.connected and Seat.objects.get(pk=seat.pk).connected
    again = presence.connection_opened(table.pk, people[1], "specific.x!1", "alive:1:aaaa")
    assert again.connected, "the same socket recorded twice: one row"
    assert table.connections.filter(user=people[1]).count() == 1
