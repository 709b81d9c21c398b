"""Hand-derived answers on the textbook frameworks, for every semantics.

The frameworks (arguments are letters):

* empty — no arguments;
* single — one unattacked argument ``a``;
* chain — ``a -> b``;
* two_cycle — ``a <-> b``;
* odd_cycle — ``a -> b -> c -> a`` (no stable extension);
* nixon — the Nixon diamond as a floating conclusion: ``a`` (a Quaker, so a
  pacifist) and ``b`` (a Republican, so not a pacifist) rebut each other,
  both attack ``c`` ("Nixon's stance is unknowable"), and ``c`` attacks
  ``d`` ("Nixon has a stance"). ``d`` is in every preferred extension but
  not in the grounded one;
* self_attack — ``a -> a`` and ``a -> b`` (no stable extension).

Acceptance is checked against the listed extensions: credulous = in some,
skeptical = in all (vacuously true when there are none).
"""

from __future__ import annotations

import pytest

from argumentation import (
    SEMANTICS,
    ArgumentationFramework,
    Label,
    count_extensions,
    credulous_acceptance,
    extensions,
    grounded_labelling,
    preferred_extensions,
    skeptical_acceptance,
    some_extension,
)

E = frozenset

CASES = {
    "empty": (
        "",
        [],
        {s: {E()} for s in SEMANTICS},
        {},
    ),
    "single": (
        "a",
        [],
        {s: {E("a")} for s in SEMANTICS},
        {"a": Label.IN},
    ),
    "chain": (
        "ab",
        [("a", "b")],
        {s: {E("a")} for s in SEMANTICS},
        {"a": Label.IN, "b": Label.OUT},
    ),
    "two_cycle": (
        "ab",
        [("a", "b"), ("b", "a")],
        {
            "GR": {E()},
            "CO": {E(), E("a"), E("b")},
            "PR": {E("a"), E("b")},
            "ST": {E("a"), E("b")},
            "SST": {E("a"), E("b")},
        },
        {"a": Label.UNDEC, "b": Label.UNDEC},
    ),
    "odd_cycle": (
        "abc",
        [("a", "b"), ("b", "c"), ("c", "a")],
        {"GR": {E()}, "CO": {E()}, "PR": {E()}, "ST": set(), "SST": {E()}},
        {"a": Label.UNDEC, "b": Label.UNDEC, "c": Label.UNDEC},
    ),
    "nixon": (
        "abcd",
        [("a", "b"), ("b", "a"), ("a", "c"), ("b", "c"), ("c", "d")],
        {
            "GR": {E()},
            "CO": {E(), E("ad"), E("bd")},
            "PR": {E("ad"), E("bd")},
            "ST": {E("ad"), E("bd")},
            "SST": {E("ad"), E("bd")},
        },
        {"a": Label.UNDEC, "b": Label.UNDEC, "c": Label.UNDEC, "d": Label.UNDEC},
    ),
    "self_attack": (
        "ab",
        [("a", "a"), ("a", "b")],
        {"GR": {E()}, "CO": {E()}, "PR": {E()}, "ST": set(), "SST": {E()}},
        {"a": Label.UNDEC, "b": Label.UNDEC},
    ),
}

PARAMS = [
    pytest.param(name, semantics, id=f"{name}-{semantics}")
    for name in CASES
    for semantics in SEMANTICS
]


def _framework(name: str) -> ArgumentationFramework:
    arguments, attacks, _, _ = CASES[name]
    return ArgumentationFramework(list(arguments), attacks)


@pytest.mark.parametrize(("name", "semantics"), PARAMS)
def test_it_lists_counts_and_picks_the_known_extensions(name: str, semantics: str):
    af = _framework(name)
    expected = CASES[name][2][semantics]
    listed = list(extensions(af, semantics))
    assert sorted(listed, key=sorted) == sorted(expected, key=sorted)
    assert count_extensions(af, semantics) == len(expected)
    one = some_extension(af, semantics)
    assert one in expected if expected else one is None


@pytest.mark.parametrize(("name", "semantics"), PARAMS)
def test_it_decides_the_known_acceptance_with_witnesses(name: str, semantics: str):
    af = _framework(name)
    expected = CASES[name][2][semantics]
    for argument in af.arguments:
        credulous = credulous_acceptance(af, argument, semantics)
        assert credulous.accepted == any(argument in e for e in expected)
        assert credulous.witness is None or (
            credulous.witness in expected and argument in credulous.witness
        )
        skeptical = skeptical_acceptance(af, argument, semantics)
        assert skeptical.accepted == all(argument in e for e in expected)
        assert skeptical.witness is None or (
            skeptical.witness in expected and argument not in skeptical.witness
        )
        assert (credulous.witness is not None) == credulous.accepted
        assert (skeptical.witness is None) == skeptical.accepted


@pytest.mark.parametrize("name", list(CASES))
def test_it_gives_the_known_grounded_labelling(name: str):
    assert grounded_labelling(_framework(name)) == CASES[name][3]


def test_it_accepts_the_floating_conclusion_skeptically_only_under_preferred():
    af = _framework("nixon")
    assert skeptical_acceptance(af, "d", "PR").accepted
    assert skeptical_acceptance(af, "d", "ST").accepted
    assert not skeptical_acceptance(af, "d", "GR").accepted
    assert not skeptical_acceptance(af, "d", "CO").accepted


def test_it_accepts_everything_skeptically_and_nothing_credulously_without_stable_extensions():
    af = _framework("odd_cycle")
    for argument in "abc":
        assert skeptical_acceptance(af, argument, "ST") == skeptical_acceptance(af, "a", "ST")
        assert skeptical_acceptance(af, argument, "ST").accepted
        assert skeptical_acceptance(af, argument, "ST").witness is None
        assert not credulous_acceptance(af, argument, "ST").accepted


def test_it_counts_independent_components_by_multiplying():
    # 40 disjoint two-cycles: 2^40 preferred and stable, 3^40 complete extensions.
    attacks = [(f"a{i}", f"b{i}") for i in range(40)] + [(f"b{i}", f"a{i}") for i in range(40)]
    af = ArgumentationFramework([x for pair in attacks[:40] for x in pair], attacks)
    assert count_extensions(af, "PR") == 2**40
    assert count_extensions(af, "ST") == 2**40
    assert count_extensions(af, "SST") == 2**40
    assert count_extensions(af, "CO") == 3**40


def test_it_walks_a_long_undecided_chain_without_recursion():
    # A self-attacker feeding a 20,000-argument chain: every argument is UNDEC,
    # every SCC is a singleton, and the only preferred extension is empty.
    n = 20_000
    af = ArgumentationFramework(range(n), [(0, 0)] + [(i, i + 1) for i in range(n - 1)])
    assert list(preferred_extensions(af)) == [frozenset()]
    assert count_extensions(af, "CO") == 1
    assert count_extensions(af, "ST") == 0
    assert not credulous_acceptance(af, n - 1, "PR").accepted
    assert skeptical_acceptance(af, n - 1, "ST").accepted


def test_it_rejects_unknown_semantics_and_arguments():
    af = _framework("chain")
    with pytest.raises(ValueError):
        list(extensions(af, "XX"))
    with pytest.raises(ValueError):
        credulous_acceptance(af, "z", "PR")


def test_it_accepts_lower_case_semantics_codes():
    af = _framework("two_cycle")
    assert count_extensions(af, "pr") == 2
