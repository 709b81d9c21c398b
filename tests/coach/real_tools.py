"""The real tools each export is written for, driven from the tests.

- Argdown: the `argdown` command line (`@argdown/cli`, pinned in the repository's
  package.json and installed by `npm ci`). Node starts slowly, so `argdown_json`
  reads many documents in one run. Without Node the Argdown tests skip, saying so;
  under CI (`CI` set) they fail instead, so CI always runs them.
- AIF: `arguebuf`, the Python library for argument graphs (requirements.txt).
- Markdown: markdown-it-py in its CommonMark mode.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import pytest

__all__ = ["ArgdownRun", "argdown_cli", "argdown_json", "markdown_blocks"]

ROOT = Path(__file__).resolve().parents[2]
ARGDOWN = ROOT / "node_modules" / ".bin" / "argdown"


def argdown_cli() -> Path:
    """The installed `argdown` command; installs it (`npm ci`) if Node is here but it is not."""
    if ARGDOWN.exists():
        return ARGDOWN
    if shutil.which("node") is None or shutil.which("npm") is None:
        reason = "Node.js and npm are not installed: the Argdown exports are not read by Argdown"
        if os.environ.get("CI"):
            pytest.fail(reason + " (CI must run these tests)")
        pytest.skip(reason)
    subprocess.run(
        ["npm", "ci", "--no-audit", "--no-fund"], cwd=ROOT, check=True, capture_output=True
    )
    return ARGDOWN


class ArgdownRun:
    """What `argdown json` made of each document: its JSON, or None and the messages."""

    def __init__(self, results: list[dict[str, Any] | None], output: str) -> None:
        self.results = results
        self.output = output


def argdown_json(documents: list[str]) -> ArgdownRun:
    """Run `argdown json` once over every document; one result per document, in order.

    Argdown refuses to write the JSON of a document with a syntax error (it says so
    on its output), so a missing file is a document that did not parse.
    """
    cli = argdown_cli()
    with tempfile.TemporaryDirectory() as folder:
        source, target = Path(folder, "in"), Path(folder, "out")
        source.mkdir()
        for number, document in enumerate(documents):
            Path(source, f"d{number}.argdown").write_text(document, encoding="utf-8")
        run = subprocess.run(
            [str(cli), "json", str(source / "*.argdown"), str(target)],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        results = []
        for number in range(len(documents)):
            path = Path(target, f"d{number}.json")
            results.append(json.loads(path.read_text(encoding="utf-8")) if path.exists() else None)
    return ArgdownRun(results, run.stdout + run.stderr)


def markdown_blocks(text: str) -> list[tuple[str, str]]:
    """The document as CommonMark reads it: (block, text) pairs in order.

    A block is "h1", "h2" or "p"; its text is what its inline text nodes say,
    a hard line break read as "\\n". Any other block (list, quote, code, HTML,
    rule) or inline node (link, image, emphasis, code, HTML, soft break) is
    returned as ("!" + its type, its source) so a test shows what went wrong.
    """
    from markdown_it import MarkdownIt

    blocks: list[tuple[str, str]] = []
    kind = None
    for token in MarkdownIt("commonmark").parse(text):
        if token.type in ("heading_open", "paragraph_open"):
            kind = token.tag if token.type == "heading_open" else "p"
        elif token.type in ("heading_close", "paragraph_close"):
            kind = None
        elif token.type == "inline" and kind is not None:
            pieces = []
            for child in token.children or []:
                if child.type in ("text", "text_special"):
                    pieces.append(child.content)
                elif child.type == "hardbreak":
                    pieces.append("\n")
                else:
                    blocks.append(("!" + child.type, child.content or child.markup))
            blocks.append((kind, "".join(pieces)))
        else:
            blocks.append(("!" + token.type, token.content))
    return blocks
