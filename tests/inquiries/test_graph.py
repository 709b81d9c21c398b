"""The inquiry graph as data, and the route the engine walks through it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from inquiries.graph import EDGES, NODES, RESEND, RouteFacts, route

NAMES = [n.name for n in NODES]


def facts(*, rejected=(), evidence=(), stopped=None):
    stopped = stopped or {}
    return RouteFacts(
        rejected=lambda node, round: (node, round) in rejected,
        evidence_requested=lambda round: round in evidence,
        stopped=lambda round: stopped.get(round),
    )


def walk(f: RouteFacts, limit: int = 60) -> list[tuple[str, int]]:
    done: list[tuple[str, int]] = []
    while (step := route(frozenset(done), f)) is not None and len(done) < limit:
        done.append(step)
    return done


def test_the_graph_has_the_issue_s_nodes_in_order() -> None:
    assert NAMES == [
        "advocate_opening",
        "sanad_breaker_challenge",
        "observer_critiques",
        "advocate_rebuttal",
        "evidence_call_retrieval",
        "arbiter_close",
        "stop_condition_check",
        "muhasabah_validate_all",
        "finalize_outputs",
    ]
    observers = next(n for n in NODES if n.name == "observer_critiques")
    assert observers.agents == ("contradiction_finder", "risk_officer")


def test_every_edge_joins_known_nodes_and_the_loop_goes_back_to_the_challenge() -> None:
    assert all(e.source in NAMES and e.target in NAMES for e in EDGES)
    loop = [e for e in EDGES if e.condition == "continue"]
    assert [(e.source, e.target) for e in loop] == [
        ("stop_condition_check", "sanad_breaker_challenge")
    ]


def test_a_run_that_stops_in_round_one_ends_with_validation_and_finalize() -> None:
    steps = walk(facts(stopped={1: True}))
    assert steps[0] == ("advocate_opening", 1)
    assert ("evidence_call_retrieval", 1) not in steps
    assert steps[-2:] == [("muhasabah_validate_all", 1), ("finalize_outputs", 1)]


def test_it_loops_retrieves_when_asked_and_resends_rejected_nodes() -> None:
    steps = walk(
        facts(
            rejected={("observer_critiques", 2)},
            evidence={1},
            stopped={1: False, 2: True},
        )
    )
    assert ("evidence_call_retrieval", 1) in steps and ("evidence_call_retrieval", 2) not in steps
    assert ("advocate_opening", 2) not in steps  # the opening happens once
    i = steps.index(("observer_critiques", 2))
    assert steps[i + 1] == ("observer_critiques" + RESEND, 2)
    assert steps[-1] == ("finalize_outputs", 2)


MODEL_NODE_NAMES = [n.name for n in NODES if n.kind == "model"]


@given(
    stop_round=st.integers(min_value=1, max_value=5),
    evidence=st.sets(st.integers(min_value=1, max_value=5)),
    rejected=st.sets(
        st.tuples(st.sampled_from(MODEL_NODE_NAMES), st.integers(min_value=1, max_value=5))
    ),
)
def test_every_walk_follows_the_edges_and_ends_in_finalize(stop_round, evidence, rejected) -> None:
    stopped = {r: r == stop_round for r in range(1, stop_round + 1)}
    steps = walk(facts(rejected=rejected, evidence=evidence, stopped=stopped))

    assert len(steps) == len(set(steps))
    assert steps[-2:] == [("muhasabah_validate_all", stop_round), ("finalize_outputs", stop_round)]
    edges = {(e.source, e.target) for e in EDGES}
    plain = [(name, r) for name, r in steps if not name.endswith(RESEND)]
    for (a, _ra), (b, _rb) in zip(plain, plain[1:], strict=False):
        assert (a, b) in edges
    for i, (name, r) in enumerate(steps):
        if name.endswith(RESEND):
            assert steps[i - 1] == (name.removesuffix(RESEND), r)
    ran = set(steps)
    for r in range(1, stop_round + 1):
        assert (("evidence_call_retrieval", r) in ran) == (r in evidence)
    for node_name, r in rejected:
        assert ((node_name + RESEND, r) in ran) == ((node_name, r) in ran)
