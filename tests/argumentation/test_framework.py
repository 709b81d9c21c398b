"""ArgumentationFramework: construction, queries, equality and restriction."""

from __future__ import annotations

import pickle

import pytest

from argumentation import ArgumentationFramework


def test_it_keeps_the_given_order_and_drops_duplicate_arguments():
    af = ArgumentationFramework(["b", "a", "b", "c"], [("a", "b")])
    assert af.arguments == ("b", "a", "c")
    assert len(af) == 3


def test_it_stores_attacks_as_a_frozenset_of_pairs():
    af = ArgumentationFramework([1, 2], [(1, 2), (1, 2), (2, 2)])
    assert af.attacks == frozenset({(1, 2), (2, 2)})


def test_it_rejects_attacks_on_unknown_arguments():
    with pytest.raises(ValueError, match="unknown argument 'z'"):
        ArgumentationFramework(["a"], [("a", "z")])


def test_it_rejects_attacks_that_are_not_pairs():
    with pytest.raises(ValueError):
        ArgumentationFramework(["a", "b"], [("a", "b", "a")])


def test_it_answers_attackers_and_attacked():
    af = ArgumentationFramework("abc", [("a", "b"), ("c", "b"), ("b", "a"), ("c", "c")])
    assert af.attackers("b") == frozenset({"a", "c"})
    assert af.attacked("c") == frozenset({"b", "c"})
    assert af.attackers("c") == frozenset({"c"})
    assert af.attacked("b") == frozenset({"a"})


def test_it_raises_for_queries_about_unknown_arguments():
    af = ArgumentationFramework("ab", [])
    with pytest.raises(ValueError):
        af.attackers("z")
    with pytest.raises(ValueError):
        af.index("z")


def test_it_supports_membership_for_any_object():
    af = ArgumentationFramework([1, "x"], [])
    assert 1 in af
    assert "x" in af
    assert 2 not in af
    assert [1] not in af  # unhashable: simply not an argument


def test_it_is_equal_regardless_of_argument_order():
    first = ArgumentationFramework("abc", [("a", "b")])
    second = ArgumentationFramework("cab", [("a", "b")])
    assert first == second
    assert hash(first) == hash(second)
    assert first != ArgumentationFramework("abc", [("b", "a")])
    assert first != ArgumentationFramework("abcd", [("a", "b")])


def test_it_restricts_to_a_subset_keeping_only_inner_attacks():
    af = ArgumentationFramework("abcd", [("a", "b"), ("b", "c"), ("c", "d"), ("d", "a")])
    sub = af.restricted({"d", "a", "b"})
    assert sub.arguments == ("a", "b", "d")
    assert sub.attacks == frozenset({("a", "b"), ("d", "a")})
    with pytest.raises(ValueError):
        af.restricted({"a", "z"})


def test_it_indexes_arguments_for_the_solvers():
    af = ArgumentationFramework([10, 20, 30], [(10, 30), (20, 30)])
    graph = af.graph
    assert graph.n == 3
    assert sorted(graph.attackers[af.index(30)]) == [0, 1]
    assert graph.attacked[af.index(10)] == [2]


def test_it_survives_pickling_for_task_queues():
    af = ArgumentationFramework(["a", "b", 3], [("a", "b"), (3, 3)])
    copy = pickle.loads(pickle.dumps(af))
    assert copy == af
    assert copy.arguments == af.arguments
    assert copy.attackers("b") == frozenset({"a"})
