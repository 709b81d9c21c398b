"""Step validation heuristics: is this text good enough to move on from a step?

The advance guard asks these before letting the coach move the student on,
and the offline coach uses them to name what is weak. They are deliberately
cheap and lenient (word markers, not understanding): they catch text that is
plainly not the element — a question as a claim, grounds with no evidence, a
rebuttal with no exception — and let the model judge the rest.

Markers of both languages are accepted whatever the argument's language:
students mix them, and a Spanish source title inside English grounds is
still a source. Matching is case-, accent- and punctuation-insensitive
(`coach.text.fold`); "word*" matches any word that starts with "word".

The table
=========

==============  =========  ==========================================================
step            min chars  must also
==============  =========  ==========================================================
claim           10         be a statement, not a question (no "?" / "¿"), and not
                           open like grounds do ("according to", "a study shows",
                           "según", "un estudio" ...): that is evidence typed into
                           the claim
grounds         15         carry evidence: a figure (any digit), a source ("study",
                           "survey", "report", "according to", "estudio",
                           "encuesta", "según" ...) or an observation ("I observed",
                           "for example", "observé", "por ejemplo" ...)
warrant         15         state a general principle linking grounds to claim
                           ("if", "when", "generally", "tends to", "leads to",
                           "si", "cuando", "en general", "suele", "conduce" ...)
groundsBacking  15         say where the evidence comes from and why it is
                           credible: a source or method ("published", "peer-
                           reviewed", "census", "survey", "dataset", "publicado",
                           "revisado por pares", "censo" ...) or a year
warrantBacking  15         support the principle with research, law, theory,
                           expertise or history ("research", "studies", "law",
                           "theory", "experts", "investigación", "ley", "teoría",
                           "expertos", "historia" ...)
qualifier       3          carry a degree word ("probably", "likely", "in most
                           cases", "probablemente", "en la mayoría" ...) or a
                           percentage
rebuttal        10         name an exception ("unless", "except", "a menos que",
                           "salvo", "excepto", "a no ser que" ...)
==============  =========  ==========================================================

The marker lists below are the source of truth; the table summarises them.

`check_step` is what the advance guard asks, for the AI coach too: there a
model has read the text, so the check stays lenient. Without a model, the
offline coach asks `assess_step`, which checks what it can on top (with
`coach.wording`, in English and Spanish alike):

==============  ==========================================================
step            also
==============  ==========================================================
every step      be made of words ("not_words": "asdf qwerty zxcv" is not)
claim           have something verb-like ("no_verb": "Mandatory uniforms"
                is a topic, not a claim) and not be a sum or "X is X"
                ("truism": nobody disputes it)
grounds         relate to the claim ("unrelated"): share a content word
                with it (after lemmatizing), cite a source, or carry words
                that mark evidence ("for example"; a bare figure is not)
warrant         link grounds and claim ("unlinked"): share content with
                both, or state a general rule and share content with one
                (a warrant that names both needs no rule word)
both backings   support what they back ("unsupported"): share content with
                it or another part of the argument, or name a source (a
                name, a year, a link)
==============  ==========================================================

Where the optional sentence embeddings are installed, an English text near
in meaning to what it relates to (`coach.wording.related_in_meaning`: the
claim for grounds, both claim and grounds for a warrant, a part it backs for
a backing) is related even with no shared word; they only ever accept.

Accept stores no circular text and no other step's text, whoever wrote it:
`circular_or_copied(..., restated=False)` is what coach.services asks.

Before those, `coach.judgment` decides whether the text is an answer at all;
when it is not, that one problem is the whole verdict (`ROOT_PROBLEMS`):
"non_answer" ("idk", "yes", "no"), "copies_<step>" (another step's text
again), "circular" (claim, grounds, warrant, backings: "X because X"),
"is_question" (a claim asked, with or without "?"), "repeats_<step>"
(grounds that restate the claim, a warrant the claim or the grounds, a
backing what it backs), "qualifier_reason" (a reason where a degree
belongs), "agrees" (a rebuttal that agrees with the claim). A claim with no
word that takes a position is a "truism" too (a plain fact, a definition),
and a warrant must share more than generic words ("people", "time") with the
argument. Figures in grounds count as evidence only when the claim does not
already hold them: "at 9 a.m. instead of 8 a.m." sent again is not evidence.
`circular_or_copied` is what the guards hold any coach's proposal to.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from coach.judgment import (
    adds_nothing,
    agrees,
    copies,
    gives_a_reason,
    is_circular,
    is_non_answer,
    is_question,
    takes_a_position,
)
from coach.steps import STEP_IDS, phrases_for
from coach.text import contains_phrase, fold
from coach.wording import (
    has_verb,
    is_truism,
    looks_like_gibberish,
    related_in_meaning,
    shared_content,
)

__all__ = [
    "PROBLEM_MESSAGES",
    "ROOT_PROBLEMS",
    "RULES",
    "HeuristicResult",
    "StepRule",
    "assess_step",
    "check_step",
    "circular_or_copied",
    "problem_message",
]

_DIGIT = re.compile(r"\d")
_YEAR = re.compile(r"\b(1[5-9]|20)\d\d\b")
_PERCENT = re.compile(r"\d\s*%")


@dataclass(frozen=True, slots=True)
class StepRule:
    """What a step's text needs. `markers` empty means no marker is required."""

    step: str
    min_chars: int
    markers: tuple[str, ...]
    missing_problem: str


