"""Read and write argumentation frameworks in the ICCMA interchange formats.

Three text formats are understood:

* ``iccma23`` (files ``.af`` / ``.i23``, CLI name ``i23``): a ``p af N`` line, then one
  ``i j`` attack per line over the arguments ``1..N``. Lines starting with ``#`` are
  comments; the official ICCMA'23 files carry one ``# name`` comment per argument right
  after the p-line, which :func:`parse_iccma23` can turn back into names on request.
* ``apx`` (ASPARTIX): ``arg(a).`` and ``att(a,b).`` facts, ``%`` comments.
* ``tgf`` (Trivial Graph Format): one argument name per line, a ``#`` line, then one
  ``a b`` attack per line.

Every parse error is a :class:`FormatError` that names the offending line, because the
people reading these messages are fixing a file by hand or a converter by eye.

Size limits: a framework read from text holds at most ``MAX_ARGUMENTS`` arguments and
``MAX_ATTACKS`` attacks unless the caller passes other :class:`SizeLimits` (the CLI's
``--max-arguments`` / ``--max-attacks``). Without them the 14-byte file ``p af
1000000000`` would ask for gigabytes before a single attack is read. Numbers are
compared by their digits before ``int`` reads them, so an argument number of thousands
of digits is an ordinary out-of-range error too.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from pathlib import Path

from .framework import ArgumentationFramework

__all__ = [
    "DEFAULT_LIMITS",
    "FORMATS",
    "MAX_ARGUMENTS",
    "MAX_ATTACKS",
    "FormatError",
    "SizeLimits",
    "format_for_path",
    "normalise_format",
    "parse_apx",
    "parse_framework",
    "parse_iccma23",
    "parse_tgf",
    "read_framework",
    "sniff_format",
    "write_apx",
    "write_framework",
    "write_iccma23",
    "write_tgf",
]

#: Canonical format names, in the order the CLI lists them.
FORMATS: tuple[str, ...] = ("iccma23", "apx", "tgf")

# "i23" is the ICCMA'23 command-line name; "af" is the file extension people type.
_ALIASES = {"iccma23": "iccma23", "i23": "iccma23", "af": "iccma23", "apx": "apx", "tgf": "tgf"}
_SUFFIXES = {".af": "iccma23", ".i23": "iccma23", ".apx": "apx", ".tgf": "tgf"}


#: Four times the largest ICCMA'23 sample framework (50,000 arguments): about 60 MB.
MAX_ARGUMENTS = 200_000
#: Sixteen times the attacks of that framework; each costs a line of the file anyway.
MAX_ATTACKS = 2_000_000


@dataclass(frozen=True, slots=True)
class SizeLimits:
    """The most arguments and attacks a framework read from text may have."""

    max_arguments: int = MAX_ARGUMENTS
    max_attacks: int = MAX_ATTACKS


DEFAULT_LIMITS = SizeLimits()


class FormatError(ValueError):
    """A framework file or text that does not follow its format.

    ``line`` is the 1-based line number the problem was found on (``None`` when the
    problem is not tied to a line, e.g. a name that cannot be written); ``source`` is
    the file it came from when known.
    """

    def __init__(self, message: str, *, line: int | None = None, source: str | None = None):
        self.message = message
        self.line = line
        self.source = source
        where = " ".join(
            part for part in (source, None if line is None else f"line {line}") if part is not None
        )
        super().__init__(f"{where}: {message}" if where else message)


# ---------------------------------------------------------------------------
# format names


def normalise_format(fmt: str) -> str:
    """Map a format name or alias (``i23``, ``af``, ``APX`` ...) to its canonical name."""
    try:
        return _ALIASES[fmt.strip().lower().lstrip(".")]
    except KeyError:
        known = ", ".join(sorted(_ALIASES))
        raise FormatError(f"unknown format {fmt!r} (known: {known})") from None


def format_for_path(path: str | os.PathLike[str]) -> str | None:
    """The format implied by a file's extension, or ``None`` when the extension says nothing."""
    return _SUFFIXES.get(Path(path).suffix.lower())


def sniff_format(text: str) -> str:
    """Guess the format of ``text`` from its first meaningful line.

    Used only when neither a format name nor a telling file extension is available.
    """
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("%") or _FACT_START.match(line):
            return "apx"
        if line.split()[0] == "p":
            return "iccma23"
        return "tgf"
    return "iccma23"


# ---------------------------------------------------------------------------
# reading


