"""A whole class discussion as one argument map: Argdown and AIF (pure: no Django, no I/O).

The page (``discussions.views``) builds the ``MapPost`` list from the posts the
reader may see and serves these as downloads. How the thesis and the posts map
to each format, and why, is docs/exports.md ("A class discussion in Argdown and
AIF"); each text is escaped by its format's own grammar, with the coach's
escapes (``coach.exports``), and the tests read every export with the real tool
(tests/discussions/test_graph_exports.py: the ``argdown`` command line, arguebuf).

- Argdown (argdown.org): the thesis is the statement ``[Thesis]``. A post with
  premises is a premise-conclusion structure ``<Post N>`` (premises
  ``[Post N premise i]``, conclusion ``[Post N claim]``, the author and status
  as the inference's data); a post without premises (an objection may have
  none) is the argument ``<Post N>`` described by its claim, with the same data.
  An argument for the thesis supports ``[Thesis]`` (``+>``), one against attacks
  it (``->``); a rebut attacks the target's claim, an undermine the premise it
  names (``->``), an undercut the target argument's inference (``_>``).
- AIF (AIFdb JSON): one I-node for the thesis and one for every claim and
  premise; an RA-node from a post's premises to its claim; an argument for the
  thesis reaches it through an RA-node, one against through a CA-node; an
  objection's claim reaches what it attacks through a CA-node: the target's
  claim (rebut), the premise (undermine), the target's RA-node (undercut; a
  target without premises has no inference, so its claim). No names: AIF ties
  people to text only through locutions, which a discussion has not.

An argument brought from the coach (``discussions.post_extras.CoachOrigin``)
keeps the three elements that are not its claim or premises, mapped as the
coach's own exports map them (``coach.exports``): the warrant is one more
premise of the post's inference (``[Post N warrant]``; an I-node into its
RA-node), the qualifier is that inference's force, not a premise (the
``qualifier`` of its data in Argdown, of its RA-node in AIF), and the rebuttal
undercuts that inference (``<_ [Post N rebuttal]``; an I-node through a CA-node
into the RA-node). A post with no inference (no premise, no warrant) has no
step to qualify or undercut: its qualifier and rebuttal are left out, as the
coach leaves them out.

Hidden posts are not in either file (as in the ICCMA file); an objection to one
attacks nothing. The semantics' reading (a rebut attacks both ways, arguments
for and against rebut each other) is the ICCMA file's; these carry what
each student posted.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from coach.exports import escape_argdown, yaml_string

__all__ = [
    "MapPost",
    "argdown_document",
    "aif_document",
    "claim_title",
    "premise_title",
    "rebuttal_title",
    "warrant_title",
]

THESIS = "Thesis"


@dataclass(frozen=True, slots=True)
class MapPost:
    """One visible post as the reader may see it."""

    id: int
    claim: str
    premises: tuple[str, ...] = ()
    side: str = ""  # "for" / "against" for an argument
    target: int | None = None  # the post an objection answers
    attack_type: str = ""  # rebut / undermine / undercut
    premise_index: int | None = None
    author: str = ""
    status: str = ""  # stands / defeated / contested
    # An argument brought from the coach: the elements that are not its claim or premises.
    warrant: str = ""
    qualifier: str = ""
    rebuttal: str = ""

    @property
    def has_inference(self) -> bool:
        """Whether the post is a step from premises (or a warrant) to its claim."""
        return bool(self.premises) or bool(self.warrant.strip())

    @property
    def kept_qualifier(self) -> str:
        """The qualifier on one line; "" when there is no inference for it to qualify."""
        return _one_line(self.qualifier) if self.has_inference else ""

    @property
    def kept_rebuttal(self) -> bool:
        """Whether the rebuttal is written and has an inference to undercut."""
        return self.has_inference and bool(self.rebuttal.strip())


def _one_line(text: str) -> str:
    return " ".join(text.split())


def claim_title(post_id: int) -> str:
    return f"Post {post_id} claim"


def premise_title(post_id: int, index: int) -> str:
    """The statement title of premise ``index`` (0-based) of a post: numbered from 1."""
    return f"Post {post_id} premise {index + 1}"


def warrant_title(post_id: int) -> str:
    return f"Post {post_id} warrant"


def rebuttal_title(post_id: int) -> str:
    return f"Post {post_id} rebuttal"


# --- Argdown ------------------------------------------------------------------


def _data(post: MapPost) -> str:
    qualifier = post.kept_qualifier
    hedge = f", qualifier: {yaml_string(qualifier)}" if qualifier else ""
    return (
        f"{{author: {yaml_string(_one_line(post.author))}, "
        f"status: {yaml_string(post.status)}{hedge}}}"
    )


def _argdown_relation(post: MapPost, by_id: dict[int, MapPost]) -> str | None:
    """The one relation a post adds to the map, as the line under ``<Post N>``."""
    if post.target is None:
        if post.side == "for":
            return f"  +> [{THESIS}]"
        return f"  -> [{THESIS}]" if post.side == "against" else None
    target = by_id.get(post.target)
    if target is None:
        return None  # it answers a hidden post: it attacks nothing here
    if post.attack_type == "undercut" or (post.attack_type == "rebut" and not target.has_inference):
        # A post without premises is an argument without a claim statement: attack it whole.
        return f"  {'_>' if post.attack_type == 'undercut' else '->'} <Post {target.id}>"
    if post.attack_type == "undermine" and post.premise_index is not None:
        if 0 <= post.premise_index < len(target.premises):
            return f"  -> [{premise_title(target.id, post.premise_index)}]"
        return None
    return f"  -> [{claim_title(target.id)}]"


def argdown_document(
    *, title: str, thesis: str, posts: Sequence[MapPost], language: str = "en"
) -> str:
    """The discussion as one Argdown document (see the module's docstring)."""
    heading = escape_argdown(title) or "Discussion"
    lines = ["===", f"lang: {language}", "===", "", f"# {heading}", ""]
    lines += [f"[{THESIS}]: {escape_argdown(thesis) or '—'}", ""]
    for post in posts:
        claim = escape_argdown(post.claim) or "—"
        if not post.has_inference:
            lines += [f"<Post {post.id}>: {claim} {_data(post)}", ""]
            continue
        lines += [f"<Post {post.id}>", ""]
        for number, premise in enumerate(post.premises, start=1):
            lines.append(f"({number}) [{premise_title(post.id, number - 1)}]: "
                         f"{escape_argdown(premise) or '—'}")  # fmt: skip
        number = len(post.premises) + 1
        if post.warrant.strip():
            lines.append(f"({number}) [{warrant_title(post.id)}]: {escape_argdown(post.warrant)}")
            number += 1
        lines += ["--", f"Inference {_data(post)}", "--"]
        lines += [f"({number}) [{claim_title(post.id)}]: {claim}", ""]
    by_id = {post.id: post for post in posts}
    for post in posts:
        relation = _argdown_relation(post, by_id)
        if relation is not None:
            lines += [f"<Post {post.id}>", relation, ""]
        if post.kept_rebuttal:
            # The rebuttal undercuts the post's own inference, not its claim: "<_".
            rebuttal = f"[{rebuttal_title(post.id)}]: {escape_argdown(post.rebuttal)}"
            lines += [f"<Post {post.id}>", f"  <_ {rebuttal}", ""]
    return "\n".join(lines)


# --- AIF ----------------------------------------------------------------------


class _Graph:
    def __init__(self, timestamp: str) -> None:
        self.nodes: list[dict[str, str]] = []
        self.edges: list[dict[str, object]] = []
        self.timestamp = timestamp

    def node(self, kind: str, text: str, **extra: str) -> str:
        node_id = str(len(self.nodes) + 1)
        self.nodes.append(
            {"nodeID": node_id, "text": text, "type": kind, "timestamp": self.timestamp, **extra}
        )
        return node_id

    def edge(self, source: str, target: str) -> None:
        edge_id = str(len(self.edges) + 1)
        self.edges.append({"edgeID": edge_id, "fromID": source, "toID": target, "formEdgeID": None})

    def link(self, kind: str, sources: Sequence[str], target: str, **extra: str) -> str:
        """An S-node of ``kind`` from ``sources`` to ``target``."""
        text = "Default Inference" if kind == "RA" else "Default Conflict"
        scheme = self.node(kind, text, **extra)
        for source in sources:
            self.edge(source, scheme)
        self.edge(scheme, target)
        return scheme


def aif_document(*, thesis: str, posts: Sequence[MapPost], timestamp: str = "") -> str:
    """AIFdb JSON of the discussion: nodes (I, RA, CA), edges, empty locutions and
    participants (see the module's docstring)."""
    graph = _Graph(timestamp)
    thesis_node = graph.node("I", _one_line(thesis))
    claims: dict[int, str] = {}
    premises: dict[int, list[str]] = {}
    inferences: dict[int, str] = {}
    for post in posts:
        premises[post.id] = [graph.node("I", _one_line(p)) for p in post.premises]
        # The warrant is a premise of the inference, not one an undermine names by index.
        warrant = [graph.node("I", _one_line(post.warrant))] if post.warrant.strip() else []
        claims[post.id] = graph.node("I", _one_line(post.claim))
        if post.has_inference:
            # The qualifier is the inference's force: a field of its RA-node, not an I-node.
            qualifier = post.kept_qualifier
            inferences[post.id] = graph.link(
                "RA",
                premises[post.id] + warrant,
                claims[post.id],
                **({"qualifier": qualifier} if qualifier else {}),
            )
        if post.kept_rebuttal:
            rebuttal = graph.node("I", _one_line(post.rebuttal))
            graph.link("CA", [rebuttal], inferences[post.id])
    for post in posts:
        if post.target is None:
            if post.side in ("for", "against"):
                kind = "RA" if post.side == "for" else "CA"
                graph.link(kind, [claims[post.id]], thesis_node)
            continue
        if post.target not in claims:
            continue  # it answers a hidden post: it attacks nothing here
        if post.attack_type == "undercut":
            attacked = inferences.get(post.target, claims[post.target])
        elif post.attack_type == "undermine":
            index, targets = post.premise_index, premises[post.target]
            if index is None or not 0 <= index < len(targets):
                continue
            attacked = targets[index]
        else:
            attacked = claims[post.target]
        graph.link("CA", [claims[post.id]], attacked)
    document = {"nodes": graph.nodes, "edges": graph.edges, "locutions": [], "participants": []}
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"
