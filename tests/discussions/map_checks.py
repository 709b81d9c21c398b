"""What the real tools read from a discussion's Argdown and AIF, compared with the posts.

Each function returns the differences as sentences (empty: the tool read the map
exactly as docs/exports.md documents it). The mapping is discussions.graph_exports.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from discussions.graph_exports import (
    THESIS,
    MapPost,
    claim_title,
    premise_title,
    rebuttal_title,
    warrant_title,
)
from tests.coach.export_checks import one_line

__all__ = ["aif_map_problems", "argdown_map_problems"]


def _source(post: MapPost) -> str:
    """What Argdown names as a post's side of a relation: its claim, or the argument."""
    return claim_title(post.id) if _has_inference(post) else f"Post {post.id}"


# Written from docs/exports.md, not from MapPost's own properties: a post brought from the
# coach has an inference when it has a premise or a warrant; without one, its qualifier
# and rebuttal have nothing to qualify or undercut and are left out.
def _has_inference(post: MapPost) -> bool:
    return bool(post.premises) or bool(post.warrant.strip())


def _qualifier(post: MapPost) -> str:
    return one_line(post.qualifier) if _has_inference(post) else ""


def _rebuttal(post: MapPost) -> str:
    return one_line(post.rebuttal) if _has_inference(post) else ""


def expected_relations(posts: Sequence[MapPost]) -> set[tuple[str, str, str]]:
    by_id = {post.id: post for post in posts}
    relations = set()
    for post in posts:
        if post.target is None:
            kind = {"for": "support", "against": "attack"}[post.side]
            relations.add((kind, _source(post), THESIS))
            continue
        target = by_id.get(post.target)
        if target is None:
            continue
        if post.attack_type == "undercut":
            relations.add(("undercut", _source(post), f"Post {target.id}"))
        elif post.attack_type == "undermine":
            relations.add(("attack", _source(post), premise_title(target.id, post.premise_index)))
        else:
            relations.add(("attack", _source(post), _source(target)))
    for post in posts:
        if _rebuttal(post):
            relations.add(("undercut", rebuttal_title(post.id), f"Post {post.id}"))
    return relations


def argdown_map_problems(
    *, title: str, thesis: str, posts: Sequence[MapPost], read: dict[str, Any] | None
) -> list[str]:
    """Differences between the posts and what `argdown json` read from their map."""
    if read is None:
        return ["Argdown did not parse it"]
    problems = []
    sections = [section["title"] for section in read.get("sections", [])]
    if sections != [one_line(title)]:
        problems.append(f"title {sections!r}")
    expected = {THESIS: one_line(thesis)}
    for post in posts:
        if _has_inference(post):
            expected[claim_title(post.id)] = one_line(post.claim)
            for index, premise in enumerate(post.premises):
                expected[premise_title(post.id, index)] = one_line(premise)
            if post.warrant.strip():
                expected[warrant_title(post.id)] = one_line(post.warrant)
        if _rebuttal(post):
            expected[rebuttal_title(post.id)] = _rebuttal(post)
    statements = {
        name: {m.get("text", "") for m in s.get("members", []) if m.get("text", "").strip()}
        for name, s in read.get("statements", {}).items()
    }
    for name, text in expected.items():
        if statements.get(name) != {text}:
            problems.append(f"{name}: {statements.get(name)!r} != {text!r}")
    if set(statements) - set(expected):
        problems.append(f"statements nobody wrote: {sorted(set(statements) - set(expected))!r}")
    arguments = read.get("arguments", {})
    if set(arguments) != {f"Post {post.id}" for post in posts}:
        return [*problems, f"arguments {sorted(arguments)!r}"]
    for post in posts:
        argument = arguments[f"Post {post.id}"]
        data = {"author": one_line(post.author), "status": post.status}
        if _qualifier(post):
            data["qualifier"] = _qualifier(post)
        if _has_inference(post):
            pcs = argument.get("pcs", [])
            roles = [(s.get("title"), s.get("role")) for s in pcs]
            wanted = [(premise_title(post.id, i), "premise") for i in range(len(post.premises))]
            if post.warrant.strip():
                wanted.append((warrant_title(post.id), "premise"))
            if roles != [*wanted, (claim_title(post.id), "main-conclusion")]:
                problems.append(f"Post {post.id}: premises and conclusion {roles!r}")
            elif (pcs[-1].get("inference") or {}).get("data") != data:
                problems.append(f"Post {post.id}: data {pcs[-1].get('inference')!r}")
        else:
            described = [m for m in argument.get("members", []) if m.get("text", "").strip()]
            if [(m["text"].strip(), m.get("data")) for m in described] != [
                (one_line(post.claim), data)
            ]:
                problems.append(f"Post {post.id}: described as {described!r}")
    relations = {(r["relationType"], r["from"], r["to"]) for r in read.get("relations", [])}
    if relations != expected_relations(posts):
        problems.append(f"relations {relations!r} != {expected_relations(posts)!r}")
    return problems


