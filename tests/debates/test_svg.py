"""The argument graph as SVG: labels as colours, attack types as strokes, text escaped."""

import xml.etree.ElementTree as ET

from debates.svg import (
    ATTACK_STYLES,
    LABEL_STYLES,
    GraphEdge,
    GraphNode,
    GraphWords,
    render_graph_svg,
)
from tests.debates.graph_geometry import boxes, crossings
from tests.debates.graph_geometry import edges as drawn_edges
from tests.debates.graph_geometry import labels as drawn_labels

SVG = "{http://www.w3.org/2000/svg}"


def sample_graph() -> tuple[list[GraphNode], list[GraphEdge]]:
    nodes = [
        GraphNode(id="A1", label="IN", speaker="Economist", round=0, claim="Taxes fund schools"),
        GraphNode(id="A2", label="OUT", speaker="Ethicist", round=0, claim="Taxes are theft"),
        GraphNode(id="A3", label="UNDEC", speaker="Ethicist", round=1, claim="Schools waste"),
        GraphNode(id="A4", label="UNDEC", speaker="Economist", round=1, claim="Audits show little"),
    ]
    edges = [
        GraphEdge(source="A1", target="A2", kind="rebut"),
        GraphEdge(source="A3", target="A1", kind="undermine"),
        GraphEdge(source="A4", target="A3", kind="undercut"),
        GraphEdge(source="A3", target="A4", kind="rebut", counted=False),
    ]
    return nodes, edges


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def node_groups(root: ET.Element) -> dict[str, ET.Element]:
    return {
        g.get("data-id"): g
        for g in root.iter(f"{SVG}g")
        if (g.get("class") or "").startswith("node ")
    }


def test_it_colours_each_node_by_its_label() -> None:
    nodes, edges = sample_graph()
    groups = node_groups(parse(render_graph_svg(nodes=nodes, edges=edges)))
    assert set(groups) == {"A1", "A2", "A3", "A4"}
    for node in nodes:
        rect = groups[node.id].find(f"{SVG}rect")
        fill, stroke, _ = LABEL_STYLES[node.label]
        assert (rect.get("fill"), rect.get("stroke")) == (fill, stroke)
        # The label is said in words too (GraphWords' defaults), not only in colour.
        assert GraphWords().labels[node.label] in "".join(groups[node.id].itertext())


def test_it_styles_each_edge_by_its_attack_type() -> None:
    nodes, edges = sample_graph()
    paths = [
        p
        for p in parse(render_graph_svg(nodes=nodes, edges=edges)).iter(f"{SVG}path")
        if (p.get("class") or "").startswith("edge ")
    ]
    assert len(paths) == len(edges)
    for path in paths:
        kind = path.get("class").split()[1]
        colour, dash = ATTACK_STYLES[kind]
        assert path.get("stroke") == colour
        assert path.get("stroke-dasharray") == (dash or None)
    dashes = {ATTACK_STYLES[k][1] for k in ("rebut", "undermine", "undercut")}
    assert len(dashes) == 3, "the three types must differ without relying on colour"


def test_it_draws_uncounted_attacks_faint() -> None:
    nodes, edges = sample_graph()
    root = parse(render_graph_svg(nodes=nodes, edges=edges))
    states = {
        p.get("class").split()[2]: p.get("opacity")
        for p in root.iter(f"{SVG}path")
        if (p.get("class") or "").startswith("edge ")
    }
    assert states == {"counted": None, "uncounted": "0.3"}


def test_it_escapes_model_text() -> None:
    hostile = GraphNode(
        id='A"1',
        label="IN",
        speaker="<b>Bob</b>",
        round=0,
        claim="<script>alert(1)</script> & more",
    )
    svg = render_graph_svg(nodes=[hostile], edges=[], title="<i>t</i>")
    assert "<script>" not in svg and "<b>" not in svg and "<i>" not in svg
    root = parse(svg)
    text = "".join(root.itertext())
    assert "<script>alert(1)</script> & more" in text
    assert "<b>Bob</b>" in text
    assert root.find(f"{SVG}title").text == "<i>t</i>"
    assert list(node_groups(root)) == ['A"1']


def test_it_lays_out_the_same_graph_the_same_way_whatever_the_input_order() -> None:
    nodes, edges = sample_graph()
    first = render_graph_svg(nodes=nodes, edges=edges)
    again = render_graph_svg(nodes=list(reversed(nodes)), edges=list(reversed(edges)))
    assert first == again


def test_it_puts_what_is_attacked_above_its_attackers() -> None:
    nodes, edges = sample_graph()
    drawn = boxes(render_graph_svg(nodes=nodes, edges=edges))
    top = {node_id: box[1] for node_id, box in drawn.items()}
    assert top["A1"] < top["A3"] < top["A4"]
    # Every attack is drawn, from its attacker to what it attacks.
    assert {(s, t) for s, t, _ in drawn_edges(render_graph_svg(nodes=nodes, edges=edges))} == {
        (e.source, e.target) for e in edges
    }


