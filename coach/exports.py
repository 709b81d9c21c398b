"""A finished (or unfinished) Toulmin argument in four files a student can take away.

Pure: no Django, no I/O. The page (coach.toulmin_views) builds a
`ToulminExport` from the student's draft and serves these as downloads. How the
seven elements map to each format, and why, is docs/exports.md; each format is
escaped by its own grammar, and the tests read every export with the real tool
(tests/coach/test_exports_in_their_tools.py).

- JSON: `ToulminExport` itself, versioned (`format`, `version`), the shape to
  load back into a program (schemas/argue.toulmin.v1.schema.json).
- Markdown (CommonMark): a title and one "##" heading per step, in the
  argument's language. A student's text is text: what CommonMark would read
  as markup is backslash-escaped (nothing else, so it reads as prose), whitespace at a line's ends is a character
  reference, line breaks are hard breaks and blank lines separate paragraphs.
- Argdown (argdown.org): the argument as a premise-conclusion structure
  (grounds and warrant -> claim, the qualifier as the inference's data),
  each backing as support below the premise it backs, and the rebuttal as
  an undercut of the inference. The exact title is the heading; statement
  titles are the step labels; text is one line, escaped where Argdown's lexer
  would read markup.
- AIF (the JSON that AIFdb and OVA read): one I-node per written element but
  the qualifier; an RA-node from grounds and warrant to the claim that carries
  the qualifier as its `qualifier` (a qualifier is the force of that inference,
  not a premise); one RA-node from each backing to what it backs; the rebuttal
  reaches the main inference through a CA-node (an undercut).

`parse_markdown` and `parse_argdown` read back exactly what the exporters
write (the subset of each syntax used here), so a round trip can be checked.
"""

from __future__ import annotations

import json
import re
from typing import Literal

from pydantic import BaseModel, ConfigDict

from coach.steps import STEPS, label_for, step_for_field

__all__ = [
    "EXPORT_FORMATS",
    "ToulminExport",
    "escape_argdown",
    "escape_markdown",
    "escape_markdown_line",
    "export",
    "markdown_text",
    "parse_argdown",
    "parse_markdown",
    "to_aif",
    "to_argdown",
    "to_json",
    "to_markdown",
    "yaml_string",
]

FIELDS = tuple(step.field for step in STEPS)


class ToulminExport(BaseModel):
    """One argument: its title, language and the text of its seven elements."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    format: Literal["argue.toulmin"] = "argue.toulmin"
    version: Literal[1] = 1
    title: str
    language: Literal["en", "es"] = "en"
    complete: bool = False
    claim: str = ""
    grounds: str = ""
    warrant: str = ""
    grounds_backing: str = ""
    warrant_backing: str = ""
    qualifier: str = ""
    rebuttal: str = ""

    def text(self, field: str) -> str:
        return getattr(self, field)

    def label(self, field: str) -> str:
        return label_for(step_for_field(field), self.language)


def _fields_by_label(language: str) -> dict[str, str]:
    """Step label in `language` -> field: how a heading or statement title is read back."""
    return {label_for(step.id, language): step.field for step in STEPS}


def _one_line(text: str) -> str:
    return " ".join(text.split())


# --- JSON ---------------------------------------------------------------------


def to_json(argument: ToulminExport) -> str:
    return json.dumps(argument.model_dump(mode="json"), ensure_ascii=False, indent=2) + "\n"


# --- Markdown -----------------------------------------------------------------

# CommonMark lets a backslash escape every ASCII punctuation character, and an
# escaped character is always literal text. Only the characters that could start
# markup are escaped, so the file reads as prose ("9 a.m.", "8:30", "parents'"):
# anywhere in a line, the ones that open emphasis, code, links and images, and a
# backslash itself; "&" before what would be an entity, "<" before what would be
# HTML or an autolink; at a line's start, what would open a heading, a quote, a
# list item, a thematic break, a setext underline or a fence (CommonMark 0.31,
# sections 4 and 6).
_MD_ALWAYS = frozenset("\\`*_[]")
_MD_ENTITY = re.compile(r"&(?=#?\w+;)")
_MD_TAG = re.compile(r"<(?=[A-Za-z/!?])")
_MD_LINE_START = re.compile(r"[#>=~+-]|\d{1,9}(?=[.)](?:\s|$))")
# A line ending in CommonMark is \n, \r\n or \r (never \f or \u2028).
_MD_LINE_ENDING = re.compile(r"\r\n|\r|\n")
_MD_UNESCAPE = re.compile(r"""\\([!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~])|&#(\d+);""")


