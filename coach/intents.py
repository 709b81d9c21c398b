"""What the student's message asks for: a confirmation, a rewrite, or neither.

Both decide whether the coach may propose text (see the guards), so they are
detected on the server, never left to the model. Matching is case-, accent-
and punctuation-insensitive ("SÍ!!", "si", "Sí, me sirve." are the same).

- A *confirmation* is a message made only of agreement phrases and filler
  ("yes", "ok, that works, thanks!", "sí, me sirve", "definitivamente está
  bien"). Anything else in it ("ok but shorter", "no", "not really") makes it
  not a confirmation: content or doubt deserves a reply, not a rubber stamp.
- A *rewrite request* asks the coach to write the text: a rewrite verb that
  opens a clause, possibly after a polite lead-in ("please fix it", "can you
  help me word this?", "¿puedes mejorarlo?", "arregla la afirmación"). A verb
  inside a sentence ("bike lanes improve safety") is the student's content,
  not a request, so it does not count. "rewrite", "rephrase", "reword",
  "reescribe" and "reformula" count anywhere: nobody argues with them.
- A *write request* asks the coach to write the element from nothing ("Can
  you write the claim for me?", "write it for me", "¿Me puedes escribir la
  tesis?", "hazlo por mí"): "write" needs a request around it (a lead-in
  such as "can you" / "me puedes", or "for me" / "por mí"), since "Writing
  by hand helps memory" is content.
- A *question about the step or the task* asks what an element is, how it
  differs from another, or what to do ("What does grounds backing mean? I
  don't get the difference from grounds.", "¿Qué es la garantía?"). It is
  answered, never graded as an attempt. `question_topic` says which element
  it is about: the first one it names ("grounds backing" before "grounds"),
  else the current step. On the claim step a question that names no element,
  asks nothing about the task and has two content words or more ("Should
  cities ban cars downtown?", "why does school start so early") is a claim
  written as a question: an attempt, not this ("what is this?" is one).

`classify` puts these in one order of precedence for both coaches: an empty
message opens the step, then confirmation, write request, rewrite request,
question, and anything else is an attempt.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from coach.text import fold
from coach.wording import STOPWORDS

__all__ = [
    "Intent",
    "classify",
    "is_confirmation",
    "is_rewrite_request",
    "is_write_request",
    "question_topic",
]

# Folded phrases. Longest first when matching, so "that works" beats "that".
_CONFIRM = {
    # English
    "yes", "yeah", "yea", "yep", "yup", "sure", "ok", "okay", "okey", "k", "alright",
    "all right", "fine", "good", "great", "perfect", "excellent", "cool", "nice",
    "agreed", "i agree", "agree", "correct", "right", "exactly", "absolutely",
    "definitely", "of course", "that works", "this works", "it works", "works for me",
    "that works for me", "that s good", "thats good", "that is good", "sounds good",
    "sounds great", "sounds right", "looks good", "looks great", "looks right",
    "go ahead", "go for it", "do it", "use that", "use it", "use this",
    "let s use it", "lets use it", "let s use that", "lets use that", "i like it",
    "love it", "accept", "i accept", "accepted", "keep it", "save it", "that s it",
    "thats it", "that s right", "thats right", "that is right", "that s fine",
    "thats fine", "that is fine", "deal", "done", "yes please",
    # Spanish
    "si", "sip", "claro", "claro que si", "vale", "dale", "listo", "perfecto",
    "perfecta", "genial", "bien", "muy bien", "esta bien", "eso esta bien",
    "esta perfecto", "de acuerdo", "estoy de acuerdo", "me sirve", "eso me sirve",
    "me gusta", "me encanta", "me parece bien", "me parece perfecto", "correcto",
    "exacto", "exactamente", "adelante", "usalo", "usala", "usa eso", "usa esto",
    "usemos eso", "guardalo", "acepto", "aceptado", "asi esta bien", "eso es",
    "por supuesto", "sin duda", "funciona", "eso funciona", "bueno", "okis",
}  # fmt: skip

# Words that may surround an agreement without changing it.
_FILLER = {
    "please", "thanks", "thank you", "thx", "so", "then", "and", "oh", "ah", "well",
    "really", "totally", "very", "super", "that", "it", "this", "for now",
    "i think", "i guess", "now", "yes yes", "much", "a lot", "lol", "haha",
    "por favor", "gracias", "muchas gracias", "pues", "entonces", "y", "totalmente",
    "absolutamente", "definitivamente", "muy", "creo que", "creo", "ya", "eso",
    "asi", "ahora", "jaja", "mucho",
}  # fmt: skip

# (words, is agreement), longest first; split once here, not per word of every message.
_PHRASES = tuple(
    (phrase.split(), phrase in _CONFIRM)
    for phrase in sorted(_CONFIRM | _FILLER, key=lambda phrase: -len(phrase.split()))
)


def is_confirmation(message: str) -> bool:
    """Whether the whole message is agreement (plus filler), in English or Spanish."""
    remaining = fold(message).split()
    agreed = False
    while remaining:
        for parts, agreement in _PHRASES:
            if remaining[: len(parts)] == parts:
                agreed = agreed or agreement
                remaining = remaining[len(parts) :]
                break
        else:
            return False
    return agreed


_LEAD_IN = (
    r"please|pls|plz|can you|could you|would you|will you|can u|could u|"
    r"i want you to|i need you to|i d like you to|id like you to|i would like you to|"
    r"try to|just|now|ok|okay|yes|so|then|and|"
    r"por favor|puedes|podrias|podes|me puedes|me podrias|quiero que|necesito que|"
    r"ahora|vale|y|entonces|lo|la|me lo|me la|it|this"
)
_VERB = (
    r"rewrit\w*|re write\w*|improve\w*|rephras\w*|reword\w*|fix\w*|polish\w*|"
    r"refine\w*|edit\w*|tighten\w*|sharpen\w*|clean (?:it |this )?up|tidy (?:it |this )?up|"
    r"make (?:it|this) (?:better|stronger|clearer|sound better)|"
    r"help me (?:word|phrase|write|say|express|formulate)\w*|"
    r"reescrib\w*|mejor(?:a|ar|alo|ala|arlo|arla|es|e|emos)|arregl\w*|reformul\w*|"
    r"redact\w*|corrig\w*|correg\w*|pul(?:e|elo|ela|ir|irlo|irla)|"
    r"hazlo mejor|escribelo mejor|dilo mejor|"
    r"(?:me )?ayuda(?:me|s)? a (?:redactar|escribir|expresar|formular|decir|mejorar)\w*"
)
_CLAUSE_REQUEST = re.compile(rf"^(?:(?:{_LEAD_IN}) )*(?:{_VERB})(?: |$)")
_ANYWHERE = re.compile(r"(?<!\w)(?:rewrit\w*|rephras\w*|reword\w*|reescrib\w*|reformul\w*)")
_CLAUSE_BREAK = re.compile(r"[.!?¿¡;:,\n]+")


def is_rewrite_request(message: str) -> bool:
    """Whether the student asks the coach to (re)write or improve the text."""
    clauses = [fold(clause) for clause in _CLAUSE_BREAK.split(message)]
    if any(_ANYWHERE.search(clause) for clause in clauses):
        return True
    return any(_CLAUSE_REQUEST.match(clause) for clause in clauses if clause)


_WRITE = re.compile(
    r"(?:^| )(?:can|could|would|will) (?:you|u) (?:please |just |maybe )?"
    r"(?:write|draft|compose|formulate|come up with|do|make|give me|suggest)(?: |$)|"
    r"(?:^| )(?:write|draft|do|make) (?:it|this|that|one|the \w+(?: \w+)?|my \w+(?: \w+)?|"
    r"a \w+|an \w+) for me(?: |$)|"
    r"^(?:please )?(?:write|draft|compose) (?:the|my|a|an) |"
    r"(?:^| )(?:me )?(?:puedes|podrias|podes|puede|podria|quieres) (?:tu )?"
    r"(?:escribir|redactar|hacer|dar|proponer|inventar|formular|sugerir)\w*(?: |$)|"
    r"(?:^| )(?:escrib|redact|haz)\w* (?:\w+ ){0,3}por mi(?: |$)|"
    r"^(?:por favor )?(?:escribe|escribeme|escribemela|escribemelo|redacta|redactame)\w*(?: |$)"
)
# An example asked for is a question about the element, not a request to write the text.
_EXAMPLE = re.compile(r"(?:^| )(?:example|examples|ejemplo|ejemplos)(?: |$)")


def is_write_request(message: str) -> bool:
    """Whether the student asks the coach to write the element for them."""
    folded = fold(message)
    return bool(_WRITE.search(folded)) and not _EXAMPLE.search(folded)


# Folded names of the elements, longest first so "grounds backing" wins over "grounds".
_ELEMENT_NAMES: tuple[tuple[str, str], ...] = tuple(
    sorted(
        {
            "grounds backing": "groundsBacking", "backing for the grounds": "groundsBacking",
            "backing for your grounds": "groundsBacking", "backing of the grounds": "groundsBacking",
            "backing for my grounds": "groundsBacking", "data backing": "groundsBacking",
            "warrant backing": "warrantBacking", "backing for the warrant": "warrantBacking",
            "backing for your warrant": "warrantBacking", "backing of the warrant": "warrantBacking",
            "backing for my warrant": "warrantBacking",
            "claim": "claim", "claims": "claim", "thesis": "claim", "position": "claim",
            "grounds": "grounds", "evidence": "grounds", "data": "grounds",
            "warrant": "warrant", "warrants": "warrant",
            "qualifier": "qualifier", "qualifiers": "qualifier",
            "rebuttal": "rebuttal", "rebuttals": "rebuttal", "exception": "rebuttal",
            "exceptions": "rebuttal", "counterargument": "rebuttal",
            "respaldo de los datos": "groundsBacking", "respaldo de tus datos": "groundsBacking",
            "respaldo de mis datos": "groundsBacking",
            "respaldo de la garantia": "warrantBacking", "respaldo de tu garantia": "warrantBacking",
            "respaldo de mi garantia": "warrantBacking",
            "afirmacion": "claim", "tesis": "claim", "postura": "claim",
            "datos": "grounds", "evidencia": "grounds", "pruebas": "grounds",
            "garantia": "warrant", "calificador": "qualifier", "cualificador": "qualifier",
            "refutacion": "rebuttal", "excepcion": "rebuttal", "excepciones": "rebuttal",
            "contraargumento": "rebuttal",
        }.items(),
        key=lambda pair: -len(pair[0]),
    )
)  # fmt: skip
# "backing" alone: the backing of the step the student is on, else the grounds' one.
_BACKING = ("backing", "respaldo")

# A question without its "?": only openings that no statement starts with ("When cars are
# banned, ..." is a warrant; "Como muestra un estudio, ..." is grounds).
_QUESTION_START = re.compile(
    r"^(?:what is|what s|whats|what are|what does|what do|what should|how do|how does|"
    r"how can|how should|why do|why does|why is|can you|could you|would you|explain|tell me|"
    r"que es|que son|que significa|que quiere decir|cual es|cual seria|explica|explicame|"
    r"me explicas|dime)(?: |$)"
)
_CONFUSED = re.compile(
    r"(?:^| )(?:i don t get|i dont get|i do not get|i don t understand|i dont understand|"
    r"i do not understand|not sure what|no entiendo|no lo entiendo|no se que|no se como|"
    r"no me queda claro)(?: |$)"
)
# Words that make a question about the task rather than the student's content.
_ABOUT_THE_TASK = re.compile(
    r"(?:^| )(?:mean|means|meaning|difference|different|differ|differs|example|examples|"
    r"how do i|what should i|what do i|what do you want|this step|next step|step|"
    r"significa|significado|diferencia|diferente|diferencian|ejemplo|ejemplos|como hago|"
    r"que tengo que|que debo|que pongo|que escribo|este paso|paso|que quieres)(?: |$)"
)


def _bare_backing(found: list[tuple[int, str]], at: int, current_step: str) -> str:
    """Which backing "backing" alone means: the step's own, else that of the grounds or
    warrant named just before it ("a warrant and its backing"), else the grounds'."""
    if current_step in ("groundsBacking", "warrantBacking"):
        return current_step
    before = [step for position, step in sorted(found) if position < at]
    if before and before[-1] == "warrant":
        return "warrantBacking"
    return "groundsBacking"


