"""`python manage.py mcp` through the `mcp` client over stdio, as an MCP client would use it."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from tests.trials import phase_data
from trials import prompts

REPO = Path(__file__).resolve().parents[2]
QUERY = "Should cities replace car lanes with bus lanes?"
TOOLS = {
    "initiate_toulmin_sequence",
    "inject_logic_bridge",
    "stress_test_argument",
    "render_verdict",
    "check_phase",
}


def _components(*outputs: dict) -> dict[str, str]:
    return {key: json.dumps(value) for out in outputs for key, value in out.items()}


P1, P2, P3 = phase_data.phase1(), phase_data.phase2(), phase_data.phase3()
# (tool, arguments) of every call the tests below look at, made in one server session.
CALLS: dict[str, tuple[str, dict[str, Any]]] = {
    "phase1": ("initiate_toulmin_sequence", {"query": QUERY}),
    "phase2": ("inject_logic_bridge", {"query": QUERY, **_components(P1)}),
    "phase3": ("stress_test_argument", {"query": QUERY, **_components(P1, P2)}),
    "phase4": ("render_verdict", {"query": QUERY, **_components(P1, P2, P3)}),
    "phase2_objects": ("inject_logic_bridge", {"query": QUERY, **P1}),
    "missing": ("render_verdict", {"query": QUERY, **_components(P1)}),
    "invalid": ("inject_logic_bridge", {"query": " ", "data": "{", "claim": '{"scope": "x"}'}),
    "good_phase": ("check_phase", {"phase": 1, "json": json.dumps(P1)}),
    "breaker": (
        "check_phase",
        {
            "phase": "inject_logic_bridge",
            "json": json.dumps(phase_data.phase2(warrant_strength="weak")),
        },
    ),
    "rule_broken": (
        "check_phase",
        {
            "phase": 4,
            "json": json.dumps(phase_data.phase4(status="sustained")),
            **_components(phase_data.phase3(rebuttal_strength="absolute")),
        },
    ),
    "good_verdict": (
        "check_phase",
        {"phase": "4", "json": json.dumps(phase_data.phase4()), **_components(P3)},
    ),
    "verdict_without_context": (
        "check_phase",
        {"phase": 4, "json": json.dumps(phase_data.phase4())},
    ),
    "unknown_phase": ("check_phase", {"phase": 7, "json": "{}"}),
}


async def _session() -> dict[str, Any]:
    server = StdioServerParameters(
        command=sys.executable,
        args=["manage.py", "mcp"],
        cwd=str(REPO),
        env={
            "SECRET_KEY": os.environ.get("SECRET_KEY") or "mcp-test-only-key",
            "DJANGO_SETTINGS_MODULE": "config.settings",
        },
    )
    async with Client(server, read_timeout_seconds=30) as client:
        tools = await client.list_tools()
        results = {name: await client.call_tool(tool, args) for name, (tool, args) in CALLS.items()}
    return {"tools": tools.tools, **results}


@pytest.fixture(scope="module")
def session() -> dict[str, Any]:
    # A thread of its own: the browser tests leave Playwright's event loop
    # running in the main thread, where asyncio.run() would refuse to start.
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, asyncio.wait_for(_session(), timeout=60)).result()


def _text(result) -> str:
    assert len(result.content) == 1
    return result.content[0].text


def test_it_lists_the_five_tools_with_their_inputs(session):
    tools = {tool.name: tool for tool in session["tools"]}

    assert set(tools) == TOOLS
    assert list(tools["render_verdict"].input_schema["properties"]) == [
        "query",
        "data",
        "claim",
        "warrant",
        "backing",
        "rebuttal",
        "qualifier",
    ]
    assert list(tools["check_phase"].input_schema["properties"])[:2] == ["phase", "json"]
    assert all(tool.description for tool in tools.values())


def test_each_tool_returns_the_chains_own_prompt(session):
    c1, c2, c3 = _components(P1), _components(P1, P2), _components(P1, P2, P3)
    expected = {
        "phase1": prompts.initiate_toulmin_sequence(query=QUERY),
        "phase2": prompts.inject_logic_bridge(query=QUERY, **c1),
        "phase3": prompts.stress_test_argument(query=QUERY, **c2),
        "phase4": prompts.render_verdict(query=QUERY, **c3),
    }
    for name, prompt in expected.items():
        assert not session[name].is_error
        assert _text(session[name]) == prompt.text
    # The components may also be sent as JSON objects.
    assert _text(session["phase2_objects"]) == expected["phase2"].text


def test_it_answers_missing_and_invalid_inputs_in_the_error_format(session):
    missing = json.loads(_text(session["missing"]))
    invalid = json.loads(_text(session["invalid"]))

    assert session["missing"].is_error and session["invalid"].is_error
    assert set(missing) == {"error", "missing"}
    assert missing["missing"] == ["warrant", "backing", "rebuttal", "qualifier"]
    assert invalid["missing"] == ["query", "data", "claim.statement", "claim.scope"]
    assert "not valid JSON" in invalid["error"]


def test_check_phase_accepts_a_good_phase_and_names_the_next_tool(session):
    good = json.loads(_text(session["good_phase"]))
    verdict = json.loads(_text(session["good_verdict"]))

    assert good["valid"] is True and good["next"] == "inject_logic_bridge"
    assert good["output"] == P1
    assert verdict["valid"] is True and verdict["verdict"] == "sustained"
    assert verdict["next"] is None


def test_check_phase_reports_the_circuit_breaker(session):
    answer = json.loads(_text(session["breaker"]))

    assert answer["valid"] is True and answer["terminated"] is True
    assert answer["next"] is None
    assert "The warrant is weak" in answer["reason"]


def test_check_phase_rejects_a_rule_breaking_phase(session):
    answer = json.loads(_text(session["rule_broken"]))

    assert not session["rule_broken"].is_error
    assert answer["valid"] is False
    assert answer["rules"] == ["rebuttal_absolute_requires_overruled"]
    assert answer["missing"] == ["verdict.status"]


def test_check_phase_needs_phase_3_to_judge_a_verdict_and_a_known_phase(session):
    without_context = json.loads(_text(session["verdict_without_context"]))
    unknown = json.loads(_text(session["unknown_phase"]))

    assert session["verdict_without_context"].is_error
    assert without_context["missing"] == ["rebuttal", "qualifier"]
    assert session["unknown_phase"].is_error and unknown["missing"] == ["phase"]
