"""How the offline coach does on the labelled set (tests/coach/judgment_set.py).

An item is *accepted* when the coach's reply to it proposes it, or praises it
(confidence 0.75 or more: the offline coach's praise), or when a "yes" right
after puts it up as a proposal. A flaw is *caught* when it is not accepted; a
good answer should be accepted. Only `OfflineTurn` and `offline_reply` are
used, so the same measure runs on older versions of the coach.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from coach.offline import OfflineTurn, offline_reply
from coach.steps import STEP_IDS
from tests.coach.judgment_set import CONTEXTS, ITEMS, Item

__all__ = ["Figures", "accepted", "measure"]

PRAISE_CONFIDENCE = 0.75


def _turn(item: Item, message: str, earlier: tuple[str, ...]) -> OfflineTurn:
    context = CONTEXTS[item.context]
    before = STEP_IDS[: STEP_IDS.index(item.step)]
    return OfflineTurn(
        step=item.step,
        language=context["language"],
        message=message,
        draft_text="",
        step_messages=earlier,
        pending_proposal=None,
        draft={step: context[step] for step in before},
        title=context["title"],
    )


def accepted(item: Item, *, then_yes: bool = True) -> bool:
    """Whether the coach accepts, praises or (after "yes", unless `then_yes` is False)
    proposes the item's text."""
    reply = offline_reply(_turn(item, item.text, ()))
    if reply.proposedUpdate is not None or (reply.confidence or 0) >= PRAISE_CONFIDENCE:
        return True
    if not then_yes:
        return False
    yes = "sí" if CONTEXTS[item.context]["language"] == "es" else "yes"
    return offline_reply(_turn(item, yes, (item.text,))).proposedUpdate is not None


@dataclass(frozen=True)
class Figures:
    """Per language: flaws caught / flaws, good accepted / good; and the misses."""

    caught: dict[str, tuple[int, int]]
    good: dict[str, tuple[int, int]]
    by_kind: dict[tuple[str, str], tuple[int, int]]
    missed: tuple[Item, ...]

    def rate(self, table: str, language: str) -> float:
        hit, total = getattr(self, table)[language]
        return hit / total if total else 1.0

    def report(self) -> str:
        lines = []
        for language in ("en", "es"):
            (c, cn), (g, gn) = self.caught[language], self.good[language]
            lines.append(
                f"{language}: flaws caught {c}/{cn} ({c / cn:.0%}), "
                f"good accepted {g}/{gn} ({g / gn:.0%})"
            )
        for (kind, language), (hit, total) in sorted(self.by_kind.items()):
            lines.append(f"  {kind:20} {language}: {hit}/{total}")
        return "\n".join(lines)


def measure(*, then_yes: bool = True, items: tuple[Item, ...] = ITEMS) -> Figures:
    """The figures on `items`; `then_yes=False` judges the reply to the attempt alone."""
    caught: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    good: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    by_kind: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    missed = []
    for item in items:
        language = CONTEXTS[item.context]["language"]
        ok = accepted(item, then_yes=then_yes)
        right = ok if item.kind == "good" else not ok
        table = good if item.kind == "good" else caught
        table[language][0] += right
        table[language][1] += 1
        by_kind[(item.kind, language)][0] += right
        by_kind[(item.kind, language)][1] += 1
        if not right:
            missed.append(item)
    return Figures(
        caught={k: tuple(v) for k, v in caught.items()},
        good={k: tuple(v) for k, v in good.items()},
        by_kind={k: tuple(v) for k, v in by_kind.items()},
        missed=tuple(missed),
    )
