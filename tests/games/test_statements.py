"""games.statements: a move's locked read and two writes run the SQL the ORM compiled once,
with the same statements and parameters as the ORM (on whichever database the suite runs)."""
import re
from datetime import datetime, timedelta, timezone as tz
from unittest import mock

import pytest
from django.db import DatabaseError, connection, transaction

from games import services, statements
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
    [(our_sql, our_params)] = sent_by(lambda: statements.insert(row()))
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
    [(saved_sql, saved_params)] = sent_by(lambda: table.save(update_fields=services.MOVE_FIELDS))
    saved_row = Table.objects.values(*services.MOVE_FIELDS).get(pk=table.pk)
    Table.objects.filter(pk=table.pk).update(version=0, ply=0, scores=[], status=Table.Status.WAITING,
                                             turn_deadline=NOW, updated_at=NOW - timedelta(days=1))
    [(our_sql, our_params)] = sent_by(lambda: statements.update(table, services.MOVE_FIELDS))
    assert our_sql == saved_sql
    assert our_params == saved_params
    assert Table.objects.values(*services.MOVE_FIELDS).get(pk=table.pk) == saved_row


@pytest.mark.django_db
def test_updating_a_row_that_is_not_there_is_an_error(table):
    Table.objects.filter(pk=table.pk).delete()
    with pytest.raises(DatabaseError, match="no such row"):
        statements.update(table, services.MOVE_FIELDS)


@pytest.mark.django_db
def test_a_row_is_locked_and_read_as_the_orm_reads_it(table):
    table.turn_deadline = NOW + timedelta(seconds=30)  # a date and JSON columns to read back
    table.scores = [3, 0, 13, 10]
    table.save()
    with transaction.atomic():
        [(orm_sql, orm_params)] = sent_by(lambda: list(Table.objects.select_for_update().filter(pk=table.pk)))
        [(our_sql, our_params)] = sent_by(lambda: statements.locked_row(Table, table.pk))
        ours = statements.locked_row(Table, table.pk)
    assert (our_sql, our_params) == (orm_sql, orm_params)
    orm = Table.objects.get(pk=table.pk)
    columns = [field.attname for field in Table._meta.concrete_fields]
    assert [getattr(ours, name) for name in columns] == [getattr(orm, name) for name in columns]
    assert ours.turn_deadline == NOW + timedelta(seconds=30) and ours.scores == [3, 0, 13, 10]
    assert not ours._state.adding and ours._state.db == orm._state.db


@pytest.mark.django_db
def test_a_missing_row_is_none(table):
    with transaction.atomic():
        assert statements.locked_row(Table, table.pk + 1000) is None
