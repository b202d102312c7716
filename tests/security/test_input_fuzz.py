"""Generated inputs (hypothesis) at every form, URL parameter and websocket message: no input
gets a server error (5xx) or kills a socket (1011), and an input that is refused changes
nothing. Over 1,000 inputs per run (see the ``max_examples`` below)."""
import asyncio
import json

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from accounts.models import Subscription
from games import services
from games.table import protocol
from games.engine import Rules
from games.models import Action, Seat, Table
from live import consumers, rooms
from live.models import QueueEntry
from tests.security.invariants import check_table
from tests.security.urlwalk import walk

HTTP_EXAMPLES = 700
SOCKET_EXAMPLES = 450

# Values that broke or nearly broke parsing once: Unicode digits, signs, huge numbers,
# whitespace, markup, nulls, card look-alikes.
AWKWARD = ["²", "١٢", "-1", "+1", "1e3", "0x10", "9" * 40, " 7 ", "", " ", "\x00", "abc", "QS", "2C", "ＱＳ", "Q♠",
           "<script>", "null", "true", "[]", "{}", "%00", "../", "𝟙", "½", "NaN", "inf", "add", "play", "pass"]
FIELD_NAMES = ["action", "card", "cards", "choice", "version", "seat", "since", "ply", "players", "level", "next",
               "checkout", "table_size", "target", "passing", "odd_cards", "hearts_lead", "lead", "moon", "ties",
               "first_trick_points", "jack_of_diamonds", "black_maria", "turn_timer_seconds", "rated", "bot_1",
               "display_name", "email", "username", "password", "password1", "password2", "format", "x"]
text_value = st.one_of(st.sampled_from(AWKWARD), st.text(max_size=30), st.integers(-10**12, 10**12).map(str))
form_data = st.dictionaries(st.sampled_from(FIELD_NAMES), st.one_of(text_value, st.lists(text_value, max_size=4)),
                            max_size=6)

# Routes whose effect does not depend on their input, or that may make something new from a
# well-formed one: fuzzed for errors, but a change there is not a failure in itself.
MAY_CHANGE = {"solo:new", "solo:play_now", "solo:learn", "solo:act", "live:create_room", "live:take_seat", "live:leave_seat",
              "live:fill_seats", "live:start", "live:queue_join", "live:queue_cancel", "accounts:profile",
              "accounts:signup", "accounts:login", "accounts:password_change", "accounts:password_reset",
              "accounts:logout", "accounts:checkout", "accounts:billing_portal", "accounts:stripe_webhook"}
# These end the session or the games the other inputs need (tests/solo and tests/live cover them).
SKIPPED = {"accounts:logout", "solo:abandon", "solo:delete", "live:close_room", "live:resign"}
# Payments are not configured in the tests: these say so with 503 whatever they are sent
# (tests/accounts cover them configured).
NOT_CONFIGURED = {"accounts:checkout", "accounts:billing_portal", "accounts:stripe_webhook"}


def fingerprint():
    """Every piece of stored state an input could change."""
    return (
        list(Table.objects.order_by("pk").values_list("pk", "version", "status", "turn_deadline")),
        list(Seat.objects.order_by("pk").values_list("pk", "user_id", "bot_level", "standing_in")),
        Action.objects.count(),
        QueueEntry.objects.count(),
        list(Subscription.objects.order_by("pk").values_list("pk", "status")),
        list(type(Seat.objects.first().user).objects.order_by("pk").values_list("pk", "display_name", "email", "password")),
    )


