"""When a debate stops, checked in a fixed priority order, each in graph terms.

After every round r >= 1 (the opening round 0 only checks the first):

1. ``CRITICAL_DEFECT`` — the debate cannot go on honestly: the budget cannot
   pay for the next stage (checked *before* each stage by
   :func:`budget_decision`, from the stage's own prompts), or a round
   produced no valid output at all: round 0 yielded no argument, or every
   persona call of an attack round failed, or the round's attacks could not
   be validated because the validation call failed.
2. ``MAX_ROUNDS`` — r reached the debate's max rounds.
3. ``CONSENSUS`` — the framework has exactly one preferred extension E and no
   argument is UNDEC: every argument outside E is attacked by E. Every
   persona's surviving argument is then in the one camp; personas whose
   arguments are all OUT have been answered, not ignored.
4. ``STABLE_DISSENT`` — no consensus, and the labelling stayed unchanged for
   two rounds: rounds r-1 and r both left every previously labelled argument
   with the label it had (new nodes may appear, nobody's status moves).
   Needs r >= 2.
5. ``EVIDENCE_EXHAUSTED`` — round r added no new valid attack (after
   validation and deduplication): nobody found anything new to say.

Otherwise the debate continues. The functions are pure: the orchestrator
feeds them the snapshot and history it computed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from debates.models import StopReason

__all__ = [
    "StopDecision",
    "budget_decision",
    "is_budget_stop",
    "labels_unchanged",
    "round_decision",
]


# How budget_decision's stored detail begins: pages tell a budget stop from
# other critical defects by it (the reason alone does not say which).
BUDGET_DETAIL_PREFIX = "Budget:"


@dataclass(frozen=True, slots=True)
class StopDecision:
    reason: StopReason
    detail: str


def budget_decision(
    *, budget: Decimal, spent: Decimal, next_stage: str, estimate: Decimal
) -> StopDecision | None:
    """Stop before a stage whose estimated cost exceeds what is left of the budget."""
    remaining = budget - spent
    if estimate <= remaining:
        return None
    return StopDecision(
        StopReason.CRITICAL_DEFECT,
        f"{BUDGET_DETAIL_PREFIX} the {next_stage} stage would cost about ${estimate:.4f} but only "
        f"${max(remaining, Decimal(0)):.4f} of ${budget:.2f} is left.",
    )


def is_budget_stop(*, reason: str, detail: str) -> bool:
    """True when a run ended because its budget could not pay for the next stage."""
    return reason == StopReason.CRITICAL_DEFECT and detail.startswith(BUDGET_DETAIL_PREFIX)


def labels_unchanged(before: Mapping[str, str], after: Mapping[str, str]) -> bool:
    """True when every argument labelled ``before`` keeps its label ``after``."""
    return all(after.get(argument) == label for argument, label in before.items())


def round_decision(
    *,
    round: int,
    max_rounds: int,
    defect: str | None,
    camps: int,
    undecided: int,
    label_history: Sequence[Mapping[str, str]],
    new_valid_attacks: int,
) -> StopDecision | None:
    """The stop check after round ``round`` (see the module docstring for the order).

    ``label_history[k]`` is the grounded labelling after round k, for k = 0..round.
    """
    if defect:
        return StopDecision(StopReason.CRITICAL_DEFECT, defect)
    if round == 0:
        return None
    if round >= max_rounds:
        return StopDecision(StopReason.MAX_ROUNDS, f"Round {round} of {max_rounds} is done.")
    if camps == 1 and undecided == 0:
        return StopDecision(
            StopReason.CONSENSUS,
            "One preferred extension, and it defeats every argument outside it.",
        )
    if round >= 2 and all(
        labels_unchanged(label_history[k - 1], label_history[k]) for k in (round - 1, round)
    ):
        return StopDecision(
            StopReason.STABLE_DISSENT,
            f"{camps} camps, and no argument changed label in rounds {round - 1} and {round}.",
        )
    if new_valid_attacks == 0:
        return StopDecision(
            StopReason.EVIDENCE_EXHAUSTED, f"Round {round} brought no new valid attack."
        )
    return None
