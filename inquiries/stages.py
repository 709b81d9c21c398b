"""The inquiry's nodes as stages of the shared engine (engine/formats.py).

Model nodes ask their agents concurrently (one stage = one fan-out; the
commit is the fan-in), then register, rewrite and gate each reply
(inquiries/registry.py) inside the stage's transaction. A rejected first
attempt is asked again by the node's ``:resend`` stage, naming the rule; a
second rejection is recorded and the agent's output is dropped for the
round, with an ``agent_dropped`` event. Code nodes make no call.

The state handed to the next stage is exactly what a resumed run would load
(the audit hashes chain across a restart): every node builds it from the
state before and the rows it just wrote, never reading the inquiry back (the
run's lease keeps every other writer out, and the case file is frozen while
the inquiry runs), so a stage costs the same in round 1 and round 10.
tests/inquiries/test_state_after_stage.py holds each stage's state to a full
read (``load_state``).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import replace

from django.utils import timezone
from django.utils.translation import gettext_noop

from argumentation.sanad import Grade
from casefiles.models import Span, parse_span_key
from casefiles.retrieval import retrieve_spans
from engine import events
from engine.calls import CallResult, CallSpec
from engine.models import Debate
from engine.stages import StageOutcome
from engine.stop_messages import english, register_stop_messages
from engine.stopping import StopDecision
from inquiries.gates import cited_ids
from inquiries.graph import NODES, RESEND
from inquiries.models import (
    AgentOutput,
    Calc,
    GateViolation,
    Inquiry,
    RegisteredClaim,
    RetrievedEvidence,
)
from inquiries.prompts import agent_prompt, arbiter_prompt
from inquiries.registry import process_reply
from inquiries.schemas import AgentReply, ArbiterReply
from inquiries.state import CalcView, ClaimView, InquiryState, OutputView, SpanView
from inquiries.stopping import StopReason, StopState, stop_reason

__all__ = ["DEBATERS", "STAGES", "debaters", "thesis_probability"]

AGENT_MAX_TOKENS = 1800
AGENT_EXPECTED_TOKENS = 700
ARBITER_MAX_TOKENS = 1000
EVIDENCE_PER_QUERY = 3
DEBATERS = ("advocate", "sanad_breaker", "contradiction_finder", "risk_officer")


def debaters(specialists: Sequence[str]) -> tuple[str, ...]:
    """The agents whose positions count (consensus, stable dissent, utility): the four
    debaters, then the chosen specialists, who are observers and count as observers do."""
    return (*DEBATERS, *specialists)


def thesis_probability(position: str, confidence: float | None) -> float:
    """An agent's stated probability that the thesis holds, from its position and confidence."""
    c = 0.5 if confidence is None else confidence
    return {"supports": c, "opposes": 1.0 - c}.get(position, 0.5)


def cited_span_keys(replies: Sequence[AgentReply]) -> set[str]:
    """Every span id the replies cite: their claims' chains and their calculations' inputs."""
    return {
        key
        for reply in replies
        for key in (
            *(chain.span for claim in reply.new_claims for chain in claim.chains),
            *(given.span for calc in reply.calcs for given in calc.inputs),
        )
    }


def cited_span_maps(case_file_id: int, keys: set[str]) -> tuple[dict[str, str], dict[str, str]]:
    """The cited spans of the case file: span id → its source id, and → its text.

    Only what the replies cite is read (one query, none when nothing is cited),
    so a stage costs the same in a case file of 20 spans or of 20,000. An id
    the case file does not have is left out, as a map of all its spans would
    leave it out: keys are matched as ``S<source>.<ordinal>`` is written.
    """
    wanted = {pair for key in keys if (pair := parse_span_key(key))}
    if not wanted:
        return {}, {}
    rows = Span.objects.filter(
        case_file_id=case_file_id,
        source_id__in={source for source, _ in wanted},
        ordinal__in={ordinal for _, ordinal in wanted},
    ).values_list("source_id", "ordinal", "text")
    spans, texts = {}, {}
    for source_id, ordinal, text in rows:
        key = f"S{source_id}.{ordinal}"
        if key in keys:
            spans[key], texts[key] = f"SRC-{source_id}", text
    return spans, texts


def _output_view(output: AgentOutput, violations) -> OutputView:
    """The view load_state reads back for an output row this stage just wrote."""
    return OutputView(
        round=output.round,
        node=output.node,
        agent=output.agent,
        attempt=output.attempt,
        content=output.content,
        position=output.position,
        # A float, as the column gives it back (an int would hash as "1", not "1.0").
        confidence=None if output.confidence is None else float(output.confidence),
        accepted=output.accepted,
        dropped=output.dropped,
        evidence_requests=tuple(output.evidence_requests),
        claim_refs=tuple(output.claim_refs),
        violations=tuple((rule, detail[:2000]) for rule, detail in violations),
    )


