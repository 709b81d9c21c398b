"""The offline coach: a deterministic, rule-based tutor for when no API key is set.

It honours the same contract as the AI coach and goes through the same
guards and the same NDJSON stream, so a fresh checkout (`make run`) has a
working coach. It cannot write for the student, so it does what a patient
tutor with a checklist does:

- opening a step (empty message): says what the element is, what the
  instructor requires of it (if anything), and asks the step's guiding
  question;
- a question about the step or the task ("what is a warrant?", "¿qué es la
  garantía?", coach.intents): answers it with what the element is, how it
  differs from its neighbours and an example on another topic
  (coach.explain) — never a verdict on the question as if it were an attempt;
- an attempt: names what `coach.heuristics.assess_step` finds wrong (words
  that are not words, a circular reason, another step's text again, grounds
  that restate the claim, a question or a plain fact as the claim, "idk", a
  warrant that links nothing, a rebuttal that agrees ... : coach.judgment)
  and asks the guiding question again; when nothing is wrong it checks the
  instructor's required criteria before it praises (and names what they ask
  for when one is missing); when all is well it says so and puts the
  student's own words up as a proposal at once, so one press of Accept keeps
  them. Under hints only it points to the "Use my words for ..." button
  instead: it never offers a proposal it may not make;
- a confirmation ("yes", "me sirve"): proposes the student's own text — the
  pending proposal, else their latest attempt at this step, else the draft —
  unless the text has a problem (it says which), misses a required criterion
  (it says what is missing), or is the text the student just rejected:
  flawed text is never proposed;
- a rewrite request: it cannot rewrite, so it says so and proposes the tidied
  attempt if it is fit to keep, else names what is wrong;
- a complete argument: nothing is left to accept, so it proposes nothing and
  says so;
- "can you write it for me?": under hints only, the policy, kindly, then
  what the element needs and an example; otherwise as a rewrite request, or,
  with nothing of the student's to tidy, what the element needs and an
  example.

The button it tells the student to press is named as the page names it
(coach.notes.GESTURES).

It varies its words: every sentence has two or three phrasings, chosen by
the number of the student's messages on the step, skipping any sentence the
previous reply said, so it never says the same sentence twice in a row.

Confidence is fixed per situation (0.9 for the student's good text, put up
on an attempt or a confirmation, 0.7 for a tidied rewrite, 0.3-0.5 otherwise),
so the first-turn and advance guards behave exactly as they do with the AI.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from coach import notes
from coach.explain import explain
from coach.heuristics import HeuristicResult, assess_step, problem_message
from coach.intents import classify, is_rewrite_request
from coach.provenance import normalise
from coach.schemas import CoachAIResult, ProposedUpdate
from coach.steps import next_step, phrases_for

__all__ = [
    "GUIDING_QUESTIONS",
    "OfflineTurn",
    "acknowledge_rejection",
    "offline_reply",
    "pick",
    "split_for_stream",
    "tidy",
]

# Two or three phrasings of everything the coach says; `_pick` chooses one by
# the turn count and never one that the coach's previous reply already said,
# so it does not repeat itself word for word.
GUIDING_QUESTIONS: dict[str, dict[str, tuple[str, ...]]] = {
    "claim": {
        "en": (
            "What exactly do you want your reader to accept, in one sentence?",
            "In one sentence: what position do you want to defend?",
        ),
        "es": (
            "¿Qué quieres exactamente que tu lector acepte, en una sola frase?",
            "En una frase: ¿qué postura quieres defender?",
        ),
    },
    "grounds": {
        "en": (
            "What evidence supports your claim: a figure, a source or something you observed?",
            "Which fact, figure or source would make a doubtful reader take your claim seriously?",
        ),
        "es": (
            "¿Qué evidencia apoya tu afirmación: una cifra, una fuente o algo que observaste?",
            "¿Qué hecho, cifra o fuente haría que un lector escéptico tomara en serio tu afirmación?",
        ),
    },
    "warrant": {
        "en": (
            'What general principle makes your evidence count for your claim ("if ..., then ...")?',
            "Why does your evidence matter for your claim? Say it as a general rule.",
        ),
        "es": (
            "¿Qué principio general hace que tu evidencia apoye tu afirmación («si ..., entonces ...»)?",
            "¿Por qué tu evidencia importa para tu afirmación? Dilo como una regla general.",
        ),
    },
    "groundsBacking": {
        "en": (
            "Where does your evidence come from, and why should a reader trust it?",
            "Who collected your evidence, and how?",
        ),
        "es": (
            "¿De dónde viene tu evidencia y por qué debería confiar en ella un lector?",
            "¿Quién reunió tu evidencia y cómo?",
        ),
    },
    "warrantBacking": {
        "en": (
            "What research, law, theory or expert view shows that your principle holds?",
            "Who else holds your principle: which study, law, theory or expert?",
        ),
        "es": (
            "¿Qué investigación, ley, teoría u opinión experta muestra que tu principio se cumple?",
            "¿Quién más sostiene tu principio: qué estudio, ley, teoría o experto?",
        ),
    },
    "qualifier": {
        "en": (
            "How sure are you of your claim: certainly, probably, in most cases?",
            "How strongly should your claim be read: always, usually, probably?",
        ),
        "es": (
            "¿Qué tan seguro estás de tu afirmación: sin duda, probablemente, en la mayoría de los casos?",
            "¿Con qué fuerza debe leerse tu afirmación: siempre, normalmente, probablemente?",
        ),
    },
    "rebuttal": {
        "en": (
            'When would your claim not hold? Finish the sentence "unless ...".',
            'Which case would an opponent bring up against your claim? Start with "unless".',
        ),
        "es": (
            "¿Cuándo no se cumpliría tu afirmación? Completa la frase «a menos que ...».",
            "¿Qué caso usaría alguien en contra de tu afirmación? Empieza con «a menos que».",
        ),
    },
}

# What the element is, then a practical tip: a weak attempt gets one of them, in turn.
_HINTS: dict[str, dict[str, tuple[str, ...]]] = {
    "claim": {
        "en": (
            "The claim is the position you defend, stated as one clear sentence.",
            "Tip: a good claim is a statement someone could disagree with, such as "
            '"Cities should ban cars downtown".',
        ),
        "es": (
            "La afirmación es la postura que defiendes, dicha en una frase clara.",
            "Consejo: una buena afirmación es algo con lo que alguien podría no estar de acuerdo, "
            "como «Las ciudades deberían prohibir los coches en el centro».",
        ),
    },
    "grounds": {
        "en": (
            "The grounds are your evidence: facts, figures, sources or observations.",
            "Tip: good grounds are about the same thing as your claim and say where the fact comes from.",
        ),
        "es": (
            "Los datos son tu evidencia: hechos, cifras, fuentes u observaciones.",
            "Consejo: unos buenos datos tratan de lo mismo que tu afirmación y dicen de dónde sale el hecho.",
        ),
    },
    "warrant": {
        "en": (
            "The warrant is the general principle that links your grounds to your claim.",
            'Tip: try "If [what your grounds show], then [what your claim says]".',
        ),
        "es": (
            "La garantía es el principio general que une tus datos con tu afirmación.",
            "Consejo: prueba con «Si [lo que muestran tus datos], entonces [lo que dice tu afirmación]».",
        ),
    },
    "groundsBacking": {
        "en": (
            "The backing for your grounds says why your evidence can be trusted: its source and method.",
            "Tip: name who gathered the evidence, when, and how.",
        ),
        "es": (
            "El respaldo de tus datos dice por qué tu evidencia es fiable: su fuente y su método.",
            "Consejo: di quién reunió la evidencia, cuándo y cómo.",
        ),
    },
    "warrantBacking": {
        "en": (
            "The backing for your warrant shows why your principle holds: research, law, theory or history.",
            "Tip: name a study, a law, a theory or an expert that supports your principle.",
        ),
        "es": (
            "El respaldo de tu garantía muestra por qué tu principio se cumple: investigación, leyes, teoría o historia.",
            "Consejo: nombra un estudio, una ley, una teoría o un experto que apoye tu principio.",
        ),
    },
    "qualifier": {
        "en": (
            "The qualifier says how strongly you assert the claim, with a word like 'probably'.",
            'Tip: one phrase is enough, such as "in most cases" or "very likely".',
        ),
        "es": (
            "El calificador dice con qué fuerza afirmas, con una palabra como «probablemente».",
            "Consejo: basta una expresión, como «en la mayoría de los casos» o «muy probablemente».",
        ),
    },
    "rebuttal": {
        "en": (
            "The rebuttal names the exceptions: when your claim would not hold.",
            'Tip: think of the strongest case against you and say it after "unless".',
        ),
        "es": (
            "La refutación nombra las excepciones: cuándo no se cumpliría tu afirmación.",
            "Consejo: piensa en el caso más fuerte en tu contra y dilo después de «a menos que».",
        ),
    },
}

# {your}, {the}, {as_}: the step's noun phrases (coach.steps.NounPhrases).
_SAY: dict[str, dict[str, tuple[str, ...]]] = {
    "en": {
        "open": ("Let's work on {your}.", "Now for {your}.", "Next comes {your}."),
        "explain": ("Good question.", "Fair question.", "Glad you asked."),
        "weak": (
            "Not quite yet: {problems}.",
            "Still missing something: {problems}.",
            "Almost, but {problems}.",
        ),
        "good": (
            "That works as {as_}: nothing essential is missing.",
            "Good: this reads as {as_}, with nothing essential missing.",
            "Yes, that holds up as {as_}.",
        ),
        "use_words": (
            "When you are happy with it, press {use} to keep it and move on.",
            "Press {use} to keep these words and move on, or keep refining them.",
        ),
        "criteria_first": (
            "It reads as {as_}, but not yet as your instructor asks.",
            "This is on the right track, but something your instructor asks for is missing.",
        ),
        "write_offline": (
            "I cannot write it for you without a language model, but I can show you what it needs.",
            "Without a language model I cannot write it for you; here is what it needs.",
        ),
        "nothing": (
            "There is nothing for me to use yet.",
            "I have no text of yours for this step yet.",
        ),
        "unreadable": (
            "I cannot put that up yet: {problems}.",
            "That is not ready for your draft yet: {problems}.",
        ),
        "proposed_ok": (
            "I have put your words up as {the}: press {accept} to keep them and move on.",
            "Here is your text as {the}: press {accept} to keep it and move on, or keep refining it.",
        ),
        "proposed_last": (
            "I have put your words up as {the}: press {accept} to keep them and finish your "
            "argument.",
            "Here is your text as {the}, the last step: press {accept} to keep it and finish.",
        ),
        "complete": (
            "Your argument is complete: all seven steps are in your draft. You can still change "
            "any step in the draft.",
            "All seven steps are done: your argument is complete. To change a step, edit it in the "
            "draft.",
        ),
        "offline_rewrite": (
            "The offline coach cannot rewrite for you, so I tidied your own wording.",
            "I cannot write it for you without a language model; here is your wording, tidied.",
        ),
        "draft_note": ('Your draft says: "{text}".', 'So far your draft has: "{text}".'),
        "and": (" and ",),
    },
    "es": {
        "open": ("Trabajemos en {your}.", "Ahora vamos con {your}.", "Sigue {your}."),
        "explain": ("Buena pregunta.", "Es una pregunta justa.", "Me alegra que lo preguntes."),
        "weak": (
            "Todavía no: {problems}.",
            "Aún falta algo: {problems}.",
            "Casi, pero {problems}.",
        ),
        "good": (
            "Eso funciona como {as_}: no le falta nada esencial.",
            "Bien: esto se lee como {as_} y no le falta nada esencial.",
            "Sí, eso se sostiene como {as_}.",
        ),
        "use_words": (
            "Cuando te guste, pulsa {use} para conservarlo y avanzar.",
            "Pulsa {use} para conservar estas palabras y avanzar, o sigue puliéndolas.",
        ),
        "criteria_first": (
            "Se lee como {as_}, pero todavía no como pide tu docente.",
            "Esto va por buen camino, pero falta algo que pide tu docente.",
        ),
        "write_offline": (
            "Sin un modelo de lenguaje no puedo escribirlo por ti, pero puedo mostrarte lo que "
            "necesita.",
            "No puedo escribirlo por ti sin un modelo de lenguaje; esto es lo que necesita.",
        ),
        "nothing": (
            "Todavía no hay nada que pueda usar.",
            "Aún no tengo ningún texto tuyo para este paso.",
        ),
        "unreadable": (
            "Todavía no puedo proponer eso: {problems}.",
            "Eso aún no está listo para tu borrador: {problems}.",
        ),
        "proposed_ok": (
            "He propuesto tus palabras como {as_}: pulsa {accept} para conservarlas y avanzar.",
            "Aquí está tu texto como {as_}: pulsa {accept} para conservarlo y avanzar, o sigue "
            "puliéndolo.",
        ),
        "proposed_last": (
            "He propuesto tus palabras como {as_}: pulsa {accept} para conservarlas y terminar "
            "tu argumento.",
            "Aquí está tu texto como {as_}, el último paso: pulsa {accept} para conservarlo y "
            "terminar.",
        ),
        "complete": (
            "Tu argumento está completo: los siete pasos están en tu borrador. Aún puedes cambiar "
            "cualquier paso en el borrador.",
            "Los siete pasos están hechos: tu argumento está completo. Para cambiar un paso, "
            "edítalo en el borrador.",
        ),
        "offline_rewrite": (
            "El coach sin conexión no puede reescribir por ti, así que ordené tu propia redacción.",
            "Sin un modelo de lenguaje no puedo escribirlo por ti; aquí está tu redacción, ordenada.",
        ),
        "draft_note": ("Tu borrador dice: «{text}».", "Por ahora tu borrador tiene: «{text}»."),
        "and": (" y ",),
    },
}

# What the coach says when the student rejects a proposal (both coaches): it
# acknowledges and asks what to change, instead of leaving the chat silent.
_REJECTED: dict[str, tuple[str, ...]] = {
    "en": (
        "All right, I will not use that. What would you like to change: the wording, "
        "the content, or something else?",
        "Fine, let's drop that version. What should be different about {your}?",
        "Understood: that proposal is gone. Tell me what to change, or write {your} your own way.",
    ),
    "es": (
        "De acuerdo, no lo usaré. ¿Qué quieres cambiar: la redacción, el contenido u otra cosa?",
        "Bien, descartemos esa versión. ¿Qué debería ser distinto en {your}?",
        "Entendido: esa propuesta ya no está. Dime qué cambiar, o escribe {your} a tu manera.",
    ),
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
    # Every step's text so far (step id -> text): grounds are judged against the claim.
    draft: Mapping[str, str] = field(default_factory=dict)
    # The coach's last words in this conversation: no sentence of them is said again.
    previous_reply: str = ""
    # An instructor's rules (coach.policy): may the coach propose (False: hints only), and
    # the step's text -> the labels of the required criteria it misses (None: no criteria).
    proposals_allowed: bool = True
    criteria_check: Callable[[str], list[str]] | None = None
    # The text the student rejected last on this step: never proposed again ("": none).
    rejected_value: str = ""
    # The argument's title: an example is taken from another topic.
    title: str = ""
    # The page's language: the buttons the coach names are named as the page shows them.
    page_language: str = ""
    # All seven steps are in the draft: nothing is left to propose or accept.
    complete: bool = False


def tidy(text: str) -> str:
    """The student's text with spacing fixed, a capital first letter and a final stop."""
    text = " ".join(text.split())
    if not text:
        return text
    text = text[0].upper() + text[1:]
    if len(text.split()) >= 3 and text[-1] not in ".!?»\"'…)":
        text += "."
    return text


