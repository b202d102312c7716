"""How a table's game is kept and read back: the one load and the one save of a move.

A move loads once and saves once::

    locked = storage.lock(table_id)     # the row locked and its seats: checked first
    before = locked.snapshot()          # then its game, only for a move that goes ahead
    game = before.game.copy()
    events = game.apply(seat, action)   # ...the rules decide...
    storage.save_move(before, table, seats, game, events, actor)

Its three parts, each for one reason:

* **The log.** A game is stored once: how it began on its :class:`~games.models.Table` row,
  its moves as :class:`~games.models.Action` rows, and nothing else that must agree with them.
  The row's ``ply``, ``deal_number`` and ``scores`` summarise the game for lists and the admin;
  they are written with every move (:func:`summarise`), never read back into a game
  (``winners``, the result, is written when the game ends: ``games.services``).
* **Snapshots.** Each process keeps the newest :class:`Snapshot` of the tables it serves
  (row, seats, game, public history), because rebuilding a game from its log costs about a
  millisecond per hundred moves, and a live table changes every few seconds, each change shown
  to every seat. A move starts from the snapshot of the row it has locked when that snapshot is
  current, and keeps the snapshot of the new position once it has committed; the websocket
  consumers draw every seat's update from that one snapshot; a table that moved on in another
  process is brought up to date by reading only its newer actions and applying them to a copy
  of the kept game.

  A kept snapshot is trusted only for the row it was made from: same ``code`` (table ids are
  reused after a database reset), ``version`` and ``updated_at`` (every save, the admin's
  included, sets it). Seats are read again every time, since connections change them without
  a new version; their objects are reused while their columns are unchanged
  (:func:`read_seats`). The games in snapshots are shared between threads: never change one,
  ``copy()`` it first (a copy costs microseconds). Their seat objects are shared too, by later
  snapshots of the same table: never change one either (a seat is changed in the database,
  then read again).
* **A move** (:func:`lock`, :meth:`Locked.snapshot`, :func:`save_move`): the row locked with
  its seats in one exchange with the database, the game from the snapshot, and the action with
  the row's new columns written in one more.

The SQL of a move is compiled by Django's ORM once, in ``games.storage.statements``: the one
place that uses the ORM's query compiler, which is not a public API (see its ``CHECKED_WITH``).
"""
from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction

from games.engine import Game
from games.models import Action, Seat, Table
from games.results import game_key
from games.storage import statements
from games.table import conduct
from games.table.history import Step, game_with_history, step_of
from ratings.selectors import changes_of_game, ratings_for

# --------------------------------------------------------------------------- the log


SUMMARY_FIELDS = ("ply", "deal_number", "scores")
"""The table's columns that summarise its game, written by :func:`summarise`."""


def summarise(table: Table, game: Game) -> None:
    """Set the table's summary columns from ``game`` (the caller saves the row)."""
    table.ply = game.ply
    table.deal_number = game.deal_number
    table.scores = list(game.scores)


def record_start(table: Table, game: Game) -> None:
    """The game of ``table`` has been dealt: keep how it began, and its summary (with its
    winners: a game kept whole when it ended, ``solo.offline``). The caller saves the row."""
    table.setup = game.to_dict()["setup"]
    summarise(table, game)
    table.winners = list(game.winners)


def keep_action(table: Table, game: Game, actor: str) -> statements.Statement:
    """The statement that keeps the action ``game`` has just applied, at the table's (new)
    ``version``: the caller runs it with the row's update (``statements.run_together``)."""
    return statements.insert(_action_row(table, game.ply, game.log(game.ply - 1)[0], version=table.version, actor=actor))


def actions_of(table: Table, game: Game, actors, versions) -> list[Action]:
    """Every action of ``game`` as unsaved rows of ``table``, ``actors`` and ``versions``
    giving each one's actor and table version (by ply)."""
    return [
        _action_row(table, ply, entry, version=versions(ply), actor=actors(entry["seat"]))
        for ply, entry in enumerate(game.log(), start=1)
    ]


def _action_row(table: Table, ply: int, entry: dict, *, version: int, actor: str) -> Action:
    """The row of log ``entry`` (``Game.log()``'s form), the ``ply``-th action."""
    return Action(table=table, ply=ply, version=version, deal=entry["deal"], seat=entry["seat"],
                  action=entry["action"], actor=actor)


