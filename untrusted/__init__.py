"""Read what comes from outside — clients, files, the model — without a server error.

Pure Python (no Django; ``untrusted.forms`` is its Django side): the apps and
``llm`` share it.

* ``parse_int`` / ``parse_id``: a number typed by someone else. Only ASCII
  digits (``str.isdigit`` also accepts "²" and "٣", which ``int`` refuses or
  reads differently), at most 19 of them, and never above ``MAX_ID``, the
  largest value a 64-bit signed column holds (SQLite's INTEGER, PostgreSQL's
  bigint): a longer number would overflow the database driver, and one of
  more than 4,300 digits makes ``int()`` itself raise.
* ``loads_json``: a JSON body, bounded in size and nesting depth, so a body
  nested thousands of levels deep is a clear error, not a ``RecursionError``.
* ``text_problem`` / ``clean_text``: text a database can store. PostgreSQL
  refuses a NUL character in text, and neither database can encode an
  unpaired surrogate ("\\ud800", which a JSON escape can produce) as UTF-8.
  Text from people is refused with a reason (``text_problem``); text from the
  model is cleaned (``clean_text``), since nobody can be asked to fix it.
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = [
    "DEFAULT_MAX_JSON_BYTES",
    "DEFAULT_MAX_JSON_DEPTH",
    "MAX_ID",
    "JSONInputError",
    "clean_text",
    "loads_json",
    "parse_id",
    "parse_int",
    "text_problem",
]

#: The largest id or count kept in a 64-bit signed integer column.
MAX_ID = 2**63 - 1
_MAX_DIGITS = len(str(MAX_ID))

#: Generous for any form-sized JSON body; Django's own cap on a body is 2.5 MB.
DEFAULT_MAX_JSON_BYTES = 256 * 1024
#: Far deeper than any honest request, far below Python's recursion limit.
DEFAULT_MAX_JSON_DEPTH = 32


def parse_int(value: object, *, minimum: int = 0, maximum: int = MAX_ID) -> int | None:
    """``value`` as an int within [minimum, maximum], or None if it is anything else.

    Accepts an int (not a bool) or a string of ASCII digits, surrounding
    whitespace allowed: no sign, no underscores, no other script's digits.
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        number = value
    elif isinstance(value, str):
        digits = value.strip()
        if not (digits.isascii() and digits.isdigit()):
            return None
        digits = digits.lstrip("0") or "0"
        if len(digits) > _MAX_DIGITS:
            return None
        number = int(digits)
    else:
        return None
    return number if minimum <= number <= maximum else None


def parse_id(value: object) -> int | None:
    """A database id (1 to MAX_ID) from an int or a string of ASCII digits, else None."""
    return parse_int(value, minimum=1)


class JSONInputError(ValueError):
    """A JSON body that cannot be used; the message says why, in plain words."""


# A JSON string (escapes included) or one bracket: counting the brackets outside
# strings gives the nesting depth without parsing anything. The possessive `*+`
# and the optional closing quote make an unterminated string end the scan in
# linear time instead of backtracking from every quote.
_JSON_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*+"?|[\[\]{}]', re.DOTALL)


def _depth(text: str) -> int:
    depth = deepest = 0
    for match in _JSON_TOKEN.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif token in "]}":
            depth -= 1
    return deepest


def loads_json(
    body: bytes | str,
    *,
    max_bytes: int = DEFAULT_MAX_JSON_BYTES,
    max_depth: int = DEFAULT_MAX_JSON_DEPTH,
) -> Any:
    """The JSON value in ``body``; JSONInputError if it is too big, too deep or not JSON.

    Numbers of more than 4,300 digits, which ``int()`` refuses, are refused too.
    """
    if len(body) > max_bytes:
        raise JSONInputError(f"the JSON is larger than {max_bytes} bytes")
    if isinstance(body, bytes):
        try:
            body = body.decode("utf-8")
        except UnicodeDecodeError as error:
            raise JSONInputError("the JSON is not UTF-8") from error
    if _depth(body) > max_depth:
        raise JSONInputError(f"the JSON is nested deeper than {max_depth} levels")
    try:
        return json.loads(body)
    except (ValueError, RecursionError) as error:
        # ValueError covers bad syntax and over-long integers alike.
        raise JSONInputError("this is not JSON") from error


_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def text_problem(value: str) -> str | None:
    """Why ``value`` cannot be stored as text, or None if it can."""
    match = _UNSTORABLE.search(value)
    if match is None:
        return None
    if match.group() == "\x00":
        return "it contains a NUL character"
    return "it contains an unpaired surrogate (half of an emoji or other character)"


def clean_text(value: str) -> str:
    """``value`` without NUL characters, each unpaired surrogate replaced by U+FFFD."""
    if _UNSTORABLE.search(value) is None:
        return value
    return _UNSTORABLE.sub(lambda match: "" if match.group() == "\x00" else "\ufffd", value)
