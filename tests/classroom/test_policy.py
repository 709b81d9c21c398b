"""An assignment's coach policy, enforced by the server: the real SDK against the fake model."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from classroom.models import AssignmentExtension
from classroom.services import start_submission
from coach.models import CoachMessage, CoachTurn
from coach.policy import OPEN, policy_for
from coach.selectors import get_argument_for_user
from coach.services import create_argument
from tests.coach.support import coach_result, post_turn
from tests.fakes.anthropic_server import FakeAnthropicServer, Reply

pytestmark = pytest.mark.django_db(transaction=True)

CLAIM = "City centres should be car-free on weekdays."
PROPOSING = coach_result(
    text="Here is a sharper version you could use.",
    confidence=0.95,
    proposedUpdate={"field": "claim", "value": CLAIM, "rationale": "shorter"},
)


@pytest.fixture(autouse=True)
def fast_retries(settings: Any) -> None:
    settings.LLM_MAX_RETRIES = 1


@pytest.fixture
def work(assignment: Any, student: Any) -> Any:
    return start_submission(assignment=assignment, student=student).argument


def _json_post(user: Any, url: str, body: dict[str, Any]) -> Any:
    client = Client()
    client.force_login(user)
    return client.post(url, data=json.dumps(body), content_type="application/json")


def test_it_strips_the_proposal_when_the_assignment_is_hints_only(
    fake_anthropic: FakeAnthropicServer, student: Any, assignment: Any, work: Any
) -> None:
    assignment.coach_policy = "hints_only"
    assignment.save()
    fake_anthropic.enqueue(Reply.json(PROPOSING))
    status, _, lines = post_turn(student, argument_id=work.pk, message="Cars out", step="claim")
    assert status == 200
    result = lines[-1]["result"]
    assert "proposedUpdate" not in result or result["proposedUpdate"] is None
    turn = CoachTurn.objects.get()
    assert turn.raw_result["proposedUpdate"]["value"] == CLAIM
    assert {
        "name": "no_proposals",
        "changed": True,
        "reason": "hints only: removed the proposal",
    } in turn.guard_decisions
    work.refresh_from_db()
    assert work.pending_proposal is None


def test_it_keeps_the_proposal_when_the_coach_may_propose(
    fake_anthropic: FakeAnthropicServer, student: Any, work: Any
) -> None:
    fake_anthropic.enqueue(Reply.json(PROPOSING))
    _, _, lines = post_turn(student, argument_id=work.pk, message="Cars out", step="claim")
    assert lines[-1]["result"]["proposedUpdate"]["value"] == CLAIM


@pytest.mark.parametrize(("policy", "proposes"), [("coach", True), ("hints_only", False)])
def test_it_strips_the_offline_coachs_proposals_too(
    no_anthropic_key: None, student: Any, assignment: Any, work: Any, policy: str, proposes: bool
) -> None:
    assignment.coach_policy = policy
    assignment.save()
    proposed = []
    for message in (CLAIM, "yes"):
        _, _, lines = post_turn(student, argument_id=work.pk, message=message, step="claim")
        proposed.append(bool(lines[-1]["result"].get("proposedUpdate")))
    assert any(proposed) is proposes  # the same words get a proposal only under "coach"


def test_it_refuses_the_coach_when_it_is_off(student: Any, assignment: Any, work: Any) -> None:
    assignment.coach_policy = "off"
    assignment.save()
    status, _, lines = post_turn(student, argument_id=work.pk, message="hi", step="claim")
    assert status == 403 and lines[0]["error"] == "coach_off"
    assert "type each part" in lines[0]["detail"]
    assert not CoachMessage.objects.exists()
    saved = _json_post(
        student, f"/api/arguments/{work.pk}/draft", {"field": "claim", "value": CLAIM}
    )
    assert saved.status_code == 200


def test_it_refuses_a_turn_past_the_quota_with_the_figure(
    fake_anthropic: FakeAnthropicServer, student: Any, assignment: Any, work: Any
) -> None:
    assignment.turn_quota = 1
    assignment.save()
    fake_anthropic.enqueue(Reply.json(coach_result(text="What is your position?")))
    first, _, _ = post_turn(student, argument_id=work.pk, message="hello", step="claim")
    second, _, lines = post_turn(student, argument_id=work.pk, message="again", step="claim")
    assert first == 200 and second == 429
    assert lines[0]["error"] == "turn_quota" and "1 coach turn" in lines[0]["detail"]
    assert CoachMessage.objects.filter(role="user").count() == 1


def test_it_makes_the_argument_read_only_after_the_due_date(
    student: Any, assignment: Any, work: Any
) -> None:
    assignment.due_at = timezone.now() - timedelta(minutes=1)
    assignment.save()
    status, _, lines = post_turn(student, argument_id=work.pk, message="hi", step="claim")
    assert status == 403 and lines[0]["error"] == "read_only"
    saved = _json_post(student, f"/api/arguments/{work.pk}/draft", {"field": "claim", "value": "x"})
    assert saved.status_code == 403 and "read-only" in saved.json()["detail"]
    client = Client()
    client.force_login(student)
    page = client.get(f"/coach/{work.pk}/").content.decode()
    assert "so your argument is read-only now" in page
    work.refresh_from_db()
    assert work.claim == ""


def test_it_reopens_the_argument_for_a_student_with_an_extension(
    student: Any, assignment: Any, work: Any
) -> None:
    assignment.due_at = timezone.now() - timedelta(minutes=1)
    assignment.save()
    AssignmentExtension.objects.create(
        assignment=assignment, student=student, due_at=timezone.now() + timedelta(days=1)
    )
    saved = _json_post(
        student, f"/api/arguments/{work.pk}/draft", {"field": "claim", "value": CLAIM}
    )
    assert saved.status_code == 200


def test_it_keeps_the_argument_read_only_when_only_another_student_has_an_extension(
    student: Any, other_student: Any, assignment: Any, work: Any
) -> None:
    assignment.due_at = timezone.now() - timedelta(minutes=1)
    assignment.save()
    AssignmentExtension.objects.create(
        assignment=assignment, student=other_student, due_at=timezone.now() + timedelta(days=1)
    )
    status, _, lines = post_turn(student, argument_id=work.pk, message="hi", step="claim")
    assert status == 403 and lines[0]["error"] == "read_only"


def test_it_does_not_count_a_failed_turn_against_the_quota(
    fake_anthropic: FakeAnthropicServer, student: Any, assignment: Any, work: Any
) -> None:
    assignment.turn_quota = 1
    assignment.save()
    CoachTurn.objects.create(argument=work, step="claim", error_code="coach_stream_failed")
    fake_anthropic.enqueue(Reply.json(coach_result(text="What is your position?")))
    status, _, lines = post_turn(student, argument_id=work.pk, message="hello", step="claim")
    assert status == 200 and lines[-1]["type"] == "result"


def test_it_holds_the_advance_to_the_required_criteria(
    student: Any, assignment: Any, work: Any
) -> None:
    assignment.coach_policy = "off"
    assignment.required_criteria = {"grounds": ["grounds_has_number_or_citation"]}
    assignment.save()
    work.claim, work.current_step = CLAIM, "grounds"
    work.grounds = "Many people walk."
    work.save()
    refused = _json_post(student, f"/api/arguments/{work.pk}/advance", {})
    assert refused.status_code == 400 and refused.json()["error"] == "criteria_not_met"
    assert "a number or a citation" in refused.json()["detail"]
    work.grounds = "40% of trips in the centre are under 2 km."
    work.save()
    moved = _json_post(student, f"/api/arguments/{work.pk}/advance", {})
    assert moved.status_code == 200 and moved.json()["advanced"] is True
    work.refresh_from_db()
    assert work.current_step == "warrant"


def test_it_offers_no_typed_advance_where_the_coach_may_propose(student: Any, work: Any) -> None:
    work.claim = CLAIM
    work.save()
    refused = _json_post(student, f"/api/arguments/{work.pk}/advance", {})
    assert refused.status_code == 400 and refused.json()["error"] == "advance_not_allowed"


def test_it_shows_the_policy_and_the_requirements_on_the_page(
    student: Any, assignment: Any, work: Any
) -> None:
    assignment.coach_policy = "hints_only"
    assignment.required_criteria = {"claim": ["claim_is_one_sentence"]}
    assignment.save()
    client = Client()
    client.force_login(student)
    page = client.get(f"/coach/{work.pk}/").content.decode()
    assert "never writes text for you" in page
    assert "The claim is one sentence" in page
    assert f'action="/coach/{work.pk}/advance/"' in page


def test_it_does_not_open_the_coach_by_itself_when_it_is_off(
    student: Any, assignment: Any, work: Any
) -> None:
    client = Client()
    client.force_login(student)
    assert 'data-autostart="true"' in client.get(f"/coach/{work.pk}/").content.decode()
    assignment.coach_policy = "off"
    assignment.save()
    page = client.get(f"/coach/{work.pk}/").content.decode()
    assert 'data-autostart="false"' in page and "the coach is off" in page


@pytest.mark.parametrize(
    "state",
    ["open", "quota_left", "quota_used", "past_due", "own_extension", "other_extension", "off"],
)
def test_it_reads_the_rules_in_force_for_this_student(
    state: str, student: Any, other_student: Any, assignment: Any, work: Any
) -> None:
    # The quota counts the turns that did not fail; only the student's own extension
    # moves their due date.
    assignment.required_criteria = {"grounds": ["grounds_has_number_or_citation"]}
    if state.startswith("quota"):
        assignment.turn_quota = 2
        for error_code in ("", "coach_stream_failed", "" if state == "quota_used" else "x"):
            CoachTurn.objects.create(argument=work, step="claim", error_code=error_code)
    if state.endswith("extension") or state == "past_due":
        assignment.due_at = timezone.now() - timedelta(minutes=1)
    if state.endswith("extension"):
        AssignmentExtension.objects.create(
            assignment=assignment,
            student=student if state == "own_extension" else other_student,
            due_at=timezone.now() + timedelta(days=1),
        )
    assignment.coach_policy = "off" if state == "off" else "hints_only"
    assignment.save()

    policy = policy_for(get_argument_for_user(student, work.pk))

    assert policy != OPEN
    assert policy.unmet("grounds", "Cars are loud.")  # the required criterion misses
    assert bool(policy.quota_refusal) == (state == "quota_used")
    assert bool(policy.locked) == (state in ("past_due", "other_extension"))


def test_it_gives_an_argument_outside_any_class_the_open_policy(
    student: Any, assignment: Any
) -> None:
    own = create_argument(owner=student, title="My own", language="en")
    assert policy_for(own) == OPEN
