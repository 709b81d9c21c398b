"""Does a student's answer answer the critical question it was given? Rules, EN/ES.

A critical question (Walton, Reed & Macagno 2008, *Argumentation Schemes*,
ch. 1 and 9) shifts a burden: "is the source a real expert?" is met by
credentials, "do other experts agree?" by other sources, "could something
else have caused it?" by a comparison that rules the other cause out. An
answer that does not carry what its question asks for leaves the question
standing, however long it is. Without a model these rules cannot tell
whether an answer *convinces*; they refuse what is plainly not an answer:

- ``short``: fewer than ``MIN_WORDS`` words ("idk", "yes it is");
- ``non_answer``: an opinion with nothing in it ("I disagree, my argument is
  right"): fewer than two content words once function words and the words of
  agreeing, disagreeing and arguing are set aside;
- ``restatement``: a near copy (rapidfuzz) of the element it defends, of the
  warrant, of the question or the objection, or one that adds fewer than two
  content words of its own to them (lemmas by simplemma);
- ``concedes``: it grants the objection ("you're right", "tienes razón") with
  no "but" after;
- ``off_question``: none of the markers of what its question asks (the
  question's ``asks`` kind in `argumentation.schemes`); its sentence says what
  the question asks for;
- ``reused``: nearly the same words as an answer already accepted for another
  question: one answer cannot meet two different burdens.

Each refusal has a sentence a 15-year-old understands, in English and
Spanish (:data:`SENTENCES`); :func:`reword` gives a stored sentence in the
reader's language. Lenient by design where it cannot be sure: a question of
unknown kind is not checked for markers.

Pure: no Django, no network, no model.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import lru_cache

import simplemma
from rapidfuzz import fuzz

from argumentation.scheme_cues import fold

__all__ = [
    "ASKS",
    "MIN_WORDS",
    "REUSE_SIMILARITY",
    "SENTENCES",
    "COPY_SIMILARITY",
    "content_lemmas",
    "judge",
    "reword",
    "sentence",
]

MIN_WORDS = 5
COPY_SIMILARITY = 88  # token-set ratio to a text it must not copy
REUSE_SIMILARITY = 85  # plain ratio to an answer accepted for another question
MIN_NEW_LEMMAS = 2

_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*", re.UNICODE)

_STOP = frozenset(
    fold(w)
    for w in [
        "a",
        "an",
        "the",
        "this",
        "that",
        "these",
        "those",
        "it",
        "its",
        "it's",
        "i",
        "i'm",
        "me",
        "my",
        "we",
        "us",
        "our",
        "you",
        "your",
        "he",
        "him",
        "his",
        "she",
        "her",
        "they",
        "them",
        "their",
        "one",
        "some",
        "any",
        "no",
        "not",
        "nor",
        "all",
        "each",
        "every",
        "both",
        "and",
        "or",
        "but",
        "if",
        "then",
        "than",
        "so",
        "because",
        "as",
        "of",
        "to",
        "in",
        "on",
        "at",
        "by",
        "for",
        "with",
        "without",
        "from",
        "into",
        "about",
        "over",
        "under",
        "after",
        "before",
        "here",
        "there",
        "when",
        "where",
        "why",
        "how",
        "what",
        "which",
        "who",
        "whom",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "am",
        "do",
        "does",
        "did",
        "have",
        "has",
        "had",
        "will",
        "would",
        "shall",
        "should",
        "can",
        "could",
        "may",
        "might",
        "must",
        "very",
        "too",
        "also",
        "just",
        "only",
        "even",
        "more",
        "most",
        "less",
        "much",
        "many",
        "such",
        "own",
        "same",
        "other",
        "another",
        "really",
        "el",
        "la",
        "los",
        "las",
        "un",
        "una",
        "unos",
        "unas",
        "lo",
        "al",
        "del",
        "de",
        "a",
        "en",
        "por",
        "para",
        "con",
        "sin",
        "sobre",
        "entre",
        "hasta",
        "desde",
        "y",
        "e",
        "o",
        "u",
        "ni",
        "pero",
        "sino",
        "que",
        "si",
        "no",
        "ya",
        "este",
        "esta",
        "esto",
        "estos",
        "estas",
        "ese",
        "esa",
        "eso",
        "esos",
        "esas",
        "mi",
        "mis",
        "tu",
        "tus",
        "su",
        "sus",
        "nuestro",
        "nuestra",
        "yo",
        "me",
        "te",
        "se",
        "nos",
        "le",
        "les",
        "ellos",
        "ellas",
        "es",
        "son",
        "era",
        "fue",
        "ser",
        "esta",
        "estan",
        "estar",
        "hay",
        "ha",
        "han",
        "he",
        "haber",
        "muy",
        "mas",
        "menos",
        "mucho",
        "muchos",
        "poco",
        "todo",
        "todos",
        "otro",
        "otra",
        "otros",
        "otras",
        "mismo",
        "como",
        "cuando",
        "donde",
        "porque",
        "tambien",
        "solo",
        "tan",
        "cada",
    ]
)

# Words of agreeing, disagreeing, arguing and hedging: they carry no reason.
_FILLER = frozenset(
    fold(w)
    for w in [
        "yes",
        "yeah",
        "yep",
        "no",
        "nope",
        "ok",
        "okay",
        "idk",
        "dunno",
        "maybe",
        "sure",
        "obviously",
        "clearly",
        "totally",
        "agree",
        "disagree",
        "think",
        "believe",
        "know",
        "guess",
        "feel",
        "right",
        "wrong",
        "true",
        "false",
        "correct",
        "incorrect",
        "objection",
        "question",
        "answer",
        "argument",
        "point",
        "claim",
        "warrant",
        "ground",
        "grounds",
        "reason",
        "good",
        "bad",
        "say",
        "said",
        "already",
        "explain",
        "explained",
        "mean",
        "just",
        "thing",
        "stuff",
        "lol",
        "fine",
        "whatever",
        "matter",
        "si",
        "claro",
        "vale",
        "bueno",
        "acuerdo",
        "desacuerdo",
        "creo",
        "creer",
        "pienso",
        "pensar",
        "se",
        "saber",
        "siento",
        "razon",
        "cierto",
        "falso",
        "verdad",
        "correcto",
        "incorrecto",
        "objecion",
        "pregunta",
        "respuesta",
        "argumento",
        "punto",
        "afirmacion",
        "garantia",
        "dato",
        "datos",
        "bien",
        "mal",
        "decir",
        "dicho",
        "explicar",
        "explicado",
        "cosa",
        "nada",
        "tal",
        "vez",
        "quizas",
        "obvio",
        "igual",
        "importa",
    ]
)

# What an answer to each kind of question speaks of (folded text, both languages).
_ASK_PATTERNS: Mapping[str, str] = {
    "credentials": (
        r"\bprofessors?\b|\bphd\b|\bdoctorate\b|\bdr\b|\bdoctors?\b|\buniversit|\binstitut"
        r"|\bjournal\b|\bpeer[- ]?review|\bdegree\b|\bspecialis|\bqualified\b|\btrained\b"
        r"|\bworks? (?:at|for|in)\b|\byears? of\b|\bpublished\b|\bdepartment\b|\bhospital\b"
        r"|\bacadem|\bassociation\b|\bfoundation\b|\bcredential|\bcertified\b|\blicen[cs]ed\b"
        r"|\bresearchers?\b|\bscientists?\b|\bnamed?\b|\bexpert in\b|\bfield\b|\bspent\b"
        r"|\bprofesor|\bcatedratic|\bdoctor|\buniversidad|\binstituto|\brevista\b|\brevisad"
        r"|\btitulo\b|\bespecialista|\bformad[oa]|\btrabaja\w* (?:en|para)\b|\banos de\b"
        r"|\bpublicad|\bdepartamento|\bhospital\b|\bacademia|\basociacion|\bfundacion"
        r"|\binvestigador|\bcientific[oa]s?\b|\bse llama\b|\bexpert[oa]s? en\b|\bcampo\b"
        r"|\b[A-Z]{2,}\b"
    ),
    "consensus": (
        r"\bother\b|\bothers\b|\banother\b|\balso\b|\btoo\b|\bas well\b|\bseveral\b|\bmany\b"
        r"|\bmost\b|\bmultiple\b|\bnumerous\b|\bconsensus\b|\bagree[sd]?\b|\bindependent"
        r"|\breplicat|\bconfirm|\bsame (?:result|finding|conclusion)|\bmeta-?analys"
        r"|\breviews? of\b|\bsystematic\b|\bstudies\b|\borgani[sz]ations\b|\bsocieties\b"
        r"|\bcountries\b|\b\d+ (?:other )?(?:studies|experts|papers|reports|teams)\b"
        r"|\botr[oa]s?\b|\btambien\b|\bademas\b|\bvari[oa]s\b|\bmuch[oa]s\b|\bla mayoria\b"
        r"|\bmultiples\b|\bnumeros[oa]s\b|\bconsenso\b|\bcoincid|\bde acuerdo\b"
        r"|\bindependient|\breplic|\bconfirm|\bmismo resultado|\bmetaanalisis|\brevision"
        r"|\bestudios\b|\borganizaciones\b|\bsociedades\b|\bpaises\b"
    ),
    "applies_here": (
        r"\bsame\b|\bsimilar|\blike ours\b|\bour\b|\bhere\b|\bthis (?:case|school|city|town)"
        r"|\bappl(?:y|ies)\b|\bages?\b|\bteenagers?\b|\bpopulation\b|\bgroup\b|\bsample\b"
        r"|\bconditions?\b|\bcontext\b|\binclud|\bdiffer|\bexcept|\bunless\b|\bonly\b"
        r"|\bmism[oa]s?\b|\bsimilar|\bnuestr|\baqui\b|\beste caso\b|\bse aplica|\baplica"
        r"|\bedad|\badolescente|\bpoblacion\b|\bgrupo\b|\bmuestra\b|\bcondicion|\bcontexto"
        r"|\bincluy|\bdifer|\bexcepto\b|\bsalvo\b|\bsolo\b|\bsi no\b|\ba menos que\b"
    ),
    "measurement": (
        r"\d|\bmeasur|\bcount|\brecord|\bofficial\b|\bsurvey|\bsample\b|\bdata\b|\bsource"
        r"|\bstud(?:y|ies)\b|\bfigures?\b|\bpercent\b|\breport|\bstatistic|\bcensus\b"
        r"|\bchecked\b|\bverified\b|\bdocumented\b|\btracked\b|\bpolice\b|\bhospitals?\b"
        r"|\bmedid|\bmidi|\bcontad|\bcontaron\b|\bregistr|\boficial|\bencuesta|\bmuestra\b"
        r"|\bdatos\b|\bfuente|\bestudio|\bcifras?\b|\bpor ciento\b|\binforme|\bestadistic"
        r"|\bcenso\b|\bcomprobad|\bverificad|\bdocumentad|\bpolicia\b|\bhospital"
    ),
    "alternative_causes": (
        r"\bcontrol|\bcompar|\bbefore and after\b|\bsame (?:school|students|streets|city|"
        r"group|people|class|town)|\bonly (?:change|difference|thing)\b|\bnothing else\b"
        r"|\bruled? out\b|\bother (?:factors?|causes?|reasons?|things?)\b|\brandom"
        r"|\beven (?:when|after|in|though)\b|\bregardless\b|\bheld constant\b|\bunchanged\b"
        r"|\bstayed the same\b|\bwhile\b|\bexplain|\bmechanism\b|\bdirectly\b|\bbiolog"
        r"|\bantes y despues\b|\bmism[oa]s (?:alumnos|calles|colegios|escuelas|grupo|gente)"
        r"|\bunico cambio\b|\bnada mas\b|\bdescart|\botros factores\b|\botras causas\b"
        r"|\baleatori|\bincluso (?:cuando|despues|en)\b|\baunque\b|\bsin cambiar\b|\bigual"
        r"|\bmientras\b|\bexplic|\bmecanismo|\bdirectamente\b|\bbiolog"
    ),
    "likelihood": (
        r"\d|\balready\b|\bshown\b|\bhappened\b|\bdata\b|\bevidence\b|\btrial|\bpilot"
        r"|\blikely\b|\bprobab|\bevery time\b|\bresults?\b|\bworked\b|\bwhere\b|\bwhen\b"
        r"|\bstud(?:y|ies)\b|\bplan\b|\bsteps?\b|\bbudget\b|\bwill\b|\bschools?\b|\bcities\b"
        r"|\bya\b|\bdemostr|\bocurri|\bdatos\b|\bprueba|\bpiloto\b|\bprobab|\bcada vez\b"
        r"|\bresultado|\bfuncion|\bdonde\b|\bcuando\b|\bestudio|\bplan\b|\bpasos?\b"
        r"|\bpresupuesto\b|\bcolegios?\b|\binstitutos?\b|\bciudades\b"
    ),
    "worth": (
        r"\d|\bcosts?\b|\bcheap|\bprice|\bbudget|\bafford|\bpay|\bworth\b|\boutweigh"
        r"|\bmoney\b|\bfree\b|\b(?:euros?|dollars?|pounds?)\b|[$€£]|\bsmall\b|\bsaves?\b"
        r"|\bbenefit|\bwho (?:pays|gains|loses)\b|\beveryone\b|\bfamilies\b|\btaxes\b"
        r"|\bcuesta|\bcoste|\bcosto|\bbarat|\bprecio|\bpresupuesto|\bpagar|\bpaga\b|\bvale\b"
        r"|\bcompens|\bsupera|\bdinero\b|\bgratis\b|\bpoco\b|\bpeque|\bahorra|\bbenefici"
        r"|\bquien (?:paga|gana|pierde)\b|\btodos\b|\bfamilias\b|\bimpuestos\b"
    ),
    "side_effects": (
        r"\brisks?\b|\bharm|\bside[- ]effects?\b|\bdownside|\bproblems?\b|\bdrawback"
        r"|\bmitigat|\bavoid|\bprevent|\bsmall\b|\bminor\b|\boutweigh|\bfew\b|\bnone\b"
        r"|\bno (?:evidence|sign|one|bad)\b|\bworse\b|\bsolv|\bfix|\bhandled?\b|\bcost|\bonly\b"
        r"|\briesgos?\b|\bdano|\befectos? secundarios?\b|\binconvenient|\bproblemas?\b"
        r"|\bevitar|\bevita|\bprevenir|\bpeque|\bmenor\b|\bcompens|\bsuperan?\b|\bpocos?\b"
        r"|\bningun|\bpeor\b|\bresolv|\bsoluc|\barregl|\bcoste|\bsolo\b"
    ),
    "enough_cases": (
        r"\d|\bdozens\b|\bhundreds\b|\bmany\b|\bseveral\b|\bdifferent\b|\bvarious\b"
        r"|\bcountries\b|\bcities\b|\bschools\b|\bacross\b|\bsample\b|\bcases\b|\bexamples\b"
        r"|\bstudies\b|\ball over\b|\bdecenas\b|\bcientos\b|\bmuch[oa]s\b|\bvari[oa]s\b"
        r"|\bdistint[oa]s\b|\bdiferentes\b|\bpaises\b|\bciudades\b|\bcolegios\b|\bescuelas\b"
        r"|\bmuestra\b|\bcasos\b|\bejemplos\b|\bestudios\b|\ben todo\b"
    ),
    "typical": (
        r"\bsimilar|\btypical|\blike ours\b|\bsame\b|\bsize\b|\brepresentative|\baverage\b"
        r"|\bordinary\b|\bnormal\b|\bour\b|\bpopulation\b|\bclimate\b|\bincome\b|\bage\b"
        r"|\bparecid|\btipic|\bcomo (?:el|la|los|las) nuestr|\bmism[oa]s?\b|\btamano\b"
        r"|\brepresentativ|\bmedi[oa]s?\b|\bnormales?\b|\bnuestr|\bpoblacion\b|\bclima\b"
        r"|\bingresos\b|\bedad\b"
    ),
    "counterexamples": (
        r"\bno (?:case|example|city|school|country)\b|\bnone\b|\bnever\b|\bfailed\b"
        r"|\bexception|\bcounter-?example|\bonly\b|\bdid not work\b|\bdidn'?t work\b"
        r"|\beven\b|\bevery\b|\ball\b|\bexplained by\b|\bbecause\b|\bwhere it\b|\bfound\b"
        r"|\bningun|\bnunca\b|\bfracas|\bexcepci|\bcontraejemplo|\bsolo\b|\bno funciono\b"
        r"|\bincluso\b|\btod[oa]s\b|\bse explica|\bporque\b|\bdonde\b|\bencontr"
    ),
    "similarity": (
        r"\bboth\b|\bsame\b|\balike\b|\bsimilar|\bshare|\balso\b|\blike\b|\bin common\b"
        r"|\bjust as\b|\beach\b|\bambos\b|\bambas\b|\bmism[oa]s?\b|\bparecid|\bsimilar"
        r"|\bcomparten?\b|\btambien\b|\bcomo\b|\ben comun\b|\bigual que\b|\bcada\b"
    ),
    "difference": (
        r"\bdifferen|\bdiffer\b|\bdoes(?:n't| not) matter\b|\birrelevant\b|\bonly\b"
        r"|\bexcept\b|\balthough\b|\beven though\b|\bunlike\b|\bboth\b|\bsame\b|\bmatter"
        r"|\bdiferenci|\bdifier|\bno importa\b|\birrelevante\b|\bsolo\b|\bexcepto\b"
        r"|\baunque\b|\ba diferencia\b|\bambos\b|\bmism[oa]s?\b|\bimporta"
    ),
    "observed": (
        r"\d|\bobserv|\bseen\b|\bsaw\b|\bmeasur|\brecord|\bcheck|\bnotic|\breport|\bcount"
        r"|\bevery (?:day|morning|week)\b|\bphotos?\b|\bteachers?\b|\bsurvey|\blogs?\b"
        r"|\bfeatures?\b|\bhas\b|\bhave\b|\bcontains?\b"
        r"|\bobserv|\bvist[oa]s?\b|\bvimos\b|\bvi\b|\bmedid|\bmidi|\bregistr|\bcomprob"
        r"|\bnotad|\binform|\bcontad|\bcada (?:dia|manana|semana)\b|\bfotos?\b"
        r"|\bprofesor|\bencuesta|\brasgos?\b|\btiene\b|\btienen\b|\bcontiene"
    ),
    "reliability": (
        r"\d|\balways\b|\balmost\b|\busually\b|\bmost\b|\breliabl|\bconsistent|\bwhenever\b"
        r"|\bevery\b|\brarely\b|\bstrong|\bcorrelat|\bin (?:nearly )?all\b|\boften\b"
        r"|\bsiempre\b|\bcasi\b|\bnormalmente\b|\bla mayoria\b|\bfiab|\bconstante"
        r"|\bcada vez\b|\brara vez\b|\bfuerte|\bcorrelac|\bcasi todos\b|\ba menudo\b"
    ),
    "rule_support": (
        r"\d|\bresearch|\bstud(?:y|ies)\b|\blaw\b|\brules?\b|\bknown\b|\bshown\b|\bevidence"
        r"|\bexperts?\b|\bbecause\b|\bsince\b|\breasons?\b|\bexperience\b|\balways\b"
        r"|\bscience\b|\bhistory\b|\bproven\b|\bdata\b|\bfacts?\b|\bwhy\b"
        r"|\binvestigac|\bestudio|\bley\b|\bnormas?\b|\breglas?\b|\bsabido\b|\bdemostr"
        r"|\bprueba|\bexpert|\bporque\b|\bya que\b|\brazon(?:es)?\b|\bexperiencia\b"
        r"|\bsiempre\b|\bciencia\b|\bhistoria\b|\bhechos?\b|\bpor que\b"
    ),
    "alternatives": (
        r"\balternativ|\binstead\b|\bother (?:option|way|choice|solution)s?\b|\bbetter than\b"
        r"|\bcheaper than\b|\bcompar|\btried\b|\bonly way\b|\bno other\b|\bwhereas\b"
        r"|\bwould (?:not|n't)\b|\bdoes(?:n't| not) work\b|\bfailed\b|\bunlike\b|\brather\b"
        r"|\ben (?:lugar|vez) de\b|\botr[oa]s? (?:opcion|manera|forma|solucion)|\bmejor que\b"
        r"|\bmas barat[oa] que\b|\bcompar|\bprobad|\bunica manera\b|\bno hay otra\b"
        r"|\bmientras que\b|\bno funciona\b|\bfracas|\ba diferencia\b"
    ),
    "definition": (
        r"\bdefin|\bmeans?\b|\bmeets?\b|\bcriteri|\bfeatures?\b|\bdictionary\b|\blaw\b"
        r"|\bofficial|\bcounts?\b|\bexactly\b|\bfits?\b|\bcovers?\b|\bincludes?\b|\bkind\b"
        r"|\bsignific|\bcumple|\bcriteri|\brasgos?\b|\bdiccionario\b|\bley\b|\boficial"
        r"|\bcuenta\b|\bexactamente\b|\bencaja|\bincluy|\btipo\b|\bsegun\b"
    ),
}
_ASKS = {kind: re.compile(pattern) for kind, pattern in _ASK_PATTERNS.items()}
ASKS = tuple(sorted(_ASKS))

_CONCESSION = re.compile(
    r"^\W*(?:yes\W+|yeah\W+|si\W+|ok\W+|vale\W+)?(?:you(?:'re| are) right|that(?:'s| is) "
    r"(?:true|right|correct|fair)|good point|i agree|true|fair enough|tienes razon|"
    r"es (?:verdad|cierto)|buen punto|estoy de acuerdo|de acuerdo|cierto)\b"
)
_CONTRAST = re.compile(
    r"\bbut\b|\bhowever\b|\byet\b|\bstill\b|\balthough\b|\bthough\b|\bpero\b|\bsin embargo\b"
    r"|\baun asi\b|\baunque\b|\bno obstante\b"
)

# The refusals' sentences (and the acceptance), as the student reads them.
SENTENCES: Mapping[str, Mapping[str, str]] = {
    "short": {
        "en": "Too short to answer the question: say in a sentence or two why it does not "
        "defeat your argument.",
        "es": "Demasiado breve para responder a la pregunta: explica en una o dos frases por "
        "qué no derriba tu argumento.",
    },
    "non_answer": {
        "en": "That says what you think, not why: give a fact or a reason that answers the "
        "question.",
        "es": "Eso dice lo que piensas, no por qué: da un dato o una razón que responda a la "
        "pregunta.",
    },
    "restatement": {
        "en": "Your answer repeats your argument or the question instead of answering it.",
        "es": "Tu respuesta repite tu argumento o la pregunta en lugar de responderla.",
    },
    "concedes": {
        "en": "Your answer agrees with the objection: say why it does not defeat your argument.",
        "es": "Tu respuesta le da la razón a la objeción: explica por qué no derriba tu argumento.",
    },
    "reused": {
        "en": "You already used this answer for another question. Each question asks "
        "something different: answer this one on its own.",
        "es": "Ya usaste esta respuesta para otra pregunta. Cada pregunta pide algo "
        "distinto: responde a esta por separado.",
    },
    "off_question": {
        "en": "Your answer does not speak to what this question asks.",
        "es": "Tu respuesta no habla de lo que pregunta esta pregunta.",
    },
    "accepted": {
        "en": "Accepted by the offline check: it is your own answer, not a repetition. Whether "
        "it convinces is for you and your instructor to weigh.",
        "es": "Aceptada por la comprobación sin IA: es tu propia respuesta, no una repetición. "
        "Si convence o no, lo valoráis tú y tu docente.",
    },
}

# What each kind of question asks for, added to ``off_question``'s sentence.
HINTS: Mapping[str, Mapping[str, str]] = {
    "credentials": {
        "en": "Say who the source is and why they know this field (their job, training or "
        "where they published).",
        "es": "Di quién es la fuente y por qué sabe de este campo (su trabajo, su formación o "
        "dónde publicó).",
    },
    "consensus": {
        "en": "Name other experts or sources that say the same, or a consensus.",
        "es": "Nombra otros expertos o fuentes que digan lo mismo, o un consenso.",
    },
    "applies_here": {
        "en": "Say why your case is like the one the rule or the finding is about.",
        "es": "Explica por qué tu caso se parece a aquel del que habla la regla o el hallazgo.",
    },
    "measurement": {
        "en": "Say where your figures come from and how they were measured or counted.",
        "es": "Di de dónde salen tus cifras y cómo se midieron o contaron.",
    },
    "alternative_causes": {
        "en": "Say what rules out another cause: a comparison, a control group, or what "
        "stayed the same.",
        "es": "Di qué descarta otra causa: una comparación, un grupo de control o lo que no "
        "cambió.",
    },
    "likelihood": {
        "en": "Give a reason or a case showing that the good result will really happen.",
        "es": "Da una razón o un caso que muestre que el buen resultado ocurrirá de verdad.",
    },
    "worth": {
        "en": "Compare what it costs with what it brings, and say who pays.",
        "es": "Compara lo que cuesta con lo que aporta, y di quién lo paga.",
    },
    "side_effects": {
        "en": "Name the possible bad effects and say why they are small or can be avoided.",
        "es": "Nombra los posibles efectos malos y explica por qué son pequeños o evitables.",
    },
    "enough_cases": {
        "en": "Say how many examples there are and how different they are.",
        "es": "Di cuántos ejemplos hay y cuán distintos son.",
    },
    "typical": {
        "en": "Say in what ways the examples are like your case.",
        "es": "Di en qué se parecen los ejemplos a tu caso.",
    },
    "counterexamples": {
        "en": "Say whether cases where it did not work exist, and why they do not count here.",
        "es": "Di si hay casos en que no funcionó, y por qué no cuentan aquí.",
    },
    "similarity": {
        "en": "Name the ways in which the two cases are alike.",
        "es": "Nombra en qué se parecen los dos casos.",
    },
    "difference": {
        "en": "Name the difference between the cases and say why it does not change the "
        "conclusion.",
        "es": "Nombra la diferencia entre los casos y explica por qué no cambia la conclusión.",
    },
    "observed": {
        "en": "Say how you know it is really there: who saw, measured or recorded it.",
        "es": "Di cómo sabes que de verdad está ahí: quién lo vio, lo midió o lo registró.",
    },
    "reliability": {
        "en": "Say how often the sign goes with what you conclude.",
        "es": "Di con qué frecuencia la señal va unida a lo que concluyes.",
    },
    "rule_support": {
        "en": "Say what backs the rule: a reason, a study, a law or experience.",
        "es": "Di qué respalda la regla: una razón, un estudio, una ley o la experiencia.",
    },
    "alternatives": {
        "en": "Name another way to reach the goal and say why yours is better.",
        "es": "Nombra otra manera de lograr el objetivo y explica por qué la tuya es mejor.",
    },
    "definition": {
        "en": "Say what the definition is and how your case meets it.",
        "es": "Di cuál es la definición y cómo la cumple tu caso.",
    },
}


def _lang(language: str) -> str:
    return language if language in ("en", "es") else "en"


def sentence(code: str, language: str, *, asks: str = "") -> str:
    """The sentence for a verdict ``code`` in ``language``; an ``off_question``
    refusal says what the question asks for."""
    language = _lang(language)
    text = SENTENCES[code][language]
    if code == "off_question" and asks in HINTS:
        text = f"{text} {HINTS[asks][language]}"
    return text


def _all_sentences() -> dict[str, tuple[str, str]]:
    found = {}
    for code in SENTENCES:
        kinds = HINTS if code == "off_question" else {"": None}
        for asks in (*kinds, ""):
            for language in ("en", "es"):
                found[sentence(code, language, asks=asks)] = (code, asks)
    return found


_KNOWN = _all_sentences()


def reword(text: str, language: str) -> str | None:
    """A sentence of this module (stored in either language) in ``language``; None
    for any other text."""
    found = _KNOWN.get(text.strip())
    if found is None:
        return None
    code, asks = found
    return sentence(code, language, asks=asks)


@lru_cache(maxsize=8192)
def _lemma(word: str, language: str) -> str:
    other = "es" if language == "en" else "en"
    return fold(simplemma.lemmatize(word, lang=(language, other), low_memory=True))


def _words(text: str) -> list[str]:
    return _WORD.findall(text)


def content_lemmas(text: str, language: str = "en") -> set[str]:
    """The lemmas of ``text``'s content words and its figures: function words and
    the words of agreeing and arguing left out, accents folded."""
    language = _lang(language)
    found = set()
    for word in _words(text):
        folded = fold(word)
        if folded[:1].isdigit():
            found.add(folded)  # a figure is a fact of its own ("3 euros")
            continue
        if folded in _STOP or folded in _FILLER or len(folded) < 2:
            continue
        lemma = _lemma(word.lower(), language)
        if lemma not in _STOP and lemma not in _FILLER:
            found.add(lemma)
    return found


def _near_copy(answer: str, text: str) -> bool:
    """Nearly the same words as ``text``, in any order: an answer that quotes the
    question and then goes on is not a copy (its own words are judged next)."""
    if not text.strip():
        return False
    answer, text = fold(answer), fold(text)
    longer = len(_words(answer)) > 1.3 * len(_words(text)) + 2
    return not longer and fuzz.token_set_ratio(answer, text) >= COPY_SIMILARITY


def judge(
    answer: str,
    *,
    asks: str = "",
    element_text: str = "",
    question_texts: Iterable[str] = (),
    argument_texts: Iterable[str] = (),
    accepted_elsewhere: Iterable[str] = (),
    language: str = "en",
) -> str | None:
    """None when ``answer`` answers its question, else the refusal's code.

    ``asks`` is the question's kind; ``element_text`` the element it defends;
    ``question_texts`` the question and the objection; ``argument_texts`` the
    student's other elements (the warrant, the claim), none of which an answer may
    merely repeat; ``accepted_elsewhere`` the answers already accepted for the
    stress test's other questions.
    """
    language = _lang(language)
    questions = [t for t in question_texts if t]
    own = [t for t in (element_text, *argument_texts) if t]
    if len(_words(answer)) < MIN_WORDS:
        return "short"
    if any(_near_copy(answer, text) for text in (*own, *questions)):
        return "restatement"
    lemmas = content_lemmas(answer, language)
    if len(lemmas) < MIN_NEW_LEMMAS:
        return "non_answer"
    seen = set().union(*(content_lemmas(t, language) for t in (*own, *questions)))
    if len(lemmas - seen) < MIN_NEW_LEMMAS:
        return "restatement"
    folded = fold(answer)
    if _CONCESSION.search(folded) and not _CONTRAST.search(folded):
        return "concedes"
    pattern = _ASKS.get(asks)
    if pattern is not None and not (pattern.search(folded) or pattern.search(answer)):
        return "off_question"
    if any(fuzz.ratio(folded, fold(other)) >= REUSE_SIMILARITY for other in accepted_elsewhere):
        return "reused"
    return None
