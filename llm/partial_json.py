"""Read one string field out of a JSON object that is still arriving.

The coach streams the model's JSON reply; the student should see the
``assistantText`` field grow while the rest (proposals, flags) is still being
written. :class:`StringFieldReader` is fed the reply's text piece by piece and
returns only the characters of that one top-level string that each piece
completes. It looks at every character once (a short undecided tail — a cut
escape — at most twice), so a reply of n characters in k pieces costs O(n),
not the O(n·k) of decoding the whole text again for every piece: a 1 MB reply
in 12-character pieces is about 90,000 pieces.

The decoded characters so far are always a prefix of the final value: an
incomplete trailing escape (``\\``, ``\\u00``, a high surrogate whose partner
may still come) is held back rather than guessed, and a malformed escape ends
the value where it is.
"""

from __future__ import annotations

import re

__all__ = ["StringFieldReader", "partial_json_string_field"]

_WHITESPACE = re.compile(r"[ \t\n\r]*")
_PLAIN_RUN = re.compile(r'[^"\\]*')
_STRUCTURAL = re.compile(r'["{}\[\]]')
_SCALAR = re.compile(r"[^,}\]\s]*")
_HEX4 = re.compile(r"[0-9a-fA-F]{4}")
# A cut-off escape that may still become a \u escape of four hex digits.
_HEX_PREFIX = re.compile(r"[0-9a-fA-F]{0,3}")
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

# What the reader expects next.
_OPEN = "open"  # the object's "{"
_KEY_OR_END = "key_or_end"  # a key's opening quote, or "}"
_KEY = "key"  # inside a key
_COLON = "colon"
_VALUE = "value"  # the first character of a value
_TARGET = "target"  # inside the field's string value: the characters we return
_SKIP_STRING = "skip_string"  # inside another top-level string value
_SKIP_CONTAINER = "skip_container"  # inside a nested object or array
_SKIP_NESTED_STRING = "skip_nested_string"  # inside a string within a nested value
_SKIP_SCALAR = "skip_scalar"  # inside a number or literal
_AFTER_VALUE = "after_value"  # "," or "}"
_DONE = "done"  # the value is complete, or the text is not what we read
_BROKEN = "broken"  # the value started, then a malformed escape ended it

_MORE, _CLOSED, _BAD = "more", "closed", "bad"


def _scan_string(text: str, i: int, out: list[str] | None) -> tuple[int, str]:
    """Decode a JSON string body from ``i``; append decoded text to ``out`` (if given).

    Returns (index, status): ``closed`` with the index after the closing
    quote, ``more`` with the index of the first character not yet decided
    (the text ends, possibly inside an escape), or ``bad`` for a malformed
    escape. Like json.loads, a lone surrogate is kept as is.
    """
    n = len(text)
    while True:
        run = _PLAIN_RUN.match(text, i)
        end = run.end()  # type: ignore[union-attr]
        if out is not None and end > i:
            out.append(text[i:end])
        i = end
        if i >= n:
            return i, _MORE
        if text[i] == '"':
            return i + 1, _CLOSED
        # A backslash escape.
        if i + 1 >= n:
            return i, _MORE
        kind = text[i + 1]
        if kind in _SIMPLE_ESCAPES:
            if out is not None:
                out.append(_SIMPLE_ESCAPES[kind])
            i += 2
            continue
        if kind != "u":
            return i, _BAD
        hex_match = _HEX4.match(text, i + 2)
        if hex_match is None:
            cut = n - (i + 2) < 4 and _HEX_PREFIX.fullmatch(text, i + 2) is not None
            return i, _MORE if cut else _BAD
        code = int(hex_match.group(), 16)
        j = i + 6
        if 0xD800 <= code <= 0xDBFF:
            rest = text[j : j + 6]
            if len(rest) < 6 and (not rest or _LOW_SURROGATE_PREFIX.fullmatch(rest) is not None):
                return i, _MORE  # its partner may still come
            low = _HEX4.match(text, j + 2) if rest.startswith("\\u") else None
            if low is not None and 0xDC00 <= int(low.group(), 16) <= 0xDFFF:
                if out is not None:
                    low_code = int(low.group(), 16)
                    out.append(chr(0x10000 + ((code - 0xD800) << 10) + (low_code - 0xDC00)))
                i = j + 6
                continue
        if out is not None:
            out.append(chr(code))
        i = j