_SENTENCE_BREAK = re.compile(r"(?<=[.!?…])\s+|\n+")


def _sentences(text: str) -> set[str]:
    return {sentence.strip() for sentence in _SENTENCE_BREAK.split(text) if sentence.strip()}


def pick(variants: Sequence[str], *, turn_count: int, previous: str = "", **values: str) -> str:
    """One phrasing: the one at `turn_count` in turn, or the next one that says no sentence
    `previous` said (deterministic, so a conversation replays the same way)."""
    said = _sentences(previous)
    count = len(variants)
    options = [variants[(turn_count + offset) % count].format(**values) for offset in range(count)]
    for option in options:
        if not _sentences(option) & said:
            return option
    return options[0]


def _say(turn: OfflineTurn, key: str, **values: str) -> str:
    phrases = _SAY.get(turn.language, _SAY["en"])
    nouns = phrases_for(turn.step, turn.language)
    return pick(
        phrases[key],
        turn_count=len(turn.step_messages),
        previous=turn.previous_reply,
        your=nouns.your,
        the=nouns.the,
        as_=nouns.as_,
        accept=notes.gesture(
            "accept", language=turn.language, quoted=True, page_language=turn.page_language
        ),
        use=notes.gesture(
            "use_my_words",
            language=turn.language,
            step=turn.step,
            quoted=True,
            page_language=turn.page_language,
        ),
        **values,
    )


