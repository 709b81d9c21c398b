"""Rows read and written with SQL written once: columns for a SELECT, an instance from a row, inserts.

For the few statements a hot path runs on every request (the session, the
signed-in user, a coach turn's), compiling a queryset each time costs the server
more CPU than the database takes to answer. Those statements are written once
from the models' own table and column names; these helpers keep what is read
what the ORM would read: the same columns in field order, each value through
the converters a query applies, the instance built by ``Model.from_db``; and
what is written, what ``save()`` / ``bulk_create`` would write (each field's
``pre_save`` and ``get_db_prep_save``).

Sources: Django's ``SQLCompiler.get_converters`` / ``apply_converters``,
``Model.from_db``, ``SQLInsertCompiler`` and ``Model.save_base`` (the signals
around a save), Django 5.2.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache
from typing import Any

from django.db import connections, router, transaction
from django.db.models import Field, Model
from django.db.models.signals import post_save, pre_save

__all__ = [
    "columns",
    "convert",
    "from_row",
    "insert",
    "insert_all",
    "insert_linked",
    "insert_statement",
    "inserted",
    "quote_for",
    "row_by_pk",
    "rows_by_pks",
    "save_row",
    "update_by_pks",
    "values_where",
]

# Parameters one statement may carry on every supported database (SQLite's old
# default limit was 999).
_MAX_PARAMS = 900


def quote_for(alias: str) -> Any:
    """The backend's identifier quoting for the database ``alias``."""
    return connections[alias].ops.quote_name


def columns(model: type[Model], alias: str, table: str = "") -> str:
    """`model`'s concrete columns in field order, for a SELECT (`table`: the alias to prefix)."""
    quote = quote_for(alias)
    prefix = f"{quote(table)}." if table else ""
    return ", ".join(prefix + quote(f.column) for f in model._meta.concrete_fields)


def from_row(model: type[Model], alias: str, values: Any) -> Model:
    """A `model` instance from its concrete columns' values as the database returned them.

    Each value goes through the converters a query would apply (the backend's and
    the field's: JSON text, SQLite's dates and booleans), then ``Model.from_db``.
    """
    attnames = _attnames(model)
    return model.from_db(alias, attnames, _converted(model, alias, attnames, values))


@cache
def _attnames(model: type[Model]) -> tuple[str, ...]:
    # Model.from_db only reads it (its length, and which fields are there).
    return tuple(f.attname for f in model._meta.concrete_fields)


@cache
def _select_where_pk(model: type[Model], alias: str, vendor: str) -> str:
    """``SELECT <every column> FROM table WHERE pk`` (the comparison is appended)."""
    quote = quote_for(alias)
    meta = model._meta
    return (
        f"SELECT {columns(model, alias)} FROM {quote(meta.db_table)} WHERE {quote(meta.pk.column)}"
    )


def _lock(alias: str, for_update: bool) -> str:
    # SQLite has no row locks: its transactions here begin IMMEDIATE, which locks the file.
    return " FOR UPDATE" if for_update and connections[alias].features.has_select_for_update else ""


@cache
def _by_pk_sql(model: type[Model], alias: str, vendor: str, for_update: bool) -> str:
    return _select_where_pk(model, alias, vendor) + " = %s" + _lock(alias, for_update)


def row_by_pk(model: type[Model], pk: Any, *, for_update: bool = False) -> Model | None:
    """``model.objects[.select_for_update()].filter(pk=pk).first()``, its statement written once."""
    alias = router.db_for_write(model) if for_update else router.db_for_read(model)
    connection = connections[alias]
    with connection.cursor() as cursor:
        cursor.execute(_by_pk_sql(model, alias, connection.vendor, for_update), [pk])
        row = cursor.fetchone()
    return None if row is None else from_row(model, alias, row)


def rows_by_pks(model: type[Model], pks: Sequence[Any], *, for_update: bool = False) -> dict:
    """``model.objects[.select_for_update()].in_bulk(pks)``, its statement written once."""
    alias = router.db_for_write(model) if for_update else router.db_for_read(model)
    connection = connections[alias]
    sql, lock = _select_where_pk(model, alias, connection.vendor) + " IN ", _lock(alias, for_update)
    rows: dict[Any, Model] = {}
    keys = list(dict.fromkeys(pks))
    with connection.cursor() as cursor:
        for start in range(0, len(keys), _MAX_PARAMS):
            chunk = keys[start : start + _MAX_PARAMS]
            placeholders = "(" + ", ".join(["%s"] * len(chunk)) + ")"
            cursor.execute(sql + placeholders + lock, chunk)
            for row in cursor.fetchall():
                instance = from_row(model, alias, row)
                rows[instance.pk] = instance
    return rows