def _claim_view(claim, *, agent: str, round: int) -> ClaimView:
    return ClaimView(
        key=claim.key,
        text=claim.text,
        grade=claim.grade,
        registered_by=agent,
        round=round,
        chains=tuple(
            (ch.get("span", ""), ch.get("source", ""), tuple(ch.get("origins", ())))
            for ch in claim.chains
        ),
        fatal=any(d.get("fatal") for d in claim.defects),
    )


def _calc_view(calc) -> CalcView:
    return CalcView(
        key=calc.key,
        op=calc.op,
        result=calc.result,
        inputs=tuple((i["span"], i["value"]) for i in calc.inputs),
    )


class AgentNode:
    """A model node: its agents answer concurrently, the gates judge each answer."""

    def __init__(self, name: str, *, resend: bool = False) -> None:
        self.node = name
        self.name = name + (RESEND if resend else "")
        self.resend = resend

    def _asked(self, state: InquiryState, round: int):
        if not self.resend:
            return [(agent, None) for agent in state.agents_of(self.node)]
        return [(o.agent, o) for o in state.pending_resend(self.node, round)]

    def specs(self, *, state: InquiryState, round: int, cheap_model: str) -> list[CallSpec]:
        return [
            CallSpec(
                stage=self.name,
                round=round,
                persona_id=None,
                model=state.model_for(agent),
                prompt=agent_prompt(
                    state, agent=agent, node=self.node, round=round, rejected=rejected
                ),
                output_model=AgentReply,
                max_tokens=AGENT_MAX_TOKENS,
                expected_output_tokens=AGENT_EXPECTED_TOKENS,
                agent=agent,
            )
            for agent, rejected in self._asked(state, round)
        ]

    def commit(
        self, *, debate: Debate, state: InquiryState, round: int, results: Sequence[CallResult]
    ) -> StageOutcome:
        inquiry = Inquiry.objects.get(pk=debate.pk)
        spans, texts = cited_span_maps(
            inquiry.case_file_id, cited_span_keys([r.parsed for r in results if r.ok])
        )
        # Every claim and calc of the inquiry is in the state (the run holds the lease).
        next_claim = len(state.claims) + 1
        next_calc = len(state.calcs) + 1
        attempt = 2 if self.resend else 1
        # What this stage writes, as the views load_state would read back.
        claims: list[ClaimView] = []
        calcs: list[CalcView] = []
        # Each output with its violations: the state's views and the audit record's.
        written: list[tuple[AgentOutput, list[tuple[str, str]]]] = []
        for result in results:
            agent = result.spec.agent
            output_id = f"O-{uuid.uuid5(uuid.NAMESPACE_URL, f'{debate.pk}/{self.name}/{round}/{agent}').hex[:12]}"
            if not result.ok:
                violations = [
                    ("UNUSABLE_REPLY", "The reply could not be read as the asked-for answer.")
                ]
                output = AgentOutput.objects.create(
                    inquiry=inquiry,
                    round=round,
                    node=self.node,
                    agent=agent,
                    attempt=attempt,
                    content="",
                    output_id=output_id,
                    dropped=self.resend,
                )
                self._violations(inquiry, output, violations)
                written.append((output, violations))
                self._announce(debate, output, violations, [], [])
                continue
            processed = process_reply(
                result.parsed,
                state=state,
                spans=spans,
                span_texts=texts,
                agent=agent,
                output_id=output_id,
                next_claim=next_claim,
                next_calc=next_calc,
            )
            record = None
            if processed.record is not None:
                record = processed.record.model_copy(update={"timestamp": timezone.now()})
            output = AgentOutput.objects.create(
                inquiry=inquiry,
                round=round,
                node=self.node,
                agent=agent,
                attempt=attempt,
                content=processed.content,
                position=processed.position,
                claim_refs=processed.claim_refs,
                evidence_requests=processed.evidence_requests,
                record=record.model_dump(mode="json") if record is not None else None,
                confidence=record.confidence if record is not None else None,
                accepted=processed.accepted,
                dropped=self.resend and not processed.accepted,
                output_id=output_id,
            )
            if processed.accepted:
                # In the reply's order, so their ids keep it (one INSERT each, if any).
                RegisteredClaim.objects.bulk_create(
                    RegisteredClaim(
                        inquiry=inquiry,
                        key=claim.key,
                        text=claim.text,
                        registered_by=agent,
                        round=round,
                        chains=claim.chains,
                        grade=claim.grade,
                        defects=claim.defects,
                    )
                    for claim in processed.claims
                )
                Calc.objects.bulk_create(
                    Calc(
                        inquiry=inquiry,
                        key=calc.key,
                        op=calc.op,
                        inputs=calc.inputs,
                        result=calc.result,
                        registered_by=agent,
                        round=round,
                    )
                    for calc in processed.calcs
                )
                next_claim += len(processed.claims)
                next_calc += len(processed.calcs)
                claims += [
                    _claim_view(claim, agent=agent, round=round) for claim in processed.claims
                ]
                calcs += [_calc_view(calc) for calc in processed.calcs]
            self._violations(inquiry, output, processed.violations)
            written.append((output, processed.violations))
            self._announce(debate, output, processed.violations, processed.claims, processed.calcs)
        # Built, not read back: under the run's lease the state before plus
        # this stage's rows is the state after (inquiries/state.py's order:
        # each table by id, and these rows are the newest).
        after = replace(
            state,
            outputs=state.outputs + tuple(_output_view(o, v) for o, v in written),
            claims=state.claims + tuple(claims),
            calcs=state.calcs + tuple(calcs),
        )
        return StageOutcome(after=after, written=tuple(written))

    @staticmethod
    def _violations(inquiry, output, violations) -> None:
        GateViolation.objects.bulk_create(
            [
                GateViolation(inquiry=inquiry, output=output, rule=rule, detail=detail[:2000])
                for rule, detail in violations
            ]
        )

    def _announce(self, debate, output, violations, claims, calcs) -> None:
        events.record_event(
            debate=debate,
            type="inquiry_output",
            payload={
                "node": self.node,
                "round": output.round,
                "agent": output.agent,
                "attempt": output.attempt,
                "accepted": output.accepted,
                "position": output.position,
                "confidence": output.confidence,
                "content": output.content,
                "violations": [rule for rule, _ in violations],
                "claims": [{"id": c.key, "grade": c.grade, "text": c.text} for c in claims],
                "calcs": [{"id": k.key, "result": k.result} for k in calcs],
            },
        )
        if output.dropped:
            events.record_event(
                debate=debate,
                type="agent_dropped",
                payload={
                    "node": self.node,
                    "round": output.round,
                    "agent": output.agent,
                    "rules": [rule for rule, _ in violations],
                },
            )


