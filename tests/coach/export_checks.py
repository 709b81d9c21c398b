"""What each real tool read, compared with what the student wrote.

Each function returns the differences as sentences (empty: the tool read the
export exactly as documented in docs/exports.md). The tests assert there are
none; the same functions count the exports that come through intact.
"""

from __future__ import annotations

import json
from typing import Any

from coach.exports import ToulminExport, markdown_text
from coach.steps import STEPS

__all__ = ["aif_problems", "argdown_problems", "markdown_problems", "one_line"]

ELEMENTS = ("claim", "grounds", "warrant", "grounds_backing", "warrant_backing", "rebuttal")
ELEMENTS_IN_ORDER = tuple(step.field for step in STEPS if step.field != "qualifier")


def one_line(text: str) -> str:
    """What Argdown and AIF keep of a text: its words, single-spaced."""
    return " ".join(text.split())


def argdown_problems(argument: ToulminExport, read: dict[str, Any] | None) -> list[str]:
    """Differences between the argument and what `argdown json` read from its export."""
    if read is None:
        return ["Argdown did not parse it"]
    problems = []
    label = {field: argument.label(field) for field in (*ELEMENTS, "qualifier")}
    sections = [section["title"] for section in read.get("sections", [])]
    if sections != [one_line(argument.title)]:
        problems.append(f"title {sections!r}")
    statements = read.get("statements", {})
    for field in ELEMENTS:
        texts = {
            member.get("text", "")
            for member in statements.get(label[field], {}).get("members", [])
            if member.get("text", "").strip()
        }
        expected = {one_line(argument.text(field))} - {""}
        if texts != expected:
            problems.append(f"{field} {texts!r} != {expected!r}")
    extra = set(statements) - set(label.values())
    if extra:
        problems.append(f"statements nobody wrote: {sorted(extra)!r}")
    arguments = list(read.get("arguments", {}).values())
    if len(arguments) != 1:
        return [*problems, f"{len(arguments)} arguments"]
    pcs = arguments[0].get("pcs", [])
    roles = [(s.get("title"), s.get("role")) for s in pcs]
    expected_roles = [
        (label["grounds"], "premise"),
        (label["warrant"], "premise"),
        (label["claim"], "main-conclusion"),
    ]
    if roles != expected_roles:
        problems.append(f"premises and conclusion {roles!r}")
    inference = pcs[-1].get("inference", {}) if pcs else {}
    qualifier = (inference.get("data") or {}).get("qualifier", "")
    if qualifier != one_line(argument.qualifier):
        problems.append(f"qualifier {qualifier!r}")
    relations = {(r["relationType"], r["from"], r["to"]) for r in read.get("relations", [])}
    expected_relations = {
        ("support", label[backing], label[backed])
        for backed, backing in (("grounds", "grounds_backing"), ("warrant", "warrant_backing"))
        if argument.text(backing).strip()
    }
    if argument.rebuttal.strip():
        expected_relations.add(("undercut", label["rebuttal"], arguments[0]["title"]))
    if relations != expected_relations:
        problems.append(f"relations {relations!r} != {expected_relations!r}")
    return problems


def aif_problems(argument: ToulminExport, text: str) -> list[str]:
    """Differences between the argument and the graph `arguebuf` loads from its AIF.

    As documented: one I-node per written element but the qualifier, in the steps'
    order; grounds and warrant are the premises of the main RA-node, which concludes
    the claim and carries the qualifier as its `qualifier`; each backing supports what
    it backs through its own RA-node; the rebuttal undercuts the main RA-node through a
    CA-node. Nothing else.
    """
    import arguebuf

    document = json.loads(text)
    graph = arguebuf.load.aif(document)
    raw = {node["nodeID"]: node for node in document["nodes"]}
    written = [f for f in ELEMENTS_IN_ORDER if argument.text(f).strip()]
    atoms = [node_id for node_id in raw if node_id in graph.atom_nodes]
    if len(atoms) != len(written):
        return [f"{len(atoms)} I-nodes for {len(written)} written elements"]
    node = dict(zip(written, atoms, strict=True))
    problems = [
        f"{field} reads {graph.atom_nodes[node[field]].plain_text!r}"
        for field in written
        if graph.atom_nodes[node[field]].plain_text != one_line(argument.text(field))
    ]
    if len(graph.edges) != len(document["edges"]) or len(graph.nodes) != len(raw):
        problems.append("arguebuf left out nodes or edges")

    def linked(kind: str, sources: set[str], target: str) -> str | None:
        """The one S-node of `kind` with exactly the I-nodes `sources` in, `target` out."""
        found = [
            s.id
            for s in graph.scheme_nodes.values()
            if raw[s.id]["type"] == kind
            and {n.id for n in graph.incoming_nodes(s) if n.id in graph.atom_nodes} == sources
            and {n.id for n in graph.outgoing_nodes(s)} == {target}
        ]
        return found[0] if len(found) == 1 else None

    expected_schemes = 0
    main = None
    premises = {node[f] for f in ("grounds", "warrant") if f in node}
    if "claim" in node and premises:
        expected_schemes += 1
        main = linked("RA", premises, node["claim"])
        if main is None:
            problems.append("no inference from grounds and warrant to the claim")
        elif raw[main].get("qualifier", "") != one_line(argument.qualifier):
            problems.append(f"qualifier on the inference {raw[main].get('qualifier')!r}")
        if "rebuttal" in node:
            expected_schemes += 1
            if main is None or linked("CA", {node["rebuttal"]}, main) is None:
                problems.append("the rebuttal does not undercut the inference")
    for backed, backing in (("grounds", "grounds_backing"), ("warrant", "warrant_backing")):
        if backed in node and backing in node:
            expected_schemes += 1
            if linked("RA", {node[backing]}, node[backed]) is None:
                problems.append(f"{backing} does not support {backed}")
    if len(graph.scheme_nodes) != expected_schemes:
        problems.append(f"{len(graph.scheme_nodes)} S-nodes, {expected_schemes} expected")
    if any("qualifier" in raw[n] for n in raw if n != main):
        problems.append("a qualifier somewhere else")
    return problems


def markdown_problems(argument: ToulminExport, blocks: list[tuple[str, str]]) -> list[str]:
    """Differences between the argument and what CommonMark reads from its Markdown:
    the title as the one h1, each step's label as an h2, and below it the element's
    paragraphs, whose text nodes (a hard break read as a line break) are the student's."""
    problems = [f"{kind[1:]}: {text!r}" for kind, text in blocks if kind.startswith("!")]
    blocks = [block for block in blocks if not block[0].startswith("!")]
    expected = [("h1", one_line(argument.title))]
    for field in [step.field for step in STEPS]:
        expected.append(("h2", argument.label(field)))
        expected += [("p", p) for p in markdown_text(argument.text(field)).split("\n\n") if p]
    if blocks != expected:
        problems.append(f"{blocks!r} != {expected!r}")
    return problems
