"""Ranking is per case file: the site-wide word indexes go; every span stays.

``casefiles.retrieval`` now reads a case file's own spans through the
``case_file_id`` index and counts N, the mean length and each word's document
frequency among them, so neither the SQLite FTS5 table (with its triggers) nor
PostgreSQL's GIN index over every span's vector is read any more: they only cost
each span written. PostgreSQL keeps the stored ``search_vector`` (it says cheaply
which of a case file's spans hold a query word). Reversing rebuilds both indexes
from the spans in place.
"""

from importlib import import_module

from django.db import migrations

# Reversing restores migration 0003's index (its triggers, rebuilt from the spans) and 0004's.
_WORDS = import_module("casefiles.migrations.0003_search_words")
_VECTOR = import_module("casefiles.migrations.0004_search_vector")

POSTGRES_UP = ["DROP INDEX IF EXISTS casefiles_span_vector"]
POSTGRES_DOWN = [_VECTOR.UP[-1]]


class Migration(migrations.Migration):
    dependencies = [("casefiles", "0005_span_order_by_column")]

    operations = [
        migrations.RunPython(
            _WORDS._run({"sqlite": _WORDS.SQLITE_DROP, "postgresql": POSTGRES_UP}),
            _WORDS._run({"sqlite": _WORDS.SQLITE_WORDS, "postgresql": POSTGRES_DOWN}),
        ),
    ]
