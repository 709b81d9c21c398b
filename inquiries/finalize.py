"""finalize_outputs, in code: the inquiry's stored result, computed from its rows.

- the thesis (the advocate's last accepted statement) and the claims it rests on;
- consensus or dissent: dissent is *preserved* when the arbiter says it must be
  AND the dissenting agents cite at least one registered claim graded A–C
  (evidence-backed, checked here, not taken on the arbiter's word);
- the claim table: material claims (cited by the thesis or by any accepted
  output) with grade, defects, chains and the spans they rest on (offsets);
- utility per agent (inquiries/scoring.py: Brier bonus on its stated
  probabilities that the thesis holds, against the arbiter's last resolution,
  minus 0.1 per gate violation and per challenge that cited no registered
  evidence, as the arbiter node found it);
- the violations the gates caught; an action list: documents to find (broken
  or unknown links), tests to run (the agents' falsifiability tests), sources
  to request (claims whose chains share one origin, searches that found nothing).
"""

from __future__ import annotations

from decimal import Decimal

from casefiles.models import Span, parse_span_key
from engine.stopping import StopDecision
from inquiries.gates import cited_ids
from inquiries.models import (
    AgentOutput,
    Calc,
    GateViolation,
    Inquiry,
    RegisteredClaim,
    RetrievedEvidence,
)
from inquiries.scoring import agent_utility
from inquiries.stages import debaters, thesis_claim_ids, thesis_probability
from inquiries.state import InquiryState

__all__ = ["final_output"]


def _span_details(case_file_id: int, keys: set[str]) -> dict[str, dict]:
    wanted = {pair: key for key in keys if (pair := parse_span_key(key))}
    rows = Span.objects.filter(
        case_file_id=case_file_id, source_id__in={s for s, _ in wanted}
    ).select_related("source")
    return {
        wanted[(r.source_id, r.ordinal)]: {
            "span": wanted[(r.source_id, r.ordinal)],
            "sourceId": r.source_id,
            "sourceTitle": r.source.title,
            "start": r.start,
            "end": r.end,
            "text": r.text,
        }
        for r in rows
        if (r.source_id, r.ordinal) in wanted
    }


