"""A finished (or unfinished) Toulmin argument in four files a student can take away.

Pure: no Django, no I/O. The page (coach.toulmin_views) builds a
`ToulminExport` from the student's draft and serves these as downloads.

- JSON: `ToulminExport` itself, versioned (`format`, `version`), the shape to
  load back into a program.
- Markdown: a title and one "##" heading per step, in the argument's
  language, to paste into an essay or notes. A student's line that starts
  with "#" (or a backslash) gets a backslash first, so it cannot become a
  heading.
- Argdown (argdown.org): the argument as a premise-conclusion structure
  (grounds and warrant -> claim, the qualifier as the inference's data),
  each backing as support below the premise it backs, and the rebuttal as
  an undercut of the inference, as Toulmin describes it. Statement titles
  are the step labels; text is one line, with Argdown's special characters
  escaped by a backslash; the exact title is in the front matter. Argdown's
  own parser (@argdown/core) reads this without an error and finds the same
  statements, relations and inference data.
- AIF (the Argument Interchange Format, in the JSON that AIFdb and OVA
  read): one I-node per written element; an RA-node (inference) from grounds
  and warrant to the claim, one from each backing to what it backs; the
  rebuttal reaches the main inference through a CA-node (conflict), i.e. it
  undercuts the step from grounds to claim. AIF has no node type for a
  qualifier: it qualifies that same step, so its I-node is linked to the main
  RA-node too. Empty elements get no node.

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
    "export",
    "parse_argdown",
    "parse_markdown",
    "to_aif",
    "to_argdown",
    "to_json",
    "to_markdown",
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

_HEADING = re.compile(r"^(#{1,6})[ \t]")


def _escape_markdown(text: str) -> str:
    """A backslash before a line that could read as a heading (or starts with a backslash)."""
    lines = text.strip().splitlines()
    return "\n".join(
        "\\" + line if line.lstrip().startswith(("#", "\\")) else line for line in lines
    )


def to_markdown(argument: ToulminExport) -> str:
    parts = [f"# {_one_line(argument.title)}", ""]
    for field in FIELDS:
        parts += [f"## {argument.label(field)}", ""]
        if argument.text(field).strip():
            parts += [_escape_markdown(argument.text(field)), ""]
    return "\n".join(parts)


def parse_markdown(text: str, *, language: str = "en") -> ToulminExport:
    """Read back `to_markdown`'s output (headings in `language`)."""
    by_label = _fields_by_label(language)
    title, field, values = "", None, {f: [] for f in FIELDS}
    for line in text.splitlines():
        heading = _HEADING.match(line)
        if heading and len(heading.group(1)) == 1 and not title:
            title = line[2:].strip()
        elif heading and len(heading.group(1)) == 2:
            field = by_label.get(line[3:].strip())
        elif field is not None:
            values[field].append(line[1:] if line.startswith("\\") else line)
    texts = {f: "\n".join(lines).strip() for f, lines in values.items()}
    return ToulminExport(title=title, language=language, **texts)


# --- Argdown ------------------------------------------------------------------

_ARGDOWN_SPECIAL = re.compile(r"([\\\[\]<>{}#@])")
_ARGDOWN_UNESCAPE = re.compile(r"\\([\\\[\]<>{}#@])")


def _escape_argdown(text: str) -> str:
    return _ARGDOWN_SPECIAL.sub(r"\\\1", _one_line(text))


def _statement(argument: ToulminExport, field: str) -> str:
    """`[Label]: text`, or the bare reference `[Label]` for an element not written yet."""
    text = argument.text(field)
    label = argument.label(field)
    return f"[{label}]: {_escape_argdown(text)}" if text.strip() else f"[{label}]"


def _argument_name(title: str) -> str:
    """The title as an Argdown argument name: brackets become parentheses, and characters
    that would end or open a name go (the exact title travels in the front matter)."""
    name = _one_line(title).translate(str.maketrans("[]<>{}", "()()()", "#@\\"))
    return " ".join(name.split()) or "Argument"


