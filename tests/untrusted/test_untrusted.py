"""untrusted: ids, JSON bodies and text from outside, read without a server error."""

from __future__ import annotations

import json
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from untrusted import (
    MAX_ID,
    JSONInputError,
    clean_text,
    loads_json,
    parse_id,
    parse_int,
    text_problem,
)


@pytest.mark.parametrize(
    "value",
    ["²", "٣", "９", "-1", "+1", "1_000", "0x10", "1e3", "", " ", "9" * 20, "9" * 5000, 2**63],
)
def test_it_refuses_what_is_not_an_id_a_database_holds(value) -> None:
    assert parse_id(value) is None


@pytest.mark.parametrize("value", [True, False, None, 1.0, [1], {"id": 1}, b"1"])
def test_it_refuses_other_types(value) -> None:
    assert parse_id(value) is None


def test_it_reads_ascii_digits_up_to_the_largest_bigint() -> None:
    assert parse_id(" 42 ") == 42
    assert parse_id("007") == 7
    assert parse_id("0" * 40 + "7") == 7  # leading zeros do not make it long
    assert parse_id(str(MAX_ID)) == MAX_ID
    assert parse_id(str(MAX_ID + 1)) is None
    assert parse_id(0) is None and parse_int(0) == 0 and parse_int("0") == 0
    assert parse_int("5", minimum=1, maximum=4) is None


def test_it_refuses_a_huge_number_without_reading_it(monkeypatch) -> None:
    import untrusted

    converted: list[int] = []

    class CountingInt(int):
        def __new__(cls, text: str) -> CountingInt:
            converted.append(len(text))
            return super().__new__(cls, text)

    # The module's own name `int` is looked up before the builtin: a conversion would show
    # (a subclass, so its isinstance check still reads a string as not an int).
    monkeypatch.setattr(untrusted, "int", CountingInt, raising=False)
    assert parse_int("9" * 1_000_000) is None
    assert converted == []  # refused by its length, never converted
    assert parse_int("12") == 12 and converted == [2]


@given(st.text())
def test_it_never_raises_and_agrees_with_int_on_what_it_accepts(value: str) -> None:
    number = parse_int(value)
    if number is not None:
        assert number == int(value.strip()) and 0 <= number <= MAX_ID


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (b"[" * 5000 + b"]" * 5000, "nested deeper"),
        (b'{"a":' * 5000 + b"1" + b"}" * 5000, "nested deeper"),
        (b"9" * 5000, "not JSON"),
        (b'{"a": 1', "not JSON"),
        (b"\xff\xfe", "not UTF-8"),
        (b'"' + b"x" * 300_000 + b'"', "larger than"),
    ],
)
def test_it_refuses_bodies_it_cannot_use_with_a_reason(body: bytes, reason: str) -> None:
    with pytest.raises(JSONInputError, match=reason):
        loads_json(body)


def test_it_does_not_count_brackets_inside_strings() -> None:
    text = json.dumps({"message": "[" * 1000 + '\\"{' * 100, "nested": [[[1]]]})
    assert loads_json(text)["nested"] == [[[1]]]
    assert loads_json(b"[[[1]]]", max_depth=3) == [[[1]]]
    with pytest.raises(JSONInputError):
        loads_json(b"[[[[1]]]]", max_depth=3)


def test_it_scans_an_unterminated_string_in_linear_time() -> None:
    started = time.perf_counter()
    for body in ('"' + '\\"' * 80_000 + "\\", '"' * 200_000, '["]"' * 60_000):
        with pytest.raises(JSONInputError):
            loads_json(body)
    assert time.perf_counter() - started < 1.0


@pytest.mark.parametrize("value", ["a\x00b", "\ud800", "x\udfffy"])
def test_it_names_what_a_database_cannot_store(value: str) -> None:
    assert text_problem(value)
    assert text_problem(clean_text(value)) is None


def test_it_keeps_storable_text_as_it_is() -> None:
    text = "Emoji 😀, accents é, RTL \u202e, BOM \ufeff"
    assert text_problem(text) is None and clean_text(text) is text
    assert clean_text("a\x00b\ud800c") == "ab\ufffdc"


@given(st.text(st.characters(codec=None, exclude_categories=())))
def test_it_always_cleans_to_encodable_text(value: str) -> None:
    assert "\x00" not in clean_text(value)
    clean_text(value).encode("utf-8")
