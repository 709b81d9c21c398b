"""PostgreSQL: the spans' words as a stored tsvector column, GIN-indexed.

``casefiles.retrieval`` reads term frequencies from the vector's positions, so
it is stored (generated from ``search_text``) rather than recomputed per query.
SQLite keeps its FTS5 table (migration 0003); nothing changes there.
"""

from django.db import migrations

UP = [
    "DROP INDEX IF EXISTS casefiles_span_words",
    "ALTER TABLE casefiles_span ADD COLUMN search_vector tsvector "
    "GENERATED ALWAYS AS (to_tsvector('simple', search_text)) STORED",
    "CREATE INDEX casefiles_span_vector ON casefiles_span USING gin (search_vector)",
]
DOWN = [
    "DROP INDEX IF EXISTS casefiles_span_vector",
    "ALTER TABLE casefiles_span DROP COLUMN IF EXISTS search_vector",
    "CREATE INDEX casefiles_span_words ON casefiles_span "
    "USING gin (to_tsvector('simple', search_text))",
]


def _run(statements):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            for statement in statements:
                schema_editor.execute(statement)

    return run


class Migration(migrations.Migration):
    dependencies = [("casefiles", "0003_search_words")]

    operations = [migrations.RunPython(_run(UP), _run(DOWN))]
