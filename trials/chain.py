"""The four-phase verdict chain: one structured model call per phase, the rules enforced here.

Framework-free: the caller passes `ask`, a function making one structured
call (the service wires it to `llm.call_structured` with the Django
settings), and two callbacks that persist progress as it happens.

What the server enforces, not the prompt:
- every reply is checked (`trials.checks`): JSON, schema, and the rules;
- a rejected reply is sent back once, in the same conversation, naming every
  broken rule by its code; a second rejection ends the run (`failed`);
- a model call that fails outright (API error after the SDK's retries, no
  key) ends the run at once: repeating it would only repeat the failure;
- a failed run says why in one word (`ChainResult.failure`: the service did
  not answer, the reply was rejected, no key, an internal error), which the
  page turns into a sentence; the codes and rejected replies stay in the
  call records, for instructors;
- after phase 2 the circuit breaker may end the run (`terminated`) with no
  further call.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Protocol

from pydantic import BaseModel

from argumentation.toulmin import Backing, Warrant
from argumentation.toulmin_rules import circuit_breaker
from llm import LLMError, StructuredReply, Usage
from trials.checks import PhaseCheck, Problem, check_output
from trials.phases import PHASES, Phase
from trials.prompts import PhaseInputError, PhasePrompt, build_prompt

__all__ = [
    "KEY_NEEDED_REASON",
    "MAX_ATTEMPTS",
    "Ask",
    "CallRecord",
    "ChainResult",
    "Failure",
    "repair_message",
    "run_chain",
]

KEY_NEEDED_REASON = "An Anthropic API key is needed to run a trial (set ANTHROPIC_API_KEY)."

# The first reply and one repair: the issue allows a single second chance.
MAX_ATTEMPTS = 2

# LLMError codes that mean "the model answered, but badly": worth one repair.
_REPAIRABLE = frozenset({"validation_failed", "truncated"})
# A rejected reply is kept for instructors up to this many characters.
MAX_KEPT_REPLY_CHARS = 8000


class Failure:
    """Why a run ended `failed` (stored in `Trial.failure`)."""

    SERVICE_UNAVAILABLE = "service_unavailable"
    REPLY_REJECTED = "reply_rejected"
    NO_API_KEY = "no_api_key"
    INTERNAL = "internal"


class Ask(Protocol):
    def __call__(
        self, *, system: str, messages: list[dict[str, Any]], output_model: type[BaseModel]
    ) -> StructuredReply: ...


@dataclass(frozen=True, slots=True)
class CallRecord:
    """One model call, failed or not: what it cost and which rules its reply broke."""

    phase: int
    attempt: int
    ok: bool
    rules: tuple[str, ...] = ()
    error: str = ""
    usage: Usage | None = None
    cost_usd: Decimal = Decimal(0)
    latency_ms: float = 0.0
    model: str = ""
    # The model's text when the reply was rejected, so instructors can read it.
    reply_text: str = ""

    def as_json(self) -> dict[str, Any]:
        usage = self.usage or Usage()
        return {
            "phase": self.phase,
            "attempt": self.attempt,
            "ok": self.ok,
            "rules": list(self.rules),
            "error": self.error,
            "model": self.model,
            "input_tokens": usage.input_tokens,
            "output_tokens": usage.output_tokens,
            "cache_creation_input_tokens": usage.cache_creation_input_tokens,
            "cache_read_input_tokens": usage.cache_read_input_tokens,
            "cost_usd": str(self.cost_usd),
            "latency_ms": round(self.latency_ms),
            "reply_text": self.reply_text[:MAX_KEPT_REPLY_CHARS],
        }


@dataclass(frozen=True, slots=True)
class ChainResult:
    """How the chain ended: a verdict status, `terminated` or `failed`."""

    status: str
    reason: str = ""
    stopped_phase: int | None = None
    outputs: dict[int, dict[str, Any]] = field(default_factory=dict)
    failure: str = ""


class _PhaseFailed(Exception):
    def __init__(self, reason: str, *, failure: str) -> None:
        super().__init__(reason)
        self.failure = failure


def repair_message(problems: tuple[Problem, ...]) -> str:
    """The correction sent back with a rejected reply: every broken rule, by code."""
    lines = "\n".join(f"- {problem.rule}: {problem.message}" for problem in problems)
    return (
        "Your reply was rejected by the court's checks. Broken rules:\n"
        f"{lines}\n"
        "Reply again with the complete corrected JSON object for this phase, and nothing else."
    )


def _record(
    *,
    phase: Phase,
    attempt: int,
    reply: StructuredReply | None = None,
    error: LLMError | None = None,
    check: PhaseCheck | None = None,
) -> CallRecord:
    problems = check.problems if check else ()
    accepted = check is not None and check.ok
    text = reply.raw_text if reply else (error.raw_text if error else None)
    return CallRecord(
        phase=phase.number,
        attempt=attempt,
        ok=check is not None and check.ok,
        rules=tuple(p.rule for p in problems) or ((error.code,) if error else ()),
        error="; ".join(p.message for p in problems) or (str(error) if error else ""),
        usage=reply.usage if reply else (error.usage if error else None),
        cost_usd=(reply.cost_usd if reply else (error.cost_usd if error else None)) or Decimal(0),
        latency_ms=reply.latency_ms if reply else 0.0,
        model=reply.model if reply else "",
        reply_text="" if accepted else (text or ""),
    )


def _problems_of_failed_call(
    *, phase: Phase, error: LLMError, context: Mapping[str, BaseModel]
) -> tuple[PhaseCheck, tuple[Problem, ...]]:
    """Why a repairable LLMError's reply was rejected, in the chain's own terms."""
    check = check_output(phase=phase, text=error.raw_text, context=context)
    problems = check.problems or (Problem("reply_rejected", error.detail or error.code),)
    if error.code == "truncated":
        cut = Problem(
            "truncated",
            "The reply was cut off at the token limit; keep every field shorter.",
        )
        problems = (cut, *problems)
    return PhaseCheck(output=None, problems=problems, missing=check.missing), problems


def _run_phase(
    *,
    phase: Phase,
    prompt: PhasePrompt,
    context: Mapping[str, BaseModel],
    ask: Ask,
    on_call: Callable[[CallRecord], None],
) -> BaseModel:
    messages: list[dict[str, Any]] = [{"role": "user", "content": prompt.user}]
    problems: tuple[Problem, ...] = ()
    for attempt in range(1, MAX_ATTEMPTS + 1):
        try:
            reply = ask(system=prompt.system, messages=messages, output_model=phase.output_model)
        except LLMError as error:
            if error.code not in _REPAIRABLE:
                on_call(_record(phase=phase, attempt=attempt, error=error))
                raise _PhaseFailed(
                    _call_failed_reason(phase=phase, error=error), failure=_failure_of(error)
                ) from error
            check, problems = _problems_of_failed_call(phase=phase, error=error, context=context)
            on_call(_record(phase=phase, attempt=attempt, error=error, check=check))
            raw_text = error.raw_text
        else:
            check = check_output(phase=phase, text=reply.raw_text, context=context)
            on_call(_record(phase=phase, attempt=attempt, reply=reply, check=check))
            if check.ok:
                assert check.output is not None
                return check.output
            problems, raw_text = check.problems, reply.raw_text
        # The rejected reply stays in the conversation, so the model corrects
        # its own answer instead of starting over.
        messages = [
            messages[0],
            {"role": "assistant", "content": (raw_text or "").strip() or "(empty reply)"},
            {"role": "user", "content": repair_message(problems)},
        ]
    rules = ", ".join(dict.fromkeys(p.rule for p in problems))
    details = " ".join(p.message for p in problems)
    raise _PhaseFailed(
        f"Phase {phase.number} ({phase.tool}): the model's reply was rejected twice, "
        f"the second time for breaking {rules}. {details}",
        failure=Failure.REPLY_REJECTED,
    )


def _failure_of(error: LLMError) -> str:
    if error.code == "unavailable":
        return Failure.NO_API_KEY
    if error.is_service_failure:
        return Failure.SERVICE_UNAVAILABLE
    return Failure.REPLY_REJECTED  # e.g. a reply far too large to read


def _call_failed_reason(*, phase: Phase, error: LLMError) -> str:
    if error.code == "unavailable":
        return KEY_NEEDED_REASON
    return (
        f"Phase {phase.number} ({phase.tool}): the model call failed ({error.code}). "
        f"{error.detail}".strip()
    )


def _component_json(components: Mapping[str, BaseModel], names: tuple[str, ...]) -> dict[str, str]:
    return {name: components[name].model_dump_json() for name in names}


def run_chain(
    *,
    query: str,
    ask: Ask,
    on_phase: Callable[[int, dict[str, Any]], None],
    on_call: Callable[[CallRecord], None],
    done: Mapping[int, dict[str, Any]] | None = None,
) -> ChainResult:
    """Run the phases in order and say how the trial ended.

    `done` holds outputs saved by an earlier, interrupted run of the same
    trial: those phases are re-validated and not asked again. `on_phase` is
    called with each new phase's output as soon as it passed the checks;
    `on_call` with every model call, including rejected and failed ones.
    """
    done = done or {}
    components: dict[str, BaseModel] = {}
    outputs: dict[int, dict[str, Any]] = {}
    for phase in PHASES:
        if phase.number in done:
            output = phase.output_model.model_validate(done[phase.number])
        else:
            try:
                prompt = build_prompt(
                    phase=phase.number,
                    query=query,
                    components=_component_json(components, phase.inputs),
                )
                output = _run_phase(
                    phase=phase, prompt=prompt, context=components, ask=ask, on_call=on_call
                )
            except (_PhaseFailed, PhaseInputError) as failure:
                return ChainResult(
                    status="failed",
                    reason=str(failure),
                    stopped_phase=phase.number,
                    outputs=outputs,
                    failure=getattr(failure, "failure", Failure.INTERNAL),
                )
            on_phase(phase.number, output.model_dump(mode="json"))
        outputs[phase.number] = output.model_dump(mode="json")
        components.update({name: getattr(output, name) for name in phase.outputs})
        if phase.number == 2:
            warrant, backing = components["warrant"], components["backing"]
            assert isinstance(warrant, Warrant) and isinstance(backing, Backing)
            breaker = circuit_breaker(warrant=warrant, backing=backing)
            if breaker.terminated:
                return ChainResult(
                    status="terminated",
                    reason=breaker.reason or "",
                    stopped_phase=phase.number,
                    outputs=outputs,
                )
    verdict = components["verdict"]
    return ChainResult(status=str(verdict.status), outputs=outputs)
