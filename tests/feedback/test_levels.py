from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from feedback.levels import (
    DEFAULT_LEVELS,
    DEFAULT_LEVELS_ES,
    MAX_LEVELS,
    max_points,
    parse_levels,
    points_for,
)
from feedback.services import default_rubric


def test_it_knows_the_default_levels() -> None:
    assert [(lv.label, lv.points) for lv in parse_levels(DEFAULT_LEVELS)] == [
        ("Missing", 0),
        ("Weak", 1),
        ("Adequate", 2),
        ("Strong", 3),
    ]
    assert max_points(DEFAULT_LEVELS) == max_points(DEFAULT_LEVELS_ES) == 3
    assert points_for(DEFAULT_LEVELS, 2) == 2
    assert points_for(DEFAULT_LEVELS, 4) is None
    assert points_for(DEFAULT_LEVELS, -1) is None


@pytest.mark.parametrize(
    "value",
    [
        [],
        None,
        "Strong",
        [{"label": "", "points": 1}],
        [{"label": "   ", "points": 1}],
        [{"label": "A", "points": -1}],
        [{"label": "A", "points": 1001}],
        [{"label": "A", "points": 1, "extra": True}],
        [{"label": "A"}],
        [{"label": "A", "points": 1}] * (MAX_LEVELS + 1),
        [{"label": "x" * 61, "points": 1}],
    ],
)
def test_it_refuses_malformed_levels(value: Any) -> None:
    with pytest.raises(ValidationError):
        parse_levels(value)


levels_strategy = st.lists(
    st.fixed_dictionaries(
        {
            "label": st.text(min_size=1, max_size=20).filter(lambda s: s.strip()),
            "points": st.integers(min_value=0, max_value=1000),
        }
    ),
    min_size=1,
    max_size=MAX_LEVELS,
)


@given(levels_strategy, st.integers(min_value=-20, max_value=20))
def test_it_gives_points_within_the_maximum(levels: list, index: int) -> None:
    points = points_for(levels, index)
    if 0 <= index < len(levels):
        assert points == levels[index]["points"]
        assert 0 <= points <= max_points(levels)
    else:
        assert points is None


@pytest.mark.django_db
def test_it_writes_the_default_rubric_in_a_spanish_assignments_language(assignment: Any) -> None:
    assignment.language = "es"
    assignment.save()
    rubric = default_rubric(assignment=assignment)
    names = list(rubric.criteria.values_list("name", flat=True))
    assert names[0] == "Afirmación" and names[-1] == "Coherencia general"
    assert rubric.criteria.first().levels[3] == {"label": "Sólido", "points": 3}


def test_it_reads_levels_written_one_per_line() -> None:
    from feedback.levels import levels_as_text, levels_from_text

    text = "Missing = 0\n\n  Weak=1\nA = B = 2\n"
    assert levels_from_text(text) == [
        {"label": "Missing", "points": 0},
        {"label": "Weak", "points": 1},
        {"label": "A = B", "points": 2},
    ]
    assert levels_as_text(DEFAULT_LEVELS).splitlines()[-1] == "Strong = 3"
    for bad in ("Strong", "Strong = three", "= 3", "Strong = -1", "", "x = 1001"):
        with pytest.raises(ValueError):
            levels_from_text(bad)


@given(
    st.lists(
        st.builds(
            dict,
            label=st.text(
                st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")),
                min_size=1,
                max_size=60,
            ).filter(lambda s: s.strip() and s == s.strip()),
            points=st.integers(0, 1000),
        ),
        min_size=1,
        max_size=MAX_LEVELS,
    )
)
def test_it_round_trips_levels_through_text(levels: list[dict[str, Any]]) -> None:
    from feedback.levels import levels_as_text, levels_from_text

    assert levels_from_text(levels_as_text(levels)) == levels
