"""The result page shows the camps as one table: disputed arguments x camps, shared ground once."""

from __future__ import annotations

import json
import re
from html import unescape
from types import SimpleNamespace

import pytest

from debates.demo import DEMO_FIXTURE, import_debate
from debates.presenters import camp_matrix
from engine.models import Debate


def _rows(keys):
    return [SimpleNamespace(key=key) for key in keys]


def test_it_splits_three_camps_into_shared_ground_and_a_matrix() -> None:
    camps = [["A1", "A2", "A9", "A10"], ["A1", "A3", "A9", "A10"], ["A2", "A3", "A9", "A10"]]
    shown = camp_matrix(camps=camps, common_ground=["A9"], rows=_rows)
    assert [a.key for a in shown["shared"]] == ["A10"]  # A9 is already the common ground
    assert [a.key for a in shown["disputed"]] == ["A1", "A2", "A3"]
    assert [(row["argument"].key, row["cells"]) for row in shown["matrix"]] == [
        ("A1", [True, True, False]),
        ("A2", [True, False, True]),
        ("A3", [False, True, True]),
    ]
    assert shown["camps"] == [
        {"number": 1, "size": 4},
        {"number": 2, "size": 4},
        {"number": 3, "size": 4},
    ]


def test_it_disputes_nothing_with_one_camp() -> None:
    shown = camp_matrix(camps=[["A1", "A2"]], common_ground=["A1"], rows=_rows)
    assert shown["matrix"] == [] and [a.key for a in shown["shared"]] == ["A2"]
    assert camp_matrix(camps=[], common_ground=[], rows=_rows)["matrix"] == []


@pytest.fixture
def demo(ada):
    return import_debate(data=json.loads(DEMO_FIXTURE.read_text()), is_demo=True)


def _section(html: str, name: str) -> str:
    return re.search(rf'<section class="{name}">(.*?)</section>', html, re.S).group(1)


@pytest.mark.django_db
def test_it_shows_eight_camps_as_one_table_of_the_arguments_they_dispute(client, demo) -> None:
    camps = demo.output["camps"]
    assert len(camps) == 8  # the demo's eight near-identical camps of seven arguments
    every = set.intersection(*map(set, camps))
    disputed = sorted(set().union(*camps) - every, key=lambda k: int(k[1:]))
    html = client.get(f"/debates/{demo.pk}/").content.decode()
    section = _section(html, "camps")

    header = re.search(r"<thead>(.*?)</thead>", section, re.S).group(1)
    assert [int(n) for n in re.findall(r"Camp (\d+)", header)] == list(range(1, 9))
    assert header.count("7 arguments") == 8
    rows = re.findall(r"<tr><th scope=\"row\">(.*?)</tr>", section, re.S)
    keys = [re.search(r'class="arg-key">(A\d+)<', row).group(1) for row in rows]
    assert keys == disputed
    for key, row in zip(keys, rows, strict=True):
        cells = re.findall(r'<td class="(in|out)">', row)
        assert cells == ["in" if key in camp else "out" for camp in camps]
    # What every camp holds is the common ground here: said once, not in every camp.
    claims = dict(demo.arguments.values_list("key", "claim"))
    common = unescape(_section(html, "common-ground"))
    for key in every:
        assert claims[key] in common and claims[key] not in unescape(section)
    assert f"{len(disputed)} disputed arguments:" in unescape(section)


@pytest.mark.django_db
def test_it_counts_in_the_singular_when_there_is_one(client, demo) -> None:
    output = {
        **demo.output,
        "commonGround": [],
        "camps": [["A1"], ["A3"]],
        "cruxes": [
            {
                "assumption": "Cars are needed",
                "settlingQuestion": "Are they?",
                "dependentArguments": ["A1"],
                "dependents": 1,
                "attackDegree": 2,
            }
        ],
    }
    Debate.objects.filter(pk=demo.pk).update(output=output)
    text = " ".join(unescape(client.get(f"/debates/{demo.pk}/").content.decode()).split())
    assert "1 disputed argument depends on it" in text
    assert "1 argument</span>" in text
    assert "2 disputed arguments:" in text
    assert not re.search(r"\b1 (disputed )?arguments\b", text)