def _from(turn: OfflineTurn, table: dict[str, dict[str, tuple[str, ...]]]) -> str:
    variants = table[turn.step].get(turn.language, table[turn.step]["en"])
    return pick(variants, turn_count=len(turn.step_messages), previous=turn.previous_reply)


def _problems_text(problems: Sequence[str], language: str) -> str:
    """What is wrong, in words: the first two problems (more is a list, not a tip)."""
    joiner = _SAY.get(language, _SAY["en"])["and"][0]
    return joiner.join(problem_message(problem, language) for problem in problems[:2])


def _candidate(turn: OfflineTurn) -> str:
    """The student's own text for this step: their latest attempt, else the draft."""
    for earlier in reversed(turn.step_messages):
        if classify(earlier, turn.step).kind == "attempt":
            return earlier.strip()
    return turn.draft_text.strip()


def _assess(turn: OfflineTurn, text: str) -> HeuristicResult:
    return assess_step(step=turn.step, text=text, draft=turn.draft, language=turn.language)


def _unmet(turn: OfflineTurn, text: str) -> list[str]:
    return turn.criteria_check(text) if turn.criteria_check is not None else []


def _criteria(turn: OfflineTurn, unmet: Sequence[str], *, held_back: bool) -> str:
    return notes.criteria_note(
        step=turn.step, language=turn.language, unmet=unmet, held_back=held_back
    )


