"""The solver agrees with exhaustive search on random small frameworks.

Frameworks of up to 9 arguments with arbitrary attacks, self-attacks
included, are compared with :mod:`tests.argumentation.brute_force` on every
semantics: the extension sets, their counts, one extension, the grounded
labelling, and both acceptance modes for every argument, with every witness
checked against the reference set of extensions.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from argumentation import (
    SEMANTICS,
    ArgumentationFramework,
    complete_extensions,
    count_extensions,
    credulous_acceptance,
    extensions,
    grounded_labelling,
    is_admissible,
    is_complete,
    is_conflict_free,
    is_stable,
    preferred_extensions,
    skeptical_acceptance,
    some_extension,
    stable_extensions,
)
from argumentation.extensions import _complete_sets, _preferred_sets, _stable_sets
from argumentation.grounded import REMOVED, closure_codes
from argumentation.sat_encoding import local_problem

from .brute_force import BruteForce

Pairs = set[tuple[int, int]]


@st.composite
def frameworks(draw: st.DrawFn) -> tuple[list[int], Pairs]:
    n = draw(st.integers(min_value=0, max_value=9))
    pairs = [(a, b) for a in range(n) for b in range(n)]
    # Sparse graphs have many SCCs and components, dense ones one big SCC.
    density = draw(st.sampled_from([0.08, 0.15, 0.25, 0.4]))
    rolls = draw(st.lists(st.floats(0, 1), min_size=len(pairs), max_size=len(pairs)))
    return list(range(n)), {pair for pair, roll in zip(pairs, rolls, strict=True) if roll < density}


def _pair(arguments: list[int], attacks: Pairs) -> tuple[ArgumentationFramework, BruteForce]:
    return ArgumentationFramework(arguments, attacks), BruteForce(arguments, attacks)


@settings(max_examples=300, deadline=None)
@given(frameworks())
def test_it_enumerates_the_same_extensions_as_brute_force(framework: tuple[list[int], Pairs]):
    af, reference = _pair(*framework)
    for semantics in SEMANTICS:
        listed = list(extensions(af, semantics))
        assert len(listed) == len(set(listed)), semantics
        assert set(listed) == reference.extensions(semantics), semantics


@settings(max_examples=200, deadline=None)
@given(frameworks())
def test_it_counts_and_picks_extensions_like_brute_force(framework: tuple[list[int], Pairs]):
    af, reference = _pair(*framework)
    for semantics in SEMANTICS:
        expected = reference.extensions(semantics)
        assert count_extensions(af, semantics) == len(expected), semantics
        one = some_extension(af, semantics)
        if expected:
            assert one in expected, semantics
        else:
            assert one is None, semantics


@settings(max_examples=200, deadline=None)
@given(frameworks())
def test_it_labels_like_the_least_complete_extension(framework: tuple[list[int], Pairs]):
    af, reference = _pair(*framework)
    assert {a: str(label) for a, label in grounded_labelling(af).items()} == (
        reference.grounded_labels()
    )


@settings(max_examples=200, deadline=None)
@given(frameworks(), st.data())
def test_it_labels_without_removed_arguments_like_the_smaller_framework(
    framework: tuple[list[int], Pairs], data: st.DataObject
):
    arguments, attacks = framework
    removed = data.draw(st.sets(st.sampled_from(arguments)) if arguments else st.just(set()))
    kept = [a for a in arguments if a not in removed]
    smaller = BruteForce(kept, {(a, b) for a, b in attacks if a in kept and b in kept})
    # A seed admissible in the smaller framework: its least complete superset is labelled.
    admissible = sorted(
        (s for s in smaller.subsets if smaller.admissible(s)), key=lambda s: sorted(s)
    )
    seed = data.draw(st.sampled_from(admissible))
    least = min((s for s in smaller.subsets if smaller.complete(s) and seed <= s), key=len)
    af = ArgumentationFramework(arguments, attacks)
    codes = closure_codes(af.graph, seed=sorted(seed), removed=sorted(removed))
    names = {1: "IN", 2: "OUT", 0: "UNDEC", REMOVED: "REMOVED"}
    got = {a: names[codes[i]] for i, a in enumerate(af.arguments)}
    expected = {a: "REMOVED" for a in removed} | {
        a: "IN" if a in least else "OUT" if smaller.attacks_argument(least, a) else "UNDEC"
        for a in kept
    }
    assert got == expected


@settings(max_examples=300, deadline=None)
@given(frameworks())
def test_it_decides_acceptance_like_brute_force_with_valid_witnesses(
    framework: tuple[list[int], Pairs],
):
    af, reference = _pair(*framework)
    for semantics in SEMANTICS:
        expected = reference.extensions(semantics)
        for argument in af.arguments:
            credulous = credulous_acceptance(af, argument, semantics)
            assert credulous.accepted == any(argument in e for e in expected), (semantics, argument)
            if credulous.accepted:
                assert credulous.witness in expected
                assert argument in credulous.witness
            else:
                assert credulous.witness is None
            skeptical = skeptical_acceptance(af, argument, semantics)
            assert skeptical.accepted == all(argument in e for e in expected), (semantics, argument)
            if skeptical.accepted:
                assert skeptical.witness is None
            else:
                assert skeptical.witness in expected
                assert argument not in skeptical.witness


@settings(max_examples=200, deadline=None)
@given(frameworks(), st.data())
def test_it_verifies_sets_like_brute_force(framework: tuple[list[int], Pairs], data: st.DataObject):
    af, reference = _pair(*framework)
    chosen = frozenset(data.draw(st.sets(st.sampled_from(af.arguments))) if af.arguments else ())
    assert is_conflict_free(af, chosen) == reference.conflict_free(chosen)
    assert is_admissible(af, chosen) == reference.admissible(chosen)
    assert is_complete(af, chosen) == reference.complete(chosen)
    assert is_stable(af, chosen) == reference.stable(chosen)


@st.composite
def medium_frameworks(draw: st.DrawFn) -> ArgumentationFramework:
    n = draw(st.integers(min_value=10, max_value=40))
    pair = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))
    attacks = draw(st.lists(pair, min_size=n // 2, max_size=3 * n))
    return ArgumentationFramework(range(n), attacks)


@settings(max_examples=60, deadline=None)
@given(medium_frameworks())
def test_it_splits_larger_frameworks_without_changing_the_answer(af: ArgumentationFramework):
    # Too big for brute force: compare the grounded-reduct + component + SCC
    # pipeline with one SAT enumeration over the whole, undecomposed framework.
    whole = local_problem(af.graph, nodes=list(range(len(af))))
    names = af.arguments

    def named(sets):
        return {frozenset(names[v] for v in members) for members in sets}

    assert set(preferred_extensions(af)) == named(_preferred_sets(whole))
    assert set(complete_extensions(af)) == named(_complete_sets(whole))
    assert set(stable_extensions(af)) == named(_stable_sets(whole))
