"""Finding interface English on a page served in Spanish.

A page's visible text is cut into text nodes (scripts and styles left out;
``title``, ``aria-label``, ``placeholder``, ``alt`` and button values kept,
since they are read aloud or shown). A node is *interface English* when it
is an English message of the catalogue whose Spanish differs, or when it holds
a word that English messages use and no Spanish translation does ("the",
"round", "budget"), once the node is stripped of what came from the database
(students' and models' words: content, not interface). Text inside an element
whose ``lang`` is not Spanish is content marked as such, and is skipped.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from html.parser import HTMLParser

__all__ = [
    "FORMAL_TERMS",
    "Catalogue",
    "Finding",
    "content_strings",
    "findings",
    "formal_findings",
    "text_nodes",
    "without_content",
]

_SKIPPED_TAGS = {"script", "style", "template", "noscript"}
_VOID_TAGS = {
    "area",
    "base",
    "br",
    "col",
    "embed",
    "hr",
    "img",
    "input",
    "link",
    "meta",
    "source",
    "track",
    "wbr",
}
_READ_ATTRIBUTES = ("title", "aria-label", "placeholder", "alt")
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)
_CODE = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+")
_URL = re.compile(r"https?://\S+")
_PLACEHOLDER = re.compile(r"%\([^)]*\)[sdifr]|%[sd]|\{\{[^}]*\}\}|\{[^}]*\}")

# Words shared by both languages or names, which no translation needs to change.
ALLOWED = {
    "argue",  # the product's name
    "toulmin",
    "dung",
    "aspic",
    "elo",
    "sanad",
    "muḥāsabah",
    "muhasabah",
    "iccma",
    "lti",
    "lms",
    "json",
    "csv",
    "svg",
    "html",
    "pdf",
    "api",
    "ai",
    "id",
    "ok",
    "url",
    "email",
    "claude",
    "anthropic",
    "bm",
    "sse",
    "moodle",
    "canvas",
    "markdown",
    "md",
    "txt",
    "usd",
    "django",
    "english",  # the language's own name, in the language switch and the language choice
}


@dataclass(frozen=True)
class Finding:
    url: str
    text: str
    words: tuple[str, ...]


class _Text(HTMLParser):
    """Text nodes outside scripts, styles and elements marked as another language.

    Each node says whether a student has to ask for it: text inside a closed
    ``<details>`` (not its summary) or in an attribute (a tooltip) is behind a
    disclosure; that is where formal terms belong.
    """

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.nodes: list[tuple[str, bool]] = []  # (text, behind a disclosure)
        self._stack: list[tuple[str, bool, bool, bool]] = []  # tag, skipped, foreign, disclosed

    def _state(self) -> tuple[bool, bool, bool]:
        return self._stack[-1][1:] if self._stack else (False, False, False)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        skipped, foreign, disclosed = self._state()
        skipped = skipped or tag in _SKIPPED_TAGS
        lang = (values.get("lang") or "").lower()
        foreign = (not lang.startswith("es")) if lang and tag != "html" else foreign
        if tag in ("details", "svg") or (tag == "title" and self._stack):
            # A closed disclosure; a picture, whose formal labels (IN, OUT) sit beside a
            # table of the same nodes in words; an SVG's <title>, a tooltip.
            disclosed = True
        elif tag == "summary":
            disclosed = False
        if not (skipped or foreign):
            for name in _READ_ATTRIBUTES:
                if values.get(name):
                    self.nodes.append((values[name] or "", True))
            if tag == "input" and (values.get("type") or "") in ("submit", "button"):
                self.nodes.append((values.get("value") or "", False))
        if tag not in _VOID_TAGS:
            self._stack.append((tag, skipped, foreign, disclosed))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in _VOID_TAGS and self._stack:
            self._stack.pop()

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self._stack) - 1, -1, -1):
            if self._stack[i][0] == tag:
                del self._stack[i:]
                return

    def handle_data(self, data: str) -> None:
        skipped, foreign, disclosed = self._state()
        if not (skipped or foreign):
            self.nodes.append((data, disclosed))


def _squash(text: str) -> str:
    return " ".join(text.split())


def text_nodes(html: str) -> list[tuple[str, bool]]:
    """(text, behind a disclosure) for each visible or read-aloud text of the page."""
    parser = _Text()
    parser.feed(html)
    parser.close()
    return [
        (text, disclosed) for text, disclosed in ((_squash(n), d) for n, d in parser.nodes) if text
    ]


def _words(text: str) -> set[str]:
    return {word.lower() for word in _WORD.findall(_PLACEHOLDER.sub(" ", text))}


class Catalogue:
    """The active Spanish catalogue: English messages, and the words of each language."""

    def __init__(self, messages: dict) -> None:
        self.english_messages: set[str] = set()
        english_words: set[str] = set()
        spanish_words: set[str] = set()
        for key, translated in messages.items():
            msgid = key[0] if isinstance(key, tuple) else key
            msgid = msgid.split("\x04", 1)[-1]
            if not msgid or not translated:
                continue
            english_words |= _words(msgid)
            spanish_words |= _words(translated)
            if _squash(translated) != _squash(msgid) and not _PLACEHOLDER.search(msgid):
                self.english_messages.add(_squash(msgid))
        self.english_only = {
            word for word in english_words - spanish_words - ALLOWED if len(word) > 1
        }

    def english_words(self, text: str) -> tuple[str, ...]:
        return tuple(sorted(_words(text) & self.english_only))


def content_strings(values: Iterable[object]) -> list[str]:
    """Every text of the database rows (JSON walked), longest first, to strip from nodes."""
    seen: set[str] = set()

    def walk(value: object) -> Iterator[str]:
        if isinstance(value, str):
            if value.startswith(("{", "[")):
                try:
                    yield from walk(json.loads(value))
                    return
                except ValueError:
                    pass
            yield value
        elif isinstance(value, dict):
            for item in value.values():
                yield from walk(item)
        elif isinstance(value, list | tuple):
            for item in value:
                yield from walk(item)

    for value in values:
        for text in walk(value):
            text = _squash(text)
            if len(text) > 1:
                seen.add(text)
    return sorted(seen, key=len, reverse=True)


def _cut_whole(text: str, piece: str) -> str:
    """``text`` without each occurrence of ``piece`` that does not begin or end inside a word."""
    out, start = [], 0
    while (found := text.find(piece, start)) >= 0:
        end = found + len(piece)
        inside = (found > 0 and text[found - 1].isalnum() and piece[0].isalnum()) or (
            end < len(text) and text[end].isalnum() and piece[-1].isalnum()
        )
        out.append(text[start:found] if not inside else text[start:end])
        if not inside:
            out.append(" ")
        start = end
    out.append(text[start:])
    return "".join(out)


def _without_stored(piece: str, content: list[str]) -> str:
    """One segment of a node without the stored text it shows, whole, cut short or cut up."""
    piece = piece.strip(" :;,.·([])—-#0123456789")
    if len(piece) > 3 and any(piece in text for text in content):
        return ""  # a piece of a stored text, cut by a link or a highlight
    # A stored text cut short at its end (a label, an excerpt, "…" or not).
    stem = piece.removesuffix("…").rstrip()
    for start in range(len(stem) - 3):
        if (start == 0 or not stem[start - 1].isalnum()) and any(
            text.startswith(stem[start:]) for text in content
        ):
            return stem[:start]
    return piece


def without_content(node: str, content: list[str]) -> str:
    """The node without the stored texts it shows (a title joins several with · or |)."""
    if node.startswith(("{", "[")):
        try:
            json.loads(node)
            return ""  # a stored record shown as JSON, for staff
        except ValueError:
            pass
    kept = []
    for segment in re.split(r" [·|›—] ", _URL.sub(" ", node)):
        rest = _without_stored(segment, content)
        for text in content:
            if text in rest:
                rest = _cut_whole(rest, text)
        kept.append(_without_stored(_squash(rest), content) if rest != segment else rest)
    return " ".join(kept)


def findings(*, url: str, html: str, catalogue: Catalogue, content: list[str]) -> list[Finding]:
    found = []
    stored = set(content)
    for node, disclosed in text_nodes(html):
        if disclosed and _CODE.fullmatch(node):
            continue  # a rule's code, shown as the formal term behind a disclosure
        if node in catalogue.english_messages and node not in stored:
            found.append(Finding(url, node, tuple(sorted(_words(node)))))
            continue
        if not catalogue.english_words(node):
            continue
        if words := catalogue.english_words(without_content(node, content)):
            found.append(Finding(url, node, words))
    return found


# Formal terms a student meets only behind a disclosure (a <details>, a tooltip).
FORMAL_TERMS = re.compile(
    r"\b(?:IN|OUT|UNDEC)\b|\b[A-Z]+(?:_[A-Z]+)+\b|grounded extension|extensión fundamentada"
    r"|extensi(?:ón|ones) preferidas?"
    r"|credulous|crédul|sceptical|skeptical|escéptic|preferred extension|Sanad Breaker"
    r"|\bS\d+\.\d+ → SRC-\d+"
)


def formal_findings(*, url: str, html: str) -> list[Finding]:
    """Formal terms shown to a student before any disclosure."""
    return [
        Finding(url, node, tuple(FORMAL_TERMS.findall(node)))
        for node, disclosed in text_nodes(html)
        if not disclosed and FORMAL_TERMS.search(node)
    ]
