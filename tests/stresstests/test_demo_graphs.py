"""The demo graphs as drawn: no attack through another part's box, no internal key as a word."""

from __future__ import annotations

import json

import pytest
from django.utils import translation

from debates.demo import DEMO_FIXTURE, import_debate
from debates.presenters import graph_svg
from stresstests.demo import load_demo_stress_test
from stresstests.presenters import status_context
from tests.debates.graph_geometry import boxes, crossings, edges, headings, labels
from tests.debates.pages_support import ensure_default_personas

pytestmark = pytest.mark.django_db

# How the code names the student's parts; a reader never sees these (nor a cut-off one).
KEYS = ("groundsBacking", "warrantBacking")


def _demo_stress_svg(language: str) -> tuple[str, list]:
    stress, _created = load_demo_stress_test()
    with translation.override(language):
        context = status_context(stress, user=stress.student)
    return context["svg"], context["graph_rows"]


@pytest.mark.parametrize("language", ["en", "es"])
def test_it_draws_the_demo_stress_test_with_no_attack_through_a_box(language: str) -> None:
    svg, _rows = _demo_stress_svg(language)
    assert edges(svg), "the demo has attacks to draw"
    assert crossings(svg) == []


@pytest.mark.parametrize(
    ("language", "names"),
    [
        ("en", {"grounds": "Grounds", "groundsBacking": "Grounds backing"}),
        ("es", {"grounds": "Datos", "groundsBacking": "Respaldo de los datos"}),
    ],
)
def test_it_heads_the_demo_stress_tests_parts_with_the_words_students_see(
    language: str, names: dict
) -> None:
    svg, rows = _demo_stress_svg(language)
    heads = headings(svg)
    for key, name in names.items():
        assert heads[key] == name
    # No internal key, whole or cut short ("groundsBa…"), is a word of the picture.
    for word in labels(svg):
        for key in KEYS:
            assert key not in word
            assert not (word.endswith("…") and key.startswith(word[:-1])), word
    # The table beside the picture names every part, in the same words.
    assert {row.title for row in rows} == set(heads.values())


def test_it_draws_the_demo_debate_with_no_attack_through_a_box() -> None:
    ensure_default_personas()
    debate = import_debate(data=json.loads(DEMO_FIXTURE.read_text("utf-8")), is_demo=True)
    svg = graph_svg(debate=debate)
    assert len(boxes(svg)) > 3 and edges(svg)
    assert crossings(svg) == []
