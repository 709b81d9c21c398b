"""The chain run by `run_trial`, through the real SDK against the fake Anthropic server."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from tests.fakes.anthropic_server import Reply
from tests.trials import phase_data
from tests.trials.factories import STUDENT_CLAIM, make_argument, make_user
from trials.models import Trial, TrialStatus
from trials.runner import STALE_AFTER, run_trial
from trials.services import start_trial

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_sdk_retries(settings):
    # A failed call must fail at once: the SDK's own retries are tested in tests/llm.
    settings.LLM_MAX_RETRIES = 0


@pytest.fixture
def trial():
    student = make_user()
    return start_trial(user=student, argument=make_argument(owner=student))


def _user_texts(request) -> list[str]:
    return [m["content"] for m in request.body["messages"] if m["role"] == "user"]


def test_it_runs_a_full_sustained_trial_on_the_students_own_argument(fake_anthropic, trial):
    fake_anthropic.enqueue(
        Reply.json(phase_data.phase1(), usage={"input_tokens": 100, "output_tokens": 10}),
        Reply.json(phase_data.phase2(), usage={"input_tokens": 200, "output_tokens": 20}),
        Reply.json(phase_data.phase3(), usage={"input_tokens": 300, "output_tokens": 30}),
        Reply.json(phase_data.phase4(), usage={"input_tokens": 400, "output_tokens": 40}),
    )

    done = run_trial(trial.pk)

    assert done.status == TrialStatus.SUSTAINED
    requests = fake_anthropic.message_requests
    assert len(requests) == 4
    first = _user_texts(requests[0])[0]
    for part in (STUDENT_CLAIM, "Paris cut commute times", "Unless the city has no frequent"):
        assert part in first
    # Each phase reads the components the earlier ones produced.
    assert phase_data.phase1()["claim"]["statement"] in _user_texts(requests[1])[0]
    assert "Cities without frequent bus service." in _user_texts(requests[3])[0]
    assert done.phase1 == phase_data.phase1()
    assert done.phase4 == phase_data.phase4()
    assert (done.input_tokens, done.output_tokens) == (1000, 100)
    assert done.cost_usd > 0
    assert [call["phase"] for call in done.calls] == [1, 2, 3, 4]
    assert done.finished_at >= done.started_at
    assert done.reason == "" and done.stopped_phase is None


@pytest.mark.parametrize("component", ["warrant", "backing"])
def test_it_stops_at_the_circuit_breaker_after_exactly_two_calls(fake_anthropic, trial, component):
    fake_anthropic.enqueue(
        Reply.json(phase_data.phase1()),
        Reply.json(phase_data.phase2(**{f"{component}_strength": "irrelevant"})),
    )
    # Anything more would be a third call: answer it with a valid phase 3 to catch it.
    fake_anthropic.responder = lambda body: Reply.json(phase_data.phase3())

    done = run_trial(trial.pk)

    assert len(fake_anthropic.message_requests) == 2
    assert done.status == TrialStatus.TERMINATED
    assert done.stopped_phase == 2
    assert f"The {component} is irrelevant" in done.reason
    assert done.phase2 is not None and done.phase3 is None and done.phase4 is None


def test_it_repairs_a_verdict_that_contradicts_an_absolute_rebuttal(fake_anthropic, trial):
    rejected = phase_data.phase4(status="sustained")
    fake_anthropic.enqueue(
        Reply.json(phase_data.phase1()),
        Reply.json(phase_data.phase2()),
        Reply.json(phase_data.phase3(rebuttal_strength="absolute")),
        Reply.json(rejected),
        Reply.json(phase_data.phase4(status="overruled", reasoning="x" * 60)),
    )

    done = run_trial(trial.pk)

    assert done.status == TrialStatus.OVERRULED
    requests = fake_anthropic.message_requests
    assert len(requests) == 5
    repair = requests[4].body["messages"]
    assert [m["role"] for m in repair] == ["user", "assistant", "user"]
    assert json.loads(repair[1]["content"]) == rejected
    assert "rebuttal_absolute_requires_overruled" in repair[2]["content"]
    # The repair is the same conversation: the original prompt comes first.
    assert repair[0] == requests[3].body["messages"][0]
    assert [c["rules"] for c in done.calls if c["phase"] == 4] == [
        ["rebuttal_absolute_requires_overruled"],
        [],
    ]


def test_it_fails_when_the_repaired_reply_breaks_the_rule_again(fake_anthropic, trial):
    fake_anthropic.enqueue(
        Reply.json(phase_data.phase1()),
        Reply.json(phase_data.phase2()),
        Reply.json(phase_data.phase3(rebuttal_strength="absolute")),
        Reply.json(phase_data.phase4(status="sustained")),
        Reply.json(phase_data.phase4(status="remanded")),
    )
    fake_anthropic.responder = lambda body: Reply.json(phase_data.phase4(status="overruled"))

    done = run_trial(trial.pk)

    assert len(fake_anthropic.message_requests) == 5
    assert done.status == TrialStatus.FAILED
    assert done.stopped_phase == 4
    assert "rejected twice" in done.reason
    assert "rebuttal_absolute_requires_overruled" in done.reason
    assert done.phase4 is None
    # Both rejected calls were billed and are on the record.
    assert len(done.calls) == 5 and done.input_tokens > 0


def test_it_repairs_malformed_json(fake_anthropic, trial):
    fake_anthropic.enqueue(
        Reply.json('{"data": {"facts": ['),
        Reply.json(phase_data.phase1()),
        Reply.json(phase_data.phase2(warrant_strength="weak")),
    )

    done = run_trial(trial.pk)

    requests = fake_anthropic.message_requests
    assert len(requests) == 3
    assert "invalid_json" in _user_texts(requests[1])[-1]
    assert done.phase1 == phase_data.phase1()
    assert done.status == TrialStatus.TERMINATED


def test_it_fails_on_malformed_json_twice(fake_anthropic, trial):
    fake_anthropic.enqueue(Reply.json("not json at all"), Reply.json("{still not"))

    done = run_trial(trial.pk)

    assert len(fake_anthropic.message_requests) == 2
    assert done.status == TrialStatus.FAILED
    assert done.stopped_phase == 1
    assert "invalid_json" in done.reason


def test_it_names_the_qualifier_range_rule_when_repairing_phase_3(fake_anthropic, trial):
    fake_anthropic.enqueue(
        Reply.json(phase_data.phase1()),
        Reply.json(phase_data.phase2()),
        Reply.json(phase_data.phase3(degree="certainly", confidence_pct=40)),
        Reply.json(phase_data.phase3(degree="possibly", confidence_pct=40)),
        Reply.json(phase_data.phase4(status="remanded")),
    )

    done = run_trial(trial.pk)

    assert done.status == TrialStatus.REMANDED
    repair = _user_texts(fake_anthropic.message_requests[3])[-1]
    assert "qualifier_confidence_out_of_range" in repair
    assert "40 belongs to 'possibly'" in repair


def test_it_fails_at_once_when_the_model_call_fails(fake_anthropic, trial):
    fake_anthropic.enqueue(Reply.json(phase_data.phase1()), Reply.error(500, should_retry=False))

    done = run_trial(trial.pk)

    assert len(fake_anthropic.message_requests) == 2
    assert done.status == TrialStatus.FAILED
    assert done.stopped_phase == 2
    assert "call_failed" in done.reason
    assert done.phase1 is not None


def test_it_says_a_key_is_needed_without_calling_anyone(fake_anthropic, trial, monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY")

    done = run_trial(trial.pk)

    assert fake_anthropic.message_requests == []
    assert done.status == TrialStatus.FAILED
    assert "API key is needed" in done.reason


def test_it_runs_a_trial_only_once(fake_anthropic, trial):
    fake_anthropic.enqueue(
        Reply.json(phase_data.phase1()), Reply.json(phase_data.phase2(warrant_strength="weak"))
    )
    assert run_trial(trial.pk).status == TrialStatus.TERMINATED

    assert run_trial(trial.pk) is None
    assert len(fake_anthropic.message_requests) == 2


def test_it_leaves_a_trial_another_runner_holds_alone(fake_anthropic, trial):
    Trial.objects.filter(pk=trial.pk).update(status=TrialStatus.RUNNING, started_at=timezone.now())

    assert run_trial(trial.pk) is None
    assert fake_anthropic.message_requests == []


def test_it_resumes_an_abandoned_trial_after_its_last_saved_phase(fake_anthropic, trial):
    Trial.objects.filter(pk=trial.pk).update(
        status=TrialStatus.RUNNING,
        started_at=timezone.now() - STALE_AFTER - timedelta(seconds=1),
        phase1=phase_data.phase1(),
    )
    fake_anthropic.enqueue(
        Reply.json(phase_data.phase2()),
        Reply.json(phase_data.phase3()),
        Reply.json(phase_data.phase4()),
    )

    done = run_trial(trial.pk)

    assert done.status == TrialStatus.SUSTAINED
    assert len(fake_anthropic.message_requests) == 3
    assert "<claim>" in _user_texts(fake_anthropic.message_requests[0])[0]


def test_it_judges_a_free_text_question(fake_anthropic):
    student = make_user()
    trial = start_trial(user=student, question="  Should cities ban cars downtown?  ")
    fake_anthropic.enqueue(
        Reply.json(phase_data.phase1()), Reply.json(phase_data.phase2(backing_strength="weak"))
    )

    done = run_trial(trial.pk)

    assert done.question == "Should cities ban cars downtown?"
    assert "Should cities ban cars downtown?" in _user_texts(fake_anthropic.message_requests[0])[0]
    assert done.status == TrialStatus.TERMINATED
