"""The offline coach: a deterministic, rule-based tutor for when no API key is set.

It honours the same contract as the AI coach and goes through the same
guards and the same NDJSON stream, so a fresh checkout (`make run`) has a
working coach. It cannot write for the student, so it does what a patient
tutor with a checklist does:

- opening a step (empty message): says what the element is and asks the
  step's guiding question;
- a question from the student ("what is a warrant?"): explains the element;
- an attempt: names what the step heuristics find weak and asks the guiding
  question again, or, when nothing is weak, says so and asks whether to use
  it — it does not propose unasked (the coach guides first);
- a confirmation ("yes", "me sirve"): proposes the student's own text — the
  pending proposal, else their latest attempt at this step, else the draft;
- a rewrite request: it cannot rewrite, so it says so, proposes the tidied
  attempt and names what still needs work.

Confidence is fixed per situation (0.9 for confirmed text that passes the
heuristics, 0.7 for a tidied rewrite that passes, 0.4-0.5 otherwise), so the
advance guard behaves exactly as it does with the AI.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from coach.heuristics import check_step, problem_message
from coach.intents import is_confirmation, is_rewrite_request
from coach.schemas import CoachAIResult, ProposedUpdate
from coach.steps import label_for, next_step

__all__ = ["GUIDING_QUESTIONS", "OfflineTurn", "offline_reply", "split_for_stream", "tidy"]

GUIDING_QUESTIONS: dict[str, dict[str, str]] = {
    "claim": {
        "en": "What exactly do you want your reader to accept, in one sentence?",
        "es": "¿Qué quieres exactamente que tu lector acepte, en una sola frase?",
    },
    "grounds": {
        "en": "What evidence supports your claim: a figure, a source or something you observed?",
        "es": "¿Qué evidencia apoya tu afirmación: una cifra, una fuente o algo que observaste?",
    },
    "warrant": {
        "en": 'What general principle makes your evidence count for your claim ("if ..., then ...")?',
        "es": "¿Qué principio general hace que tu evidencia apoye tu afirmación («si ..., entonces ...»)?",
    },
    "groundsBacking": {
        "en": "Where does your evidence come from, and why should a reader trust it?",
        "es": "¿De dónde viene tu evidencia y por qué debería confiar en ella un lector?",
    },
    "warrantBacking": {
        "en": "What research, law, theory or expert view shows that your principle holds?",
        "es": "¿Qué investigación, ley, teoría u opinión experta muestra que tu principio se cumple?",
    },
    "qualifier": {
        "en": "How sure are you of your claim: certainly, probably, in most cases?",
        "es": "¿Qué tan seguro estás de tu afirmación: sin duda, probablemente, en la mayoría de los casos?",
    },
    "rebuttal": {
        "en": 'When would your claim not hold? Finish the sentence "unless ...".',
        "es": "¿Cuándo no se cumpliría tu afirmación? Completa la frase «a menos que ...».",
    },
}

_DEFINITIONS: dict[str, dict[str, str]] = {
    "claim": {
        "en": "The claim is the position you defend, stated as one clear sentence.",
        "es": "La afirmación es la postura que defiendes, dicha en una frase clara.",
    },
    "grounds": {
        "en": "The grounds are your evidence: facts, figures, sources or observations.",
        "es": "Los datos son tu evidencia: hechos, cifras, fuentes u observaciones.",
    },
    "warrant": {
        "en": "The warrant is the general principle that links your grounds to your claim.",
        "es": "La garantía es el principio general que une tus datos con tu afirmación.",
    },
    "groundsBacking": {
        "en": "The grounds backing says why your evidence can be trusted: its source and method.",
        "es": "El respaldo de los datos dice por qué tu evidencia es fiable: su fuente y su método.",
    },
    "warrantBacking": {
        "en": "The warrant backing shows why your principle holds: research, law, theory or history.",
        "es": "El respaldo de la garantía muestra por qué tu principio se cumple: investigación, leyes, teoría o historia.",
    },
    "qualifier": {
        "en": "The qualifier says how strongly you assert the claim, with a word like 'probably'.",
        "es": "El calificador dice con qué fuerza afirmas, con una palabra como «probablemente».",
    },
    "rebuttal": {
        "en": "The rebuttal names the exceptions: when your claim would not hold.",
        "es": "La refutación nombra las excepciones: cuándo no se cumpliría tu afirmación.",
    },
}

_SAY = {
    "en": {
        "open": "Let's work on your {label}.",
        "explain": "Good question.",
        "weak": "Not quite yet: {problems}.",
        "good": "That works as a {label}: nothing essential is missing.",
        "ask_use": 'If you want to keep it, reply "yes" and I will propose it for your draft.',
        "nothing": "There is nothing for me to use yet.",
        "proposed_ok": "Here is your text as the {label}: accept it to move on.",
        "proposed_weak": "Here is your text as the {label}, but {problems}.",
        "offline_rewrite": "The offline coach cannot rewrite for you, so I tidied your own wording.",
        "still_weak": "It still needs work: {problems}.",
        "looks_fine": "It already fits the {label}.",
        "draft_note": 'Your draft says: "{text}".',
        "and": " and ",
    },
    "es": {
        "open": "Trabajemos tu {label}.",
        "explain": "Buena pregunta.",
        "weak": "Todavía no: {problems}.",
        "good": "Eso funciona como {label}: no le falta nada esencial.",
        "ask_use": "Si quieres conservarlo, responde «sí» y lo propondré para tu borrador.",
        "nothing": "Todavía no hay nada que pueda usar.",
        "proposed_ok": "Aquí está tu texto como {label}: acéptalo para avanzar.",
        "proposed_weak": "Aquí está tu texto como {label}, pero {problems}.",
        "offline_rewrite": "El coach sin conexión no puede reescribir por ti, así que ordené tu propia redacción.",
        "still_weak": "Todavía necesita trabajo: {problems}.",
        "looks_fine": "Ya encaja como {label}.",
        "draft_note": "Tu borrador dice: «{text}».",
        "and": " y ",
    },
}


@dataclass(frozen=True, slots=True)
class OfflineTurn:
    """What the offline coach sees: the same facts the AI gets in its context."""

    step: str
    language: str
    message: str
    draft_text: str
    # The student's earlier messages on this step, oldest first, without `message`.
    step_messages: Sequence[str]
    pending_proposal: dict[str, Any] | None


def tidy(text: str) -> str:
    """The student's text with spacing fixed, a capital first letter and a final stop."""
    text = " ".join(text.split())
    if not text:
        return text
    text = text[0].upper() + text[1:]
    if len(text.split()) >= 3 and text[-1] not in ".!?»\"'…)":
        text += "."
    return text


