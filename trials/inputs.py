"""Read a phase's inputs (the query and the JSON strings of earlier phases) or say what is wrong.

The MCP tools and the chain both build their prompts through here, so a
client can no more feed phase 3 a malformed warrant than the chain can. Every
problem with every input is collected into one answer of the shape
`{"error": str, "missing": [paths]}`, paths prefixed by the input's name
("data.facts.0"), so a client learns all it must fix in one round.

An input that is valid on its own may still be inadmissible: a warrant or
backing the circuit breaker stops at is refused as input to phases 3 and 4,
because the chain never reaches them with it.
"""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import BaseModel, ValidationError

from argumentation.toulmin import Backing, Warrant
from argumentation.toulmin_rules import circuit_breaker, error_response
from trials.phases import COMPONENT_MODELS, Phase
from untrusted import JSONInputError, loads_json

__all__ = ["PhaseInputError", "input_error", "parse_components", "parse_inputs"]

MISSING_INPUTS = "Missing or invalid inputs"


class PhaseInputError(ValueError):
    """The inputs of a phase cannot be used; `response` is the `{"error", "missing"}` answer."""

    def __init__(self, response: dict[str, object]) -> None:
        super().__init__(response["error"])
        self.response = response


def _located_problems(exc: ValidationError, *, prefix: str) -> tuple[list[str], list[str]]:
    """Each validation error as "prefix.path: message", and the distinct prefixed paths.

    The paths are `error_response`'s own, so they match what check_phase reports.
    """
    paths = [f"{prefix}.{path}" for path in error_response(exc)["missing"]] or [prefix]
    problems = []
    for detail in exc.errors(include_url=False):
        where = ".".join([prefix, *(str(part) for part in detail["loc"])])
        problems.append(f"{where}: {detail['msg'].removeprefix('Value error, ')}")
    return problems, paths


def _parse_component(name: str, text: object) -> tuple[BaseModel | None, list[str], list[str]]:
    """The component, or the problems with it and the paths they are at."""
    if not isinstance(text, str) or not text.strip():
        return None, [f"{name}: required (the JSON string of the earlier phase's {name})"], [name]
    try:
        raw = loads_json(text)
    except JSONInputError as exc:  # bounded: a client's JSON nested 5,000 deep is refused too
        return None, [f"{name}: not valid JSON ({exc})"], [name]
    # Accept the component wrapped in its key too ({"data": {...}}), as a phase's
    # whole output names it: a client may pass that slice through unchanged.
    if isinstance(raw, dict) and list(raw) == [name]:
        raw = raw[name]
    try:
        return COMPONENT_MODELS[name].model_validate(raw), [], []
    except ValidationError as exc:
        return None, *_located_problems(exc, prefix=name)


def parse_components(
    *, names: tuple[str, ...], components: Mapping[str, object]
) -> tuple[dict[str, BaseModel], list[str], list[str]]:
    """The named components that parse, every problem with the others, and their paths."""
    parsed: dict[str, BaseModel] = {}
    problems: list[str] = []
    missing: list[str] = []
    for name in names:
        component, component_problems, paths = _parse_component(name, components.get(name))
        problems += component_problems
        missing += paths
        if component is not None:
            parsed[name] = component
    return parsed, problems, missing


def input_error(problems: list[str], missing: list[str]) -> PhaseInputError:
    return PhaseInputError(
        {"error": f"{MISSING_INPUTS}: " + "; ".join(problems), "missing": missing}
    )


def parse_inputs(
    *, phase: Phase, query: object, components: Mapping[str, object]
) -> tuple[str, dict[str, BaseModel]]:
    """The stripped query and the validated components `phase` reads.

    Raises PhaseInputError listing every missing or invalid input. Components
    the phase does not read are ignored.
    """
    problems: list[str] = []
    missing: list[str] = []
    if not isinstance(query, str) or not query.strip():
        problems.append("query: required (the argument or question under trial)")
        missing.append("query")
    parsed, component_problems, paths = parse_components(names=phase.inputs, components=components)
    problems += component_problems
    missing += paths
    warrant, backing = parsed.get("warrant"), parsed.get("backing")
    if isinstance(warrant, Warrant) and isinstance(backing, Backing):
        breaker = circuit_breaker(warrant=warrant, backing=backing)
        if breaker.terminated:
            problems.append(f"{breaker.component}.strength: {breaker.reason}")
            missing.append(f"{breaker.component}.strength")
    if problems:
        raise input_error(problems, missing)
    return str(query).strip(), parsed
