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
"""

from __future__ import annotations

import re

from coach.text import fold

__all__ = ["is_confirmation", "is_rewrite_request"]

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

_PHRASES = sorted(_CONFIRM | _FILLER, key=lambda phrase: -len(phrase.split()))


def is_confirmation(message: str) -> bool:
    """Whether the whole message is agreement (plus filler), in English or Spanish."""
    remaining = fold(message).split()
    agreed = False
    while remaining:
        for phrase in _PHRASES:
            parts = phrase.split()
            if remaining[: len(parts)] == parts:
                agreed = agreed or phrase in _CONFIRM
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
