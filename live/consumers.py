"""A table's websocket, solo and live alike: one :class:`TableConsumer` per open connection
(``/ws/table/<id>/``).

The consumer is thin (Lichess's round socket, not its game logic): it authenticates the
person, finds their seat, relays their moves to :func:`games.services.submit_action` — the one
code path for people, computers and timeouts — and sends every seat only its own view.

Protocol:

* Every frame from the server carries a table ``version`` (the count of changes applied).
* On connect the client gets the **full state** of its seat; after that, one **update** per
  change, in version order. A client that sees a gap (or just reconnected) sends
  ``{"action": "sync"}`` and gets the full state again.
* A move is ``{"action": "play", "card": "QS", "version": 12}``,
  ``{"action": "pass", "cards": ["2C", "3C", "4C"], "version": 3}`` or
  ``{"action": "moon", "choice": "add", "version": 40}``; a move made against another version
  than the table's (a duplicate, or made on an old position) is rejected and changes nothing
  (an HTML client is just sent the table as it is: a double click shows no notice).
  ``{"action": "hint"}`` asks for the computer's advice at a solo table.
* Two formats: **HTML** (default): the whole ``#table`` first, then only the parts of it that
  changed (``games.presenters.draw_table``), each swapped by its id (``games/table.js``);
  and **JSON** (``?format=json``; used by tests and the load tool).
* A solo table's socket serves only its player; a live table's, its seated players and
  (before the start) whoever may take a seat.
* When someone's socket opens or closes, who is connected is sent again without a new
  version: as the seats that changed (HTML), or ``{"type": "presence", "seats": [...]}``
  (JSON; only when it differs from what the client was last sent).
* A server-side fault (the channel layer unreachable) ends the socket with an ``unavailable``
  error and close code 4503 (try again): the client reconnects and gets the full state.
"""
import asyncio
import json
import logging
import time
from urllib.parse import parse_qs

from asgiref.sync import sync_to_async
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string
from django.utils.html import format_html

from accounts.selectors import has_live_access, live_access_denied_message
from games import services, storage
from games.table import protocol
from games.faults import LAYER_FAULTS, describe
from games.table.drawing import TableDrawing, changed_parts
from games.presenters import draw_table, hint_for, render_table, watching_place
from games.realtime import remember_server_loop, table_group
from games.storage import Snapshot
from live import chat, presence, server
from live.server import db

log = logging.getLogger(__name__)

MAX_FRAME_BYTES = 4096
"""Frames larger than this are refused (a move is well under 200 bytes)."""

RATE_WINDOW_SECONDS = 10
RATE_MAX_FRAMES = 60
"""More frames than this in the window are refused, so one socket cannot flood the server."""

CLOSE_UNAUTHENTICATED = 4401
CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404
CLOSE_TOO_MANY = 4429

PRESENCE_EVERY_SECONDS = 1.0
"""Presence news reaches each socket at most once in this time (:meth:`TableConsumer.table_presence`)."""
CLOSE_TRY_AGAIN = 4503
"""Closed for a server-side fault: reconnect after a pause (like HTTP 503). The standard
1013 (Try Again Later), on which the htmx websocket extension reconnects by itself, cannot be
sent through daphne (autobahn allows an application only 1000 and 3000-4999), so the live
table's script (``games/table.js``) reconnects on this code; the extension itself reconnects on 1006 (a
dropped connection: the server process died)."""

NO_SEAT = "You have no seat at this table, so its game is not shown to you."
TOO_MANY_SOCKETS = (
    "You have this table (or the site) open in too many windows already: close one, then reload this one."
)

UNAVAILABLE = (
    "The live game service is briefly unavailable, so the table cannot update. Reconnecting "
    "in a moment; your seat is kept. Make your move again once the table is back."
)


# --------------------------------------------------------------------------- snapshots
#
# Every connection at a table hears of every change, and each needs the table at that
# version: one snapshot (games.storage.Snapshot) per change serves them all.

_loading: dict = {}  # table id -> (loop time the load started, the load's future)
_presence_heard: dict = {}  # table id -> (id of the newest presence message heard, loop time)


async def snapshot_at_least(table_id: int, version: int) -> Snapshot | None:
    """The table at ``version`` or later: from this process's snapshots, from a load already
    on its way (every seat hears of a change at once: one load serves them all), or loaded now."""
    snapshot = storage.cached(table_id, version)
    if snapshot is not None:
        return snapshot
    return await shared_load(table_id, version=version)


