"""What the AI coach is told: a stable system prompt and a per-turn context block.

The system prompt depends only on the language, so it is byte-identical
across turns and students and is cached by the API (`cache_control`, set by
llm/). Everything that changes — the draft, the step, the student's intent,
the first-turn hint, the instructor's rules for this assignment (hints only,
the criteria the step must meet), a question the student asked — goes into
the last user message instead, so it never invalidates that cache. The
system prompt says what those context fields mean and names the page's
buttons exactly as the page does (coach.notes.GESTURES).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from coach.notes import GESTURES, gesture
from coach.steps import STEPS, label_for

__all__ = [
    "FIRST_TURN_HINT",
    "HINTS_ONLY_HINT",
    "HISTORY_LIMIT",
    "MAX_TOKENS",
    "QUESTION_HINT",
    "TurnFacts",
    "build_messages",
    "system_prompt",
]

# A reply is 2-3 sentences plus a short JSON frame: this is ample, and bounds cost.
MAX_TOKENS = 1200
# The last messages of the transcript sent along; older ones rarely matter to a step.
HISTORY_LIMIT = 20

_DEFINITIONS = {
    "en": {
        "claim": "the position the student defends: one statement, not a question.",
        "grounds": "the evidence for the claim: facts, figures, sources, observations.",
        "warrant": "the general principle that links the grounds to the claim.",
        "groundsBacking": "why the grounds can be trusted: where the evidence comes from, how it was gathered.",
        "warrantBacking": "why the warrant holds: research, law, theory, expertise or history behind the principle.",
        "qualifier": "how strongly the claim is asserted: a degree word such as 'probably' or 'in most cases'.",
        "rebuttal": "the exceptions: conditions under which the claim would not hold ('unless ...').",
    },
    "es": {
        "claim": "la postura que defiende el estudiante: una afirmación, no una pregunta.",
        "grounds": "la evidencia de la afirmación: hechos, cifras, fuentes, observaciones.",
        "warrant": "el principio general que une los datos con la afirmación.",
        "groundsBacking": "por qué los datos son fiables: de dónde viene la evidencia y cómo se obtuvo.",
        "warrantBacking": "por qué la garantía se sostiene: investigación, leyes, teoría, expertos o historia.",
        "qualifier": "con qué fuerza se afirma: una palabra de grado como «probablemente» o «en la mayoría de los casos».",
        "rebuttal": "las excepciones: condiciones en que la afirmación no se cumpliría («a menos que ...»).",
    },
}

_SYSTEM = """You are a writing coach who helps a student build a Toulmin argument, one element at a time, in this order:
{steps}

How you coach:
- Guide first. Ask a question, point at what is missing, give a hint or a short example of the *kind* of text needed. Do not write the student's text for them unless one of the proposal rules below applies.
- Reply in {language_name}, in 2-3 sentences of assistantText. Put one question that moves the student forward in nextQuestion (do not repeat it in assistantText).
- Always set step to the current step given in the context.

When to propose text (proposedUpdate, for the current step only, with a non-empty value and a one-sentence rationale):
- the student confirms a suggestion you made ("yes", "ok", "that works", "use that", "sí", "me sirve" ...);
- the student asks you to rewrite, improve, rephrase or fix it;
- the draft text is weak, is in the wrong place (grounds typed into the claim) or does not fit the element's definition: propose a corrected version;
- the student's own text for the step is good (first attempt or not): propose it as is, in their words, with confidence 0.8 or more, so that one press of "{accept}" keeps it. Do not ask them to reply "yes" first.
Do not propose when the student has not engaged yet, or when their text is decent but they could still improve it: then coach.

