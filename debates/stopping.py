"""When a debate stops, checked in a fixed priority order, each in graph terms.

After every round r >= 1 (the opening round 0 only checks the first):

0. ``BUDGET`` — the engine's own stop, for every format (engine/stopping.py):
   the budget cannot pay for the next stage, checked before each stage.

``CRITICAL_DEFECT`` and ``MAX_ROUNDS`` are the engine's reasons too
(engine/stop_reasons.py); the last three are the graph debate's own
(:class:`GraphStopReason`, declared with the format: debates/graph_format.py).

1. ``CRITICAL_DEFECT`` — the debate cannot go on honestly: a round
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

from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from debates.models import StageName
from engine.stop_messages import register_stage_labels, register_stop_messages
from engine.stop_reasons import StopReason
from engine.stopping import StopDecision

__all__ = ["GraphStopReason", "labels_unchanged", "round_decision"]


class GraphStopReason(models.TextChoices):
    """What a graph debate may conclude (stored in ``Debate.stop_reason`` as always)."""

    CONSENSUS = "CONSENSUS", _("consensus")
    STABLE_DISSENT = "STABLE_DISSENT", _("stable dissent")
    EVIDENCE_EXHAUSTED = "EVIDENCE_EXHAUSTED", _("evidence exhausted")


# The graph debate's stops, as codes with their sentences (engine/stop_messages.py).
register_stop_messages(
    {
        "rounds_done": gettext_noop("Round %(round)s of %(max)s is done."),
        "consensus": gettext_noop(
            "One preferred extension, and it defeats every argument outside it."
        ),
        "stable_dissent": gettext_noop(
            "%(camps)s camps, and no argument changed label in rounds %(first)s and %(second)s."
        ),
        "no_new_attack": gettext_noop("Round %(round)s brought no new valid attack."),
        "no_opening_argument": gettext_noop("Round 0 produced no argument at all."),
        "validation_failed": gettext_noop("Round %(round)s: the validation call failed."),
        "attacks_failed": gettext_noop("Round %(round)s: every persona's attack call failed."),
    }
)

register_stage_labels(dict(StageName.choices))


def labels_unchanged(before: Mapping[str, str], after: Mapping[str, str]) -> bool:
    """True when every argument labelled ``before`` keeps its label ``after``."""
    return all(after.get(argument) == label for argument, label in before.items())


def round_decision(
    *,
    round: int,
    max_rounds: int,
    defect: StopDecision | None,
    camps: int,
    undecided: int,
    label_history: Sequence[Mapping[str, str]],
    new_valid_attacks: int,
) -> StopDecision | None:
    """The stop check after round ``round`` (see the module docstring for the order).

    ``label_history[k]`` is the grounded labelling after round k, for k = 0..round.
    """
    if defect:
        return defect
    if round == 0:
        return None
    if round >= max_rounds:
        return StopDecision.coded(StopReason.MAX_ROUNDS, "rounds_done", round=round, max=max_rounds)
    if camps == 1 and undecided == 0:
        return StopDecision.coded(GraphStopReason.CONSENSUS, "consensus")
    if round >= 2 and all(
        labels_unchanged(label_history[k - 1], label_history[k]) for k in (round - 1, round)
    ):
        return StopDecision.coded(
            GraphStopReason.STABLE_DISSENT,
            "stable_dissent",
            camps=camps,
            first=round - 1,
            second=round,
        )
    if new_valid_attacks == 0:
        return StopDecision.coded(GraphStopReason.EVIDENCE_EXHAUSTED, "no_new_attack", round=round)
    return None