def _say(language: str, key: str, **values: str) -> str:
    phrases = _SAY.get(language, _SAY["en"])
    return phrases[key].format(**values)


def _problems_text(problems: Sequence[str], language: str) -> str:
    joiner = _SAY.get(language, _SAY["en"])["and"]
    return joiner.join(problem_message(problem, language) for problem in problems)


def _is_attempt(message: str) -> bool:
    """A message that carries the student's own text (not agreement, not a request)."""
    return (
        bool(message.strip()) and not is_confirmation(message) and not is_rewrite_request(message)
    )


def _is_question_about_the_step(message: str, step: str) -> bool:
    """A short question is about the element; a claim-length one is a (weak) claim attempt."""
    stripped = message.strip()
    asks = stripped.endswith("?") or stripped.startswith("¿")
    return asks and (step != "claim" or len(stripped.split()) <= 6)


def _candidate(turn: OfflineTurn) -> str:
    """The student's own text for this step: their latest attempt, else the draft."""
    for earlier in reversed(turn.step_messages):
        if _is_attempt(earlier) and not _is_question_about_the_step(earlier, turn.step):
            return earlier.strip()
    return turn.draft_text.strip()


def _result(turn: OfflineTurn, text: str, *, question: bool = True, **fields: Any) -> CoachAIResult:
    if question:
        fields["nextQuestion"] = GUIDING_QUESTIONS[turn.step][turn.language]
    return CoachAIResult(assistantText=text, step=turn.step, **fields)