def _md_escape(body: str) -> str:
    """``body`` (no whitespace at its ends) with what CommonMark would read as markup
    backslash-escaped, and nothing else."""
    out = "".join("\\" + c if c in _MD_ALWAYS else c for c in body)
    out = _MD_TAG.sub(r"\\<", _MD_ENTITY.sub(r"\\&", out))
    if match := _MD_LINE_START.match(out):
        if match.group(0)[0].isdigit():  # "1. " or "1) " would start an ordered list
            end = match.end()
            out = out[:end] + "\\" + out[end:]
        else:
            out = "\\" + out
    return out


def _md_blank(line: str) -> bool:
    """CommonMark's blank line: nothing but spaces and tabs."""
    return not line.strip(" \t")


def _md_line(line: str) -> str:
    """One line of text as Markdown text: what would be markup escaped, and the
    whitespace at either end as character references (a paragraph strips it, and
    four leading spaces would start a code block)."""
    body = line.lstrip()
    lead = line[: len(line) - len(body)]
    body = body.rstrip()
    trail = line[len(lead) + len(body) :]
    escaped = _md_escape(body)
    return "".join(map(_md_reference, lead)) + escaped + "".join(map(_md_reference, trail))


def _md_reference(c: str) -> str:
    """`c` as a numeric character reference, unless CommonMark would read that one as
    U+FFFD (most control characters): those stay themselves."""
    code = ord(c)
    if code in (0x0B, 0x7F) or code < 0x09 or 0x0E <= code <= 0x1F or 0x80 <= code <= 0x9F:
        return c
    return f"&#{code};"


def _md_paragraphs(text: str) -> list[list[str]]:
    """The text's paragraphs (runs of non-blank lines) as lists of lines."""
    paragraphs: list[list[str]] = [[]]
    for line in _MD_LINE_ENDING.split(text):
        if _md_blank(line):
            if paragraphs[-1]:
                paragraphs.append([])
        else:
            paragraphs[-1].append(line)
    return [paragraph for paragraph in paragraphs if paragraph]


def markdown_text(text: str) -> str:
    """What a student's text becomes in Markdown (and, read back, what stays of it):
    its paragraphs, one blank line between them, its lines within a paragraph."""
    return "\n\n".join("\n".join(paragraph) for paragraph in _md_paragraphs(text))


def escape_markdown_line(text: str) -> str:
    """Text as one line of Markdown text: its line breaks become spaces."""
    return _md_line(_one_line(text))


def escape_markdown(text: str) -> str:
    """The text as Markdown paragraphs whose only markup is a hard line break
    (a backslash at the end of a line) between the student's lines."""
    return "\n\n".join(
        "\\\n".join(_md_line(line) for line in paragraph) for paragraph in _md_paragraphs(text)
    )


def to_markdown(argument: ToulminExport) -> str:
    parts = [f"# {_md_line(_one_line(argument.title))}", ""]
    for field in FIELDS:
        parts += [f"## {argument.label(field)}", ""]
        if markdown_text(argument.text(field)):
            parts += [escape_markdown(argument.text(field)), ""]
    return "\n".join(parts)


def _md_unescape(text: str) -> str:
    return _MD_UNESCAPE.sub(lambda m: m.group(1) or chr(int(m.group(2))), text)


def parse_markdown(text: str, *, language: str = "en") -> ToulminExport:
    """Read back `to_markdown`'s output (headings in `language`)."""
    by_label = _fields_by_label(language)
    title, field, values = "", None, {f: [] for f in FIELDS}
    for line in text.split("\n"):
        if line.startswith("# ") and not title:
            title = _md_unescape(line[2:])
        elif line.startswith("## "):
            field = by_label.get(line[3:].strip())
        elif field is not None:
            trailing = len(line) - len(line.rstrip("\\"))
            # An odd number of backslashes at the end: the last one is the hard break.
            values[field].append(_md_unescape(line[:-1] if trailing % 2 else line))
    texts = {f: "\n".join(lines).strip("\n") for f, lines in values.items()}
    return ToulminExport(title=title, language=language, **texts)


