"""A game stored once: how it began on its :class:`~games.models.Table` row, its moves as
:class:`~games.models.Action` rows, and nothing else that must agree with them.

The row's ``ply``, ``deal_number`` and ``scores`` summarise the game for lists and the
admin; they are written with every move (:func:`summarise`), never read back into a game
(``winners``, the result, is written when the game ends: ``games.services``). A game is
rebuilt from the log with :func:`game_from_log`; a process keeps the newest game of each
table it serves (``games.storage.snapshots``) and reads only the moves it has not seen
(:func:`log_of`).
"""
from __future__ import annotations

from games.engine import Game
from games.models import Action, Table
from games.storage import statements

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
