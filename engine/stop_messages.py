"""Why a run stopped, as people read it: a code and its parameters, worded when shown.

The engine and each format store a stop as a code (``budget``,
``rounds_done``, ``last_round_allowed``...) with its parameters, never as a
sentence to be parsed back. Each code's sentence is a gettext message,
registered here by whoever stops for that reason (the engine, a format in
its ``AppConfig.ready``), and said in the reader's language at display time.
Nothing is stored in words: exports and the command line word the code in
English when they write (:func:`english_or_stored`). A row older than the
codes has only its English sentence (``Debate.stop_detail``), shown as it is.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext, override

__all__ = [
    "english",
    "english_or_stored",
    "legacy_code",
    "register_stage_labels",
    "register_stop_messages",
    "sentences",
    "stop_sentence",
]

_MESSAGES: dict[str, str] = {}
_STAGE_LABELS: dict[str, Any] = {}

# Parameters that are amounts of money: shown with the page's decimal separator.
_AMOUNTS = frozenset({"estimate", "left", "budget"})


def register_stop_messages(messages: Mapping[str, str]) -> None:
    """Add codes and their (untranslated, gettext_noop-marked) sentences; a code is said once."""
    for code, message in messages.items():
        if _MESSAGES.get(code, message) != message:
            raise ValueError(f"stop code {code!r} is already registered with another sentence")
        _MESSAGES[code] = message


def register_stage_labels(labels: Mapping[str, Any]) -> None:
    """Stage names as pages say them (lazy translations), for a ``stage`` parameter."""
    _STAGE_LABELS.update(labels)


def _shown(key: str, value: Any, *, localise: bool) -> Any:
    if key == "stage":
        return str(_STAGE_LABELS.get(value, value))
    if key in _AMOUNTS:
        try:
            amount = Decimal(str(value))
        except (InvalidOperation, ValueError):
            return value
        places = max(-amount.as_tuple().exponent, 0) if amount.is_finite() else 0
        return number_format(amount, decimal_pos=places) if localise else f"{amount:.{places}f}"
    return value


def stop_sentence(code: str, params: Mapping[str, Any] | None) -> str | None:
    """The stop in the active language, or None for a code nobody registered (or none)."""
    message = _MESSAGES.get(code or "")
    if message is None:
        return None
    values = {key: _shown(key, value, localise=True) for key, value in (params or {}).items()}
    try:
        return gettext(message) % values
    except (KeyError, TypeError, ValueError):
        return None  # parameters that do not fit the sentence: the caller shows the stored one


def sentences() -> dict[str, str]:
    """Every code's sentence in the active language, for a page's script to fill in."""
    return {code: gettext(message) for code, message in _MESSAGES.items()}


def english(code: str, params: Mapping[str, Any] | None) -> str:
    """The sentence stored beside the code, for exports and the command line."""
    message = _MESSAGES[code]
    values = {key: _shown(key, value, localise=False) for key, value in (params or {}).items()}
    with override("en"):
        return gettext(message) % values


def english_or_stored(code: str, params: Mapping[str, Any] | None, stored: str = "") -> str:
    """The stop in English for an export or the command line; ``stored`` for a row with no code."""
    if code in _MESSAGES:
        try:
            return english(code, params)
        except (KeyError, TypeError, ValueError):
            pass  # parameters that do not fit the sentence
    return stored


# The sentences stored before stops had codes, each read back into its code and
# parameters: only by the migration that gave old rows their codes and by the
# demos' recorded runs, never by a page.
_LEGACY = (
    ("rounds_done", r"Round (?P<round>\d+) of (?P<max>\d+) is done\."),
    ("all_rounds_done", r"All rounds are done\."),
    ("consensus", r"One preferred extension, and it defeats every argument outside it\."),
    (
        "stable_dissent",
        r"(?P<camps>\d+) camps, and no argument changed label in rounds "
        r"(?P<first>\d+) and (?P<second>\d+)\.",
    ),
    ("no_new_attack", r"Round (?P<round>\d+) brought no new valid attack\."),
    ("no_opening_argument", r"Round 0 produced no argument at all\."),
    ("validation_failed", r"Round (?P<round>\d+): the validation call failed\."),
    ("attacks_failed", r"Round (?P<round>\d+): every persona's attack call failed\."),
    (
        "budget",
        r"Budget: the (?P<stage>\w+) \(round (?P<round>\d+)\) stage would cost about "
        r"\$(?P<estimate>[\d.]+) but only \$(?P<left>[\d.]+) of \$(?P<budget>[\d.]+) is left\.",
    ),
    ("last_round_allowed", r"Round (?P<round>\d+) was the last round allowed\."),
    (
        "thesis_graded_d",
        r"The thesis rests on (?P<claims>.+), graded D \(no sound evidence chain\)\.",
    ),
    (
        "probabilities_agree",
        r"Every agent's stated probability that the thesis holds is within 0\.10 of the others'\.",
    ),
    (
        "no_position_change",
        r"No agent changed position for two rounds, and they still disagree\.",
    ),
    (
        "no_new_evidence",
        r"Round (?P<round>\d+) brought no new evidence \((?P<count>\d+) new spans or claims\)\.",
    ),
    ("final_decided", r"The final is decided: (?P<winner>.+) wins the tournament\."),
)
_INTEGERS = frozenset({"round", "max", "camps", "first", "second", "count"})


def legacy_code(detail: str) -> tuple[str, dict[str, Any]] | None:
    """An English stop sentence of the days before codes, as its code and parameters."""
    for code, pattern in _LEGACY:
        if match := re.fullmatch(pattern, detail or ""):
            params = {
                key: int(value) if key in _INTEGERS else value
                for key, value in match.groupdict().items()
            }
            return code, params
    return None
