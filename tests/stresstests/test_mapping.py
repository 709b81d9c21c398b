"""The student's elements as one engine argument, and back: known answers and a property.

The property ties the two places the ASPIC+ type rule is enforced: the graph
debate's attack filter (debates.stages._misfit, on the argument the personas
see) accepts an attack exactly when argumentation.toulmin_graph accepts it on
the element it hits.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from argumentation.toulmin_graph import Attack, build_graph
from debates.stages import _misfit
from debates.state import ArgumentView
from stresstests.mapping import as_argument, element_of

FULL = {
    "claim": "C",
    "grounds": "G",
    "warrant": "W",
    "groundsBacking": "GB",
    "warrantBacking": "WB",
    "qualifier": "Q",
    "rebuttal": "R",
}


def _view(elements) -> ArgumentView:
    shape = as_argument(elements)
    return ArgumentView(
        id=1,
        key="A1",
        speaker_id=1,
        speaker="Student",
        round=0,
        claim=shape.claim,
        premises=shape.premises,
        assumptions=shape.assumptions,
        evidence=(),
        origin="initial",
        origin_attack_id=None,
    )


def test_it_gives_the_personas_the_grounds_and_backings_as_premises() -> None:
    shape = as_argument(FULL)
    assert shape.premises == ("G", "GB", "WB")
    assert shape.premise_elements == ("grounds", "groundsBacking", "warrantBacking")
    assert shape.assumptions == ("W",)


def test_it_maps_components_back_to_elements() -> None:
    partial = dict(FULL, groundsBacking="")
    assert element_of(partial, component="claim", index=0) == "claim"
    assert element_of(partial, component="premise", index=0) == "grounds"
    assert element_of(partial, component="premise", index=1) == "warrantBacking"
    assert element_of(partial, component="premise", index=2) is None
    assert element_of(partial, component="assumption", index=0) == "warrant"
    assert element_of(partial, component="assumption", index=1) is None
    assert element_of(partial, component="claim", index=1) is None


optional = st.sampled_from(["", "text"])


@given(
    gb=optional,
    wb=optional,
    type_=st.sampled_from(["rebut", "undermine", "undercut"]),
    component=st.sampled_from(["claim", "premise", "assumption"]),
    index=st.integers(min_value=0, max_value=3),
)
def test_the_debate_filter_and_the_toulmin_mapping_agree(gb, wb, type_, component, index) -> None:
    elements = dict(FULL, groundsBacking=gb, warrantBacking=wb)
    accepted_by_debates = not _misfit(
        _view(elements), type_=type_, component=component, index=index
    )
    element = element_of(elements, component=component, index=index)
    accepted_by_mapping = (
        element is not None
        and not build_graph(
            elements=elements, attacks=[Attack(id="X", type=type_, target=element)]
        ).refused
    )
    assert accepted_by_debates == accepted_by_mapping
