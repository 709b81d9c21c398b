"""What the server says to the student about an instructor's rules, in the argument's language.

Pure. Both coaches and the guards use these sentences, so the AI coach and
the offline coach say the same thing about the same rule:

- `GESTURES`: the names of the page's buttons the coach refers to. The page
  renders the same words through gettext ({% translate "Accept" %}); a test
  holds the two together, so the coach never says "confirm" beside a button
  that says "Accept", nor "Aceptar" beside one that says "Confirmar". A
  button is named in the page's language, whatever the argument's.
- `criteria_note` / `criteria_refusal`: what an instructor's required
  criteria ask of this step, when the coach held text back and when the
  server refused to move on.
- `hints_only_note`: said when the server removed a proposal because the
  assignment is hints only, and `hints_only_write`: the kind answer to "can
  you write it for me?" under that policy.
- `rejected_again`: said when the coach would have put up again the text the
  student just rejected.
"""

from __future__ import annotations

from collections.abc import Sequence

from coach.steps import phrases_for

__all__ = [
    "GESTURES",
    "criteria_note",
    "criteria_refusal",
    "gesture",
    "hints_only_note",
    "hints_only_write",
    "rejected_again",
]

# {the}: the step's definite noun phrase ("the claim", "la afirmación").
GESTURES: dict[str, dict[str, str]] = {
    "accept": {"en": "Accept", "es": "Aceptar"},
    "edit": {"en": "Edit", "es": "Editar"},
    "reject": {"en": "Reject", "es": "Rechazar"},
    "use_my_words": {"en": "Use my words for {the}", "es": "Usar mis palabras para {the}"},
}

_QUOTE = {"en": '"{}"', "es": "«{}»"}
_AND = {"en": " and ", "es": " y "}

_CRITERIA = {
    "en": "Your instructor requires this for {the}: {missing}.",
    "es": "Tu docente exige esto para {the}: {missing}.",
}
_HELD_BACK = {
    "en": "I cannot put that text in your draft yet.",
    "es": "Todavía no puedo poner ese texto en tu borrador.",
}
_REFUSED = {
    "en": "Not yet. {criteria} Add it to your text, then press {button} again.",
    "es": "Todavía no. {criteria} Añádelo a tu texto y vuelve a pulsar {button}.",
}
_HINTS_ONLY = {
    "en": "For this assignment I give hints only, so the words are yours to write. When they "
    "are ready, press {button}.",
    "es": "En esta tarea solo doy pistas, así que las palabras las escribes tú. Cuando estén "
    "listas, pulsa {button}.",
}
_HINTS_ONLY_WRITE = {
    "en": "For this assignment your instructor asked me to give hints rather than write your "
    "text: the words have to be yours, and I will help you find them.",
    "es": "En esta tarea tu docente me pidió que te dé pistas en lugar de escribir tu texto: "
    "las palabras tienen que ser tuyas, y te ayudo a encontrarlas.",
}
_REJECTED_AGAIN = {
    "en": "You turned that version down, so I will not put it up again. Tell me what to "
    "change, or write {your} your own way.",
    "es": "Descartaste esa versión, así que no volveré a proponerla. Dime qué cambiar, o "
    "escribe {your} a tu manera.",
}


def _lang(language: str) -> str:
    return language if language in ("en", "es") else "en"


def gesture(
    name: str, *, language: str, step: str = "claim", quoted: bool = False, page_language: str = ""
) -> str:
    """A button's label as the page shows it ("Accept", "Use my words for the claim").

    The page speaks the reader's language (``page_language``), the coach the
    argument's (``language``): an English argument read on a Spanish page has
    its coach say, in English, press «Aceptar», the button's own label. The
    quotation marks are the sentence's."""
    sentence = _lang(language)
    page = _lang(page_language or language)
    label = GESTURES[name][page].format(the=phrases_for(step, page).the)
    return _QUOTE[sentence].format(label) if quoted else label


def _missing(unmet: Sequence[str], language: str) -> str:
    # Labels are titles ("The grounds contain ..."): lower-cased to sit inside the sentence.
    parts = [label[:1].lower() + label[1:] for label in unmet]
    return _AND[language].join(parts)


def criteria_note(*, step: str, language: str, unmet: Sequence[str], held_back: bool) -> str:
    """What the instructor requires of the step and the text misses; `held_back`: the coach
    had text for the draft and the server kept it back."""
    language = _lang(language)
    note = _CRITERIA[language].format(
        the=phrases_for(step, language).the, missing=_missing(unmet, language)
    )
    return f"{_HELD_BACK[language]} {note}" if held_back else note


def criteria_refusal(
    *, step: str, language: str, unmet: Sequence[str], button: str, page_language: str = ""
) -> str:
    """The coach's message when the server refused to move on: what is missing, and the
    button to press again once it is there (`button`: a key of GESTURES)."""
    language = _lang(language)
    criteria = criteria_note(step=step, language=language, unmet=unmet, held_back=False)
    return _REFUSED[language].format(
        criteria=criteria,
        button=gesture(
            button, language=language, step=step, quoted=True, page_language=page_language
        ),
    )


def hints_only_note(*, step: str, language: str, page_language: str = "") -> str:
    language = _lang(language)
    button = gesture(
        "use_my_words", language=language, step=step, quoted=True, page_language=page_language
    )
    return _HINTS_ONLY[language].format(button=button)


def hints_only_write(*, language: str) -> str:
    return _HINTS_ONLY_WRITE[_lang(language)]


def rejected_again(*, step: str, language: str) -> str:
    language = _lang(language)
    return _REJECTED_AGAIN[language].format(your=phrases_for(step, language).your)