def read_framework(
    source: str | os.PathLike[str],
    *,
    fmt: str | None = None,
    limits: SizeLimits = DEFAULT_LIMITS,
) -> ArgumentationFramework:
    """Read a framework from a file path, or from text when ``source`` is a multi-line str.

    The format is ``fmt`` when given, else the file extension (``.af``/``.i23``,
    ``.apx``, ``.tgf``), else a guess from the content. A one-line ``str`` is taken as a
    path; to parse a one-line text use :func:`parse_framework`. File errors
    (``FileNotFoundError`` ...) propagate as ``OSError``; content errors are
    :class:`FormatError` carrying the file name, a framework over ``limits`` included.
    """
    if isinstance(source, str) and "\n" in source:
        return parse_framework(source, fmt=fmt, limits=limits)
    path = Path(source)
    text = _decode(path.read_bytes(), source=str(path))
    chosen = fmt if fmt is not None else format_for_path(path)
    try:
        return parse_framework(text, fmt=chosen, limits=limits)
    except FormatError as error:
        raise FormatError(error.message, line=error.line, source=str(path)) from None


def parse_framework(
    text: str, *, fmt: str | None = None, limits: SizeLimits = DEFAULT_LIMITS
) -> ArgumentationFramework:
    """Parse ``text`` in format ``fmt`` (any alias), guessing the format when ``None``."""
    name = normalise_format(fmt) if fmt is not None else sniff_format(text)
    return _PARSERS[name](text, limits=limits)


def parse_iccma23(
    text: str, *, names: bool = False, limits: SizeLimits = DEFAULT_LIMITS
) -> ArgumentationFramework:
    """Parse the ICCMA'23 ``p af N`` format; arguments are the ints ``1..N``.

    All ``#`` lines are comments. With ``names=True`` the arguments are instead the
    names in the ``# name`` comments that directly follow the p-line (exactly ``N`` of
    them, all distinct), which is how ICCMA'23 files and :func:`write_iccma23` record the
    original names; the attack lines still use the numbers.
    """
    size: int | None = None
    p_line = 0
    name_comments: list[str] = []
    reading_names = False
    attacks: set[tuple[int, int]] = set()
    last = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        last = number
        line = raw.strip()
        if not line:
            continue
        if line[0] == "#":
            if reading_names:
                name_comments.append(line[1:].strip())
            continue
        reading_names = False
        fields = line.split()
        if size is None:
            size = _p_line(fields, line, number, limits=limits)
            p_line, reading_names = number, True
            continue
        if fields[0] == "p":
            raise FormatError(f"a second p-line (the first is on line {p_line})", line=number)
        if len(fields) != 2 or not (_is_number(fields[0]) and _is_number(fields[1])):
            raise FormatError(
                f"expected an attack 'i j' of two argument numbers, got {line!r}", line=number
            )
        source, target = (_argument_number(field, size=size, line=number) for field in fields)
        attacks.add((source, target))
        _check_attacks(len(attacks), limits=limits, line=number)
    if size is None:
        raise FormatError(
            "missing 'p af N' line (no non-comment line in the input)", line=max(last, 1)
        )
    numbers = tuple(range(1, size + 1))
    if not names:
        return ArgumentationFramework(arguments=numbers, attacks=frozenset(attacks))
    labels = _names_from_comments(name_comments, size=size, p_line=p_line)
    return ArgumentationFramework(
        arguments=labels,
        attacks=frozenset((labels[a - 1], labels[b - 1]) for a, b in attacks),
    )


