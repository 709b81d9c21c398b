"""Rows read with SQL written once: a model's columns for a SELECT, an instance from a row.

For the few statements a hot path runs on every request (the session, the
signed-in user, a coach turn's), compiling a queryset each time costs the server
more CPU than the database takes to answer. Those statements are written once
from the models' own table and column names; these helpers keep what is read
what the ORM would read: the same columns in field order, each value through
the converters a query applies, the instance built by ``Model.from_db``.

Source: Django's ``SQLCompiler.get_converters`` / ``apply_converters`` and
``Model.from_db``, Django 5.2.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import connections
from django.db.models import Field, Model

__all__ = ["columns", "convert", "from_row", "quote_for"]


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
    fields = model._meta.concrete_fields
    converted = convert(model, alias, fields, values)
    return model.from_db(alias, [f.attname for f in fields], converted)


def convert(model: type[Model], alias: str, fields: Sequence[Field], values: Any) -> list:
    """The values of `fields` (of `model`) as a query would give them, from a row's columns."""
    connection = connections[alias]
    converted = []
    for field, value in zip(fields, values, strict=True):
        column = field.get_col(model._meta.db_table)
        for converter in (
            *connection.ops.get_db_converters(column),
            *field.get_db_converters(connection),
        ):
            value = converter(value, column, connection)
        converted.append(value)
    return converted