class StringFieldReader:
    """Feed a JSON object's text in pieces; get back the new characters of one string field.

    Only a top-level ``field`` whose value is a string is read (keys inside
    nested values or inside other strings never match; the first occurrence
    wins). ``started`` turns true once the value's opening quote has arrived,
    ``complete`` once its closing quote has.
    """

    __slots__ = ("_depth", "_field", "_key", "_pending", "_scalar_chars", "_state", "complete")

    def __init__(self, field: str) -> None:
        self._field = field
        self._state = _OPEN
        self._pending = ""  # an undecided tail (a cut escape), at most a dozen characters
        self._key: list[str] = []
        self._depth = 0
        self._scalar_chars = 0
        self.complete = False

    @property
    def started(self) -> bool:
        return self._state == _TARGET or self.complete or self._state == _BROKEN

    def feed(self, piece: str) -> str:
        """The characters of the field's value that ``piece`` completes ("" if none)."""
        if self._state == _DONE or self._state == _BROKEN or not piece:
            return ""
        text = self._pending + piece if self._pending else piece
        out: list[str] = []
        self._pending = text[self._run(text, out) :]
        return "".join(out)

    def _run(self, text: str, out: list[str]) -> int:
        """Advance over ``text``; return the index of the first undecided character."""
        n = len(text)
        i = 0
        while i < n:
            state = self._state
            if state in (_OPEN, _KEY_OR_END, _COLON, _VALUE, _AFTER_VALUE):
                i = _WHITESPACE.match(text, i).end()  # type: ignore[union-attr]
                if i >= n:
                    return i
                i = self._punctuation(text[i], i)
            elif state == _KEY:
                i, status = _scan_string(text, i, self._key)
                if status == _MORE:
                    return i
                self._state = _COLON if status == _CLOSED else _DONE
            elif state == _TARGET:
                i, status = _scan_string(text, i, out)
                if status == _MORE:
                    return i
                self.complete = status == _CLOSED
                self._state = _DONE if self.complete else _BROKEN
                return n
            elif state in (_SKIP_STRING, _SKIP_NESTED_STRING):
                i, status = _scan_string(text, i, None)
                if status == _MORE:
                    return i
                if status == _BAD:
                    self._state = _DONE
                else:
                    self._state = _AFTER_VALUE if state == _SKIP_STRING else _SKIP_CONTAINER
            elif state == _SKIP_CONTAINER:
                match = _STRUCTURAL.search(text, i)
                if match is None:
                    return n
                char, i = match.group(), match.end()
                if char == '"':
                    self._state = _SKIP_NESTED_STRING
                elif char in "{[":
                    self._depth += 1
                else:
                    self._depth -= 1
                    if self._depth == 0:
                        self._state = _AFTER_VALUE
            elif state == _SKIP_SCALAR:
                end = _SCALAR.match(text, i).end()  # type: ignore[union-attr]
                self._scalar_chars += end - i
                i = end
                if i < n:
                    # A delimiter: the scalar is over (an empty one is malformed).
                    self._state = _AFTER_VALUE if self._scalar_chars else _DONE
            else:  # _DONE
                return n
        return i

    def _punctuation(self, char: str, i: int) -> int:
        """Handle the structural character ``char`` at ``i``; return where to go on."""
        state = self._state
        if state == _OPEN:
            self._state = _KEY_OR_END if char == "{" else _DONE
        elif state == _KEY_OR_END:
            if char == '"':
                self._key = []
                self._state = _KEY
            else:
                self._state = _DONE  # "}" (the field is absent) or malformed
        elif state == _COLON:
            self._state = _VALUE if char == ":" else _DONE
        elif state == _AFTER_VALUE:
            self._state = _KEY_OR_END if char == "," else _DONE
        else:  # _VALUE
            if "".join(self._key) == self._field:
                self._state = _TARGET if char == '"' else _DONE
            elif char == '"':
                self._state = _SKIP_STRING
            elif char in "{[":
                self._depth = 1
                self._state = _SKIP_CONTAINER
            else:
                self._scalar_chars = 0
                self._state = _SKIP_SCALAR
                return i  # the scalar's first character is part of it
        return i + 1


def partial_json_string_field(partial_json: str, field: str) -> str | None:
    """The decoded value of top-level string ``field`` in a possibly cut-off JSON object.

    Returns None while the field's value has not started (or if it is not a
    string, or the text is not a JSON object); otherwise the value decoded so
    far, which only ever grows as ``partial_json`` grows. For text that
    arrives in pieces, feed a :class:`StringFieldReader` instead.
    """
    reader = StringFieldReader(field)
    value = reader.feed(partial_json)
    return value if reader.started else None
