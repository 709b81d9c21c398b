"""Turn an uploaded file into text, or say plainly why not.

``.txt`` and ``.md`` are read as UTF-8 (a BOM allowed); anything that does
not decode, or holds NUL or other control bytes, is binary and refused.
``.pdf`` goes through pypdf (a well-kept pure-Python PDF library) in a
process of its own (casefiles/pdf_worker.py) with a CPU budget, a memory
ceiling and a clock, at most ``PDF_READERS`` at once: a hostile PDF of a few
kilobytes (a page tree of a trillion pages, a deflate bomb, a stream of
millions of tokens) costs that process its limits, never the site. An
encrypted or unreadable PDF, one with no pages or more than
``MAX_PDF_PAGES``, one that hits a limit, or one whose pages carry no text
layer (a scan) is refused with a sentence saying what to do instead. At most
``MAX_SOURCE_CHARS`` characters are kept.
"""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

from django.utils.translation import gettext as _

__all__ = [
    "MAX_PDF_PAGES",
    "PDF_CPU_SECONDS",
    "PDF_MEMORY_MB",
    "PDF_TIMEOUT_SECONDS",
    "MAX_SOURCE_CHARS",
    "ExtractionRefused",
    "Extracted",
    "extract_text",
]

logger = logging.getLogger(__name__)

MAX_PDF_PAGES = 300
MAX_SOURCE_CHARS = 1_000_000
# One PDF's reading: CPU seconds, address space and wall-clock seconds of its process.
# A 300-page text PDF takes well under a second; a page of pathological content would
# take minutes. Per web process: at most PDF_READERS at once, the rest wait PDF_QUEUE_SECONDS.
PDF_CPU_SECONDS = 8
PDF_MEMORY_MB = 512
PDF_TIMEOUT_SECONDS = 15
PDF_READERS = 2
PDF_QUEUE_SECONDS = 10
_READERS = threading.BoundedSemaphore(PDF_READERS)
_WORKER = Path(__file__).with_name("pdf_worker.py")
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


def _refusal(code: str) -> ExtractionRefused:
    if code == "encrypted":
        return ExtractionRefused(
            _("This PDF is password-protected. Upload an unprotected copy or paste the text.")
        )
    if code == "no_pages":
        return ExtractionRefused(_("This PDF has no pages."))
    if code == "too_many_pages":
        return ExtractionRefused(
            _(
                "This PDF has more than %(n)s pages. Upload the chapters you need as separate "
                "files, or paste the text."
            )
            % {"n": MAX_PDF_PAGES}
        )
    if code == "too_long":
        return _too_long()
    if code == "busy":
        return ExtractionRefused(
            _("Several PDFs are being read right now. Try again in a minute, or paste the text.")
        )
    return ExtractionRefused(
        _("This PDF could not be read. Upload another copy, or paste the text.")
    )


def _too_long() -> ExtractionRefused:
    return ExtractionRefused(
        _("This file holds more than %(n)s characters. Split it into smaller sources.")
        % {"n": f"{MAX_SOURCE_CHARS:,}"}
    )


def _run_worker(data: bytes) -> dict:
    """The worker's answer, or a refusal code when it was stopped, crashed or said nothing."""
    command = [
        sys.executable,
        "-I",
        str(_WORKER),
        str(PDF_CPU_SECONDS),
        str(PDF_MEMORY_MB),
        str(MAX_PDF_PAGES),
        str(MAX_SOURCE_CHARS),
    ]
    try:
        done = subprocess.run(
            command,
            input=data,
            capture_output=True,
            timeout=PDF_TIMEOUT_SECONDS,
            env={"LC_ALL": "C.UTF-8"},
            check=False,
        )
    except subprocess.TimeoutExpired:  # run() has killed it
        logger.info("PDF reader stopped after %s s", PDF_TIMEOUT_SECONDS)
        return {"refused": "unreadable"}
    except OSError:
        logger.warning("PDF reader could not start", exc_info=True)
        return {"refused": "unreadable"}
    try:
        answer = json.loads(done.stdout)
    except ValueError:
        # Killed by a limit (SIGXCPU, SIGKILL) or out of memory before it could answer.
        logger.info("PDF reader ended with %s and no answer", done.returncode)
        return {"refused": "unreadable"}
    return answer if isinstance(answer, dict) else {"refused": "unreadable"}


def _pdf_text(data: bytes) -> str:
    # At most PDF_READERS PDFs are read at once in this process; a further upload
    # waits a little, then is asked to come back rather than queue without end.
    if not _READERS.acquire(timeout=PDF_QUEUE_SECONDS):
        raise _refusal("busy")
    try:
        answer = _run_worker(data)
    finally:
        _READERS.release()
    text = answer.get("text")
    if not isinstance(text, str):
        raise _refusal(str(answer.get("refused", "")))
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
        raise _too_long()
    return Extracted(kind=kind, text=text)
