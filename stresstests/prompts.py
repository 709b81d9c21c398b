"""The stress test's prompts: pure functions of the saved state (same state, same bytes).

The line formats reuse debates/prompts.py (``[A1] (by NAME)``, ``premise[i]``),
so a persona reads the student's argument as any other argument.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from debates.prompts import argument_lines, persona_system
from debates.state import ArgumentView, AttackView, PersonaView
from engine.calls import Prompt

__all__ = ["attacks_prompt", "concessions_prompt", "defence_prompt", "reply_prompt"]


def _context(elements: Mapping[str, str]) -> list[str]:
    lines = []
    if elements.get("qualifier"):
        lines.append(f"The student qualifies the claim: {elements['qualifier']}")
    if elements.get("rebuttal"):
        lines.append(f"The student already concedes these exceptions: {elements['rebuttal']}")
    return lines


def attacks_prompt(
    *, persona: PersonaView, student: ArgumentView, elements: Mapping[str, str]
) -> Prompt:
    lines = ["Stress test of a student's argument.", ""]
    lines += argument_lines(student, None)
    lines += _context(elements)
    lines += [
        "",
        f"The claim is concluded from premise[0] (the grounds) through assumption[0] "
        f"(the warrant). Propose 1 to 3 attacks on [{student.key}], each the strongest "
        "objection you have from your worldview: rebut the claim (component claim, index 0), "
        "undermine a premise (component premise, its index) or undercut the warrant "
        "(component assumption, index 0). Be concrete and fair; do not repeat yourself.",
    ]
    return Prompt(system=persona_system(persona=persona), messages=_user("\n".join(lines)))


def _user(text: str) -> list[dict]:
    return [{"role": "user", "content": text}]


CONCESSIONS_SYSTEM = (
    "You check objections against a student's argument. The student already listed "
    "exceptions they concede. For each objection, say whether it raises one of those "
    "conceded exceptions (the same case, not merely the same topic). One verdict per id."
)


def concessions_prompt(
    *, elements: Mapping[str, str], attacks: Sequence[tuple[str, AttackView]]
) -> Prompt:
    lines = [f"Claim: {elements.get('claim', '')}"]
    lines += _context(elements)
    lines += ["", "Objections:"]
    for key, attack in attacks:
        lines.append(f"[{key}] {attack.counter_proposition} — {attack.rationale}")
    return Prompt(system=CONCESSIONS_SYSTEM, messages=_user("\n".join(lines)))


DEFENCE_SYSTEM = (
    "You referee a student's answer to an objection against their argument. The answer "
    "counts only if it is relevant to this objection, is not a mere restatement of the "
    "student's element the objection denies, and denies the objection itself (its claim "
    "or its reason). Give one short sentence for the student. Answer in the student's language."
)


def defence_prompt(*, element: str, element_text: str, attack: AttackView, answer: str) -> Prompt:
    text = "\n".join(
        [
            f"The student's {element}: {element_text}",
            f"Objection ({attack.type}, by {attack.speaker}): {attack.counter_proposition}",
            f"Its reason: {attack.rationale}",
            "",
            f"The student's answer: {answer}",
        ]
    )
    return Prompt(system=DEFENCE_SYSTEM, messages=_user(text))


def reply_prompt(*, persona: PersonaView, attack: AttackView, answer: str) -> Prompt:
    """The persona's one chance per round to answer the student's defence back."""
    text = "\n".join(
        [
            "Stress test of a student's argument.",
            f"Your objection: {attack.counter_proposition}",
            f"Your reason: {attack.rationale}",
            "",
            f"The student's answer to it: {answer}",
            "",
            "If the answer settles your objection, concede. If not, answer back once: "
            "one sentence you assert against the answer, and why it fails. Be fair.",
        ]
    )
    return Prompt(system=persona_system(persona=persona), messages=_user(text))