async def snapshot_read_since(table_id: int, since: float) -> Snapshot | None:
    """The table as read from the database at loop time ``since`` or later: a load that
    started then or later serves every socket that asks (when a connection opens or closes,
    every socket at the table asks at once), else the table is loaded now."""
    return await shared_load(table_id, since=since)


def presence_heard_at(message: dict) -> float:
    """When this process first heard of presence message ``message`` (loop time): a table's
    sockets all get it, one after another, and a read from then on is new enough for each."""
    now = asyncio.get_running_loop().time()
    table_id, key = message["table"], message.get("id")
    heard = _presence_heard.get(table_id)
    if key is not None and heard is not None and heard[0] == key:
        return heard[1]
    if len(_presence_heard) >= 10_000:
        _presence_heard.clear()  # a message heard again after this only means one more load
    _presence_heard[table_id] = (key, now)
    return now


async def shared_load(table_id: int, *, version: int = 0, since: float | None = None) -> Snapshot | None:
    """Load the table, or share a load on its way that started at loop time ``since`` or
    later (any, without ``since``) and brings ``version`` or later."""
    loop = asyncio.get_running_loop()
    pending = _loading.get(table_id)
    if pending is not None and (since is None or pending[0] >= since):
        snapshot = await asyncio.shield(pending[1])
        if snapshot is None or snapshot.version >= version:
            return snapshot
    future = loop.create_future()
    _loading[table_id] = (loop.time(), future)
    try:
        snapshot = await db(storage.load)(table_id)
        future.set_result(snapshot)
    except BaseException as error:
        future.set_exception(error)
        future.exception()  # retrieved: nobody else may be waiting
        raise
    finally:
        if _loading.get(table_id, (None, None))[1] is future:
            del _loading[table_id]
    return snapshot


# --------------------------------------------------------------------------- rendering


def seat_summaries(snapshot: Snapshot) -> list[dict]:
    return [
        {
            "seat": seat.number,
            "name": seat.occupant_name,
            "kind": "person" if seat.user_id else ("computer" if seat.bot_level else "empty"),
            "standing_in": seat.standing_in,
            "connected": seat.connected,
        }
        for seat in snapshot.seats
    ]


def state_json(snapshot: Snapshot, seat_number: int | None, *, spectator: bool = False, place: int | None = None) -> dict:
    """The full state one seat may see (``view`` is ``games.engine.PlayerView.to_dict()``);
    for someone watching (``spectator``: no seat, or one they left) the public view from
    seat ``place``'s place (:func:`games.presenters.watching_place`)."""
    table = snapshot.table
    if spectator and snapshot.game is not None:
        view = snapshot.game.public_view(watching_place(place)).to_dict()
    elif snapshot.game is not None and seat_number is not None:
        view = snapshot.view(seat_number).to_dict()
    else:
        view = None
    return {
        "table": table.pk,
        "version": snapshot.version,
        "status": table.status,
        "kind": table.kind,
        "rated": table.rated,
        "seat": seat_number,
        "seats": seat_summaries(snapshot),
        "turn_deadline": table.turn_deadline.isoformat() if table.turn_deadline else None,
        "view": view,
        "watchers": table.watchers,
    }


def render_table_html(snapshot: Snapshot, seat_number: int | None, error: str | None = None,
                      *, spectator: bool = False, place: int | None = None) -> str:
    """HTML of ``#table`` for one seat: the table once the game has started, the waiting room
    before; for someone watching (``spectator``) the public table from seat ``place``'s place."""
    table = snapshot.table
    if spectator and table.status != table.Status.WAITING:
        return render_table(snapshot, watching_place(place), error=error, spectator=True)
    if table.status == table.Status.WAITING or seat_number is None:
        return render_to_string(
            "live/_room_seats.html",
            {"table": table, "seats": snapshot.seats, "seat_number": seat_number, "error": error},
        )
    return render_table(snapshot, seat_number, error=error)


def chat_html(lines: list[dict], *, whole: bool = False) -> str:
    """Chat lines for the page's ``#chat-log``: all of it (``whole``), or lines to add to it
    (an out-of-band ``beforeend`` swap)."""
    return render_to_string("live/_chat_log.html", {"lines": lines, "append": not whole})


# --------------------------------------------------------------------------- the consumer