def convert(model: type[Model], alias: str, fields: Sequence[Field], values: Any) -> list:
    """The values of `fields` (of `model`) as a query would give them, from a row's columns."""
    return _converted(model, alias, tuple(f.attname for f in fields), values)


def _converted(model: type[Model], alias: str, attnames: tuple[str, ...], values: Any) -> list:
    connection = connections[alias]
    converted = list(values)
    if len(converted) != len(attnames):
        raise ValueError(f"{len(converted)} values for {len(attnames)} fields of {model.__name__}")
    plan = _conversions(model, alias, connection.vendor, attnames)
    for at, column, backend, own in plan:
        value = converted[at]
        # The backend's converters come from this thread's connection, as a query's do.
        for converter in connection.ops.get_db_converters(column) if backend else ():
            value = converter(value, column, connection)
        for converter in own:
            value = converter(value, column, connection)
        converted[at] = value
    return converted


@lru_cache(maxsize=1024)
def _conversions(
    model: type[Model], alias: str, vendor: str, attnames: tuple[str, ...]
) -> tuple[tuple[int, Any, bool, tuple[Any, ...]], ...]:
    """The columns of `attnames` that have converters on this database: (position, column,
    whether the backend has converters for it, the field's own converters).

    Which fields have converters depends on the field and the backend, not on the row:
    working it out for every column of every row (``get_col`` and two converter
    lookups each) was a third of the CPU of reading an argument with its class's rules.
    A field's own converters (``from_db_value``) are the field's bound methods.
    """
    connection = connections[alias]
    by_attname = {f.attname: f for f in model._meta.concrete_fields}
    plan = []
    for at, attname in enumerate(attnames):
        field = by_attname[attname]
        column = field.get_col(model._meta.db_table)
        backend = bool(connection.ops.get_db_converters(column))
        own = tuple(field.get_db_converters(connection))
        if backend or own:
            plan.append((at, column, backend, own))
    return tuple(plan)


@cache
def _insert_plan(model: type[Model], alias: str, vendor: str) -> tuple[str, tuple[Field, ...]]:
    """The INSERT ... RETURNING of `model` on `alias` and the fields its values are for."""
    quote = quote_for(alias)
    meta = model._meta
    fields = tuple(f for f in meta.concrete_fields if f is not meta.auto_field)
    columns = ", ".join(quote(f.column) for f in fields)
    values = ", ".join(["%s"] * len(fields))
    sql = (
        f"INSERT INTO {quote(meta.db_table)} ({columns}) VALUES ({values}) "
        f"RETURNING {quote(meta.pk.column)}"
    )
    return sql, fields


def _values_to_save(
    instance: Model, fields: Sequence[Field], alias: str, *, add: bool
) -> list[Any]:
    """What ``save()`` does before it writes, and the values it writes for `fields`: related
    rows lend their keys, ``pre_save`` is sent when anything listens, each field's
    ``pre_save`` (``auto_now`` and the like) and ``get_db_prep_save``."""
    model = type(instance)
    connection = connections[alias]
    instance._prepare_related_fields_for_save(operation_name="save")  # as save() does
    if pre_save.has_listeners(model):
        pre_save.send(sender=model, instance=instance, raw=False, using=alias, update_fields=None)
    return [field.get_db_prep_save(field.pre_save(instance, add), connection) for field in fields]


def insert_statement(instance: Model) -> tuple[str, list[Any]]:
    """The ``INSERT ... RETURNING pk`` that `insert` runs for `instance`, and its values.

    What ``save()`` does before it writes (each field's ``pre_save``, the
    ``pre_save`` signal when anything listens) is done here; once the statement
    (alone, or inside a larger one) has given the key, `inserted` does the rest.
    For a database that returns columns from an INSERT.
    """
    model = type(instance)
    alias = router.db_for_write(model, instance=instance)
    sql, fields = _insert_plan(model, alias, connections[alias].vendor)
    return sql, _values_to_save(instance, fields, alias, add=True)


def inserted(instance: Model, pk: Any) -> Model:
    """What ``save()`` does once the row of `insert_statement` is written with key `pk`."""
    instance.pk = pk
    return _saved(instance, router.db_for_write(type(instance), instance=instance), created=True)


def insert(instance: Model) -> Model:
    """Insert a new row as ``instance.save()`` would, in one statement written once; sets its pk.

    The same values (each field's ``pre_save``: ``auto_now_add`` and the like),
    the same ``pre_save`` / ``post_save`` signals when anything listens. Only
    for a new row whose primary key the database assigns.
    """
    alias = router.db_for_write(type(instance), instance=instance)
    connection = connections[alias]
    if not connection.features.can_return_columns_from_insert:
        instance.save(force_insert=True, using=alias)
        return instance
    sql, params = insert_statement(instance)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        pk = cursor.fetchone()[0]
    return inserted(instance, pk)


