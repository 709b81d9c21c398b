"""What some posts carry beside themselves: the coach argument one was brought from, and
the AI check of an objection.

Separate small models, one row per post at most, so that the post itself
(``discussions.models.Post``) keeps its shape. Registered with Django by
``DiscussionsConfig.ready``, which imports this module.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from discussions.models import Post

__all__ = ["CheckStatus", "CoachOrigin", "ObjectionCheck"]


class CoachOrigin(models.Model):
    """A discussion argument brought from a coach argument, mapped as the stress test maps
    the seven elements (``stresstests.mapping``): the claim is the post's claim, the grounds
    and the backings its premises; the warrant is the step from them to the claim (what an
    undercut attacks); the qualifier and the rebuttal argue for nothing and are kept as the
    author wrote them, for the readers."""

    post = models.OneToOneField(
        Post, on_delete=models.CASCADE, related_name="coach_origin", verbose_name=_("post")
    )
    argument = models.ForeignKey(
        "coach.Argument",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("coach argument"),
    )
    # Which element each premise of the post is: "grounds", "groundsBacking", "warrantBacking".
    premise_elements = models.JSONField(_("elements of the premises"), default=list)
    warrant = models.TextField(_("warrant"), blank=True)
    qualifier = models.TextField(_("qualifier"), blank=True)
    rebuttal = models.TextField(_("rebuttal"), blank=True)

    class Meta:
        app_label = "discussions"
        verbose_name = _("argument brought from the coach")
        verbose_name_plural = _("arguments brought from the coach")

    def __str__(self) -> str:
        return str(self.post)


class CheckStatus(models.TextChoices):
    PENDING = "pending", _("being checked")
    DONE = "done", _("checked")
    FAILED = "failed", _("not checked")


class ObjectionCheck(models.Model):
    """The cheap model's reading of one objection: does it attack what its type says, and is
    it a restatement of what it answers. Advice for its author and the instructor: the
    semantics count the objection whatever it says (the type rule is enforced in code)."""

    post = models.OneToOneField(
        Post, on_delete=models.CASCADE, related_name="ai_check", verbose_name=_("objection")
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("asked by"),
    )
    status = models.CharField(
        _("status"), max_length=8, choices=CheckStatus.choices, default=CheckStatus.PENDING
    )
    fits_type = models.BooleanField(_("attacks what its type says"), null=True)
    restatement = models.BooleanField(_("restates what it answers"), null=True)
    explanation = models.TextField(_("explanation"), blank=True)
    model = models.CharField(_("model"), max_length=100, blank=True)
    # What the check cost; while it runs, what it may still cost (the quota counts it).
    cost_usd = models.DecimalField(_("cost (USD)"), max_digits=10, decimal_places=6, default=0)
    created_at = models.DateTimeField(_("asked"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        app_label = "discussions"
        verbose_name = _("AI check of an objection")
        verbose_name_plural = _("AI checks of objections")

    def __str__(self) -> str:
        return str(self.post)
