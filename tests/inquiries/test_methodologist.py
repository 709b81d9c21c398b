"""The Methodologist, an optional specialist observer chosen per inquiry.

It runs in the observers' fan-out, under the same gates, and counts as the other
observers do; an inquiry that did not choose it hashes, asks and draws as before.
"""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.urls import reverse

from casefiles.demo import load_demo_case_file
from engine.models import DebateEvent, DebateStatus, LLMCall, StageRun
from inquiries.audit import verify_chain
from inquiries.forms import SPECIALIST_CHOICES
from inquiries.graph import NODES, SPECIALISTS
from inquiries.models import AgentOutput, AuditRecord, GateViolation
from inquiries.presenters import graph_picture
from inquiries.services import create_inquiry, estimate_inquiry_cost
from inquiries.stages import STAGES
from inquiries.state import (
    ClaimView,
    InquiryState,
    OutputView,
    SourceView,
    SpanView,
    state_hash,
)
from tests.fakes.inquiry_model import FakeInquiryModel

# A fixed state and what the code before specialists computed from it (pinned then):
# an inquiry without specialists must keep its state hashes and its requests' hashes,
# so its audit chain, its StageRuns and the ledger's replay are unchanged.
FIXED = InquiryState(
    question="Should our city adopt congestion pricing?",
    language="en",
    models=(
        ("advocate", "m-a"),
        ("sanad_breaker", "m-c"),
        ("contradiction_finder", "m-o"),
        ("risk_officer", "m-o"),
        ("arbiter", "m-r"),
    ),
    max_rounds=3,
    sources=(
        SourceView("SRC-1", "Traffic study", "City", "2020", None),
        SourceView("SRC-2", "Paper", "Daily", "2021", "SRC-1"),
    ),
    claims=(
        ClaimView("C-1", "Traffic fell.", "B", "advocate", 1, (("S1.0", "SRC-1", ()),), False),
    ),
    calcs=(),
    outputs=(
        OutputView(
            1,
            "advocate_opening",
            "advocate",
            1,
            "Adopt it [C-1].",
            "supports",
            0.7,
            True,
            False,
            (),
            ("C-1",),
            (),
        ),
    ),
    evidence=(SpanView("S1.0", "SRC-1", "Traffic fell in the zone."),),
    retrieved_rounds=(0,),
    round_log=(),
)
FIXED_HASH = "0cb35cb2aa902c519033010e9ea8076725d3610c877b6603b1ef53ab31f88e57"
FIXED_OBSERVER_REQUESTS = [
    "1931d9085d23d7771ffa9be4c2096eae7f6371de82538d02e7f1b97b01fa22bb",
    "a788fd24fdb8614d88c4d6acf77455919a49d45bace3136203ae1555cb69a270",
]
WITH_METHODOLOGIST = replace(
    FIXED,
    models=(*FIXED.models, ("methodologist", "m-o")),
    specialists=("methodologist",),
)


def _observer_specs(state: InquiryState):
    return STAGES["observer_critiques"].specs(state=state, round=1, cheap_model="x")


def test_it_keeps_the_state_hash_of_an_inquiry_without_specialists() -> None:
    assert state_hash(FIXED) == FIXED_HASH
    assert state_hash(WITH_METHODOLOGIST) != FIXED_HASH


def test_it_keeps_the_observers_requests_and_adds_one_for_the_methodologist() -> None:
    assert [s.request_hash for s in _observer_specs(FIXED)] == FIXED_OBSERVER_REQUESTS

    specs = _observer_specs(WITH_METHODOLOGIST)
    assert [s.agent for s in specs] == ["contradiction_finder", "risk_officer", "methodologist"]
    assert [s.request_hash for s in specs[:2]] == FIXED_OBSERVER_REQUESTS
    assert specs[2].model == "m-o" and "ROLE: methodologist" in specs[2].prompt.system


