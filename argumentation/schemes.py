"""Argument schemes and their critical questions (Walton, Reed & Macagno 2008), EN/ES.

A Toulmin warrant is an inference rule of some kind: "experts say so", "this
causes that", "it worked elsewhere", "it will bring good things", "this is a
sign of that". Each kind is an *argument scheme*, and each scheme comes with
*critical questions*: the standard ways of challenging an argument of that kind.
This module names the common schemes, says which one a student's warrant uses
(`argumentation.scheme_cues`: what the warrant says, no model), and turns three
of its critical questions into objections aimed at the
Toulmin element each question challenges, typed as ASPIC+ attacks
(`argumentation.attack_types`): a question about the evidence undermines the
grounds (or their backing), one about the rule undercuts the warrant, one about
exceptions or costs rebuts the claim.

Sources: D. Walton, C. Reed & F. Macagno (2008), *Argumentation Schemes*,
Cambridge University Press (ch. 1 and the compendium, ch. 9); the questions are
shortened and reworded for students.

Each question also names what an answer to it must speak to (``asks``; the
markers are `argumentation.cq_answers`'), and :func:`reword` gives one of this
module's sentences, stored in either language, in the reader's.

Pure: no Django, no network, no model. Used by the offline stress test
(`stresstests/offline.py`) and the class discussions.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from argumentation.scheme_cues import detect_scheme

__all__ = [
    "SCHEMES",
    "CriticalQuestion",
    "Objection",
    "Scheme",
    "identify_scheme",
    "objections",
    "question_for",
    "reword",
    "scheme_named",
]

# ASPIC+ attack type for each element a question may target.
_ATTACK_TYPE = {
    "claim": "rebut",
    "grounds": "undermine",
    "groundsBacking": "undermine",
    "warrantBacking": "undermine",
    "warrant": "undercut",
}


@dataclass(frozen=True, slots=True)
class CriticalQuestion:
    """One critical question: what it challenges and the objection it raises, EN/ES.

    ``target`` is the Toulmin element it challenges; a question about a backing
    falls back to the element the backing supports when the student gave none.
    ``exception`` marks a question that asks for exceptions: a student who
    listed exceptions in the rebuttal step has already conceded it.
    """

    code: str
    target: str
    question: Mapping[str, str]
    objection: Mapping[str, str]
    exception: bool = False
    # What an answer to it must speak to (`argumentation.cq_answers` holds the markers).
    asks: str = ""


@dataclass(frozen=True, slots=True)
class Scheme:
    code: str
    name: Mapping[str, str]
    cues: Mapping[str, tuple[str, ...]]
    questions: tuple[CriticalQuestion, ...]


@dataclass(frozen=True, slots=True)
class Objection:
    """A critical question put to one element of a student's argument."""

    scheme: str
    question_code: str
    element: str  # the Toulmin element attacked (camelCase, as the coach names them)
    attack_type: str  # rebut | undermine | undercut
    counter_proposition: str
    rationale: str
    exception: bool


def _cq(code, target, q_en, q_es, o_en, o_es, exception=False) -> CriticalQuestion:
    return CriticalQuestion(
        code, target, {"en": q_en, "es": q_es}, {"en": o_en, "es": o_es}, exception, _ASKS[code]
    )


# What each question asks an answer to show (the kinds `argumentation.cq_answers` knows).
_ASKS = {
    "expert.expertise": "credentials",
    "expert.consistency": "consensus",
    "expert.exceptions": "applies_here",
    "cause.evidence": "measurement",
    "cause.other_cause": "alternative_causes",
    "cause.here": "applies_here",
    "consequences.likely": "likelihood",
    "consequences.worth": "worth",
    "consequences.side_effects": "side_effects",
    "example.enough": "enough_cases",
    "example.typical": "typical",
    "example.counter": "counterexamples",
    "analogy.facts": "measurement",
    "analogy.similar": "similarity",
    "analogy.difference": "difference",
    "sign.present": "observed",
    "sign.strength": "reliability",
    "sign.other_cause": "alternative_causes",
    "practical.achieves": "likelihood",
    "practical.alternatives": "alternatives",
    "practical.side_effects": "side_effects",
    "popular.evidence": "measurement",
    "popular.reason": "rule_support",
    "popular.exception": "applies_here",
    "classification.fits": "observed",
    "classification.definition": "definition",
    "classification.exception": "applies_here",
    "rule.grounds": "measurement",
    "rule.holds": "rule_support",
    "rule.exception": "applies_here",
}


