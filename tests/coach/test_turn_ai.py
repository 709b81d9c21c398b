"""The coach endpoint end to end: real SDK, real HTTP, the fake Anthropic server on loopback."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.conf import settings

from coach.models import Argument, CoachMessage, CoachTurn
from tests.coach.support import coach_result, post_turn
from tests.fakes.anthropic_server import FakeAnthropicServer, Reply

pytestmark = pytest.mark.django_db(transaction=True)

GOOD = coach_result(
    text="A clear position. What evidence would convince a sceptic?",
    confidence=0.5,
    nextQuestion="Which figure or source supports it?",
)


@pytest.fixture(autouse=True)
def fast_retries(settings: Any) -> None:
    settings.LLM_MAX_RETRIES = 2


@pytest.fixture
def drafted(argument: Argument) -> Argument:
    """An argument with typed text and a pending proposal: what a failed turn must not touch."""
    argument.claim = "Cars out."
    argument.provenance = {"claim": "typed"}
    argument.pending_proposal = {"field": "claim", "value": "Cars out of centres.", "rationale": ""}
    argument.save()
    return argument


def draft_of(argument: Argument) -> dict[str, Any]:
    argument.refresh_from_db()
    return {
        "fields": [argument.claim, argument.grounds, argument.rebuttal],
        "step": argument.current_step,
        "pending": argument.pending_proposal,
        "provenance": argument.provenance,
        "completed_at": argument.completed_at,
    }


def assert_failed_turn(argument: Argument, lines: list[dict], code: str, before: dict) -> None:
    """The stored line, one error line with `code`; the student's words kept once; the draft
    untouched; a record."""
    stored, *deltas, last = lines
    assert last["error"] == code and last["detail"]
    assert all(line.get("type") == "delta" for line in deltas)
    assert list(CoachMessage.objects.values_list("role", "text")) == [
        ("user", "Cities should ban cars downtown.")
    ]
    message_id = CoachMessage.objects.get().pk
    assert stored == {"type": "stored", "user_message_id": message_id}
    assert last["user_message_id"] == message_id
    assert draft_of(argument) == before
    turn = CoachTurn.objects.get()
    assert turn.error_code == code and turn.assistant_message is None
    assert turn.user_message.text == "Cities should ban cars downtown."


def send(student: Any, argument: Argument, *, step: str = "claim") -> tuple[int, list[dict]]:
    status, _, lines = post_turn(
        student, argument_id=argument.pk, message="Cities should ban cars downtown.", step=step
    )
    return status, lines


def test_it_streams_a_good_reply_and_records_the_turn(
    fake_anthropic: FakeAnthropicServer,
    student: Any,
    argument: Argument,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("coach.turn.DELTA_INTERVAL_S", 0.0)  # every delta, however fast
    fake_anthropic.enqueue(Reply.json(GOOD, chunk_chars=8))
    status, lines = send(student, argument)
    assert status == 200
    stored, *deltas, last = lines
    assert stored["type"] == "stored"
    texts = [line["text"] for line in deltas]
    assert len(texts) > 2 and all(texts), "each delta carries only what the text gained"
    assert "".join(texts) == GOOD["assistantText"]
    expected_text = f"{GOOD['assistantText']}\n\n{GOOD['nextQuestion']}"
    assert last == {
        "type": "result",
        "result": {**GOOD, "assistantText": expected_text},
        "message_id": last["message_id"],
    }
    assert list(CoachMessage.objects.values_list("role", "text")) == [
        ("user", "Cities should ban cars downtown."),
        ("assistant", expected_text),
    ]
    turn = CoachTurn.objects.get()
    assert turn.raw_result == GOOD and turn.guarded_result == last["result"]
    assert turn.coach == "ai" and turn.error_code == "" and turn.model
    assert turn.input_tokens > 0 and turn.output_tokens > 0 and turn.cost_usd > 0
    assert turn.cache_creation_input_tokens > 0  # the system prompt went out cacheable
    request = fake_anthropic.message_requests[-1]
    assert request.streamed and request.body["model"] == settings.COACH_MODEL
    assert request.body["system"][0]["cache_control"] == {"type": "ephemeral"}
    assert request.output_schema["additionalProperties"] is False


def test_it_paces_the_deltas_of_a_fast_reply(
    fake_anthropic: FakeAnthropicServer, student: Any, argument: Argument
) -> None:
    # One character per event, all at once: dozens of text events in a few milliseconds.
    fake_anthropic.enqueue(Reply.json(GOOD, chunk_chars=1))
    _, lines = send(student, argument)
    deltas = [line["text"] for line in lines if line.get("type") == "delta"]
    assert 1 <= len(deltas) < 10 < len(GOOD["assistantText"])
    assert lines[-1]["result"]["assistantText"].startswith("".join(deltas))


def test_it_reads_the_cached_system_prompt_on_the_next_turn(
    fake_anthropic: FakeAnthropicServer, student: Any, argument: Argument
) -> None:
    fake_anthropic.enqueue(Reply.json(GOOD), Reply.json(GOOD))
    send(student, argument)
    send(student, argument)
    first, second = CoachTurn.objects.order_by("id")
    assert second.cache_read_input_tokens == first.cache_creation_input_tokens > 0
    assert second.cost_usd < first.cost_usd


def test_it_retries_a_429_and_then_succeeds(
    fake_anthropic: FakeAnthropicServer, student: Any, argument: Argument
) -> None:
    fake_anthropic.enqueue(Reply.error(429), Reply.json(GOOD))
    status, lines = send(student, argument)
    assert status == 200 and lines[-1]["type"] == "result"
    assert len(fake_anthropic.message_requests) == 2
    assert CoachTurn.objects.get().error_code == ""


def test_it_fails_the_stream_when_529_outlasts_the_retries(
    fake_anthropic: FakeAnthropicServer, student: Any, drafted: Argument
) -> None:
    before = draft_of(drafted)
    fake_anthropic.enqueue(*[Reply.error(529)] * 3)
    status, lines = send(student, drafted)
    assert status == 200 and len(lines) == 2  # stored, error
    assert len(fake_anthropic.message_requests) == 1 + settings.LLM_MAX_RETRIES
    assert_failed_turn(drafted, lines, "coach_stream_failed", before)


def test_it_reports_malformed_json_as_a_validation_failure(
    fake_anthropic: FakeAnthropicServer, student: Any, drafted: Argument
) -> None:
    before = draft_of(drafted)
    fake_anthropic.enqueue(Reply.json('{"assistantText": "Half a thought", "step": '))
    status, lines = send(student, drafted)
    assert_failed_turn(drafted, lines, "coach_validation_failed", before)
    streamed = "".join(line["text"] for line in lines if line.get("type") == "delta")
    assert streamed and "Half a thought".startswith(streamed)  # the student saw it stream
    turn = CoachTurn.objects.get()
    assert turn.raw_result == {"raw_text": '{"assistantText": "Half a thought", "step": '}
    assert turn.output_tokens > 0  # billed even though unusable


def test_it_reports_a_reply_that_breaks_the_schema_as_a_validation_failure(
    fake_anthropic: FakeAnthropicServer, student: Any, drafted: Argument
) -> None:
    before = draft_of(drafted)
    fake_anthropic.enqueue(Reply.json({**GOOD, "mood": "cheerful"}))
    _, lines = send(student, drafted)
    assert_failed_turn(drafted, lines, "coach_validation_failed", before)


@pytest.mark.parametrize("framing", ["chunked", "close"])
def test_it_fails_the_stream_when_the_connection_is_cut(
    fake_anthropic: FakeAnthropicServer, student: Any, drafted: Argument, framing: str
) -> None:
    before = draft_of(drafted)
    fake_anthropic.enqueue(Reply.cut(GOOD, after_chars=40, framing=framing, chunk_chars=8))
    _, lines = send(student, drafted)
    assert_failed_turn(drafted, lines, "coach_stream_failed", before)
    assert lines[1]["type"] == "delta"  # part of the reply had arrived


def test_it_fails_the_stream_on_an_error_event(
    fake_anthropic: FakeAnthropicServer, student: Any, drafted: Argument
) -> None:
    before = draft_of(drafted)
    fake_anthropic.enqueue(Reply.stream_error(json.dumps(GOOD)[:30]))
    _, lines = send(student, drafted)
    assert_failed_turn(drafted, lines, "coach_stream_failed", before)


def test_it_reports_an_empty_assistant_text(
    fake_anthropic: FakeAnthropicServer, student: Any, drafted: Argument
) -> None:
    before = draft_of(drafted)
    fake_anthropic.enqueue(Reply.json(coach_result(text="  ", proposedUpdate=None)))
    _, lines = send(student, drafted)
    assert_failed_turn(drafted, lines, "coach_empty_response", before)
    assert CoachTurn.objects.get().raw_result == {"assistantText": "  ", "step": "claim"}


def test_it_refuses_a_stale_step_without_calling_the_model(
    fake_anthropic: FakeAnthropicServer, student: Any, drafted: Argument
) -> None:
    before = draft_of(drafted)
    status, lines = send(student, drafted, step="grounds")
    assert status == 200 and len(lines) == 2  # stored, error
    assert_failed_turn(drafted, lines, "coach_step_mismatch", before)
    assert fake_anthropic.message_requests == []
    assert CoachMessage.objects.get().step == "grounds"  # what the student was looking at


def test_it_keeps_a_proposal_pending_until_the_student_decides(
    fake_anthropic: FakeAnthropicServer, student: Any, argument: Argument
) -> None:
    proposal = {
        "field": "claim",
        "value": "Cities should ban cars downtown.",
        "rationale": "Clear.",
    }
    fake_anthropic.enqueue(
        Reply.json(
            coach_result(
                confidence=0.9, proposedUpdate=proposal, shouldAdvance=True, nextStep="warrant"
            )
        )
    )
    _, lines = send(student, argument)
    result = lines[-1]["result"]
    assert result["proposedUpdate"] == proposal
    assert result["nextStep"] == "grounds"  # corrected by the guard
    argument.refresh_from_db()
    assert argument.pending_proposal == proposal and argument.claim == ""
    decisions = {d["name"]: d for d in CoachTurn.objects.get().guard_decisions}
    assert (
        decisions["next_step"]["changed"]
        and "warrant -> grounds" in decisions["next_step"]["reason"]
    )
    assert not decisions["first_turn_bias"]["changed"]  # 0.9 >= 0.8 on a first message


def test_it_sends_the_transcript_and_the_first_turn_hint(
    fake_anthropic: FakeAnthropicServer, student: Any, argument: Argument
) -> None:
    fake_anthropic.enqueue(Reply.json(GOOD), Reply.json(GOOD))
    send(student, argument)
    post_turn(student, argument_id=argument.pk, message="yes", step="claim")
    first, second = fake_anthropic.message_requests
    assert "first message for this step" in first.body["messages"][-1]["content"]
    roles = [m["role"] for m in second.body["messages"]]
    assert roles == ["user", "assistant", "user"]
    last = second.body["messages"][-1]["content"]
    assert '"student_confirms_a_suggestion": true' in last and "first message" not in last


def test_it_reattaches_the_pending_proposal_when_a_spanish_student_confirms(
    fake_anthropic: FakeAnthropicServer, student: Any, spanish_argument: Argument
) -> None:
    pending = {"field": "claim", "value": "Las ciudades deben cerrar el centro.", "rationale": ""}
    spanish_argument.pending_proposal = pending
    spanish_argument.save()
    forgetful = coach_result(text="¡Perfecto! Acéptala para seguir.", confidence=0.9)
    fake_anthropic.enqueue(Reply.json(forgetful))
    _, _, lines = post_turn(
        student, argument_id=spanish_argument.pk, message="Sí, me sirve.", step="claim"
    )
    assert lines[-1]["result"]["proposedUpdate"] == {
        "field": "claim",
        "value": pending["value"],
    }
    decisions = {d["name"]: d for d in CoachTurn.objects.get().guard_decisions}
    assert decisions["confirmation"]["changed"]


def test_it_removes_an_unsure_proposal_on_the_first_message_for_a_step(
    fake_anthropic: FakeAnthropicServer, student: Any, argument: Argument
) -> None:
    eager = coach_result(
        confidence=0.7, proposedUpdate={"field": "claim", "value": "Ban cars downtown now."}
    )
    fake_anthropic.enqueue(Reply.json(eager), Reply.json(eager))
    first = send(student, argument)[1][-1]["result"]
    second = send(student, argument)[1][-1]["result"]
    assert "proposedUpdate" not in first
    assert second["proposedUpdate"]["value"] == "Ban cars downtown now."
    argument.refresh_from_db()
    assert argument.pending_proposal["value"] == "Ban cars downtown now."