# --- Argdown ------------------------------------------------------------------

# Argdown's lexer (@argdown/core 1.7) cuts text wherever one of these could open a
# token in the middle of a line: \ (an escape), / (// and /* comments), < (<argument>,
# <!--), [ ([statement], [link](url)), @ (mentions), # (tags), * and _ (bold, italic),
# { (YAML data); a run of "=" (three open the front matter); and a "." or ":" that a
# second one follows with no space between (".name." and ":name:" are shortcodes for
# special characters, as in "example.com/a.png"). A backslash makes any character
# literal. Tokens that only open at a line's start (relations, "--", "(1)", lists,
# headings) cannot: a statement's text is one line after its "[Title]: ".
_ARGDOWN_SPECIAL = re.compile(r"[\\/<\[@#*_{]|={3,}|\.(?=\S+\.)|:(?=\S+:)")
_ARGDOWN_UNESCAPE = re.compile(r"\\(.)")


def escape_argdown(text: str) -> str:
    return _ARGDOWN_SPECIAL.sub(lambda m: "".join("\\" + c for c in m.group(0)), _one_line(text))


def yaml_string(text: str) -> str:
    """A YAML double-quoted scalar that Argdown's data token cannot cut short: braces
    and every character YAML does not print are written as escapes."""
    out = []
    for c in text:
        code = ord(c)
        if c in '"\\':
            out.append("\\" + c)
        elif (
            c in "{}"
            or not (
                0x20 <= code <= 0x7E
                or 0xA0 <= code <= 0xD7FF
                or 0xE000 <= code <= 0xFFFD
                or code >= 0x10000
            )
            or code == 0xFEFF
        ):
            out.append(f"\\x{code:02X}" if code <= 0xFF else f"\\u{code:04X}")
        else:
            out.append(c)
    return '"' + "".join(out) + '"'


def _statement(argument: ToulminExport, field: str) -> str:
    """`[Label]: text`, or the bare reference `[Label]` for an element not written yet."""
    text = argument.text(field)
    label = argument.label(field)
    return f"[{label}]: {escape_argdown(text)}" if text.strip() else f"[{label}]"


def _argument_name(title: str) -> str:
    """The title as an Argdown argument name, inside "<...>": angle brackets become
    parentheses, backslashes go, and it does not start with what would make "<" open a
    comment ("<!--") or a relation ("<+", "<-", "<_"). The exact title is the heading."""
    name = _one_line(title).translate(str.maketrans("<>", "()", "\\")).lstrip("!+-_ ")
    return " ".join(name.split()) or "Argument"


def to_argdown(argument: ToulminExport) -> str:
    name = _argument_name(argument.title)
    title = escape_argdown(argument.title) or "Argument"
    qualifier = _one_line(argument.qualifier)
    data = f" {{qualifier: {yaml_string(qualifier)}}}" if qualifier else ""
    lines = ["===", f"lang: {argument.language}", "===", "", f"# {title}", "", f"<{name}>", ""]
    for number, (field, backing) in enumerate(
        (("grounds", "grounds_backing"), ("warrant", "warrant_backing")), start=1
    ):
        lines.append(f"({number}) {_statement(argument, field)}")
        if argument.text(backing).strip():
            # A backing supports the premise it backs: a relation below that premise.
            lines.append(f"    <+ {_statement(argument, backing)}")
    lines += ["--", f"Toulmin{data}", "--", f"(3) {_statement(argument, 'claim')}", ""]
    if argument.rebuttal.strip():
        # The rebuttal undercuts the inference, not the claim: "<_".
        lines += [f"<{name}>", f"  <_ {_statement(argument, 'rebuttal')}", ""]
    return "\n".join(lines)


_FRONT_LANG = re.compile(r"^lang: (\w+)$", re.MULTILINE)
_HEADING = re.compile(r"^# (.*)$", re.MULTILINE)
_STATEMENT = re.compile(r"^\s*(?:\(\d+\)|<\+|<_)?\s*\[([^\]]+)\](?::\s?(.*))?$")
_QUALIFIER = re.compile(r'^Toulmin \{qualifier: (".*")\}$')
_YAML_ESCAPE = re.compile(r'\\(x[0-9A-F]{2}|u[0-9A-F]{4}|["\\])')