def _named_elements(folded: str, current_step: str) -> list[str]:
    """The elements a folded message names, in the order it names them."""
    found: list[tuple[int, str]] = []
    taken: list[tuple[int, int]] = []
    padded = f" {folded} "
    for name, step in _ELEMENT_NAMES:
        for match in re.finditer(rf"(?<= ){re.escape(name)}(?= )", padded):
            span = (match.start(), match.end())
            if any(span[0] < end and start < span[1] for start, end in taken):
                continue
            taken.append(span)
            found.append((span[0], step))
    for name in _BACKING:
        for match in re.finditer(rf"(?<= ){name}(?= )", padded):
            if any(start <= match.start() < end for start, end in taken):
                continue
            found.append((match.start(), _bare_backing(found, match.start(), current_step)))
    ordered: list[str] = []
    for _, step in sorted(found):
        if step not in ordered:
            ordered.append(step)
    return ordered


def question_topic(message: str, current_step: str) -> list[str]:
    """The elements a question about the step or the task is about, first the one it asks
    about; [] when the message is not such a question (see the module docstring)."""
    stripped = message.strip()
    folded = fold(stripped)
    if not folded:
        return []
    asks = (
        "?" in stripped
        or stripped.startswith("¿")
        or bool(_QUESTION_START.match(folded))
        or bool(_CONFUSED.search(folded))
    )
    if not asks:
        return []
    named = _named_elements(folded, current_step)
    if named:
        return named
    about_the_task = bool(_ABOUT_THE_TASK.search(folded) or _CONFUSED.search(folded))
    if about_the_task or current_step != "claim":
        return [current_step]
    # On the claim step, a question about the topic ("should homework be banned?", "why does
    # school start so early") is a claim written as a question; "what is this?" is not.
    content = [word for word in folded.split() if word not in STOPWORDS and len(word) > 2]
    return [] if len(content) >= 2 else [current_step]


IntentKind = Literal["open", "confirm", "write", "rewrite", "question", "attempt"]


@dataclass(frozen=True, slots=True)
class Intent:
    """What a message asks for; `topics` are the elements a question is about."""

    kind: IntentKind
    topics: tuple[str, ...] = ()


@lru_cache(maxsize=2048)
def classify(message: str, current_step: str) -> Intent:
    """One intent per message, in the order of precedence the module docstring gives.

    Pure, so cached: a turn asks again about the step's earlier messages.
    """
    if not message.strip():
        return Intent("open")
    if is_confirmation(message):
        return Intent("confirm")
    if is_write_request(message):
        return Intent("write")
    if is_rewrite_request(message):
        return Intent("rewrite")
    topics = question_topic(message, current_step)
    if topics:
        return Intent("question", tuple(topics))
    return Intent("attempt")
