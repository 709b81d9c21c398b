"""The ICCMA-style command line: ``python -m argumentation -p TASK -f FILE [-fo FMT] [-a ARG]``.

Tasks are ``KIND-SEM`` with KIND one of

* ``DC`` credulous acceptance of ``-a``: ``YES`` and a witness line ``w ...`` (an
  extension containing the argument), or ``NO``;
* ``DS`` skeptical acceptance of ``-a``: ``YES``, or ``NO`` and a witness line (an
  extension without the argument);
* ``SE`` some extension: ``w ...``, or ``NO`` when there is none (stable semantics);
* ``EE`` every extension: one ``w ...`` line each (``w`` alone is the empty extension);
* ``CE`` the number of extensions;

and SEM one of ``GR CO PR ST SST``. This is the ICCMA 2023 output convention, extended
with EE/CE in the same style. ``--problems`` prints ``[DC-GR,DC-CO,...]`` and
``--formats`` prints ``[i23,apx,tgf]``: one bracketed comma list on one line, as ICCMA
solvers do. Without any option the solver prints its name.

Every failure (missing or malformed file, unknown task or argument, missing ``-a``, bad
options, a framework over the size limit, running out of memory) is ONE line on stderr
and exit status 2, so that scripts driving many solvers can tell a refusal from an
answer without parsing tracebacks.

Size limit: a file may declare at most 200,000 arguments and 2,000,000 attacks
(``argumentation.formats.MAX_ARGUMENTS`` / ``MAX_ATTACKS``); ``--max-arguments N`` and
``--max-attacks N`` raise or lower them. The limit is checked while reading, so
``p af 1000000000`` is refused at once instead of allocating a billion arguments.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from typing import NoReturn, TextIO

from argumentation import (
    SEMANTICS,
    ArgumentationFramework,
    count_extensions,
    credulous_acceptance,
    extensions,
    skeptical_acceptance,
    some_extension,
)
from argumentation.formats import (
    MAX_ARGUMENTS,
    MAX_ATTACKS,
    FormatError,
    SizeLimits,
    _excerpt,
    read_framework,
)

__all__ = ["CLI_FORMATS", "PROBLEMS", "UsageError", "main", "solve"]

PROG = "argumentation"
KINDS = ("DC", "DS", "SE", "EE", "CE")
PROBLEMS: tuple[str, ...] = tuple(f"{kind}-{sem}" for kind in KINDS for sem in SEMANTICS)
#: The ``-fo`` names, ICCMA spelling; ``i23`` is the ICCMA 2023 ``p af N`` format.
CLI_FORMATS: tuple[str, ...] = ("i23", "apx", "tgf")
EXIT_ERROR = 2


class UsageError(Exception):
    """A refusal to run, reported as one line on stderr with exit status 2."""


class _Parser(argparse.ArgumentParser):
    # argparse prints usage plus the message and exits 2; we want the one-line contract.
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def _parser() -> _Parser:
    parser = _Parser(
        prog=PROG,
        description="Dung argumentation solver with the ICCMA 2023 command-line interface.",
    )
    parser.add_argument("-p", dest="task", metavar="TASK", help="e.g. DC-CO, SE-PR, EE-ST, CE-PR")
    parser.add_argument("-f", dest="file", metavar="FILE", help="framework file")
    parser.add_argument(
        "-fo",
        dest="fmt",
        metavar="FORMAT",
        help="i23 (default for .af/.i23), apx or tgf; by default from the file extension",
    )
    parser.add_argument("-a", dest="query", metavar="ARG", help="query argument for DC/DS")
    parser.add_argument(
        "--max-arguments",
        type=_limit,
        default=MAX_ARGUMENTS,
        metavar="N",
        help=f"refuse a file with more than N arguments (default {MAX_ARGUMENTS})",
    )
    parser.add_argument(
        "--max-attacks",
        type=_limit,
        default=MAX_ATTACKS,
        metavar="N",
        help=f"refuse a file with more than N attacks (default {MAX_ATTACKS})",
    )
    parser.add_argument("--problems", action="store_true", help="list the supported tasks")
    parser.add_argument("--formats", action="store_true", help="list the supported formats")
    return parser


def _limit(text: str) -> int:
    # argparse turns the ArgumentTypeError into a one-line usage error.
    if not (text.isascii() and text.isdigit()) or len(text) > 18 or int(text) < 1:
        raise argparse.ArgumentTypeError(
            f"expected a whole number from 1 to 10**18, got {_excerpt(text)!r}"
        )
    return int(text)


def main(
    argv: Sequence[str] | None = None, *, stdout: TextIO | None = None, stderr: TextIO | None = None
) -> int:
    """Run the command line; returns the exit status (0 answered, 2 refused, 1 pipe closed)."""
    out = stdout if stdout is not None else sys.stdout
    err = stderr if stderr is not None else sys.stderr
    try:
        options = _parser().parse_args(argv)
        for line in _answer(options):
            out.write(line + "\n")
        out.flush()
    except (UsageError, FormatError) as error:
        return _refuse(err, str(error))
    except BrokenPipeError:
        # The reader left (``| head``): not our error, so no message; point stdout at
        # devnull so that the interpreter's final flush does not complain either.
        if out is sys.stdout:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except OSError as error:
        return _refuse(err, _describe_os_error(error))
    except MemoryError:
        # The size limits keep reading bounded; solving a large framework may still not fit.
        return _refuse(err, "out of memory (try a smaller framework or lower --max-arguments)")
    return 0


def solve(af: ArgumentationFramework, *, task: str, query: Hashable | None = None) -> Iterator[str]:
    """The output lines of ``task`` on ``af``, lazily (EE streams its extensions).

    ``query`` must already be an argument of ``af`` for DC/DS tasks.
    """
    kind, semantics = _split_task(task)
    if kind in ("DC", "DS") and query is None:
        raise UsageError(f"task {task} needs a query argument: pass -a ARG")
    witness = _witness_writer(af)
    if kind == "DC":
        result = credulous_acceptance(af, query, semantics)
        yield "YES" if result.accepted else "NO"
        if result.accepted and result.witness is not None:
            yield witness(result.witness)
    elif kind == "DS":
        result = skeptical_acceptance(af, query, semantics)
        yield "YES" if result.accepted else "NO"
        if not result.accepted and result.witness is not None:
            yield witness(result.witness)
    elif kind == "SE":
        extension = some_extension(af, semantics)
        yield "NO" if extension is None else witness(extension)
    elif kind == "EE":
        yield from map(witness, extensions(af, semantics))
    else:
        yield str(count_extensions(af, semantics))


def _answer(options: argparse.Namespace) -> Iterable[str]:
    if options.problems or options.formats:
        lines = []
        if options.problems:
            lines.append(_bracketed(PROBLEMS))
        if options.formats:
            lines.append(_bracketed(CLI_FORMATS))
        return lines
    if options.task is None and options.file is None:
        return [f"{PROG}: pure-Python Dung argumentation solver (ICCMA 2023 interface)"]
    if options.task is None:
        raise UsageError("missing -p TASK (see --problems)")
    _split_task(options.task)  # refuse an unknown task before reading a large file
    if options.file is None:
        raise UsageError("missing -f FILE")
    if options.fmt is not None and options.fmt.lower() not in CLI_FORMATS:
        raise UsageError(f"unknown format {options.fmt!r} (supported: {', '.join(CLI_FORMATS)})")
    limits = SizeLimits(max_arguments=options.max_arguments, max_attacks=options.max_attacks)
    af = read_framework(options.file, fmt=options.fmt, limits=limits)
    query = None if options.query is None else _argument(af, options.query, file=options.file)
    return solve(af, task=options.task, query=query)


def _split_task(task: str) -> tuple[str, str]:
    kind, _, semantics = task.upper().partition("-")
    if kind not in KINDS or semantics not in SEMANTICS:
        raise UsageError(f"unknown task {task!r} (supported: see --problems)")
    return kind, semantics


def _argument(af: ArgumentationFramework, name: str, *, file: str) -> Hashable:
    """The argument called ``name``: ICCMA'23 numbers are ints, apx/tgf names are strings."""
    for argument in af.arguments:
        if str(argument) == name:
            return argument
    digits = name.lstrip("0")
    # "-a 007" for argument 7; a number longer than any id is not read by int() at all.
    if name.isascii() and name.isdigit() and len(digits) <= 18 and int(digits or "0") in af:
        return int(digits)
    raise UsageError(
        f"unknown argument {_excerpt(name)!r}: not in {file} ({len(af.arguments)} arguments)"
    )


def _witness_writer(af: ArgumentationFramework) -> Callable[[Iterable[Hashable]], str]:
    position = {argument: index for index, argument in enumerate(af.arguments)}

    def write(extension: Iterable[Hashable]) -> str:
        names = sorted(extension, key=position.__getitem__)
        return " ".join(["w", *map(str, names)])

    return write


def _bracketed(names: Iterable[str]) -> str:
    return "[" + ",".join(names) + "]"


def _describe_os_error(error: OSError) -> str:
    reason = error.strerror or error.__class__.__name__
    return f"cannot read {error.filename}: {reason}" if error.filename else reason


def _refuse(stream: TextIO, message: str) -> int:
    one_line = " ".join(message.split())
    stream.write(f"{PROG}: error: {one_line}\n")
    stream.flush()
    return EXIT_ERROR
