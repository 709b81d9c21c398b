"""Reading and writing the ICCMA'23, ASPARTIX (apx) and TGF formats."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from argumentation.formats import (
    FormatError,
    format_for_path,
    normalise_format,
    parse_apx,
    parse_framework,
    parse_iccma23,
    parse_tgf,
    read_framework,
    sniff_format,
    write_apx,
    write_framework,
    write_iccma23,
    write_tgf,
)
from argumentation.framework import ArgumentationFramework
from tests.argumentation.iccma_data import MISSING_REASON, original_twins

NAMED = ArgumentationFramework(
    arguments=("b", "a", "c", "self"),
    attacks={("a", "b"), ("b", "a"), ("c", "a"), ("self", "self")},
)


def _same(left: ArgumentationFramework, right: ArgumentationFramework) -> bool:
    """Equal as frameworks AND in argument order (the numbering depends on it)."""
    return left == right and left.arguments == right.arguments


# --- round trips ------------------------------------------------------------------------


@st.composite
def frameworks(draw: st.DrawFn) -> ArgumentationFramework:
    names = draw(
        st.one_of(
            st.lists(st.integers(1, 40), unique=True, max_size=12),
            st.lists(
                st.from_regex(r"[a-z][a-z0-9_]{0,5}", fullmatch=True), unique=True, max_size=12
            ),
        )
    )
    if not names:
        return ArgumentationFramework(arguments=(), attacks=())
    pairs = st.tuples(st.sampled_from(names), st.sampled_from(names))
    return ArgumentationFramework(arguments=names, attacks=draw(st.sets(pairs, max_size=30)))


@given(frameworks())
def test_it_round_trips_apx_and_tgf_with_names_as_strings(af: ArgumentationFramework) -> None:
    as_strings = ArgumentationFramework(
        arguments=[str(a) for a in af.arguments],
        attacks={(str(a), str(b)) for a, b in af.attacks},
    )
    assert _same(parse_apx(write_apx(af)), as_strings)
    assert _same(parse_tgf(write_tgf(af)), as_strings)


@given(frameworks())
def test_it_round_trips_iccma23_keeping_names_in_comments(af: ArgumentationFramework) -> None:
    text = write_iccma23(af)
    numbered = parse_iccma23(text)
    assert len(numbered.arguments) == len(af.arguments)
    assert len(numbered.attacks) == len(af.attacks)
    if all(type(a) is int for a in af.arguments) and set(af.arguments) == set(
        range(1, len(af.arguments) + 1)
    ):
        assert numbered == af
    else:
        named = parse_iccma23(text, names=True)
        assert [str(a) for a in af.arguments] == list(named.arguments)
        assert named.attacks == {(str(a), str(b)) for a, b in af.attacks}


def test_it_writes_iccma23_numbered_in_argument_order_with_name_comments() -> None:
    assert write_iccma23(NAMED) == ("p af 4\n# b\n# a\n# c\n# self\n1 2\n2 1\n3 2\n4 4\n")
    assert _same(parse_iccma23(write_iccma23(NAMED), names=True), NAMED)


def test_it_writes_numbered_frameworks_without_renumbering() -> None:
    af = ArgumentationFramework(arguments=(3, 1, 2), attacks={(3, 1), (2, 2)})
    assert write_iccma23(af) == "p af 3\n2 2\n3 1\n"
    assert parse_iccma23(write_iccma23(af)) == af


def test_it_round_trips_the_empty_framework_in_every_format() -> None:
    empty = ArgumentationFramework(arguments=(), attacks=())
    for fmt in ("iccma23", "apx", "tgf"):
        assert parse_framework(write_framework(empty, fmt=fmt), fmt=fmt) == empty


def test_it_quotes_apx_names_that_are_not_plain_tokens() -> None:
    af = ArgumentationFramework(arguments=("a b", "c.d", "e"), attacks={("a b", "c.d")})
    text = write_apx(af)
    assert 'arg("a b").' in text and 'att("a b","c.d").' in text
    assert _same(parse_apx(text), af)


@pytest.mark.parametrize(
    ("writer", "af"),
    [
        (write_tgf, ArgumentationFramework(arguments=("a b",), attacks=())),
        (write_tgf, ArgumentationFramework(arguments=("#",), attacks=())),
        (write_apx, ArgumentationFramework(arguments=('say "hi"',), attacks=())),
        (write_apx, ArgumentationFramework(arguments=(1, "1"), attacks=())),
        (write_iccma23, ArgumentationFramework(arguments=("two\nlines",), attacks=())),
    ],
)
def test_it_refuses_to_write_names_the_format_cannot_hold(writer, af) -> None:
    with pytest.raises(FormatError):
        writer(af)


# --- what the parsers tolerate ----------------------------------------------------------


def test_it_skips_iccma23_comments_and_blank_lines_anywhere() -> None:
    text = "# made by hand\n\np af 3\n# 1st\n# 2nd\n# 3rd\n1 2\n\n# late comment\n  2 3  \n"
    af = parse_iccma23(text)
    assert af.arguments == (1, 2, 3)
    assert af.attacks == {(1, 2), (2, 3)}
    assert parse_iccma23(text, names=True).arguments == ("1st", "2nd", "3rd")


def test_it_tolerates_apx_whitespace_comments_and_facts_sharing_a_line() -> None:
    text = (
        "% a comment line\n"
        "  arg( a ) .  arg(b).% trailing comment\n"
        "att(b ,a).\n"
        "att( a,\tb ).\n"
        "arg(c).arg(a).\n"
    )
    af = parse_apx(text)
    assert af.arguments == ("a", "b", "c")
    assert af.attacks == {("a", "b"), ("b", "a")}


def test_it_accepts_apx_attacks_before_their_arguments() -> None:
    assert parse_apx("att(x,y).\narg(y).\narg(x).\n").attacks == {("x", "y")}


def test_it_reads_a_tgf_without_attacks() -> None:
    assert parse_tgf("a\nb\n#\n") == ArgumentationFramework(arguments=("a", "b"), attacks=())


# --- errors name their line --------------------------------------------------------------


@pytest.mark.parametrize(
    ("parser", "text", "line", "words"),
    [
        (parse_iccma23, "p af x\n1 2\n", 1, "bad p-line"),
        (parse_iccma23, "# c\np cnf 3\n", 2, "bad p-line"),
        (parse_iccma23, "p af 3 4\n", 1, "bad p-line"),
        (parse_iccma23, "p af -1\n", 1, "bad p-line"),
        (parse_iccma23, "p af 2\n1 2\n2 3\n", 3, "out of range 1..2"),
        (parse_iccma23, "p af 2\n0 1\n", 2, "out of range"),
        (parse_iccma23, "p af 2\n1 2 3\n", 2, "expected an attack"),
        (parse_iccma23, "p af 2\n1 b\n", 2, "expected an attack"),
        (parse_iccma23, "p af 2\n\n1\n", 3, "expected an attack"),
        (parse_iccma23, "p af 2\np af 2\n", 2, "second p-line"),
        (parse_iccma23, "# only\n1 2\n", 2, "missing 'p af N'"),
        (parse_iccma23, "# nothing but comments\n#\n", 2, "missing 'p af N'"),
        (parse_iccma23, "", 1, "missing 'p af N'"),
        (parse_apx, "arg(a).\natt(a,b).\n", 2, "unknown argument 'b'"),
        (parse_apx, "arg(a).\nbanana\n", 2, "expected 'arg(name).'"),
        (parse_apx, "arg(a)\n", 1, "expected 'arg(name).'"),
        (parse_apx, "arg(a,b).\n", 1, "arg(...) takes one name"),
        (parse_apx, "arg(a).\natt(a).\n", 2, "att(...) takes two names"),
        (parse_tgf, "a\nb\n#\na c\n", 4, "unknown argument 'c'"),
        (parse_tgf, "a\nb\n#\na b a\n", 4, "expected an attack"),
        (parse_tgf, "a\nb c\n#\n", 2, "one argument name per line"),
        (parse_tgf, "a\n#\n#\n", 3, "second '#' line"),
        (parse_tgf, "a\nb\n", 2, "missing the '#' line"),
        (parse_tgf, "", 1, "missing the '#' line"),
    ],
)
def test_it_reports_the_line_of_each_format_error(parser, text, line, words) -> None:
    with pytest.raises(FormatError) as caught:
        parser(text)
    assert caught.value.line == line
    assert words in caught.value.message
    assert str(caught.value).startswith(f"line {line}: ")


def test_it_refuses_names_when_the_name_comments_do_not_cover_every_argument() -> None:
    with pytest.raises(FormatError) as caught:
        parse_iccma23("p af 2\n# only-one\n1 2\n", names=True)
    assert caught.value.line == 1
    with pytest.raises(FormatError):
        parse_iccma23("p af 2\n# twin\n# twin\n", names=True)


def test_it_names_the_file_in_errors_read_from_disk(tmp_path: Path) -> None:
    bad = tmp_path / "bad.af"
    bad.write_text("p af 1\n1 1\n2 1\n")
    with pytest.raises(FormatError) as caught:
        read_framework(bad)
    assert caught.value.line == 3
    assert str(caught.value).startswith(f"{bad} line 3: ")


def test_it_reports_binary_files_as_format_errors_with_a_line(tmp_path: Path) -> None:
    binary = tmp_path / "x.af"
    binary.write_bytes(b"p af 1\n\xff\xfe\x00\n")
    with pytest.raises(FormatError) as caught:
        read_framework(binary)
    assert caught.value.line == 2


def test_it_lets_a_missing_file_raise_os_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        read_framework(tmp_path / "absent.af")


# --- choosing the format -----------------------------------------------------------------


def test_it_picks_the_format_from_the_extension_then_from_fmt(tmp_path: Path) -> None:
    apx_text = write_apx(NAMED)
    for suffix in (".apx", ".txt"):
        path = tmp_path / f"f{suffix}"
        path.write_text(apx_text)
        assert read_framework(path) == NAMED
    mislabelled = tmp_path / "f.tgf"
    mislabelled.write_text(apx_text)
    assert read_framework(mislabelled, fmt="apx") == NAMED
    with pytest.raises(FormatError):
        read_framework(mislabelled)


def test_it_reads_multi_line_text_given_instead_of_a_path() -> None:
    assert read_framework("p af 2\n1 2\n", fmt="i23").attacks == {(1, 2)}
    assert read_framework("a\nb\n#\na b\n").attacks == {("a", "b")}


@pytest.mark.parametrize(
    ("text", "fmt"),
    [
        ("# c\np af 1\n", "iccma23"),
        ("% c\narg(a).\n", "apx"),
        ("att(a,b).\n", "apx"),
        ("a\n#\n", "tgf"),
        ("", "iccma23"),
    ],
)
def test_it_sniffs_the_format_of_unlabelled_text(text: str, fmt: str) -> None:
    assert sniff_format(text) == fmt


def test_it_knows_the_iccma_format_aliases_and_extensions() -> None:
    assert {normalise_format(name) for name in ("i23", "AF", "iccma23", ".af")} == {"iccma23"}
    assert format_for_path("x/y.I23") == "iccma23"
    assert format_for_path("y.apx") == "apx" and format_for_path("y.tgf") == "tgf"
    assert format_for_path("y.txt") is None
    with pytest.raises(FormatError):
        normalise_format("dimacs")


# --- the shared ICCMA sample -------------------------------------------------------------

TWINS = original_twins()
# The stored AFGen sample n512p5q2_vh.apx is cut off in the middle of its last fact
# ("att(a194,a2" with no newline); its .af twin was converted from the complete facts.
TRUNCATED = {"n512p5q2_vh.apx"}


@pytest.mark.skipif(not TWINS, reason=MISSING_REASON)
@pytest.mark.parametrize(
    ("original", "twin"), TWINS or [(None, None)], ids=[p[0].name for p in TWINS] or ["none"]
)
def test_it_reads_apx_and_tgf_originals_as_their_converted_af_twins(
    original: Path, twin: Path
) -> None:
    if original.name in TRUNCATED:
        text = original.read_text()
        with pytest.raises(FormatError) as caught:
            read_framework(original)
        assert caught.value.line == len(text.splitlines())
        source = parse_apx(text[: text.rindex("\n") + 1])
    else:
        source = read_framework(original)
    converted = read_framework(twin)
    assert len(source.arguments) == len(converted.arguments)
    assert len(source.attacks) == len(converted.attacks)
    # The twin numbers arguments in the original's declaration order and keeps the
    # names as comments: both views must give back exactly the original framework.
    assert _same(parse_iccma23(twin.read_text(), names=True), source)
    number = {name: position for position, name in enumerate(source.arguments, start=1)}
    assert converted.attacks == {(number[a], number[b]) for a, b in source.attacks}
