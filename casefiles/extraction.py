"""Turn an uploaded file into text, or say plainly why not.

``.txt`` and ``.md`` are read as UTF-8 (a BOM allowed); anything that does
not decode, or holds NUL or other control bytes, is binary and refused.
``.pdf`` goes through pypdf (a well-kept pure-Python PDF library): an
encrypted or unreadable PDF, one with no pages, or one whose pages carry no
text layer (a scan) is refused with a sentence saying what to do instead.
At most ``MAX_PDF_PAGES`` pages and ``MAX_SOURCE_CHARS`` characters are read.
"""

from __future__ import annotations

import io
import logging
from dataclasses import dataclass

from django.utils.translation import gettext as _

__all__ = [
    "MAX_PDF_PAGES",
    "MAX_SOURCE_CHARS",
    "ExtractionRefused",
    "Extracted",
    "extract_text",
]

logger = logging.getLogger(__name__)

MAX_PDF_PAGES = 300
MAX_SOURCE_CHARS = 1_000_000
_CONTROL = {chr(c) for c in range(32)} - {"\n", "\r", "\t", "\f"}


class ExtractionRefused(ValueError):
    """The file cannot become a source; ``message`` is a plain sentence for the user."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True, slots=True)
class Extracted:
    kind: str
    text: str


def _kind(filename: str) -> str | None:
    name = (filename or "").lower()
    for suffix, kind in ((".txt", "txt"), (".md", "md"), (".markdown", "md"), (".pdf", "pdf")):
        if name.endswith(suffix):
            return kind
    return None


def _plain_text(data: bytes) -> str:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ExtractionRefused(
            _("This file is not plain UTF-8 text. Save it as UTF-8 text or paste its words.")
        ) from None
    if any(ch in _CONTROL for ch in text[:100_000]):
        raise ExtractionRefused(
            _("This file looks binary, not text. Upload a .txt, .md or .pdf, or paste the text.")
        )
    return text


def _pdf_text(data: bytes) -> str:
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    try:
        reader = PdfReader(io.BytesIO(data), strict=False)
        if reader.is_encrypted:
            raise ExtractionRefused(
                _("This PDF is password-protected. Upload an unprotected copy or paste the text.")
            )
        pages = reader.pages
        if len(pages) == 0:
            raise ExtractionRefused(_("This PDF has no pages."))
        parts: list[str] = []
        total = 0
        for page in list(pages)[:MAX_PDF_PAGES]:
            part = page.extract_text() or ""
            parts.append(part)
            total += len(part)
            if total > MAX_SOURCE_CHARS:
                break
    except ExtractionRefused:
        raise
    except (PdfReadError, ValueError, KeyError, TypeError, AttributeError, IndexError, OSError):
        logger.info("unreadable PDF", exc_info=True)
        raise ExtractionRefused(
            _("This PDF could not be read. Upload another copy, or paste the text.")
        ) from None
    except RecursionError:
        raise ExtractionRefused(
            _("This PDF could not be read. Upload another copy, or paste the text.")
        ) from None
    text = "\n\n".join(part.strip() for part in parts if part.strip())
    if not text.strip():
        raise ExtractionRefused(
            _(
                "This PDF has no text layer (it is probably a scan). Paste the text, or upload "
                "a version with selectable text."
            )
        )
    return text


def extract_text(*, filename: str, data: bytes) -> Extracted:
    """The file's text and kind, or ExtractionRefused with the reason."""
    kind = _kind(filename)
    if kind is None:
        raise ExtractionRefused(_("Only .txt, .md and .pdf files can be added."))
    text = _pdf_text(data) if kind == "pdf" else _plain_text(data)
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "")
    if not text.strip():
        raise ExtractionRefused(_("This file is empty."))
    if len(text) > MAX_SOURCE_CHARS:
        raise ExtractionRefused(
            _("This file holds more than %(n)s characters. Split it into smaller sources.")
            % {"n": f"{MAX_SOURCE_CHARS:,}"}
        )
    return Extracted(kind=kind, text=text)
