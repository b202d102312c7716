"""How a table's game is kept and read back, and the one load and one save of a move.

A move loads once and saves once::

    before = storage.lock(table_id)     # the row locked, its seats, its game
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

from django.db import transaction

from games.storage import log, snapshots, statements
from games.storage.log import actions_of, log_of, logs_of, moves_since, record_start, saved_game
from games.storage.snapshots import Snapshot, cached, forget, game_of, load, of_row, read_seats

__all__ = [
    "MOVE_FIELDS", "Snapshot", "actions_of", "cached", "forget", "game_of", "load", "lock", "log_of", "logs_of", "moves_since",
    "of_row", "read_seats", "record_start", "save_move", "saved_game",
]

MOVE_FIELDS = ("version", *log.SUMMARY_FIELDS, "winners", "status", "turn_deadline", "finished_at", "updated_at")
"""The table's columns a move may change (finishing the game included)."""


def lock(table_id: int) -> Snapshot:
    """The table as it stands, its row locked until the transaction ends, for a move to
    change: its seats are read in the same exchange with the database, its game comes from
    this process's snapshot when that is current. ``Table.DoesNotExist`` if there is none.
    Not kept for others, who would see the row half-changed."""
    table, seats = snapshots.lock_row(table_id)
    return snapshots.of_row(table, seats, keep=False)


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