SOURCE_MARKERS = (
    # English
    "according to", "study", "studies", "survey*", "report*", "data", "dataset*",
    "research*", "published", "journal*", "university", "census", "statistic*",
    "poll*", "meta analysis", "experiment*", "official", "ministry", "agency",
    "institute", "oecd", "percent", "per cent",
    # Spanish
    "segun", "estudio*", "encuesta*", "informe*", "datos", "investigacion*",
    "publicado*", "publicada*", "revista*", "universidad*", "censo*", "estadistica*",
    "sondeo*", "experimento*", "oficial*", "ministerio*", "agencia*", "instituto*",
    "por ciento",
)  # fmt: skip

OBSERVATION_MARKERS = (
    "i observed", "i saw", "i noticed", "i measured", "we observed", "we measured",
    "we counted", "observed", "for example", "for instance", "in my experience",
    "observe", "vi que", "note que", "medi", "medimos", "contamos", "observamos",
    "por ejemplo", "en mi experiencia",
)  # fmt: skip

PRINCIPLE_MARKERS = (
    "if", "when", "whenever", "because", "since", "generally", "in general",
    "usually", "as a rule", "tends to", "tend to", "all", "any", "every",
    "leads to", "lead to", "causes", "cause", "means", "implies", "results in",
    "so", "therefore", "should", "ought", "more", "less",
    "si", "cuando", "siempre que", "porque", "ya que", "en general",
    "generalmente", "por lo general", "suele*", "suelen", "tiende*", "todo*",
    "toda*", "cualquier*", "conduce*", "causa*", "implica*", "significa*",
    "por lo tanto", "por eso", "deberia*", "mas", "menos",
)  # fmt: skip

CREDIBILITY_MARKERS = SOURCE_MARKERS + (
    "peer reviewed", "peer review", "methodology", "method", "sample", "sampled",
    "randomi*", "replicat*", "measured by", "collected by", "conducted by",
    "revisado por pares", "revisada por pares", "metodologia*", "metodo*",
    "muestra*", "aleatori*", "replica*", "realizado por", "recogidos por",
)  # fmt: skip

AUTHORITY_MARKERS = (
    "research*", "studies", "study", "evidence", "law", "laws", "legal", "theory",
    "theories", "expert*", "scientist*", "economist*", "psycholog*", "econom*",
    "history", "historical*", "historically", "principle", "consensus",
    "scholar*", "literature", "textbook*", "guideline*", "constitution",
    "investigacion*", "estudios", "evidencia*", "ley", "leyes", "legal*",
    "teoria*", "experto*", "cientifico*", "economista*", "psicolog*", "economi*",
    "historia", "historic*", "principio*", "consenso", "academic*", "academico*",
    "literatura", "manual*", "constitucion",
    "academy", "academia", "association", "asociacion", "organization", "organizacion",
    "doctor*", "medic*", "pediatr*", "professor*", "profesor*", "university", "universidad*",
)  # fmt: skip

