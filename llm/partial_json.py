"""Read one string field out of a JSON object that is still arriving.

The coach streams the model's JSON reply; the student should see the
``assistantText`` field grow while the rest (proposals, flags) is still being
written. This module decodes that one top-level string from any prefix of the
object's text, so that every prefix decodes to a prefix of the final value.
"""

from __future__ import annotations

import re

__all__ = ["partial_json_string_field"]

_WHITESPACE = re.compile(r"[ \t\n\r]*")
_PLAIN_RUN = re.compile(r'[^"\\]*')
_STRUCTURAL = re.compile(r'["{}\[\]]')
_SCALAR = re.compile(r"[^,}\]\s]*")
_HEX4 = re.compile(r"[0-9a-fA-F]{4}")
# A cut-off tail that may still become an escaped low surrogate (\uDC00-\uDFFF).
_LOW_SURROGATE_PREFIX = re.compile(r"\\(?:u(?:[dD](?:[c-fC-F][0-9a-fA-F]{0,2})?)?)?")
_SIMPLE_ESCAPES = {
    '"': '"',
    "\\": "\\",
    "/": "/",
    "b": "\b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
}


def _skip_ws(text: str, i: int) -> int:
    return _WHITESPACE.match(text, i).end()  # type: ignore[union-attr]


def _hex4(text: str, i: int) -> int | None:
    """The 4-hex-digit code at ``i``; None if cut off or malformed."""
    match = _HEX4.match(text, i)
    return int(match.group(), 16) if match else None


def _is_cut_low_surrogate(text: str, i: int) -> bool:
    """True if ``text[i:]`` runs to the end and could still grow into ``\\uDCxx``."""
    rest = text[i:]
    return len(rest) < 6 and (rest == "" or _LOW_SURROGATE_PREFIX.fullmatch(rest) is not None)


def _decode_string(text: str, i: int) -> tuple[str, int, bool]:
    """Decode the JSON string body starting at ``i`` (just past the opening quote).

    Returns (decoded text so far, index after the closing quote, complete?).
    An incomplete trailing escape — ``\\``, ``\\u00``, a high surrogate whose
    partner may still come — is left out rather than guessed. Malformed
    escapes stop decoding (complete=False) instead of raising: this reads
    text that is not finished yet.
    """
    parts: list[str] = []
    n = len(text)
    while True:
        run = _PLAIN_RUN.match(text, i)
        parts.append(run.group())  # type: ignore[union-attr]
        i = run.end()  # type: ignore[union-attr]
        if i >= n:
            return "".join(parts), i, False
        if text[i] == '"':
            return "".join(parts), i + 1, True
        # A backslash escape.
        if i + 1 >= n:
            return "".join(parts), i, False
        kind = text[i + 1]
        if kind in _SIMPLE_ESCAPES:
            parts.append(_SIMPLE_ESCAPES[kind])
            i += 2
            continue
        if kind != "u":
            return "".join(parts), i, False
        code = _hex4(text, i + 2)
        if code is None:
            return "".join(parts), i, False
        i += 6
        if 0xD800 <= code <= 0xDBFF:
            if _is_cut_low_surrogate(text, i):
                return "".join(parts), i - 6, False
            low = _hex4(text, i + 2) if text.startswith("\\u", i) else None
            if low is not None and 0xDC00 <= low <= 0xDFFF:
                parts.append(chr(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)))
                i += 6
                continue
        # Like json.loads, a lone surrogate is kept as is.
        parts.append(chr(code))


def _skip_string(text: str, i: int) -> int | None:
    """Index after the string whose body starts at ``i``; None if cut off."""
    _, end, complete = _decode_string(text, i)
    return end if complete else None


def _skip_container(text: str, i: int) -> int | None:
    """Index after the object/array opening at ``i``; None if cut off."""
    depth = 0
    n = len(text)
    while i < n:
        match = _STRUCTURAL.search(text, i)
        if match is None:
            return None
        char, i = match.group(), match.end()
        if char == '"':
            end = _skip_string(text, i)
            if end is None:
                return None
            i = end
        elif char in "{[":
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                return i
    return None


def _skip_value(text: str, i: int) -> int | None:
    """Index after the JSON value starting at ``i``; None if cut off or malformed."""
    char = text[i]
    if char == '"':
        return _skip_string(text, i + 1)
    if char in "{[":
        return _skip_container(text, i)
    end = _SCALAR.match(text, i).end()  # type: ignore[union-attr]
    # A number or literal that touches the end may still be growing.
    return end if end < len(text) and end > i else None


def partial_json_string_field(partial_json: str, field: str) -> str | None:
    """The decoded value of top-level string ``field`` in a possibly cut-off JSON object.

    Returns None while the field's value has not started (or if it is not a
    string, or the text is not a JSON object); otherwise the value decoded so
    far, which only ever grows as ``partial_json`` grows. Keys inside nested
    objects or inside other strings never match. Pure and linear in the input.
    """
    text = partial_json
    n = len(text)
    i = _skip_ws(text, 0)
    if i >= n or text[i] != "{":
        return None
    i += 1
    while True:
        i = _skip_ws(text, i)
        if i >= n or text[i] != '"':
            return None
        key, i, complete = _decode_string(text, i + 1)
        if not complete:
            return None
        i = _skip_ws(text, i)
        if i >= n or text[i] != ":":
            return None
        i = _skip_ws(text, i + 1)
        if i >= n:
            return None
        if key == field:
            if text[i] != '"':
                return None
            value, _, _ = _decode_string(text, i + 1)
            return value
        end = _skip_value(text, i)
        if end is None:
            return None
        i = _skip_ws(text, end)
        if i >= n or text[i] != ",":
            return None
        i += 1
