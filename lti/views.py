"""LTI 1.3 endpoints: JWKS, tool configuration, OIDC login initiation, launch.

The launch is a cross-site POST from the LMS, so it is CSRF-exempt: the
platform's signature on the id_token, the `state` we set at login
initiation and the one-time nonce are its protection (docs/lti.md).
"""

from __future__ import annotations

import logging

from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET
from lti_tool.constants import SESSION_KEY
from lti_tool.models import Key, LtiResourceLink
from lti_tool.utils import DjangoToolConfig, get_launch_from_request, sync_data_from_launch
from lti_tool.views import LtiLaunchBaseView
from pylti1p3.contrib.django import DjangoCacheDataStorage, DjangoOIDCLogin
from pylti1p3.exception import LtiException, OIDCException
from requests import RequestException

from classroom.models import Assignment, AssignmentKind
from classroom.services import start_submission
from lti import framing, services
from lti.claims import MalformedLaunch, check_id_token, tidy_claims
from lti.config import tool_configuration
from lti.forms import LinkAssignmentForm
from lti.models import LinkedAssignment
from lti.roles import is_instructor
from untrusted import text_problem

logger = logging.getLogger(__name__)

REFUSED_TEMPLATE = "lti/refused.html"


def _refused(request: HttpRequest, message: str, status: int = 403) -> HttpResponse:
    return render(request, REFUSED_TEMPLATE, {"message": message}, status=status)


@require_GET
def jwks(request: HttpRequest) -> JsonResponse:
    """The tool's public keys (the private key never leaves the database)."""
    services.ensure_tool_key()
    return JsonResponse(Key.objects.as_jwks())


@require_GET
def config_page(request: HttpRequest) -> HttpResponse:
    """What an LMS administrator types into the LMS to register this tool."""
    return render(request, "lti/config.html", {"config": tool_configuration(request)})


@require_GET
def config_json(request: HttpRequest) -> JsonResponse:
    """The same configuration as Canvas-style JSON (paste or fetch by URL)."""
    return JsonResponse(tool_configuration(request).canvas_json())


@csrf_exempt
@xframe_options_exempt
def login_initiation(request: HttpRequest) -> HttpResponse:
    """OIDC third-party login initiation (GET or a cross-site POST from the LMS).

    It changes nothing for any account: it only sets a fresh state and nonce
    and redirects to the platform's authorization endpoint.
    """
    params = request.POST if request.method == "POST" else request.GET
    required = [params.get(name) for name in ("iss", "target_link_uri", "login_hint")]
    # Looked up in the database: PostgreSQL refuses a NUL even in a WHERE clause.
    if not all(required) or any(text_problem(value) for value in params.values()):
        return _refused(request, _("This link must be opened from your course in the LMS."), 400)
    services.ensure_tool_key()
    oidc = DjangoOIDCLogin(
        request, DjangoToolConfig(), launch_data_storage=DjangoCacheDataStorage()
    )
    try:
        return oidc.redirect(request.build_absolute_uri(reverse("lti:launch")))
    except (LtiException, OIDCException):
        return _refused(
            request,
            _("This LMS is not registered here. Ask your administrator to register it."),
            403,
        )


def _after_launch_url(request: HttpRequest, lti_launch, user) -> str:
    roles = [str(r) for r in (lti_launch.roles_claim or [])]
    instructor = is_instructor(roles)
    context = lti_launch.context
    classroom = services.class_for_launch(context=context, user=user, instructor=instructor)
    resource_link = lti_launch.resource_link
    link = LinkedAssignment.objects.filter(resource_link=resource_link).first()
    ags_claim = lti_launch.ags_claim
    if link is not None and isinstance(ags_claim, dict):
        services.remember_ags(link=link, ags_claim=ags_claim)
    if link is None or link.assignment.classroom_id != classroom.pk:
        if instructor:
            if isinstance(ags_claim, dict):
                request.session["lti_ags_claim"] = ags_claim
            return reverse("lti:link_assignment", args=[resource_link.pk])
        raise services.LaunchRefused(
            _("Your instructor has not chosen the assignment for this link yet. Try again later.")
        )
    if instructor:
        return _assignment_admin_url(link.assignment)
    if link.assignment.kind == AssignmentKind.DISCUSSION:
        # A class discussion: its page is the work (the assignment's page leads there).
        return reverse("classroom:assignment_detail", args=[link.assignment.pk])
    submission = start_submission(assignment=link.assignment, student=user)
    return reverse("coach:argument_detail", args=[submission.argument_id])


def _platform_origins(lti_launch) -> list[str]:
    """Where the launching LMS lives: it may frame this session's pages (lti/framing.py)."""
    registration = lti_launch.registration
    presentation = lti_launch.get_claim(
        "https://purl.imsglobal.org/spec/lti/claim/launch_presentation"
    )
    return_url = presentation.get("return_url") if isinstance(presentation, dict) else None
    return framing.origins([registration.issuer, registration.auth_url, return_url])


def _assignment_admin_url(assignment: Assignment) -> str:
    try:
        return reverse("admin:classroom_assignment_change", args=[assignment.pk])
    except NoReverseMatch:
        return reverse("admin:index")


