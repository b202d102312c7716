"""games.storage.statements: a move's locked read and two writes run the SQL the ORM compiled once,
with the same statements and parameters as the ORM (on whichever database the suite runs),
and statements run together give what they give one by one."""
import re
from datetime import datetime, timedelta, timezone as tz
from unittest import mock

import pytest
from django.db import DatabaseError, IntegrityError, connection, transaction

from games import services, storage
from games.storage import statements
from games.engine import Rules
from games.models import Action, Table

NOW = datetime(2026, 12, 4, 12, 0, 0, tzinfo=tz.utc)
RETURNING = re.compile(r" RETURNING .*$")


@pytest.fixture
def table(django_user_model):
    host = django_user_model.objects.create_user("ann", password="pw-long-enough-1")
    table = services.create_table(host, Rules(), seat_bots=[None, "easy", "easy", "easy"], seed=7)
    return Table.objects.get(pk=table.pk)


def comparable(value):
    """A parameter as a value that compares by content (psycopg's ``Jsonb`` wrapper does not)."""
    wrapped = getattr(value, "obj", None)
    return (type(value).__name__, wrapped) if wrapped is not None else value


class Sent:
    """The statements sent to the database meanwhile, with their parameters."""

    def __init__(self):
        self.statements = []

    def __call__(self, execute, sql, params, many, context):
        self.statements.append((sql, [comparable(value) for value in params]))
        return execute(sql, params, many, context)


def sent_by(write) -> list:
    sent = Sent()
    with mock.patch("django.utils.timezone.now", return_value=NOW), connection.execute_wrapper(sent):
        write()
    return sent.statements


def written(table, ply):
    return Action.objects.filter(table=table, ply=ply).values("version", "deal", "seat", "action", "actor",
                                                              "created_at").get()


@pytest.mark.django_db
@pytest.mark.parametrize("action", ["QS", ["2C", "3C", "AH"], "subtract"])
def test_an_action_row_is_inserted_as_save_inserts_it(table, action):
    def row():
        return Action(table=table, ply=1, version=1, deal=1, seat=2, action=action, actor=Action.Actor.BOT)

    [(saved_sql, saved_params)] = sent_by(lambda: row().save(force_insert=True))
    saved_row = written(table, 1)
    Action.objects.filter(table=table).delete()
    [(our_sql, our_params)] = sent_by(lambda: statements.run_together(statements.insert(row())))
    assert our_sql == RETURNING.sub("", saved_sql), "the same statement, without reading the id back"
    assert our_params == saved_params
    assert written(table, 1) == saved_row


@pytest.mark.django_db
@pytest.mark.parametrize("deadline", [None, NOW + timedelta(seconds=30)])
def test_a_tables_move_columns_are_updated_as_save_updates_them(table, deadline):
    table.version += 1
    table.ply = 5
    table.scores = [3, 0, 13, 10]
    table.status = Table.Status.PLAYING
    table.turn_deadline = deadline
    [(saved_sql, saved_params)] = sent_by(lambda: table.save(update_fields=storage.MOVE_FIELDS))
    saved_row = Table.objects.values(*storage.MOVE_FIELDS).get(pk=table.pk)
    Table.objects.filter(pk=table.pk).update(version=0, ply=0, scores=[], status=Table.Status.WAITING,
                                             turn_deadline=NOW, updated_at=NOW - timedelta(days=1))
    [(our_sql, our_params)] = sent_by(lambda: statements.run_together(statements.update(table, storage.MOVE_FIELDS)))
    assert our_sql == saved_sql
    assert our_params == saved_params
    assert Table.objects.values(*storage.MOVE_FIELDS).get(pk=table.pk) == saved_row


@pytest.mark.django_db
def test_updating_a_row_that_is_not_there_is_an_error(table):
    Table.objects.filter(pk=table.pk).delete()
    with pytest.raises(DatabaseError, match="no such row"):
        statements.run_together(statements.update(table, storage.MOVE_FIELDS))