EXPERT = Scheme(
    "expert_opinion",
    {"en": "argument from expert opinion", "es": "argumento de autoridad experta"},
    {
        "en": ("experts say", "according to", "a study by scientists"),
        "es": ("los expertos dicen", "según", "un estudio de científicos"),
    },
    (
        _cq(
            "expert.expertise",
            "groundsBacking",
            "Is the source a real expert in this very field, and is it named?",
            "¿Es la fuente experta de verdad en este campo, y se la nombra?",
            "The source behind your evidence may not be an expert in this field, or is not "
            "named well enough to check.",
            "La fuente de tus datos puede no ser experta en este campo, o no está nombrada "
            "con precisión suficiente para comprobarla.",
        ),
        _cq(
            "expert.consistency",
            "warrant",
            "Do other experts in the field agree, or is this one voice?",
            "¿Coinciden otros expertos del campo, o es una sola voz?",
            "One source saying so is not enough: other experts may disagree.",
            "Que lo diga una fuente no basta: otros expertos pueden no estar de acuerdo.",
        ),
        _cq(
            "expert.exceptions",
            "claim",
            "Does what the experts found apply to the case your claim is about?",
            "¿Lo que hallaron los expertos se aplica al caso de tu afirmación?",
            "What the experts found may not apply to the case your claim is about.",
            "Lo que hallaron los expertos puede no aplicarse al caso de tu afirmación.",
            exception=True,
        ),
    ),
)

CAUSE = Scheme(
    "cause_to_effect",
    {"en": "argument from cause to effect", "es": "argumento de causa a efecto"},
    {
        "en": ("causes", "leads to", "if students sleep more, they learn better"),
        "es": ("causa", "provoca", "si los alumnos duermen más, aprenden mejor"),
    },
    (
        _cq(
            "cause.evidence",
            "grounds",
            "Is the evidence of the effect accurate and measured well?",
            "¿Están bien medidos los datos del efecto?",
            "The figures in your grounds may be measured in a way that exaggerates the effect.",
            "Las cifras de tus datos pueden estar medidas de un modo que exagera el efecto.",
        ),
        _cq(
            "cause.other_cause",
            "warrant",
            "Could something else have caused the effect?",
            "¿Pudo causar el efecto otra cosa?",
            "Something else may have caused the change: two things happening together do "
            "not show that one causes the other.",
            "Otra cosa puede haber causado el cambio: que dos cosas ocurran juntas no "
            "demuestra que una sea la causa de la otra.",
        ),
        _cq(
            "cause.here",
            "claim",
            "Will the cause have the same effect here, where conditions differ?",
            "¿Tendrá la causa el mismo efecto aquí, donde las condiciones son otras?",
            "Where conditions differ, the same cause may not bring the same effect.",
            "Donde las condiciones son otras, la misma causa puede no traer el mismo efecto.",
            exception=True,
        ),
    ),
)

CONSEQUENCES = Scheme(
    "consequences",
    {"en": "argument from consequences", "es": "argumento por las consecuencias"},
    {
        "en": ("the benefits outweigh the costs", "would be good for", "it is worth it"),
        "es": ("los beneficios superan los costes", "sería bueno para", "vale la pena"),
    },
    (
        _cq(
            "consequences.likely",
            "grounds",
            "How likely is it that the good consequences will actually happen?",
            "¿Qué probabilidad hay de que las buenas consecuencias ocurran de verdad?",
            "Your evidence does not show that the good consequences are likely here.",
            "Tus datos no muestran que las buenas consecuencias sean probables aquí.",
        ),
        _cq(
            "consequences.worth",
            "warrant",
            "Are the good consequences worth what they cost, and to whom?",
            "¿Compensan las buenas consecuencias lo que cuestan, y a quién?",
            "A good result is not enough on its own: it may cost more than it is worth, or "
            "cost the wrong people.",
            "Un buen resultado no basta por sí solo: puede costar más de lo que vale, o "
            "costárselo a quien no debe.",
        ),
        _cq(
            "consequences.side_effects",
            "claim",
            "Are there bad consequences that outweigh the good ones?",
            "¿Hay malas consecuencias que pesen más que las buenas?",
            "Bad side effects may outweigh the good consequences you name.",
            "Los efectos secundarios malos pueden pesar más que las buenas consecuencias "
            "que nombras.",
            exception=True,
        ),
    ),
)