DEGREE_MARKERS = (
    "probably", "likely", "unlikely", "possibly", "presumably", "almost certainly",
    "certainly", "definitely", "usually", "generally", "typically", "in most cases",
    "in many cases", "in some cases", "often", "sometimes", "rarely", "most", "many",
    "some", "may", "might", "could", "perhaps", "maybe", "plausibly", "arguably",
    "very likely", "highly likely", "to some extent", "mostly", "largely", "in general",
    "probablemente", "probable", "posiblemente", "posible", "quizas", "quiza",
    "tal vez", "seguramente", "casi seguro", "casi seguramente", "ciertamente",
    "sin duda", "generalmente", "normalmente", "en la mayoria", "en muchos casos",
    "en algunos casos", "a menudo", "a veces", "rara vez", "la mayoria", "algunos",
    "algunas", "muchos", "muchas", "puede", "pueden", "podria", "podrian",
    "muy probable", "en gran medida", "hasta cierto punto", "mayormente", "en general",
)  # fmt: skip

EXCEPTION_MARKERS = (
    "unless", "except", "excepting", "exception*", "but if", "but not if",
    "only if", "only when", "not if", "does not hold", "would not hold",
    "doesnt hold", "fails when", "fails if", "apart from", "other than",
    "a menos que", "salvo", "excepto", "excepcion*", "a no ser que", "pero si",
    "solo si", "solo cuando", "no se cumple", "no aplica", "fuera de",
    "siempre y cuando no",
)  # fmt: skip

# Openings that mark evidence, so a claim starting with one is grounds typed into the claim.
EVIDENCE_OPENINGS = (
    "according to", "a study", "studies show", "a survey", "research shows",
    "data show", "the data", "statistics show", "in 19", "in 20",
    "segun", "un estudio", "los estudios", "una encuesta", "la investigacion",
    "los datos", "las estadisticas", "en 19", "en 20",
)  # fmt: skip

RULES: dict[str, StepRule] = {
    "claim": StepRule("claim", 10, (), ""),
    "grounds": StepRule("grounds", 15, SOURCE_MARKERS + OBSERVATION_MARKERS, "no_evidence"),
    "warrant": StepRule("warrant", 15, PRINCIPLE_MARKERS, "no_principle"),
    "groundsBacking": StepRule("groundsBacking", 15, CREDIBILITY_MARKERS, "no_source"),
    "warrantBacking": StepRule("warrantBacking", 15, AUTHORITY_MARKERS, "no_authority"),
    "qualifier": StepRule("qualifier", 3, DEGREE_MARKERS, "no_degree_word"),
    "rebuttal": StepRule("rebuttal", 10, EXCEPTION_MARKERS, "no_exception"),
}
assert tuple(RULES) == STEP_IDS, "one rule per step, in step order"

