"""The ICCMA-style command line, driven as a user drives it: ``python -m argumentation``.

Expected answers come from probo's extension enumerations in the shared ICCMA sample,
mapped onto the ICCMA'23 numbering through the ``# name`` comments of the .af twins.
"""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from argumentation.cli import CLI_FORMATS, PROBLEMS, main
from argumentation.formats import parse_iccma23
from tests.argumentation.iccma_data import MISSING_REASON, REPO_ROOT, iccma_dir, probo_solutions

ICCMA = iccma_dir()
needs_sample = pytest.mark.skipif(ICCMA is None, reason=MISSING_REASON)


def run(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "argumentation", *map(str, args)],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def run_inline(*args: str | Path) -> tuple[int, str, str]:
    """The same entry point in-process, for sweeps where 25 interpreters would be slow."""
    out, err = io.StringIO(), io.StringIO()
    status = main([str(a) for a in args], stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def witnesses(stdout: str) -> list[frozenset[str]]:
    lines = stdout.splitlines()
    assert all(line == "w" or line.startswith("w ") for line in lines), stdout
    return [frozenset(line.split()[1:]) for line in lines]


def numbered_solutions(example: str, semantics: str) -> set[frozenset[str]]:
    """probo's named extensions of ``example`` as sets of ICCMA'23 argument numbers."""
    names = parse_iccma23(_af(example).read_text(), names=True).arguments
    number = {name: str(position) for position, name in enumerate(names, start=1)}
    return {frozenset(number[a] for a in ext) for ext in probo_solutions()[(example, semantics)]}


def _af(example: str) -> Path:
    assert ICCMA is not None
    return ICCMA / "iccma23_format" / f"{example}.af"


# --- listing ----------------------------------------------------------------------------


def test_it_lists_problems_and_formats_as_bracketed_comma_lists() -> None:
    problems = run("--problems")
    assert problems.returncode == 0 and problems.stderr == ""
    assert problems.stdout == "[" + ",".join(PROBLEMS) + "]\n"
    listed = problems.stdout.strip()[1:-1].split(",")
    for kind in ("DC", "DS", "SE", "EE", "CE"):
        for semantics in ("CO", "PR", "ST", "SST", "GR"):
            assert f"{kind}-{semantics}" in listed
    formats = run("--formats")
    assert formats.returncode == 0
    assert formats.stdout.strip()[1:-1].split(",") == list(CLI_FORMATS) == ["i23", "apx", "tgf"]


def test_it_names_itself_when_called_without_options() -> None:
    bare = run()
    assert bare.returncode == 0 and bare.stdout.strip() and bare.stderr == ""


# --- answers on probo's ex3 (10 arguments, two preferred = two stable extensions) --------


@needs_sample
def test_it_enumerates_the_two_preferred_extensions_of_ex3() -> None:
    result = run("-p", "EE-PR", "-f", _af("ex3"), "-fo", "i23")
    assert result.returncode == 0 and result.stderr == ""
    found = witnesses(result.stdout)
    assert len(found) == len(set(found)) == 2
    assert set(found) == numbered_solutions("ex3", "PR")


@needs_sample
@pytest.mark.parametrize("semantics", ["CO", "GR", "PR", "ST"])
def test_it_enumerates_and_counts_every_probo_solution(semantics: str) -> None:
    for example in ("ex1", "ex2", "ex3"):
        expected = numbered_solutions(example, semantics)
        status, out, err = run_inline("-p", f"EE-{semantics}", "-f", _af(example))
        assert (status, err) == (0, "")
        assert sorted(witnesses(out), key=sorted) == sorted(expected, key=sorted)
        status, out, _ = run_inline("-p", f"CE-{semantics}", "-f", _af(example))
        assert (status, out) == (0, f"{len(expected)}\n")


@needs_sample
def test_it_prints_ex3_exactly_in_the_iccma23_layout() -> None:
    preferred = numbered_solutions("ex3", "PR")
    in_some = set().union(*preferred)
    in_all = set.intersection(*map(set, preferred))
    outside = next(a for a in map(str, range(1, 11)) if a not in in_some)
    doubtful = sorted(in_some - in_all)[0]

    credulous_yes = run("-p", "DC-PR", "-f", _af("ex3"), "-a", doubtful)
    assert credulous_yes.stdout.splitlines()[0] == "YES"
    (witness,) = witnesses("\n".join(credulous_yes.stdout.splitlines()[1:]))
    assert doubtful in witness and witness in preferred

    assert run("-p", "DC-PR", "-f", _af("ex3"), "-a", outside).stdout == "NO\n"

    skeptical_no = run("-p", "DS-PR", "-f", _af("ex3"), "-a", doubtful)
    assert skeptical_no.stdout.splitlines()[0] == "NO"
    (counter,) = witnesses("\n".join(skeptical_no.stdout.splitlines()[1:]))
    assert doubtful not in counter and counter in preferred

    skeptical_yes = run("-p", "DS-PR", "-f", _af("ex3"), "-a", sorted(in_all)[0])
    assert skeptical_yes.stdout == "YES\n"

    some = run("-p", "SE-ST", "-f", _af("ex3"))
    (stable,) = witnesses(some.stdout)
    assert stable in numbered_solutions("ex3", "ST")
    assert witnesses(run("-p", "SE-GR", "-f", _af("ex3")).stdout) == list(
        numbered_solutions("ex3", "GR")
    )


@needs_sample
@pytest.mark.parametrize("task", ["DC", "DS"])
def test_it_agrees_with_probo_on_every_argument_of_every_example(task: str) -> None:
    for example in ("ex1", "ex2", "ex3"):
        for semantics in ("CO", "PR", "ST", "GR"):
            solutions = numbered_solutions(example, semantics)
            for argument in {a for ext in solutions for a in ext} | {"1", "2", "5"}:
                status, out, _ = run_inline(
                    "-p", f"{task}-{semantics}", "-f", _af(example), "-a", argument
                )
                lines = out.splitlines()
                if task == "DC":
                    accepted = any(argument in ext for ext in solutions)
                else:
                    accepted = all(argument in ext for ext in solutions)
                assert status == 0
                assert lines[0] == ("YES" if accepted else "NO")
                if lines[1:]:
                    (witness,) = witnesses("\n".join(lines[1:]))
                    assert witness in solutions
                    assert (argument in witness) is (task == "DC")
                else:
                    assert accepted is (task == "DS")


@needs_sample
def test_it_answers_in_argument_names_for_apx_and_tgf_files() -> None:
    assert ICCMA is not None
    stable = probo_solutions()[("ex1", "ST")]
    for file, fmt in (("ex1.apx", "apx"), ("ex1.tgf", "tgf")):
        result = run("-p", "DC-ST", "-f", ICCMA / "probo_examples" / file, "-fo", fmt, "-a", "a2")
        assert result.stdout.splitlines()[0] == "YES"
        (witness,) = witnesses("\n".join(result.stdout.splitlines()[1:]))
        assert "a2" in witness and witness in stable


def test_it_says_no_when_there_is_no_stable_extension(tmp_path: Path) -> None:
    odd = tmp_path / "odd.af"
    odd.write_text("p af 3\n1 2\n2 3\n3 1\n")
    assert run_inline("-p", "SE-ST", "-f", odd) == (0, "NO\n", "")
    assert run_inline("-p", "EE-ST", "-f", odd) == (0, "", "")
    assert run_inline("-p", "CE-ST", "-f", odd) == (0, "0\n", "")
    assert run_inline("-p", "SE-GR", "-f", odd) == (0, "w\n", "")
    assert run_inline("-p", "EE-GR", "-f", odd) == (0, "w\n", "")
    assert run_inline("-p", "CE-GR", "-f", odd) == (0, "1\n", "")
    # No stable extension at all: every argument is vacuously skeptically accepted.
    assert run_inline("-p", "DS-ST", "-f", odd, "-a", "2") == (0, "YES\n", "")
    assert run_inline("-p", "DC-ST", "-f", odd, "-a", "2") == (0, "NO\n", "")


def test_it_stops_quietly_when_the_reader_closes_the_pipe(tmp_path: Path) -> None:
    # 16 independent mutual attacks: 2**16 preferred extensions, far more than a pipe holds.
    pairs = tmp_path / "pairs.af"
    pairs.write_text("p af 32\n" + "".join(f"{i} {i + 1}\n{i + 1} {i}\n" for i in range(1, 32, 2)))
    solver = subprocess.Popen(
        [sys.executable, "-m", "argumentation", "-p", "EE-PR", "-f", str(pairs)],
        cwd=REPO_ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert solver.stdout is not None and solver.stderr is not None
    assert solver.stdout.readline().startswith("w ")
    solver.stdout.close()
    assert solver.wait(timeout=60) == 1
    assert solver.stderr.read() == ""


def test_it_accepts_every_listed_problem(tmp_path: Path) -> None:
    small = tmp_path / "small.af"
    small.write_text("p af 3\n1 2\n2 1\n2 3\n")
    for problem in PROBLEMS:
        status, out, err = run_inline("-p", problem, "-f", small, "-a", "1")
        assert (status, err) == (0, ""), problem
        assert out.endswith("\n"), problem


# --- refusals: one line on stderr, exit status 2, never a traceback ----------------------


def _refusal(result: subprocess.CompletedProcess[str], *words: str) -> None:
    assert result.returncode == 2, result
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    assert len(result.stderr.splitlines()) == 1 and result.stderr.endswith("\n")
    for word in words:
        assert word in result.stderr


@pytest.fixture
def good(tmp_path: Path) -> Path:
    path = tmp_path / "good.af"
    path.write_text("p af 2\n1 2\n")
    return path


def test_it_refuses_a_missing_file(tmp_path: Path) -> None:
    _refusal(run("-p", "SE-PR", "-f", tmp_path / "absent.af"), "absent.af", "No such file")


def test_it_refuses_a_malformed_file_naming_the_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.af"
    bad.write_text("p af 2\n1 2\n1 3\n")
    _refusal(run("-p", "SE-PR", "-f", bad), "bad.af", "line 3", "out of range")
    garbage = tmp_path / "garbage.apx"
    garbage.write_text("arg(a).\nhello world\n")
    _refusal(run("-p", "SE-PR", "-f", garbage), "line 2")


def test_it_refuses_a_file_in_another_format_than_declared(good: Path) -> None:
    _refusal(run("-p", "SE-PR", "-f", good, "-fo", "apx"), "line 1")
    _refusal(run("-p", "SE-PR", "-f", good, "-fo", "dimacs"), "unknown format")


@pytest.mark.parametrize("task", ["XX-CO", "DC-XX", "DC", "SE-PR-CO", ""])
def test_it_refuses_an_unknown_task(good: Path, task: str) -> None:
    _refusal(run("-p", task, "-f", good, "-a", "1"), "unknown task")


def test_it_refuses_an_unknown_or_missing_query_argument(good: Path) -> None:
    _refusal(run("-p", "DC-CO", "-f", good, "-a", "3"), "unknown argument '3'")
    _refusal(run("-p", "DC-CO", "-f", good, "-a", "one"), "unknown argument")
    _refusal(run("-p", "DS-PR", "-f", good), "-a")


@pytest.mark.parametrize(
    "args",
    [["--bogus"], ["-p"], ["-p", "SE-PR"], ["-f", "x.af"], ["-p", "SE-PR", "-f"]],
    ids=["unknown-option", "p-without-value", "no-file", "no-task", "f-without-value"],
)
def test_it_refuses_bad_command_lines_in_one_line(args: list[str]) -> None:
    _refusal(run(*args))


# --- size limits: a small file cannot demand gigabytes -------------------------------------

HUGE = "9" * 5000


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("p af 1000000000\n", ["more than 200000 arguments", "--max-arguments"]),
        ("p af 99999999999999999999\n", ["more than 200000 arguments"]),
        (f"p af {HUGE}\n", ["more than 200000 arguments", "(5000 characters)"]),
        (f"p af 2\n1 {HUGE}\n", ["line 2", "out of range 1..2"]),
        ("p af 2\n0 1\n", ["line 2", "out of range 1..2"]),
    ],
    ids=["billion", "20-digits", "5000-digit-n", "5000-digit-id", "zero-id"],
)
def test_it_refuses_frameworks_over_the_limit_or_out_of_range(
    tmp_path: Path, content: str, words: list[str]
) -> None:
    path = tmp_path / "big.af"
    path.write_text(content)
    _refusal(run("-p", "SE-PR", "-f", path), *words)


