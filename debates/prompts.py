"""The prompts of a debate, as pure functions of the debate's state.

Same state in, same bytes out: the ledger recognises an already-paid call by
the hash of its request, so nothing here may depend on time, randomness or
database ids. Persona system prompts hold only what never changes during a
debate (who the persona is, the rules), so the prompt cache serves them from
the second call on; everything that changes goes in the user message.

The line formats (``[A3] (by NAME, LABEL)``, ``[T2] by NAME: TYPE A3
COMPONENT[i]``) are part of the contract with the fake debate model in tests.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from debates.state import ArgumentView, AttackView, PersonaView
from engine.calls import Prompt

__all__ = [
    "Prompt",
    "argument_lines",
    "arguments_prompt",
    "attacks_prompt",
    "decompose_prompt",
    "persona_system",
    "validation_prompt",
]


def _user(text: str) -> list[dict[str, Any]]:
    return [{"role": "user", "content": text}]


def _numbered(items: Iterable[str]) -> str:
    return "\n".join(f"{i}. {item}" for i, item in enumerate(items, start=1))


DECOMPOSE_SYSTEM = (
    "You are the moderator of a structured debate. Split the topic into 2 to 4 "
    "distinct claims that reasonable people dispute and that together cover the "
    "topic. Each claim is one declarative sentence. Answer in the topic's language."
)


def decompose_prompt(*, topic: str) -> Prompt:
    return Prompt(system=DECOMPOSE_SYSTEM, messages=_user(f"Debate topic: {topic}"))


def persona_system(*, persona: PersonaView) -> str:
    return (
        f"You are {persona.name}, a debater in a structured debate judged by "
        "abstract argumentation: your arguments and attacks become a graph, and "
        "only attacks a referee finds valid count.\n"
        f"Your worldview: {persona.worldview}\n\n"
        "Rules:\n"
        "- Argue from your worldview, honestly; never invent sources or statistics.\n"
        "- Make assumptions explicit: they are what debates turn on.\n"
        "- rebut denies a claim (component claim, index 0); undermine denies a "
        "premise (component premise, its index); undercut denies an assumption "
        "that links premises to claim (component assumption, its index).\n"
        "- Never attack your own arguments (those marked with your name).\n"
        "- Answer in the topic's language."
    )


def _topic_block(topic: str, claims: Sequence[str]) -> str:
    return f"Debate topic: {topic}\nClaims under debate:\n{_numbered(claims)}"


def arguments_prompt(*, persona: PersonaView, topic: str, claims: Sequence[str]) -> Prompt:
    text = (
        f"{_topic_block(topic, claims)}\n\n"
        "Round 0. Submit 2 to 4 arguments for your position on these claims. "
        "Each has a claim, its premises, the assumptions it rests on and any evidence."
    )
    return Prompt(system=persona_system(persona=persona), messages=_user(text))


def _indexed(name: str, items: Sequence[str]) -> list[str]:
    return [f"  {name}[{i}]: {item}" for i, item in enumerate(items)]


def argument_lines(argument: ArgumentView, label: str | None) -> list[str]:
    status = f", {label}" if label else ""
    lines = [f"[{argument.key}] (by {argument.speaker}{status})", f"  claim: {argument.claim}"]
    lines += _indexed("premise", argument.premises)
    lines += _indexed("assumption", argument.assumptions)
    if argument.evidence:
        lines.append("  evidence: " + "; ".join(argument.evidence))
    return lines


def attacks_prompt(
    *,
    persona: PersonaView,
    topic: str,
    claims: Sequence[str],
    round: int,
    max_rounds: int,
    arguments: Sequence[ArgumentView],
    labels: Mapping[str, str],
    attacks: Sequence[AttackView],
) -> Prompt:
    """The attack request of one round: every counted argument with its current label."""
    lines = [_topic_block(topic, claims), "", f"Round {round} of {max_rounds}.", ""]
    lines.append("Arguments (id, speaker, current label IN/OUT/UNDEC):")
    for argument in arguments:
        lines += argument_lines(argument, labels.get(argument.key))
    lines.append("")
    if attacks:
        lines.append("Valid attacks so far:")
        lines += [
            f"{a.from_key} -> {a.to_key} ({a.type} {a.component}[{a.index}], by {a.speaker})"
            for a in attacks
        ]
    else:
        lines.append("Valid attacks so far: none.")
    lines += [
        "",
        f"Your arguments are those by {persona.name}; you may not attack them. "
        "Propose 0 to 4 new attacks on the strongest arguments you disagree with, "
        "targeting them by id, component and index. Each attack becomes a "
        "counter-argument of yours. Do not repeat an attack already made.",
    ]
    return Prompt(system=persona_system(persona=persona), messages=_user("\n".join(lines)))


VALIDATION_SYSTEM = (
    "You are the referee of a structured debate. For every attack listed, check: "
    "no fallacy (no straw man, ad hominem, non sequitur...); relevant to its target; "
    "the right type for the targeted component (rebut: claim; undermine: premise; "
    "undercut: assumption); the target component exists. An attack is valid only if "
    "all four hold. Give its strength from 0 to 1 and short corrections. "
    "Return one verdict per attack id."
)


def validation_prompt(
    *,
    topic: str,
    arguments: Sequence[ArgumentView],
    attacks: Sequence[tuple[str, AttackView]],
) -> Prompt:
    """One batch request judging every ``(attack id, attack)`` of a round."""
    lines = [f"Debate topic: {topic}", "", "Targeted arguments:"]
    for argument in arguments:
        lines += argument_lines(argument, None)
    lines += ["", "Attacks to judge:"]
    for attack_id, attack in attacks:
        lines.append(
            f"[{attack_id}] by {attack.speaker}: {attack.type} {attack.to_key} "
            f"{attack.component}[{attack.index}]"
        )
        lines.append(f"  counter-proposition: {attack.counter_proposition}")
        lines.append(f"  rationale: {attack.rationale}")
        if attack.evidence:
            lines.append("  evidence: " + "; ".join(attack.evidence))
    return Prompt(system=VALIDATION_SYSTEM, messages=_user("\n".join(lines)))
