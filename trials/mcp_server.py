"""The trial chain as MCP tools: four prompt builders and one checker, no model calls.

An MCP client runs the chain itself: it calls `initiate_toulmin_sequence`,
gives the returned prompt to its own model, checks the reply with
`check_phase`, passes the checked components to the next tool, and so on.
The prompts are the chain's own (`trials.prompts`) and `check_phase` applies
the chain's own checks (`trials.checks`), so a client that follows the tools
holds its model to the same rules as the web app: the circuit breaker after
phase 2, the verdict rules at phase 4.

Tool inputs are the JSON strings of earlier phases' components (a JSON
object is accepted too). Missing or invalid inputs answer
`{"error": str, "missing": [paths]}` as an error result (`isError`), so a
calling model sees exactly what to fix. That is why every parameter has a
default: a missing one must reach the tool and be answered in that format,
not be refused by the SDK's argument validation in a format of its own.

Django-free: `python manage.py mcp` only starts `build_server()` on stdio.
"""

from __future__ import annotations

import json as jsonlib
from typing import Annotated, Any

from mcp.server import MCPServer
from mcp_types import CallToolResult, TextContent
from pydantic import Field

from argumentation.toulmin import Backing, Warrant
from argumentation.toulmin_rules import circuit_breaker
from trials import prompts
from trials.checks import check_output
from trials.inputs import PhaseInputError, input_error, parse_components
from trials.phases import PHASES, get_phase

__all__ = ["SERVER_NAME", "build_server", "check_phase"]

SERVER_NAME = "argue-trial"

# A component may come as a JSON string (the documented form) or as the object itself.
Component = Annotated[str | dict[str, Any], Field(description="JSON string of the component.")]
Query = Annotated[str, Field(description="The argument or question under trial.")]

_INSTRUCTIONS = (
    "Put an argument on trial in four phases. For each phase, call its tool to get a "
    "prompt, have a model answer it with one JSON object, and validate that object with "
    "check_phase before passing its components (as JSON strings) to the next tool. Stop "
    "when check_phase says the trial is terminated (phase 2) or gives the verdict (phase 4)."
)


def _as_text(value: object) -> object:
    """Components arrive as JSON strings; an object is re-serialised so one parser reads both."""
    return jsonlib.dumps(value) if isinstance(value, dict) else value


def _error(response: dict[str, object]) -> CallToolResult:
    return CallToolResult(
        content=[TextContent(type="text", text=jsonlib.dumps(response, ensure_ascii=False))],
        structured_content=response,
        is_error=True,
    )


def _prompt(builder, **inputs: object) -> str | CallToolResult:
    try:
        return builder(**{name: _as_text(value) for name, value in inputs.items()}).text
    except PhaseInputError as error:
        return _error(error.response)


def check_phase(
    *,
    phase: object,
    output: object,
    rebuttal: object = "",
    qualifier: object = "",
) -> dict[str, Any]:
    """Check one phase's output against the schemas and the rules.

    Returns `{"valid": True, "phase", "tool", "output", "next", "terminated",
    "reason", "verdict"}` or `{"valid": False, "phase", "error", "missing",
    "rules"}`. Raises PhaseInputError when the check itself cannot run (an
    unknown phase, no output, phase 4 without a valid rebuttal and qualifier).
    """
    spec = get_phase(phase) if isinstance(phase, int | str) else None
    if spec is None:
        names = ", ".join(f"{p.number} ({p.tool})" for p in PHASES)
        raise input_error([f"phase: unknown phase {phase!r}; the phases are {names}"], ["phase"])
    text = _as_text(output)
    if not isinstance(text, str) or not text.strip():
        raise input_error([f"json: required (the output of phase {spec.number})"], ["json"])
    context: dict[str, Any] = {}
    if spec.number == 4:
        # The verdict rules weigh the verdict against phase 3: without it they cannot run.
        context, problems, missing = parse_components(
            names=("rebuttal", "qualifier"),
            components={"rebuttal": _as_text(rebuttal), "qualifier": _as_text(qualifier)},
        )
        if problems:
            raise input_error(problems, missing)
    check = check_output(phase=spec, text=text, context=context)
    if not check.ok:
        return {"valid": False, "phase": spec.number, **check.response()}
    assert check.output is not None
    answer: dict[str, Any] = {
        "valid": True,
        "phase": spec.number,
        "tool": spec.tool,
        "output": check.output.model_dump(mode="json"),
        "next": PHASES[spec.number].tool if spec.number < len(PHASES) else None,
        "terminated": False,
        "reason": None,
        "verdict": None,
    }
    if spec.number == 2:
        warrant, backing = check.output.warrant, check.output.backing
        assert isinstance(warrant, Warrant) and isinstance(backing, Backing)
        breaker = circuit_breaker(warrant=warrant, backing=backing)
        if breaker.terminated:
            answer.update(terminated=True, reason=breaker.reason, next=None)
    if spec.number == 4:
        answer["verdict"] = answer["output"]["verdict"]["status"]
    return answer


