"""The services behind the API: creating drafts, accepting, rejecting, typing."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from coach.models import Argument
from coach.services import (
    ProposalError,
    accept_proposal,
    create_argument,
    reject_proposal,
    save_typed_field,
)

pytestmark = pytest.mark.django_db


def test_it_creates_an_empty_draft_at_the_claim(student: Any) -> None:
    argument = create_argument(owner=student, title="  Homework bans ", language="es")
    assert (argument.title, argument.language, argument.current_step) == (
        "Homework bans",
        "es",
        "claim",
    )
    assert argument.provenance == {} and argument.pending_proposal is None
    assert list(Argument.objects.for_user(student)) == [argument]


@pytest.mark.parametrize(("title", "language"), [("   ", "en"), ("Fine", "fr")])
def test_it_refuses_a_draft_without_a_title_or_in_another_language(
    student: Any, title: str, language: str
) -> None:
    with pytest.raises(ValueError):
        create_argument(owner=student, title=title, language=language)


def test_it_shows_nobody_anything_when_signed_out(argument: Argument) -> None:
    assert not Argument.objects.for_user(AnonymousUser()).exists()


def test_it_refuses_to_accept_on_a_completed_argument(argument: Argument) -> None:
    argument.completed_at = timezone.now()
    argument.pending_proposal = {"field": "rebuttal", "value": "Unless it rains.", "rationale": ""}
    argument.save()
    with pytest.raises(ProposalError) as refused:
        accept_proposal(argument=argument)
    assert refused.value.code == "argument_complete"


def test_it_keeps_the_provenance_when_accepting_the_proposal_as_is(argument: Argument) -> None:
    argument.pending_proposal = {"field": "claim", "value": "Cars out of centres.", "rationale": ""}
    argument.save()
    saved, advanced = accept_proposal(argument=argument, value=" Cars out of centres. ")
    assert advanced and saved.provenance == {"claim": "accepted"}
    assert saved.claim == "Cars out of centres." and saved.current_step == "grounds"


def test_it_rejects_only_a_pending_proposal(argument: Argument) -> None:
    with pytest.raises(ProposalError):
        reject_proposal(argument=argument)


def test_it_leaves_unchanged_text_and_its_provenance_alone(argument: Argument) -> None:
    argument.claim, argument.provenance = "Cars out.", {"claim": "accepted"}
    argument.save()
    saved = save_typed_field(argument=argument, step="claim", value=" Cars out. ")
    assert saved.provenance == {"claim": "accepted"}