def aif_map_problems(*, thesis: str, posts: Sequence[MapPost], text: str) -> list[str]:
    """Differences between the posts and the graph `arguebuf` loads from their AIF:
    the thesis and every claim and premise (a warrant, a rebuttal) as I-nodes with their
    text, an RA-node from a post's premises and warrant to its claim carrying its
    qualifier, a rebuttal's CA-node into it, each post's support, conflict or undercut,
    nothing else."""
    import arguebuf

    document = json.loads(text)
    graph = arguebuf.load.aif(document)
    if len(graph.edges) != len(document["edges"]) or len(graph.nodes) != len(document["nodes"]):
        return ["arguebuf left out nodes or edges"]
    atoms = {node_id: atom.plain_text for node_id, atom in graph.atom_nodes.items()}
    kind = {node["nodeID"]: node["type"] for node in document["nodes"]}
    raw = {node["nodeID"]: node for node in document["nodes"]}
    # What an S-node infers from or attacks with: its I-nodes in (a CA-node into an
    # RA-node is an undercut of it, not one of its premises).
    ins = {
        s: {n.id for n in graph.incoming_nodes(s) if n.id in graph.atom_nodes}
        for s in graph.scheme_nodes
    }
    outs = {s: {n.id for n in graph.outgoing_nodes(s)} for s in graph.scheme_nodes}
    schemes = {(kind[s], frozenset(ins[s]), frozenset(outs[s])) for s in graph.scheme_nodes}
    problems = []
    # Nodes are written in order: the thesis, then each post's premises, warrant, claim
    # and rebuttal.
    order = [one_line(thesis)]
    for post in posts:
        order += [one_line(p) for p in post.premises]
        order += [one_line(post.warrant)] if post.warrant.strip() else []
        order += [one_line(post.claim)]
        order += [_rebuttal(post)] if _rebuttal(post) else []
    if list(atoms.values()) != order:
        return [f"I-nodes {list(atoms.values())!r} != {order!r}"]
    ids = list(atoms)
    node_of: dict[tuple[int, str], str] = {}
    at = 1
    for post in posts:
        for index in range(len(post.premises)):
            node_of[(post.id, f"p{index}")] = ids[at]
            at += 1
        if post.warrant.strip():
            node_of[(post.id, "warrant")] = ids[at]
            at += 1
        node_of[(post.id, "claim")] = ids[at]
        at += 1
        if _rebuttal(post):
            node_of[(post.id, "rebuttal")] = ids[at]
            at += 1
    inference: dict[int, str] = {}
    expected = set()
    for post in posts:
        claim = node_of[(post.id, "claim")]
        if _has_inference(post):
            sources = frozenset(
                node_of[(post.id, key)]
                for key in [f"p{i}" for i in range(len(post.premises))] + ["warrant"]
                if (post.id, key) in node_of
            )
            found = [s for s in graph.scheme_nodes if (ins[s], outs[s]) == (sources, {claim})]
            if len(found) != 1 or kind[found[0]] != "RA":
                problems.append(f"Post {post.id}: no inference from its premises to its claim")
                continue
            inference[post.id] = found[0]
            expected.add(("RA", sources, frozenset({claim})))
            # arguebuf drops fields it does not know: the qualifier is read from the file.
            qualifier = raw[found[0]].get("qualifier", "")
            if qualifier != _qualifier(post):
                problems.append(f"Post {post.id}: qualifier {qualifier!r}")
            if _rebuttal(post):
                rebuttal = frozenset({node_of[(post.id, "rebuttal")]})
                expected.add(("CA", rebuttal, frozenset({found[0]})))
    for post in posts:
        claim = frozenset({node_of[(post.id, "claim")]})
        if post.target is None:
            scheme = "RA" if post.side == "for" else "CA"
            expected.add((scheme, claim, frozenset({ids[0]})))
        elif (post.target, "claim") in node_of:
            if post.attack_type == "undercut":
                attacked = inference.get(post.target, node_of[(post.target, "claim")])
            elif post.attack_type == "undermine":
                attacked = node_of[(post.target, f"p{post.premise_index}")]
            else:
                attacked = node_of[(post.target, "claim")]
            expected.add(("CA", claim, frozenset({attacked})))
    if schemes != expected or len(schemes) != len(graph.scheme_nodes):
        problems.append(f"S-nodes {sorted(map(str, schemes))} != {sorted(map(str, expected))}")
    return problems
