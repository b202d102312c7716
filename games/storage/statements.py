"""The statements of every move, with their SQL compiled by the ORM once.

A move reads its table's row under a lock, inserts its :class:`~games.models.Action` row
and updates the table's row. Through the ORM each statement is built again at every move,
and building them cost several times what running them did (about a tenth of the server's
time per move); a raw query's model building cost as much again. Here each statement is
compiled by the ORM the first time, for its model, columns and database, and then only
run; the values are prepared and read back by the fields themselves, as the ORM does.
``tests/games/test_statements.py`` checks that each sends the SQL and parameters the ORM
would send, and gives the same row. A move sends them with :func:`run_together`: on
PostgreSQL the lock with the seats' read, then the two writes, one query each.

Unlike ``save``, these send no ``pre_save``/``post_save`` signals (nothing listens to them
for these models) and do not read back the new row's id.
"""
from __future__ import annotations

import copy
import functools
from typing import NamedTuple

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections, router
from django.db.models import Model, sql

CHECKED_WITH = {"Django": "5.2.19"}
"""The version whose query compiler (``Query.get_compiler``, ``SQLCompiler.as_sql``,
``select`` and ``get_converters``, not a documented API) these statements were checked against;
``tests/test_library_internals.py`` fails on an upgrade."""


def locked_row(model: type[Model], pk, *then: Statement) -> tuple[Model | None, list]:
    """``model.objects.select_for_update().filter(pk=pk).first()``, without its ordering:
    the row, locked until the transaction ends, or None if there is none; and what each of
    the statements ``then`` gave, run once the row is locked, with the lock's statement
    (:func:`run_together`). Call it inside a transaction, as ``select_for_update`` requires."""
    using = router.db_for_write(model)
    connection = connections[using]
    statement, attnames, converters = _locked_row_sql(model, using)
    rows, *results = run_together(
        Statement(statement, [model._meta.pk.get_db_prep_value(pk, connection)], using=using), *then
    )
    if not rows:
        return None, results
    values = list(rows[0])
    for position, (convert_all, column) in converters:
        for convert in convert_all:
            values[position] = convert(values[position], column, connection)
    return model.from_db(using, attnames, values), results


@functools.cache
def _locked_row_sql(model, using: str) -> tuple[str, tuple[str, ...], tuple]:
    """The SELECT ... FOR UPDATE the ORM builds for one row of ``model`` by id, the
    attribute each column sets, and the converters that read its values back as the ORM
    does (SQLite's dates, JSON text): the database's, then the field's, by column position.

    The ORM looks the converters up again at every query, which cost most of the read; they
    depend only on the fields and the database's settings, the same for every connection to
    it, so they are looked up here once."""
    compiler = model._default_manager.select_for_update().filter(pk=0).query.get_compiler(using)
    statement = _for_any_id(compiler)
    columns = [column for column, _, _ in compiler.select]
    converters = tuple(compiler.get_converters(columns).items())
    return statement, tuple(column.target.attname for column in columns), converters


def sql_for_any_id(queryset) -> str:
    """The SQL of ``queryset``, built for the id 0 (its only parameter), to run again for any
    id with ``cursor.execute(sql, [id])``."""
    return _for_any_id(queryset.query.get_compiler(queryset.db))


def _for_any_id(compiler) -> str:
    statement, params = compiler.as_sql()
    if list(params) != [0]:
        raise ValueError(f"Build the query with the id 0 as its only parameter, not {params!r}.")
    return statement


class Statement(NamedTuple):
    """One SQL statement and its parameters, for :func:`run_together`, and the database it
    is for. ``one_row``: for an UPDATE of one row, what to say when it changed none."""

    sql: str
    params: list
    using: str = DEFAULT_DB_ALIAS
    one_row: str = ""


def run_together(*statements: Statement) -> list:
    """Run ``statements`` in order, and return what each gave: its rows (a SELECT), or the
    number of rows it changed.

    On PostgreSQL they are sent as one query, in one exchange with the server, where one by
    one each would wait for the server's answer: a move's statements are sent in two such
    exchanges instead of four, and in a loaded server process each exchange also waits for
    the interpreter lock (``hearts_site/server_tuning.py``). Elsewhere (SQLite, where there
    is no exchange to spare, and PostgreSQL with server-side binding, which takes one
    statement per query) they are run one by one; ``tests/games/test_statements.py``
    checks that both ways give the same.
    """
    using = statements[0].using
    if any(statement.using != using for statement in statements):
        raise ValueError("Statements run together are for one database.")
    connection = connections[using]
    with connection.cursor() as cursor:
        if len(statements) > 1 and _takes_several_statements(connection):
            results = _run_at_once(cursor, statements)
        else:
            results = _run_one_by_one(cursor, statements)
    for statement, result in zip(statements, results):
        if statement.one_row and result != 1:
            raise DatabaseError(statement.one_row)
    return results


