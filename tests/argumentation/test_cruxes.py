"""Output extraction on hand-built graphs: common ground, camps, disputes, cruxes, summary."""

from argumentation import ArgumentationFramework, Label
from argumentation.cruxes import (
    ArgumentInfo,
    disputed_arguments,
    extract_outcome,
    natural_key,
    order_camps,
    rank_cruxes,
    settling_question,
    summarize,
)


def _info(arg, speaker, *, assumptions=(), evidence=()):
    return ArgumentInfo(
        id=arg,
        speaker=speaker,
        claim=f"claim of {arg}",
        assumptions=tuple(assumptions),
        evidence=tuple(evidence),
    )


# a <-> b split two camps; c defeats d; e stands alone.
TWO_CAMPS = ArgumentationFramework("abcde", [("a", "b"), ("b", "a"), ("c", "d")])
TWO_CAMPS_INFO = {
    "a": _info("a", "Ann", assumptions=["Growth is good", "Prices fall"], evidence=["e1"]),
    "b": _info("b", "Bob", assumptions=["growth is  good.", "Jobs vanish"]),
    "c": _info("c", "Ann"),
    "d": _info("d", "Bob", evidence=["e2", "e3"]),
    "e": _info("e", "Cy"),
}

# a <-> b, c <-> d, d -> b: preferred {a,c}, {a,d}, {b,c}, all of size 2.
THREE_CAMPS = ArgumentationFramework(
    "abcd", [("a", "b"), ("b", "a"), ("c", "d"), ("d", "c"), ("d", "b")]
)


def test_it_takes_the_grounded_extension_as_common_ground():
    outcome = extract_outcome(af=TWO_CAMPS, arguments=TWO_CAMPS_INFO)
    assert outcome.common_ground == ("c", "e")
    assert outcome.labels["d"] == Label.OUT
    assert outcome.labels["a"] == Label.UNDEC


def test_it_disputes_what_one_camp_accepts_and_the_other_does_not():
    outcome = extract_outcome(af=TWO_CAMPS, arguments=TWO_CAMPS_INFO)
    assert outcome.camps == (("a", "c", "e"), ("b", "c", "e"))
    assert outcome.disputed == ("a", "b")


def test_it_breaks_ties_between_equal_camps_by_their_sorted_members():
    outcome = extract_outcome(af=THREE_CAMPS, arguments={})
    assert outcome.camps == (("a", "c"), ("a", "d"), ("b", "c"))


def test_it_orders_camps_largest_first():
    camps = order_camps([frozenset({"x"}), frozenset({"a", "b", "c"}), frozenset({"b", "z"})])
    assert camps == [("a", "b", "c"), ("b", "z"), ("x",)]
    assert disputed_arguments(camps=camps) == ("a", "b", "c", "x", "z")


def test_it_disputes_nothing_with_a_single_camp():
    af = ArgumentationFramework(["A1", "A2"], [("A1", "A2")])
    info = {
        "A1": _info("A1", "Ann", assumptions=["x"]),
        "A2": _info("A2", "Bob", assumptions=["y"]),
    }
    outcome = extract_outcome(af=af, arguments=info)
    assert outcome.camps == (("A1",),)
    assert outcome.disputed == ()
    assert outcome.cruxes == ()


def test_it_disputes_every_argument_some_camp_rejects_with_three_camps():
    # The two largest camps, {a,c} and {a,d}, agree on a; the third, {b,c},
    # rejects it. Comparing only the first two would lose the a/b dispute.
    outcome = extract_outcome(af=THREE_CAMPS, arguments={})
    assert outcome.disputed == ("a", "b", "c", "d")


def test_it_keeps_what_every_camp_holds_out_of_the_dispute():
    # Two independent two-cycles make four camps; e stands in all of them, g in none.
    four = ArgumentationFramework(
        "abcdeg", [("a", "b"), ("b", "a"), ("c", "d"), ("d", "c"), ("g", "g")]
    )
    outcome = extract_outcome(af=four, arguments={})
    assert outcome.camps == (("a", "c", "e"), ("a", "d", "e"), ("b", "c", "e"), ("b", "d", "e"))
    assert outcome.disputed == ("a", "b", "c", "d")


def test_it_finds_the_crux_of_a_dispute_only_a_smaller_camp_holds():
    info = {
        "a": _info("a", "Ann", assumptions=["Markets clear"]),
        "b": _info("b", "Bob", assumptions=["Wages are sticky"]),
        "c": _info("c", "Cy", assumptions=["Markets clear"]),
        "d": _info("d", "Di", assumptions=["Demand is elastic"]),
    }
    outcome = extract_outcome(af=THREE_CAMPS, arguments=info)
    # "Markets clear" has two dependents (a: degree 2, c: degree 2). b (attacked
    # by a and d, attacks a) and d (attacks b and c, attacked by c) both have
    # degree 3: the tie is broken alphabetically.
    assert [(c.assumption, c.dependents, c.attack_degree) for c in outcome.cruxes] == [
        ("Markets clear", 2, 4),
        ("Demand is elastic", 1, 3),
        ("Wages are sticky", 1, 3),
    ]


