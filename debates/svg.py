"""Draw a debate's argument graph as a self-contained SVG, on the server.

Pure code over plain data: no Django, no model rows. The views turn rows into
:class:`GraphNode` / :class:`GraphEdge` and hand them here, so the drawing can
be tested on hand-built graphs and the same picture comes out for the same
debate every time (no randomness, no force simulation).

Layout: a layered (Sugiyama) drawing by grandalf, a small pure-Python layout
library, rather than hand-placed coordinates: what is attacked sits above its
attackers, layer by layer, the order inside a layer is chosen to reduce
crossings, and an attack that spans several layers is routed through its own
slots in the layers between, so no line is drawn through another argument's
box. Separate pieces of the graph sit side by side. A node is headed by the
words the reader knows it by (``GraphNode.title``: "Grounds", "Objection 2"),
its id only when it has none. Edges run from the attacker to the attacked
argument.

Styling carries meaning twice, so that neither colour nor dashes alone must be
read: a node's label (IN / OUT / UNDEC) is its fill colour *and* a word in the
node; an attack's type is its stroke colour *and* its dash pattern. A rebut
has arrowheads at both ends, because rebutting is mutual in the framework
(debates/graph.py). What the semantics did not count (an attack judged
invalid or a duplicate, and the counter-argument it would have added) is drawn
faint, with an empty label: it is shown for the record, not judged.

Every piece of model text is escaped for XML: a claim containing ``<script>``
is text in a ``<text>`` element, never markup.

The picture's own words (legend, tooltips, description, and the labels in
plain words: "stands", "defeated", "undecided") come in a :class:`GraphWords`,
English by default: the site passes them translated into the page's language,
and this module stays free of Django. The formal labels IN / OUT / UNDEC stay
in each node's class, where a script or a stylesheet reads them, never in the
words a reader reads.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from xml.sax.saxutils import escape, quoteattr

from grandalf.graphs import Edge, Graph, Vertex
from grandalf.layouts import SugiyamaLayout
from grandalf.routing import EdgeViewer, route_with_lines

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
COLUMN_GAP = 40  # between the pieces of a graph, and (half of it) between nodes of a layer
ROW_GAP = 56  # between layers: room for the lines and their arrowheads
ROW_WIDTH = 3 * NODE_WIDTH + 2 * COLUMN_GAP  # pieces side by side up to this width
MARGIN = 24
LEGEND_HEIGHT = 84
LEGEND_WIDTH = 640
CLAIM_CHARS = 24
HEADING_CHARS = 24
SPEAKER_CHARS = 18
_TRAILING_NUMBER = re.compile(r"(.*?)(\d+)")


@dataclass(frozen=True, slots=True)
class GraphNode:
    """One argument: ``id`` is what attacks refer to; ``label`` IN/OUT/UNDEC, "" if not counted."""

    id: str
    label: str
    speaker: str
    round: int
    claim: str
    # The words the reader knows this node by; "" shows the id.
    title: str = ""

    @property
    def heading(self) -> str:
        return self.title or self.id


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
    # formal label -> the word shown in the node, its tooltip and the legend
    labels: Mapping[str, str] = field(
        default_factory=lambda: {"IN": "stands", "OUT": "defeated", "UNDEC": "undecided"}
    )
    # "A3 (stands) — The Empiricist, round 1: claim"
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
        "%(arguments)s arguments (%(IN)s standing, %(OUT)s defeated, %(UNDEC)s undecided) "
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
    positions, routes = _layout(nodes, edges)
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
            parts.append(_edge(edge, positions, routes, words, by_id))
    parts.append("</g>")
    parts.append('<g class="nodes">')
    for node_id in sorted(positions, key=lambda key: positions[key]):
        parts.append(_node(by_id[node_id], positions[node_id], words))
    parts.append("</g>")
    parts.append(_legend(top=height, words=words))
    parts.append("</svg>")
    return "\n".join(parts)


Point = tuple[float, float]


class _Box:
    """The size grandalf lays a node out with; it writes the centre into ``xy``."""

    def __init__(self, w: float, h: float) -> None:
        self.w, self.h, self.xy = w, h, (0.0, 0.0)


def _layout(
    nodes: list[GraphNode], edges: list[GraphEdge]
) -> tuple[dict[str, tuple[int, int]], dict[tuple[str, str], list[Point]]]:
    """Top-left corner of each node, and each attack's route (attacker to attacked).

    The layout graph points from the earlier argument (by round, then id: the
    attacked one, as a rule) down to the later (a mutual rebuttal once); grandalf layers it, orders
    the layers and gives every edge that skips a layer a slot of its own there.
    Inputs are sorted first, so the same graph is drawn the same way every time.
    """
    ordered = sorted(nodes, key=lambda n: (n.round, _natural(n.id)))
    rank = {node.id: index for index, node in enumerate(ordered)}
    vertices = {node.id: Vertex(node.id) for node in ordered}
    for vertex in vertices.values():
        vertex.view = _Box(NODE_WIDTH, NODE_HEIGHT)
    pairs: list[tuple[str, str]] = []
    for edge in sorted(edges, key=lambda e: (rank.get(e.target, -1), rank.get(e.source, -1))):
        if edge.source not in rank or edge.target not in rank or edge.source == edge.target:
            continue
        # The earlier argument above: an attack's target, the first of a mutual rebuttal.
        upper, lower = sorted((edge.target, edge.source), key=rank.__getitem__)
        if (upper, lower) not in pairs:
            pairs.append((upper, lower))
    layout_edges = []
    for upper, lower in pairs:
        link = Edge(vertices[upper], vertices[lower])
        link.view = EdgeViewer()
        layout_edges.append(link)
    graph = Graph(list(vertices.values()), layout_edges)

    positions: dict[str, tuple[int, int]] = {}
    routes: dict[tuple[str, str], list[Point]] = {}
    # The pieces go left to right in rows no wider than ROW_WIDTH (or the widest piece),
    # so a debate of many small exchanges stays legible when scaled to a screen.
    x_offset, y_offset, row_bottom = float(MARGIN), float(MARGIN + 20), float(MARGIN + 20)
    for piece in graph.C:
        layout = SugiyamaLayout(piece)
        layout.xspace, layout.yspace = COLUMN_GAP // 2, ROW_GAP
        layout.route_edge = route_with_lines
        layout.init_all()
        layout.draw(3)
        # The piece's extent counts its edges' bends too (the slots between layers).
        bends = [p for link in piece.sE for p in (getattr(link.view, "_pts", None) or [])]
        xs = [v.view.xy[0] for v in piece.sV]
        left = min([x - NODE_WIDTH / 2 for x in xs] + [p[0] for p in bends])
        right = max([x + NODE_WIDTH / 2 for x in xs] + [p[0] for p in bends])
        top = min(v.view.xy[1] - NODE_HEIGHT / 2 for v in piece.sV)
        bottom = max(v.view.xy[1] + NODE_HEIGHT / 2 for v in piece.sV)
        if x_offset > MARGIN and x_offset + (right - left) > MARGIN + ROW_WIDTH:
            x_offset, y_offset = float(MARGIN), row_bottom + ROW_GAP
        dx, dy = x_offset - left, y_offset - top

        def moved(point: Point, dx: float = dx, dy: float = dy) -> Point:
            return (round(point[0] + dx, 1), round(point[1] + dy, 1))

        for vertex in piece.sV:
            cx, cy = moved(vertex.view.xy)
            positions[vertex.data] = (round(cx - NODE_WIDTH / 2), round(cy - NODE_HEIGHT / 2))
        for link in piece.sE:
            points = getattr(link.view, "_pts", None) or [link.v[0].view.xy, link.v[1].view.xy]
            routes[(link.v[0].data, link.v[1].data)] = [moved(p) for p in points]
        x_offset += right - left + COLUMN_GAP
        row_bottom = max(row_bottom, bottom + dy)
    return positions, routes


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
    word = words.labels.get(label, label) if counted else words.not_counted
    extra = "" if counted else ' stroke-dasharray="4 3" opacity="0.55"'
    claim = _short(node.claim, CLAIM_CHARS)
    tooltip = words.node_tooltip % {
        "id": node.heading,
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
        # The heading has the first line to itself (a part's name in any language);
        # who put it and where it stands share the second.
        f'<text x="{x + 10}" y="{y + 18}" font-size="12" font-weight="700" fill="{ink}">'
        f"{escape(_short(node.heading, HEADING_CHARS))}</text>"
        f'<text x="{x + NODE_WIDTH - 10}" y="{y + 35}" font-size="11" font-weight="600" '
        f'text-anchor="end" fill="{ink}">{escape(word)}</text>'
        f'<text x="{x + 10}" y="{y + 35}" font-size="11" fill="{ink}">'
        f"{escape(_short(node.speaker, SPEAKER_CHARS))}</text>"
        f'<text x="{x + 10}" y="{y + 52}" font-size="12" fill="{ink}">{escape(claim)}</text>'
        "</g>"
    )


def _short(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _edge(
    edge: GraphEdge,
    positions: dict[str, tuple[int, int]],
    routes: dict[tuple[str, str], list[Point]],
    words: GraphWords,
    by_id: Mapping[str, GraphNode],
) -> str:
    kind = edge.kind if edge.kind in ATTACK_STYLES else "rebut"
    colour, dash = ATTACK_STYLES[kind]
    if (edge.target, edge.source) in routes:
        path = _polyline(list(reversed(routes[(edge.target, edge.source)])))
    elif (edge.source, edge.target) in routes:
        path = _polyline(routes[(edge.source, edge.target)])
    else:  # an argument attacking itself
        path = _edge_path(positions[edge.source], positions[edge.target])
    dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
    faint = "" if edge.counted else ' opacity="0.3"'
    state = "counted" if edge.counted else "uncounted"
    # Rebutting is mutual in the framework: show it with a head at each end.
    start = f' marker-start="url(#arrow-{kind})"' if kind == "rebut" else ""
    tooltip = words.attacks[kind] % {
        "source": by_id[edge.source].heading,
        "target": by_id[edge.target].heading,
    }
    if not edge.counted:
        tooltip = words.uncounted_attack % {"attack": tooltip}
    return (
        f'<path class="edge {kind} {state}" data-source={quoteattr(edge.source)} '
        f'data-target={quoteattr(edge.target)} d="{path}" fill="none" stroke="{colour}" '
        f'stroke-width="2"{dash_attr}{faint}{start} marker-end="url(#arrow-{kind})">'
        f"<title>{escape(tooltip)}</title></path>"
    )


def _polyline(points: list[Point]) -> str:
    """Straight segments through the route's points (border to border)."""
    return "M" + " L".join(f"{_num(x)},{_num(y)}" for x, y in points)


def _num(value: float) -> str:
    return f"{value:g}"


def _edge_path(source: tuple[int, int], target: tuple[int, int]) -> str:
    """A loop on the node's right side: an argument that attacks itself."""
    sx, sy = source
    right, top = sx + NODE_WIDTH, sy + 8
    return (
        f"M{right},{top + 10} C{right + 40},{top - 20} {right + 40},{top + 40} {right},{top + 30}"
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
            f'<text x="{x + 20}" y="12" fill="{ink}">{escape(words.labels.get(label, label))}</text>'
        )
        x += max(80, 20 + 7 * len(words.labels.get(label, label)) + 18)
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
