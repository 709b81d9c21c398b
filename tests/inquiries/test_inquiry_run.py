"""Whole inquiries through the real SDK against the fake Anthropic server, on the shared engine."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.core.management import call_command
from django.db import transaction

from casefiles.models import Span
from engine.models import DebateEvent, DebateStatus, LLMCall, StageRun
from inquiries.audit import verify_chain
from inquiries.models import AgentOutput, AuditRecord, Calc, GateViolation, RegisteredClaim
from inquiries.scoring import agent_utility
from inquiries.stages import MuhasabahValidateAll, thesis_probability
from inquiries.state import load_state
from tests.fakes.inquiry_model import FakeInquiryModel

pytestmark = pytest.mark.django_db(transaction=True)


def test_it_runs_a_full_inquiry_node_by_node(start) -> None:
    debate = start(FakeInquiryModel())

    assert debate.status == DebateStatus.DONE, debate.error
    assert debate.stop_reason == "EVIDENCE_EXHAUSTED" and debate.rounds_completed == 2
    stages = list(StageRun.objects.filter(debate=debate).values_list("name", "round"))
    assert stages[:7] == [
        ("advocate_opening", 1),
        ("sanad_breaker_challenge", 1),
        ("observer_critiques", 1),
        ("advocate_rebuttal", 1),
        ("evidence_call_retrieval", 1),
        ("arbiter_close", 1),
        ("stop_condition_check", 1),
    ]
    # Round 2 asked for no evidence, so its retrieval node was skipped.
    assert ("evidence_call_retrieval", 2) not in stages
    assert stages[-2:] == [("muhasabah_validate_all", 2), ("finalize_outputs", 2)]
    assert RegisteredClaim.objects.get(inquiry_id=debate.pk).key == "C-1"
    output = debate.output
    assert output["thesis"]["claimIds"] == ["C-1"]
    assert output["claims"][0]["chains"][0]["resolved"]["text"]
    assert set(output["utility"]) == {
        "advocate",
        "sanad_breaker",
        "contradiction_finder",
        "risk_officer",
    }
    assert LLMCall.objects.filter(debate=debate, agent="contradiction_finder").count() == 2
    assert verify_chain(debate.pk) == []
    assert AuditRecord.objects.filter(inquiry_id=debate.pk).count() == len(stages)


def test_it_sends_a_free_fact_back_once_then_drops_it(start) -> None:
    debate = start(
        FakeInquiryModel(
            free_fact={"contradiction_finder", "risk_officer"}, stubborn={"risk_officer"}
        )
    )

    finder = AgentOutput.objects.filter(inquiry_id=debate.pk, agent="contradiction_finder", round=1)
    assert [(o.attempt, o.accepted) for o in finder] == [(1, False), (2, True)]
    officer = AgentOutput.objects.filter(inquiry_id=debate.pk, agent="risk_officer", round=1)
    assert [(o.attempt, o.accepted, o.dropped) for o in officer] == [
        (1, False, False),
        (2, False, True),
    ]
    rules = set(GateViolation.objects.filter(inquiry_id=debate.pk).values_list("rule", flat=True))
    assert "NO_FREE_FACTS" in rules
    dropped = DebateEvent.objects.get(debate=debate, type="agent_dropped", payload__round=1)
    assert dropped.payload["agent"] == "risk_officer"
    resend = LLMCall.objects.get(
        debate=debate, stage="observer_critiques:resend", round=1, agent="risk_officer"
    )
    assert resend.status == "ok"
    assert any(v["rule"] == "NO_FREE_FACTS" and v["dropped"] for v in debate.output["violations"])


def test_it_stops_on_a_grade_d_claim_in_the_thesis(start) -> None:
    debate = start(FakeInquiryModel(broken_thesis=True))

    assert debate.stop_reason == "CRITICAL_DEFECT" and debate.rounds_completed == 1
    claim = RegisteredClaim.objects.get(inquiry_id=debate.pk)
    assert claim.grade == "D" and {d["code"] for d in claim.defects} >= {"BROKEN_CHAIN"}
    assert "C-1" in debate.stop_in_english
    assert debate.output["actions"]["documents"][0]["claim"] == "C-1"


def test_it_stops_on_consensus(start) -> None:
    debate = start(FakeInquiryModel(agree=True))
    assert debate.stop_reason == "CONSENSUS" and debate.rounds_completed == 1
    assert debate.output["consensus"] is True


def test_it_stops_on_stable_dissent_and_preserves_it(start) -> None:
    debate = start(FakeInquiryModel(dissent=True), rounds=5)
    assert debate.stop_reason == "STABLE_DISSENT" and debate.rounds_completed == 3
    dissent = debate.output["dissent"]
    assert dissent["agents"] == ["risk_officer"] and dissent["preserved"] is True


def test_the_audit_command_detects_a_modified_record(start) -> None:
    debate = start(FakeInquiryModel())
    call_command("verify_inquiry_audit", str(debate.pk))
    record = AuditRecord.objects.filter(inquiry_id=debate.pk).order_by("seq")[3]
    record.payload["messages"] = [{"agent": "advocate", "content": "something else"}]
    record.save()

    problems = verify_chain(debate.pk)
    assert problems and problems[0].seq == record.seq
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match=f"#{record.seq}"):
        call_command("verify_inquiry_audit", str(debate.pk))


def test_it_computes_a_calculation_by_code_from_numbers_in_the_spans(start) -> None:
    debate = start(FakeInquiryModel(calc=True))

    calc = Calc.objects.get(inquiry_id=debate.pk)
    spans = {s.key: s.text for s in Span.objects.filter(case_file=debate.inquiry.case_file)}
    values = [i["value"] for i in calc.inputs]
    assert calc.key == "K-1" and calc.op == "difference"
    assert all(i["value"] in spans[i["span"]] for i in calc.inputs)
    plain = [v.rstrip("%").replace(",", "") for v in values]
    assert calc.result == str(Decimal(plain[0]) - Decimal(plain[1]))
    opening = AgentOutput.objects.get(inquiry_id=debate.pk, node="advocate_opening")
    assert "[K-1]" in opening.content and opening.accepted
    assert debate.output["calcs"][0]["id"] == "K-1"
    record = AuditRecord.objects.get(inquiry_id=debate.pk, node="advocate_opening")
    assert record.payload["calcs"] == [{"id": "K-1", "op": "difference", "result": calc.result}]


def test_a_challenge_citing_no_evidence_costs_utility(start) -> None:
    debate = start(FakeInquiryModel(vague={"risk_officer"}))

    closings = AgentOutput.objects.filter(inquiry_id=debate.pk, agent="arbiter").order_by("round")
    for closing in closings:
        checked = {(c["agent"], c["references_evidence"]) for c in closing.record["challenges"]}
        assert ("risk_officer", False) in checked and ("sanad_breaker", True) in checked
    utility = debate.output["utility"]
    assert utility["risk_officer"]["unreferencedChallenges"] == closings.count() > 0
    assert utility["sanad_breaker"]["unreferencedChallenges"] == 0
    officer = AgentOutput.objects.filter(inquiry_id=debate.pk, agent="risk_officer", accepted=True)
    upheld = closings.last().record["thesis_upheld"]
    forecasts = [
        Decimal(str(round(thesis_probability(o.position, o.confidence), 4))) for o in officer
    ]
    expected = agent_utility(forecasts, [upheld] * len(forecasts), violations=closings.count())
    assert utility["risk_officer"]["utility"] == str(expected.quantize(Decimal("0.001")))


def test_the_last_validation_rechecks_every_accepted_output(start) -> None:
    debate = start(FakeInquiryModel(free_fact={"risk_officer"}))

    event = DebateEvent.objects.get(debate=debate, type="muhasabah_validated")
    accepted = AgentOutput.objects.filter(inquiry_id=debate.pk, accepted=True).exclude(
        agent="arbiter"
    )
    assert event.payload["checked"] == accepted.count() > 0
    assert event.payload["failing"] == []


def test_the_last_validation_flags_an_output_edited_after_its_gates(start) -> None:
    debate = start(FakeInquiryModel())
    edited = AgentOutput.objects.filter(inquiry_id=debate.pk, agent="risk_officer").first()
    edited.content = "Traffic fell by 22% in 2007."
    edited.save()

    with transaction.atomic():
        MuhasabahValidateAll().commit(debate=debate, state=load_state(debate), round=9, results=[])

    event = DebateEvent.objects.get(debate=debate, type="muhasabah_validated", payload__round=9)
    assert event.payload["failing"] == [{"output": edited.output_id, "rules": ["NO_FREE_FACTS"]}]
