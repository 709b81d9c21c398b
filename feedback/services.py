"""What feedback does, one keyword-only function per action; views only orchestrate.

- `default_rubric`: the assignment's rubric, created on demand with the default criteria.
- `add_comment`: an instructor of the class comments on one element (optionally a message).
- `reply_to_comment`: the student replies once, after release.
- `set_score`: an instructor picks a level for one criterion.
- `release` / `unrelease` / `release_all`: students see feedback only once released;
  releasing sends the score to a linked LMS when the `lti` app offers `send_score`.
- `grades_csv`: one row per student of the class.
"""

from __future__ import annotations

import importlib
import io
import logging
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from classroom.models import Assignment, AssignmentKind, Classroom, Submission
from coach.steps import STEPS, is_step
from feedback.levels import DEFAULT_LEVELS, DEFAULT_LEVELS_ES, max_points, parse_levels
from feedback.models import (
    MAX_COMMENT_CHARS,
    MAX_REPLY_CHARS,
    Comment,
    CommentReply,
    Criterion,
    Release,
    Rubric,
    Score,
)
from untrusted import clean_text, text_problem
from untrusted.spreadsheet import safe_writer

__all__ = [
    "DISCUSSION_CRITERIA",
    "DISCUSSION_ELEMENT",
    "PASSBACK_FAILED",
    "PASSBACK_FAILED_MESSAGE",
    "PASSBACK_SENT",
    "FeedbackRefused",
    "Total",
    "add_comment",
    "default_rubric",
    "grades_csv",
    "is_instructor_of",
    "release",
    "release_all",
    "reply_to_comment",
    "set_score",
    "total_for",
    "unrelease",
]

log = logging.getLogger(__name__)

COHERENCE = {"en": "Overall coherence", "es": "Coherencia general"}
# A class discussion is scored like an argument, on what a discussion asks of a student.
DISCUSSION_CRITERIA = {
    "en": (
        "Arguments: a clear claim with reasons",
        "Objections: fit what they attack",
        "Critical questions used well",
        "Answers to objections",
    ),
    "es": (
        "Argumentos: una afirmación clara con razones",
        "Objeciones: atacan lo que dicen atacar",
        "Buen uso de las preguntas críticas",
        "Respuestas a las objeciones",
    ),
}
# The one element a discussion's comments are on: the student's posts as a whole.
DISCUSSION_ELEMENT = "discussion"
PASSBACK_SENT = "sent"
PASSBACK_FAILED = "failed"
PASSBACK_FAILED_MESSAGE = gettext_lazy(
    "Some scores could not be sent to the LMS. Release them again later to retry."
)


class FeedbackRefused(Exception):
    """The action is not allowed; the message is a plain sentence for the user."""


def is_instructor_of(*, user: Any, submission: Submission) -> bool:
    """Whether `user` teaches the class of this submission (a superuser teaches every class)."""
    return Classroom.objects.taught_by(user).filter(pk=submission.assignment.classroom_id).exists()


def _require_instructor(user: Any, submission: Submission) -> None:
    if not is_instructor_of(user=user, submission=submission):
        raise FeedbackRefused(_("Only an instructor of this class can do that."))


def _clean(text: str, *, limit: int) -> str:
    if not isinstance(text, str) or text_problem(text) is not None:
        raise FeedbackRefused(_("This text cannot be saved. Type it again and retry."))
    text = clean_text(text).strip()
    if not text:
        raise FeedbackRefused(_("Write something first."))
    if len(text) > limit:
        raise FeedbackRefused(_("Keep it under %(limit)d characters.") % {"limit": limit})
    return text


def default_rubric(*, assignment: Assignment) -> Rubric:
    """The assignment's rubric; the first call creates the default one, in its language."""
    rubric, created = Rubric.objects.get_or_create(assignment=assignment)
    if created:
        language = "es" if assignment.language == "es" else "en"
        parts = (
            list(DISCUSSION_CRITERIA[language])
            if assignment.kind == AssignmentKind.DISCUSSION
            else [step.label(language) for step in STEPS]
        )
        names = parts + [COHERENCE[language]]
        levels = list(DEFAULT_LEVELS_ES if language == "es" else DEFAULT_LEVELS)
        Criterion.objects.bulk_create(
            Criterion(rubric=rubric, name=name, order=order, levels=levels)
            for order, name in enumerate(names)
        )
    return rubric


def add_comment(
    *, author: Any, submission: Submission, element: str, text: str, message_id: int | None = None
) -> Comment:
    _require_instructor(author, submission)
    if submission.argument_id is None:  # a discussion: one comment box, on the whole work
        if element != DISCUSSION_ELEMENT or message_id is not None:
            raise FeedbackRefused(_("Comment on the student's posts as a whole."))
    elif not is_step(element):
        raise FeedbackRefused(_("Choose one element of the argument."))
    message = None
    if message_id is not None:
        message = submission.argument.messages.filter(pk=message_id).first()
        if message is None:
            raise FeedbackRefused(_("That message is not part of this argument."))
    return Comment.objects.create(
        submission=submission,
        element=element,
        message=message,
        author=author,
        text=_clean(text, limit=MAX_COMMENT_CHARS),
    )


