"""What the feedback pages show: the argument's elements with their comments, the rubric rows."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from classroom.models import Submission
from coach.steps import STEPS, label_for, reader_language
from feedback.builtin_words import criterion_name, level_labels
from feedback.levels import parse_levels
from feedback.models import Comment, Release
from feedback.services import DISCUSSION_ELEMENT, Total, default_rubric, total_for

__all__ = [
    "ElementView",
    "ReleasedFeedback",
    "RubricRow",
    "elements",
    "released_feedback",
    "rubric_rows",
]


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
    # The criterion's name as the reader reads it (a built-in one in their language).
    name: str = ""

    @property
    def points(self) -> int | None:
        return self.levels[self.chosen].points if self.chosen is not None else None


def elements(submission: Submission) -> list[ElementView]:
    """The seven elements in order, each with the student's text and its comments.

    A discussion's submission has no argument: one element, the posts as a whole
    (their text is on the discussion's page).
    """
    argument = submission.argument
    reader = reader_language()  # the elements' names are the page's words, not the argument's
    comments = submission.comments.select_related("message", "reply").order_by("created_at", "id")
    if argument is None:
        whole = ElementView(DISCUSSION_ELEMENT, _("Your posts in the discussion"), "")
        whole.comments = [c for c in comments if c.element == DISCUSSION_ELEMENT]
        return [whole]
    views = {
        s.id: ElementView(s.id, label_for(s.id, reader), argument.step_text(s.id)) for s in STEPS
    }
    for comment in comments:
        if comment.element in views:
            views[comment.element].comments.append(comment)
    return list(views.values())


def rubric_rows(submission: Submission) -> list[RubricRow]:
    rubric = default_rubric(assignment=submission.assignment)
    chosen = {s.criterion_id: s.level for s in submission.scores.all()}
    reader = reader_language()  # the default rubric was seeded in the assignment's language
    rows = []
    for criterion in rubric.criteria.all():
        levels = level_labels(parse_levels(criterion.levels), reader)
        level = chosen.get(criterion.pk)
        rows.append(
            RubricRow(
                criterion,
                levels,
                level if level is not None and level < len(levels) else None,
                criterion_name(criterion.name, reader),
            )
        )
    return rows


@dataclass(frozen=True, slots=True)
class ReleasedFeedback:
    submission: Submission
    released_at: Any
    total: Total


def released_feedback(*, student: Any, limit: int = 10) -> list[ReleasedFeedback]:
    """The student's released feedback, newest release first (for their own page)."""
    if not getattr(student, "is_authenticated", False):
        return []
    releases = (
        Release.objects.filter(submission__student=student)
        .select_related("submission__assignment__classroom")
        .order_by("-released_at", "-id")[:limit]
    )
    return [
        ReleasedFeedback(
            submission=r.submission,
            released_at=r.released_at,
            total=total_for(submission=r.submission),
        )
        for r in releases
    ]