EXAMPLE = Scheme(
    "example",
    {"en": "argument from example", "es": "argumento por el ejemplo"},
    {
        "en": ("for example", "for instance", "cities that tried it"),
        "es": ("por ejemplo", "el caso de", "las ciudades que lo probaron"),
    },
    (
        _cq(
            "example.enough",
            "grounds",
            "Are there enough examples, and are they described accurately?",
            "¿Hay ejemplos suficientes, y están bien descritos?",
            "A few examples may not be enough to support a general rule.",
            "Unos pocos ejemplos pueden no bastar para sostener una regla general.",
        ),
        _cq(
            "example.typical",
            "warrant",
            "Are the examples typical of the case your claim is about?",
            "¿Son los ejemplos típicos del caso de tu afirmación?",
            "The examples may differ from your case in ways that matter.",
            "Los ejemplos pueden diferir de tu caso en aspectos que importan.",
        ),
        _cq(
            "example.counter",
            "claim",
            "Are there counterexamples, where the same thing did not work?",
            "¿Hay contraejemplos, donde lo mismo no funcionó?",
            "There may be cases where the same thing did not work.",
            "Puede haber casos en que lo mismo no funcionó.",
            exception=True,
        ),
    ),
)

ANALOGY = Scheme(
    "analogy",
    {"en": "argument from analogy", "es": "argumento por analogía"},
    {
        "en": ("just as", "in the same way", "is similar to"),
        "es": ("igual que", "del mismo modo", "es parecido a"),
    },
    (
        _cq(
            "analogy.facts",
            "grounds",
            "Is what you say about the other case true?",
            "¿Es cierto lo que dices del otro caso?",
            "What you say about the case you compare with may not be accurate.",
            "Lo que dices del caso con que comparas puede no ser exacto.",
        ),
        _cq(
            "analogy.similar",
            "warrant",
            "Are the two cases alike in the respects that matter here?",
            "¿Se parecen los dos casos en lo que importa aquí?",
            "The two cases may be alike on the surface but differ where it matters.",
            "Los dos casos pueden parecerse por fuera pero diferir en lo que importa.",
        ),
        _cq(
            "analogy.difference",
            "claim",
            "Is there a difference between the cases that changes the conclusion?",
            "¿Hay alguna diferencia entre los casos que cambie la conclusión?",
            "A difference between the cases may lead to the opposite conclusion.",
            "Una diferencia entre los casos puede llevar a la conclusión contraria.",
            exception=True,
        ),
    ),
)

SIGN = Scheme(
    "sign",
    {"en": "argument from sign", "es": "argumento por signos"},
    {
        "en": ("is a sign of", "indicates", "is a symptom of"),
        "es": ("es una señal de", "indica", "es un síntoma de"),
    },
    (
        _cq(
            "sign.present",
            "grounds",
            "Is the sign really there, as your grounds say?",
            "¿Está de verdad la señal, como dicen tus datos?",
            "The sign your grounds describe may not really be there.",
            "La señal que describen tus datos puede no estar realmente ahí.",
        ),
        _cq(
            "sign.strength",
            "warrant",
            "How reliably does this sign go with what you conclude?",
            "¿Con qué fiabilidad acompaña esta señal a lo que concluyes?",
            "This sign may go with what you conclude only weakly, or only sometimes.",
            "Esta señal puede acompañar a lo que concluyes solo débilmente, o solo a veces.",
        ),
        _cq(
            "sign.other_cause",
            "claim",
            "Could something else explain the sign better?",
            "¿Podría otra cosa explicar mejor la señal?",
            "Something other than your claim may explain the sign better.",
            "Algo distinto de tu afirmación puede explicar mejor la señal.",
            exception=True,
        ),
    ),
)