def _result(turn: OfflineTurn, text: str, *, question: bool = True, **fields: Any) -> CoachAIResult:
    if question:
        fields["nextQuestion"] = _from(turn, GUIDING_QUESTIONS)
    return CoachAIResult(assistantText=text, step=turn.step, **fields)


def _propose(turn: OfflineTurn, value: str, *, confidence_ok: float, lead: str) -> CoachAIResult:
    """Put the student's own `value` up as a proposal, if it is fit to keep; else say why not.

    Text with a problem is never proposed: a proposal is what one press of Accept keeps
    (once, "yes" put grounds identical to the claim up, and Accept stored them).
    """
    verdict = _assess(turn, value)
    if not verdict.ok:
        problems = _problems_text(verdict.problems, turn.language)
        said = _say(turn, "unreadable", problems=problems)
        text = " ".join(part for part in (lead, said, _from(turn, _HINTS)) if part)
        return _result(turn, text, confidence=0.3)
    if turn.rejected_value and normalise(value) == normalise(turn.rejected_value):
        # The student has just turned these words down: a "yes" does not bring them back.
        said = notes.rejected_again(step=turn.step, language=turn.language)
        return _result(turn, " ".join(part for part in (lead, said) if part), confidence=0.3)
    unmet = _unmet(turn, value)
    if unmet:
        # The accept endpoint would refuse it: say what is missing instead of offering it.
        said = _criteria(turn, unmet, held_back=True)
        return _result(turn, " ".join(part for part in (lead, said) if part), confidence=0.4)
    proposal = ProposedUpdate(field=turn.step, value=value, rationale=None)
    following = next_step(turn.step)
    keep = _say(turn, "proposed_ok" if following is not None else "proposed_last")
    text = " ".join(part for part in (lead, keep) if part)
    advance: dict[str, Any] = (
        {"isComplete": True}
        if following is None
        else {"shouldAdvance": True, "nextStep": following}
    )
    return _result(
        turn, text, question=False, confidence=confidence_ok, proposedUpdate=proposal, **advance
    )


