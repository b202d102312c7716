"""A table as it stands at one version — the row, its seats, the game and its public history —
worked out once per process and shared by every move, page and socket that needs it.

Rebuilding a game from its stored log (``games.storage.log``) costs about a millisecond per
hundred moves, and a live table changes every few seconds, each change shown to every seat.
So each process keeps the newest :class:`Snapshot` of the tables it serves:

* :func:`games.services.submit_action` starts from the snapshot of the row it has locked when
  that snapshot is current, and stores the snapshot of the new position once it has committed;
* the websocket consumers render every seat's update from that one snapshot;
* a table that moved on in another process is brought up to date by reading only its newer
  actions and applying them to a copy of the cached game, not by replaying the whole log.

A cached snapshot is trusted only for the row it was made from: same ``code`` (table ids are
reused after a database reset), ``version`` and ``updated_at`` (every save, the admin's
included, sets it). Seats are read again every time, since connections change them without a
new version; their objects are reused while their columns are unchanged (:func:`read_seats`).

The games in snapshots are shared between threads: never change one, ``copy()`` it first
(a copy costs microseconds). Their seat objects are shared too, by later snapshots of the
same table: never change one either (a seat is changed in the database, then read again).
"""
from __future__ import annotations

import functools
import threading
from collections import OrderedDict

from django.conf import settings

from games.engine import Game
from games.models import Seat, Table
from games.results import game_key
from games.storage import log, statements
from games.table import conduct
from games.table.history import Step, game_with_history, step_of
from ratings.selectors import changes_of_game, ratings_for

# --------------------------------------------------------------------------- snapshots


class Snapshot:
    """A table at one version: ``table`` (the row), ``seats`` (by number), ``game`` (None
    before the start) and, on demand, ``steps`` (the public history, for the table page) and
    ``rating_changes`` (of a finished rated game)."""

    def __init__(self, table, seats, game: Game | None, steps: list[Step] | None = None):
        self.table = table
        self.seats = seats if isinstance(seats, SeatList) else list(seats)
        self.game = game
        self.version = table.version
        self.key = row_key(table)
        self.seat_rows = getattr(seats, "rows", None)  # see read_seats
        self._steps = steps
        self._rating_changes = None if table.rated and table.status == table.Status.FINISHED else {}
        self._ratings = None if table.rated and table.is_live else {}
        self._views: dict = {}
        self._seat_states: list | None = None
        self.drawn: dict = {}  # what drawing this table works out once for all seats (games.presenters)

    def __repr__(self) -> str:
        return f"<Snapshot table={self.table.pk} version={self.version}>"

    def view(self, seat_number: int):
        """``game.view(seat_number)``, worked out once per snapshot."""
        view = self._views.get(seat_number)
        if view is None:
            view = self._views[seat_number] = self.game.view(seat_number)
        return view

    def seat_for(self, user_id):
        return next((seat for seat in self.seats if seat.user_id == user_id), None)

    def private_seat(self, user_id) -> int | None:
        """The seat whose private view (hand, passes, legal moves) ``user_id`` may be sent:
        the one they hold and have not left (``games.table.conduct.private_seat``)."""
        if self._seat_states is None:
            self._seat_states = [
                conduct.SeatState.of(seat.number, seat.user_id, standing_in=seat.standing_in, resigned=seat.resigned)
                for seat in self.seats
            ]
        return conduct.private_seat(self._seat_states, user_id)

    @property
    def drawable(self) -> bool:
        """True when the table can be drawn from this snapshot alone, without a database
        read (the history is known, or there is none yet, and so are the rating changes)."""
        return ((self.game is None or self._steps is not None) and self._rating_changes is not None
                and self._ratings is not None)

    @property
    def rating_changes(self) -> dict:
        """What a finished rated game did to each person's rating (``ratings.models.RatingChange``
        by user id), read on first use; empty for any other table."""
        if self._rating_changes is None:
            self._rating_changes = changes_of_game(game_key(self.table))
        return self._rating_changes

    @property
    def ratings(self) -> dict:
        """The rating of each person seated at a rated live table as the game began (``Rating``
        by user id), read on first use and carried to the table's later snapshots: a game
        changes ratings only once it is over. Empty for any other table."""
        if self._ratings is None:
            people = [seat.user_id for seat in self.seats if seat.user_id]
            self._ratings = ratings_for(people, self.table.players) if people else {}
        return self._ratings

    def _carry(self, snapshot: "Snapshot") -> "Snapshot":
        """``snapshot`` of the same table, later, keeps what this one read once."""
        if self._ratings is not None and snapshot._ratings is None and snapshot.table.status == self.table.status:
            snapshot._ratings = self._ratings
        return snapshot

    @property
    def steps(self) -> list[Step]:
        """Every applied action with its public events (replayed on first use if unknown)."""
        if self._steps is None:
            self._steps = game_with_history(log.saved_game(self.table))[1] if self.game is not None else []
        return self._steps

    def after(self, table, seats, game: Game, events: list) -> "Snapshot":
        """The snapshot after one more action: ``game`` is this game with it applied, and
        ``table`` the row that records it."""
        steps = None
        if self._steps is not None:
            steps = self._steps + [step_of(game.ply, game.log(game.ply - 1)[0], events)]
        return self._carry(Snapshot(table, seats, game, steps))


