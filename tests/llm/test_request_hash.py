import copy

from pydantic import BaseModel, Field

from llm import request_hash
from tests.llm.support import MESSAGES, MODEL, SYSTEM, CoachReply


def hash_of(**overrides):
    kwargs = {
        "model": MODEL,
        "system": SYSTEM,
        "messages": copy.deepcopy(MESSAGES),
        "output_model": CoachReply,
        "max_tokens": 400,
    }
    kwargs.update(overrides)
    return request_hash(**kwargs)


def test_it_is_a_sha256_hex_digest():
    digest = hash_of()
    assert len(digest) == 64
    int(digest, 16)


def test_it_is_stable_for_equal_requests_whatever_the_key_order():
    reordered = [{"content": MESSAGES[0]["content"], "role": MESSAGES[0]["role"]}]
    assert hash_of() == hash_of() == hash_of(messages=reordered)


def test_it_changes_with_every_part_of_the_request():
    base = hash_of()
    variants = [
        hash_of(model="claude-sonnet-5-5"),
        hash_of(system=SYSTEM + " "),
        hash_of(messages=[{"role": "user", "content": "My claim: cities should ban bikes."}]),
        hash_of(messages=[*MESSAGES, {"role": "assistant", "content": "ok"}]),
        hash_of(max_tokens=401),
    ]
    assert base not in variants
    assert len(set(variants)) == len(variants)


def test_it_changes_with_the_output_schema():
    class CoachReplyWithExtraField(CoachReply):
        confidence: float

    class Renamed(BaseModel):
        assistantText: str  # noqa: N815
        proposal: str | None = None
        step: int = Field(ge=1, le=7)

    class Described(BaseModel):
        assistantText: str = Field(description="What the student sees")  # noqa: N815
        proposal: str | None = None
        step: int = Field(ge=1, le=7)

    hashes = {
        hash_of(),
        hash_of(output_model=CoachReplyWithExtraField),
        hash_of(output_model=Renamed),
        hash_of(output_model=Described),
    }
    assert len(hashes) == 4
