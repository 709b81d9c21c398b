"""What the feedback pages show: the argument's elements with their comments, the rubric rows."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from classroom.models import Submission
from coach.steps import STEPS, label_for
from feedback.levels import parse_levels
from feedback.models import Comment
from feedback.services import default_rubric

__all__ = ["ElementView", "RubricRow", "elements", "rubric_rows"]


@dataclass(slots=True)
class ElementView:
    id: str
    label: str
    text: str
    comments: list[Comment] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class RubricRow:
    criterion: Any
    levels: list[Any]
    chosen: int | None

    @property
    def points(self) -> int | None:
        return self.levels[self.chosen].points if self.chosen is not None else None


def elements(submission: Submission) -> list[ElementView]:
    """The seven elements in order, each with the student's text and its comments."""
    argument = submission.argument
    views = {
        s.id: ElementView(s.id, label_for(s.id, argument.language), argument.step_text(s.id))
        for s in STEPS
    }
    comments = submission.comments.select_related("message", "reply").order_by("created_at", "id")
    for comment in comments:
        views[comment.element].comments.append(comment)
    return list(views.values())


def rubric_rows(submission: Submission) -> list[RubricRow]:
    rubric = default_rubric(assignment=submission.assignment)
    chosen = {s.criterion_id: s.level for s in submission.scores.all()}
    rows = []
    for criterion in rubric.criteria.all():
        levels = parse_levels(criterion.levels)
        level = chosen.get(criterion.pk)
        rows.append(
            RubricRow(
                criterion, levels, level if level is not None and level < len(levels) else None
            )
        )
    return rows