def test_it_ranks_cruxes_by_dependents_first():
    outcome = extract_outcome(af=TWO_CAMPS, arguments=TWO_CAMPS_INFO)
    assert [crux.assumption for crux in outcome.cruxes] == [
        "Growth is good",
        "Jobs vanish",
        "Prices fall",
    ]
    first = outcome.cruxes[0]
    assert first.arguments == ("a", "b")
    assert first.dependents == 2
    assert first.attack_degree == 4
    assert first.settling_question == settling_question("Growth is good")


def test_it_ranks_cruxes_by_attack_degree_when_dependents_tie():
    info = {
        "c": _info("c", "Ann", assumptions=["P holds"]),
        "d": _info("d", "Bob", assumptions=["Q holds"]),
    }
    cruxes = rank_cruxes(af=THREE_CAMPS, disputed=["c", "d"], arguments=info)
    # d attacks c and b and is attacked by c (degree 3); c has degree 2.
    assert [(crux.assumption, crux.attack_degree) for crux in cruxes] == [
        ("Q holds", 3),
        ("P holds", 2),
    ]


def test_it_keeps_only_the_top_three_cruxes():
    info = {"a": _info("a", "Ann", assumptions=["w", "x", "y", "z"]), "b": _info("b", "Bob")}
    cruxes = rank_cruxes(af=TWO_CAMPS, disputed=["a", "b"], arguments=info)
    assert [crux.assumption for crux in cruxes] == ["w", "x", "y"]


def test_it_sorts_ids_naturally():
    assert sorted(["A10", "A2", "A1"], key=natural_key) == ["A1", "A2", "A10"]


def test_it_maps_the_outcome_to_the_summary():
    outcome = extract_outcome(af=TWO_CAMPS, arguments=TWO_CAMPS_INFO)
    summary = summarize(outcome=outcome, af=TWO_CAMPS, arguments=TWO_CAMPS_INFO)
    assert summary["commonGround"] == ["c", "e"]
    assert summary["camps"] == [["a", "c", "e"], ["b", "c", "e"]]
    assert summary["disputed"] == ["a", "b"]
    assert [c["assumption"] for c in summary["cruxes"]] == [c.assumption for c in outcome.cruxes]
    assert summary["resolutionPaths"] == [
        {"crux": c.assumption, "question": c.settling_question} for c in outcome.cruxes
    ]
    (line,) = summary["faultLines"]
    assert line["camps"] == [1, 2]
    assert (line["sideA"]["arguments"], line["sideA"]["speakers"]) == (["a"], ["Ann"])
    assert (line["sideB"]["arguments"], line["sideB"]["claims"]) == (["b"], ["claim of b"])
    assert summary["flipConditions"] == [
        {
            "argument": "d",
            "claim": "claim of d",
            "defeatedBy": ["c"],
            "condition": "d would stand again if c were defeated.",
        }
    ]
    ledger = {row["persona"]: row for row in summary["evidenceLedger"]}
    assert (ledger["Bob"]["arguments"], ledger["Bob"]["defeated"], ledger["Bob"]["undecided"]) == (
        ["b", "d"],
        1,
        1,
    )
    assert [e["text"] for e in ledger["Bob"]["evidence"]] == ["e2", "e3"]
    assert ledger["Ann"]["accepted"] == 1
    assert summary["labels"] == {"a": "UNDEC", "b": "UNDEC", "c": "IN", "d": "OUT", "e": "IN"}


def test_it_draws_fault_lines_from_the_largest_camp_to_each_other_camp():
    outcome = extract_outcome(af=THREE_CAMPS, arguments={})
    summary = summarize(outcome=outcome, af=THREE_CAMPS, arguments={})
    assert [
        (f["camps"], f["sideA"]["arguments"], f["sideB"]["arguments"])
        for f in summary["faultLines"]
    ] == [
        ([1, 2], ["c"], ["d"]),
        ([1, 3], ["a"], ["b"]),
    ]


def test_it_has_no_fault_lines_without_a_split():
    af = ArgumentationFramework(["x"], [])
    info = {"x": _info("x", "Ann")}
    summary = summarize(outcome=extract_outcome(af=af, arguments=info), af=af, arguments=info)
    assert summary["faultLines"] == []
    assert summary["flipConditions"] == []
