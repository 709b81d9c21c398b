"""The stress test's mapping of a Toulmin argument into a Dung framework.

Hand-built arguments with known statuses, the type <-> component rule, a
concession, a defence; then random attack/defence sets whose status is
recomputed independently: the edges from a table written here, the
extensions by exhaustive search (:mod:`tests.argumentation.brute_force`).
"""

from __future__ import annotations

from hypothesis import event, given, settings
from hypothesis import strategies as st

from argumentation.toulmin_graph import (
    CLAIM_NODE,
    STATUS_MESSAGES,
    Attack,
    ClaimStatus,
    Defence,
    RefusalCode,
    attack_node,
    build_graph,
    claim_status,
    defence_node,
    student_node,
)
from tests.argumentation.brute_force import BruteForce

FULL = {
    "claim": "Cities should ban cars from their centres.",
    "grounds": "Car-free centres have cleaner air.",
    "warrant": "Cleaner air is worth the inconvenience.",
    "groundsBacking": "Madrid's 2018 measurements.",
    "warrantBacking": "WHO estimates of deaths from air pollution.",
    "qualifier": "In most large cities",
    "rebuttal": "Unless there is no public transport.",
}
BARE = {"claim": FULL["claim"], "grounds": FULL["grounds"], "warrant": FULL["warrant"]}


def status_of(elements, attacks, defences=()):
    return claim_status(build_graph(elements=elements, attacks=attacks, defences=defences))


def test_it_lets_an_unattacked_claim_stand():
    result = status_of(FULL, [])
    assert result.status is ClaimStatus.GROUNDED_IN
    assert result.message == "Your claim stands against every objection raised"
    assert result.deciding == ()


def test_it_makes_a_mutual_rebut_credulous_only():
    graph = build_graph(elements=BARE, attacks=[Attack("r", "rebut", "claim")])
    assert (CLAIM_NODE, attack_node("r")) in graph.framework.attacks
    assert (attack_node("r"), CLAIM_NODE) in graph.framework.attacks
    result = claim_status(graph)
    assert result.status is ClaimStatus.CREDULOUS
    assert result.message == "Your claim can be defended, but so can an opposing view"
    assert result.deciding == ("r",)


def test_it_defeats_the_claim_through_an_unanswered_undermine_of_the_grounds():
    graph = build_graph(elements=BARE, attacks=[Attack("u", "undermine", "grounds")])
    # The claim uses the grounds as a premise: attacking them attacks it.
    assert graph.framework.attackers(CLAIM_NODE) == {attack_node("u")}
    assert graph.framework.attackers(student_node("grounds")) == {attack_node("u")}
    result = claim_status(graph)
    assert result.status is ClaimStatus.DEFEATED
    assert result.message == "Your claim is defeated as it stands"
    assert result.deciding == ("u",)


def test_it_carries_an_attack_on_a_backing_up_to_the_claim():
    graph = build_graph(elements=FULL, attacks=[Attack("b", "undermine", "warrantBacking")])
    assert graph.framework.attacked(attack_node("b")) == {
        student_node("warrantBacking"),
        student_node("warrant"),
        CLAIM_NODE,
    }
    assert claim_status(graph).status is ClaimStatus.DEFEATED


def test_it_refuses_a_rebut_aimed_at_the_grounds():
    graph = build_graph(
        elements=BARE,
        attacks=[Attack("bad", "rebut", "grounds"), Attack("ok", "undercut", "warrant")],
    )
    assert [a.id for a in graph.attacks] == ["ok"]
    (refusal,) = graph.refused
    assert refusal.id == "bad"
    assert refusal.code is RefusalCode.WRONG_TYPE
    assert "undermine" in refusal.message
    assert attack_node("bad") not in graph.framework


def test_it_refuses_attacks_on_an_empty_backing_and_on_the_qualifier():
    graph = build_graph(
        elements=BARE,
        attacks=[Attack("a", "undermine", "groundsBacking"), Attack("b", "rebut", "qualifier")],
    )
    assert [(r.id, r.code) for r in graph.refused] == [
        ("a", RefusalCode.NO_SUCH_COMPONENT),
        ("b", RefusalCode.UNKNOWN_COMPONENT),
    ]
    assert claim_status(graph).status is ClaimStatus.GROUNDED_IN


def test_it_lets_a_qualified_claim_stand_against_a_conceded_exception():
    attack = Attack("c", "undercut", "warrant", conceded=True)
    graph = build_graph(elements=FULL, attacks=[attack])
    assert graph.answered_by_rebuttal == {"c"}
    assert graph.framework.attackers(attack_node("c")) == {student_node("rebuttal")}
    assert claim_status(graph).status is ClaimStatus.GROUNDED_IN


def test_it_counts_a_conceded_exception_in_full_without_a_qualifier():
    elements = {**FULL, "qualifier": ""}
    graph = build_graph(elements=elements, attacks=[Attack("c", "undercut", "warrant", True)])
    assert graph.answered_by_rebuttal == frozenset()
    assert claim_status(graph).status is ClaimStatus.DEFEATED


