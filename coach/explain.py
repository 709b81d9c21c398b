"""What a Toulmin element is, how it differs from its neighbours, and an example of it.

Pure. Both coaches answer a question about the step or the task with this
(the offline coach says it; the AI coach is told to do the same): what the
element is, how it differs from the elements next to it, and a short example
on another topic, so the student sees the shape without being handed their
own text. Two worked example arguments, each complete in seven elements and
written for this purpose: street trees, and a later start to the school day.
The one whose topic the student's title does not touch is used; a repeated
question gets the other one, so the coach does not say the same sentence
twice in a row.

Sentences are in the argument's language (en/es), like everything the coach
says; step names come from `coach.steps.NounPhrases`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from coach.steps import label_for, phrases_for
from coach.text import fold

__all__ = ["DEFINITIONS", "DIFFERENCES", "EXAMPLES", "Example", "definition", "explain"]

DEFINITIONS: dict[str, dict[str, str]] = {
    "claim": {
        "en": "The claim is the position you defend: one statement someone could disagree "
        "with, not a question.",
        "es": "La afirmación es la postura que defiendes: una sola frase con la que alguien "
        "podría no estar de acuerdo, no una pregunta.",
    },
    "grounds": {
        "en": "The grounds are the evidence for your claim: facts, figures, sources or "
        "observations that a reader can check.",
        "es": "Los datos son la evidencia de tu afirmación: hechos, cifras, fuentes u "
        "observaciones que un lector puede comprobar.",
    },
    "warrant": {
        "en": "The warrant is the general rule that makes your grounds count for your claim, "
        'often in the form "if ..., then ...".',
        "es": "La garantía es la regla general que hace que tus datos apoyen tu afirmación, "
        "a menudo con la forma «si ..., entonces ...».",
    },
    "groundsBacking": {
        "en": "The backing for your grounds says why your evidence can be trusted: who "
        "gathered it, how and when.",
        "es": "El respaldo de tus datos dice por qué tu evidencia es fiable: quién la reunió, "
        "cómo y cuándo.",
    },
    "warrantBacking": {
        "en": "The backing for your warrant shows that your general rule holds: research, a "
        "law, a theory, expert opinion or history.",
        "es": "El respaldo de tu garantía muestra que tu regla general se cumple: "
        "investigación, una ley, una teoría, la opinión de expertos o la historia.",
    },
    "qualifier": {
        "en": "The qualifier says how strongly you hold your claim, with a word or phrase such "
        'as "probably" or "in most cases".',
        "es": "El calificador dice con qué fuerza sostienes tu afirmación, con una palabra o "
        "expresión como «probablemente» o «en la mayoría de los casos».",
    },
    "rebuttal": {
        "en": "The rebuttal names the exceptions: the cases in which your claim would not "
        'hold, usually after "unless".',
        "es": "La refutación nombra las excepciones: los casos en que tu afirmación no se "
        "cumpliría, normalmente después de «a menos que».",
    },
}

DIFFERENCES: dict[str, dict[str, str]] = {
    "claim": {
        "en": "The claim is what you conclude; the grounds are the facts that lead you there, "
        "and the qualifier says how sure you are of it.",
        "es": "La afirmación es lo que concluyes; los datos son los hechos que te llevan ahí, "
        "y el calificador dice qué tan seguro estás.",
    },
    "grounds": {
        "en": "The grounds are a particular fact; the claim is what you conclude from it, the "
        "warrant is the general rule that links the two, and the backing for your grounds "
        "says where the fact comes from.",
        "es": "Los datos son un hecho concreto; la afirmación es lo que concluyes de él, la "
        "garantía es la regla general que los une, y el respaldo de tus datos dice de dónde "
        "sale ese hecho.",
    },
    "warrant": {
        "en": "The grounds are one particular fact; the warrant is the general rule that makes "
        "that fact count, and the backing for your warrant shows that the rule itself holds.",
        "es": "Los datos son un hecho concreto; la garantía es la regla general que hace que "
        "ese hecho cuente, y el respaldo de tu garantía muestra que la regla misma se cumple.",
    },
    "groundsBacking": {
        "en": "The grounds are the evidence itself; the backing for your grounds vouches for "
        "that evidence: its source and how it was gathered. The backing for your warrant is "
        "something else: it supports the general rule, not the facts.",
        "es": "Los datos son la evidencia misma; el respaldo de tus datos responde por esa "
        "evidencia: su fuente y cómo se obtuvo. El respaldo de tu garantía es otra cosa: "
        "apoya la regla general, no los hechos.",
    },
    "warrantBacking": {
        "en": "The warrant is the general rule; its backing is what shows the rule holds. The "
        "backing for your grounds vouches for your facts, not for the rule.",
        "es": "La garantía es la regla general; su respaldo es lo que muestra que la regla se "
        "cumple. El respaldo de tus datos responde por tus hechos, no por la regla.",
    },
    "qualifier": {
        "en": "The claim says what you hold; the qualifier says how strongly; the rebuttal "
        "says when it would not hold.",
        "es": "La afirmación dice lo que sostienes; el calificador, con qué fuerza; la "
        "refutación, cuándo no se cumpliría.",
    },
    "rebuttal": {
        "en": "The qualifier says how sure you are; the rebuttal names the cases that would "
        "make you wrong. It is not the opposite claim: it is an exception to yours.",
        "es": "El calificador dice qué tan seguro estás; la refutación nombra los casos en "
        "que te equivocarías. No es la afirmación contraria: es una excepción a la tuya.",
    },
}


@dataclass(frozen=True, slots=True)
class Example:
    """One worked argument on a topic of its own, in one language."""

    topic: str
    keywords: tuple[str, ...]  # folded words: a title with one of them is on this topic
    elements: dict[str, str]


EXAMPLES: dict[str, tuple[Example, ...]] = {
    "en": (
        Example(
            "trees in town streets",
            ("tree", "trees", "street", "streets", "shade", "heat"),
            {
                "claim": "Our town should plant trees along its main streets.",
                "grounds": "At noon last July, streets with trees were 4 °C cooler than "
                "streets without them.",
                "warrant": "If a change makes streets cooler in summer heat, a town should "
                "make it.",
                "groundsBacking": "The town's weather office measured the temperatures at 20 "
                "points on five days in July 2024.",
                "warrantBacking": "Public health studies link hotter streets to more heat "
                "illness in older people.",
                "qualifier": "Probably, at least on streets wide enough for trees.",
                "rebuttal": "Unless the roots would damage the water pipes under the street.",
            },
        ),
        Example(
            "a later start to the school day",
            ("school", "schools", "sleep", "timetable", "homework", "pupils"),
            {
                "claim": "Secondary schools should start at 9 a.m. instead of 8.",
                "grounds": "In a 2019 survey of 2,000 pupils, 60% slept less than seven hours "
                "on school nights.",
                "warrant": "If pupils sleep too little, a timetable that lets them sleep more "
                "helps them learn.",
                "groundsBacking": "A university team ran the survey with a random sample of "
                "pupils from 30 schools.",
                "warrantBacking": "Sleep research shows that teenagers' body clocks shift "
                "later, so they fall asleep later.",
                "qualifier": "In most schools.",
                "rebuttal": "Unless the school buses cannot run later in the morning.",
            },
        ),
    ),
    "es": (
        Example(
            "árboles en las calles del pueblo",
            ("arbol", "arboles", "calle", "calles", "sombra", "calor"),
            {
                "claim": "Nuestro pueblo debería plantar árboles en sus calles principales.",
                "grounds": "Al mediodía del pasado julio, las calles con árboles estaban 4 °C "
                "más frescas que las calles sin ellos.",
                "warrant": "Si un cambio hace que las calles estén más frescas con el calor "
                "del verano, un pueblo debería hacerlo.",
                "groundsBacking": "La oficina meteorológica del pueblo midió las temperaturas "
                "en 20 puntos durante cinco días de julio de 2024.",
                "warrantBacking": "Estudios de salud pública relacionan las calles más "
                "calurosas con más golpes de calor en personas mayores.",
                "qualifier": "Probablemente, al menos en las calles lo bastante anchas para "
                "árboles.",
                "rebuttal": "A menos que las raíces dañen las tuberías de agua bajo la calle.",
            },
        ),
        Example(
            "empezar más tarde la jornada escolar",
            ("escuela", "escuelas", "colegio", "colegios", "instituto", "institutos", "sueno",
             "horario", "deberes", "alumnos"),
            {
                "claim": "Los institutos deberían empezar a las 9 en lugar de a las 8.",
                "grounds": "En una encuesta de 2019 a 2.000 alumnos, el 60 % dormía menos de "
                "siete horas las noches de clase.",
                "warrant": "Si los alumnos duermen poco, un horario que les deje dormir más les "
                "ayuda a aprender.",
                "groundsBacking": "Un equipo universitario hizo la encuesta con una muestra "
                "aleatoria de alumnos de 30 institutos.",
                "warrantBacking": "La investigación sobre el sueño muestra que el reloj "
                "biológico de los adolescentes se retrasa, así que se duermen más tarde.",
                "qualifier": "En la mayoría de los institutos.",
                "rebuttal": "A menos que los autobuses escolares no puedan pasar más tarde.",
            },
        ),
    ),
}  # fmt: skip

# The example's parts are named by their labels ("Grounds backing"): "your grounds" would
# be the student's, and these are another argument's.
_FOR_EXAMPLE = {
    "en": "An example on another topic, {topic}.",
    "es": "Un ejemplo en otro tema, {topic}.",
}
_PART = {"en": '{label}: "{text}".', "es": "{label}: «{text}»."}
_NOW = {
    "en": "Right now we are working on {your}.",
    "es": "Ahora mismo estamos trabajando en {your}.",
}

_SENTENCE_BREAK = re.compile(r"(?<=[.!?…»\"])\s+|\n+")


def _sentences(text: str) -> set[str]:
    return {part.strip() for part in _SENTENCE_BREAK.split(text) if part.strip()}


def _lang(language: str) -> str:
    return language if language in ("en", "es") else "en"


def definition(step: str, language: str) -> str:
    """One sentence: what the element is."""
    return DEFINITIONS[step][_lang(language)]


def _examples_in_order(language: str, title: str, turn_count: int) -> list[Example]:
    """Examples off the student's topic first, then in turn (a repeat gets the next one)."""
    examples = EXAMPLES[_lang(language)]
    title_words = set(fold(title).split())
    off_topic = [e for e in examples if not title_words & set(e.keywords)] or list(examples)
    start = turn_count % len(off_topic)
    return off_topic[start:] + off_topic[:start]


