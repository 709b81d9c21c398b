"""An argument brought from Argdown or AIF: the reverse of coach.exports' mappings.

Pure: no Django, no I/O. `read_argument` takes a file's text and gives a
`ToulminExport` (what the coach's import page turns into a new draft), or raises
`ImportRefused` with a code (and the page words it for the student: coach.forms;
never a parser's message).

- AIF (AIFdb's JSON, as OVA and this site write it; docs/exports.md): the main
  inference is the RA-node whose conclusion no other RA-node uses as a premise;
  its conclusion is the claim, its premises the grounds and the warrant (in the
  file's order; a lone premise is the grounds; a third or later premise joins the
  grounds), its `qualifier`
  field the qualifier; an RA-node concluding the grounds (the warrant) brings
  their backing; a CA-node against the main inference or the claim brings the
  rebuttal. Several I-nodes in one role are joined by a blank line. A graph with
  no inference gives only a claim: its first I-node.
- Argdown: what this site's export writes (statement titles are the step
  labels, in English or Spanish, the title is the heading); a file from
  elsewhere has no such titles and is refused with a sentence that says so.
- JSON of this site (`argue.toulmin`): read as it is.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from coach.exports import ToulminExport, parse_argdown
from coach.steps import STEPS
from untrusted import text_problem

__all__ = ["MAX_IMPORT_BYTES", "MAX_TEXT_CHARS", "ImportRefused", "read_argument"]

MAX_IMPORT_BYTES = 200_000
MAX_TEXT_CHARS = 5000  # an element's limit when typed in the coach (coach.api)
MAX_JSON_DEPTH = 20
FIELDS = tuple(step.field for step in STEPS)


class ImportRefused(ValueError):
    """The file cannot become an argument, for the reason `code` names:

    empty, not_json, not_aif, bad_site_json, no_statement, no_argdown_steps,
    no_elements, too_long, unstorable."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def read_argument(text: str, *, title: str, language: str) -> ToulminExport:
    """The argument in `text` (AIF, Argdown or this site's JSON). `title` and `language`
    are used when the file names none (AIF has no title)."""
    stripped = text.lstrip("\ufeff").strip()
    if not stripped:
        raise ImportRefused("empty")
    if stripped.startswith("{"):
        data = _json(stripped)
        if data.get("format") == "argue.toulmin":
            try:
                argument = ToulminExport.model_validate(data)
            except ValidationError:
                raise ImportRefused("bad_site_json") from None
        else:
            argument = _from_aif(data, title=title, language=language)
    else:
        argument = _from_argdown(stripped, title=title)
    return _checked(argument)


def _json(text: str) -> dict[str, Any]:
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise ImportRefused("not_json") from None
    if not isinstance(data, dict) or _depth(data) > MAX_JSON_DEPTH:
        raise ImportRefused("not_aif")
    return data


def _depth(value: Any, level: int = 0) -> int:
    if level > MAX_JSON_DEPTH:
        return level
    if isinstance(value, dict):
        return max((_depth(v, level + 1) for v in value.values()), default=level)
    if isinstance(value, list):
        return max((_depth(v, level + 1) for v in value), default=level)
    return level


def _checked(argument: ToulminExport) -> ToulminExport:
    if not any(argument.text(field).strip() for field in FIELDS):
        raise ImportRefused("no_elements")
    texts = [argument.title, *(argument.text(f) for f in FIELDS)]
    if any(text_problem(text) is not None for text in texts):
        # A JSON escape can spell a NUL or half an emoji that the file's bytes did not hold.
        raise ImportRefused("unstorable")
    too_long = [f for f in FIELDS if len(argument.text(f)) > MAX_TEXT_CHARS]
    if too_long:
        raise ImportRefused("too_long")
    return argument


# --- Argdown ------------------------------------------------------------------


def _from_argdown(text: str, *, title: str) -> ToulminExport:
    try:
        argument = parse_argdown(text)
    except ValidationError:
        argument = None
    if argument is None or not any(argument.text(field).strip() for field in FIELDS):
        raise ImportRefused("no_argdown_steps")
    if argument.title in ("", "Argument"):
        argument = argument.model_copy(update={"title": title})
    return argument


# --- AIF ----------------------------------------------------------------------


def _from_aif(data: Mapping[str, Any], *, title: str, language: str) -> ToulminExport:
    nodes, edges = data.get("nodes"), data.get("edges")
    if not isinstance(nodes, list) or not isinstance(edges, list):
        raise ImportRefused("not_aif")
    kinds: dict[str, str] = {}
    texts: dict[str, str] = {}
    fields: dict[str, dict[str, Any]] = {}
    for node in nodes:
        if isinstance(node, dict) and isinstance(node.get("nodeID"), str | int):
            node_id = str(node["nodeID"])
            kinds[node_id] = str(node.get("type", ""))
            texts[node_id] = node["text"] if isinstance(node.get("text"), str) else ""
            fields[node_id] = node
    into: dict[str, list[str]] = {node_id: [] for node_id in kinds}
    out_of: dict[str, list[str]] = {node_id: [] for node_id in kinds}
    for edge in edges:
        if not isinstance(edge, dict):
            continue
        source, target = str(edge.get("fromID")), str(edge.get("toID"))
        if source in kinds and target in kinds:
            into[target].append(source)
            out_of[source].append(target)

    def atoms(ids: list[str]) -> list[str]:
        return [i for i in ids if kinds[i] == "I"]

    inferences = [n for n in kinds if kinds[n] == "RA" and atoms(out_of[n]) and atoms(into[n])]
    premises_used = {p for n in inferences for p in atoms(into[n])}
    tops = [n for n in inferences if not set(atoms(out_of[n])) & premises_used]
    if not tops:
        # No inference: nothing says which statement plays which part, but the first one
        # (the only one, in a graph of a single claim) is the claim to start from.
        claims = [n for n in kinds if kinds[n] == "I" and texts[n].strip()]
        if not claims:
            raise ImportRefused("no_statement")
        return ToulminExport(title=title, language=language, claim=texts[claims[0]].strip())
    # The main inference: the top one with the most premises (the file's first on a tie).
    main = max(tops, key=lambda n: len(atoms(into[n])))
    claim = atoms(out_of[main])[0]
    premises = atoms(into[main])
    grounds = [premises[0], *premises[2:]]
    warrant = premises[1:2]

    def backing(backed: list[str]) -> list[str]:
        return [
            p for n in inferences if set(atoms(out_of[n])) & set(backed) for p in atoms(into[n])
        ]

    rebuttals = [
        p
        for n in kinds
        if kinds[n] == "CA" and ({main, claim} & set(out_of[n]))
        for p in atoms(into[n])
    ]
    qualifier = fields[main].get("qualifier")

    def joined(ids: list[str]) -> str:
        return "\n\n".join(texts[i].strip() for i in dict.fromkeys(ids) if texts[i].strip())

    return ToulminExport(
        title=title,
        language=language,
        claim=joined([claim]),
        grounds=joined(grounds),
        warrant=joined(warrant),
        grounds_backing=joined(backing(grounds)),
        warrant_backing=joined(backing(warrant)),
        qualifier=qualifier.strip() if isinstance(qualifier, str) else "",
        rebuttal=joined(rebuttals),
    )
