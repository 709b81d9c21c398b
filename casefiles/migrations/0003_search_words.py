"""Index the spans' words as casefiles/terms.py cuts them, the same on both databases.

Adds ``Span.search_text`` (the words, each padded by spaces) and ``Span.n_words``,
fills them for existing spans, and moves the full-text index onto that column:
SQLite's external-content FTS5 table (kept in step by triggers) and PostgreSQL's
GIN expression index. The raw text, cut differently by each database's own
tokenizer (``1.2``, ``cycle-lanes``), is no longer indexed.
"""

import unicodedata

from django.db import migrations, models

SQLITE_DROP = [
    "DROP TRIGGER IF EXISTS casefiles_span_fts_au",
    "DROP TRIGGER IF EXISTS casefiles_span_fts_ad",
    "DROP TRIGGER IF EXISTS casefiles_span_fts_ai",
    "DROP TABLE IF EXISTS casefiles_span_fts",
]
SQLITE_WORDS = [
    """CREATE VIRTUAL TABLE casefiles_span_fts USING fts5(
        search_text, content='casefiles_span', content_rowid='id',
        tokenize='unicode61 remove_diacritics 0')""",
    """CREATE TRIGGER casefiles_span_fts_ai AFTER INSERT ON casefiles_span BEGIN
        INSERT INTO casefiles_span_fts(rowid, search_text) VALUES (new.id, new.search_text);
    END""",
    """CREATE TRIGGER casefiles_span_fts_ad AFTER DELETE ON casefiles_span BEGIN
        INSERT INTO casefiles_span_fts(casefiles_span_fts, rowid, search_text)
        VALUES ('delete', old.id, old.search_text);
    END""",
    """CREATE TRIGGER casefiles_span_fts_au AFTER UPDATE OF search_text ON casefiles_span BEGIN
        INSERT INTO casefiles_span_fts(casefiles_span_fts, rowid, search_text)
        VALUES ('delete', old.id, old.search_text);
        INSERT INTO casefiles_span_fts(rowid, search_text) VALUES (new.id, new.search_text);
    END""",
    "INSERT INTO casefiles_span_fts(casefiles_span_fts) VALUES ('rebuild')",
]
SQLITE_TEXT = [
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
    "INSERT INTO casefiles_span_fts(casefiles_span_fts) VALUES ('rebuild')",
]
POSTGRES_DROP = ["DROP INDEX IF EXISTS casefiles_span_fts", "DROP INDEX IF EXISTS casefiles_span_words"]
POSTGRES_WORDS = [
    "CREATE INDEX casefiles_span_words ON casefiles_span "
    "USING gin (to_tsvector('simple', search_text))",
]
POSTGRES_TEXT = [
    "CREATE INDEX casefiles_span_fts ON casefiles_span USING gin (to_tsvector('simple', text))",
]


def _run(statements_by_vendor):
    def run(apps, schema_editor):
        for statement in statements_by_vendor.get(schema_editor.connection.vendor, []):
            schema_editor.execute(statement)

    return run


def _words(text):
    # A frozen copy of casefiles.terms.words as it was when this migration was written.
    import re

    found = []
    for match in re.finditer(r"[^\W_]+", unicodedata.normalize("NFC", text).lower()):
        word = ""
        for ch in match.group(0) + " ":
            if ch.isalpha() or ch.isdecimal():
                word += ch
            else:
                if word and len(word) <= 60:
                    found.append(word)
                word = ""
    return found


def fill_words(apps, schema_editor):
    Span = apps.get_model("casefiles", "Span")
    batch = []
    for span in Span.objects.only("id", "text").iterator(chunk_size=500):
        indexed = _words(span.text)
        span.search_text = "".join(f" {word} " for word in indexed)
        span.n_words = len(indexed)
        batch.append(span)
        if len(batch) == 500:
            Span.objects.bulk_update(batch, ["search_text", "n_words"])
            batch = []
    Span.objects.bulk_update(batch, ["search_text", "n_words"])


class Migration(migrations.Migration):
    dependencies = [("casefiles", "0002_search_index")]

    operations = [
        migrations.AddField(
            model_name="span",
            name="search_text",
            field=models.TextField(default="", editable=False),
        ),
        migrations.AddField(
            model_name="span",
            name="n_words",
            field=models.PositiveIntegerField(default=0, editable=False),
        ),
        migrations.RunPython(
            _run({"sqlite": SQLITE_DROP, "postgresql": POSTGRES_DROP}),
            _run({"sqlite": SQLITE_TEXT, "postgresql": POSTGRES_TEXT}),
        ),
        migrations.RunPython(fill_words, migrations.RunPython.noop),
        migrations.RunPython(
            _run({"sqlite": SQLITE_WORDS, "postgresql": POSTGRES_WORDS}),
            _run({"sqlite": SQLITE_DROP, "postgresql": POSTGRES_DROP}),
        ),
    ]