@cache
def _linked_plan(
    first_model: type[Model], second_model: type[Model], link: str, alias: str, vendor: str
) -> tuple[str, tuple[Field, ...], tuple[Field, ...]]:
    """One statement inserting a row of `first_model` and a row of `second_model` whose
    `link` is the first row (PostgreSQL: an INSERT inside a WITH), and the fields of each."""
    quote = quote_for(alias)
    first_sql, first_fields = _insert_plan(first_model, alias, vendor)
    meta = second_model._meta
    link_field = meta.get_field(link)
    second_fields = tuple(
        f for f in _insert_plan(second_model, alias, vendor)[1] if f is not link_field
    )
    names = ", ".join(quote(f.column) for f in (*second_fields, link_field))
    values = ", ".join(["%s"] * len(second_fields))
    first = quote("first")
    sql = (
        f"WITH {first} AS ({first_sql}) "
        f"INSERT INTO {quote(meta.db_table)} ({names}) "
        f"SELECT {values}, {first}.{quote(first_model._meta.pk.column)} FROM {first} "
        f"RETURNING {quote(meta.pk.column)}, {quote(link_field.column)}"
    )
    return sql, first_fields, second_fields


def insert_linked(first: Model, second: Model, *, link: str) -> None:
    """Insert `first`, then `second` with its foreign key `link` set to it, all or nothing.

    What ``insert(first)`` and ``insert(second)`` in one transaction write (the
    same values, signals and keys), in one statement where the database can
    (PostgreSQL): one round trip where the transaction took four (BEGIN, two
    INSERTs, COMMIT). `second`'s `link` must not be set yet. Elsewhere the two
    inserts run in a transaction.
    """
    first_model, second_model = type(first), type(second)
    alias = router.db_for_write(second_model, instance=second)
    connection = connections[alias]
    if connection.vendor != "postgresql" or alias != router.db_for_write(first_model):
        # Inside a caller's transaction, no savepoint of its own (SQLite would run two more).
        with transaction.atomic(using=alias, savepoint=False):
            insert(first)
            setattr(second, link, first)
            insert(second)
        return
    link_field = second_model._meta.get_field(link)
    sql, first_fields, second_fields = _linked_plan(
        first_model, second_model, link, alias, connection.vendor
    )
    params = [
        *_values_to_save(first, first_fields, alias, add=True),
        *_values_to_save(second, second_fields, alias, add=True),
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        second.pk, first.pk = cursor.fetchone()
    setattr(second, link_field.name, first)
    _saved(first, alias, created=True)
    _saved(second, alias, created=True)


@lru_cache(maxsize=64)
def _insert_all_sql(
    model: type[Model], alias: str, vendor: str, count: int, returning: bool
) -> str:
    quote = quote_for(alias)
    meta = model._meta
    fields = _insert_plan(model, alias, vendor)[1]
    row = "(" + ", ".join(["%s"] * len(fields)) + ")"
    names = ", ".join(quote(f.column) for f in fields)
    sql = f"INSERT INTO {quote(meta.db_table)} ({names}) VALUES " + ", ".join([row] * count)
    return sql + f" RETURNING {quote(meta.pk.column)}" if returning else sql


def insert_all(instances: Sequence[Model], *, set_pks: bool = False) -> None:
    """Insert new rows of one model as ``bulk_create`` would, in one statement written once.

    The same values (each field's ``pre_save``) and, as with ``bulk_create``, no
    signals. ``set_pks``: read back the primary keys the database assigned, in
    the rows' order, as ``bulk_create`` does (``RETURNING``); without it they
    are not read. For the few rows a hot path writes together (a stage's calls,
    events, arguments); more than one statement may carry, or a database that
    cannot return them, go through ``bulk_create``.
    """
    if not instances:
        return
    model = type(instances[0])
    alias = router.db_for_write(model)
    connection = connections[alias]
    fields = _insert_plan(model, alias, connection.vendor)[1]
    if len(instances) * len(fields) > _MAX_PARAMS or (
        set_pks and not connection.features.can_return_rows_from_bulk_insert
    ):
        model._default_manager.using(alias).bulk_create(instances)
        return
    for instance in instances:
        # As bulk_create: a related row saved after this one was built lends it its key.
        instance._prepare_related_fields_for_save(operation_name="bulk_create")
    params = [
        field.get_db_prep_save(field.pre_save(instance, True), connection)
        for instance in instances
        for field in fields
    ]
    sql = _insert_all_sql(model, alias, connection.vendor, len(instances), set_pks)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        if set_pks:
            for instance, (pk,) in zip(instances, cursor.fetchall(), strict=True):
                instance.pk = pk
    for instance in instances:
        instance._state.adding = False
        instance._state.db = alias


@cache
def _update_sql(model: type[Model], alias: str, vendor: str, names: tuple[str, ...]) -> str:
    """``UPDATE table SET a = %s, b = %s WHERE pk IN `` (the key list is appended)."""
    quote = quote_for(alias)
    meta = model._meta
    sets = ", ".join(f"{quote(meta.get_field(name).column)} = %s" for name in names)
    return f"UPDATE {quote(meta.db_table)} SET {sets} WHERE {quote(meta.pk.column)} IN "


def update_by_pks(model: type[Model], pks: Sequence[Any], **values: Any) -> int:
    """``model.objects.filter(pk__in=pks).update(**values)``, its statement written once.

    Plain values only (no ``F()`` or other expressions), each through its field's
    ``get_db_prep_save`` as the ORM's update does; as with ``update()``, no
    ``pre_save`` (no ``auto_now``) and no signals. The number of rows changed.
    """
    if not pks:
        return 0
    alias = router.db_for_write(model)
    connection = connections[alias]
    names = tuple(sorted(values))
    fields = [model._meta.get_field(name) for name in names]
    params = [
        field.get_db_prep_save(values[name], connection)
        for name, field in zip(names, fields, strict=True)
    ]
    sql = _update_sql(model, alias, connection.vendor, names)
    changed = 0
    step = _MAX_PARAMS - len(params)
    with connection.cursor() as cursor:
        for start in range(0, len(pks), step):
            chunk = list(pks[start : start + step])
            cursor.execute(sql + "(" + ", ".join(["%s"] * len(chunk)) + ")", params + chunk)
            changed += cursor.rowcount
    return changed


@cache
def _save_plan(model: type[Model], alias: str, vendor: str) -> tuple[str, tuple[Field, ...]]:
    """The UPDATE of every column of one row by key, and the fields its values are for."""
    quote = quote_for(alias)
    meta = model._meta
    fields = tuple(f for f in meta.concrete_fields if not f.primary_key)
    sets = ", ".join(f"{quote(f.column)} = %s" for f in fields)
    sql = f"UPDATE {quote(meta.db_table)} SET {sets} WHERE {quote(meta.pk.column)} = %s"
    return sql, fields


def save_row(instance: Model) -> Model:
    """``instance.save()`` for a row that exists, in one statement written once.

    Every column written, as ``save()`` writes them (each field's ``pre_save``:
    ``auto_now`` and the like), with the same ``pre_save`` / ``post_save``
    signals when anything listens. A row that is not there goes to ``save()``,
    which inserts it, as it would have.
    """
    model = type(instance)
    alias = router.db_for_write(model, instance=instance)
    connection = connections[alias]
    sql, fields = _save_plan(model, alias, connection.vendor)
    params = _values_to_save(instance, fields, alias, add=False)
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, instance.pk])
        updated = cursor.rowcount
    if not updated:
        instance.save(using=alias)
        return instance
    return _saved(instance, alias, created=False)


