"""A class discussion on a thesis and its posts: arguments for or against, objections to posts."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from argumentation.schemes import SCHEMES

MAX_PREMISES = 5
MAX_TEXT = 1000

SCHEME_CHOICES = [(s.code, s.name["en"]) for s in SCHEMES]


class Discussion(models.Model):
    classroom = models.ForeignKey(
        "classroom.Classroom",
        on_delete=models.CASCADE,
        related_name="discussions",
        verbose_name=_("class"),
    )
    title = models.CharField(_("title"), max_length=200)
    thesis = models.TextField(_("thesis"), max_length=MAX_TEXT)
    due_at = models.DateTimeField(
        _("closes at"), null=True, blank=True, help_text=_("Leave empty for an open-ended one.")
    )
    anonymous = models.BooleanField(
        _("anonymous"),
        default=False,
        help_text=_("Classmates see no names; you always do."),
    )
    locked = models.BooleanField(_("locked"), default=False, help_text=_("No new posts."))
    # Graded: the discussion is an assignment of the class (kind "discussion"), on the
    # progress grid with a rubric and release like the others; empty for an open one.
    # The discussion keeps the title, thesis and closing time; the assignment mirrors
    # them (discussions.grading.sync_assignment).
    assignment = models.OneToOneField(
        "classroom.Assignment",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        editable=False,
        related_name="discussion",
        verbose_name=_("assignment"),
    )
    # The shared readings: a case file's sources, readable by the class on the page.
    case_file = models.ForeignKey(
        "casefiles.CaseFile",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("case file"),
        help_text=_("Its sources become the class's readings (they see them on the page)."),
    )
    readings = models.TextField(
        _("pinned readings"),
        max_length=4000,
        blank=True,
        help_text=_("What to read before posting (pages, links): pinned above the posts."),
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
        verbose_name = _("discussion")
        verbose_name_plural = _("discussions")

    def __str__(self) -> str:
        return self.title

    def is_open(self, *, now=None) -> bool:
        """Open for posts: not locked, and not past its closing time."""
        now = now or timezone.now()
        return not self.locked and (self.due_at is None or now < self.due_at)


class Team(models.TextChoices):
    FOR = "for", _("for the thesis")
    AGAINST = "against", _("against the thesis")
    FREE = "free", _("free (either side)")


class TeamPlace(models.Model):
    """A student's team in one discussion; a student with no row argues freely."""

    discussion = models.ForeignKey(
        Discussion, on_delete=models.CASCADE, related_name="teams", verbose_name=_("discussion")
    )
    student = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("student"),
    )
    team = models.CharField(_("team"), max_length=8, choices=Team.choices, default=Team.FREE)

    class Meta:
        ordering = ["discussion", "team", "student__username"]
        constraints = [
            models.UniqueConstraint(fields=["discussion", "student"], name="one_team_place")
        ]
        verbose_name = _("team place")
        verbose_name_plural = _("teams")

    def __str__(self) -> str:
        return f"{self.student}: {self.get_team_display()}"


class PostKind(models.TextChoices):
    ARGUMENT = "argument", _("argument")
    OBJECTION = "objection", _("objection")


class Side(models.TextChoices):
    FOR = "for", _("for the thesis")
    AGAINST = "against", _("against the thesis")


class AttackType(models.TextChoices):
    REBUT = "rebut", _("rebut: deny the claim")
    UNDERMINE = "undermine", _("undermine: deny a premise")
    UNDERCUT = "undercut", _("undercut: deny that the premises support the claim")


class Component(models.TextChoices):
    CLAIM = "claim", _("its claim")
    PREMISE = "premise", _("a premise")
    INFERENCE = "inference", _("the step from its premises to its claim")


class Post(models.Model):
    discussion = models.ForeignKey(
        Discussion, on_delete=models.CASCADE, related_name="posts", verbose_name=_("discussion")
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="discussion_posts",
        verbose_name=_("author"),
    )
    kind = models.CharField(_("kind"), max_length=12, choices=PostKind.choices)
    side = models.CharField(_("side"), max_length=8, choices=Side.choices, blank=True)
    claim = models.TextField(_("claim"), max_length=MAX_TEXT)
    premises = models.JSONField(_("premises"), default=list, blank=True)
    scheme = models.CharField(_("argument scheme"), max_length=40, blank=True)
    target = models.ForeignKey(
        "self",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="objections",
        verbose_name=_("objects to"),
    )
    attack_type = models.CharField(
        _("type of objection"), max_length=12, choices=AttackType.choices, blank=True
    )
    component = models.CharField(
        _("part attacked"), max_length=12, choices=Component.choices, blank=True
    )
    premise_index = models.PositiveSmallIntegerField(_("premise"), null=True, blank=True)
    question_code = models.CharField(_("critical question"), max_length=60, blank=True)
    hidden = models.BooleanField(_("hidden"), default=False)
    hidden_reason = models.CharField(_("why it is hidden"), max_length=300, blank=True)
    hidden_at = models.DateTimeField(_("hidden at"), null=True, blank=True)
    created_at = models.DateTimeField(_("posted"), auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name = _("post")
        verbose_name_plural = _("posts")
        indexes = [models.Index(fields=["discussion", "created_at"])]

    def __str__(self) -> str:
        return self.claim[:80]
