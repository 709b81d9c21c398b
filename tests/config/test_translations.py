"""The Spanish catalogue: every message translated, none fuzzy, placeholders kept, compiled.

The equivalent of `msgfmt --statistics` and `msgfmt --check`, without gettext
installed: CI does not run msgfmt, so the compiled .mo is committed next to the
.po, and these tests catch a string added without a Spanish translation (after
`makemessages -l es`), a fuzzy guess left in, a translation that drops or
misspells a placeholder, and a .po edited without recompiling.
"""

from __future__ import annotations

import gettext
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

LOCALE = Path(settings.BASE_DIR) / "locale" / "es" / "LC_MESSAGES"
# %(name)s / %(n)d / %% in Python-format strings, {name} in str.format ones.
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%%|\{\w*\}")


@dataclass
class Entry:
    sources: list[str] = field(default_factory=list)
    flags: set[str] = field(default_factory=set)
    msgctxt: str | None = None
    msgid: str = ""
    msgid_plural: str | None = None
    msgstr: list[str] = field(default_factory=list)

    @property
    def where(self) -> str:
        return f"{self.msgid!r} ({', '.join(self.sources[:2])})"


def _unquote(line: str) -> str:
    body = line[line.index('"') + 1 : line.rindex('"')]
    return re.sub(r'\\(["\\nt])', lambda m: {"n": "\n", "t": "\t"}.get(m[1], m[1]), body)


def po_entries(path: Path) -> list[Entry]:
    """Every live (not obsolete) entry but the header; enough of the PO format for this."""
    entries: list[Entry] = []
    current: Entry | None = None
    key: str | None = None
    for line in path.read_text(encoding="utf-8").splitlines() + [""]:
        if not line.strip() or line.startswith("#~"):
            if current is not None and current.msgid:
                entries.append(current)
            current, key = None, None
            continue
        current = current or Entry()
        if line.startswith("#:"):
            current.sources += line[2:].split()
        elif line.startswith("#,"):
            current.flags |= {flag.strip() for flag in line[2:].split(",")}
        elif line.startswith("#"):
            continue
        elif line.startswith('"'):
            if key == "msgstr":
                current.msgstr[-1] += _unquote(line)
            elif key is not None:
                setattr(current, key, (getattr(current, key) or "") + _unquote(line))
        else:
            key = line.split(" ", 1)[0]
            if key.startswith("msgstr"):
                current.msgstr.append(_unquote(line))
                key = "msgstr"
            else:
                setattr(current, key, _unquote(line))
    return entries


ENTRIES = po_entries(LOCALE / "django.po")


def test_it_reads_the_whole_catalogue() -> None:
    # A parser that silently skipped entries would make every test below pass.
    assert len(ENTRIES) > 400
    assert any(entry.msgctxt for entry in ENTRIES)
    assert any(entry.msgid_plural for entry in ENTRIES)


def test_it_translates_every_message() -> None:
    untranslated = [e.where for e in ENTRIES if not all(e.msgstr)]
    assert untranslated == []


def test_it_leaves_no_fuzzy_guess() -> None:
    assert [e.where for e in ENTRIES if "fuzzy" in e.flags] == []


def test_it_keeps_every_placeholder_of_the_english() -> None:
    broken = []
    for entry in ENTRIES:
        singular = sorted(PLACEHOLDER.findall(entry.msgid))
        plural = sorted(PLACEHOLDER.findall(entry.msgid_plural or ""))
        for index, text in enumerate(entry.msgstr):
            found = sorted(PLACEHOLDER.findall(text))
            if not entry.msgid_plural:
                ok = found == singular
            elif index == 0:
                # "One position ..." may leave the count out, as the English does.
                ok = set(found) <= set(singular) | set(plural)
            else:
                ok = found == plural
            if text and not ok:
                broken.append((entry.msgid, text))
    assert broken == []


def test_it_ships_a_compiled_catalogue_that_matches_the_po() -> None:
    with open(LOCALE / "django.mo", "rb") as handle:
        catalogue = gettext.GNUTranslations(handle)
    stale = []
    for entry in ENTRIES:
        if entry.msgid_plural:
            # es has three forms: 1 is the first; 2 (as most numbers) the third.
            forms = (entry.msgid, entry.msgid_plural)
            got = [
                catalogue.npgettext(entry.msgctxt, *forms, n)
                if entry.msgctxt is not None
                else catalogue.ngettext(*forms, n)
                for n in (1, 2)
            ]
            expected = [entry.msgstr[0], entry.msgstr[2]]
        elif entry.msgctxt is not None:
            got, expected = catalogue.pgettext(entry.msgctxt, entry.msgid), entry.msgstr[0]
        else:
            got, expected = catalogue.gettext(entry.msgid), entry.msgstr[0]
        if got != expected:
            stale.append(entry.where)
    assert stale == []
    assert catalogue.gettext("Your draft") == "Tu borrador"


@pytest.mark.skipif(
    shutil.which("xgettext") is None or shutil.which("msgmerge") is None,
    reason="needs gettext's xgettext and msgmerge (Debian package gettext; .ci/run installs it)",
)
def test_it_holds_every_string_the_sources_mark(tmp_path: Path, settings, monkeypatch) -> None:
    """makemessages finds nothing the committed catalogue lacks.

    The tests above only read the .po; a string marked in the code after the
    last `makemessages -l es` is not in it, and the page shows it in English.
    makemessages writes into the locale directory nearest the sources, so it
    runs in a scratch tree that links every source directory but `locale/`.
    """
    base = Path(settings.BASE_DIR)
    for item in base.iterdir():
        # node_modules holds the export tests' command-line tools, not our sources.
        if item.name not in {"locale", "node_modules"} and not item.name.startswith("."):
            (tmp_path / item.name).symlink_to(item)
    scratch = tmp_path / "locale" / "es" / "LC_MESSAGES"
    scratch.mkdir(parents=True)
    shutil.copy(LOCALE / "django.po", scratch / "django.po")
    settings.LOCALE_PATHS = [tmp_path / "locale"]
    monkeypatch.chdir(tmp_path)

    call_command("makemessages", locale=["es"], symlinks=True, verbosity=0)

    committed = {(entry.msgctxt, entry.msgid) for entry in ENTRIES}
    fresh = {(entry.msgctxt, entry.msgid) for entry in po_entries(scratch / "django.po")}
    assert len(fresh) > 400
    assert sorted(fresh - committed, key=str) == []


# xgettext (run by makemessages) finds a marked string only by the function's own name
# or "_": a string marked through another alias is never extracted, and the page shows
# it in English although the catalogue once had it (it became obsolete and was dropped).
ALIASED = re.compile(r"\b(?:n|p|np)?gettext(?:_lazy|_noop)?\s+as\s+(?!_\b)\w+")


def test_it_marks_strings_only_by_names_makemessages_reads() -> None:
    base = Path(settings.BASE_DIR)
    packages = [p for p in base.iterdir() if (p / "__init__.py").is_file() and p.name != "tests"]
    found = [
        str(path.relative_to(base))
        for package in packages
        for path in package.rglob("*.py")
        if ALIASED.search(path.read_text())
    ]
    assert found == []
    assert ALIASED.search("from django.utils.translation import gettext_noop as _noop")
    assert not ALIASED.search("from django.utils.translation import gettext_lazy as _")