def row_key(table) -> tuple:
    """What a cached snapshot must match to stand for ``table`` as it was read."""
    return (table.code, table.version, table.updated_at)


_cache: "OrderedDict[int, Snapshot]" = OrderedDict()
_lock = threading.Lock()


def cache_size() -> int:
    return int(getattr(settings, "TABLE_SNAPSHOT_CACHE_SIZE", 2000))


def remember(snapshot: Snapshot) -> Snapshot:
    """Keep ``snapshot`` as its table's newest (unless a newer one of the same table is
    already kept, which is returned instead)."""
    table_id = snapshot.table.pk
    with _lock:
        current = _cache.get(table_id)
        if current is not None and current.version > snapshot.version and current.key[0] == snapshot.key[0]:
            return current
        _cache[table_id] = snapshot
        _cache.move_to_end(table_id)
        while len(_cache) > cache_size():
            _cache.popitem(last=False)
    return snapshot


def cached(table_id: int, at_least: int = 0) -> Snapshot | None:
    """The kept snapshot of a table if it is at ``at_least`` or newer (no database access)."""
    snapshot = _cache.get(table_id)
    return snapshot if snapshot is not None and snapshot.version >= at_least else None


def forget(table_id: int | None = None) -> None:
    """Drop one table's snapshot, or every one (tests: a new database reuses table ids)."""
    with _lock:
        if table_id is None:
            _cache.clear()
        else:
            _cache.pop(table_id, None)


SHOWN_OF_A_PERSON = ("user__username", "user__display_name", "user__is_guest")
"""What a table shows of the person in a seat (``User.public_name``). The rest of the account
(password hash, e-mail, dates) is not read: a move reads the seats under its lock."""


class SeatList(list):
    """The seats of a table in order, with ``rows``: their columns as the database returned
    them, to tell whether any seat changed since (see :func:`read_seats`); None when unsure."""

    rows: "tuple | None" = None

    @classmethod
    def of(cls, seats, rows: "tuple | None") -> "SeatList":
        seat_list = cls(seats)
        seat_list.rows = rows
        return seat_list


def read_seats(table) -> SeatList:
    """The seats of ``table`` in order, each with the part of its person a table shows.

    Seats change without a new table version (a socket opens or closes), so every move reads
    them; but they rarely do. So the columns are read first with one query compiled once
    (:func:`_seat_columns_sql`), and when they are what the kept snapshot of the table was
    made from, its seat objects are used again: the ORM's query and model building cost about
    twenty times as much, and were a third of a move's time.
    """
    [rows] = statements.run_together(_seat_columns(table.pk))
    return _seats_of(table.pk, rows)


def _seats_of(table_id, rows: list) -> SeatList:
    """The seats of the table whose seat columns (:func:`_seat_columns`) were read as ``rows``."""
    rows = tuple(map(tuple, rows))
    previous = _cache.get(table_id)
    if previous is not None and previous.seat_rows == rows:
        return SeatList.of(previous.seats, rows)
    seats = list(_seats_query(table_id))
    # A seat written between the two reads: these objects may be newer than ``rows``, and a
    # later change back to ``rows`` would reuse them. Then nothing is kept to compare with.
    [again] = statements.run_together(_seat_columns(table_id))
    return SeatList.of(seats, rows if tuple(map(tuple, again)) == rows else None)


