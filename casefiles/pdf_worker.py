"""Read a PDF's text in a process of its own, under hard limits: run as a script, not imported.

casefiles/extraction.py starts ``python -I pdf_worker.py CPU_SECONDS MEMORY_MB MAX_PAGES
MAX_CHARS``, writes the PDF's bytes to its stdin and reads one JSON object from its
stdout: ``{"text": ...}`` or ``{"refused": CODE}``. A PDF is a program for a
renderer: a few kilobytes can ask for a page tree of a trillion pages, a gigabyte of
inflated stream or minutes of parsing. Here the kernel bounds what it may take
(RLIMIT_CPU, RLIMIT_AS), the process runs at the lowest priority so the site's own
requests come first, and pypdf's own limits are set tighter than its defaults. Whatever
goes wrong ends this process, never the site's; the parent also stops it by the clock.

Only the standard library and pypdf are imported (``-I``: no project code, no
environment), and nothing is written but the answer.
"""

from __future__ import annotations

import json
import os
import resource
import sys

# pypdf's limits, tighter than its defaults (75 MB streams, 100,000 page-tree entries):
# the site keeps at most 1,000,000 characters of a source, from at most a few hundred pages.
PYPDF_LIMITS = {
    "maximum_declared_stream_length": 20_000_000,
    "zlib_maximum_output_length": 20_000_000,
    "lzw_maximum_output_length": 20_000_000,
    "run_length_maximum_output_length": 20_000_000,
    "brotli_maximum_output_length": 20_000_000,
    "array_based_stream_maximum_output_length": 20_000_000,
    "stream_decoding_work_maximum_length": 60_000_000,
    "stream_parsing_work_maximum_count": 1_000_000,
    "page_tree_maximum_entries": 5_000,
    "page_tree_maximum_depth": 32,
    "xform_maximum_invocations_per_extraction": 200,
}


def _limit(cpu_seconds: int, memory_mb: int) -> None:
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 1))
    memory = memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))  # it writes no file
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    os.nice(19)


def _declared_pages(reader) -> int | None:
    """The page count the document's root says it has (cheap; a hostile file may lie)."""
    try:
        count = reader.trailer["/Root"]["/Pages"].get("/Count")
        return int(count) if count is not None else None
    except Exception:
        return None


def read(data: bytes, *, max_pages: int, max_chars: int) -> dict:
    import io

    from pypdf import PdfReader, apply_configuration

    with apply_configuration(**PYPDF_LIMITS):
        reader = PdfReader(io.BytesIO(data), strict=False)
        if reader.is_encrypted:
            return {"refused": "encrypted"}
        declared = _declared_pages(reader)
        if declared is not None and declared > max_pages:
            return {"refused": "too_many_pages"}  # before the tree is walked at all
        # A root that lies about its count: walking the tree is bounded by
        # page_tree_maximum_entries above, and pages are then read one at a time.
        pages = reader.pages
        count = len(pages)
        if count == 0:
            return {"refused": "no_pages"}
        if count > max_pages:
            return {"refused": "too_many_pages"}
        parts: list[str] = []
        total = 0
        for index in range(count):
            part = (pages[index].extract_text() or "").strip()
            if part:
                parts.append(part)
                total += len(part)
            if total > max_chars:
                return {"refused": "too_long"}
        return {"text": "\n\n".join(parts)}


def main(argv: list[str]) -> int:
    cpu_seconds, memory_mb, max_pages, max_chars = (int(value) for value in argv[1:5])
    _limit(cpu_seconds, memory_mb)
    data = sys.stdin.buffer.read()
    try:
        answer = read(data, max_pages=max_pages, max_chars=max_chars)
    except MemoryError:
        answer = {"refused": "too_big"}
    except RecursionError:
        answer = {"refused": "unreadable"}
    except Exception:  # any error of the library on a hostile file: one plain refusal
        answer = {"refused": "unreadable"}
    sys.stdout.write(json.dumps(answer))
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
