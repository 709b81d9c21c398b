"""Known answers from LTI 1.3 core appendix A.2, and properties."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from lti.roles import is_instructor, is_learner

M = "http://purl.imsglobal.org/vocab/lis/v2/membership"


def test_it_knows_the_core_context_roles():
    assert is_instructor([f"{M}#Instructor"])
    assert is_instructor([f"{M}/Instructor#TeachingAssistant"])
    assert is_instructor(["Instructor"])  # deprecated short form
    assert is_instructor([f"{M}#Administrator"])
    assert not is_instructor([f"{M}#Learner"])
    assert is_learner([f"{M}#Learner"])
    assert not is_instructor(
        ["http://purl.imsglobal.org/vocab/lis/v2/institution/person#Instructor"]
    )
    assert not is_instructor([])


@given(st.lists(st.text(max_size=80), max_size=5))
def test_it_never_grants_teaching_without_a_teaching_role(roles):
    teaching = {f"{M}#Instructor", f"{M}#Administrator", f"{M}#ContentDeveloper"}
    extended = roles + sorted(teaching)[:1]
    assert is_instructor(extended)
    if is_instructor(roles):
        assert any(
            ("Instructor" in r or "Administrator" in r or "ContentDeveloper" in r) for r in roles
        )
