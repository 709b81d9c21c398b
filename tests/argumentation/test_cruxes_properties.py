"""Crux extraction agrees with exhaustive search on random small frameworks.

The reference takes the preferred extensions from
:mod:`tests.argumentation.brute_force` and applies the definitions directly:
an argument is disputed when it is credulously but not skeptically accepted
(in some preferred extension, not in all); the cruxes are the assumptions of
the disputed arguments ranked by dependents, then the summed attack degree
(attacks made plus received) of those arguments, then alphabetically.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from argumentation import ArgumentationFramework
from argumentation.cruxes import TOP_CRUXES, ArgumentInfo, extract_outcome

from .brute_force import BruteForce

ASSUMPTIONS = ["p", "q", "r", "s", "t"]


@st.composite
def debates(draw: st.DrawFn) -> tuple[list[int], set[tuple[int, int]], dict[int, list[str]]]:
    n = draw(st.integers(min_value=1, max_value=8))
    pairs = [(a, b) for a in range(n) for b in range(n)]
    # Even cycles make many camps; the density varies their number.
    density = draw(st.sampled_from([0.1, 0.2, 0.3, 0.45]))
    rolls = draw(st.lists(st.floats(0, 1), min_size=len(pairs), max_size=len(pairs)))
    attacks = {pair for pair, roll in zip(pairs, rolls, strict=True) if roll < density}
    assumptions = {
        a: draw(st.lists(st.sampled_from(ASSUMPTIONS), max_size=3, unique=True)) for a in range(n)
    }
    return list(range(n)), attacks, assumptions


def _reference(arguments, attacks, assumptions):
    preferred = BruteForce(arguments, attacks).extensions("PR")
    credulous = set().union(*preferred)
    skeptical = set.intersection(*(set(e) for e in preferred))
    disputed = sorted(credulous - skeptical)
    degree = {a: sum(1 for pair in attacks for x in pair if x == a) for a in arguments}
    dependents = {}
    for a in disputed:
        for assumption in assumptions[a]:
            dependents.setdefault(assumption, []).append(a)
    ranked = sorted(
        dependents,
        key=lambda x: (-len(dependents[x]), -sum(degree[a] for a in dependents[x]), x),
    )
    return disputed, [(x, dependents[x]) for x in ranked[:TOP_CRUXES]], len(preferred)


@settings(max_examples=300, deadline=None)
@given(debates())
def test_it_disputes_exactly_the_credulous_but_not_skeptical_arguments(debate):
    arguments, attacks, assumptions = debate
    info = {
        a: ArgumentInfo(id=a, speaker="x", claim=str(a), assumptions=tuple(assumptions[a]))
        for a in arguments
    }
    outcome = extract_outcome(af=ArgumentationFramework(arguments, attacks), arguments=info)
    disputed, cruxes, camps = _reference(arguments, attacks, assumptions)
    assert len(outcome.camps) == camps
    assert list(outcome.disputed) == disputed
    assert [(c.assumption, list(c.arguments)) for c in outcome.cruxes] == cruxes
