"""Which argument scheme a warrant uses, read from what it says (English and Spanish).

A warrant is the inference rule of a Toulmin argument; Walton, Reed & Macagno
(2008, *Argumentation Schemes*, ch. 1 and the compendium of ch. 9) name the
common kinds of such rules and the *form* each takes:

- expert opinion: "E is an expert in D; E says A; so A" — experts, studies,
  "according to";
- cause to effect: "C tends to bring about E" — "causes", "leads to", a
  conditional with a change in its consequent ("if they sleep more, they learn
  better"), an effect explained by a mechanism ("because tired students cannot
  concentrate");
- consequences: "doing A brings good (bad) results, so do (don't) A" —
  benefits, costs, harm, "worth it";
- practical reasoning: "G is my goal; doing A realises G; so do A" — goals,
  "in order to", "the best way to";
- analogy: "C1 is like C2; A holds in C1; so in C2" — "just as", "similar";
- example (generalisation): "in these cases A; so in general A" — "for
  example", "cities that tried it";
- sign: "S is a sign of A" — "indicates", "a symptom of";
- popular opinion: "most people accept A" — "everyone agrees", polls;
- verbal classification: "x has the features of class F; so x is an F" —
  "by definition", "counts as", "is a kind of".

Each scheme has weighted patterns (the form's telltale words and shapes);
the warrant's matches decide, and only a warrant with no match at all is read
from its backing, then its grounds (where a cue word says what the evidence
is, not how the warrant reasons: a warrant reasoning from cause to effect
keeps its scheme even when its grounds cite a study). No match anywhere: the
general defeasible rule. Text is lowercased and its accents folded first, so
students who type without accents are read the same.

Pure: no Django, no network, no model.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping

__all__ = ["FALLBACK", "fold", "scheme_scores", "detect_scheme"]

FALLBACK = "defeasible_rule"

_CHANGE_EN = (
    r"(?:more|less|fewer|better|worse|higher|lower|faster|slower|safer|healthier|happier|"
    r"\w+er|(?:go|goes|went) (?:up|down)|improves?|drops?|falls?|rises?)"
)
_CHANGE_ES = r"(?:mas|menos|mejor|peor|mayor|menor|mejora\w*|empeora\w*|sube\w*|baja\w*)"

# (pattern, weight) on folded text. The weights say how sure a pattern is of its scheme:
# 3 a near-certain telltale, 2 a strong one, 1 a word several schemes share.
_PATTERNS: Mapping[str, tuple[tuple[str, int], ...]] = {
    "expert_opinion": (
        (r"\bexperts?\b|\bspecialists?\b|\bexpert[oa]s?\b|\bespecialistas?\b", 3),
        (r"\bscientists?\b|\bresearchers?\b|\bcientific[oa]s\b|\binvestigador(?:a|es|as)?\b", 3),
        (r"\baccording to\b|\bsegun\b", 2),
        (r"\bdoctors?\b|\bmedic[oa]s\b|\bdoctor(?:es|as)?\b|\bprofessors? of\b", 2),
        (r"\bpediatr\w*\b|\bpsycholog\w*\b|\bpsicolog[oa]s\b|\bnurses?\b|\benfermer[oa]s\b", 2),
        (r"\bstud(?:y|ies)\b|\bresearch\b|\bestudios?\b|\binvestigacion(?:es)?\b", 1),
        (r"\bpublished\b|\bjournal\b|\bpeer[- ]review|\bpublicad[oa]s?\b|\brevista\b", 2),
        (r"\bauthorit(?:y|ies)\b|\bautoridad(?:es)?\b", 2),
        (r"\b(?:who|oms|aap|cdc|unesco|unicef)\b", 1),
        (r"\bknows? (?:best|what they)\b|\bsaben? de lo que\b|\b(?:los|las) que mas saben\b", 2),
        (r"\bif (?:the )?(?:experts?|scientists?|doctors?) (?:say|recommend|agree)", 2),
    ),
    "cause_to_effect": (
        (r"\bcaus(?:e|es|ed|ing)\b|\bcausa(?:n|r|do|da)?\b", 3),
        (r"\bleads? to\b|\bled to\b|\bresults? in\b|\bbrings? about\b|\bgives? rise to\b", 3),
        (r"\bprovoca\w*\b|\bconduce\w*\b|\blleva(?:n)? a\b|\bda(?:n)? lugar\b|\bproduce\w*\b", 3),
        (r"\beffects?\b|\befectos?\b|\bresults? from\b|\bdue to\b|\bdebido a\b", 2),
        (rf"\bif\b[^.;]*\b{_CHANGE_EN}\b", 2),
        (rf"\bsi\b[^.;]*\b{_CHANGE_ES}\b", 2),
        (rf"\bthe (?:more|less|fewer)\b[^.;]*\bthe {_CHANGE_EN}\b", 3),
        (rf"\bcuant[oa]s? (?:mas|menos)\b[^.;]*\b{_CHANGE_ES}\b", 3),
        (r"\bhace(?:n)? que\b|\bmakes? (?:\w+ ){1,3}(?:more|less|\w+er)\b", 2),
        (r"\b(?:stops?|keeps?|prevents?) (?:\w+ ){1,3}from\b|\bimpide\w* que\b", 2),
        (r"\bbecause\b|\bporque\b|\bya que\b|\bsince\b", 1),
        (r"\b(?:cannot|can't|can not|unable to)\b|\bno (?:pueden?|consiguen?|logran?)\b", 1),
        (r"\b(?:reduc|increas|lower|rais|prevent|improv|worsen|boost|cut)\w*\b", 1),
        (r"\b(?:reduc|aument|disminu|evit|impid|impide|favorec|empeor)\w*\b", 1),
        (r"\bso (?:they|it|we|people|students|fewer|more|less)\b|\bpor eso\b|\basi que\b", 1),
        (r"\bwhen\b[^.;]*\b" + _CHANGE_EN + r"\b|\bcuando\b[^.;]*\b" + _CHANGE_ES + r"\b", 1),
    ),
    "consequences": (
        (r"\bbenefits?\b|\bbeneficios?\b|\bbeneficia\w*\b", 2),
        (r"\bcosts?\b|\bcostes?\b|\bcostos?\b|\bdrawbacks?\b|\bdownsides?\b", 2),
        (r"\bcostar\w*\b|\bcuesta\w*\b|\bcost(?:ing|ly)\b", 1),
        (r"\bworth\b|\bvale la pena\b|\bcompensa\w*\b|\bmerece la pena\b", 3),
        (r"\boutweighs?\b|\bsuperan?\b|\bpesan? mas\b", 2),
        (r"\bharm\w*\b|\bdamag\w*\b|\bdano\w*\b|\bperjudic\w*\b|\bperjuicio\w*\b", 2),
        (r"\bconsequences?\b|\bconsecuencias?\b|\boutcomes?\b", 3),
        (r"\badvantages?\b|\bventajas?\b|\bdesventajas?\b|\binconvenientes?\b", 2),
        (r"\b(?:good|bad|great|terrible) (?:for|thing|idea|result)\b", 2),
        (r"\b(?:buen|mal)[oa]s? para\b|\bseri(?:a|an) (?:buen|mal|mejor|peor)\w*\b", 2),
        (r"\bthe good (?:it|they|this) (?:does|do)\b|\blo (?:bueno|malo) que\b", 2),
        (r"\bwould be (?:good|bad|better|worse)\b|\bsaves? (?:money|time|lives)\b", 2),
        (r"\bahorra\w* (?:dinero|tiempo|vidas)\b", 2),
        (r"\bshould\b|\bought to\b|\bdeberia\w*\b|\bdebe(?:mos|n)?\b", 1),
    ),
    "practical_reasoning": (
        (r"\bgoals?\b|\baims?\b|\bobjectives?\b|\bpurpose\b", 3),
        (r"\bobjetivos?\b|\bmetas?\b|\bproposito\b|\bfinalidad\b", 3),
        (r"\bin order to\b|\bso that we\b|\bto achieve\b|\bto reach\b|\bto make sure\b", 3),
        (r"\bpara (?:lograr|conseguir|alcanzar|que)\b|\bcon el fin de\b|\ba fin de\b", 3),
        (r"\bthe (?:best|only|surest|easiest|cheapest) way to\b|\bthe means to\b", 3),
        (r"\bla (?:mejor|unica) (?:manera|forma|via)\b|\bla (?:manera|forma) mas \w+ de\b", 3),
        (r"^(?:para|to) \w+\b[^,.;]*,", 2),
        (r"\bif we want\b|\bwe want\b|\bwe need to\b|\bsi queremos\b|\bqueremos\b", 2),
        (r"\bnecesitamos\b|\bhay que\b", 1),
    ),
    "analogy": (
        (r"\bjust as\b|\bjust like\b|\bin the same way\b|\bthe same way\b|\bsame as\b", 3),
        (r"\bsimilar\w*\b|\banalog\w*\b|\bparecid[oa]s?\b|\bse parece\w*\b", 3),
        (r"\bigual que\b|\bal igual\b|\bdel mismo modo\b|\bde la misma (?:manera|forma)\b", 3),
        (r"\basi como\b|\blo mismo que\b|\bcompar\w*\b", 2),
        (r"(?<!would )(?<!feel )\blike (?:a|an|the|in|with|how)\b", 2),
        (r"\b(?:is|are|es|son) (?:just |justo )?(?:like|como)\b", 3),
        (r"\bcomo (?:un|una|el|la|los|las|en|con|pasa|ocurre)\b", 1),
        (r"\bworks? for (?:\w+ ){1,4}(?:so|it|they) (?:will|should|would) work\b", 2),
    ),
    "example": (
        (r"\bfor (?:example|instance)\b|\be\.g\.|\bsuch as\b|\bpor ejemplo\b", 3),
        (r"\bthe (?:case|example) of\b|\bel (?:caso|ejemplo) de\b", 3),
        (
            r"\b(?:cities|towns|schools|countries|states|districts|places|companies|families)"
            r" (?:that|which|where|who)\b",
            3,
        ),
        (
            r"\b(?:ciudades|pueblos|escuelas|colegios|institutos|paises|lugares|empresas|"
            r"familias) (?:que|donde)\b",
            3,
        ),
        (
            r"\bin (?:other|several|many|many other|some) (?:\w+ )?"
            r"(?:cities|towns|schools|countries|places|states)\b",
            2,
        ),
        (
            r"\ben (?:otr[oa]s|vari[oa]s|much[oa]s|much[oa]s otr[oa]s) (?:\w+ )?"
            r"(?:ciudades|pueblos|escuelas|colegios|paises|lugares|institutos)\b",
            2,
        ),
        (r"\belsewhere\b|\bwherever\b|\bhas worked in\b|\bworked in\b|\bha funcionado en\b", 2),
        (r"\bfunciono en\b|\ben otros sitios\b|\bdonde se (?:probo|hizo|aplico)\b", 2),
        (r"\btried it\b|\blo probaron\b|\blo han probado\b", 1),
    ),
    "sign": (
        (r"\bsigns? (?:of|that)\b|\ba sign\b|\bsenal(?:es)? de\b|\bsigno de\b", 3),
        (r"\bindicat\w*\b|\bindica\w*\b|\bindicios?\b", 3),
        (r"\bsymptoms?\b|\bsintomas?\b|\btelltale\b|\bwarning sign\b", 3),
        (r"\bpoints? to\b|\bapunta\w* a\b|\bdelata\w*\b|\bse nota\b", 2),
        (r"\bmeans? that\b|\bsignifica que\b|\bquiere decir que\b", 1),
        (r"\bshows? that\b|\bmuestra que\b", 1),
        (r"\byou can tell\b|\bse puede saber\b|\bmark of\b|\bmuestra de\b", 2),
    ),
    "popular_opinion": (
        (r"\bmost people\b|\bthe majority\b|\bmost (?:parents|students|teachers|voters)\b", 3),
        (
            r"\b(?:everyone|everybody) (?:\w+ )?(?:agrees?|knows?|thinks?|believes?|says?|wants?)\b"
            r"|\btodo el mundo (?:\w+ )?(?:sabe|cree|piensa|opina|dice|quiere|esta de acuerdo)\b",
            3,
        ),
        (r"\bla mayoria\b|\bla gente (?:cree|piensa|opina|quiere)\b", 3),
        (r"\b(?:widely|generally|commonly) (?:accepted|believed|agreed|held)\b", 3),
        (r"\bampliamente aceptad\w*\b|\bse (?:cree|piensa) comunmente\b", 3),
        (r"\bopinion (?:publica|popular|general)\b|\bpublic opinion\b", 3),
        (r"\bpopular\b|\bpolls?\b|\bencuestas?\b|\bsurveys?\b", 2),
        (r"\bpeople (?:think|believe|agree|want|say)\b|\btodos (?:creen|piensan|opinan)\b", 2),
        (r"\d+ ?(?:%|percent|por ciento) (?:of )?(?:people|parents|students|de l[oa]s)\b", 2),
    ),
    "verbal_classification": (
        (r"\bby definition\b|\bpor definicion\b|\bis defined as\b|\bse definen? como\b", 3),
        (r"\b(?:is|are) defined as\b", 3),
        (r"\b(?:is|are) (?:a|an) (?:kind|type|form|sort) of\b", 3),
        (r"\b(?:es|son) (?:un|una) (?:tipo|forma|clase) de\b", 3),
        (r"\bcounts? as\b|\bqualif(?:y|ies) as\b|\bcuenta(?:n)? como\b|\bse considera\w*\b", 3),
        (r"\bclassif\w*\b|\bclasific\w*\b|\bcategor\w*\b|\bbelongs? to\b|\bpertenece\w* a\b", 2),
        (r"\bmeets the definition\b|\bcumple la definicion\b|\bthe definition\b", 2),
        (r"\bla definicion\b", 2),
    ),
}

_COMPILED = {
    code: tuple((re.compile(pattern), weight) for pattern, weight in patterns)
    for code, patterns in _PATTERNS.items()
}

# Which scheme wins a tie: the more specific form first (a causal claim made by
# an expert is still an expert opinion; a consequence is also an effect).
ORDER = (
    "expert_opinion",
    "verbal_classification",
    "popular_opinion",
    "sign",
    "analogy",
    "example",
    "practical_reasoning",
    "cause_to_effect",
    "consequences",
)

_SPACES = re.compile(r"\s+")


def fold(text: str) -> str:
    """Lowercase, accents removed ("investigación" -> "investigacion"), spaces squeezed."""
    decomposed = unicodedata.normalize("NFKD", text.lower())
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return _SPACES.sub(" ", plain).strip()


def scheme_scores(text: str) -> dict[str, int]:
    """Each scheme's weighted count of pattern matches in ``text`` (both languages)."""
    folded = fold(text)
    return {
        code: sum(weight * len(pattern.findall(folded)) for pattern, weight in patterns)
        for code, patterns in _COMPILED.items()
    }


def _best(text: str) -> str | None:
    scores = scheme_scores(text)
    top = max(scores.values(), default=0)
    if top <= 0:
        return None
    return next(code for code in ORDER if scores[code] == top)


def detect_scheme(elements: Mapping[str, str]) -> str:
    """The scheme code the warrant reads as: the warrant decides; a warrant with no
    telltale at all is read from its backing, then from the grounds; else the fallback."""
    for name in ("warrant", "warrantBacking", "grounds", "groundsBacking"):
        found = _best(elements.get(name) or "")
        if found is not None:
            return found
    return FALLBACK