PRACTICAL = Scheme(
    "practical_reasoning",
    {
        "en": "argument from a goal (practical reasoning)",
        "es": "argumento por un fin (razonamiento práctico)",
    },
    {
        "en": ("the best way to", "in order to", "our goal is", "if we want"),
        "es": ("la mejor manera de", "para lograr", "nuestro objetivo es", "si queremos"),
    },
    (
        _cq(
            "practical.achieves",
            "grounds",
            "Will the action really bring about the goal?",
            "¿Logrará de verdad la acción el objetivo?",
            "Your evidence does not show that this action will reach the goal.",
            "Tus datos no muestran que esta acción vaya a lograr el objetivo.",
        ),
        _cq(
            "practical.alternatives",
            "warrant",
            "Is there another way to reach the goal that is better or cheaper?",
            "¿Hay otra manera de lograr el objetivo que sea mejor o más barata?",
            "Another way may reach the same goal better, or at a lower cost.",
            "Otra manera puede lograr el mismo objetivo mejor, o con menos coste.",
        ),
        _cq(
            "practical.side_effects",
            "claim",
            "Would the action have bad effects, or clash with other goals?",
            "¿Tendría la acción malos efectos, o chocaría con otros objetivos?",
            "The action may have bad effects, or work against other goals that matter.",
            "La acción puede tener malos efectos, o ir en contra de otros objetivos que importan.",
            exception=True,
        ),
    ),
)

POPULAR = Scheme(
    "popular_opinion",
    {"en": "argument from popular opinion", "es": "argumento de la opinión popular"},
    {
        "en": ("most people think", "everyone agrees", "the majority believes"),
        "es": ("la mayoría de la gente cree", "todo el mundo piensa", "la mayoría opina"),
    },
    (
        _cq(
            "popular.evidence",
            "grounds",
            "Do that many people really think so, and how do you know?",
            "¿De verdad lo piensa tanta gente, y cómo lo sabes?",
            "It may not be true that most people think so.",
            "Puede no ser cierto que la mayoría lo piense.",
        ),
        _cq(
            "popular.reason",
            "warrant",
            "Is there a reason to think that what most people believe is right here?",
            "¿Hay alguna razón para creer que lo que piensa la mayoría es correcto aquí?",
            "Many people believing something does not make it true.",
            "Que mucha gente crea algo no lo hace verdad.",
        ),
        _cq(
            "popular.exception",
            "claim",
            "Is your case one where popular opinion is likely to be wrong?",
            "¿Es tu caso uno en que la opinión popular probablemente se equivoque?",
            "In your case popular opinion may well be wrong.",
            "En tu caso la opinión popular puede muy bien equivocarse.",
            exception=True,
        ),
    ),
)

CLASSIFICATION = Scheme(
    "verbal_classification",
    {"en": "argument from classification", "es": "argumento por clasificación"},
    {
        "en": ("is a kind of", "by definition", "counts as", "is a form of"),
        "es": ("es un tipo de", "por definición", "cuenta como", "es una forma de"),
    },
    (
        _cq(
            "classification.fits",
            "grounds",
            "Does the case really have the features your grounds say it has?",
            "¿Tiene de verdad el caso los rasgos que dicen tus datos?",
            "The case may not really have the features that would put it in that class.",
            "El caso puede no tener de verdad los rasgos que lo pondrían en esa clase.",
        ),
        _cq(
            "classification.definition",
            "warrant",
            "Is the definition or class in your warrant a fair one?",
            "¿Es justa la definición o la clase de tu garantía?",
            "The definition your warrant relies on may be too wide, or unfair.",
            "La definición en que se apoya tu garantía puede ser demasiado amplia, o injusta.",
        ),
        _cq(
            "classification.exception",
            "claim",
            "Is this a borderline case that the class does not really fit?",
            "¿Es este un caso dudoso en que la clase no encaja del todo?",
            "Your case may be a borderline one that the class does not fit.",
            "Tu caso puede ser uno dudoso en que la clase no encaja.",
            exception=True,
        ),
    ),
)