def _open_step(turn: OfflineTurn) -> CoachAIResult:
    parts = [_say(turn, "open"), _from(turn, _HINTS)]
    required = _unmet(turn, "")  # an empty text misses every criterion: all of the step's
    if required:
        parts.append(_criteria(turn, required, held_back=False))
    if turn.draft_text.strip():
        parts.append(_say(turn, "draft_note", text=turn.draft_text.strip()))
    return _result(turn, " ".join(parts))


def _own_words_verdict(turn: OfflineTurn, text: str) -> CoachAIResult:
    """Under hints only: what the student's own text still needs, or the button that keeps it."""
    verdict = _assess(turn, text)
    if not verdict.ok:
        problems = _problems_text(verdict.problems, turn.language)
        return _result(turn, f"{_say(turn, 'weak', problems=problems)} {_from(turn, _HINTS)}")
    unmet = _unmet(turn, text)
    if unmet:
        said = f"{_say(turn, 'criteria_first')} {_criteria(turn, unmet, held_back=False)}"
        return _result(turn, said, confidence=0.5)
    return _result(
        turn, f"{_say(turn, 'good')} {_say(turn, 'use_words')}", question=False, confidence=0.75
    )


def _confirm(turn: OfflineTurn) -> CoachAIResult:
    pending = turn.pending_proposal
    if not turn.proposals_allowed:
        # Hints only: a "yes" cannot be met with a proposal; the student's words stay theirs.
        value = tidy(_candidate(turn))
        if not value:
            return _result(turn, _say(turn, "nothing"))
        return _own_words_verdict(turn, value)
    if pending and pending.get("field") == turn.step and str(pending.get("value", "")).strip():
        value = str(pending["value"]).strip()
    else:
        value = tidy(_candidate(turn))
    if not value:
        return _result(turn, _say(turn, "nothing"))
    return _propose(turn, value, confidence_ok=0.9, lead="")