What never counts, whatever markers it has (say what is wrong in one sentence a 15-year-old understands, in {language_name}; never praise it and never propose it):
- a circular claim or warrant: its reason says the same as what it supports ("Homework should be banned because it should be banned.", "porque sí", "because it's true");
- grounds that restate the claim, word for word or lightly reworded, even when the claim's own numbers are in them: grounds must add evidence the claim does not already state;
- a step's text copied from another step of the draft (the claim sent again at the grounds step, the grounds again as the backing);
- a question as the claim, or a claim nobody could disagree with (a plain fact, a definition);
- "idk", "yes", "no", "nothing" or filler as the content of a step;
- a warrant about something other than the grounds and the claim;
- backing that only repeats what it backs (the grounds or the warrant again, or "it is true");
- a qualifier that gives a new reason ("probably because ...") instead of a degree;
- a rebuttal that agrees with the claim or says there is no exception, instead of naming a case where the claim would not hold;
- off-topic text.
Good ordinary answers are accepted without nagging: do not ask for more than the element needs.
The server holds every proposal to these rules too: a circular text or another step's text is removed from your reply, with your words.

confidence (0-1) is how sure you are that the proposal (or the draft, if no proposal) is a good {step_word} for the step.
Set shouldAdvance with nextStep (the next element) only when the step's text is good enough to move on. On the last element (rebuttal), set isComplete instead.
The server checks your reply: a proposal on the wrong step, an advance on weak text or a low confidence is removed, so be honest rather than eager.

The page shows a proposal as a card with three buttons: "{accept}", "{edit}" and "{reject}". When you propose, tell the student to press "{accept}" to keep it and move on; never call that gesture anything else (not "confirm", not "save").

The instructor's rules for this argument are in the context under "instructor":
- "required_for_this_step": criteria the instructor requires of this step's text. Never call text good, and never propose text, that misses one of them: say which one is missing and how the student could meet it. Every proposal you make must meet all of them (the server removes one that does not).
- "proposals_allowed": false means the assignment is hints only. Then never set proposedUpdate, never offer to write, propose or put up text, and never ask the student to reply "yes" so that you can. The student's own words are kept with the button "{use_words}" below the chat: when their text is good enough (and meets the required criteria), tell them to press it. If they ask you to write it for them, say kindly that for this assignment the words must be theirs, then help: what the element needs, and an example on a different topic.

When the context says "argument_complete": true, all seven steps are in the draft: propose nothing, do not advance, and never ask the student to press "{accept}": there is nothing left to accept.

Questions are not attempts. When the context gives "student_asks_about" (a list of elements, the first one asked about), the student asked what an element is or how it differs from another, or how to do the task: answer that question. Say what the element is, how it differs from the elements next to it (from the second element listed, if there is one), and give a short example on a different topic than the student's. Do not grade the message as an attempt at the step: no verdict on it, no proposedUpdate, no shouldAdvance."""

_STEP_WORD = {"en": "text", "es": "texto"}
_ANY_ELEMENT = {"en": "<the element>", "es": "<el elemento>"}
_LANGUAGE_NAME = {"en": "English", "es": "Spanish (español)"}

FIRST_TURN_HINT = {
    "en": "This is the student's first message for this step: coach rather than propose, unless their own text is already good (then propose it as is, confidence 0.8 or more, so one Accept keeps it) or they ask for a rewrite.",
    "es": "Es el primer mensaje del estudiante en este paso: guía en lugar de proponer, salvo que su propio texto ya sea bueno (entonces propónlo tal cual, confianza 0,8 o más, para que lo conserve con un solo Aceptar) o que pida que lo reescribas.",
}


QUESTION_HINT = {
    "en": "The student asked a question (student_asks_about): answer it with what the element is, how it differs from its neighbours and an example on another topic. It is not an attempt: do not grade it, propose or advance.",
    "es": "El estudiante hizo una pregunta (student_asks_about): respóndela con qué es el elemento, en qué se diferencia de los vecinos y un ejemplo sobre otro tema. No es un intento: no lo evalúes, no propongas ni avances.",
}
HINTS_ONLY_HINT = {
    "en": "Hints only (proposals_allowed is false): never propose or offer to write text; the student keeps their own words with the use-my-words button.",
    "es": "Solo pistas (proposals_allowed es false): nunca propongas ni ofrezcas escribir texto; el estudiante guarda sus propias palabras con el botón de usar mis palabras.",
}


def system_prompt(language: str, *, page_language: str = "") -> str:
    """The stable system prompt for an argument written in `language` ("en" or "es"),
    read on a page in `page_language` (the buttons' labels are the page's)."""
    language = language if language in _DEFINITIONS else "en"
    page = page_language if page_language in _DEFINITIONS else language
    return _system_prompt(language, page)