# The fallback: any defeasible rule (Walton's general questions for a premise, the
# rule and exceptions), used when no cue points at a more specific scheme.
RULE = Scheme(
    "defeasible_rule",
    {"en": "argument from a general rule", "es": "argumento a partir de una regla general"},
    {"en": (), "es": ()},
    (
        _cq(
            "rule.grounds",
            "grounds",
            "Is the evidence in your grounds true, and enough?",
            "¿Son ciertos tus datos, y suficientes?",
            "Your grounds may not be accurate or complete enough to carry the claim.",
            "Tus datos pueden no ser exactos o completos como para sostener la afirmación.",
        ),
        _cq(
            "rule.holds",
            "warrant",
            "Does the general rule in your warrant hold, and what backs it?",
            "¿Se cumple la regla general de tu garantía, y qué la respalda?",
            "The rule in your warrant may not hold in general.",
            "La regla de tu garantía puede no cumplirse en general.",
        ),
        _cq(
            "rule.exception",
            "claim",
            "Is this case an exception to the rule?",
            "¿Es este caso una excepción a la regla?",
            "Your case may be an exception to the rule.",
            "Tu caso puede ser una excepción a la regla.",
            exception=True,
        ),
    ),
)

# Most specific first: a tie in cue counts goes to the earlier scheme.
SCHEMES: tuple[Scheme, ...] = (
    EXPERT,
    CAUSE,
    ANALOGY,
    EXAMPLE,
    CONSEQUENCES,
    SIGN,
    PRACTICAL,
    POPULAR,
    CLASSIFICATION,
    RULE,
)

_BY_CODE = {scheme.code: scheme for scheme in SCHEMES}


def scheme_named(code: str) -> Scheme | None:
    """The scheme with this code, or None."""
    return _BY_CODE.get(code)


def identify_scheme(elements: Mapping[str, str], *, language: str = "en") -> Scheme:
    """The scheme the warrant most likely uses, read from what it says
    (`argumentation.scheme_cues`: both languages are read whatever ``language`` is,
    since students mix them; the warrant decides, its backing and the grounds only
    when it names no form at all; nothing at all gives the general rule)."""
    return _BY_CODE[detect_scheme(elements)]


def _fallback(target: str, elements: Mapping[str, str]) -> str:
    # A question about a backing the student did not write challenges what it would back.
    if target == "groundsBacking" and not (elements.get("groundsBacking") or "").strip():
        return "grounds"
    if target == "warrantBacking" and not (elements.get("warrantBacking") or "").strip():
        return "warrant"
    return target


def objections(elements: Mapping[str, str], *, language: str = "en") -> list[Objection]:
    """The critical questions of the warrant's scheme, as typed objections (one per
    question, in the scheme's order), worded in ``language`` ("en" or "es")."""
    language = language if language in ("en", "es") else "en"
    scheme = identify_scheme(elements, language=language)
    found = []
    for question in scheme.questions:
        element = _fallback(question.target, elements)
        found.append(
            Objection(
                scheme=scheme.code,
                question_code=question.code,
                element=element,
                attack_type=_ATTACK_TYPE[element],
                counter_proposition=question.objection[language],
                rationale=_rationale(scheme, question, language),
                exception=question.exception,
            )
        )
    return found


def question_for(text: str) -> tuple[Scheme, CriticalQuestion] | None:
    """The scheme and critical question whose objection (in either language) is
    ``text``: how a stored objection is recognised again, whatever language it was
    worded in."""
    return _BY_OBJECTION.get(" ".join(text.split()))


def reword(text: str, language: str) -> str | None:
    """``text`` in ``language`` when it is one of this module's own sentences (a
    critical question's objection, or its rationale as :func:`objections` words it)
    in either language; None for any other text (a persona's or a student's words)."""
    language = language if language in ("en", "es") else "en"
    key = " ".join(text.split())
    if key in _BY_OBJECTION:
        return _BY_OBJECTION[key][1].objection[language]
    if key in _BY_RATIONALE:
        scheme, question = _BY_RATIONALE[key]
        return _rationale(scheme, question, language)
    return None


def _rationale(scheme: Scheme, question: CriticalQuestion, language: str) -> str:
    label = "Pregunta crítica" if language == "es" else "Critical question"
    return f"{label} ({scheme.name[language]}): {question.question[language]}"


_BY_OBJECTION = {
    " ".join(q.objection[lang].split()): (s, q)
    for s in SCHEMES
    for q in s.questions
    for lang in ("en", "es")
}
_BY_RATIONALE = {
    _rationale(s, q, lang): (s, q) for s in SCHEMES for q in s.questions for lang in ("en", "es")
}