def log_of(table: Table, after: int = 0) -> list[dict]:
    """The game's log after its first ``after`` actions, as ``Game.log()`` gives it, up to
    the row's ``ply``: moves made since the row was read belong to a newer row (a move
    writes its action and the row in one transaction, and actions are never changed)."""
    rows = Action.objects.filter(table_id=table.pk, ply__gt=after, ply__lte=table.ply).order_by("ply").values_list(
        "deal", "seat", "action"
    )
    return [{"deal": deal, "seat": seat, "action": action} for deal, seat, action in rows]


def moves_since(table: Table, version: int) -> list[tuple[int, object]]:
    """``(seat, action)`` of each move stored at a table version after ``version``, in order."""
    return list(Action.objects.filter(table_id=table.pk, version__gt=version).order_by("ply").values_list("seat", "action"))


def logs_of(tables) -> dict[int, list[dict]]:
    """The logs of several tables in one query, by table id, each up to its row's ``ply``
    (as :func:`log_of`)."""
    plies = {table.pk: table.ply for table in tables}
    logs: dict[int, list[dict]] = {table_id: [] for table_id in plies}
    rows = Action.objects.filter(table_id__in=list(plies)).order_by("table_id", "ply").values_list(
        "table_id", "ply", "deal", "seat", "action"
    )
    for table_id, ply, deal, seat, action in rows:
        if ply <= plies[table_id]:
            logs[table_id].append({"deal": deal, "seat": seat, "action": action})
    return logs


def saved_game(table: Table, log: list[dict] | None = None) -> dict:
    """The game of ``table`` as ``Game.to_dict()`` saves one (without its summary), its log
    read unless given; None before the game starts."""
    if table.setup is None:
        return None
    return {
        "format": Game.FORMAT, "rules": table.rules, "seed": table.seed, "setup": table.setup,
        "ply": table.ply, "log": log_of(table) if log is None else log,
    }


def game_from_log(table: Table) -> Game:
    """The game of ``table``, rebuilt from its log (``ValueError`` if the log is not a game
    of these rules, or disagrees with the row's ``ply``)."""
    saved = saved_game(table)
    if saved is None:
        raise ValueError(f"The game of table {table.pk} has not started.")
    return Game.from_dict(saved)


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
            self._steps = game_with_history(saved_game(self.table))[1] if self.game is not None else []
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
            table, seats, game_from_log(table)
        )
        if same_table:
            previous._carry(snapshot)
    return remember(snapshot) if keep else snapshot


def game_of(table) -> Game:
    """A private copy of the game of ``table`` as read (from the cache when it is current)."""
    previous = _cache.get(table.pk)
    if previous is not None and previous.game is not None and previous.key == row_key(table):
        return previous.game.copy()
    return game_from_log(table)


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
    entries = log_of(table, after=game.ply - 1)
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


# --------------------------------------------------------------------------- a move


MOVE_FIELDS = ("version", *SUMMARY_FIELDS, "winners", "status", "turn_deadline", "finished_at", "updated_at")
"""The table's columns a move may change (finishing the game included)."""


@dataclass(frozen=True)
class Locked:
    """A table's row, locked until the transaction ends, and its seats, read in the same
    exchange with the database: what a move is checked against (started, not over, the
    version it was made on, the seat's person) before its game is worked out."""

    table: Table
    seats: SeatList

    def snapshot(self) -> Snapshot:
        """The table as locked, with its game: from this process's snapshot when that is
        current, else from its log (a replay of every move so far, which a refused move need
        not pay for). Not kept for others, who would see the row half-changed."""
        return of_row(self.table, self.seats, keep=False)


def lock(table_id: int) -> Locked:
    """The table as it stands, its row locked for a move to change (:class:`Locked`).
    ``Table.DoesNotExist`` if there is none."""
    return Locked(*lock_row(table_id))


def save_move(before: Snapshot, table, seats, game, events: list, actor: str) -> Snapshot:
    """Keep the action ``game`` has just applied to ``before``'s game, by ``actor``, and the
    row ``table`` as the move left it (its :data:`MOVE_FIELDS`), in two statements; once the
    transaction commits, this process serves the table from the snapshot after the move
    (before any client hears of it). Returns that snapshot."""
    summarise(table, game)
    statements.run_together(keep_action(table, game, actor), statements.update(table, MOVE_FIELDS))
    after = before.after(table, seats, game, events)
    transaction.on_commit(lambda: remember(after))
    return after
