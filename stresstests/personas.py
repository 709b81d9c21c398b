"""The student as a speaker of the debate engine's rows.

``DebateArgument.speaker`` and ``Attack.speaker`` are non-null foreign keys
to ``Persona``: the student's nodes and defences are spoken by one inactive
persona row, never offered in a persona list (``active=False``) and never a
member of a debate's ``personas`` (so no stage asks it anything).
"""

from __future__ import annotations

from engine.models import Persona

__all__ = ["STUDENT_PERSONA_NAME", "student_persona"]

STUDENT_PERSONA_NAME = "Student (stress test)"


def student_persona() -> Persona:
    persona, _ = Persona.objects.get_or_create(
        name=STUDENT_PERSONA_NAME,
        defaults={"worldview": "The student whose argument is stress-tested.", "active": False},
    )
    return persona