class EvidenceRetrieval:
    """Code: run the round's evidence requests against the case file's index."""

    name = "evidence_call_retrieval"

    def specs(self, *, state, round, cheap_model) -> list[CallSpec]:
        return []

    def commit(self, *, debate, state: InquiryState, round, results) -> StageOutcome:
        inquiry = Inquiry.objects.get(pk=debate.pk)
        known = {e.key for e in state.evidence}
        queries: list[str] = []
        for output in state.accepted(round=round):
            queries += [q for q in output.evidence_requests if q not in queries]
        found = []
        evidence: list[SpanView] = []
        retrieved: list[RetrievedEvidence] = []
        for query in queries:
            hits = retrieve_spans(query, inquiry.case_file_id, EVIDENCE_PER_QUERY)
            keys = [h.key for h in hits]
            new = [k for k in keys if k not in known]
            known.update(new)
            retrieved.append(
                RetrievedEvidence(
                    inquiry=inquiry,
                    round=round,
                    query=query[:1000],
                    span_keys=keys,
                    new_span_keys=new,
                )
            )
            found.append({"query": query, "spans": keys, "new": new})
            evidence += [
                SpanView(key=h.key, source=f"SRC-{h.source_id}", text=h.text)
                for h in hits
                if h.key in new
            ]
        RetrievedEvidence.objects.bulk_create(retrieved)  # the round's queries in one statement
        events.record_event(
            debate=debate, type="evidence_retrieved", payload={"round": round, "queries": found}
        )
        # Built, not read back (as AgentNode.commit): the spans found are the newest evidence.
        after = replace(
            state,
            evidence=state.evidence + tuple(evidence),
            retrieved_rounds=tuple(sorted({*state.retrieved_rounds, round}))
            if queries
            else state.retrieved_rounds,
        )
        return StageOutcome(after=after, written=())  # no agent output: none to read back