_CLAUSES = re.compile(r"[.!?¿¡;:\n]+")


def _text_beside_request(message: str) -> str:
    """The student's own text in "Fix this: cities should ban cars" (the clauses that ask nothing)."""
    clauses = [clause.strip() for clause in _CLAUSES.split(message)]
    own = [c for c in clauses if len(c.split()) >= 3 and not is_rewrite_request(c)]
    return ". ".join(own)


def _what_it_needs(turn: OfflineTurn) -> str:
    """What the element is, and an example of it on another topic."""
    return explain(
        [turn.step],
        language=turn.language,
        current_step=turn.step,
        title=turn.title,
        turn_count=len(turn.step_messages),
        previous=turn.previous_reply,
    )


def _rewrite(turn: OfflineTurn) -> CoachAIResult:
    if not turn.proposals_allowed:
        return _write(turn)
    value = tidy(_text_beside_request(turn.message) or _candidate(turn))
    if not value:
        return _result(turn, _say(turn, "nothing"))
    return _propose(turn, value, confidence_ok=0.7, lead=_say(turn, "offline_rewrite"))


def _write(turn: OfflineTurn) -> CoachAIResult:
    """ "Can you write it for me?" """
    if not turn.proposals_allowed:
        lead = notes.hints_only_write(language=turn.language)
        return _result(turn, f"{lead} {_what_it_needs(turn)}")
    if _candidate(turn):
        return _rewrite(turn)
    return _result(turn, f"{_say(turn, 'write_offline')} {_what_it_needs(turn)}")