# What each problem means, in the words the offline coach uses with a student.
PROBLEM_MESSAGES: dict[str, dict[str, str]] = {
    "empty": {
        "en": "there is no text yet",
        "es": "todavía no hay texto",
    },
    "too_short": {
        "en": "it is too short to stand on its own",
        "es": "es demasiado corto para sostenerse solo",
    },
    "is_question": {
        "en": "it is a question, and a claim has to be a statement you defend",
        "es": "es una pregunta, y una afirmación tiene que ser algo que defiendes",
    },
    "looks_like_grounds": {
        "en": "it reads like evidence (grounds) rather than the position you defend",
        "es": "parece evidencia (datos) más que la postura que defiendes",
    },
    "no_evidence": {
        "en": "it carries no evidence: no figure, no source, no observation",
        "es": "no aporta evidencia: ni una cifra, ni una fuente, ni una observación",
    },
    "no_principle": {
        "en": "it does not state a general principle that links the grounds to the claim",
        "es": "no enuncia un principio general que una los datos con la afirmación",
    },
    "no_source": {
        "en": "it does not say where the evidence comes from or why it is credible",
        "es": "no dice de dónde viene la evidencia ni por qué es fiable",
    },
    "no_authority": {
        "en": "it does not support the principle with research, law, theory, experts or history",
        "es": "no respalda el principio con investigación, leyes, teoría, expertos o historia",
    },
    "no_degree_word": {
        "en": "it has no degree word such as 'probably' or 'in most cases'",
        "es": "no tiene una palabra de grado como «probablemente» o «en la mayoría de los casos»",
    },
    "not_words": {
        "en": "I do not recognise most of its words, so please write it in plain words",
        "es": "no reconozco la mayoría de sus palabras, así que escríbelo con palabras corrientes",
    },
    "no_verb": {
        "en": "it names a topic but says nothing about it: a claim needs a verb ('should', 'is', 'reduces' ...)",
        "es": "nombra un tema pero no dice nada de él: una afirmación necesita un verbo («debería», «es», «reduce» ...)",
    },
    "truism": {
        "en": "nobody would disagree with it (it is a plain fact or a definition), so there is "
        "nothing to argue about: say what should change, or what is better or worse",
        "es": "nadie estaría en desacuerdo (es un hecho o una definición), así que no hay nada "
        "que discutir: di qué debería cambiar, o qué es mejor o peor",
    },
    "circular": {
        "en": 'it uses itself as its own reason ("X because X"), so it proves nothing: give a '
        "reason that says something new",
        "es": "se usa a sí misma como razón («X porque X»), así que no demuestra nada: da una "
        "razón que diga algo nuevo",
    },
    "non_answer": {
        "en": "that does not say anything about your argument yet: write a sentence with your "
        "own idea (starting small is fine)",
        "es": "eso todavía no dice nada sobre tu argumento: escribe una frase con tu propia idea "
        "(vale empezar con algo pequeño)",
    },
    "qualifier_reason": {
        "en": "it gives a new reason instead of saying how sure you are: keep only the degree, "
        "like 'probably' or 'in most cases', and put reasons in your grounds",
        "es": "da una razón nueva en vez de decir qué tan seguro estás: deja solo el grado, como "
        "«probablemente» o «en la mayoría de los casos», y pon las razones en tus datos",
    },
    "agrees": {
        "en": "it agrees with your claim instead of naming a case where your claim would be "
        "wrong: say when it would not hold ('unless ...')",
        "es": "está de acuerdo con tu afirmación en vez de nombrar un caso en que fallaría: di "
        "cuándo no se cumpliría («a menos que ...»)",
    },
    "unrelated": {
        "en": "I cannot see how it relates to your claim: it shares no key word with it and cites no source",
        "es": "no veo cómo se relaciona con tu afirmación: no comparte ninguna palabra clave con ella ni cita una fuente",
    },
    "unlinked": {
        "en": "it is about something else: a warrant says why your grounds support your claim, "
        "so mention what each of them is about",
        "es": "trata de otra cosa: la garantía dice por qué tus datos apoyan tu afirmación, así "
        "que menciona de qué trata cada uno",
    },
    "unsupported": {
        "en": "it does not seem to be about what it backs: name its subject or a source (a name, a year, a link)",
        "es": "no parece tratar de lo que respalda: nombra su tema o una fuente (un nombre, un año, un enlace)",
    },
    "no_exception": {
        "en": "it names no exception: say when the claim would not hold ('unless ...')",
        "es": "no nombra una excepción: di cuándo no se cumpliría («a menos que ...»)",
    },
}

# A step's text that is another step's again: "copies_claim" (the same text, pasted) and
# "repeats_claim" (the same content, reworded), one of each per step.
for _step in STEP_IDS:
    _en, _es = phrases_for(_step, "en").your, phrases_for(_step, "es").your
    PROBLEM_MESSAGES[f"copies_{_step}"] = {
        "en": f"it is the same text as {_en}: each part of your argument needs its own words",
        "es": f"es el mismo texto que {_es}: cada parte del argumento necesita sus propias "
        "palabras",
    }
    PROBLEM_MESSAGES[f"repeats_{_step}"] = {
        "en": f"it only says {_en} again in other words, so it adds nothing new",
        "es": f"solo repite {_es} con otras palabras, así que no añade nada nuevo",
    }
del _step, _en, _es

# Problems that are the whole story: the text is not an answer to the step at all, so the
# coach names this one and not the markers it also lacks.
ROOT_PROBLEMS = frozenset(
    {"non_answer", "circular", "is_question", "qualifier_reason", "agrees"}
    | {f"{kind}_{step}" for kind in ("copies", "repeats") for step in STEP_IDS}
)


@dataclass(frozen=True, slots=True)
class HeuristicResult:
    """`ok` when no problem was found; `problems` are keys of PROBLEM_MESSAGES."""

    ok: bool
    problems: tuple[str, ...]


def _has_any(folded: str, markers: tuple[str, ...]) -> bool:
    return any(contains_phrase(folded, marker) for marker in markers)


def _extra_evidence(step: str, text: str) -> bool:
    """Non-word evidence: figures count as evidence, years as provenance, % as degree."""
    if step == "grounds":
        return _DIGIT.search(text) is not None
    if step == "groundsBacking":
        return _YEAR.search(text) is not None
    if step == "qualifier":
        return _PERCENT.search(text) is not None
    return False


