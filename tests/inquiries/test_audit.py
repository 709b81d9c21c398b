"""The audit chain verifier on hand-built chains: each kind of tampering is named at its record."""

from __future__ import annotations

import hashlib
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from casefiles.services import create_case_file
from engine.models import Debate, StageRun
from inquiries.audit import GENESIS, record_hash, verify_chain
from inquiries.models import AuditRecord, Inquiry

pytestmark = pytest.mark.django_db

NODES = ["advocate_opening", "sanad_breaker_challenge", "observer_critiques", "arbiter_close"]


def _state(n: int) -> str:
    return hashlib.sha256(f"state {n}".encode()).hexdigest()


@pytest.fixture
def chain(django_user_model) -> Inquiry:
    """A run of four nodes: StageRuns and their chained audit records, as the hook writes them."""
    user = django_user_model.objects.create_user("ada")
    debate = Debate.objects.create(format="inquiry", topic="Congestion pricing?", creator=user)
    inquiry = Inquiry.objects.create(
        debate=debate,
        case_file=create_case_file(owner=user, title="Readings"),
        advocate_model="m",
        challenger_model="m",
        observer_model="m",
        arbiter_model="m",
    )
    prev = GENESIS
    for seq, node in enumerate(NODES, start=1):
        hashes = {"input_hash": _state(seq - 1), "output_hash": _state(seq)}
        StageRun.objects.create(debate=debate, name=node, round=1, **hashes)
        fields = {
            "seq": seq,
            "node": node,
            "round": 1,
            "payload": {"messages": [{"agent": node, "content": f"said {seq}"}]},
            "prev_hash": prev,
            **hashes,
        }
        prev = record_hash(**fields)
        AuditRecord.objects.create(inquiry=inquiry, record_hash=prev, **fields)
    return inquiry


def _record(inquiry: Inquiry, seq: int) -> AuditRecord:
    return AuditRecord.objects.get(inquiry=inquiry, seq=seq)


def _rehash(record: AuditRecord) -> None:
    """What a careful forger does: make the record's own hash match its new content."""
    record.record_hash = record_hash(
        seq=record.seq,
        node=record.node,
        round=record.round,
        input_hash=record.input_hash,
        output_hash=record.output_hash,
        payload=record.payload,
        prev_hash=record.prev_hash,
    )
    record.save()


def test_record_hash_is_sha256_of_the_canonical_json() -> None:
    fields = {
        "seq": 1,
        "node": "advocate_opening",
        "round": 1,
        "input_hash": "a",
        "output_hash": "b",
        "payload": {"é": [1, 2]},
        "prev_hash": GENESIS,
    }
    canonical = (
        '{"input_hash":"a","node":"advocate_opening","output_hash":"b",'
        '"payload":{"é":[1,2]},"prev_hash":"' + GENESIS + '","round":1,"seq":1}'
    )
    assert json.loads(canonical) == fields
    assert record_hash(**fields) == hashlib.sha256(canonical.encode()).hexdigest()
    assert record_hash(**{**fields, "payload": {"é": [2, 1]}}) != record_hash(**fields)


def test_it_accepts_an_intact_chain(chain) -> None:
    assert verify_chain(chain.pk) == []
    call_command("verify_inquiry_audit", str(chain.pk))


def test_it_names_the_record_whose_content_was_edited(chain) -> None:
    record = _record(chain, 2)
    record.payload["messages"][0]["content"] = "said something else"
    record.save()

    problems = verify_chain(chain.pk)

    assert (problems[0].seq, problems[0].what) == (2, "its content does not match its hash")
    with pytest.raises(CommandError, match="#2 "):
        call_command("verify_inquiry_audit", str(chain.pk))


def test_a_rehashed_edit_breaks_the_next_link(chain) -> None:
    record = _record(chain, 2)
    record.payload = {"messages": []}
    _rehash(record)

    problems = verify_chain(chain.pk)

    assert [(p.seq, p.what) for p in problems] == [(3, "it does not link to the record before")]


def test_it_catches_a_record_removed_from_the_middle(chain) -> None:
    _record(chain, 2).delete()

    problems = verify_chain(chain.pk)

    assert problems and problems[0].seq <= 3
    assert "it does not link to the record before" in {p.what for p in problems}


def test_it_catches_a_record_removed_from_the_end_against_the_node_runs(chain) -> None:
    _record(chain, 4).delete()

    assert [(p.seq, p.node, p.what) for p in verify_chain(chain.pk)] == [
        (4, "arbiter_close", "the node ran but its record is missing")
    ]


def test_it_catches_a_state_gap_even_when_every_hash_is_redone(chain) -> None:
    prev = _record(chain, 2).record_hash
    for seq in (3, 4):
        record = _record(chain, seq)
        if seq == 3:
            record.input_hash = _state(99)
        record.prev_hash = prev
        _rehash(record)
        prev = record.record_hash

    problems = verify_chain(chain.pk)

    assert problems[0].seq == 3
    assert "its input is not the previous node's output" in {p.what for p in problems}


def test_it_says_when_there_is_no_such_inquiry(db) -> None:
    with pytest.raises(CommandError, match="No inquiry"):
        call_command("verify_inquiry_audit", "987654")
