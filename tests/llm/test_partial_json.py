import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from llm import partial_json_string_field

FIELD = "assistantText"


def decode(text: str) -> str | None:
    return partial_json_string_field(text, FIELD)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "[",
        '"assistantText"',
        "{",
        '{"assistant',
        '{"assistantText"',
        '{"assistantText" ',
        '{"assistantText":',
        '{"assistantText": ',
        '{"assistantText": null}',
        '{"assistantText": 42}',
        '{"other": "x"}',
    ],
)
def test_it_returns_none_until_the_string_value_starts(text):
    assert decode(text) is None


def test_it_returns_the_empty_string_once_the_opening_quote_arrives():
    assert decode('{"assistantText": "') == ""


def test_it_decodes_a_complete_value_like_json_loads():
    doc = json.dumps({"step": 2, FIELD: 'say "why"\\ \n\t/ caf\u00e9 \U0001f600', "z": [1]})
    assert decode(doc) == json.loads(doc)[FIELD]


def test_it_ignores_the_field_name_inside_another_string():
    doc = '{"note": "the \\"assistantText\\": \\"fake\\" trick", "assistantText": "real"}'
    assert decode(doc) == "real"
    assert decode(doc[: doc.index("real")]) == ""


def test_it_ignores_the_field_inside_nested_objects_and_arrays():
    doc = json.dumps(
        {
            "nested": {FIELD: "inner", "deeper": [{"x": "}]{["}]},
            "list": ["assistantText", {FIELD: "no"}],
            FIELD: "outer",
        }
    )
    assert decode(doc) == "outer"
    cut_inside_nested = doc[: doc.index("inner") + 3]
    assert decode(cut_inside_nested) is None


def test_it_reads_the_field_after_scalars_of_every_kind():
    doc = '{"a": true, "b": false, "c": null, "d": -1.5e3, "assistantText": "ok"}'
    assert decode(doc) == "ok"


def test_it_waits_for_a_number_that_may_still_grow():
    assert decode('{"step": 12') is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"assistantText": "ab\\', "ab"),
        ('{"assistantText": "ab\\u', "ab"),
        ('{"assistantText": "ab\\u00', "ab"),
        ('{"assistantText": "ab\\u00e9', "ab\u00e9"),
        ('{"assistantText": "ab\\"', 'ab"'),
    ],
)
def test_it_leaves_out_an_incomplete_trailing_escape(text, expected):
    assert decode(text) == expected


@pytest.mark.parametrize(
    "tail", ["", "\\", "\\u", "\\ud", "\\ude", "\\ude0"], ids=lambda tail: tail or "nothing"
)
def test_it_holds_back_a_high_surrogate_until_its_partner_is_complete(tail):
    assert decode('{"assistantText": "x\\ud83d' + tail) == "x"


def test_it_joins_a_surrogate_pair():
    assert decode('{"assistantText": "x\\ud83d\\ude00') == "x\U0001f600"


def test_it_keeps_a_lone_surrogate_like_json_loads():
    doc = '{"assistantText": "x\\ud83d\\n"}'
    assert decode(doc) == json.loads(doc)[FIELD]


def test_it_does_not_guess_past_a_malformed_escape():
    assert decode('{"assistantText": "ab\\q more"}') == "ab"


def test_it_tolerates_whitespace_and_pretty_printing():
    doc = json.dumps({"step": 1, FIELD: "hi there"}, indent=2)
    assert decode(doc) == "hi there"


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=15), children, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=150, deadline=None)
@given(
    value=st.text(alphabet=st.characters(exclude_categories=())),
    before=st.dictionaries(st.text(max_size=15), json_values, max_size=3),
    after=st.dictionaries(st.text(max_size=15), json_values, max_size=3),
    ensure_ascii=st.booleans(),
    indent=st.sampled_from([None, 1]),
)
def test_it_decodes_every_prefix_to_a_prefix_of_the_final_value(
    value, before, after, ensure_ascii, indent
):
    obj = {k: v for k, v in before.items() if k != FIELD}
    obj[FIELD] = value
    obj.update({k: v for k, v in after.items() if k != FIELD})
    doc = json.dumps(obj, ensure_ascii=ensure_ascii, indent=indent)
    final = json.loads(doc)[FIELD]

    previous = ""
    for end in range(len(doc) + 1):
        decoded = decode(doc[:end])
        if decoded is None:
            assert previous == "", "the value never disappears once it started"
            continue
        assert final.startswith(decoded)
        assert decoded.startswith(previous)
        previous = decoded
    assert previous == final