@pytest.fixture
def world(ann, bob, django_user_model):
    """Ann at a solo game, a live game in play and a waiting room; tables of each kind."""
    solo = services.create_table(ann, Rules(), seat_bots=[None, "easy", "easy", "easy"], seed=7)
    services.start_table(solo.pk)
    live = services.create_table(ann, Rules(passing="none"), kind=Table.Kind.FRIENDS, seat_bots=[None, None, "easy", "easy"], seed=3)
    rooms.take_seat(live.pk, bob, 1)
    services.start_table(live.pk)
    room = services.create_table(ann, Rules(), kind=Table.Kind.FRIENDS, seat_bots=[None] * 4)
    samples = {"table_id": [str(solo.pk), str(live.pk)], "code": [room.code], "username": [ann.username],
               "object_id": [str(solo.pk)]}
    routes = [route for route in walk(samples)
              if route.url and not route.name.startswith("admin:") and route.name not in SKIPPED]
    client = Client(raise_request_exception=False)
    client.force_login(ann)
    return {"routes": routes, "client": client, "tables": [solo.pk, live.pk, room.pk]}


@pytest.mark.django_db
def test_generated_http_inputs_get_no_server_error_and_refusals_change_nothing(world):
    routes, client = world["routes"], world["client"]
    assert len(routes) > 20
    tried = []

    @hypothesis_settings(max_examples=HTTP_EXAMPLES, deadline=None, database=None,
                         suppress_health_check=list(HealthCheck))
    @given(route=st.sampled_from(routes), method=st.sampled_from(["get", "post"]), data=form_data)
    def one_input(route, method, data):
        before = fingerprint()
        versions = dict(Table.objects.values_list("pk", "version"))
        response = getattr(client, method)(route.url, data)
        tried.append(route.name)
        allowed = (503,) if route.name in NOT_CONFIGURED else ()
        assert response.status_code < 500 or response.status_code in allowed, (
            f"{method.upper()} {route.url} {data!r} -> {response.status_code}"
        )
        if route.name not in MAY_CHANGE:
            assert fingerprint() == before, f"{method.upper()} {route.url} {data!r} changed stored state"
        if route.name == "solo:act" and Action.objects.count() != before[2]:
            # A move was made: it was a well-formed one, made against the version it found.
            action, version = protocol.parse_move(_query_dict(data))
            table_id = int(route.url.strip("/").split("/")[1])
            assert version in (None, versions[table_id]), data
        for table in Table.objects.filter(pk__in=world["tables"]):
            check_table(table, extra_version_bumps=_bumps(table))

    one_input()
    assert len(tried) >= HTTP_EXAMPLES
    print(f"http fuzz: {len(tried)} inputs over {len(set(tried))} routes, 0 server errors")


def _query_dict(data):
    from django.http import QueryDict

    query = QueryDict(mutable=True)
    for key, value in data.items():
        query.setlist(key, value if isinstance(value, list) else [value])
    return query


def _bumps(table):
    """Version changes of a table that are not moves (the start, seats taken and left)."""
    return table.version - Action.objects.filter(table=table).count() - 1 if table.has_game else table.version


json_leaf = st.one_of(st.none(), st.booleans(), st.integers(-10**15, 10**15), st.floats(allow_nan=False),
                      st.sampled_from(AWKWARD), st.text(max_size=20))
json_value = st.recursive(json_leaf, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                          max_leaves=12)
move_like = st.fixed_dictionaries(
    {"action": st.one_of(st.sampled_from(["play", "pass", "moon", "sync", "PLAY", ""]), json_value)},
    optional={"card": json_value, "cards": json_value, "choice": json_value, "version": json_value,
              "seat": json_value},
)
frame_text = st.one_of(
    move_like.map(json.dumps),
    json_value.map(json.dumps),
    st.text(max_size=60),
    st.integers(1, 3000).map(lambda depth: "[" * depth + "]" * depth),
    st.integers(1, 3000).map(lambda depth: '{"a":' * depth + "1" + "}" * depth),
    st.sampled_from(['{"action": ["play"]}', '{"action": {"a": 1}}', '{"action": "play", "card": "2C", "version": "²"}']),
)