def check_step(*, step: str, text: str) -> HeuristicResult:
    """Judge `text` as the given step's element (see the table in the module docstring)."""
    rule = RULES[step]
    stripped = text.strip()
    if not stripped:
        return HeuristicResult(ok=False, problems=("empty",))
    folded = fold(stripped)
    problems: list[str] = []
    if len(stripped) < rule.min_chars:
        problems.append("too_short")
    if step == "claim":
        if stripped.endswith("?") or stripped.startswith("¿"):
            problems.append("is_question")
        if any(folded.startswith(fold(opening)) for opening in EVIDENCE_OPENINGS):
            problems.append("looks_like_grounds")
    if rule.markers and not _has_any(folded, rule.markers) and not _extra_evidence(step, stripped):
        problems.append(rule.missing_problem)
    return HeuristicResult(ok=not problems, problems=tuple(problems))


_NAMED_SOURCE = re.compile(r"(?<=\w )[A-ZÁÉÍÓÚÑ][\w.&-]+|https?://|www\.|\b(1[5-9]|20)\d\d\b")
# What each backing backs, besides the claim.
_BACKED = {"groundsBacking": "grounds", "warrantBacking": "warrant"}


def _cites(folded: str, text: str) -> bool:
    return _has_any(folded, SOURCE_MARKERS) or _NAMED_SOURCE.search(text) is not None


def _relation_problems(
    step: str, text: str, folded: str, draft: Mapping[str, str], language: str
) -> tuple[list[str], bool]:
    """Problems of how `text` relates to the rest of the draft, and whether it links both
    grounds and claim (a warrant that does needs no rule word)."""
    claim = draft.get("claim", "").strip()
    if (
        step == "grounds"
        and claim
        and not shared_content(text, claim, language)
        and not _cites(folded, text)
        and not _has_evidence(step, folded, text)
        and not related_in_meaning(text, claim, language)
    ):
        return ["unrelated"], False
    if step == "warrant":
        grounds = draft.get("grounds", "").strip()
        others = [other for other in (claim, grounds) if other]
        links = [bool(shared_content(text, other, language) - GENERIC_WORDS) for other in others]
        # By meaning, a warrant must be about both: "If it rains, the streets get wet" is near
        # "ban cars downtown" (streets) but not near the pollution it should link to it.
        by_meaning = bool(others) and all(
            related_in_meaning(text, other, language) for other in others
        )
        if links and not any(links) and not by_meaning:
            return ["unlinked"], False
        return [], len(links) == 2 and (all(links) or by_meaning)
    if step in _BACKED:
        # What it backs first; any part of the argument it is about will do for the words.
        backed = [
            other
            for other in dict.fromkeys(
                (draft.get(_BACKED[step], "").strip(), claim)
                + tuple(draft.get(part, "").strip() for part in ("grounds", "warrant"))
            )
            if other
        ]
        if (
            backed
            and not _NAMED_SOURCE.search(text)
            and not any(shared_content(text, other, language) for other in backed)
            and not any(related_in_meaning(text, other, language) for other in backed)
        ):
            return ["unsupported"], False
    return [], False


def _has_evidence(step: str, folded: str, text: str) -> bool:
    """Words that mark evidence (a source, an observation: "for example", "por ejemplo"):
    grounds that carry them are evidence, and whether it bears on the claim is a matter of
    meaning that shared words cannot settle, so the word check does not refuse them. A bare
    figure does not count ("my uncle has 2 cars lol"), nor does a backing's "studies" ("my
    cat is orange and has studies"): those markers are too easy to have by chance."""
    return _has_any(folded, RULES[step].markers)


# Words every topic shares: a warrant that shares only these with the argument links nothing.
GENERIC_WORDS = frozenset(
    (
        "people", "person", "thing", "time", "day", "year", "way", "lot", "world", "everyone",
        "gente", "persona", "cosa", "tiempo", "dia", "ano", "vez", "forma", "manera", "mundo",
    )
)  # fmt: skip