def test_it_counts_arguments_and_attacks_in_every_format(tmp_path: Path) -> None:
    files = {
        "f.af": "p af 3\n1 2\n2 3\n",
        "f.apx": "arg(a).\narg(b).\narg(c).\natt(a,b).\natt(b,c).\n",
        "f.tgf": "a\nb\nc\n#\na b\nb c\n",
    }
    for name, content in files.items():
        path = tmp_path / name
        path.write_text(content)
        assert run_inline("-p", "SE-GR", "-f", path, "--max-arguments", "3")[0] == 0
        status, out, err = run_inline("-p", "SE-GR", "-f", path, "--max-arguments", "2")
        assert (status, out) == (2, "") and "more than 2 arguments" in err, name
        status, out, err = run_inline("-p", "SE-GR", "-f", path, "--max-attacks", "1")
        assert (status, out) == (2, "") and "more than 1 attacks" in err, name


@pytest.mark.parametrize("value", ["0", "-5", "²", HUGE])
def test_it_refuses_a_limit_that_is_not_a_count(good: Path, value: str) -> None:
    _refusal(run("-p", "SE-PR", "-f", good, "--max-arguments", value), "--max-arguments")


def test_it_refuses_a_query_argument_of_thousands_of_digits(good: Path) -> None:
    _refusal(run("-p", "DC-CO", "-f", good, "-a", HUGE), "unknown argument", "(5000 characters)")
