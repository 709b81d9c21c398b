"""CSV files whose cells a spreadsheet will not run: one writer for every CSV the product writes.

Pure (the standard library only). Instructors open the exports in Excel,
LibreOffice or Google Sheets, and the cells hold what students and models
wrote (titles, usernames, criterion names in the header). A cell a
spreadsheet reads as a formula (``=HYPERLINK(...)``, ``+1``, ``-2+3``,
``@SUM(...)``) can run or leak when opened: OWASP's "CSV injection".

Spreadsheets skip what comes before the ``=``: spaces, a newline, a
non-breaking or zero-width space, a byte-order mark. So a text cell is
neutralised (a ``'`` put in front, which spreadsheets show as text) when its
first *visible* character is ``=``, ``+``, ``-`` or ``@`` (or a full-width or
small form of one), or when a tab or carriage return comes before it. Every
row goes through it, the header included. Numbers are left alone: ``-3`` as
an int is a number, not a formula.
"""

from __future__ import annotations

import csv
import unicodedata
from collections.abc import Iterable
from typing import Any, Protocol

__all__ = ["SafeWriter", "needs_neutralising", "safe_cell", "safe_writer"]

_FORMULA_START = frozenset("=+-@")
_CONTROL_START = frozenset("\t\r")
# Invisible or blank: control and format characters (zero-width spaces and
# joiners, BOM, bidi marks, soft hyphen), every kind of space and line break,
# combining marks with nothing to sit on.
_INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Zs", "Zl", "Zp", "Mn", "Me"})
# Letters and symbols that print as blank (Hangul fillers, the blank Braille cell).
_BLANK_CHARACTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def _invisible(ch: str) -> bool:
    return (
        ch.isspace() or unicodedata.category(ch) in _INVISIBLE_CATEGORIES or ch in _BLANK_CHARACTERS
    )


def needs_neutralising(text: str) -> bool:
    """True when a spreadsheet could read `text` as a formula."""
    for ch in text:
        if ch in _CONTROL_START:
            return True
        if _invisible(ch):
            continue
        # NFKC folds the full-width "＝" and the small "﹣" into "=" and "-".
        return unicodedata.normalize("NFKC", ch)[:1] in _FORMULA_START
    return False


def safe_cell(value: Any) -> Any:
    """`value`, with a ``'`` in front if it is text a spreadsheet would take for a formula."""
    if isinstance(value, str) and needs_neutralising(value):
        return "'" + value
    return value


class _File(Protocol):
    def write(self, text: str, /) -> Any: ...


class SafeWriter:
    """`csv.writer` whose every cell, header included, goes through `safe_cell`."""

    def __init__(self, out: _File) -> None:
        self._writer = csv.writer(out)

    def writerow(self, row: Iterable[Any]) -> None:
        self._writer.writerow([safe_cell(value) for value in row])

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        for row in rows:
            self.writerow(row)


def safe_writer(out: _File) -> SafeWriter:
    """The one way the product writes CSV (exports, grades, the grid)."""
    return SafeWriter(out)