@pytest.mark.django_db
def test_a_row_is_locked_and_read_as_the_orm_reads_it(table):
    table.turn_deadline = NOW + timedelta(seconds=30)  # a date and JSON columns to read back
    table.scores = [3, 0, 13, 10]
    table.save()
    with transaction.atomic():
        [(orm_sql, orm_params)] = sent_by(lambda: list(Table.objects.select_for_update().filter(pk=table.pk)))
        [(our_sql, our_params)] = sent_by(lambda: statements.locked_row(Table, table.pk))
        ours, nothing_else = statements.locked_row(Table, table.pk)
    assert (our_sql, our_params) == (orm_sql, orm_params)
    assert nothing_else == []
    orm = Table.objects.get(pk=table.pk)
    columns = [field.attname for field in Table._meta.concrete_fields]
    assert [getattr(ours, name) for name in columns] == [getattr(orm, name) for name in columns]
    assert ours.turn_deadline == NOW + timedelta(seconds=30) and ours.scores == [3, 0, 13, 10]
    assert not ours._state.adding and ours._state.db == orm._state.db


@pytest.mark.django_db
def test_a_missing_row_is_none(table):
    with transaction.atomic():
        assert statements.locked_row(Table, table.pk + 1000) == (None, [])


# --------------------------------------------------------------------------- run together

sends_several_at_once = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="only PostgreSQL (client-side binding) takes several statements at once"
)


def action_row(table, ply, **changes):
    return Action(table=table, ply=ply, version=ply, deal=1, seat=ply % 4, action="2C", actor=Action.Actor.BOT,
                  **changes)


def a_moves_statements(table):
    """A read, an insert and an update of the row (as a move's), and an update of no row."""
    table.version += 1
    table.ply = 1
    gone = Table(pk=table.pk + 1000, code="gone", version=1)
    return [
        statements.Statement("SELECT id, version, ply FROM games_table WHERE id = %s", [table.pk]),
        statements.insert(action_row(table, 1)),
        statements.update(table, ("version", "ply")),
        statements.update(gone, ("version",))._replace(one_row=""),  # no row, not checked
        statements.Statement("SELECT ply, version FROM games_action WHERE table_id = %s", [table.pk]),
    ]


def database_state(table):
    return (list(Table.objects.filter(pk=table.pk).values_list("version", "ply")),
            list(Action.objects.filter(table=table).values_list("ply", "version", "seat", "action")))


@pytest.mark.django_db
@sends_several_at_once
def test_statements_run_at_once_give_what_they_give_one_by_one(table):
    version = table.version
    with transaction.atomic():
        with connection.cursor() as cursor:
            one_by_one = statements._run_one_by_one(cursor, a_moves_statements(table))
        state = database_state(table)
        transaction.set_rollback(True)
    table.version = version
    with transaction.atomic():
        with connection.cursor() as cursor:
            at_once = statements._run_at_once(cursor, a_moves_statements(table))
        assert database_state(table) == state
    assert at_once == one_by_one
    assert one_by_one[0] == [(table.pk, version, 0)] and one_by_one[1:4] == [1, 1, 0]
    assert one_by_one[4] == [(1, version + 1)]


@pytest.mark.django_db
def test_statements_run_together_are_sent_as_one_query_where_the_database_takes_them(table):
    with transaction.atomic():
        sent = sent_by(lambda: statements.run_together(*a_moves_statements(table)))
    assert len(sent) == (1 if connection.vendor == "postgresql" else 5)
    assert database_state(table)[1] == [(1, table.version, 1, "2C")]


@pytest.mark.django_db(transaction=True)
def test_a_failing_statement_among_others_changes_nothing(table):
    Action.objects.create(table=table, ply=2, version=2, deal=1, seat=2, action="3C", actor=Action.Actor.BOT)
    before = database_state(table)
    table.version += 1
    with pytest.raises(IntegrityError), transaction.atomic():
        statements.run_together(statements.insert(action_row(table, 1)), statements.update(table, ("version",)),
                                statements.insert(action_row(table, 2)))  # ply 2 is taken
    assert database_state(table) == before


@pytest.mark.django_db
def test_an_update_run_with_others_that_changes_no_row_is_an_error(table):
    gone = Table.objects.get(pk=table.pk)
    gone.pk += 1000
    with pytest.raises(DatabaseError, match="no such row"), transaction.atomic():
        statements.run_together(statements.insert(action_row(table, 1)), statements.update(gone, ("version",)))
    assert not Action.objects.filter(table=table).exists()
