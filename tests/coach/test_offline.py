"""The offline coach on its own: deterministic replies that honour the contract."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coach.guards import FIRST_TURN_CONFIDENCE, GuardContext, apply_guards
from coach.heuristics import assess_step
from coach.offline import GUIDING_QUESTIONS, OfflineTurn, offline_reply, split_for_stream, tidy
from coach.steps import STEP_IDS


def turn(message: str, *, step: str = "claim", language: str = "en", **fields: Any) -> OfflineTurn:
    return OfflineTurn(
        step=step,
        language=language,
        message=message,
        draft_text=fields.get("draft_text", ""),
        step_messages=fields.get("step_messages", ()),
        pending_proposal=fields.get("pending_proposal"),
    )


@pytest.mark.parametrize("step", STEP_IDS)
@pytest.mark.parametrize("language", ["en", "es"])
def test_it_opens_every_step_with_its_guiding_question(step: str, language: str) -> None:
    reply = offline_reply(turn("", step=step, language=language))
    assert reply.step == step and reply.proposedUpdate is None
    assert reply.nextQuestion in GUIDING_QUESTIONS[step][language]


def test_it_names_what_the_heuristics_find_weak() -> None:
    reply = offline_reply(turn("Cars are bad for people.", step="grounds"))
    assert "no evidence" in reply.assistantText and reply.proposedUpdate is None


def test_it_names_weaknesses_in_spanish() -> None:
    reply = offline_reply(turn("Los coches son ruidosos.", step="rebuttal", language="es"))
    assert "excepción" in reply.assistantText


def test_it_puts_good_words_up_at_once_so_one_accept_keeps_them() -> None:
    # Type, "yes", Accept used to be three moves a step; a good attempt is one Accept.
    reply = offline_reply(turn("cities should ban cars downtown", step="claim"))
    assert reply.proposedUpdate.value == "Cities should ban cars downtown."
    assert reply.confidence >= FIRST_TURN_CONFIDENCE  # the first-turn guard keeps it
    assert '"Accept"' in reply.assistantText and "yes" not in reply.assistantText
    guarded = apply_guards(
        result=reply,
        context=GuardContext(current_step="claim", draft_text="", is_first_turn=True),
    ).result
    assert guarded.proposedUpdate is not None and guarded.shouldAdvance


def test_it_says_finish_not_move_on_on_the_last_step() -> None:
    reply = offline_reply(turn("unless it rains a lot", step="rebuttal"))
    assert reply.isComplete and "finish" in reply.assistantText
    assert "move on" not in reply.assistantText


@pytest.mark.parametrize("message", ["", "yes", "unless it rains", "fix it"])
def test_it_offers_nothing_to_accept_once_the_argument_is_complete(message: str) -> None:
    done = OfflineTurn(
        step="rebuttal", language="en", message=message, draft_text="unless it rains",
        step_messages=("unless it rains",), pending_proposal=None, complete=True,
    )  # fmt: skip
    reply = offline_reply(done)
    assert reply.proposedUpdate is None and not reply.isComplete
    assert "Accept" not in reply.assistantText and "complete" in reply.assistantText


@pytest.mark.parametrize(("confirm", "language"), [("yes", "en"), ("Sí, me sirve.", "es")])
def test_it_proposes_the_students_own_text_on_confirmation(confirm: str, language: str) -> None:
    earlier = ["what is a claim?", "cities should ban cars downtown"]
    reply = offline_reply(turn(confirm, language=language, step_messages=earlier))
    assert reply.proposedUpdate.value == "Cities should ban cars downtown."
    assert reply.shouldAdvance and reply.nextStep == "grounds" and reply.confidence == 0.9


def test_it_prefers_the_pending_proposal_on_confirmation() -> None:
    pending = {"field": "claim", "value": "Cities should keep cars out.", "rationale": ""}
    reply = offline_reply(turn("ok", step_messages=["something else"], pending_proposal=pending))
    assert reply.proposedUpdate.value == "Cities should keep cars out."


def test_it_never_proposes_weak_confirmed_text() -> None:
    # "yes" used to put flawed words up ("... but it carries no evidence") and Accept kept them.
    reply = offline_reply(turn("yes", step="grounds", step_messages=["cars are bad"]))
    assert reply.proposedUpdate is None and not reply.shouldAdvance
    assert "no evidence" in reply.assistantText and "put your words up" not in reply.assistantText


def test_it_has_nothing_to_propose_before_the_student_wrote_anything() -> None:
    reply = offline_reply(turn("yes"))
    assert reply.proposedUpdate is None and reply.nextQuestion


def test_it_tidies_the_text_beside_a_rewrite_request() -> None:
    reply = offline_reply(turn("Fix this: cities should ban cars downtown"))
    assert reply.proposedUpdate.value == "Cities should ban cars downtown."
    assert "cannot rewrite" in reply.assistantText


def test_it_completes_on_a_confirmed_rebuttal() -> None:
    reply = offline_reply(
        turn("sí", step="rebuttal", language="es", step_messages=["a menos que llueva mucho"])
    )
    assert reply.isComplete and reply.nextStep is None


@pytest.mark.parametrize("step", STEP_IDS)
def test_its_replies_pass_the_guards_unchanged_on_a_later_turn(step: str) -> None:
    """The offline coach already honours the contract: no guard needs to repair it."""
    for message in ("", "what is this step?", "hmm", "yes"):
        reply = offline_reply(turn(message, step=step, step_messages=["some text of mine here"]))
        context = GuardContext(current_step=step, draft_text="", is_confirmation=message == "yes")
        decisions = apply_guards(result=reply, context=context).decisions
        assert [d.name for d in decisions if d.changed] in ([], ["question_appending"])


def test_it_streams_growing_prefixes_that_end_in_the_whole_text() -> None:
    text = "One sentence. Another one! A third?"
    assert split_for_stream(text) == ["One sentence.", "One sentence. Another one!", text]


def test_it_tidies_spacing_capitals_and_the_final_stop() -> None:
    assert tidy("  cities   should ban cars ") == "Cities should ban cars."
    assert tidy("probably") == "Probably"
    assert tidy("Why would they?") == "Why would they?"


def test_it_promises_no_card_the_first_turn_guard_would_take_away() -> None:
    # "yes" as the first message on a step, with weak text typed in the draft.
    reply = offline_reply(turn("yes", step="grounds", draft_text="cars are bad"))
    guarded = apply_guards(
        result=reply,
        context=GuardContext(
            current_step="grounds", draft_text="cars are bad", is_first_turn=True,
            is_confirmation=True,
        ),
    ).result  # fmt: skip
    assert guarded.proposedUpdate is None
    assert "put your words up" not in guarded.assistantText
    assert "Here is your text" not in guarded.assistantText


@settings(max_examples=80, deadline=None)
@given(
    text=st.one_of(
        st.sampled_from(
            [
                "Cities should ban cars downtown.",
                "Cities should ban cars downtown because they should.",
                "idk",
                "In Madrid, pollution fell 30% after the ban in 2018.",
                "unless it rains",
                "probably because cars are loud",
            ]
        ),
        st.text(max_size=80),
    ),
    step=st.sampled_from(STEP_IDS),
    confirm=st.booleans(),
)
def test_it_only_ever_proposes_text_it_finds_nothing_wrong_with(
    text: str, step: str, confirm: bool
) -> None:
    draft = {"claim": "Cities should ban cars downtown.", "grounds": "Pollution fell 30% in 2018."}
    draft.pop(step, None)
    offline = OfflineTurn(
        step=step, language="en", message="yes" if confirm else text, draft_text="",
        step_messages=(text,) if confirm else (), pending_proposal=None, draft=draft,
    )  # fmt: skip
    proposal = offline_reply(offline).proposedUpdate
    if proposal is not None:
        verdict = assess_step(step=step, text=proposal.value, draft=draft, language="en")
        assert verdict.ok, (proposal.value, verdict.problems)