def final_output(debate, decision: StopDecision, *, state: InquiryState) -> dict:
    inquiry = Inquiry.objects.get(pk=debate.pk)
    thesis = state.latest_thesis()
    thesis_ids = list(thesis_claim_ids(state))
    accepted = state.accepted()
    cited: set[str] = set(thesis_ids)
    for output in accepted:
        cited.update(
            i for i in [*cited_ids(output.content), *output.claim_refs] if i.startswith("C-")
        )
    claims = list(RegisteredClaim.objects.filter(inquiry=inquiry).order_by("id"))
    spans = _span_details(
        inquiry.case_file_id, {ch.get("span", "") for c in claims for ch in c.chains}
    )
    grades = {c.key: c.grade for c in claims}
    claim_table = [
        {
            "id": c.key,
            "text": c.text,
            "grade": c.grade,
            "registeredBy": c.registered_by,
            "round": c.round,
            "material": c.key in cited,
            "inThesis": c.key in thesis_ids,
            "defects": c.defects,
            "chains": [
                {
                    "span": ch.get("span", ""),
                    "source": ch.get("source", ""),
                    "origins": ch.get("origins", []),
                    "resolved": spans.get(ch.get("span", "")),
                }
                for ch in c.chains
            ],
        }
        for c in claims
    ]
    arbiter = (
        AgentOutput.objects.filter(inquiry=inquiry, agent="arbiter")
        .order_by("-round", "-id")
        .first()
    )
    resolution = arbiter.record if arbiter and arbiter.record else None
    agents = debaters(state.specialists)
    latest: dict[str, object] = {}
    for output in accepted:
        if output.agent in agents:
            latest[output.agent] = output
    positions = {a: o.position for a, o in latest.items()}
    probabilities = {
        a: round(thesis_probability(o.position, o.confidence), 3) for a, o in latest.items()
    }
    advocate_position = positions.get("advocate", "supports")
    dissenters = [a for a, p in positions.items() if p != advocate_position and p != "undecided"]
    dissent_ids = sorted(
        {
            i
            for a in dissenters
            for i in [*cited_ids(latest[a].content), *latest[a].claim_refs]
            if i.startswith("C-")
        }
    )
    backed = any(grades.get(i, "D") in ("A", "B", "C") for i in dissent_ids)
    preserved = (
        bool(dissenters) and backed and bool(resolution and resolution.get("dissent_preserved"))
    )
    violation_rows = list(
        GateViolation.objects.filter(inquiry=inquiry).select_related("output").order_by("id")
    )
    utility = {}
    upheld = resolution.get("thesis_upheld") if resolution else None
    # The arbiter node's own check, per round: a challenge citing no registered id.
    unreferenced_challenges: dict[str, int] = {}
    for closing in AgentOutput.objects.filter(inquiry=inquiry, agent="arbiter"):
        for challenge in (closing.record or {}).get("challenges", []):
            if not challenge.get("references_evidence"):
                name = challenge.get("agent", "")
                unreferenced_challenges[name] = unreferenced_challenges.get(name, 0) + 1
    for agent in agents:
        forecasts = [
            Decimal(str(round(thesis_probability(o.position, o.confidence), 4)))
            for o in accepted
            if o.agent == agent
        ]
        count = sum(1 for v in violation_rows if v.output.agent == agent)
        unreferenced = unreferenced_challenges.get(agent, 0)
        outcomes = [bool(upheld)] * len(forecasts) if upheld is not None else []
        value = agent_utility(
            forecasts if outcomes else [], outcomes, violations=count + unreferenced
        )
        utility[agent] = {
            "utility": str(value.quantize(Decimal("0.001"))),
            "violations": count,
            "unreferencedChallenges": unreferenced,
        }
    actions = _actions(inquiry, claims, accepted)
    return {
        "format": "inquiry",
        "question": debate.topic,
        "stopReason": decision.reason.value,
        "stopDetail": decision.detail,
        "roundsCompleted": debate.rounds_completed,
        "thesis": {"text": thesis.content if thesis else "", "claimIds": thesis_ids},
        "arbiter": {
            "thesisUpheld": upheld,
            "rationale": arbiter.content if arbiter else "",
            "dissentPreserved": preserved,
            "dissentRationale": (resolution or {}).get("dissent_rationale", ""),
        },
        "positions": positions,
        "probabilities": probabilities,
        "consensus": decision.reason.value == "CONSENSUS",
        "dissent": {
            "preserved": preserved,
            "agents": dissenters,
            "claimIds": dissent_ids,
            "evidenceBacked": backed,
            "statements": {a: latest[a].content for a in dissenters},
        },
        "claims": claim_table,
        "calcs": [
            {
                "id": k.key,
                "op": k.op,
                "inputs": k.inputs,
                "result": k.result,
                "registeredBy": k.registered_by,
                "round": k.round,
            }
            for k in Calc.objects.filter(inquiry=inquiry).order_by("id")
        ],
        "utility": utility,
        "violations": [
            {
                "agent": v.output.agent,
                "round": v.output.round,
                "node": v.output.node,
                "attempt": v.output.attempt,
                "rule": v.rule,
                "detail": v.detail,
                "dropped": v.output.dropped,
            }
            for v in violation_rows
        ],
        "actions": actions,
    }


def _actions(inquiry, claims, accepted) -> dict:
    documents, sources = [], []
    for claim in claims:
        codes = {d["code"] for d in claim.defects}
        if codes & {"BROKEN_CHAIN", "UNKNOWN_SOURCE", "MISSING_LINK"}:
            documents.append(
                {"claim": claim.key, "what": "; ".join(d["detail"] for d in claim.defects)[:500]}
            )
        if claim.grade == "C" and len(claim.chains) > 1:
            sources.append(
                {
                    "claim": claim.key,
                    # The code is what a page words in its reader's language; "what" is
                    # the English the export and the command line show.
                    "code": "shared_origin",
                    "what": "Its chains share one origin: find an independent source.",
                }
            )
    for row in RetrievedEvidence.objects.filter(inquiry=inquiry):
        if not row.span_keys:
            sources.append(
                {
                    "claim": "",
                    "code": "unanswered",
                    "query": row.query,
                    "what": f"Nothing in the case file answers: {row.query}",
                }
            )
    tests: list[str] = []
    for output in AgentOutput.objects.filter(inquiry=inquiry, accepted=True).exclude(
        agent="arbiter"
    ):
        for test in (output.record or {}).get("falsifiability_tests", []):
            if test not in tests:
                tests.append(test)
    return {"documents": documents, "tests": tests[:12], "sources": sources}
