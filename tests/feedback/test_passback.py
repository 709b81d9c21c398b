"""Releasing a score sends it to a linked LMS (the lti app's AGS seam); a failure never breaks it."""

from __future__ import annotations

from typing import Any

from django.test import Client
from django.urls import reverse
from lti_tool.models import LtiUser

from classroom.services import start_submission
from feedback.models import Release
from feedback.services import default_rubric, release, release_all, set_score
from tests.lti.conftest import LEARNER, launch, platform, registration  # noqa: F401
from tests.lti.test_services import _set_up


def _scored_submission(platform: Any, django_user_model: Any) -> tuple[Any, Any]:  # noqa: F811
    link = _set_up(platform)
    launch(Client(), platform, sub="student-1", roles=LEARNER)
    student = LtiUser.objects.get(sub="student-1").auth_user
    submission = start_submission(assignment=link.assignment, student=student)
    admin = django_user_model.objects.create_superuser("boss", password="pw")
    criteria = list(default_rubric(assignment=link.assignment).criteria.all())
    set_score(author=admin, submission=submission, criterion=criteria[0], level=3)
    set_score(author=admin, submission=submission, criterion=criteria[7], level=2)
    return admin, submission


def test_it_sends_the_released_total_to_the_lms(
    registration: Any,  # noqa: F811
    platform: Any,  # noqa: F811
    django_user_model: Any,
) -> None:
    admin, submission = _scored_submission(platform, django_user_model)
    assert platform.scores == []  # a score is not sent before release
    row = release(author=admin, submission=submission)
    assert row.passback == "sent"
    [received] = platform.scores
    assert received["score"]["userId"] == "student-1"
    assert (received["score"]["scoreGiven"], received["score"]["scoreMaximum"]) == (5, 24)


def test_it_releases_even_when_the_lms_refuses(
    registration: Any,  # noqa: F811
    platform: Any,  # noqa: F811
    django_user_model: Any,
) -> None:
    admin, submission = _scored_submission(platform, django_user_model)
    platform.tool_jwks = {"keys": []}  # the platform no longer trusts the tool's key
    assert release_all(author=admin, assignment=submission.assignment) == 1
    row = Release.objects.get(submission=submission)
    assert row.passback == "failed"
    assert platform.scores == []
    # Trusted again: releasing again retries and succeeds.
    platform.tool_jwks = _tool_jwks()
    assert release(author=admin, submission=submission).passback == "sent"
    assert len(platform.scores) == 1


def _tool_jwks() -> dict:
    return Client().get(reverse("lti:jwks")).json()


def test_it_stops_calling_a_failing_lms_for_the_rest_of_the_class(
    registration: Any,  # noqa: F811
    platform: Any,  # noqa: F811
    django_user_model: Any,
) -> None:
    admin, submission = _scored_submission(platform, django_user_model)
    launch(Client(), platform, sub="student-2", roles=LEARNER)
    second = LtiUser.objects.get(sub="student-2").auth_user
    start_submission(assignment=submission.assignment, student=second)
    platform.tool_jwks = {"keys": []}
    asked = len(platform.token_requests)
    assert release_all(author=admin, assignment=submission.assignment) == 2
    assert len(platform.token_requests) == asked + 1  # one try, not one per student
    assert set(Release.objects.values_list("passback", flat=True)) == {"failed"}


def test_it_gives_up_on_an_lms_that_never_answers(
    registration: Any,  # noqa: F811
    platform: Any,  # noqa: F811
    django_user_model: Any,
    settings: Any,
) -> None:
    admin, submission = _scored_submission(platform, django_user_model)
    settings.LTI_PLATFORM_TIMEOUT_SECONDS = 0.2
    platform.token_delay = 1.5
    assert release(author=admin, submission=submission).passback == "failed"
    assert platform.scores == []