class ArbiterClose:
    name = "arbiter_close"

    def specs(self, *, state: InquiryState, round, cheap_model) -> list[CallSpec]:
        return [
            CallSpec(
                stage=self.name,
                round=round,
                persona_id=None,
                model=state.model_for("arbiter"),
                prompt=arbiter_prompt(state, round=round),
                output_model=ArbiterReply,
                max_tokens=ARBITER_MAX_TOKENS,
                expected_output_tokens=400,
                agent="arbiter",
            )
        ]

    def commit(self, *, debate, state: InquiryState, round, results) -> StageOutcome:
        inquiry = Inquiry.objects.get(pk=debate.pk)
        registered = state.registered_ids()
        # The code's own check, whatever the arbiter says: a challenge cites registered evidence.
        challenges = [
            {
                "agent": o.agent,
                "node": o.node,
                "references_evidence": any(
                    i in registered for i in [*cited_ids(o.content), *o.claim_refs]
                ),
            }
            for o in state.accepted(round=round)
            if o.agent in debaters(state.specialists) and o.agent != "advocate"
        ]
        result = results[0] if results else None
        decision = None
        written: list[tuple[AgentOutput, list]] = []
        if result is not None and result.ok:
            reply: ArbiterReply = result.parsed
            decision = {
                "thesis_upheld": reply.thesis_upheld,
                "dissent_preserved": reply.dissent_preserved,
                "dissent_rationale": reply.dissent_rationale,
                "challenges": challenges,
            }
            output = AgentOutput.objects.create(
                inquiry=inquiry,
                round=round,
                node=self.name,
                agent="arbiter",
                attempt=1,
                content=reply.rationale,
                position="supports" if reply.thesis_upheld else "opposes",
                record=decision,
                accepted=True,
                output_id=f"O-arbiter-{debate.pk}-{round}",
            )
            written.append((output, []))
        events.record_event(
            debate=debate,
            type="arbiter_decision",
            payload={
                "round": round,
                "decision": decision,
                "challenges": challenges,
                "rationale": result.parsed.rationale if decision else "",
            },
        )
        return StageOutcome(
            after=replace(
                state, outputs=state.outputs + tuple(_output_view(o, v) for o, v in written)
            ),
            written=tuple(written),
        )


def _latest_per_agent(state: InquiryState, up_to_round: int) -> dict[str, tuple[str, float | None]]:
    latest: dict[str, tuple[str, float | None]] = {}
    for o in state.accepted():
        if o.round <= up_to_round and o.agent in debaters(state.specialists):
            latest[o.agent] = (o.position, o.confidence)
    return latest


def thesis_claim_ids(state: InquiryState) -> tuple[str, ...]:
    thesis = state.latest_thesis()
    if thesis is None:
        return ()
    ids = [i for i in [*cited_ids(thesis.content), *thesis.claim_refs] if i.startswith("C-")]
    return tuple(dict.fromkeys(ids))


class StopCheck:
    name = "stop_condition_check"

    def specs(self, *, state, round, cheap_model) -> list[CallSpec]:
        return []

    def commit(self, *, debate, state: InquiryState, round, results) -> StageOutcome:
        inquiry = Inquiry.objects.get(pk=debate.pk)
        history = []
        for r in range(1, round + 1):
            history.append({a: p for a, (p, _c) in _latest_per_agent(state, r).items()})
        latest = _latest_per_agent(state, round)
        probabilities = {a: thesis_probability(p, c) for a, (p, c) in latest.items()}
        new_spans = sum(
            len(keys)
            for keys in RetrievedEvidence.objects.filter(inquiry=inquiry.pk, round=round)
            .order_by()
            .values_list("new_span_keys", flat=True)
        )
        new_claims = sum(1 for c in state.claims if c.round == round)
        new_evidence = new_spans + new_claims
        grades = {c.key: Grade(c.grade) for c in state.claims}
        ids = thesis_claim_ids(state)
        reason = stop_reason(
            StopState(
                rounds_completed=round,
                thesis_claim_ids=ids,
                claim_grades=grades,
                confidences=probabilities,
                position_history=history,
                new_evidence_in_round=new_evidence,
                max_rounds=debate.max_rounds,
            )
        )
        code, params = _stop_code(
            reason, round=round, ids=ids, grades=grades, new_evidence=new_evidence
        )
        detail = english(code, params)
        inquiry.round_log = [
            *inquiry.round_log,
            {
                "round": round,
                "stop": reason.value if reason else "",
                "detail": detail,
                "code": code,
                "params": params,
                "new_evidence": new_evidence,
                "positions": history[-1] if history else {},
                "probabilities": probabilities,
            },
        ]
        Inquiry.objects.filter(pk=inquiry.pk).update(round_log=inquiry.round_log)
        Debate.objects.filter(pk=debate.pk).update(rounds_completed=round)
        events.record_event(
            debate=debate,
            type="stop_check",
            payload={
                "round": round,
                "stop_reason": reason.value if reason else "",
                "detail": detail,
                "code": code,
                "params": params,
                "probabilities": probabilities,
                "new_evidence": new_evidence,
            },
        )
        logged = (round, reason.value if reason else "", detail or "")
        return StageOutcome(after=replace(state, round_log=(*state.round_log, logged)), written=())