def _saved(instance: Model, alias: str, *, created: bool) -> Model:
    """What ``save()`` does once its row is written: the instance's state, ``post_save``."""
    instance._state.adding = False
    instance._state.db = alias
    if post_save.has_listeners(type(instance)):
        post_save.send(
            sender=type(instance),
            instance=instance,
            created=created,
            update_fields=None,
            raw=False,
            using=alias,
        )
    return instance


@cache
def _values_sql(model: type[Model], alias: str, vendor: str, names: tuple, where: tuple) -> str:
    quote = quote_for(alias)
    meta = model._meta
    selected = ", ".join(quote(meta.get_field(name).column) for name in names)
    condition = " AND ".join(f"{quote(meta.get_field(name).column)} = %s" for name in where)
    return (
        f"SELECT {selected} FROM {quote(meta.db_table)} WHERE {condition} "
        f"ORDER BY {quote(meta.pk.column)}"
    )


def values_where(model: type[Model], names: Sequence[str], **where: Any) -> list[tuple]:
    """``model.objects.filter(**where).order_by("pk").values_list(*names)``, written once.

    Equality filters on plain values only (a related row by its key: ``inquiry=5``
    or ``inquiry_id=5``); each value read through the converters a query applies.
    """
    alias = router.db_for_read(model)
    connection = connections[alias]
    names, keys = tuple(names), tuple(sorted(where))
    fields = [model._meta.get_field(name) for name in names]
    params = [model._meta.get_field(key).get_db_prep_value(where[key], connection) for key in keys]
    with connection.cursor() as cursor:
        cursor.execute(_values_sql(model, alias, connection.vendor, names, keys), params)
        rows = cursor.fetchall()
    return [tuple(convert(model, alias, fields, row)) for row in rows]