def _only_the_claims_figures(step: str, text: str, draft: Mapping[str, str]) -> bool:
    """Grounds whose only evidence is figures, all of them the claim's own ("9 a.m. instead of
    8 a.m." again): the figures are the position, not evidence for it."""
    if step != "grounds" or _has_any(fold(text), RULES["grounds"].markers):
        return False
    figures = set(re.findall(r"\d+", text))
    return bool(figures) and figures <= set(re.findall(r"\d+", draft.get("claim", "")))


def _judgment_problems(step: str, text: str, draft: Mapping[str, str], language: str) -> list[str]:
    """What `coach.judgment` finds: the text is not an answer, or not this step's own."""
    folded = fold(text)
    if is_non_answer(text) and not (step == "qualifier" and _has_any(folded, DEGREE_MARKERS)):
        return ["non_answer"]
    for other_step in STEP_IDS:
        other = draft.get(other_step, "").strip()
        if other_step != step and other and copies(text, other):
            return [f"copies_{other_step}"]
    if (
        step not in ("qualifier", "rebuttal")
        and not is_truism(text)  # "War is war": nobody disputes it (the truism check)
        and is_circular(text, language)
    ):
        return ["circular"]
    if step == "claim" and is_question(text):
        return ["is_question"]
    restated = {
        "grounds": ("claim",),
        "warrant": ("claim", "grounds"),
        "groundsBacking": ("grounds", "claim"),
        "warrantBacking": ("warrant", "claim"),
    }.get(step, ())
    for other_step in restated:
        if adds_nothing(text, draft.get(other_step, ""), language):
            return [f"repeats_{other_step}"]
    if step == "qualifier" and gives_a_reason(text):
        return ["qualifier_reason"]
    if step == "rebuttal" and agrees(text, draft.get("claim", ""), language):
        return ["agrees"]
    return []


# What the server's guard holds any coach's proposal to (coach.guards.judgment_gate): a text
# that begs the question or is another step's again is never kept, whoever proposed it.
_GUARDED = frozenset(
    {"circular"} | {p for p in ROOT_PROBLEMS if p.startswith(("copies_", "repeats_"))}
)


# What Accept refuses to store, whoever wrote the text: only the two cases that form alone
# decides (a reworded restatement is the coach's to point out, not the server's to refuse).
_REFUSED_ON_ACCEPT = frozenset({"circular"} | {f"copies_{step}" for step in STEP_IDS})


def circular_or_copied(
    *, step: str, text: str, draft: Mapping[str, str], language: str = "en", restated: bool = True
) -> str | None:
    """The problem when `text` is circular, another step's text again, or (grounds, a
    warrant, a backing, unless `restated` is False) what it should support said again;
    else None."""
    stripped = text.strip()
    if not stripped:
        return None
    guarded = _GUARDED if restated else _REFUSED_ON_ACCEPT
    found = [p for p in _judgment_problems(step, stripped, draft, language) if p in guarded]
    return found[0] if found else None


def assess_step(
    *, step: str, text: str, draft: Mapping[str, str] | None = None, language: str = "en"
) -> HeuristicResult:
    """`check_step`, plus what the offline coach checks without a model (module docstring).

    `draft` maps step ids to the argument's texts so far; the relation checks
    need the claim (and the grounds, for the warrant) and are skipped without.
    """
    basic = check_step(step=step, text=text)
    if basic.problems == ("empty",):
        return basic
    problems = list(basic.problems)
    stripped = text.strip()
    if looks_like_gibberish(stripped):
        # Nothing else can be judged in words nobody can read.
        return HeuristicResult(ok=False, problems=("not_words",))
    judged = _judgment_problems(step, stripped, draft or {}, language)
    if judged:
        return HeuristicResult(ok=False, problems=tuple(judged))
    if step == "claim":
        if "is_question" not in problems and not has_verb(stripped, language):
            problems.append("no_verb")
        if is_truism(stripped) or (
            "is_question" not in problems and not takes_a_position(stripped)
        ):
            problems.append("truism")
    if "no_evidence" not in problems and _only_the_claims_figures(step, stripped, draft or {}):
        problems.append("no_evidence")
    related, links_both = _relation_problems(step, stripped, fold(stripped), draft or {}, language)
    problems.extend(related)
    if links_both and "no_principle" in problems:
        problems.remove("no_principle")
    return HeuristicResult(ok=not problems, problems=tuple(problems))


def problem_message(problem: str, language: str) -> str:
    """A problem in words, in the argument's language (English for anything else)."""
    messages = PROBLEM_MESSAGES[problem]
    return messages.get(language, messages["en"])
