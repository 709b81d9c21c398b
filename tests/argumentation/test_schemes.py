"""Argument schemes and critical questions: which scheme a warrant reads as, and the
objections its critical questions raise, typed to fit the element they challenge."""

from __future__ import annotations

import pytest

from argumentation.schemes import SCHEMES, identify_scheme, objections
from argumentation.toulmin_graph import Attack, build_graph

BASE = {
    "claim": "Our town should plant more trees on its streets.",
    "grounds": "Streets with trees were 3 degrees cooler last summer.",
    "qualifier": "In most streets",
    "rebuttal": "Unless the pavement is too narrow.",
}


@pytest.mark.parametrize(
    ("warrant", "language", "scheme"),
    [
        ("Experts in urban climate agree, according to a published study.", "en", "expert_opinion"),
        (
            "Shade causes lower temperatures, which leads to fewer heat deaths.",
            "en",
            "cause_to_effect",
        ),
        ("Just as parks cool a city, street trees are similar and cool a street.", "en", "analogy"),
        ("For example, several cities that planted trees are now cooler.", "en", "example"),
        ("It is worth it: the benefit to health makes the town better.", "en", "consequences"),
        ("Según un estudio de expertos, los árboles enfrían las calles.", "es", "expert_opinion"),
        (
            "La sombra provoca que baje la temperatura y reduce las muertes.",
            "es",
            "cause_to_effect",
        ),
        ("Vale la pena: el beneficio para la salud mejora el pueblo.", "es", "consequences"),
        ("Cooler pavements are a sign of shade that protects people.", "en", "sign"),
        ("Menos golpes de calor son una señal de que la sombra protege.", "es", "sign"),
        ("Trees are nice.", "en", "defeasible_rule"),
    ],
)
def test_it_reads_the_scheme_from_the_warrants_cue_words(warrant, language, scheme) -> None:
    assert identify_scheme({**BASE, "warrant": warrant}, language=language).code == scheme


@pytest.mark.parametrize("scheme", SCHEMES, ids=lambda s: s.code)
@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize("backings", [False, True])
def test_it_types_every_objection_to_fit_the_element_it_challenges(
    scheme, language, backings
) -> None:
    elements = {**BASE, "warrant": "x"}
    if backings:
        elements |= {
            "groundsBacking": "The town hall, 2024.",
            "warrantBacking": "Physics of shade.",
        }
    cue = scheme.cues[language][0] if scheme.cues[language] else "nothing"
    elements["warrant"] = f"{cue} {cue} {cue}"
    found = objections(elements, language=language)

    assert {o.scheme for o in found} == {scheme.code}
    assert len(found) == 3 and sum(o.exception for o in found) == 1
    assert all(o.counter_proposition and o.rationale for o in found)
    # The stress test's own type rule (ASPIC+) refuses none of them.
    graph = build_graph(
        elements=elements,
        attacks=[Attack(f"Q{i}", o.attack_type, o.element) for i, o in enumerate(found)],
    )
    assert graph.refused == () and len(graph.attacks) == 3


def test_it_asks_about_the_grounds_when_the_backing_it_questions_is_empty() -> None:
    expert = {**BASE, "warrant": "According to experts in a published study, it cools."}
    without = objections(expert, language="en")
    with_backing = objections({**expert, "groundsBacking": "City survey, 2024."}, language="en")

    assert [o.element for o in without] == ["grounds", "warrant", "claim"]
    assert [o.element for o in with_backing] == ["groundsBacking", "warrant", "claim"]
    assert [o.attack_type for o in with_backing] == ["undermine", "undercut", "rebut"]


def test_it_words_the_objections_in_the_arguments_language() -> None:
    spanish = objections({**BASE, "warrant": "Según un estudio de expertos."}, language="es")

    assert spanish[0].rationale.startswith("Pregunta crítica (argumento de autoridad experta)")
    assert "¿" in spanish[1].rationale