def build_server() -> MCPServer:
    """The MCP server with the five trial tools."""
    server = MCPServer(SERVER_NAME, instructions=_INSTRUCTIONS)

    @server.tool(structured_output=False)
    def initiate_toulmin_sequence(query: Query = "") -> str | CallToolResult:
        """Phase 1 of 4. Returns the prompt that asks a model for the data and the claim
        of the query, as {"data": Data, "claim": Claim}. Calls no model."""
        return _prompt(prompts.initiate_toulmin_sequence, query=query)

    @server.tool(structured_output=False)
    def inject_logic_bridge(
        query: Query = "", data: Component = "", claim: Component = ""
    ) -> str | CallToolResult:
        """Phase 2 of 4. Returns the prompt that asks a model for the warrant and its backing,
        as {"warrant": Warrant, "backing": Backing}. A weak or irrelevant warrant or backing
        ends the trial after this phase (check_phase says so). Calls no model."""
        return _prompt(prompts.inject_logic_bridge, query=query, data=data, claim=claim)

    @server.tool(structured_output=False)
    def stress_test_argument(
        query: Query = "",
        data: Component = "",
        claim: Component = "",
        warrant: Component = "",
        backing: Component = "",
    ) -> str | CallToolResult:
        """Phase 3 of 4. Returns the prompt that asks a model for the rebuttal and the
        qualifier, as {"rebuttal": Rebuttal, "qualifier": Qualifier}. Calls no model."""
        return _prompt(
            prompts.stress_test_argument,
            query=query,
            data=data,
            claim=claim,
            warrant=warrant,
            backing=backing,
        )

    @server.tool(structured_output=False)
    def render_verdict(
        query: Query = "",
        data: Component = "",
        claim: Component = "",
        warrant: Component = "",
        backing: Component = "",
        rebuttal: Component = "",
        qualifier: Component = "",
    ) -> str | CallToolResult:
        """Phase 4 of 4. Returns the prompt that asks a model for the verdict, as
        {"verdict": Verdict}. Calls no model."""
        return _prompt(
            prompts.render_verdict,
            query=query,
            data=data,
            claim=claim,
            warrant=warrant,
            backing=backing,
            rebuttal=rebuttal,
            qualifier=qualifier,
        )

    @server.tool(name="check_phase", structured_output=False)
    def check_phase_tool(
        phase: Annotated[int | str, Field(description="1-4, or the phase's tool name.")] = "",
        json: Annotated[
            str | dict[str, Any], Field(description="The phase's output, as a JSON string.")
        ] = "",
        rebuttal: Annotated[
            str | dict[str, Any], Field(description="Phase 4 only: phase 3's rebuttal.")
        ] = "",
        qualifier: Annotated[
            str | dict[str, Any], Field(description="Phase 4 only: phase 3's qualifier.")
        ] = "",
    ) -> str | CallToolResult:
        """Validate a phase's output against the Toulmin schemas and the trial's rules
        (qualifier range; at phase 4, an absolute rebuttal requires overruled, confidence
        below 30 requires overruled or remanded, the reasoning must not contradict the
        status; after phase 2, the circuit breaker). Answers {"valid": true, "next", "terminated",
        "reason", "verdict", ...} or {"valid": false, "error", "missing", "rules"}."""
        try:
            answer = check_phase(phase=phase, output=json, rebuttal=rebuttal, qualifier=qualifier)
        except PhaseInputError as error:
            return _error(error.response)
        return jsonlib.dumps(answer, ensure_ascii=False)

    return server