def test_it_routes_no_attack_through_another_arguments_box() -> None:
    # A hub attacked from three layers down: the old columns drew A1->A5 through A3.
    nodes = [
        GraphNode(id=f"A{n}", label="IN", speaker=f"S{n % 2}", round=n // 2, claim=f"c{n}")
        for n in range(1, 8)
    ]
    edges = [
        GraphEdge(source="A3", target="A1", kind="rebut"),
        GraphEdge(source="A4", target="A3", kind="undermine"),
        GraphEdge(source="A5", target="A4", kind="undercut"),
        GraphEdge(source="A5", target="A1", kind="undermine"),
        GraphEdge(source="A6", target="A1", kind="undercut"),
        GraphEdge(source="A7", target="A2", kind="rebut"),
        GraphEdge(source="A2", target="A7", kind="rebut"),
    ]
    svg = render_graph_svg(nodes=nodes, edges=edges)
    assert crossings(svg) == []
    assert len(drawn_edges(svg)) == len(edges)


def test_it_heads_a_node_with_its_title_not_its_key() -> None:
    node = GraphNode(
        id="groundsBacking", label="IN", speaker="You", round=0, claim="c", title="Backing"
    )
    svg = render_graph_svg(nodes=[node], edges=[])
    assert "Backing" in drawn_labels(svg)
    assert not any("groundsBa" in text for text in drawn_labels(svg))


def test_it_skips_edges_to_unknown_nodes_and_draws_an_empty_graph() -> None:
    node = GraphNode(id="A1", label="IN", speaker="S", round=0, claim="c")
    root = parse(render_graph_svg(nodes=[node], edges=[GraphEdge("A1", "Z9", "rebut")]))
    assert not [p for p in root.iter(f"{SVG}path") if (p.get("class") or "").startswith("edge")]
    empty = parse(render_graph_svg(nodes=[], edges=[]))
    assert "0 arguments" in empty.find(f"{SVG}desc").text


def test_it_draws_arguments_outside_the_framework_faint_and_unlabelled() -> None:
    nodes = [
        GraphNode(id="A1", label="IN", speaker="S", round=0, claim="kept"),
        GraphNode(id="A2", label="", speaker="T", round=1, claim="its attack failed validation"),
    ]
    edges = [GraphEdge(source="A2", target="A1", kind="undermine", counted=False)]
    groups = node_groups(parse(render_graph_svg(nodes=nodes, edges=edges)))
    faint = groups["A2"]
    assert faint.get("class") == "node uncounted"
    assert faint.find(f"{SVG}rect").get("opacity") is not None
    assert "not counted" in "".join(faint.itertext())
    assert not any(label in "".join(faint.itertext()) for label in ("IN", "OUT", "UNDEC"))


def test_it_gives_rebuttals_a_head_at_each_end_because_they_are_mutual() -> None:
    nodes, edges = sample_graph()
    paths = {
        p.get("class").split()[1]: p
        for p in parse(render_graph_svg(nodes=nodes, edges=edges[:3])).iter(f"{SVG}path")
        if (p.get("class") or "").startswith("edge ")
    }
    assert paths["rebut"].get("marker-start") == "url(#arrow-rebut)"
    assert paths["undermine"].get("marker-start") is None
    assert paths["undercut"].get("marker-start") is None


def test_it_says_its_own_words_in_the_language_it_is_given() -> None:
    words = GraphWords(
        not_counted="no contado",
        labels={"IN": "se sostiene", "OUT": "derrotado", "UNDEC": "sin decidir"},
        node_tooltip="%(id)s (%(label)s) — %(speaker)s, ronda %(round)s: %(claim)s",
        kinds={"rebut": "refutar", "undermine": "socavar", "undercut": "cortar la inferencia"},
        attacks={
            "rebut": "%(source)s refuta a %(target)s",
            "undermine": "%(source)s socava una premisa de %(target)s",
            "undercut": "%(source)s corta la inferencia de %(target)s",
        },
        uncounted_attack="%(attack)s (no contado)",
        faint="tenue: no contado (no válido o duplicado)",
        description="%(arguments)s argumentos (%(IN)s se sostienen, %(OUT)s derrotados, "
        "%(UNDEC)s sin decidir) y %(counted)s ataques contados.",
    )
    nodes, edges = sample_graph()
    root = parse(render_graph_svg(nodes=nodes, edges=edges, words=words))
    text = "".join(root.itertext())

    assert (
        root.find(f"{SVG}desc").text
        == "4 argumentos (1 se sostienen, 1 derrotados, 2 sin decidir) y 3 ataques contados."
    )
    assert "A1 (se sostiene) — Economist, ronda 0: Taxes fund schools" in text
    # The formal labels stay in the nodes' classes, never in the words drawn.
    drawn = [t.text for t in root.iter(f"{SVG}text")]
    assert not {"IN", "OUT", "UNDEC"} & set(drawn)
    assert {"se sostiene", "derrotado", "sin decidir"} <= set(drawn)
    assert node_groups(root)["A1"].get("class") == "node in"
    assert "A3 socava una premisa de A1" in text
    assert "A3 refuta a A4 (no contado)" in text
    assert "cortar la inferencia" in text and "tenue: no contado" in text
    assert not any(word in text for word in ("round", "rebuts", "counted attacks", "faint"))
    # The longest legend name does not run into the next one.
    legend = [t for t in root.iter(f"{SVG}text") if t.text in words.kinds.values()]
    xs = [int(t.get("x")) for t in legend]
    assert xs == sorted(xs) and xs[2] - xs[1] >= 7 * len("socavar")