def to_argdown(argument: ToulminExport) -> str:
    name = _argument_name(argument.title)
    qualifier = json.dumps(_one_line(argument.qualifier), ensure_ascii=False)
    lines = [
        "===",
        f"title: {json.dumps(_one_line(argument.title), ensure_ascii=False)}",
        f"lang: {argument.language}",
        "===",
        "",
        f"# {name}",
        "",
        f"<{name}>",
        "",
    ]
    for number, (field, backing) in enumerate(
        (("grounds", "grounds_backing"), ("warrant", "warrant_backing")), start=1
    ):
        lines.append(f"({number}) {_statement(argument, field)}")
        if argument.text(backing).strip():
            # A backing supports the premise it backs: a relation below that premise.
            lines.append(f"    <+ {_statement(argument, backing)}")
    lines += [
        "--",
        f"Toulmin {{qualifier: {qualifier}}}",
        "--",
        f"(3) {_statement(argument, 'claim')}",
        "",
    ]
    if argument.rebuttal.strip():
        # The rebuttal undercuts the inference, not the claim: "<_".
        lines += [f"<{name}>", f"  <_ {_statement(argument, 'rebuttal')}", ""]
    return "\n".join(lines)


_FRONT_TITLE = re.compile(r"^title: (.*)$", re.MULTILINE)
_FRONT_LANG = re.compile(r"^lang: (\w+)$", re.MULTILINE)
_STATEMENT = re.compile(r"^\s*(?:\(\d+\)|<\+|<_)?\s*\[((?:[^\]\\]|\\.)+)\](?::\s?(.*))?$")
_QUALIFIER = re.compile(r"^Toulmin \{qualifier: (.*)\}$")


def parse_argdown(text: str) -> ToulminExport:
    """Read back `to_argdown`'s output: the front matter, statements and the inference data."""
    title_match, lang_match = _FRONT_TITLE.search(text), _FRONT_LANG.search(text)
    language = lang_match.group(1) if lang_match else "en"
    by_label = _fields_by_label(language)
    values: dict[str, str] = {}
    for line in text.splitlines():
        qualifier = _QUALIFIER.match(line)
        if qualifier:
            values["qualifier"] = json.loads(qualifier.group(1))
            continue
        statement = _STATEMENT.match(line)
        if statement and statement.group(2) is not None:
            field = by_label.get(_ARGDOWN_UNESCAPE.sub(r"\1", statement.group(1)))
            if field is not None:
                values[field] = _ARGDOWN_UNESCAPE.sub(r"\1", statement.group(2))
    title = json.loads(title_match.group(1)) if title_match else ""
    return ToulminExport(title=title, language=language, **values)


# --- AIF ----------------------------------------------------------------------


def to_aif(argument: ToulminExport, *, timestamp: str = "") -> str:
    """AIFdb JSON: nodes (I, RA, CA), edges, and the empty locutions AIFdb expects."""
    nodes: list[dict[str, str]] = []
    edges: list[dict[str, object]] = []

    def node(kind: str, text: str) -> str:
        node_id = str(len(nodes) + 1)
        nodes.append({"nodeID": node_id, "text": text, "type": kind, "timestamp": timestamp})
        return node_id

    def edge(source: str | None, target: str | None) -> None:
        if source is not None and target is not None:
            edge_id = str(len(edges) + 1)
            edges.append({"edgeID": edge_id, "fromID": source, "toID": target, "formEdgeID": None})

    element = {
        field: node("I", _one_line(argument.text(field)))
        for field in FIELDS
        if argument.text(field).strip()
    }
    main = None
    if "claim" in element and {"grounds", "warrant"} & element.keys():
        main = node("RA", "Default Inference")
        for premise in ("grounds", "warrant", "qualifier"):
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
