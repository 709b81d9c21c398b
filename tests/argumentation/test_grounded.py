"""Grounded extension and labelling by linear-time propagation."""

from __future__ import annotations

from argumentation import (
    ArgumentationFramework,
    Label,
    grounded_extension,
    grounded_labelling,
    is_complete,
)
from argumentation.grounded import IN, OUT, REMOVED, UNDEC, closure_codes


def test_it_alternates_labels_along_a_long_chain():
    n = 200_000
    af = ArgumentationFramework(range(n), [(i, i + 1) for i in range(n - 1)])
    labels = grounded_labelling(af)
    assert all(labels[i] is (Label.IN if i % 2 == 0 else Label.OUT) for i in range(n))
    assert grounded_extension(af) == frozenset(range(0, n, 2))


def test_it_leaves_a_self_attacker_and_its_targets_undecided():
    af = ArgumentationFramework("abc", [("a", "a"), ("a", "b"), ("c", "a")])
    assert grounded_labelling(af) == {"a": Label.OUT, "b": Label.IN, "c": Label.IN}
    lone = ArgumentationFramework("ab", [("a", "a"), ("a", "b")])
    assert grounded_labelling(lone) == {"a": Label.UNDEC, "b": Label.UNDEC}


def test_it_reinstates_an_argument_whose_attackers_are_all_defeated():
    # d is attacked by b and c; both are beaten by unattacked a.
    af = ArgumentationFramework("abcd", [("a", "b"), ("a", "c"), ("b", "d"), ("c", "d")])
    assert grounded_extension(af) == frozenset({"a", "d"})


def test_it_stops_at_cycles_but_decides_what_they_cannot_reach():
    af = ArgumentationFramework(
        "abcxy", [("a", "b"), ("b", "c"), ("c", "a"), ("c", "x"), ("y", "x")]
    )
    labels = grounded_labelling(af)
    assert labels == {
        "a": Label.UNDEC,
        "b": Label.UNDEC,
        "c": Label.UNDEC,
        "x": Label.OUT,
        "y": Label.IN,
    }
    assert is_complete(af, grounded_extension(af))


def test_it_labels_outside_exactly_what_the_extension_attacks():
    af = ArgumentationFramework(range(6), [(0, 1), (1, 2), (3, 4), (4, 3), (4, 5), (2, 5)])
    extension = grounded_extension(af)
    labels = grounded_labelling(af)
    for argument, label in labels.items():
        beaten = bool(af.attackers(argument) & extension)
        assert (label is Label.IN) == (argument in extension)
        assert (label is Label.OUT) == beaten


def test_it_labels_the_framework_without_the_removed_arguments():
    # a -> b -> c -> d: grounded a, c IN. Without a, b is unattacked and IN, so c is OUT
    # and d IN; without b, c is IN and d OUT again.
    af = ArgumentationFramework("abcd", [("a", "b"), ("b", "c"), ("c", "d")])
    index = {argument: i for i, argument in enumerate(af.arguments)}
    assert closure_codes(af.graph, removed=[index["a"]]) == bytearray([REMOVED, IN, OUT, IN])
    assert closure_codes(af.graph, removed=[index["b"]]) == bytearray([IN, REMOVED, IN, OUT])


def test_it_neither_lets_a_removed_argument_attack_nor_be_beaten():
    # x attacks itself and y; z attacks x. Removing z leaves x and y UNDEC; removing x
    # frees y; an IN z attacking a removed x does not count x's attack on y twice.
    af = ArgumentationFramework("xyzw", [("x", "x"), ("x", "y"), ("z", "x"), ("w", "y")])
    assert closure_codes(af.graph, removed=[2, 3]) == bytearray([UNDEC, UNDEC, REMOVED, REMOVED])
    assert closure_codes(af.graph, removed=[0, 3]) == bytearray([REMOVED, IN, IN, REMOVED])
    assert closure_codes(af.graph, removed=[0]) == bytearray([REMOVED, OUT, IN, IN])