# The stop check's words, as codes: pages say them in the reader's language
# (engine/stop_messages.py); the English is stored for the audit and the export.
register_stop_messages(
    {
        "another_round": gettext_noop("Round %(round)s: no stop condition holds; another round."),
        "thesis_graded_d": gettext_noop(
            "The thesis rests on %(claims)s, graded D (no sound evidence chain)."
        ),
        "last_round_allowed": gettext_noop("Round %(round)s was the last round allowed."),
        "probabilities_agree": gettext_noop(
            "Every agent's stated probability that the thesis holds is within 0.10 of the others'."
        ),
        "no_position_change": gettext_noop(
            "No agent changed position for two rounds, and they still disagree."
        ),
        "no_new_evidence": gettext_noop(
            "Round %(round)s brought no new evidence (%(count)s new spans or claims)."
        ),
    }
)


def _stop_code(reason, *, round, ids, grades, new_evidence) -> tuple[str, dict]:
    if reason is None:
        return "another_round", {"round": round}
    if reason.value == "CRITICAL_DEFECT":
        bad = [i for i in ids if grades.get(i, Grade.D) is Grade.D]
        return "thesis_graded_d", {"claims": ", ".join(bad)}
    if reason.value == "MAX_ROUNDS":
        return "last_round_allowed", {"round": round}
    if reason.value == "CONSENSUS":
        return "probabilities_agree", {}
    if reason.value == "STABLE_DISSENT":
        return "no_position_change", {}
    return "no_new_evidence", {"round": round, "count": new_evidence}


class MuhasabahValidateAll:
    name = "muhasabah_validate_all"

    def specs(self, *, state, round, cheap_model) -> list[CallSpec]:
        return []

    def commit(self, *, debate, state: InquiryState, round, results) -> StageOutcome:
        from inquiries.gates import MuhasabahRecord, muhasabah_violations, no_free_facts

        registered = state.registered_ids()
        checked, failing = 0, []
        for output in AgentOutput.objects.filter(inquiry_id=debate.pk, accepted=True).exclude(
            agent="arbiter"
        ):
            checked += 1
            record = MuhasabahRecord.model_validate(output.record) if output.record else None
            broken = [
                *no_free_facts(output.content, registered_ids=registered),
                *muhasabah_violations(
                    record,
                    content=output.content,
                    registered_ids=registered,
                    claim_refs=output.claim_refs,
                ),
            ]
            if broken:
                failing.append(
                    {"output": output.output_id, "rules": [b.code.value for b in broken]}
                )
        events.record_event(
            debate=debate,
            type="muhasabah_validated",
            payload={"round": round, "checked": checked, "failing": failing},
        )
        return StageOutcome(after=state, written=())


class FinalizeOutputs:
    name = "finalize_outputs"

    def specs(self, *, state, round, cheap_model) -> list[CallSpec]:
        return []

    def commit(self, *, debate, state: InquiryState, round, results) -> StageOutcome:
        last = state.round_log[-1] if state.round_log else (round, StopReason.MAX_ROUNDS.value, "")
        logged = Inquiry.objects.values_list("round_log", flat=True).get(pk=debate.pk)
        coded = logged[-1] if logged else {}
        decision = StopDecision(
            StopReason(last[1] or StopReason.MAX_ROUNDS),
            last[2],
            coded.get("code", ""),
            coded.get("params") or {},
        )
        return StageOutcome(after=state, stop=decision, written=())


def _build() -> dict:
    stages: dict = {}
    for node in NODES:
        if node.kind == "model" and node.name != "arbiter_close":
            stages[node.name] = AgentNode(node.name)
            stages[node.name + RESEND] = AgentNode(node.name, resend=True)
    stages["evidence_call_retrieval"] = EvidenceRetrieval()
    stages["arbiter_close"] = ArbiterClose()
    stages["stop_condition_check"] = StopCheck()
    stages["muhasabah_validate_all"] = MuhasabahValidateAll()
    stages["finalize_outputs"] = FinalizeOutputs()
    return stages


STAGES = _build()