def _example_sentence(example: Example, topics: Sequence[str], language: str) -> str:
    """The example's element asked about, and the one it was compared with, if any."""
    language = _lang(language)
    parts = [_FOR_EXAMPLE[language].format(topic=example.topic)]
    for step in topics[:2]:
        text = example.elements[step].rstrip(".")
        parts.append(_PART[language].format(label=label_for(step, language), text=text))
    return " ".join(parts)


def explain(
    topics: Sequence[str],
    *,
    language: str,
    current_step: str,
    title: str = "",
    turn_count: int = 0,
    previous: str = "",
) -> str:
    """The answer to a question about `topics[0]` (and how it differs from `topics[1]`, when
    the student named a second element): what it is, how it differs from its neighbours, an
    example on another topic; then where the student is, if they asked about another step.

    A sentence that `previous` (the coach's last reply) said is left out, so a repeated
    question is answered with what was not said yet, and another example.
    """
    language = _lang(language)
    first = topics[0]
    said = _sentences(previous)
    parts = [DEFINITIONS[first][language], DIFFERENCES[first][language]]
    kept = [part for part in parts if not _sentences(part) & said]
    for example in _examples_in_order(language, title, turn_count):
        sentence = _example_sentence(example, topics, language)
        if not _sentences(sentence) & said:
            kept.append(sentence)
            break
    if first != current_step:
        kept.append(_NOW[language].format(your=phrases_for(current_step, language).your))
    return " ".join(kept)
