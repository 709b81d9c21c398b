"""Classes, memberships, assignments, per-student due dates and submissions.

A student's coach argument for an assignment is linked by `Submission`
(assignment, student, argument one-to-one) rather than a foreign key on
`coach.Argument`: the coach stays unaware of classes (arrows point from
`classroom` to `coach`), one row says "this student's work for this
assignment", and the later layers (comments, scores, release) hang off it.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from pydantic import ValidationError as PydanticError

from classroom.criteria import parse_required

# No 0/O, 1/I/L: read aloud in a classroom and typed on a phone.
JOIN_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
JOIN_CODE_LENGTH = 8


def new_join_code() -> str:
    return "".join(secrets.choice(JOIN_CODE_ALPHABET) for _ in range(JOIN_CODE_LENGTH))


class ClassroomQuerySet(models.QuerySet):
    def taught_by(self, user) -> ClassroomQuerySet:
        """The classes `user` teaches; a superuser sees every class."""
        if not getattr(user, "is_authenticated", False):
            return self.none()
        if user.is_superuser:
            return self.all()
        return self.filter(instructors=user)


class Classroom(models.Model):
    name = models.CharField(_("name"), max_length=200)
    join_code = models.CharField(
        _("join code"), max_length=16, unique=True, default=new_join_code, editable=False
    )
    instructors = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="classes_taught", verbose_name=_("instructors")
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    objects = ClassroomQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("class")
        verbose_name_plural = _("classes")

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    classroom = models.ForeignKey(
        Classroom, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("class")
    )
    student = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="memberships",
        verbose_name=_("student"),
    )
    joined_at = models.DateTimeField(_("joined"), auto_now_add=True)

    class Meta:
        ordering = ["classroom", "student__username"]
        constraints = [
            models.UniqueConstraint(fields=["classroom", "student"], name="one_membership")
        ]
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")

    def __str__(self) -> str:
        return gettext("%(student)s in %(class)s") % {
            "student": self.student,
            "class": self.classroom,
        }


class CoachPolicy(models.TextChoices):
    COACH = "coach", _("coach (proposals allowed)")
    HINTS_ONLY = "hints_only", _("hints only (never proposes text)")
    OFF = "off", _("off (typed fields only)")


class AssignmentLanguage(models.TextChoices):
    ENGLISH = "en", "English"
    SPANISH = "es", "Español"


def validate_required_criteria(value: object) -> None:
    try:
        parse_required(value)
    except PydanticError as error:
        raise ValidationError(
            _("Choose criteria from the list, each for its own step."), code="criteria"
        ) from error


class AssignmentKind(models.TextChoices):
    ARGUMENT = "argument", _("an argument with the coach")
    # Made and kept in step from the discussion (discussions.grading): its page is the work.
    DISCUSSION = "discussion", _("a class discussion")


class Assignment(models.Model):
    kind = models.CharField(
        _("kind"),
        max_length=12,
        choices=AssignmentKind.choices,
        default=AssignmentKind.ARGUMENT,
        editable=False,
    )
    classroom = models.ForeignKey(
        Classroom, on_delete=models.CASCADE, related_name="assignments", verbose_name=_("class")
    )
    title = models.CharField(_("title"), max_length=200)
    prompt = models.TextField(
        _("prompt"), help_text=_("The question or thesis topic the students argue.")
    )
    due_at = models.DateTimeField(_("due"), null=True, blank=True)
    language = models.CharField(
        _("language"),
        max_length=2,
        choices=AssignmentLanguage.choices,
        default=AssignmentLanguage.ENGLISH,
    )
    coach_policy = models.CharField(
        _("coach policy"), max_length=12, choices=CoachPolicy.choices, default=CoachPolicy.COACH
    )
    turn_quota = models.PositiveIntegerField(
        _("coach turns per student"),
        null=True,
        blank=True,
        help_text=_("Empty: no limit."),
    )
    # Besides the argument, the assignment may ask the student to put it on trial
    # and to stress-test it once it is complete (shown on their page and the grid).
    asks_trial = models.BooleanField(
        _("also ask for a trial"),
        default=False,
        help_text=_("The student puts the finished argument on trial and sees the verdict."),
    )
    asks_stress_test = models.BooleanField(
        _("also ask for a stress test"),
        default=False,
        help_text=_("AI personas attack the finished argument and the student defends it."),
    )
    # {step id: [criterion code, ...]}: see classroom.criteria.
    required_criteria = models.JSONField(
        _("required criteria"), default=dict, blank=True, validators=[validate_required_criteria]
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("assignment")
        verbose_name_plural = _("assignments")

    def __str__(self) -> str:
        return self.title

    def due_for(self, student) -> object:
        """This student's due date: their extension if any, else the assignment's."""
        extension = self.extensions.filter(student=student).first()
        return extension.due_at if extension is not None else self.due_at

    def is_closed_for(self, student, *, now=None) -> bool:
        due = self.due_for(student)
        return due is not None and (now or timezone.now()) > due


class AssignmentExtension(models.Model):
    """A later due date for one student."""

    assignment = models.ForeignKey(
        Assignment,
        on_delete=models.CASCADE,
        related_name="extensions",
        verbose_name=_("assignment"),
    )
    student = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("student"),
    )
    due_at = models.DateTimeField(_("due"))

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["assignment", "student"], name="one_extension")
        ]
        verbose_name = _("extension")
        verbose_name_plural = _("extensions")

    def __str__(self) -> str:
        return f"{self.student}: {self.due_at:%Y-%m-%d %H:%M}"


class Submission(models.Model):
    """A student's coach argument for an assignment (one each). Feedback hangs off this.

    A discussion assignment's submission has no argument: the student's work is
    their posts in the discussion (made when they first post, discussions.grading).
    """

    assignment = models.ForeignKey(
        Assignment,
        on_delete=models.CASCADE,
        related_name="submissions",
        verbose_name=_("assignment"),
    )
    student = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="submissions",
        verbose_name=_("student"),
    )
    argument = models.OneToOneField(
        "coach.Argument",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="submission",
        verbose_name=_("argument"),
    )
    started_at = models.DateTimeField(_("started"), auto_now_add=True)

    class Meta:
        ordering = ["assignment", "student__username"]
        constraints = [
            models.UniqueConstraint(fields=["assignment", "student"], name="one_submission")
        ]
        verbose_name = _("submission")
        verbose_name_plural = _("submissions")

    def __str__(self) -> str:
        return f"{self.student} — {self.assignment}"
