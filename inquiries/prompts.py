"""The inquiry agents' prompts: pure functions of the inquiry's state.

Same state in, same bytes out (the ledger replays a paid call by the hash of
its request). System prompts hold who the agent is and the rules; the user
message holds the case: the question, the sources, the evidence retrieved,
the registry and what was said so far.

Line formats the fake inquiry model in tests reads: ``ROLE: <agent>``,
``NODE: <node> ROUND: <n>``, ``REJECTED: <rule>`` lines in a resend.
"""

from __future__ import annotations

from engine.calls import Prompt
from inquiries.state import InquiryState, OutputView

__all__ = ["agent_prompt", "arbiter_prompt"]

RULES = """Rules of this inquiry (the server enforces them; a reply that breaks one is sent back once, then dropped):
1. Argue ONLY from the case file. Every sentence that contains a number, a percentage, a date, a money amount or a name must cite a registered claim or calculation id in square brackets, e.g. [C-3] or [K-1].
2. To rely on a fact not yet registered, register it in new_claims with a label (N1, N2, ...) and chains to the spans it rests on (span id, the source reporting it, and the earlier sources that source reports from), then cite [N1] in your text. A chain to a span that does not exist breaks the claim.
3. Never compute a figure yourself: declare it in calcs (label M1, ...; op percentage/difference/sum; each input exactly as the span writes it) and cite [M1].
4. Add your self-accounting record: supported_claim_ids, falsifiability_tests (what would show you wrong), uncertainties, confidence 0-1 in your position, failure_modes. Above 0.50 confidence give a falsifiability test; above 0.80 name an uncertainty.
5. position: supports, opposes or undecided on the thesis. evidence_requests: at most two search queries for passages you need."""

ROLES = {
    "advocate": "You are the Advocate. State a thesis that answers the question and defend it from the evidence.",
    "sanad_breaker": "You are the Sanad Breaker. Attack the evidence chains of the thesis: broken or missing links, unknown sources, chains that share one origin and so count once. Every challenge must reference evidence.",
    "contradiction_finder": "You are the Contradiction Finder. Find where the registered claims, the sources or the thesis contradict each other.",
    "risk_officer": "You are the Risk Officer. Name the risks and costs the thesis leaves out, from the evidence.",
    "methodologist": "You are the Methodologist. Check how the evidence was gathered: the sample, the method, the measurement, and whether the spans support a causal claim or only a correlation.",
    "arbiter": "You are the Arbiter. Judge whether the thesis holds on the registered evidence and whether any dissent is backed by evidence and must be preserved.",
}


def _system(agent: str, language: str) -> str:
    tongue = "Spanish" if language == "es" else "English"
    return f"ROLE: {agent}\n{ROLES[agent]}\nWrite your content in {tongue}.\n\n{RULES}"


def _case(state: InquiryState) -> str:
    lines = [f"QUESTION: {state.question}", "", "SOURCES:"]
    for s in state.sources:
        origin = f"; reports from {s.origin}" if s.origin else ""
        lines.append(
            f"- {s.key}: {s.title} ({s.author or 'unknown'}, {s.published or 'n.d.'}{origin})"
        )
    lines += ["", "EVIDENCE (spans retrieved from the case file):"]
    lines += [f"- {e.key} [{e.source}]: {e.text}" for e in state.evidence] or ["- none yet"]
    lines += ["", "REGISTERED CLAIMS:"]
    lines += [f"- {c.key} (grade {c.grade}): {c.text}" for c in state.claims] or ["- none yet"]
    if state.calcs:
        lines += ["", "CALCULATIONS:"]
        lines += [f"- {k.key}: {k.op} = {k.result}" for k in state.calcs]
    said = state.accepted()
    if said:
        lines += ["", "SAID SO FAR:"]
        lines += [f"- [{o.agent}, round {o.round}, {o.position}]: {o.content}" for o in said]
    return "\n".join(lines)


def agent_prompt(
    state: InquiryState,
    *,
    agent: str,
    node: str,
    round: int,
    rejected: OutputView | None = None,
) -> Prompt:
    task = f"NODE: {node} ROUND: {round}\n\n{_case(state)}"
    if rejected is not None:
        rules = "\n".join(f"REJECTED: {rule}: {detail}" for rule, detail in rejected.violations)
        task += (
            "\n\nYOUR PREVIOUS ANSWER WAS REJECTED BY THE SERVER:\n"
            f"{rules}\n\nYour previous answer was:\n{rejected.content}\n\n"
            "Answer again, following the rules."
        )
    return Prompt(
        system=_system(agent, state.language), messages=[{"role": "user", "content": task}]
    )


def arbiter_prompt(state: InquiryState, *, round: int) -> Prompt:
    task = f"NODE: arbiter_close ROUND: {round}\n\n{_case(state)}"
    return Prompt(
        system=_system("arbiter", state.language), messages=[{"role": "user", "content": task}]
    )