def reply_to_comment(*, author: Any, comment: Comment, text: str) -> CommentReply:
    submission = comment.submission
    if author.pk != submission.student_id:
        raise FeedbackRefused(_("Only the student can reply to this comment."))
    if not Release.objects.filter(submission=submission).exists():
        raise FeedbackRefused(_("You can reply once your feedback is released."))
    cleaned = _clean(text, limit=MAX_REPLY_CHARS)
    try:
        with transaction.atomic():
            return CommentReply.objects.create(comment=comment, author=author, text=cleaned)
    except IntegrityError as error:
        raise FeedbackRefused(_("You have already replied to this comment.")) from error


def set_score(*, author: Any, submission: Submission, criterion: Criterion, level: int) -> Score:
    _require_instructor(author, submission)
    if criterion.rubric.assignment_id != submission.assignment_id:
        raise FeedbackRefused(_("That criterion belongs to another assignment."))
    if not isinstance(level, int) or not 0 <= level < len(parse_levels(criterion.levels)):
        raise FeedbackRefused(_("Choose one of the criterion's levels."))
    score, _created = Score.objects.update_or_create(
        submission=submission, criterion=criterion, defaults={"level": level}
    )
    return score


@dataclass(frozen=True, slots=True)
class Total:
    points: int
    maximum: int
    # {criterion id: points} for the criteria scored so far.
    by_criterion: dict[int, int]


def total_for(*, submission: Submission) -> Total:
    """Points given and the most the rubric allows (unscored criteria count 0)."""
    rubric = default_rubric(assignment=submission.assignment)
    criteria = list(rubric.criteria.all())
    levels = {score.criterion_id: score.level for score in submission.scores.all()}
    by_criterion: dict[int, int] = {}
    for criterion in criteria:
        parsed = parse_levels(criterion.levels)
        index = levels.get(criterion.pk)
        if index is not None and 0 <= index < len(parsed):
            by_criterion[criterion.pk] = parsed[index].points
    return Total(
        points=sum(by_criterion.values()),
        maximum=sum(max_points(c.levels) for c in criteria),
        by_criterion=by_criterion,
    )


def _send_score_seam() -> Any:
    """`lti.services.send_score` when the lti app is installed and offers it, else None."""
    try:
        module = importlib.import_module("lti.services")
    except ImportError:
        return None
    return getattr(module, "send_score", None)


def _pass_back(submission: Submission) -> str:
    """Send the total to a linked LMS; a plain outcome, never an exception."""
    send_score = _send_score_seam()
    if send_score is None:
        return ""
    total = total_for(submission=submission)
    try:
        sent = send_score(
            assignment=submission.assignment,
            student=submission.student,
            score=total.points,
            max_score=max(total.maximum, 1),
        )
    except Exception:  # noqa: BLE001 — a platform's failure must never break the release.
        log.warning("grade passback failed for submission %s", submission.pk, exc_info=True)
        return PASSBACK_FAILED
    return PASSBACK_SENT if sent else ""


def release(*, author: Any, submission: Submission, pass_back: bool = True) -> Release:
    """Show comments and scores to the student; send the score back to a linked LMS.

    ``pass_back=False`` releases without calling the LMS and records the
    score as not sent (``release_all`` does so once the LMS has failed).
    """
    _require_instructor(author, submission)
    row, _created = Release.objects.get_or_create(
        submission=submission, defaults={"released_by": author}
    )
    row.passback = _pass_back(submission) if pass_back else PASSBACK_FAILED
    row.save(update_fields=["passback"])
    return row


def unrelease(*, author: Any, submission: Submission) -> None:
    _require_instructor(author, submission)
    Release.objects.filter(submission=submission).delete()


def release_all(*, author: Any, assignment: Assignment) -> int:
    """Release every submission of the assignment; how many were released.

    Once one score cannot be sent to the LMS, the rest are released without
    trying (marked not sent, to be retried by releasing again): a platform
    that is down would otherwise cost one timeout per student in this request.
    """
    submissions = list(assignment.submissions.select_related("assignment", "student"))
    lms_answers = True
    for submission in submissions:
        row = release(author=author, submission=submission, pass_back=lms_answers)
        lms_answers = lms_answers and row.passback != PASSBACK_FAILED
    return len(submissions)


def grades_csv(*, assignment: Assignment) -> str:
    """One row per student of the class: each criterion's points, the total, released."""
    rubric = default_rubric(assignment=assignment)
    criteria = list(rubric.criteria.all())
    submissions = {
        s.student_id: s
        for s in assignment.submissions.select_related(
            "assignment", "student", "release"
        ).prefetch_related("scores")
    }
    students = [m.student for m in assignment.classroom.memberships.select_related("student")]
    out = io.StringIO()
    # The header too: criterion names are the instructor's text, opened in a spreadsheet.
    writer = safe_writer(out)
    writer.writerow(["student", *(c.name for c in criteria), "total", "max", "released"])
    maximum = sum(max_points(c.levels) for c in criteria)
    for student in sorted(students, key=lambda s: s.get_username()):
        submission = submissions.get(student.pk)
        if submission is None:
            cells = [""] * len(criteria)
            total, released = "", "no"
        else:
            result = total_for(submission=submission)
            cells = [result.by_criterion.get(c.pk, "") for c in criteria]
            total = result.points
            released = "yes" if hasattr(submission, "release") else "no"
        writer.writerow([student.get_username(), *cells, total, maximum, released])
    return out.getvalue()
