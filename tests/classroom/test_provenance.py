"""The label bug: a student's own words proposed back by the coach and confirmed."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from coach.models import CoachMessage
from coach.provenance import is_students_own, normalise
from coach.services import accept_proposal, create_argument

WORDS = "Cities should ban cars from their centres"


@pytest.mark.django_db
def test_it_records_the_students_words_when_the_coach_only_proposed_them_back(
    django_user_model: Any,
) -> None:
    student = django_user_model.objects.create_user("ana")
    argument = create_argument(owner=student, title="Cars", language="en")
    CoachMessage.objects.create(argument=argument, role="user", text=WORDS.lower(), step="claim")
    argument.pending_proposal = {"field": "claim", "value": WORDS + ".", "rationale": ""}
    argument.save()
    saved, _ = accept_proposal(argument=argument)
    assert saved.provenance == {"claim": "student_words"}


@pytest.mark.django_db
def test_it_still_says_the_coach_when_the_words_are_the_coachs(django_user_model: Any) -> None:
    student = django_user_model.objects.create_user("ana")
    argument = create_argument(owner=student, title="Cars", language="en")
    CoachMessage.objects.create(argument=argument, role="user", text="cars bad", step="claim")
    argument.pending_proposal = {"field": "claim", "value": WORDS + ".", "rationale": ""}
    argument.save()
    saved, _ = accept_proposal(argument=argument)
    assert saved.provenance == {"claim": "accepted"}


@pytest.mark.parametrize(
    ("proposed", "said", "own"),
    [
        ("Cities should ban cars.", ["cities should ban cars"], True),
        ("Cities should ban cars.", ["  Cities   should ban cars!  "], True),
        ("Cities should ban cars.", ["Citties should ban cars"], True),  # a typo fixed
        ("Cities should ban private cars from centres by 2030.", ["cars bad"], False),
        ("", ["anything"], False),
    ],
)
def test_it_knows_the_students_own_words(proposed: str, said: list[str], own: bool) -> None:
    assert is_students_own(proposed, said) is own


@given(st.text(max_size=80))
def test_it_always_recognises_words_said_verbatim(text: str) -> None:
    assert is_students_own(text, [text]) is bool(normalise(text))


@given(st.text(max_size=80), st.lists(st.text(max_size=40), max_size=3))
def test_it_never_credits_the_student_with_nothing(text: str, said: list[str]) -> None:
    if not any(normalise(s) for s in said):
        assert not is_students_own(text, said)
