"""Platform registrations (without the static key fields) and our mappings."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from lti_tool.admin import LtiDeploymentInline, LtiRegistrationAdmin
from lti_tool.models import LtiRegistration
from pylti1p3.exception import LtiException
from requests import RequestException

from classroom.models import Classroom
from lti import services
from lti.models import CourseClass, LinkedAssignment

admin.site.unregister(LtiRegistration)

# A platform's URLs are https; a URL typed without a scheme is read as one (Django 6
# will assume it anyway: this says so now, without Django 5's warning on every form).
HTTPS_URLS = {models.URLField: {"assume_scheme": "https"}}


class DeploymentInline(LtiDeploymentInline):
    formfield_overrides = HTTPS_URLS


@admin.register(LtiRegistration)
class RegistrationAdmin(LtiRegistrationAdmin):
    """Issuer, client id, the platform's URLs and deployment ids.

    The tool signs with its own key pair (published at the JWKS URL); the
    per-registration static key fields are left out so no private key is
    ever shown or typed here.
    """

    fieldsets = [LtiRegistrationAdmin.fieldsets[0]]
    readonly_fields = ["uuid"]
    formfield_overrides = HTTPS_URLS
    inlines = [DeploymentInline]


@admin.register(CourseClass)
class CourseClassAdmin(admin.ModelAdmin):
    list_display = ["context", "classroom", "roster_synced_at"]
    readonly_fields = ["context", "classroom", "roster_synced_at"]
    actions = ["sync_roster"]

    def has_add_permission(self, request) -> bool:
        return False

    def get_queryset(self, request):
        """An instructor sees only the courses of the classes they teach."""
        taught = Classroom.objects.taught_by(request.user)
        return super().get_queryset(request).filter(classroom__in=taught)

    @admin.action(description=_("Add the LMS roster to the class (Names and Roles)"))
    def sync_roster(self, request, queryset) -> None:
        for course in queryset.select_related("context__deployment__registration", "classroom"):
            try:
                result = services.sync_roster(course=course)
            except (LtiException, RequestException, ValueError):
                # ValueError: the platform answered something that is not a roster.
                self.message_user(
                    request,
                    _("The LMS did not send the roster of %(course)s. Try again later.")
                    % {"course": course.context},
                    messages.ERROR,
                )
                continue
            self.message_user(
                request,
                ngettext(
                    "%(count)d student added to %(class)s.",
                    "%(count)d students added to %(class)s.",
                    result.added,
                )
                % {"count": result.added, "class": course.classroom},
            )
            if result.skipped:
                self.message_user(
                    request,
                    ngettext(
                        "%(count)d member of the LMS roster could not be read and was skipped "
                        "(no user id, or roles or status not as the standard says).",
                        "%(count)d members of the LMS roster could not be read and were skipped "
                        "(no user id, or roles or status not as the standard says).",
                        result.skipped,
                    )
                    % {"count": result.skipped},
                    messages.WARNING,
                )


@admin.register(LinkedAssignment)
class LinkedAssignmentAdmin(admin.ModelAdmin):
    list_display = ["resource_link", "assignment", "lineitem_url"]
    readonly_fields = ["resource_link", "lineitem_url", "lineitems_url", "scopes"]

    def has_add_permission(self, request) -> bool:
        return False