def _propose(turn: OfflineTurn, value: str, *, confidence_ok: float, lead: str) -> CoachAIResult:
    label = label_for(turn.step, turn.language).lower()
    verdict = check_step(step=turn.step, text=value)
    proposal = ProposedUpdate(field=turn.step, value=value, rationale=lead or None)
    if verdict.ok:
        text = " ".join(
            part for part in (lead, _say(turn.language, "proposed_ok", label=label)) if part
        )
        following = next_step(turn.step)
        advance: dict[str, Any] = (
            {"isComplete": True}
            if following is None
            else {"shouldAdvance": True, "nextStep": following}
        )
        return _result(
            turn, text, question=False, confidence=confidence_ok, proposedUpdate=proposal, **advance
        )
    problems = _problems_text(verdict.problems, turn.language)
    text = " ".join(
        part
        for part in (lead, _say(turn.language, "proposed_weak", label=label, problems=problems))
        if part
    )
    return _result(turn, text, confidence=0.4, proposedUpdate=proposal)


def _open_step(turn: OfflineTurn) -> CoachAIResult:
    label = label_for(turn.step, turn.language).lower()
    parts = [_say(turn.language, "open", label=label), _DEFINITIONS[turn.step][turn.language]]
    if turn.draft_text.strip():
        parts.append(_say(turn.language, "draft_note", text=turn.draft_text.strip()))
    return _result(turn, " ".join(parts))


def _confirm(turn: OfflineTurn) -> CoachAIResult:
    pending = turn.pending_proposal
    if pending and pending.get("field") == turn.step and str(pending.get("value", "")).strip():
        value = str(pending["value"]).strip()
    else:
        value = tidy(_candidate(turn))
    if not value:
        return _result(turn, _say(turn.language, "nothing"))
    return _propose(turn, value, confidence_ok=0.9, lead="")


_CLAUSES = re.compile(r"[.!?¿¡;:\n]+")


def _text_beside_request(message: str) -> str:
    """The student's own text in "Fix this: cities should ban cars" (the clauses that ask nothing)."""
    clauses = [clause.strip() for clause in _CLAUSES.split(message)]
    own = [c for c in clauses if len(c.split()) >= 3 and not is_rewrite_request(c)]
    return ". ".join(own)


def _rewrite(turn: OfflineTurn) -> CoachAIResult:
    value = tidy(_text_beside_request(turn.message) or _candidate(turn))
    if not value:
        return _result(turn, _say(turn.language, "nothing"))
    return _propose(turn, value, confidence_ok=0.7, lead=_say(turn.language, "offline_rewrite"))


def _attempt(turn: OfflineTurn) -> CoachAIResult:
    label = label_for(turn.step, turn.language).lower()
    verdict = check_step(step=turn.step, text=turn.message)
    if verdict.ok:
        text = f"{_say(turn.language, 'good', label=label)} {_say(turn.language, 'ask_use')}"
        return _result(turn, text, question=False, confidence=0.75)
    problems = _problems_text(verdict.problems, turn.language)
    text = (
        f"{_say(turn.language, 'weak', problems=problems)} {_DEFINITIONS[turn.step][turn.language]}"
    )
    return _result(turn, text, confidence=0.3)


def offline_reply(turn: OfflineTurn) -> CoachAIResult:
    """The offline coach's reply to one student message (empty = open the step)."""
    message = turn.message.strip()
    if not message:
        return _open_step(turn)
    if is_confirmation(message):
        return _confirm(turn)
    if is_rewrite_request(message):
        return _rewrite(turn)
    if _is_question_about_the_step(message, turn.step):
        text = f"{_say(turn.language, 'explain')} {_DEFINITIONS[turn.step][turn.language]}"
        return _result(turn, text)
    return _attempt(turn)


_SENTENCE_END = re.compile(r"[.!?…](?=\s)")


def split_for_stream(text: str) -> list[str]:
    """Growing prefixes of `text`, one per sentence: the offline coach "streams" too."""
    ends = [match.end() for match in _SENTENCE_END.finditer(text)]
    return [text[:end] for end in ends if text[:end].strip()] + [text]
