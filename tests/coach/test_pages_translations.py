"""The Spanish catalogue: complete for the coach's pages, and compiled.

CI does not run msgfmt, so the compiled .mo is committed next to the .po;
these tests catch a .po edited without recompiling, and a coach page string
added without a Spanish translation (after `makemessages -l es`).
"""

import gettext
import re
from pathlib import Path

from django.conf import settings

LOCALE = Path(settings.BASE_DIR) / "locale" / "es" / "LC_MESSAGES"
# Strings from these sources are shown on the coach's pages.
COACH_PAGE_SOURCES = re.compile(
    r"^(templates/coach/|templates/registration/|templates/base\.html|coach/views\.py|coach/forms\.py)"
)


def _unquote(line: str) -> str:
    body = line[line.index('"') + 1 : line.rindex('"')]
    return body.replace('\\"', '"').replace("\\n", "\n").replace("\\\\", "\\")


def po_entries(path: Path) -> list[dict]:
    """(sources, flags, msgid, msgstr) of each singular entry; enough of the format for this."""
    entries, current, key = [], None, None
    for line in path.read_text(encoding="utf-8").splitlines() + [""]:
        if not line.strip():
            if current and "msgid" in current:
                entries.append(current)
            current, key = None, None
            continue
        current = current or {"sources": [], "flags": ""}
        if line.startswith("#:"):
            current["sources"] += line[2:].split()
        elif line.startswith("#,"):
            current["flags"] += line[2:]
        elif line.startswith(("msgid ", "msgstr ")):
            key = line.split(" ", 1)[0]
            current[key] = _unquote(line)
        elif line.startswith(("msgid_plural", "msgstr[")):
            key = None
            current["plural"] = True
        elif line.startswith('"') and key:
            current[key] += _unquote(line)
    return [entry for entry in entries if not entry.get("plural")]


def test_it_translates_every_string_of_the_coach_pages() -> None:
    missing = [
        entry["msgid"]
        for entry in po_entries(LOCALE / "django.po")
        if entry["msgid"]
        and any(COACH_PAGE_SOURCES.match(source) for source in entry["sources"])
        and (not entry["msgstr"] or "fuzzy" in entry["flags"])
    ]
    assert missing == []


def test_it_ships_a_compiled_catalogue_that_matches_the_po() -> None:
    with open(LOCALE / "django.mo", "rb") as handle:
        catalogue = gettext.GNUTranslations(handle)
    stale = [
        entry["msgid"]
        for entry in po_entries(LOCALE / "django.po")
        if entry["msgid"]
        and entry["msgstr"]
        and "fuzzy" not in entry["flags"]
        and catalogue.gettext(entry["msgid"]) != entry["msgstr"]
    ]
    assert stale == []
    assert catalogue.gettext("Your draft") == "Tu borrador"
