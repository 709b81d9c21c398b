"""Draw a debate's argument graph as a self-contained SVG, on the server.

Pure code over plain data: no Django, no model rows. The views turn rows into
:class:`GraphNode` / :class:`GraphEdge` and hand them here, so the drawing can
be tested on hand-built graphs and the same picture comes out for the same
debate every time (no randomness, no force simulation).

Layout: one column per round (round 0 holds the opening arguments, round r
the counter-arguments created by the attacks of round r); inside a column the
nodes are sorted by speaker order, then by id. Edges run from the attacker to
the attacked argument.

Styling carries meaning twice, so that neither colour nor dashes alone must be
read: a node's label (IN / OUT / UNDEC) is its fill colour *and* a word in the
node; an attack's type is its stroke colour *and* its dash pattern. A rebut
has arrowheads at both ends, because rebutting is mutual in the framework
(debates/graph.py). What the semantics did not count (an attack judged
invalid or a duplicate, and the counter-argument it would have added) is drawn
faint, with an empty label: it is shown for the record, not judged.

Every piece of model text is escaped for XML: a claim containing ``<script>``
is text in a ``<text>`` element, never markup.

The picture's own words (legend, tooltips, description) come in a
:class:`GraphWords`, English by default: the site passes them translated into
the page's language, and this module stays free of Django. The labels IN /
OUT / UNDEC are the formal terms and stay as they are.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from xml.sax.saxutils import escape, quoteattr

__all__ = [
    "ATTACK_STYLES",
    "LABEL_STYLES",
    "GraphEdge",
    "GraphNode",
    "GraphWords",
    "render_graph_svg",
]

#: label -> (fill, stroke, text colour). Same hues as --in/--out/--undec in app.css.
LABEL_STYLES: dict[str, tuple[str, str, str]] = {
    "IN": ("#e3f1e8", "#2e7d4f", "#1c4f31"),
    "OUT": ("#f8e1df", "#b3261e", "#7a1a14"),
    "UNDEC": ("#eceef1", "#8a8f98", "#3f434a"),
}

#: A node outside the framework (its attack was invalid or a duplicate).
UNCOUNTED_NODE = ("#ffffff", "#8a8f98", "#5b6475")

#: attack type -> (stroke colour, dash pattern or "" for solid).
ATTACK_STYLES: dict[str, tuple[str, str]] = {
    "rebut": ("#b3261e", ""),
    "undermine": ("#9a6700", "7 4"),
    "undercut": ("#6b3fa0", "2 3"),
}

NODE_WIDTH = 176
NODE_HEIGHT = 62
COLUMN_GAP = 96
ROW_GAP = 22
MARGIN = 24
LEGEND_HEIGHT = 84
LEGEND_WIDTH = 640
CLAIM_CHARS = 26
SPEAKER_CHARS = 26
_TRAILING_NUMBER = re.compile(r"(.*?)(\d+)")


@dataclass(frozen=True, slots=True)
class GraphNode:
    """One argument: ``id`` is what attacks refer to; ``label`` IN/OUT/UNDEC, "" if not counted."""

    id: str
    label: str
    speaker: str
    round: int
    claim: str


@dataclass(frozen=True, slots=True)
class GraphEdge:
    """One attack from ``source`` to ``target``; ``counted`` when the semantics use it."""

    source: str
    target: str
    kind: str
    counted: bool = True


@dataclass(frozen=True, slots=True)
class GraphWords:
    """Every word the picture says itself; %(name)s placeholders are filled in here."""

    not_counted: str = "not counted"
    # "A3 (IN) — The Empiricist, round 1: claim"
    node_tooltip: str = "%(id)s (%(label)s) — %(speaker)s, round %(round)s: %(claim)s"
    # attack type -> its name in the legend
    kinds: Mapping[str, str] = field(
        default_factory=lambda: {"rebut": "rebut", "undermine": "undermine", "undercut": "undercut"}
    )
    # attack type -> an edge's tooltip
    attacks: Mapping[str, str] = field(
        default_factory=lambda: {
            "rebut": "%(source)s rebuts %(target)s",
            "undermine": "%(source)s undermines a premise of %(target)s",
            "undercut": "%(source)s undercuts the inference of %(target)s",
        }
    )
    uncounted_attack: str = "%(attack)s (not counted)"
    faint: str = "faint: not counted (invalid or duplicate)"
    description: str = (
        "%(arguments)s arguments (%(IN)s IN, %(OUT)s OUT, %(UNDEC)s UNDEC) "
        "and %(counted)s counted attacks."
    )


def render_graph_svg(
    *,
    nodes: list[GraphNode],
    edges: list[GraphEdge],
    title: str = "Argument graph",
    words: GraphWords = GraphWords(),  # noqa: B008 (frozen, so one shared default is safe)
) -> str:
    """Return the SVG document (a string) for ``nodes`` and ``edges``.

    Edges that mention an unknown node are skipped: the picture shows the graph
    it was given, it does not invent endpoints.
    """
    positions = _layout(nodes)
    width, height = _canvas_size(positions)
    by_id = {node.id: node for node in nodes}
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="argument-graph" role="img" '
        f'aria-labelledby="graph-title graph-desc" viewBox="0 0 {width} {height + LEGEND_HEIGHT}" '
        f'width="{width}" height="{height + LEGEND_HEIGHT}" font-family="system-ui, sans-serif">',
        f'<title id="graph-title">{escape(title)}</title>',
        f'<desc id="graph-desc">{escape(_description(nodes, edges, words))}</desc>',
        _markers(),
    ]
    parts.append('<g class="edges">')
    for edge in sorted(edges, key=lambda e: (e.source, e.target, e.kind)):
        if edge.source in positions and edge.target in positions:
            parts.append(_edge(edge, positions, words))
    parts.append("</g>")
    parts.append('<g class="nodes">')
    for node_id in sorted(positions, key=lambda key: positions[key]):
        parts.append(_node(by_id[node_id], positions[node_id], words))
    parts.append("</g>")
    parts.append(_legend(top=height, words=words))
    parts.append("</svg>")
    return "\n".join(parts)


def _layout(nodes: list[GraphNode]) -> dict[str, tuple[int, int]]:
    """Top-left corner of each node: a column per round, rows by speaker then id."""
    speaker_order: dict[str, int] = {}
    for node in sorted(nodes, key=lambda n: (n.round, _natural(n.id))):
        speaker_order.setdefault(node.speaker, len(speaker_order))
    columns: dict[int, list[GraphNode]] = defaultdict(list)
    for node in nodes:
        columns[node.round].append(node)
    positions: dict[str, tuple[int, int]] = {}
    for column, round_number in enumerate(sorted(columns)):
        ordered = sorted(
            columns[round_number], key=lambda n: (speaker_order[n.speaker], _natural(n.id))
        )
        for row, node in enumerate(ordered):
            x = MARGIN + column * (NODE_WIDTH + COLUMN_GAP)
            y = MARGIN + 20 + row * (NODE_HEIGHT + ROW_GAP)
            positions[node.id] = (x, y)
    return positions


def _natural(node_id: str) -> tuple[str, int, str]:
    """Sort "A2" before "A10": the ids are a prefix and a number in practice."""
    match = _TRAILING_NUMBER.fullmatch(node_id)
    if match is None:
        return (node_id, -1, node_id)
    return (match.group(1), int(match.group(2)), node_id)


def _canvas_size(positions: dict[str, tuple[int, int]]) -> tuple[int, int]:
    if not positions:
        return LEGEND_WIDTH, 2 * MARGIN + NODE_HEIGHT
    right = max(x for x, _ in positions.values()) + NODE_WIDTH + MARGIN
    bottom = max(y for _, y in positions.values()) + NODE_HEIGHT + MARGIN
    return max(right, LEGEND_WIDTH), bottom


def _node(node: GraphNode, at: tuple[int, int], words: GraphWords) -> str:
    x, y = at
    counted = node.label in LABEL_STYLES
    label = node.label if counted else "UNCOUNTED"
    fill, stroke, ink = LABEL_STYLES[node.label] if counted else UNCOUNTED_NODE
    word = label if counted else words.not_counted
    extra = "" if counted else ' stroke-dasharray="4 3" opacity="0.55"'
    claim = _short(node.claim, CLAIM_CHARS)
    tooltip = words.node_tooltip % {
        "id": node.id,
        "label": word,
        "speaker": node.speaker,
        "round": node.round,
        "claim": node.claim,
    }
    return (
        f'<g class="node {label.lower()}" data-id={quoteattr(node.id)}>'
        f"<title>{escape(tooltip)}</title>"
        f'<rect x="{x}" y="{y}" width="{NODE_WIDTH}" height="{NODE_HEIGHT}" rx="8" '
        f'fill="{fill}" stroke="{stroke}" stroke-width="2"{extra}/>'
        f'<text x="{x + 10}" y="{y + 18}" font-size="13" font-weight="700" fill="{ink}">'
        f"{escape(_short(node.id, 10))}</text>"
        f'<text x="{x + NODE_WIDTH - 10}" y="{y + 18}" font-size="11" font-weight="600" '
        f'text-anchor="end" fill="{ink}">{escape(word)}</text>'
        f'<text x="{x + 10}" y="{y + 35}" font-size="11" fill="{ink}">'
        f"{escape(_short(node.speaker, SPEAKER_CHARS))}</text>"
        f'<text x="{x + 10}" y="{y + 52}" font-size="12" fill="{ink}">{escape(claim)}</text>'
        "</g>"
    )


def _short(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _edge(edge: GraphEdge, positions: dict[str, tuple[int, int]], words: GraphWords) -> str:
    kind = edge.kind if edge.kind in ATTACK_STYLES else "rebut"
    colour, dash = ATTACK_STYLES[kind]
    path = _edge_path(positions[edge.source], positions[edge.target])
    dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
    faint = "" if edge.counted else ' opacity="0.3"'
    state = "counted" if edge.counted else "uncounted"
    # Rebutting is mutual in the framework: show it with a head at each end.
    start = f' marker-start="url(#arrow-{kind})"' if kind == "rebut" else ""
    tooltip = words.attacks[kind] % {"source": edge.source, "target": edge.target}
    if not edge.counted:
        tooltip = words.uncounted_attack % {"attack": tooltip}
    return (
        f'<path class="edge {kind} {state}" d="{path}" fill="none" stroke="{colour}" '
        f'stroke-width="2"{dash_attr}{faint}{start} marker-end="url(#arrow-{kind})">'
        f"<title>{escape(tooltip)}</title></path>"
    )


def _edge_path(source: tuple[int, int], target: tuple[int, int]) -> str:
    """A cubic curve between node sides; same-column edges bow out to the right."""
    (sx, sy), (tx, ty) = source, target
    s_mid, t_mid = sy + NODE_HEIGHT // 2, ty + NODE_HEIGHT // 2
    if source == target:
        right, top = sx + NODE_WIDTH, sy + 8
        return f"M{right},{top + 10} C{right + 40},{top - 20} {right + 40},{top + 40} {right},{top + 30}"
    if sx == tx:
        right = sx + NODE_WIDTH
        bow = right + 40 + abs(s_mid - t_mid) // 4
        return f"M{right},{s_mid} C{bow},{s_mid} {bow},{t_mid} {right + 4},{t_mid}"
    if sx > tx:
        start, end = (sx, s_mid), (tx + NODE_WIDTH + 4, t_mid)
    else:
        start, end = (sx + NODE_WIDTH, s_mid), (tx - 4, t_mid)
    bend = (end[0] - start[0]) // 2
    return (
        f"M{start[0]},{start[1]} C{start[0] + bend},{start[1]} "
        f"{end[0] - bend},{end[1]} {end[0]},{end[1]}"
    )


def _markers() -> str:
    markers = [
        f'<marker id="arrow-{kind}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
        f'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
        f'fill="{colour}"/></marker>'
        for kind, (colour, _) in ATTACK_STYLES.items()
    ]
    return "<defs>" + "".join(markers) + "</defs>"


def _legend(*, top: int, words: GraphWords) -> str:
    parts = [f'<g class="legend" transform="translate({MARGIN},{top})" font-size="12">']
    x = 0
    for label, (fill, stroke, ink) in LABEL_STYLES.items():
        parts.append(
            f'<rect x="{x}" y="0" width="14" height="14" rx="3" fill="{fill}" stroke="{stroke}"/>'
            f'<text x="{x + 20}" y="12" fill="{ink}">{label}</text>'
        )
        x += 80
    x = 0
    for kind, (colour, dash) in ATTACK_STYLES.items():
        name = words.kinds.get(kind, kind)
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        start = f' marker-start="url(#arrow-{kind})"' if kind == "rebut" else ""
        parts.append(
            f'<line x1="{x + 4}" y1="36" x2="{x + 34}" y2="36" stroke="{colour}" stroke-width="2"'
            f'{dash_attr}{start} marker-end="url(#arrow-{kind})"/>'
            f'<text x="{x + 42}" y="40" fill="#1d2330">{escape(name)}</text>'
        )
        # Room for the name as written (about 7 px a character at this size), any language.
        x += max(120, 42 + 7 * len(name) + 18)
    parts.append(f'<text x="0" y="64" fill="#5b6475">{escape(words.faint)}</text>')
    parts.append("</g>")
    return "".join(parts)


def _description(nodes: list[GraphNode], edges: list[GraphEdge], words: GraphWords) -> str:
    counts = {label: sum(1 for n in nodes if n.label == label) for label in LABEL_STYLES}
    counted = sum(1 for e in edges if e.counted)
    return words.description % {"arguments": len(nodes), "counted": counted, **counts}
