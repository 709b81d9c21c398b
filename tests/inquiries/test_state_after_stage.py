"""An inquiry stage's state, read back with what the state before already held, is the full read.

A commit re-reads only the inquiry's own rows (inquiries/state.load_state with
``before=``): the case file's sources and the spans already retrieved come from
the state the stage started from. Each stage is wrapped so that, inside its
transaction, the state it returns is compared with a read of everything.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.models import DebateStatus
from inquiries.stages import STAGES
from inquiries.state import CalcView, load_state, state_hash
from tests.fakes.inquiry_model import FakeInquiryModel
from tests.inquiries.test_methodologist import FIXED, WITH_METHODOLOGIST


class _Checked:
    """A real stage whose commit is followed by a full read of the inquiry."""

    def __init__(self, stage, seen: list) -> None:
        self.stage, self.seen, self.name = stage, seen, stage.name

    def specs(self, **kwargs):
        return self.stage.specs(**kwargs)

    def commit(self, *, debate, state, round, results):
        outcome = self.stage.commit(debate=debate, state=state, round=round, results=results)
        self.seen.append((self.name, round, outcome.after, load_state(debate)))
        return outcome


@pytest.mark.django_db(transaction=True)
def test_it_returns_the_state_a_full_read_gives_after_each_stage(start, monkeypatch) -> None:
    seen: list = []
    for name, stage in list(STAGES.items()):
        monkeypatch.setitem(STAGES, name, _Checked(stage, seen))

    debate = start(FakeInquiryModel(free_fact={"contradiction_finder"}))

    assert debate.status == DebateStatus.DONE, debate.error
    names = {name for name, _, _, _ in seen}
    # Evidence retrieved (new spans), a resend, the arbiter and the stop check all ran.
    assert {"evidence_call_retrieval", "arbiter_close", "stop_condition_check"} <= names
    assert any(name.endswith(":resend") for name in names), names
    assert any(after.evidence for _, _, after, _ in seen)
    for name, round, built, read in seen:
        assert built == read, (name, round)
        # Equal values can still print differently (1 and 1.0): the hashes too.
        assert state_hash(built) == state_hash(read), (name, round)


# Every kind of view filled in (calcs, violations, a missing confidence,
# evidence requests, a round log, a specialist): the digest the asdict-based
# hash gave, pinned so that stored StageRun and audit hashes stay valid.
RICH = replace(
    WITH_METHODOLOGIST,
    calcs=(CalcView("K-1", "sum", "12", (("S1.0", "5"), ("S1.1", "7"))),),
    outputs=FIXED.outputs
    + (
        replace(
            FIXED.outputs[0],
            violations=(("FREE_FACT", 'a "quoted" é detail'),),
            confidence=None,
            evidence_requests=("more on x",),
        ),
    ),
    round_log=((1, "", "go on"), (2, "CONSENSUS", "agree")),
)
RICH_HASH = "7e14ff342b55dadedbb474e8a846655716459155de44befc84c325475655c669"


def test_it_hashes_every_kind_of_view_as_before() -> None:
    assert state_hash(RICH) == RICH_HASH
    assert state_hash(replace(RICH, round_log=())) != RICH_HASH


@pytest.mark.django_db(transaction=True)
def test_its_audit_records_hold_what_a_read_back_of_the_outputs_gives(start) -> None:
    """The audit hook takes the outputs the stage hands over (StageOutcome.written)
    rather than reading them back: each record must say what a read would."""
    from types import SimpleNamespace

    from inquiries.audit import _written_outputs, verify_chain
    from inquiries.models import AuditRecord

    debate = start(FakeInquiryModel(free_fact={"contradiction_finder"}))

    assert debate.status == DebateStatus.DONE, debate.error
    records = list(AuditRecord.objects.filter(inquiry_id=debate.pk).order_by("seq"))
    with_outputs = 0
    for record in records:
        read = _written_outputs(debate.pk, SimpleNamespace(name=record.node, round=record.round))
        outputs = record.payload["outputs"]
        assert [o["output_id"] for o in outputs] == [o.output_id for o, _ in read], record.node
        assert [o["violations"] for o in outputs] == [[list(v) for v in vs] for _, vs in read]
        assert [o["record"] for o in outputs] == [o.record for o, _ in read], record.node
        assert record.payload["messages"] == [
            {"agent": o.agent, "content": o.content} for o, _ in read
        ]
        with_outputs += bool(read)
    assert with_outputs >= 5
    assert any(o["violations"] for r in records for o in r.payload["outputs"])
    arbiter = [r for r in records if r.node == "arbiter_close"]
    assert arbiter and all(r.payload["decision"]["arbiter"] for r in arbiter)
    assert verify_chain(debate.pk) == []