def _answer(turn: OfflineTurn, topics: Sequence[str]) -> CoachAIResult:
    """A question about the step or the task, answered, not graded."""
    answer = explain(
        topics,
        language=turn.language,
        current_step=turn.step,
        title=turn.title,
        turn_count=len(turn.step_messages),
        previous=turn.previous_reply,
    )
    return _result(turn, f"{_say(turn, 'explain')} {answer}")


def _attempt(turn: OfflineTurn) -> CoachAIResult:
    verdict = _assess(turn, turn.message)
    if not verdict.ok:
        problems = _problems_text(verdict.problems, turn.language)
        parts = [_say(turn, "weak", problems=problems), _from(turn, _HINTS)]
        unmet = _unmet(turn, tidy(turn.message))
        if unmet:  # what the instructor requires, said with what is weak
            parts.append(_criteria(turn, unmet, held_back=False))
        return _result(turn, " ".join(parts), confidence=0.3)
    if not turn.proposals_allowed:
        return _own_words_verdict(turn, tidy(turn.message))
    unmet = _unmet(turn, tidy(turn.message))
    if unmet:
        # No praise for text the instructor's rule would refuse: say what it asks for.
        said = f"{_say(turn, 'criteria_first')} {_criteria(turn, unmet, held_back=False)}"
        return _result(turn, said, confidence=0.5)
    # The student's own words are good: put them up at once, so one press of Accept keeps
    # them (type, Accept: not type, "yes", Accept).
    return _propose(turn, tidy(turn.message), confidence_ok=0.9, lead=_say(turn, "good"))


def offline_reply(turn: OfflineTurn) -> CoachAIResult:
    """The offline coach's reply to one student message (empty = open the step)."""
    intent = classify(turn.message, turn.step)
    if turn.complete and intent.kind != "question":
        # Nothing is left to accept: no proposal, no button to press.
        return _result(turn, _say(turn, "complete"), question=False)
    if intent.kind == "open":
        return _open_step(turn)
    if intent.kind == "confirm":
        return _confirm(turn)
    if intent.kind == "write":
        return _write(turn)
    if intent.kind == "rewrite":
        return _rewrite(turn)
    if intent.kind == "question":
        return _answer(turn, intent.topics)
    return _attempt(turn)


def acknowledge_rejection(*, step: str, language: str, turn_count: int, previous: str = "") -> str:
    """What either coach says when the student rejects its proposal: it heard, and asks
    what to change. `turn_count` varies the words (the coach's messages on this step)."""
    variants = _REJECTED.get(language, _REJECTED["en"])
    nouns = phrases_for(step, language)
    return pick(variants, turn_count=turn_count, previous=previous, your=nouns.your)


_SENTENCE_END = re.compile(r"[.!?…](?=\s)")


def split_for_stream(text: str) -> list[str]:
    """Growing prefixes of `text`, one per sentence: the offline coach "streams" too."""
    ends = [match.end() for match in _SENTENCE_END.finditer(text)]
    return [text[:end] for end in ends if text[:end].strip()] + [text]