def parse_apx(text: str, *, limits: SizeLimits = DEFAULT_LIMITS) -> ArgumentationFramework:
    """Parse ASPARTIX ``arg(a).`` / ``att(a,b).`` facts, in declaration order.

    Whitespace around tokens, several facts on one line, ``%`` comments and double-quoted
    names are tolerated; a repeated ``arg`` fact is harmless. Attacks may come before the
    ``arg`` facts they mention, so names are checked once the whole text is read.
    """
    arguments: dict[str, None] = {}
    attacks: list[tuple[str, str, int]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        position = 0
        while True:
            while position < len(raw) and raw[position].isspace():
                position += 1
            if position >= len(raw) or raw[position] == "%":
                break
            fact = _FACT.match(raw, position)
            if fact is None:
                raise FormatError(
                    f"expected 'arg(name).' or 'att(name,name).', got {raw[position:].strip()!r}",
                    line=number,
                )
            kind, first, second = fact.group(1), _unquote(fact.group(2)), fact.group(3)
            if kind == "arg":
                if second is not None:
                    raise FormatError(
                        f"arg(...) takes one name, got {fact.group(0).strip()!r}", line=number
                    )
                arguments.setdefault(first, None)
                _check_arguments(len(arguments), limits=limits, line=number)
            else:
                if second is None:
                    raise FormatError(
                        f"att(...) takes two names, got {fact.group(0).strip()!r}", line=number
                    )
                attacks.append((first, _unquote(second), number))
                _check_attacks(len(attacks), limits=limits, line=number)
            position = fact.end()
    for source, target, number in attacks:
        for name in (source, target):
            if name not in arguments:
                raise FormatError(
                    f"unknown argument {name!r} in att({source},{target}) (no arg({name}). fact)",
                    line=number,
                )
    return ArgumentationFramework(
        arguments=tuple(arguments), attacks=frozenset((s, t) for s, t, _ in attacks)
    )


def parse_tgf(text: str, *, limits: SizeLimits = DEFAULT_LIMITS) -> ArgumentationFramework:
    """Parse TGF: one argument name per line, a ``#`` line, then ``a b`` attack lines.

    The ``#`` line is required even without attacks: without it any file of one word per
    line (an apx file, say) would pass for a framework without attacks. Node and edge
    labels (extra tokens) are not accepted: in argumentation files they only ever signal a
    broken file.
    """
    arguments: dict[str, None] = {}
    attacks: set[tuple[str, str]] = set()
    separator = 0
    last = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        last = number
        line = raw.strip()
        if not line:
            continue
        if line == "#":
            if separator:
                raise FormatError(
                    f"a second '#' line (the first is on line {separator})", line=number
                )
            separator = number
            continue
        fields = line.split()
        if not separator:
            if len(fields) != 1:
                raise FormatError(
                    f"expected one argument name per line before the '#' line, got {line!r}",
                    line=number,
                )
            arguments.setdefault(fields[0], None)
            _check_arguments(len(arguments), limits=limits, line=number)
            continue
        if len(fields) != 2:
            raise FormatError(f"expected an attack 'a b' of two names, got {line!r}", line=number)
        for name in fields:
            if name not in arguments:
                raise FormatError(f"unknown argument {name!r} (not listed before '#')", line=number)
        attacks.add((fields[0], fields[1]))
        _check_attacks(len(attacks), limits=limits, line=number)
    if not separator:
        raise FormatError(
            "missing the '#' line that separates the argument names from the attacks",
            line=max(last, 1),
        )
    return ArgumentationFramework(arguments=tuple(arguments), attacks=frozenset(attacks))


# ---------------------------------------------------------------------------
# writing


def write_framework(af: ArgumentationFramework, *, fmt: str) -> str:
    """Serialise ``af`` in format ``fmt`` (any alias)."""
    return _WRITERS[normalise_format(fmt)](af)


def write_iccma23(af: ArgumentationFramework) -> str:
    """Serialise in the ICCMA'23 format.

    A framework whose arguments are exactly the ints ``1..N`` is written as is. Any other
    framework is numbered in argument order and gets one ``# name`` comment per argument
    after the p-line (the ICCMA'23 convention), so ``parse_iccma23(text, names=True)``
    gives the names back (as ``str``).
    """
    arguments = af.arguments
    if _is_numbered(arguments):
        index: dict[Hashable, int] = {argument: argument for argument in arguments}
        comments: list[str] = []
    else:
        index = {argument: position for position, argument in enumerate(arguments, start=1)}
        comments = [f"# {_comment_name(argument)}" for argument in arguments]
    pairs = sorted((index[a], index[b]) for a, b in af.attacks)
    lines = [f"p af {len(arguments)}", *comments, *(f"{a} {b}" for a, b in pairs)]
    return "\n".join(lines) + "\n"


def write_apx(af: ArgumentationFramework) -> str:
    """Serialise as ASPARTIX facts; names with spaces or punctuation are double-quoted."""
    names = _names(af, render=_apx_name)
    lines = [f"arg({names[argument]})." for argument in af.arguments]
    lines += [f"att({names[a]},{names[b]})." for a, b in _ordered_attacks(af)]
    return "\n".join(lines) + "\n"


def write_tgf(af: ArgumentationFramework) -> str:
    """Serialise as TGF; names must be single tokens (no whitespace, not ``#``)."""
    names = _names(af, render=_tgf_name)
    lines = [names[argument] for argument in af.arguments]
    lines.append("#")
    lines += [f"{names[a]} {names[b]}" for a, b in _ordered_attacks(af)]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------
# helpers

# A name is a double-quoted string or a run of characters that cannot end a fact.
_NAME = r'"[^"\n]*"|[^\s,()%"]+'
_FACT = re.compile(rf"(arg|att)\s*\(\s*({_NAME})\s*(?:,\s*({_NAME})\s*)?\)\s*\.")
_FACT_START = re.compile(r"(arg|att)\s*\(")
_PLAIN_APX = re.compile(r'[^\s,()%".]+')


def _decode(data: bytes, *, source: str) -> str:
    """Decode UTF-8, reporting the line of the first bad byte rather than a byte offset."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise FormatError("not UTF-8 text (binary file?)", line=line, source=source) from None


def _is_number(token: str) -> bool:
    # str.isdigit alone accepts non-ASCII digits such as '٣', which no ICCMA tool writes.
    return token.isascii() and token.isdigit()


def _p_line(fields: list[str], line: str, number: int, *, limits: SizeLimits) -> int:
    if fields[0] != "p":
        raise FormatError(
            f"missing 'p af N' line: the first non-comment line must declare the number "
            f"of arguments, got {line!r}",
            line=number,
        )
    if len(fields) != 3 or fields[1] != "af" or not _is_number(fields[2]):
        raise FormatError(
            f"bad p-line: expected 'p af N' with N a non-negative integer, got {_excerpt(line)!r}",
            line=number,
        )
    if _exceeds(fields[2], limits.max_arguments):
        raise FormatError(
            f"'p af {_excerpt(fields[2])}' declares more than {limits.max_arguments} arguments, "
            "the limit (raise it with --max-arguments)",
            line=number,
        )
    return int(fields[2])


def _exceeds(digits: str, limit: int) -> bool:
    """Whether the ASCII number ``digits`` is above ``limit``, without ``int`` reading it."""
    digits = digits.lstrip("0") or "0"
    return len(digits) > len(str(limit)) or int(digits) > limit


def _argument_number(token: str, *, size: int, line: int) -> int:
    if token.lstrip("0") == "" or _exceeds(token, size):
        raise FormatError(
            f"argument {_excerpt(token)} is out of range 1..{size} (declared by 'p af {size}')",
            line=line,
        )
    return int(token)


def _check_arguments(count: int, *, limits: SizeLimits, line: int) -> None:
    if count > limits.max_arguments:
        raise FormatError(
            f"more than {limits.max_arguments} arguments, the limit "
            "(raise it with --max-arguments)",
            line=line,
        )


def _check_attacks(count: int, *, limits: SizeLimits, line: int) -> None:
    if count > limits.max_attacks:
        raise FormatError(
            f"more than {limits.max_attacks} attacks, the limit (raise it with --max-attacks)",
            line=line,
        )


def _excerpt(text: str, *, keep: int = 40) -> str:
    # A message quotes what it refuses, but not a line of 5,000 digits.
    return text if len(text) <= keep else f"{text[:keep]}... ({len(text)} characters)"


def _names_from_comments(comments: list[str], *, size: int, p_line: int) -> tuple[str, ...]:
    if len(comments) != size:
        raise FormatError(
            f"names=True needs exactly {size} '# name' comments right after the p-line, "
            f"found {len(comments)}",
            line=p_line,
        )
    if len(set(comments)) != size or "" in comments:
        raise FormatError(
            "names=True needs distinct non-empty '# name' comments after the p-line",
            line=p_line,
        )
    return tuple(comments)


def _unquote(name: str) -> str:
    return name[1:-1] if len(name) >= 2 and name[0] == name[-1] == '"' else name


def _is_numbered(arguments: tuple[Hashable, ...]) -> bool:
    """True when the arguments are exactly the ints 1..N (bools are not numbers here)."""
    return all(type(argument) is int for argument in arguments) and set(arguments) == set(
        range(1, len(arguments) + 1)
    )


def _comment_name(argument: Hashable) -> str:
    name = str(argument)
    if not name or name != name.strip() or "\n" in name or "\r" in name:
        raise FormatError(f"argument {argument!r} cannot be written as a '# name' comment")
    return name


def _apx_name(argument: Hashable) -> str:
    name = str(argument)
    if _PLAIN_APX.fullmatch(name):
        return name
    if '"' in name or "\n" in name or "\r" in name or not name:
        raise FormatError(f"argument {argument!r} cannot be written as an apx name")
    return f'"{name}"'


def _tgf_name(argument: Hashable) -> str:
    name = str(argument)
    if not name or name == "#" or any(character.isspace() for character in name):
        raise FormatError(f"argument {argument!r} cannot be written as a tgf name")
    return name


def _names(af: ArgumentationFramework, *, render: Callable[[Hashable], str]) -> dict[Hashable, str]:
    """Render every argument's name, refusing two arguments that would print alike (1 and '1')."""
    names = {argument: render(argument) for argument in af.arguments}
    if len(set(names.values())) != len(names):
        raise FormatError("two arguments have the same written name")
    return names


def _ordered_attacks(af: ArgumentationFramework) -> Iterable[tuple[Hashable, Hashable]]:
    """Attacks in argument order, so that written files are deterministic and diffable."""
    position = {argument: index for index, argument in enumerate(af.arguments)}
    return sorted(af.attacks, key=lambda pair: (position[pair[0]], position[pair[1]]))


_PARSERS: dict[str, Callable[..., ArgumentationFramework]] = {
    "iccma23": parse_iccma23,
    "apx": parse_apx,
    "tgf": parse_tgf,
}
_WRITERS: dict[str, Callable[[ArgumentationFramework], str]] = {
    "iccma23": write_iccma23,
    "apx": write_apx,
    "tgf": write_tgf,
}
