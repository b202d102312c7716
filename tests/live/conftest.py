"""Helpers for live-play tests: people at one table, each with a real websocket client
through the site's ASGI application (origin check, session authentication, routing)."""
import asyncio
import json
import time

import pytest
from asgiref.sync import sync_to_async
from channels.layers import channel_layers
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from games import services, storage
from games.engine import Rules
from games.models import Table
from live import rooms


@pytest.fixture(autouse=True)
def _fresh_channel_layer():
    """Each test (and its event loop) gets its own channel layer."""
    from games import storage

    channel_layers.backends = {}
    storage.forget()
    yield
    channel_layers.backends = {}
    storage.forget()


@pytest.fixture(autouse=True)
def _close_thread_connections():
    """Threads (the consumers' database thread, timer threads) close their connections after
    each use, so PostgreSQL's test database can be dropped at the end."""
    from django.db import connections

    from asgiref.sync import SyncToAsync

    config = connections.settings["default"]
    before = config.get("CONN_MAX_AGE", 0)
    config["CONN_MAX_AGE"] = 0
    yield
    config["CONN_MAX_AGE"] = before
    # A test's own sync_to_async calls run on asgiref's one long-lived thread, and nothing
    # closes that thread's connection: close it, or the test database cannot be dropped.
    SyncToAsync.single_thread_executor.submit(connections.close_all).result(timeout=10)


@pytest.fixture
def people(django_user_model):
    """Four players: ann (host), bob, cat, dan."""
    return [
        django_user_model.objects.create_user(name, display_name=name.title())  # no password: no slow hashing
        for name in ("ann", "bob", "cat", "dan")
    ]


def play_people_until_over(table_id, each=None):
    """People at the table play what the Medium bot would, through the ordinary move path;
    ``each(table, game)`` sees every state on the way, the last one included. Returns the
    finished table."""
    for _ in range(3000):
        table = Table.objects.get(pk=table_id)
        game = storage.game_of(table)
        if each is not None:
            each(table, game)
        if table.status != Table.Status.PLAYING:
            return table
        number = game.to_act[0]
        seat = table.seats.get(number=number)
        action = services.computer_action(game.view(number), "medium", table, number)
        services.submit_action(table_id, number, action, expected_version=table.version, user=seat.user)
    raise AssertionError("the game did not end")


def seat_people(users, *, rules=None, seed=5, timer=0, start=True, kind=Table.Kind.FRIENDS, bots=None):
    """A live table with ``users`` seated in order (and computers at the ``bots`` seats)."""
    rules = rules or Rules(passing="none")
    seat_bots = [None] * rules.players
    for number, level in (bots or {}).items():
        seat_bots[number] = level
    table = services.create_table(users[0], rules, kind=kind, seat_bots=seat_bots, seed=seed, turn_timer_seconds=timer)
    for number, user in enumerate(users[1:], start=1):
        rooms.take_seat(table.pk, user, number)
    if start:
        services.start_table(table.pk)
    table.refresh_from_db()
    return table


def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


class Player:
    """One person's websocket at a table, speaking the JSON format."""

    def __init__(self, user, table_id, *, fmt="json", origin="http://testserver", cookie=None):
        from hearts_site.asgi import application

        self.user, self.table_id = user, table_id
        query = "?format=json" if fmt == "json" else ""
        self.cookie = cookie or (session_cookie(user) if user is not None else None)
        headers = [(b"origin", origin.encode())]
        if self.cookie:
            headers.append((b"cookie", f"{settings.SESSION_COOKIE_NAME}={self.cookie}".encode()))
        self.comm = WebsocketCommunicator(application, f"/ws/table/{table_id}/{query}", headers=headers)
        self.frames: list = []

    @classmethod
    async def create(cls, user, table_id, **kwargs):
        return await sync_to_async(cls)(user, table_id, **kwargs)

    async def connect(self):
        connected, code = await self.comm.connect(timeout=5)
        return connected

    async def receive(self, timeout=3, *, presence=False):
        """The next frame; presence frames (someone's socket opened or closed: they come
        whenever others connect) are skipped unless ``presence``."""
        while True:
            text = await self.comm.receive_from(timeout=timeout)
            try:
                frame = json.loads(text)
            except ValueError:
                frame = text
            self.frames.append(frame)
            if presence or not (isinstance(frame, dict) and frame.get("type") == "presence"):
                return frame

    async def receive_until(self, predicate, timeout=5, limit=200):
        for _ in range(limit):
            frame = await self.receive(timeout)
            if predicate(frame):
                return frame
        raise AssertionError("no matching frame")

    async def drain(self, timeout=0.3):
        """Every frame already on its way (until a quiet ``timeout``), presence frames too."""
        got = []
        # receive_nothing only looks; a receive that times out would stop the consumer.
        while not await self.comm.receive_nothing(timeout=timeout):
            got.append(await self.receive(presence=True))
        return got

    async def send(self, frame):
        await self.comm.send_to(text_data=json.dumps(frame) if not isinstance(frame, str) else frame)

    async def close(self):
        await self.comm.disconnect(timeout=5)


async def wait_for(predicate, timeout=60):
    """Poll ``predicate`` (sync: it may read the database) until it holds; False on timeout."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if await sync_to_async(predicate)():
            return True
        await asyncio.sleep(0.2)
    return False


async def connect_all(users, table_id, **kwargs):
    players = []
    for user in users:
        player = await Player.create(user, table_id, **kwargs)
        assert await player.connect()
        players.append(player)
    return players


@pytest.fixture
def subscribe():
    """``subscribe(user)`` gives live access; ``subscribe(user, days=-1)`` an expired plan."""
    import datetime as dt

    from django.utils import timezone

    from accounts.models import Subscription, SubscriptionStatus

    def make(user, days=30, status=SubscriptionStatus.ACTIVE):
        subscription, _ = Subscription.objects.update_or_create(
            user=user, defaults={"status": status, "current_period_end": timezone.now() + dt.timedelta(days=days)}
        )
        return subscription

    return make


async def open_sockets(port, table_id, users):
    """Each user's table socket to the server on ``port`` and its first frame (the state)."""
    from tests.processes import Socket

    sockets = []
    for user in users:
        sockets.append(Socket(port, table_id, await sync_to_async(session_cookie)(user)))
    frames = [await socket.open() for socket in sockets]
    return sockets, frames
