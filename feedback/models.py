"""Feedback and grades on a classroom submission: comments, replies, rubric, scores, release.

Everything hangs off `classroom.Submission` (arrows point from `feedback` to
`classroom` and `coach`, never back). A student sees comments and scores only
once a `Release` row exists for their submission.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _
from pydantic import ValidationError as PydanticError

from coach.steps import STEPS
from feedback.levels import parse_levels

ELEMENT_CHOICES = [(step.id, step.label_en) for step in STEPS]
MAX_COMMENT_CHARS = 4000
MAX_REPLY_CHARS = 2000


class Comment(models.Model):
    submission = models.ForeignKey(
        "classroom.Submission",
        on_delete=models.CASCADE,
        related_name="comments",
        verbose_name=_("submission"),
    )
    element = models.CharField(_("element"), max_length=20, choices=ELEMENT_CHOICES)
    message = models.ForeignKey(
        "coach.CoachMessage",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("message"),
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("author"),
    )
    text = models.TextField(_("comment"), max_length=MAX_COMMENT_CHARS)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name = _("comment")
        verbose_name_plural = _("comments")

    def __str__(self) -> str:
        return f"{self.element}: {self.text[:60]}"


class CommentReply(models.Model):
    comment = models.OneToOneField(
        Comment, on_delete=models.CASCADE, related_name="reply", verbose_name=_("comment")
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("author"),
    )
    text = models.TextField(_("reply"), max_length=MAX_REPLY_CHARS)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("reply")
        verbose_name_plural = _("replies")

    def __str__(self) -> str:
        return self.text[:60]


class Rubric(models.Model):
    assignment = models.OneToOneField(
        "classroom.Assignment",
        on_delete=models.CASCADE,
        related_name="rubric",
        verbose_name=_("assignment"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("rubric")
        verbose_name_plural = _("rubrics")

    def __str__(self) -> str:
        return str(self.assignment)


def validate_levels(value: object) -> None:
    try:
        parse_levels(value)
    except PydanticError as error:
        raise ValidationError(
            _("Give 1 to 10 levels, each with a label and whole points from 0 to 1000."),
            code="levels",
        ) from error


class Criterion(models.Model):
    rubric = models.ForeignKey(
        Rubric, on_delete=models.CASCADE, related_name="criteria", verbose_name=_("rubric")
    )
    name = models.CharField(_("name"), max_length=120)
    order = models.PositiveSmallIntegerField(_("order"), default=0)
    # [{"label": str, "points": int}, ...]: see feedback.levels.
    levels = models.JSONField(_("levels"), validators=[validate_levels])

    class Meta:
        ordering = ["rubric", "order", "id"]
        verbose_name = _("criterion")
        verbose_name_plural = _("criteria")

    def __str__(self) -> str:
        return self.name


class Score(models.Model):
    submission = models.ForeignKey(
        "classroom.Submission",
        on_delete=models.CASCADE,
        related_name="scores",
        verbose_name=_("submission"),
    )
    criterion = models.ForeignKey(
        Criterion, on_delete=models.CASCADE, related_name="scores", verbose_name=_("criterion")
    )
    level = models.PositiveSmallIntegerField(_("level"))
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["submission", "criterion"], name="one_score")
        ]
        verbose_name = _("score")
        verbose_name_plural = _("scores")

    def __str__(self) -> str:
        return f"{self.criterion}: {self.level}"


class Release(models.Model):
    submission = models.OneToOneField(
        "classroom.Submission",
        on_delete=models.CASCADE,
        related_name="release",
        verbose_name=_("submission"),
    )
    released_at = models.DateTimeField(_("released"), auto_now_add=True)
    released_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("released by"),
    )
    # The LMS grade passback's outcome: "" (not linked), "sent" or "failed" (see services).
    passback = models.CharField(_("grade passback"), max_length=300, blank=True, default="")

    class Meta:
        verbose_name = _("release")
        verbose_name_plural = _("releases")

    def __str__(self) -> str:
        return f"{self.submission} @ {self.released_at:%Y-%m-%d %H:%M}"
