"""The system prompt is stable per language; the per-turn context goes into the messages."""

from __future__ import annotations

import json

from coach.prompts import (
    FIRST_TURN_HINT,
    HINTS_ONLY_HINT,
    HISTORY_LIMIT,
    QUESTION_HINT,
    TurnFacts,
    build_messages,
    system_prompt,
)
from coach.steps import STEP_IDS


def facts(**overrides: object) -> TurnFacts:
    values: dict = {
        "title": "Car-free centres",
        "language": "en",
        "current_step": "claim",
        "draft": dict.fromkeys(STEP_IDS, ""),
        "pending_proposal": None,
        "is_first_turn": False,
        "is_confirmation": False,
        "is_rewrite_request": False,
    }
    values.update(overrides)
    return TurnFacts(**values)


def test_it_caches_one_system_prompt_per_language() -> None:
    assert system_prompt("en") is system_prompt("en")
    assert system_prompt("es") != system_prompt("en")
    assert "Spanish" in system_prompt("es") and "Refutación" in system_prompt("es")
    for step in STEP_IDS:
        assert step in system_prompt("en")


def test_it_keeps_the_draft_out_of_the_system_prompt() -> None:
    messages = build_messages(
        history=[],
        message="hi",
        facts=facts(draft={**dict.fromkeys(STEP_IDS, ""), "claim": "ZEBRA"}),
    )
    assert "ZEBRA" not in system_prompt("en") and "ZEBRA" in messages[-1]["content"]


def test_it_adds_the_first_turn_hint_only_on_the_first_turn() -> None:
    first = build_messages(history=[], message="hi", facts=facts(is_first_turn=True, language="es"))
    later = build_messages(history=[], message="hi", facts=facts())
    assert FIRST_TURN_HINT["es"] in first[-1]["content"]
    assert FIRST_TURN_HINT["en"] not in later[-1]["content"]


def test_it_alternates_roles_starting_with_the_student() -> None:
    history = [("assistant", "Welcome."), ("user", "a"), ("user", "b"), ("assistant", "c")]
    messages = build_messages(history=history, message="d", facts=facts())
    assert [m["role"] for m in messages] == ["user", "assistant", "user"]
    assert messages[0]["content"] == "a\n\nb" and messages[-1]["content"].endswith(
        "<student_message>\nd\n</student_message>"
    )


def test_it_merges_the_message_into_a_trailing_student_turn() -> None:
    messages = build_messages(history=[("user", "lost turn")], message="again", facts=facts())
    assert len(messages) == 1 and messages[0]["content"].startswith("lost turn\n\n<context>")


def test_it_sends_only_the_recent_transcript() -> None:
    history = [("user" if i % 2 == 0 else "assistant", f"m{i}") for i in range(60)]
    messages = build_messages(history=history, message="now", facts=facts())
    sent = "".join(m["content"] for m in messages)
    assert "m59" in sent and "m39" not in sent
    assert len(messages) <= HISTORY_LIMIT + 1


def test_it_tells_the_model_when_the_page_opens_a_step() -> None:
    messages = build_messages(history=[], message="  ", facts=facts())
    assert "has not written anything" in messages[-1]["content"]


def context_of(messages: list[dict]) -> dict:
    content = messages[-1]["content"]
    return json.loads(content.split("<context>", 1)[1].split("</context>", 1)[0])


def test_it_sends_the_instructors_rules_for_this_step_in_the_context() -> None:
    messages = build_messages(
        history=[],
        message="Air pollution is bad for people.",
        facts=facts(
            current_step="grounds",
            proposals_allowed=False,
            required_for_this_step=("The grounds contain a number or a citation",),
        ),
    )
    assert context_of(messages)["instructor"] == {
        "proposals_allowed": False,
        "required_for_this_step": ["The grounds contain a number or a citation"],
    }
    assert HINTS_ONLY_HINT["en"] in messages[-1]["content"]
    for language in ("en", "es"):
        prompt = system_prompt(language)
        assert "required_for_this_step" in prompt and '"proposals_allowed": false' in prompt


def test_it_tells_the_model_a_question_is_to_be_answered_not_graded() -> None:
    messages = build_messages(
        history=[],
        message="¿Qué es la garantía?",
        facts=facts(language="es", question_topics=("warrant",), is_first_turn=True),
    )
    assert context_of(messages)["student_asks_about"] == ["warrant"]
    assert QUESTION_HINT["es"] in messages[-1]["content"]
    assert FIRST_TURN_HINT["es"] not in messages[-1]["content"]  # nothing to grade yet
    assert "Questions are not attempts" in system_prompt("es")
