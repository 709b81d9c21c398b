"""The ASPIC+ attack type <-> target component rule (argumentation.attack_types)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from argumentation.attack_types import (
    ATTACK_TARGETS,
    COMPONENT_KINDS,
    MismatchCode,
    attack_mismatch,
    component_kind,
)

# Written out by hand from Modgil & Prakken (2014), independent of the module's tables.
FITS = {
    ("rebut", "claim"): True,
    ("rebut", "premise"): False,
    ("rebut", "assumption"): False,
    ("undermine", "claim"): False,
    ("undermine", "premise"): True,
    ("undermine", "assumption"): False,
    ("undercut", "claim"): False,
    ("undercut", "premise"): False,
    ("undercut", "assumption"): True,
}
INDEPENDENT_KIND = {
    "claim": "C",
    "conclusion": "C",
    "premise": "P",
    "grounds": "P",
    "backing": "P",
    "inference": "I",
    "assumption": "I",
    "warrant": "I",
}
INDEPENDENT_TARGET = {"rebut": "C", "undermine": "P", "undercut": "I"}


@pytest.mark.parametrize(("attack_type", "component"), sorted(FITS))
def test_it_knows_every_type_and_debate_component_pair(attack_type, component):
    mismatch = attack_mismatch(attack_type=attack_type, component=component, index=0, available=1)

    if FITS[attack_type, component]:
        assert mismatch is None
    else:
        assert mismatch is not None and mismatch.code == MismatchCode.WRONG_TYPE
        assert attack_type in mismatch.message and component in mismatch.message


def test_it_says_which_type_would_fit():
    mismatch = attack_mismatch(attack_type="rebut", component="premise", index=0, available=2)

    assert (
        mismatch.message
        == "A rebut cannot target a premise: a premise is attacked by an undermine."
    )


@pytest.mark.parametrize(
    ("component", "kind"),
    [
        ("assumption", "inference"),
        ("warrant", "inference"),
        ("grounds", "premise"),
        ("backing", "premise"),
        ("conclusion", "claim"),
        ("qualifier", None),
    ],
)
def test_it_maps_debate_and_toulmin_names_to_aspic_kinds(component, kind):
    assert component_kind(component) == kind


@pytest.mark.parametrize(
    ("component", "index", "available"),
    [("claim", 1, 1), ("premise", 2, 2), ("assumption", 0, 0), ("premise", -1, 3)],
)
def test_it_refuses_a_component_that_does_not_exist(component, index, available):
    attack_type = {"claim": "rebut", "premise": "undermine", "assumption": "undercut"}[component]

    mismatch = attack_mismatch(
        attack_type=attack_type, component=component, index=index, available=available
    )

    assert mismatch.code == MismatchCode.NO_SUCH_COMPONENT
    assert str(index) in mismatch.message


def test_it_reports_the_wrong_type_before_the_missing_index():
    mismatch = attack_mismatch(attack_type="rebut", component="premise", index=7, available=1)

    assert mismatch.code == MismatchCode.WRONG_TYPE


def test_it_refuses_unknown_types_and_components():
    assert (
        attack_mismatch(attack_type="attack", component="claim", index=0, available=1).code
        == MismatchCode.UNKNOWN_TYPE
    )
    assert (
        attack_mismatch(attack_type="rebut", component="qualifier", index=0, available=1).code
        == MismatchCode.UNKNOWN_COMPONENT
    )


@given(
    attack_type=st.sampled_from([*INDEPENDENT_TARGET, "support", ""]),
    component=st.sampled_from([*INDEPENDENT_KIND, "qualifier", ""]),
    index=st.integers(min_value=-3, max_value=6),
    available=st.integers(min_value=0, max_value=5),
)
def test_it_agrees_with_an_independent_table(attack_type, component, index, available):
    mismatch = attack_mismatch(
        attack_type=attack_type, component=component, index=index, available=available
    )

    if attack_type not in INDEPENDENT_TARGET:
        expected = MismatchCode.UNKNOWN_TYPE
    elif component not in INDEPENDENT_KIND:
        expected = MismatchCode.UNKNOWN_COMPONENT
    elif INDEPENDENT_TARGET[attack_type] != INDEPENDENT_KIND[component]:
        expected = MismatchCode.WRONG_TYPE
    elif not 0 <= index < available:
        expected = MismatchCode.NO_SUCH_COMPONENT
    else:
        expected = None
    assert (mismatch.code if mismatch else None) == expected


def test_it_gives_each_kind_exactly_one_attack_type():
    targeted = [kind for kinds in ATTACK_TARGETS.values() for kind in kinds]

    assert sorted(targeted) == sorted(set(COMPONENT_KINDS.values()))