def test_it_declares_the_methodologist_as_an_optional_observer() -> None:
    observers = next(n for n in NODES if n.name == "observer_critiques")
    assert observers.optional == ("methodologist",) and SPECIALISTS == ("methodologist",)
    assert observers.agents_for(()) == ("contradiction_finder", "risk_officer")
    assert [key for key, _label in SPECIALIST_CHOICES] == list(SPECIALISTS)
    assert all(not n.optional for n in NODES if n.name != "observer_critiques")


def test_it_counts_the_methodologist_s_calls_in_the_estimate(settings) -> None:
    price = {"input": Decimal(1000), "output": Decimal(1000), "cache_write": 0, "cache_read": 0}
    settings.LLM_PRICES = {"m": price}
    models = dict.fromkeys(("advocate", "challenger", "observer", "arbiter"), "m")
    agent_call = Decimal("3.7")  # (3,000 prompt + 700 output tokens) x $1,000 per million

    without = estimate_inquiry_cost(models=models, rounds=3)
    with_one = estimate_inquiry_cost(models=models, rounds=3, specialists=["methodologist"])

    assert with_one - without == 3 * agent_call


@pytest.mark.django_db(transaction=True)
def test_it_asks_the_methodologist_once_per_round_and_keeps_its_record(start, client) -> None:
    debate = start(FakeInquiryModel(), specialists=("methodologist",))

    assert debate.status == DebateStatus.DONE, debate.error
    assert debate.inquiry.specialists == ["methodologist"]
    assert debate.stop_reason == "EVIDENCE_EXHAUSTED" and debate.rounds_completed == 2
    calls = LLMCall.objects.filter(debate=debate, agent="methodologist")
    assert list(calls.values_list("stage", "round")) == [
        ("observer_critiques", 1),
        ("observer_critiques", 2),
    ]
    outputs = AgentOutput.objects.filter(inquiry_id=debate.pk, agent="methodologist")
    assert [(o.round, o.node, o.accepted) for o in outputs] == [
        (1, "observer_critiques", True),
        (2, "observer_critiques", True),
    ]
    record = outputs[0].record
    assert record["agent_id"] == "methodologist" and record["supported_claim_ids"] == ["C-1"]
    assert record["output_id"] == outputs[0].output_id and record["timestamp"]
    audit = AuditRecord.objects.get(inquiry_id=debate.pk, node="observer_critiques", round=1)
    assert [o["agent"] for o in audit.payload["outputs"]] == [
        "contradiction_finder",
        "risk_officer",
        "methodologist",
    ]
    assert audit.payload["outputs"][2]["record"] == record
    assert verify_chain(debate.pk) == []
    # It counts as the other observers do: a challenge the arbiter checks, a utility.
    closing = AgentOutput.objects.get(inquiry_id=debate.pk, agent="arbiter", round=1)
    assert {
        "agent": "methodologist",
        "node": "observer_critiques",
        "references_evidence": True,
    } in (closing.record["challenges"])
    assert "methodologist" in debate.output["utility"]
    assert debate.output["positions"]["methodologist"] == "undecided"
    graph = graph_picture(debate)
    box = next(b for b in graph.boxes if b.name == "methodologist")
    observers = next(b for b in graph.boxes if b.name == "observer_critiques")
    assert box.y == observers.y and box.state == observers.state == "done"
    assert graph.width >= box.x + box.width
    client.force_login(debate.creator)
    page = client.get(reverse("inquiries:detail", args=[debate.pk])).content.decode()
    assert f'<rect x="{box.x}" y="{box.y}" width="{box.width}"' in page and "Methodologist" in page


@pytest.mark.django_db(transaction=True)
def test_it_runs_and_draws_an_inquiry_without_specialists_as_before(start) -> None:
    debate = start(FakeInquiryModel())

    assert debate.inquiry.specialists == []
    assert not LLMCall.objects.filter(debate=debate, agent="methodologist").exists()
    assert LLMCall.objects.filter(debate=debate, stage="observer_critiques").count() == 4
    assert "methodologist" not in debate.output["utility"]
    graph = graph_picture(debate)
    assert [b.name for b in graph.boxes] == [n.name for n in NODES] and graph.width == 280
    runs = StageRun.objects.filter(debate=debate).order_by("id")
    records = AuditRecord.objects.filter(inquiry_id=debate.pk).order_by("seq")
    assert [r.output_hash for r in runs] == [r.output_hash for r in records]


