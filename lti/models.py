"""How the LMS's objects map onto ours.

django-lti (`lti_tool`) already keeps the platform registrations, their
deployments, the tool's key pairs, and one row per platform user
(`LtiUser`: registration + `sub` -> `auth_user`, the "LTI user link"),
per course (`LtiContext`) and per resource link (`LtiResourceLink`).
This app adds only what is ours: which class a course is, which assignment
a resource link is, and which nonces were already used.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _
from lti_tool.models import LtiContext, LtiResourceLink

from classroom.models import Assignment, Classroom


class CourseClass(models.Model):
    """An LMS course (LTI context) is one of our classes."""

    context = models.OneToOneField(
        LtiContext, on_delete=models.CASCADE, related_name="course_class", verbose_name=_("course")
    )
    classroom = models.ForeignKey(
        Classroom, on_delete=models.CASCADE, related_name="lti_courses", verbose_name=_("class")
    )
    roster_synced_at = models.DateTimeField(_("roster synced"), null=True, blank=True)

    class Meta:
        verbose_name = _("LMS course")
        verbose_name_plural = _("LMS courses")

    def __str__(self) -> str:
        return f"{self.context} → {self.classroom}"


class LinkedAssignment(models.Model):
    """An LMS resource link launches straight into one assignment."""

    resource_link = models.OneToOneField(
        LtiResourceLink,
        on_delete=models.CASCADE,
        related_name="linked_assignment",
        verbose_name=_("resource link"),
    )
    assignment = models.ForeignKey(
        Assignment,
        on_delete=models.CASCADE,
        related_name="lti_links",
        verbose_name=_("assignment"),
    )
    # The AGS endpoint claim of the latest launch: where scores go back.
    lineitem_url = models.URLField(_("line item URL"), max_length=500, blank=True)
    lineitems_url = models.URLField(_("line items URL"), max_length=500, blank=True)
    scopes = models.JSONField(_("scopes"), default=list, blank=True)

    class Meta:
        verbose_name = _("LMS assignment link")
        verbose_name_plural = _("LMS assignment links")

    def __str__(self) -> str:
        return f"{self.resource_link} → {self.assignment}"


class UsedNonce(models.Model):
    """A launch's nonce, kept so the same id_token cannot be launched twice."""

    issuer = models.CharField(max_length=255)
    nonce = models.CharField(max_length=255)
    used_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["issuer", "nonce"], name="lti_nonce_used_once")
        ]

    def __str__(self) -> str:
        return f"{self.issuer} {self.nonce}"