def _cookies_blocked_in_frame(request: HttpRequest, error: Exception) -> bool:
    """A launch in an iframe whose state cookies never came back: the browser blocked them.

    The state and session cookies set at login initiation are third-party in the
    LMS's iframe; Safari drops them all (docs/lti.md). PyLTI1p3 then finds no
    state. `Sec-Fetch-Dest` says the launch was loading into a frame.
    """
    text = str(error)
    blocked = "State not found" in text or "cookie lti1p3-session-id" in text
    return blocked and request.headers.get("Sec-Fetch-Dest") in ("iframe", "frame")


@method_decorator(xframe_options_exempt, name="dispatch")
class LaunchView(LtiLaunchBaseView):
    """The LTI resource link launch (django-lti validates; we map and redirect)."""

    http_method_names = ["post"]

    def post(self, request, *args, **kwargs):
        services.ensure_tool_key()
        try:
            return self._launch(request)
        except services.LaunchRefused as refusal:
            return _refused(request, str(refusal), 403)
        except (LtiException, OIDCException, RequestException, KeyError, ValueError) as error:
            # MalformedLaunch is a ValueError: the id_token was not an LTI launch.
            logger.info("LTI launch refused", exc_info=True)
            if _cookies_blocked_in_frame(request, error):
                return _refused(
                    request,
                    _(
                        "Your browser does not let this tool sign you in inside the course "
                        "page (Safari does this). Ask your instructor to set the tool to open "
                        "in a new window, or open the course in another browser."
                    ),
                    403,
                )
            return _refused(
                request,
                _(
                    "This launch could not be verified, so we did not sign you in. "
                    "Go back to your course and open the link again."
                ),
                403,
            )

    def _launch(self, request) -> HttpResponse:
        """django-lti's launch (LtiLaunchBaseView.post), with the claims checked first.

        PyLTI1p3 and django-lti read the claims as dicts of the right types;
        `check_id_token` refuses any other shape before they do (lti/claims.py),
        and `tidy_claims` shortens display text to the columns that keep it.
        """
        check_id_token(request.POST.get("id_token"))
        request.session.clear()
        lti_launch = get_launch_from_request(request)
        tidy_claims(lti_launch.get_launch_data())
        sync_data_from_launch(lti_launch, None)
        self.launch_setup(request, lti_launch)
        if not lti_launch.deployment.is_active:
            return self.handle_inactive_deployment(request, lti_launch)
        request.session[SESSION_KEY] = lti_launch.get_launch_id()
        request.lti_launch = lti_launch
        if lti_launch.is_resource_launch:
            return self.handle_resource_launch(request, lti_launch)
        if lti_launch.is_deep_link_launch:
            return self.handle_deep_linking_launch(request, lti_launch)
        raise MalformedLaunch("a message type this tool does not handle")

    def launch_setup(self, request, lti_launch) -> None:
        body = lti_launch.get_launch_data()
        if not services.consume_nonce(issuer=str(body.get("iss")), nonce=str(body.get("nonce"))):
            raise services.LaunchRefused(
                _("This launch was already used. Go back to your course and open the link again.")
            )

    def handle_inactive_deployment(self, request, lti_launch) -> HttpResponse:
        return _refused(
            request,
            _(
                "This deployment of the tool is not enabled here. Ask your administrator "
                "to enable its deployment id."
            ),
            403,
        )

    def handle_resource_launch(self, request, lti_launch) -> HttpResponse:
        roles = [str(r) for r in (lti_launch.roles_claim or [])]
        user = services.account_for_launch(lti_user=lti_launch.user, roles=roles)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        request.session[framing.SESSION_KEY] = _platform_origins(lti_launch)
        return redirect(_after_launch_url(request, lti_launch, user))

    def handle_deep_linking_launch(self, request, lti_launch) -> HttpResponse:
        return _refused(request, _("Deep linking is not supported yet: add the link by hand."), 400)


def _get_resource_link_for_instructor(user, link_id: int) -> LtiResourceLink:
    resource_link = get_object_or_404(
        LtiResourceLink.objects.select_related("context__course_class__classroom"), pk=link_id
    )
    course = getattr(resource_link.context, "course_class", None)
    if course is None or not course.classroom.instructors.filter(pk=user.pk).exists():
        raise Http404
    return resource_link


@login_required
def link_assignment(request: HttpRequest, link_id: int) -> HttpResponse:
    """An instructor's first launch of a link: pick or create its assignment."""
    resource_link = _get_resource_link_for_instructor(request.user, link_id)
    classroom = resource_link.context.course_class.classroom
    form = LinkAssignmentForm(
        request.POST or None, classroom=classroom, initial={"title": resource_link.title}
    )
    if request.method == "POST" and form.is_valid():
        assignment = form.save(user=request.user)
        services.link_assignment(
            resource_link=resource_link,
            assignment=assignment,
            ags_claim=request.session.pop("lti_ags_claim", None),
        )
        return redirect(_assignment_admin_url(assignment))
    return render(
        request,
        "lti/link_assignment.html",
        {"form": form, "resource_link": resource_link, "classroom": classroom},
    )
