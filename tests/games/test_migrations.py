"""Migration 0013 keeps every stored game when ``Table.state`` goes: the log moves to the
action rows (the game's plies, the table's versions kept beside them) and back again."""
import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.loader import MigrationLoader

from games import storage
from games.engine import Game, Rules
from games.models import Table

BEFORE = [("games", "0012_table_offline_id")]
AFTER = [("games", "0014_remove_table_state")]
LATER_FIELDS = ("pace",)
"""Table columns added after ``AFTER`` (0016)."""


def latest():
    """Every app's newest migration, where the rest of the tests expect the database."""
    return MigrationLoader(None, ignore_no_migrations=True).graph.leaf_nodes()


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def old_game_table(apps, user, seed, moves, *, actions=True):
    """A table as 0012 stored it: the whole game in ``state``; its action rows numbered by
    the table's version (1 for the start, so the first move made version 2)."""
    OldTable, OldSeat, OldAction = (apps.get_model("games", name) for name in ("Table", "Seat", "Action"))
    game = Game.new(Rules(), seed=seed)
    for _ in range(moves):
        seat = game.to_act[0]
        game.apply(seat, game.legal(seat)[:3] if game.phase == "pass" else game.legal(seat)[0])
    table = OldTable.objects.create(
        host_id=user.pk, rules=Rules().to_dict(), seed=seed, state=game.to_dict(), version=game.ply + 1,
        status="playing",
    )
    for number in range(4):
        OldSeat.objects.create(table=table, number=number, user_id=user.pk if number == 0 else None,
                               bot_level="" if number == 0 else "easy")
    if actions:
        for ply, entry in enumerate(game.log(), start=1):
            OldAction.objects.create(table=table, ply=ply + 1, seat=entry["seat"], action=entry["action"],
                                     actor="person" if entry["seat"] == 0 else "bot")
    return table.pk, game


@pytest.mark.django_db(transaction=True)
def test_stored_games_move_from_state_to_the_action_rows_and_back(django_user_model):
    user = django_user_model.objects.create_user("ann")
    try:
        apps = migrate(BEFORE)
        kept, kept_game = old_game_table(apps, user, seed=3, moves=60)
        lost, lost_game = old_game_table(apps, user, seed=4, moves=20, actions=False)
        apps.get_model("games", "Table").objects.create(host_id=user.pk, rules=Rules().to_dict(), seed=5)

        migrate(AFTER)
        at_after = Table.objects.defer(*LATER_FIELDS)  # the columns later migrations add are not there yet
        for pk, game in ((kept, kept_game), (lost, lost_game)):
            table = at_after.get(pk=pk)
            assert storage.game_from_log(table).to_dict() == game.to_dict()
            assert (table.ply, table.deal_number, table.scores) == (game.ply, game.deal_number, list(game.scores))
        versions = list(at_after.get(pk=kept).actions.values_list("ply", "version"))
        assert versions == [(ply, ply + 1) for ply in range(1, 61)], "plies from 1, the versions they made kept"
        assert not at_after.exclude(pk__in=[kept, lost]).get().has_game

        apps = migrate(BEFORE)
        OldTable = apps.get_model("games", "Table")
        assert OldTable.objects.get(pk=kept).state == kept_game.to_dict()
        assert list(apps.get_model("games", "Action").objects.filter(table_id=kept).values_list("ply", flat=True)) == list(
            range(2, 62)
        )
    finally:
        migrate(latest())