@pytest.mark.django_db(transaction=True)
def test_it_sends_the_methodologist_s_free_fact_back_once_then_drops_it(start) -> None:
    debate = start(
        FakeInquiryModel(free_fact={"methodologist"}, stubborn={"methodologist"}),
        specialists=("methodologist",),
    )

    outputs = AgentOutput.objects.filter(inquiry_id=debate.pk, agent="methodologist", round=1)
    assert [(o.attempt, o.accepted, o.dropped) for o in outputs] == [
        (1, False, False),
        (2, False, True),
    ]
    assert outputs[0].record["agent_id"] == "methodologist"
    rules = GateViolation.objects.filter(output__in=outputs).values_list("rule", flat=True)
    assert "NO_FREE_FACTS" in set(rules)
    # Only the rejected agent is asked again.
    resends = LLMCall.objects.filter(debate=debate, stage="observer_critiques:resend", round=1)
    assert list(resends.values_list("agent", flat=True)) == ["methodologist"]
    dropped = DebateEvent.objects.get(debate=debate, type="agent_dropped", payload__round=1)
    assert dropped.payload["agent"] == "methodologist"


@pytest.mark.django_db(transaction=True)
def test_it_accepts_the_methodologist_s_second_answer(start) -> None:
    debate = start(FakeInquiryModel(free_fact={"methodologist"}), specialists=("methodologist",))

    outputs = AgentOutput.objects.filter(inquiry_id=debate.pk, agent="methodologist", round=1)
    assert [(o.attempt, o.accepted) for o in outputs] == [(1, False), (2, True)]
    assert "correlation, not a cause" in outputs[1].content


@pytest.fixture
def owner_and_case_file(fake_anthropic, settings, monkeypatch):
    settings.LIMITS_EXEMPT_STAFF = True
    monkeypatch.setattr("inquiries.services.launch", lambda debate_id: None)
    user = get_user_model().objects.create_user("ada", is_staff=True)
    return user, load_demo_case_file(owner=user)


@pytest.mark.django_db
def test_it_refuses_a_specialist_that_is_not_on_the_list(owner_and_case_file) -> None:
    user, case_file = owner_and_case_file

    with pytest.raises(ValidationError) as refused:
        create_inquiry(
            user=user,
            question="Should our city adopt congestion pricing?",
            case_file_id=case_file.pk,
            specialists=["astrologer"],
        )
    assert refused.value.code == "specialists"


@pytest.mark.django_db
def test_it_starts_an_inquiry_with_the_methodologist_from_the_form(
    client, owner_and_case_file, settings
) -> None:
    user, case_file = owner_and_case_file
    client.force_login(user)
    # The dearest model, so that one call more per round shows at the cent.
    dear = max(settings.LLM_PRICES, key=lambda m: settings.LLM_PRICES[m]["output"])
    page = client.get(reverse("inquiries:new")).content.decode()
    assert "Add a methodologist to the observers" in page and 'type="checkbox"' in page
    data = {
        "question": "Does the charge cut pollution?",
        "case_file": case_file.pk,
        "max_rounds": 2,
        "budget_usd": "1.00",
        "language": "en",
        **dict.fromkeys(("advocate", "challenger", "observer", "arbiter"), dear),
    }
    plain = client.get(reverse("inquiries:estimate"), data).content.decode()
    more = client.get(
        reverse("inquiries:estimate"), {**data, "specialists": "methodologist"}
    ).content.decode()
    assert "Estimated cost" in more and more != plain

    bad = client.post(reverse("inquiries:new"), {**data, "specialists": "astrologer"})
    assert bad.status_code == 400
    response = client.post(reverse("inquiries:new"), {**data, "specialists": "methodologist"})
    assert response.status_code == 302
    debate = user.debates.get(format="inquiry")
    assert debate.inquiry.specialists == ["methodologist"]
