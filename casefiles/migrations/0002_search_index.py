"""The spans' full-text index: FTS5 on SQLite, a GIN expression index on PostgreSQL.

SQLite: an external-content FTS5 table over casefiles_span, kept in step by
triggers (so every insert, update and cascade delete is indexed, whoever does
it). Diacritics are kept, as PostgreSQL's 'simple' configuration keeps them,
so both databases match the same words (casefiles/retrieval.py).
"""

from django.db import migrations

SQLITE_UP = [
    """CREATE VIRTUAL TABLE casefiles_span_fts USING fts5(
        text, content='casefiles_span', content_rowid='id',
        tokenize='unicode61 remove_diacritics 0')""",
    """CREATE TRIGGER casefiles_span_fts_ai AFTER INSERT ON casefiles_span BEGIN
        INSERT INTO casefiles_span_fts(rowid, text) VALUES (new.id, new.text);
    END""",
    """CREATE TRIGGER casefiles_span_fts_ad AFTER DELETE ON casefiles_span BEGIN
        INSERT INTO casefiles_span_fts(casefiles_span_fts, rowid, text)
        VALUES ('delete', old.id, old.text);
    END""",
    """CREATE TRIGGER casefiles_span_fts_au AFTER UPDATE ON casefiles_span BEGIN
        INSERT INTO casefiles_span_fts(casefiles_span_fts, rowid, text)
        VALUES ('delete', old.id, old.text);
        INSERT INTO casefiles_span_fts(rowid, text) VALUES (new.id, new.text);
    END""",
]
SQLITE_DOWN = [
    "DROP TRIGGER IF EXISTS casefiles_span_fts_au",
    "DROP TRIGGER IF EXISTS casefiles_span_fts_ad",
    "DROP TRIGGER IF EXISTS casefiles_span_fts_ai",
    "DROP TABLE IF EXISTS casefiles_span_fts",
]
POSTGRES_UP = [
    "CREATE INDEX casefiles_span_fts ON casefiles_span USING gin (to_tsvector('simple', text))",
]
POSTGRES_DOWN = ["DROP INDEX IF EXISTS casefiles_span_fts"]


def _run(statements_by_vendor):
    def run(apps, schema_editor):
        for statement in statements_by_vendor.get(schema_editor.connection.vendor, []):
            schema_editor.execute(statement)

    return run


class Migration(migrations.Migration):
    dependencies = [("casefiles", "0001_initial")]

    operations = [
        migrations.RunPython(
            _run({"sqlite": SQLITE_UP, "postgresql": POSTGRES_UP}),
            _run({"sqlite": SQLITE_DOWN, "postgresql": POSTGRES_DOWN}),
        ),
    ]
