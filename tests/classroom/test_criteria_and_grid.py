"""Known answers and properties of the pure parts: criteria and the grid's arithmetic."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from classroom.criteria import CRITERIA, STEP_IDS, criterion, failed_criteria, parse_required
from classroom.grid import DONE, EMPTY, IN_PROGRESS, cell_state, coach_reliance
from coach.steps import STEP_IDS as COACH_STEP_IDS


def test_it_names_the_coachs_steps_in_the_coachs_order() -> None:
    assert STEP_IDS == COACH_STEP_IDS
    assert all(c.step in STEP_IDS and c.label_es and c.label_en for c in CRITERIA)


@pytest.mark.parametrize(
    ("code", "text", "passes"),
    [
        ("grounds_has_number_or_citation", "40% of trips are short.", True),
        ("grounds_has_number_or_citation", "Trips are short (Smith, 2019).", True),
        ("grounds_has_number_or_citation", "Trips are short.", False),
        ("warrant_backing_names_source", "the WHO says so", True),
        ("warrant_backing_names_source", "experts say so", False),
        ("qualifier_has_hedge", "probably", True),
        ("qualifier_has_hedge", "probablemente", True),
        ("qualifier_has_hedge", "always", False),
        ("rebuttal_names_exception", "unless it rains", True),
        ("rebuttal_names_exception", "a menos que llueva", True),
        ("rebuttal_names_exception", "it rains", False),
        ("claim_is_one_sentence", "Cars out.", True),
        ("claim_is_one_sentence", "Cars out. Bikes in.", False),
    ],
)
def test_it_checks_each_criterion(code: str, text: str, passes: bool) -> None:
    assert criterion(code).passes(text) is passes


@pytest.mark.parametrize(
    "bad",
    [
        {"nope": []},
        {"grounds": ["unknown_code"]},
        {"claim": ["grounds_has_number_or_citation"]},
        ["grounds"],
    ],
)
def test_it_refuses_malformed_criteria(bad: object) -> None:
    with pytest.raises(ValidationError):
        parse_required(bad)


def test_it_reports_only_the_missing_criteria_of_the_step() -> None:
    required = {
        "grounds": ["grounds_has_number_or_citation"],
        "rebuttal": ["rebuttal_names_exception"],
    }
    assert [c.code for c in failed_criteria(required, step="grounds", text="many")] == [
        "grounds_has_number_or_citation"
    ]
    assert failed_criteria(required, step="grounds", text="40 %") == []
    assert failed_criteria(required, step="claim", text="") == []


@given(st.dictionaries(st.sampled_from(STEP_IDS), st.lists(st.sampled_from(CRITERIA))))
def test_it_accepts_any_choice_of_a_steps_own_criteria(choice: dict) -> None:
    value = {step: [c.code for c in items if c.step == step] for step, items in choice.items()}
    parsed = parse_required(value)
    assert all(parsed[step] for step in parsed)
    assert parse_required(parsed) == parsed  # idempotent


def test_it_places_cells_in_the_coachs_order() -> None:
    assert cell_state(step="claim", text="x", current_step="warrant", complete=False) == DONE
    assert (
        cell_state(step="warrant", text="", current_step="warrant", complete=False) == IN_PROGRESS
    )
    assert cell_state(step="rebuttal", text="", current_step="warrant", complete=False) == EMPTY
    assert (
        cell_state(step="rebuttal", text="typed", current_step="claim", complete=False)
        == IN_PROGRESS
    )
    assert cell_state(step="qualifier", text="", current_step="rebuttal", complete=True) == EMPTY


@given(
    st.dictionaries(
        st.sampled_from(["claim", "grounds", "warrant"]),
        st.sampled_from(["typed", "student_words", "accepted", "edited", "junk"]),
    )
)
def test_it_measures_reliance_as_a_share(provenance: dict) -> None:
    share = coach_reliance(provenance)
    assert 0.0 <= share <= 1.0
    known = [v for v in provenance.values() if v != "junk"]
    coach = [v for v in known if v in ("accepted", "edited")]
    assert share == (len(coach) / len(known) if known else 0.0)
