"""How a table's game is kept and read back, and the one load and one save of a move.

A move loads once and saves once::

    locked = storage.lock(table_id)     # the row locked and its seats: checked first
    before = locked.snapshot()          # then its game, only for a move that goes ahead
    game = before.game.copy()
    events = game.apply(seat, action)   # ...the rules decide...
    storage.save_move(before, table, seats, game, events, actor)

Behind this face, three modules, each for one reason:

* ``log``: a game is stored once, as how it began (on the ``Table`` row) and its moves
  (``Action`` rows); the row's other game columns only summarise it for lists.
* ``snapshots``: each process keeps the newest table it served (row, seats, game, public
  history), because rebuilding a game from its log at every move and every seat's drawing
  costs about a millisecond per hundred moves.
* ``statements``: a move's SQL, compiled by Django's ORM once; the one place that uses the
  ORM's query compiler, which is not a public API (see its ``CHECKED_WITH``).
"""
from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from games.models import Table
from games.storage import log, snapshots, statements
from games.storage.log import actions_of, log_of, logs_of, moves_since, record_start, saved_game
from games.storage.snapshots import Snapshot, cached, forget, game_of, load, of_row, read_seats

__all__ = [
    "MOVE_FIELDS", "Locked", "Snapshot", "actions_of", "cached", "forget", "game_of", "load", "lock", "log_of", "logs_of", "moves_since",
    "of_row", "read_seats", "record_start", "save_move", "saved_game",
]

MOVE_FIELDS = ("version", *log.SUMMARY_FIELDS, "winners", "status", "turn_deadline", "finished_at", "updated_at")
"""The table's columns a move may change (finishing the game included)."""


@dataclass(frozen=True)
class Locked:
    """A table's row, locked until the transaction ends, and its seats, read in the same
    exchange with the database: what a move is checked against (started, not over, the
    version it was made on, the seat's person) before its game is worked out."""

    table: Table
    seats: snapshots.SeatList

    def snapshot(self) -> Snapshot:
        """The table as locked, with its game: from this process's snapshot when that is
        current, else from its log (a replay of every move so far, which a refused move need
        not pay for). Not kept for others, who would see the row half-changed."""
        return snapshots.of_row(self.table, self.seats, keep=False)


def lock(table_id: int) -> Locked:
    """The table as it stands, its row locked for a move to change (:class:`Locked`).
    ``Table.DoesNotExist`` if there is none."""
    return Locked(*snapshots.lock_row(table_id))


def save_move(before: Snapshot, table, seats, game, events: list, actor: str) -> Snapshot:
    """Keep the action ``game`` has just applied to ``before``'s game, by ``actor``, and the
    row ``table`` as the move left it (its :data:`MOVE_FIELDS`), in two statements; once the
    transaction commits, this process serves the table from the snapshot after the move
    (before any client hears of it). Returns that snapshot."""
    log.summarise(table, game)
    statements.run_together(log.keep_action(table, game, actor), statements.update(table, MOVE_FIELDS))
    after = before.after(table, seats, game, events)
    transaction.on_commit(lambda: snapshots.remember(after))
    return after