def _yaml_unquote(text: str) -> str:
    return _YAML_ESCAPE.sub(
        lambda m: chr(int(m.group(1)[1:], 16)) if len(m.group(1)) > 1 else m.group(1),
        text[1:-1],
    )


def parse_argdown(text: str) -> ToulminExport:
    """Read back `to_argdown`'s output: the front matter, heading, statements and the
    inference's data."""
    lang_match, heading = _FRONT_LANG.search(text), _HEADING.search(text)
    language = lang_match.group(1) if lang_match else "en"
    by_label = _fields_by_label(language)
    values: dict[str, str] = {}
    for line in text.splitlines():
        qualifier = _QUALIFIER.match(line)
        if qualifier:
            values["qualifier"] = _yaml_unquote(qualifier.group(1))
            continue
        statement = _STATEMENT.match(line)
        if statement and statement.group(2) is not None:
            field = by_label.get(statement.group(1))
            if field is not None:
                values[field] = _ARGDOWN_UNESCAPE.sub(r"\1", statement.group(2))
    title = _ARGDOWN_UNESCAPE.sub(r"\1", heading.group(1)) if heading else ""
    return ToulminExport(title=title, language=language, **values)


# --- AIF ----------------------------------------------------------------------


def to_aif(argument: ToulminExport, *, timestamp: str = "") -> str:
    """AIFdb JSON: nodes (I, RA, CA), edges, and the empty locutions AIFdb expects.

    The qualifier is not a statement the claim rests on: it is the force of the main
    inference, so it is a property of that RA-node (`"qualifier"`), not an I-node.
    """
    nodes: list[dict[str, str]] = []
    edges: list[dict[str, object]] = []

    def node(kind: str, text: str, **extra: str) -> str:
        node_id = str(len(nodes) + 1)
        nodes.append(
            {"nodeID": node_id, "text": text, "type": kind, "timestamp": timestamp, **extra}
        )
        return node_id

    def edge(source: str | None, target: str | None) -> None:
        if source is not None and target is not None:
            edge_id = str(len(edges) + 1)
            edges.append({"edgeID": edge_id, "fromID": source, "toID": target, "formEdgeID": None})

    element = {
        field: node("I", _one_line(argument.text(field)))
        for field in FIELDS
        if field != "qualifier" and argument.text(field).strip()
    }
    main = None
    if "claim" in element and {"grounds", "warrant"} & element.keys():
        qualifier = _one_line(argument.qualifier)
        main = node("RA", "Default Inference", **({"qualifier": qualifier} if qualifier else {}))
        for premise in ("grounds", "warrant"):
            edge(element.get(premise), main)
        edge(main, element["claim"])
    for backed, backing in (("grounds", "grounds_backing"), ("warrant", "warrant_backing")):
        if backed in element and backing in element:
            inference = node("RA", "Default Inference")
            edge(element[backing], inference)
            edge(inference, element[backed])
    if main is not None and "rebuttal" in element:
        conflict = node("CA", "Default Conflict")
        edge(element["rebuttal"], conflict)
        edge(conflict, main)
    document = {"nodes": nodes, "edges": edges, "locutions": [], "participants": []}
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"


# --- one entry point for the download view --------------------------------------

EXPORT_FORMATS: dict[str, tuple[str, str]] = {
    # format -> (file extension, content type)
    "markdown": ("md", "text/markdown; charset=utf-8"),
    "json": ("json", "application/json"),
    "argdown": ("argdown", "text/plain; charset=utf-8"),
    "aif": ("aif.json", "application/json"),
}


def export(argument: ToulminExport, fmt: str, *, timestamp: str = "") -> str:
    """The argument in `fmt` (a key of EXPORT_FORMATS); KeyError for any other."""
    writers = {
        "markdown": to_markdown,
        "json": to_json,
        "argdown": to_argdown,
        "aif": lambda argument: to_aif(argument, timestamp=timestamp),
    }
    return writers[fmt](argument)