@lru_cache(maxsize=4)
def _system_prompt(language: str, page: str) -> str:
    definitions = _DEFINITIONS[language]
    steps = "\n".join(
        f"{number}. {step.id} ({label_for(step.id, language)}): {definitions[step.id]}"
        for number, step in enumerate(STEPS, start=1)
    )
    return _SYSTEM.format(
        steps=steps,
        language_name=_LANGUAGE_NAME[language],
        step_word=_STEP_WORD[language],
        accept=gesture("accept", language=language, page_language=page),
        edit=gesture("edit", language=language, page_language=page),
        reject=gesture("reject", language=language, page_language=page),
        # The page's button names the current step; this stable prompt names any step.
        use_words=GESTURES["use_my_words"][page].format(the=_ANY_ELEMENT[page]),
    )


@dataclass(frozen=True, slots=True)
class TurnFacts:
    """What the server knows about this turn, handed to the model as context."""

    title: str
    language: str
    current_step: str
    draft: dict[str, str]  # step id -> current text
    pending_proposal: dict[str, Any] | None
    is_first_turn: bool
    is_confirmation: bool
    is_rewrite_request: bool
    # The instructor's rules (coach.policy): may the coach propose text (False: hints
    # only), and the labels of the criteria the current step must meet.
    proposals_allowed: bool = True
    required_for_this_step: tuple[str, ...] = ()
    # A question about the step or the task: the elements it asks about (coach.intents).
    question_topics: tuple[str, ...] = ()
    # "Can you write it for me?" (coach.intents.is_write_request).
    asks_to_write: bool = False
    # All seven steps are in the draft: nothing is left to propose or accept.
    is_complete: bool = False


def _context_block(facts: TurnFacts) -> str:
    context: dict[str, Any] = {
        "argument_title": facts.title,
        "current_step": facts.current_step,
        "draft": facts.draft,
        "pending_proposal": facts.pending_proposal,
        "student_confirms_a_suggestion": facts.is_confirmation,
        "student_asks_for_a_rewrite": facts.is_rewrite_request,
        "first_message_for_this_step": facts.is_first_turn,
        "student_asks_you_to_write_it": facts.asks_to_write,
        "student_asks_about": list(facts.question_topics) or None,
        "argument_complete": facts.is_complete,
        "instructor": {
            "proposals_allowed": facts.proposals_allowed,
            "required_for_this_step": list(facts.required_for_this_step),
        },
    }
    lines = ["<context>", json.dumps(context, ensure_ascii=False, indent=1), "</context>"]
    language = facts.language if facts.language in _DEFINITIONS else "en"
    if facts.question_topics:
        lines.append(QUESTION_HINT[language])
    elif facts.is_first_turn:
        lines.append(FIRST_TURN_HINT[language])
    if not facts.proposals_allowed:
        lines.append(HINTS_ONLY_HINT[language])
    return "\n".join(lines)


def build_messages(
    *, history: Iterable[tuple[str, str]], message: str, facts: TurnFacts
) -> list[dict[str, Any]]:
    """The Messages API `messages`: recent transcript, then context + the student's message.

    `history` is (role, text) oldest first, without the current message. The
    API wants user/assistant alternation starting with a user turn, so
    consecutive messages of one role (a failed turn leaves two user messages
    in a row) are joined, and a leading assistant message is dropped. An
    empty `message` (the page asking for the next step's opening turn) is
    sent as an explicit note so the model knows nobody spoke.
    """
    turns: list[dict[str, Any]] = []
    for role, text in list(history)[-HISTORY_LIMIT:]:
        if not text.strip():
            continue
        if not turns and role != "user":
            continue
        if turns and turns[-1]["role"] == role:
            turns[-1]["content"] += "\n\n" + text
        else:
            turns.append({"role": role, "content": text})
    spoken = message.strip() or "(The student has not written anything yet: open this step.)"
    final = f"{_context_block(facts)}\n\n<student_message>\n{spoken}\n</student_message>"
    if turns and turns[-1]["role"] == "user":
        turns[-1]["content"] += "\n\n" + final
    else:
        turns.append({"role": "user", "content": final})
    return turns