def _seat_columns(table_id) -> statements.Statement:
    return statements.Statement(_seat_columns_sql(), [table_id])


def _seats_query(table_id):
    fields = [field.name for field in Seat._meta.concrete_fields] + list(SHOWN_OF_A_PERSON)
    return Seat.objects.filter(table_id=table_id).select_related("user").only(*fields).order_by("number")


@functools.cache
def _seat_columns_sql() -> str:
    """The SQL of :func:`_seats_query` as plain columns, with the table's id as parameter."""
    columns = [field.attname for field in Seat._meta.concrete_fields] + list(SHOWN_OF_A_PERSON)
    return statements.sql_for_any_id(_seats_query(0).values_list(*columns))


def lock_row(table_id: int) -> tuple[Table, SeatList]:
    """The row of a table, locked until the transaction ends (``select_for_update``), and its
    seats (:func:`read_seats`), read in the same exchange with the database;
    ``Table.DoesNotExist`` if there is none. Every move starts here
    (:func:`games.storage.statements.locked_row`)."""
    table, [rows] = statements.locked_row(Table, table_id, _seat_columns(table_id))
    if table is None:
        raise Table.DoesNotExist(f"There is no table {table_id}.")
    return table, _seats_of(table_id, rows)


def of_row(table, seats=None, *, keep: bool = True) -> Snapshot:
    """The snapshot of ``table`` as just read (its log is read only when the cache cannot
    supply the game, and then only the actions the cache has not seen). Seats are read unless
    given.

    ``keep=False`` when the caller goes on to change ``table`` (a move under the row lock):
    the snapshot is not kept for others, who would see the row half-changed.
    """
    if seats is None:
        seats = read_seats(table)
    previous = _cache.get(table.pk)
    if previous is not None and previous.key == row_key(table):
        snapshot = previous._carry(Snapshot(table, seats, previous.game, previous._steps))
    elif not table.has_game:
        snapshot = Snapshot(table, seats, None, [])
    else:
        same_table = previous is not None and previous.key[0] == table.code
        snapshot = (_advance(previous, table, seats) if same_table else None) or Snapshot(
            table, seats, log.game_from_log(table)
        )
        if same_table:
            previous._carry(snapshot)
    return remember(snapshot) if keep else snapshot


def game_of(table) -> Game:
    """A private copy of the game of ``table`` as read (from the cache when it is current)."""
    previous = _cache.get(table.pk)
    if previous is not None and previous.game is not None and previous.key == row_key(table):
        return previous.game.copy()
    return log.game_from_log(table)


def load(table_id: int) -> Snapshot | None:
    """Read a table (its log only if needed) and its seats now; None if there is none.
    The snapshot is :attr:`Snapshot.drawable`."""
    table = Table.objects.select_related("host").filter(pk=table_id).first()
    if table is None:
        return None
    snapshot = of_row(table)
    # Worked out here, where the database may be read, so that it can be drawn anywhere.
    snapshot.steps
    snapshot.rating_changes
    snapshot.ratings
    return snapshot


def _advance(previous: Snapshot, table, seats) -> Snapshot | None:
    """``previous`` brought up to ``table`` by reading the actions it has not seen and
    applying them to a copy of its game, or None when that game is not an earlier position
    of this one."""
    game = previous.game
    if game is None or table.seed != game.seed or not 0 < game.ply <= table.ply:
        return None
    entries = log.log_of(table, after=game.ply - 1)
    if not entries or entries[0] != game.log(game.ply - 1)[0]:
        return None  # the log was rewritten since (the same table would not do that)
    copy = game.copy()
    steps = list(previous._steps) if previous._steps is not None else None
    try:
        for ply, entry in enumerate(entries[1:], start=game.ply + 1):
            events = copy.apply(entry["seat"], entry["action"])
            if steps is not None:
                steps.append(step_of(ply, entry, events))
    except Exception:
        return None
    if copy.ply != table.ply:
        return None
    return Snapshot(table, seats, copy, steps)