@pytest.mark.django_db(transaction=True)
def test_generated_websocket_frames_never_kill_the_socket_and_refusals_change_nothing(ann, bob, monkeypatch):
    from hearts_site.asgi import application

    monkeypatch.setattr(consumers, "RATE_MAX_FRAMES", 10**6)  # the rate limit is tested on its own
    table = services.create_table(ann, Rules(passing="none"), kind=Table.Kind.FRIENDS,
                                  seat_bots=[None, None, "easy", "easy"], seed=3)
    rooms.take_seat(table.pk, bob, 1)
    services.start_table(table.pk)
    client = Client()
    client.force_login(ann)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    headers = [(b"origin", b"http://testserver"), (b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode())]
    sent = []

    async def exchange(text):
        """Open a socket, send one frame, read the answers until quiet; the closing code if any."""
        comm = WebsocketCommunicator(application, f"/ws/table/{table.pk}/?format=json", headers=headers)
        connected, _ = await comm.connect(timeout=5)
        assert connected
        await comm.receive_from(5)  # the state
        await comm.send_to(text_data=text)
        answers, closed = [], None
        while not await comm.receive_nothing(timeout=0.05):
            output = await comm.receive_output(5)
            if output["type"] == "websocket.close":
                closed = output.get("code")
                break
            answers.append(json.loads(output["text"]))
        await comm.disconnect(timeout=5)
        return answers, closed

    # One event loop for every frame: a new loop per frame (async_to_sync) had the Redis
    # channel layer's connection tasks to cancel at every loop's end, and once in a while
    # one of them never finished cancelling.
    # An asyncio.Runner: closing it cancels what the consumers left running (the server's
    # outbox) while the loop still runs, as asyncio.run does.
    runner = asyncio.Runner()

    def on_server_thread(function):
        """``function()`` on the thread the server's database calls take on SQLite (one, shared),
        after whatever call is still under way there: the event loop stops when an exchange
        ends, its threads do not (the heartbeat, a socket's release), and the test database
        (SQLite's shared in-memory cache) refuses a read beside a write with "database table
        is locked" instead of waiting for it."""
        return runner.run(sync_to_async(function, thread_sensitive=True)())

    def table_checked():
        check_table(Table.objects.get(pk=table.pk), extra_version_bumps=_bumps(Table.objects.get(pk=table.pk)))

    @hypothesis_settings(max_examples=SOCKET_EXAMPLES, deadline=None, database=None,
                         suppress_health_check=list(HealthCheck))
    @given(text=frame_text.filter(bool))  # the test client cannot send an empty frame
    def one_frame(text):
        before = on_server_thread(fingerprint)
        answers, closed = runner.run(exchange(text))
        sent.append(text)
        assert closed is None, f"{text[:200]!r} closed the socket with {closed}"
        assert answers, f"{text[:200]!r} got no answer"
        kinds = {answer["type"] for answer in answers}
        if "ack" not in kinds:
            assert on_server_thread(fingerprint) == before, f"{text[:200]!r} was refused but changed stored state"
        for answer in answers:
            if answer["type"] == "error":
                assert answer["message"] and answer["code"]
        on_server_thread(table_checked)

    try:
        one_frame()
    finally:
        runner.close()
    assert len(sent) >= SOCKET_EXAMPLES
    print(f"websocket fuzz: {len(sent)} frames, none closed the socket")


@pytest.mark.django_db(transaction=True)
def test_a_websocket_to_an_address_with_no_table_is_refused_cleanly(ann):
    from hearts_site.asgi import application

    async def connect(path):
        comm = WebsocketCommunicator(application, path, headers=[(b"origin", b"http://testserver")])
        connected, _ = await comm.connect(timeout=5)
        frame = json.loads(await comm.receive_from(5))
        closed = await comm.receive_output(5)
        await comm.disconnect()
        return connected, frame, closed

    for path in ("/ws/table/abc/", "/ws/nothing/", "/ws/table/1/extra/"):
        connected, frame, closed = async_to_sync(connect)(path)
        assert connected and frame["code"] == "not_found"
        assert closed == {"type": "websocket.close", "code": 4404, "reason": ""} or closed["code"] == 4404