def test_it_flips_the_claim_back_in_when_the_student_answers_the_attack():
    attacks = [Attack("u", "undermine", "grounds")]
    assert status_of(BARE, attacks).status is ClaimStatus.DEFEATED
    graph = build_graph(elements=BARE, attacks=attacks, defences=[Defence("d", "u")])
    assert graph.framework.attacked(defence_node("d")) == {attack_node("u")}
    result = claim_status(graph)
    assert result.status is ClaimStatus.GROUNDED_IN
    assert result.deciding == ()


def test_it_refuses_a_defence_of_an_unknown_or_refused_attack():
    graph = build_graph(
        elements=BARE,
        attacks=[Attack("bad", "rebut", "warrant")],
        defences=[Defence("d1", "bad"), Defence("d2", "nope")],
    )
    assert [(r.id, r.code) for r in graph.refused] == [
        ("bad", RefusalCode.WRONG_TYPE),
        ("d1", RefusalCode.UNKNOWN_ATTACK),
        ("d2", RefusalCode.UNKNOWN_ATTACK),
    ]


def test_it_refuses_an_argument_without_claim_grounds_or_warrant():
    try:
        build_graph(elements={**BARE, "warrant": "  "}, attacks=[])
    except ValueError as error:
        assert "warrant" in str(error)
    else:
        raise AssertionError("an argument without a warrant was mapped")


# --------------------------------------------------------------------------
# Random attack/defence sets against an independent computation.

# What each element's attack hits, written out again from the docs, not imported.
HITS = {
    "claim": ["claim"],
    "grounds": ["grounds", "claim"],
    "warrant": ["warrant", "claim"],
    "groundsBacking": ["groundsBacking", "grounds", "claim"],
    "warrantBacking": ["warrantBacking", "warrant", "claim"],
}
FITS = {"rebut": {"claim"}, "undermine": {"grounds", "groundsBacking", "warrantBacking"}}
FITS["undercut"] = {"warrant"}


def reference(elements, attacks, defences):
    """(status, deciding attack ids) by a table and exhaustive search."""
    present = {name for name, text in elements.items() if text.strip()}
    nodes = {("s", name) for name in present if name != "qualifier"}
    edges = set()
    kept = []
    for attack in attacks:
        if attack.target not in FITS[attack.type] or attack.target not in present:
            continue
        kept.append(attack.id)
        nodes.add(("a", attack.id))
        edges |= {(("a", attack.id), ("s", hit)) for hit in HITS[attack.target]}
        if attack.type == "rebut":
            edges.add((("s", "claim"), ("a", attack.id)))
        if attack.conceded and {"qualifier", "rebuttal"} <= present:
            edges.add((("s", "rebuttal"), ("a", attack.id)))
    for defence in defences:
        if defence.answers in kept:
            nodes.add(("d", defence.id))
            edges.add((("d", defence.id), ("a", defence.answers)))
    brute = BruteForce(nodes, edges)
    (grounded,) = brute.extensions("GR")
    preferred = brute.extensions("PR")
    claim = ("s", "claim")
    if claim in grounded:
        status = ClaimStatus.GROUNDED_IN
    elif any(claim in extension for extension in preferred):
        status = ClaimStatus.CREDULOUS
    else:
        status = ClaimStatus.DEFEATED
    winners = set(grounded)
    if status is not ClaimStatus.GROUNDED_IN:
        for extension in preferred:
            if claim not in extension:
                winners |= extension
    return status, tuple(a for a in kept if ("a", a) in winners)


optional_text = st.sampled_from(["", "  ", "some text"])
elements_strategy = st.fixed_dictionaries(
    {
        **{name: st.just(BARE[name]) for name in BARE},
        "groundsBacking": optional_text,
        "warrantBacking": optional_text,
        "qualifier": optional_text,
        "rebuttal": optional_text,
    }
)
attack_strategy = st.tuples(
    st.sampled_from(["rebut", "undermine", "undercut"]),
    st.sampled_from(sorted(HITS)),
    st.booleans(),
)


@settings(max_examples=150, deadline=None)
@given(
    elements=elements_strategy,
    drafts=st.lists(attack_strategy, max_size=5),
    answers=st.lists(st.integers(min_value=0, max_value=5), max_size=4),
)
def test_it_agrees_with_an_independent_brute_force_computation(elements, drafts, answers):
    attacks = [
        Attack(f"a{i}", kind, target, conceded) for i, (kind, target, conceded) in enumerate(drafts)
    ]
    defences = [Defence(f"d{i}", f"a{target}") for i, target in enumerate(answers)]
    result = status_of(elements, attacks, defences)
    expected_status, expected_deciding = reference(elements, attacks, defences)
    event(expected_status.value)  # --hypothesis-show-statistics: all three statuses occur
    assert result.status is expected_status
    assert result.message == STATUS_MESSAGES[expected_status]
    assert result.deciding == expected_deciding
