"""credulous_acceptance / skeptical_acceptance with witness=False give the same answers."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from argumentation import ArgumentationFramework, credulous_acceptance, skeptical_acceptance


@st.composite
def frameworks(draw: st.DrawFn) -> ArgumentationFramework:
    n = draw(st.integers(1, 9))
    arguments = list(range(1, n + 1))
    pairs = [(a, b) for a in arguments for b in arguments]
    return ArgumentationFramework(arguments, draw(st.lists(st.sampled_from(pairs), max_size=20)))


@settings(max_examples=150, deadline=None)
@given(af=frameworks(), semantics=st.sampled_from(["PR", "CO", "ST", "GR"]))
def test_it_answers_the_same_without_a_witness(af: ArgumentationFramework, semantics: str) -> None:
    for argument in af.arguments:
        for decide in (credulous_acceptance, skeptical_acceptance):
            fast = decide(af, argument, semantics, witness=False)
            assert fast.accepted == decide(af, argument, semantics).accepted