class TableConsumer(AsyncWebsocketConsumer):
    """One connection of one person (or a waiting-room visitor) to one table."""

    table_id = seat_number = user = None
    place = watching_place(None)  # the seat whose place the table is drawn from
    watch_place: int | None = None  # the seat a watcher chose to watch from
    watching = False  # as last sent: the game, with no seat to play (a spectator, or a leaver)
    format = "html"
    version = -1  # the newest version this client has been sent
    joined = False  # in the table group
    recorded = False  # recorded as the person's TableConnection (see release())
    ended = False  # closed by the server: nothing more is sent
    released = False  # left the group and the seat connection closed: see release()
    dropped = False  # closed for a server-side fault: see drop()
    cleared_error = False  # HTML: the page's error notice was cleared by the first state
    error_shown = False  # HTML: a notice was sent since the last state (cleared by the next)
    sent_drawing: "TableDrawing | None" = None  # HTML: the table last sent (see table_html)
    sent_seats: list = []  # JSON: who sits where and is connected, as last sent
    spectator = False  # may watch the game without a seat (has live access)
    holds_place = False  # counted among the person's sockets (server.take_socket_place)
    presence_sent_at = float("-inf")  # loop time presence news was last sent (table_presence)
    presence_heard_at = 0.0  # loop time this process heard the newest presence news
    presence_due: "asyncio.Task | None" = None  # presence news held back, to be sent

    async def __call__(self, scope, receive, send):
        """Run the connection. Whatever ends it (the person, a fault, the server stopping), its
        seat connection is released: a consumer that died with its row left behind would keep
        its seat looking connected. A lost channel layer ends it cleanly (:meth:`layer_lost`)
        where it would otherwise die with daphne's 1011 and no goodbye."""
        try:
            await super().__call__(scope, receive, send)
        except LAYER_FAULTS as error:
            await self.layer_lost(error)
        finally:
            await self.release()

    async def connect(self):
        remember_server_loop()
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.user = self.scope.get("user")
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        self.format = "json" if query.get("format", [""])[0] == "json" else "html"
        self.recent_frames: list[float] = []
        await self.accept()

        if self.user is None or not self.user.is_authenticated:
            return await self.refuse("login_required", "Log in to play live.", CLOSE_UNAUTHENTICATED)
        if not server.take_socket_place(self.user.pk, self.table_id):
            return await self.refuse("too_many_sockets", TOO_MANY_SOCKETS, CLOSE_TOO_MANY)
        self.holds_place = True
        snapshot = await db(storage.load)(self.table_id)
        if snapshot is None:
            return await self.refuse("no_table", "There is no table here.", CLOSE_NOT_FOUND)
        seat = snapshot.seat_for(self.user.pk)
        if not snapshot.table.is_live:
            # A solo table: only its player, and no presence to record (nobody stands in).
            if seat is None:
                return await self.refuse("no_seat", NO_SEAT, CLOSE_FORBIDDEN)
            return await self.join(record=False)
        self.cleared_room = snapshot.table.status != snapshot.table.Status.WAITING  # no waiting room shown
        if seat is None:
            # Not seated: the waiting room, or the game from its start on as a spectator
            # (public information only), for someone allowed live play: the subscription gate.
            if not await db(has_live_access)(self.user):
                if snapshot.table.status != snapshot.table.Status.WAITING:
                    return await self.refuse("no_seat", NO_SEAT, CLOSE_FORBIDDEN)
                message = await db(live_access_denied_message)(self.user)
                return await self.refuse("subscription_required", message, CLOSE_FORBIDDEN)
            self.spectator = True
        # Seated players need no check: a game in progress may finish after a lapse.
        await self.join(record=True)

    async def join(self, *, record: bool):
        """Join the table's group, record the socket (``record``: live tables, where who is
        connected is shown and absence brings a stand-in) and send the whole table."""
        # Subscribe before reading the state, so no change falls between the two.
        try:
            await self.channel_layer.group_add(table_group(self.table_id), self.channel_name)
        except LAYER_FAULTS as error:
            log.warning(
                "layer_unavailable server=%s table=%s user=%s at=connect error=%s",
                server.SERVER_NAME, self.table_id, self.user.pk, describe(error),
            )
            return await self.refuse("unavailable", UNAVAILABLE, CLOSE_TRY_AGAIN)
        self.joined = True
        await server.socket_opened(self)
        if record:
            try:
                await db(presence.connection_opened)(
                    self.table_id, self.user, self.channel_name, server.SERVER_NAME
                )
            except services.ActionRejected as rejected:
                return await self.refuse(rejected.code, str(rejected), CLOSE_FORBIDDEN)
            self.recorded = True
        await self.send_state(fresh=True)
        if record and self.format == "html" and not self.ended and (self.seat_number is not None or self.watching):
            # The chat so far (what was said while this socket was away, too), if any: the
            # players', or the watchers' for someone watching.
            lines = await db(chat.chat_lines)(self.table_id, watchers=self.watching)
            if lines:
                await self.send(text_data=chat_html(lines, whole=True))

    async def dispatch(self, message):
        """channels' dispatch, without its ``aclose_old_connections()`` before every message:
        that is a hop to the one database thread per message and socket, where each change
        of a table reaches every seat. Every database call here goes through ``db()``
        (:func:`live.server.db`), which closes old connections itself."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def disconnect(self, code):
        await self.release()

    async def release(self):
        """Give back the socket's place, leave the table group and close this socket's
        connection row (:func:`live.presence.connection_closed`), once."""
        if self.holds_place:
            self.holds_place = False
            server.give_back_socket_place(self.user.pk, self.table_id)
        if self.presence_due is not None:
            self.presence_due.cancel()
            self.presence_due = None
        if not self.joined or self.released:
            return
        self.released = True
        server.socket_closed(self)
        try:
            await self.channel_layer.group_discard(table_group(self.table_id), self.channel_name)
        except LAYER_FAULTS:
            pass  # the layer is down (already logged); its group keys expire by themselves
        except Exception as error:
            log.warning("group_discard_failed table=%s error=%s", self.table_id, describe(error))
        if self.recorded:
            try:
                await db(presence.connection_closed)(self.table_id, self.user, self.channel_name)
            except Exception as error:  # the database is down: the heartbeat sweep will close it
                log.warning(
                    "disconnect_failed table=%s seat=%s error=%s", self.table_id, self.seat_number, describe(error)
                )

    async def layer_lost(self, error):
        """Reading from the channel layer failed: Redis is down or unreachable. Table changes
        can no longer reach this process's sockets, and when Redis comes back their group
        memberships may be gone, so every socket of this process is closed (:meth:`drop`);
        clients reconnect, are subscribed again and get the full state."""
        dropped = await server.drop_every_socket()
        own = self.drop()  # when this socket was not registered yet
        if own is not None:
            await own
            dropped += 1
        if dropped:  # the first consumer to notice; the others were dropped with it
            log.warning(
                "layer_unavailable server=%s table=%s seat=%s sockets_dropped=%s error=%s",
                server.SERVER_NAME, self.table_id, self.seat_number, dropped, describe(error),
            )

    def drop(self) -> "asyncio.Future | None":
        """Close this socket for a server-side fault: an ``unavailable`` error, then close code
        4503 (:data:`CLOSE_TRY_AGAIN`). Nothing the person did is lost: a move is applied whole or not
        at all, and the reconnected client gets the full state.

        Marks the socket at once (several consumers may notice the same fault together) and
        returns the closing to await, or None when it was dropped already."""
        if self.dropped:
            return None
        self.dropped = True
        return asyncio.ensure_future(self._close_for_fault())

    async def _close_for_fault(self):
        try:
            await self.send_error("unavailable", UNAVAILABLE)
            await self.close(code=CLOSE_TRY_AGAIN)
        except Exception:  # the client has gone already
            pass

    # ----------------------------------------------------------------- from the client

    async def receive(self, text_data=None, bytes_data=None):
        if not self.joined or self.dropped or self.ended:
            return
        now = time.monotonic()
        self.recent_frames = [t for t in self.recent_frames if now - t < RATE_WINDOW_SECONDS] + [now]
        if len(self.recent_frames) > RATE_MAX_FRAMES:
            return await self.reject("too_fast", "Too many messages; wait a few seconds and try again.")
        if text_data is None:
            return await self.reject("malformed", "Send text frames holding a JSON object.")
        if len(text_data.encode("utf-8")) > MAX_FRAME_BYTES:
            return await self.reject(
                "too_large", f"That message is too large; the limit is {MAX_FRAME_BYTES} bytes."
            )
        try:
            frame = json.loads(text_data)
        except (ValueError, RecursionError):  # RecursionError: nested too deep to read
            return await self.reject("malformed", "That message is not JSON. Send an object like {\"action\": \"sync\"}.")
        if not isinstance(frame, dict):
            return await self.reject("malformed", "Send a JSON object like {\"action\": \"sync\"}.")
        action = frame.get("action")
        if action == "sync":
            return await self.send_state(fresh=True)
        if action == "hint":
            return await self.send_hint()
        if action == "chat":
            return await self.post_chat(frame)
        if action == "back":
            return await self.come_back()
        if action == "watch":
            return await self.watch_from(frame.get("seat"))
        if action == "pace":
            return await self.set_pace(frame)
        if action == "hurry":
            if self.seat_number is not None:
                await db(services.hurry)(self.table_id, self.user)
            return
        if action == "report":
            message_id = protocol.whole_number(frame.get("message"))
            if message_id is None or not await db(chat.report_chat)(self.table_id, message_id, self.user):
                return await self.reject("not_reported", "That message cannot be reported.", chat=True)
            return await self.send_error("reported", "Thank you: the message was reported to the staff.", chat=True)
        if not isinstance(action, str) or action not in protocol.MOVE_KINDS:
            shown = action[:20] if isinstance(action, str) else "nothing" if action is None else "not a word"
            return await self.reject(
                "unknown_action", f"Unknown action {shown!r}: send play, pass, moon, back, watch, hint, pace, hurry or sync."
            )
        if self.seat_number is None:
            return await self.reject("no_seat", "You have no seat at this table, so you cannot play.")
        if "seat" in frame and protocol.whole_number(frame["seat"]) != self.seat_number:
            return await self.reject("not_your_seat", "You can only play for your own seat.")
        try:
            move, version = protocol.parse_move(frame)
        except protocol.BadMove as problem:
            return await self.reject("malformed", str(problem))
        if version is None:
            return await self.reject(
                "malformed", "Every move carries the table version it was made against (\"version\")."
            )
        try:
            outcome = await db(services.submit_action)(
                self.table_id, self.seat_number, move, expected_version=version, user=self.user
            )
        except services.ActionRejected as rejected:
            # A stale move (a double click, or one made just before the table changed) is
            # answered with the table as it is now; a person (HTML) gets no notice about it.
            if rejected.code != "stale" or self.format == "json":
                await self.send_error(rejected.code, str(rejected))
            if rejected.code == "stale":
                await self.send_state(fresh=True)
            return
        if self.format == "json":
            await self.send(text_data=json.dumps({"type": "ack", "version": outcome.version}))

    async def set_pace(self, frame):
        """A solo player chose how fast the computers play (``games.table.protocol.PACES``)."""
        try:
            pace = protocol.parse_pace(frame)
            await db(services.set_pace)(self.table_id, self.user, pace)
        except protocol.BadMove as problem:
            return await self.reject("malformed", str(problem))
        except services.ActionRejected as rejected:
            return await self.reject(rejected.code, str(rejected))

    async def watch_from(self, seat):
        """Someone watching turns the table to another seat's place (public information only)."""
        if self.seat_number is not None:
            return await self.reject("not_watching", "You play from your own seat; only watchers change places.")
        number = protocol.whole_number(seat)
        snapshot = await snapshot_at_least(self.table_id, 0)
        if snapshot is None or number is None or number >= snapshot.table.players:
            return await self.reject("malformed", "Watch from a seat of this table: send its number.")
        self.watch_place = number
        self.sent_drawing = None  # every part moves: the whole table, from there
        await self.deliver(snapshot)

    async def come_back(self):
        """The person is back at a seat a computer was playing for them (they were away)."""
        if self.seat_number is None or not await db(presence.reclaim_seat)(self.table_id, self.user):
            return await self.reject("not_away", "Your seat is yours already: nobody is playing it for you.")

    async def post_chat(self, frame):
        try:
            text = protocol.parse_chat(frame)
        except protocol.BadMove as problem:
            return await self.reject("malformed", str(problem), chat=True)
        try:
            await db(chat.post_chat)(self.table_id, self.user, text)
        except services.ActionRejected as rejected:
            await self.send_error(rejected.code, str(rejected), chat=True)

    async def table_chat(self, message):
        """A chat message was posted at the table (``games.realtime.notify_chat``): a players'
        line for the people seated there (not a visitor of the waiting room), a watchers' line
        for those watching (``live.chat``)."""
        line = message["line"]
        if self.ended or not (self.watching if line.get("watchers") else self.seat_number is not None):
            return
        if self.format == "json":
            return await self.send(text_data=json.dumps({"type": "chat", **line}))
        await self.send(text_data=chat_html([line]))

    async def send_hint(self):
        """The table with the computer's advice for this seat marked (solo games only)."""
        snapshot = await db(storage.load)(self.table_id)
        if snapshot is None or self.seat_number is None or snapshot.game is None:
            return await self.reject("no_seat", "You have no seat at this table, so there is no hint for you.")
        if snapshot.table.is_live:
            return await self.reject("no_hints", "Hints are for solo games.")
        if snapshot.table.status != snapshot.table.Status.PLAYING:
            return await self.reject("game_over", "The game is over: no more hints.")
        advice = await sync_to_async(hint_for, thread_sensitive=False)(snapshot, self.seat_number)
        if advice is None:
            return await self.reject("not_your_turn", "A hint is for your turn: wait until it is your move.")
        await self.deliver(snapshot, hint=advice)

    # ----------------------------------------------------------------- to the client

    async def table_presence(self, message):
        """Someone's socket opened or closed (``games.realtime.notify_presence``): who is
        online is read again and the seats that changed are sent — at once, or, within
        ``PRESENCE_EVERY_SECONDS`` of the last such news, once at the end of that time for
        all that came meanwhile: a socket opened and closed a hundred times costs the others
        a few frames, not two hundred."""
        if self.ended:
            return
        self.presence_heard_at = presence_heard_at(message)
        if self.presence_due is not None:
            return  # planned: it reads from the newest news on
        loop = asyncio.get_running_loop()
        wait = self.presence_sent_at + PRESENCE_EVERY_SECONDS - loop.time()
        if wait > 0:
            self.presence_due = loop.create_task(self._presence_later(wait), name="presence-due")
            return
        self.presence_sent_at = loop.time()
        await self.send_presence(self.presence_heard_at)

    async def _presence_later(self, wait: float):
        """The news held back by :meth:`table_presence`, handed to this consumer as a message
        of its own (so it is sent in turn with the table's changes, never between them)."""
        await asyncio.sleep(wait)
        try:
            await self.channel_layer.send(self.channel_name, {"type": "table.presence_due"})
        except LAYER_FAULTS:
            self.presence_due = None  # the layer is gone: the socket is closed with it

    async def table_presence_due(self, message):
        self.presence_due = None
        if self.ended:
            return
        self.presence_sent_at = asyncio.get_running_loop().time()
        await self.send_presence(self.presence_heard_at)

    async def send_presence(self, heard_at: float):
        """Who is online, read from ``heard_at`` on: the seats that changed."""
        if self.format == "html":
            return await self.send_state(since=heard_at)
        snapshot = await snapshot_read_since(self.table_id, heard_at)
        seats = seat_summaries(snapshot) if snapshot is not None else self.sent_seats
        if seats != self.sent_seats:
            self.sent_seats = seats
            await self.send(text_data=json.dumps({"type": "presence", "version": self.version, "seats": seats}))

    async def table_changed(self, message):
        """A change was committed (``games.realtime.notify_table``): send this seat its view."""
        version = message["version"]
        if version <= self.version or self.ended:
            return  # already sent (this or a newer state)
        snapshot = await snapshot_at_least(self.table_id, version)
        if snapshot is None:
            return
        await self.deliver(snapshot, events=message.get("events", []), event_version=version)

    async def send_state(self, *, fresh: bool = False, since: float | None = None, error: str | None = None):
        """Send the table: as read from now on (``fresh``), or since loop time ``since``, or
        this process's newest snapshot of it when that is not older than what was sent."""
        if fresh and since is None:
            since = asyncio.get_running_loop().time()
        if since is not None:
            snapshot = await snapshot_read_since(self.table_id, since)
        else:
            snapshot = storage.cached(self.table_id, self.version) or await db(storage.load)(self.table_id)
        if snapshot is not None:
            await self.deliver(snapshot, error=error)

    async def deliver(self, snapshot: Snapshot, *, events=None, event_version=None, error=None, hint=None):
        """Send this socket the table at ``snapshot``, as seen from the seat its person holds
        in it: never a seat fixed at connect time, since people leave and change seats.
        A person with no seat at a game that has started is sent nothing of it."""
        if self.ended:
            return
        seat = snapshot.seat_for(self.user.pk)
        # Only the seat's present occupant gets its private view: someone who left the game
        # looks on from their old place as a watcher does (games.table.conduct, rule 1).
        self.seat_number = snapshot.private_seat(self.user.pk)
        self.place = watching_place(seat.number if seat is not None else None, chosen=self.watch_place)
        watching = self.seat_number is None and snapshot.table.status != snapshot.table.Status.WAITING
        if watching and not (self.spectator or seat is not None):
            return await self.refuse("no_seat", NO_SEAT, CLOSE_FORBIDDEN)
        self.watching = watching
        if self.format == "json":
            state = state_json(snapshot, self.seat_number, spectator=watching, place=self.place)
            if event_version is None:
                frame = {"type": "state", "version": snapshot.version, "state": state}
                self.version = snapshot.version
            else:
                # Every change reaches a JSON client as its own update, in order, with the
                # events of that version; ``state`` is the newest state (version >= it).
                frame = {"type": "update", "version": event_version, "events": events, "state": state}
                self.version = event_version
            self.sent_seats = state["seats"]
            await self.send(text_data=json.dumps(frame))
            return
        html = await self.table_html(snapshot, error, hint)
        self.version = max(self.version, snapshot.version)
        started = snapshot.table.status != snapshot.table.Status.WAITING
        if started and not getattr(self, "cleared_room", False):
            html += '<div id="room-controls" hx-swap-oob="true"></div>'  # the waiting room's buttons
            self.cleared_room = True
        if (not self.cleared_error and error is None) or self.error_shown:
            # Clear a notice: the one left by the last connection ("reconnecting"), or one
            # this socket showed, now that the table has changed again.
            html += '<div id="live-error" class="live-error" role="alert" hx-swap-oob="true"></div>'
            self.cleared_error = True
            self.error_shown = False
        if html:
            await self.send(text_data=html)

    async def table_html(self, snapshot: Snapshot, error=None, hint=None) -> str:
        """What this socket is sent of ``snapshot``: the parts of the table that changed since
        the last frame, or the whole table (the first time, and whenever the parts differ:
        the game started, a seat was left)."""
        started = snapshot.table.status != snapshot.table.Status.WAITING
        watching = started and self.seat_number is None  # a spectator (deliver checked it)
        if not started:
            self.sent_drawing = None
            if snapshot.drawable:
                return render_table_html(snapshot, self.seat_number, error)  # no database: no thread hop
            return await db(render_table_html)(snapshot, self.seat_number, error)
        if not snapshot.drawable:
            snapshot = await db(storage.load)(self.table_id) or snapshot
        sent = self.sent_drawing
        if watching:
            drawing = draw_table(snapshot, self.place, error=error, spectator=True, before=sent)
        else:
            drawing = draw_table(snapshot, self.seat_number, error=error, hint=hint, before=sent)
        html = changed_parts(sent.parts, drawing.parts) if sent is not None else None
        if html is None:
            html = drawing.whole()
        self.sent_drawing = drawing
        return html

    async def reject(self, code: str, message: str, *, chat: bool = False):
        """Refuse a frame before it reaches the services (which log their own refusals): log
        it (its code, never its content: it may name cards), then tell the client."""
        log.info(
            "action_rejected table=%s seat=%s actor=person code=%s user=%s where=socket",
            self.table_id, self.seat_number, code, getattr(self.user, "pk", None),
        )
        await self.send_error(code, message, chat=chat)

    async def send_error(self, code: str, message: str, *, chat: bool = False):
        """Tell the client ``message``; with ``chat``, a notice about the chat, which an HTML
        page shows in the chat itself (where the player is looking), not above the table."""
        version = self.version
        if self.format == "json":
            await self.send(text_data=json.dumps({"type": "error", "code": code, "message": message, "version": version}))
        elif chat:
            await self.send(text_data=format_html(
                '<div id="chat-notice" class="chat-notice" role="status" data-code="{}">{}</div>', code, message))
        else:
            self.error_shown = True
            await self.send(
                text_data=format_html(
                    '<div id="live-error" class="live-error" role="alert" data-code="{}">{}</div>', code, message
                )
            )

    async def refuse(self, code: str, message: str, close_code: int):
        log.info(
            "connection_refused table=%s user=%s code=%s", self.table_id, getattr(self.user, "pk", None), code
        )
        self.ended = True
        await self.send_error(code, message)
        await self.close(code=close_code)
        await self.release()  # the client may take its time to answer the close
