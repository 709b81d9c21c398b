"""What a coach turn reads of the transcript (coach.models.CoachMessageQuerySet), and how
every page and endpoint finds the student's argument (coach.selectors)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.http import Http404

from coach.models import Argument, CoachMessage, Role
from coach.selectors import get_argument_for_user

pytestmark = pytest.mark.django_db

# A transcript on two steps: (role, step, text), in the order they were said.
EARLIER = [
    (Role.USER, "claim", "first"),
    (Role.ASSISTANT, "claim", "reply one"),
    (Role.USER, "grounds", "on another step"),
    (Role.USER, "claim", "second"),
    (Role.ASSISTANT, "claim", "reply two"),
]


def _say(argument: Argument, texts: list[tuple[str, str, str]]) -> list[CoachMessage]:
    return [
        CoachMessage.objects.create(argument=argument, role=role, step=step, text=text)
        for role, step, text in texts
    ]


def test_it_reads_the_latest_messages_oldest_first(argument: Argument) -> None:
    _say(argument, EARLIER)
    assert argument.messages.latest_said(3) == [
        ("user", "on another step"),
        ("user", "second"),
        ("assistant", "reply two"),
    ]
    assert [text for _, text in argument.messages.latest_said(50)] == [t for *_, t in EARLIER]


def test_it_reads_the_students_words_on_one_step_oldest_first(argument: Argument) -> None:
    _say(argument, EARLIER)
    assert argument.messages.students_words_on("claim") == ["first", "second"]
    assert argument.messages.students_words_on("grounds") == ["on another step"]
    assert argument.messages.students_words_on("warrant") == []


def test_it_reads_only_what_was_said_before_a_message(argument: Argument) -> None:
    said = _say(argument, EARLIER)
    before = argument.messages.before(said[3].pk)  # the student's "second"
    assert before.latest_said(50) == [(r, t) for r, _, t in EARLIER[:3]]
    assert before.students_words_on("claim") == ["first"]
    assert argument.messages.before(None).count() == len(EARLIER)


def test_it_reads_no_other_arguments_messages(argument: Argument, student: Any) -> None:
    other = Argument.objects.create(owner=student, title="Trams", language="en")
    _say(other, EARLIER)
    assert argument.messages.latest_said(50) == []
    assert argument.messages.students_words_on("claim") == []


def test_it_finds_the_students_own_argument(argument: Argument, student: Any) -> None:
    assert get_argument_for_user(student, argument.pk) == argument


@pytest.mark.parametrize("who", ["someone else", "anonymous", "missing", "past the column"])
def test_it_finds_no_argument_of_someone_else_a_missing_one_or_for_nobody(
    who: str, argument: Argument, other_student: Any
) -> None:
    user, argument_id = {
        "someone else": (other_student, argument.pk),
        "anonymous": (AnonymousUser(), argument.pk),
        "missing": (argument.owner, argument.pk + 1000),
        "past the column": (argument.owner, 2**63),
    }[who]
    with pytest.raises(Http404):
        get_argument_for_user(user, argument_id)