def _takes_several_statements(connection) -> bool:
    """Whether the connection sends a query with its parameters merged into it (psycopg's
    client-side binding, Django's default), by the protocol that takes several statements."""
    return connection.vendor == "postgresql" and not connection.settings_dict["OPTIONS"].get("server_side_binding")


def _run_one_by_one(cursor, statements) -> list:
    results = []
    for statement in statements:
        cursor.execute(statement.sql, statement.params)
        results.append(_result(cursor))
    return results


def _run_at_once(cursor, statements) -> list:
    cursor.execute(";".join(statement.sql for statement in statements),
                   [param for statement in statements for param in statement.params])
    results = [_result(cursor)]
    while cursor.nextset():
        results.append(_result(cursor))
    if len(results) != len(statements):
        raise DatabaseError(f"{len(statements)} statements gave {len(results)} results.")
    return results


def _result(cursor):
    return cursor.fetchall() if cursor.description is not None else cursor.rowcount


def insert(row: Model) -> Statement:
    """The statement of ``row.save(force_insert=True)`` for a new row whose id the database
    chooses (it is not read back: ``row.pk`` stays None)."""
    model = type(row)
    using = router.db_for_write(model, instance=row)
    statement, fields = _insert_sql(model, using)
    connection = connections[using]
    params = [field.get_db_prep_save(field.pre_save(row, True), connection) for field in fields]
    return Statement(statement, params, using)


def update(row: Model, field_names: tuple[str, ...]) -> Statement:
    """The statement of ``row.save(update_fields=field_names)``: write those columns of the
    row (and an ``auto_now`` column among them, set now)."""
    model = type(row)
    using = router.db_for_write(model, instance=row)
    connection = connections[using]
    field_names = tuple(field_names)
    fields = _updated_fields(model, field_names)
    values = [field.get_db_prep_save(field.pre_save(row, False), connection) for field in fields]
    # The ORM writes an empty column as NULL in the statement itself: one statement for each
    # set of empty columns.
    key = (model, field_names, tuple(value is None for value in values), using)
    statement = _updates.get(key)
    if statement is None:
        statement = _updates[key] = _update_sql(copy.copy(row), fields, using)
    params = [value for value in values if value is not None]
    params.append(model._meta.pk.get_db_prep_value(row.pk, connection))
    return Statement(statement, params, using, one_row=f"{model.__name__} {row.pk} was not updated: there is no such row.")


_updates: dict[tuple, str] = {}


def _update_sql(row: Model, fields, using: str) -> str:
    """The UPDATE the ORM builds for ``row`` and its ``fields``."""
    query = sql.UpdateQuery(type(row))
    query.add_update_fields([(field, None, field.pre_save(row, False)) for field in fields])
    query.add_filter("pk", row.pk)
    return query.get_compiler(using).as_sql()[0]


@functools.cache
def _updated_fields(model, field_names: tuple[str, ...]) -> tuple:
    """The fields ``save(update_fields=field_names)`` writes, in the order it writes them."""
    unknown = set(field_names) - {field.name for field in model._meta.local_concrete_fields}
    if unknown:
        raise ValueError(f"{model.__name__} has no column {', '.join(sorted(unknown))}.")
    return tuple(field for field in model._meta.local_concrete_fields
                 if field.name in field_names and not field.primary_key and not field.generated)


@functools.cache
def _insert_sql(model, using: str) -> tuple[str, tuple]:
    """The INSERT the ORM builds for a new row of ``model``, and the fields it writes."""
    meta = model._meta
    fields = [field for field in meta.local_concrete_fields if field is not meta.auto_field and not field.generated]
    query = sql.InsertQuery(model)
    query.insert_values(fields, [model()])
    [(statement, _)] = query.get_compiler(using).as_sql()
    return statement, tuple(fields)
