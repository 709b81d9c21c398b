"""Writes for LTI launches, the roster (NRPS) and grade passback (AGS).

- `ensure_tool_key`: the tool's RSA key pair, made on first use.
- `consume_nonce`: a launch's nonce is good once.
- `account_for_launch`: the platform user's local account (made on first launch).
- `class_for_launch`: the course's class (made on an instructor's first launch).
- `link_assignment`: a resource link now launches into this assignment.
- `sync_roster`: Names and Role Provisioning Service -> class members.
- `send_score`: Assignment and Grade Services -> the LMS gradebook. The grades
  layer calls this when a score is released (docs/lti.md "Grade passback").
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

import requests
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from lti_tool.models import Key, LtiContext, LtiResourceLink, LtiUser
from pylti1p3.assignments_grades import AssignmentsGradesService
from pylti1p3.grade import Grade
from pylti1p3.lineitem import LineItem
from pylti1p3.names_roles import NamesRolesProvisioningService
from pylti1p3.service_connector import ServiceConnector

from classroom.models import Assignment, Classroom, Membership
from classroom.services import make_instructor
from lti.claims import MAX_ROSTER_PAGES, parse_members
from lti.models import CourseClass, LinkedAssignment, UsedNonce
from lti.roles import is_instructor

__all__ = [
    "LaunchRefused",
    "RosterSync",
    "account_for_launch",
    "class_for_launch",
    "consume_nonce",
    "ensure_tool_key",
    "link_assignment",
    "send_score",
    "sync_roster",
]

AGS_SCORE_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/score"


class LaunchRefused(Exception):
    """A launch we will not honour; the message is a translated sentence."""


def ensure_tool_key() -> Key:
    """The tool's active signing key, generated (and stored) on first use."""
    key = Key.objects.active().order_by("-datetime_created").first()
    return key if key is not None else Key.objects.generate()


def consume_nonce(*, issuer: str, nonce: str) -> bool:
    """True the first time (issuer, nonce) is seen, False on a replay."""
    try:
        with transaction.atomic():
            UsedNonce.objects.create(issuer=issuer[:255], nonce=nonce[:255])
    except IntegrityError:
        return False
    return True


def _username_for(lti_user: LtiUser) -> str:
    base = f"lti-{lti_user.pk}"
    User = get_user_model()
    return (
        base
        if not User.objects.filter(username=base).exists()
        else f"{base}-{secrets.token_hex(3)}"
    )


def account_for_launch(*, lti_user: LtiUser, roles: list[str]) -> Any:
    """The local account linked to this platform user: made on first launch.

    The link is django-lti's `LtiUser` row (registration = issuer + client,
    `sub`) -> `auth_user`. An instructor role makes the account staff in the
    Instructors group; nothing ever makes it a superuser.
    """
    user = lti_user.auth_user
    if user is None:
        User = get_user_model()
        user = User.objects.create_user(
            username=_username_for(lti_user),
            email=lti_user.email or "",
            first_name=(lti_user.given_name or "")[:150],
            last_name=(lti_user.family_name or "")[:150],
        )
        user.set_unusable_password()
        user.save(update_fields=["password"])
        lti_user.auth_user = user
        lti_user.save(update_fields=["auth_user"])
    if is_instructor(roles) and not user.is_superuser:
        make_instructor(user=user)
    return user


def class_for_launch(*, context: LtiContext, user: Any, instructor: bool) -> Classroom:
    """The class this course is; an instructor's first launch creates it."""
    link = CourseClass.objects.select_related("classroom").filter(context=context).first()
    if link is None:
        if not instructor:
            raise LaunchRefused(
                _(
                    "This course is not set up here yet. Ask your instructor to open it "
                    "from the course once, then try again."
                )
            )
        classroom = Classroom.objects.create(name=(context.title or context.label or "LMS")[:200])
        link = CourseClass.objects.create(context=context, classroom=classroom)
    classroom = link.classroom
    if instructor:
        classroom.instructors.add(user)
    else:
        Membership.objects.get_or_create(classroom=classroom, student=user)
    return classroom


def link_assignment(
    *, resource_link: LtiResourceLink, assignment: Assignment, ags_claim: dict | None = None
) -> LinkedAssignment:
    """This resource link now launches into `assignment` (AGS endpoints kept)."""
    link, _created = LinkedAssignment.objects.update_or_create(
        resource_link=resource_link, defaults={"assignment": assignment}
    )
    if ags_claim is not None:
        remember_ags(link=link, ags_claim=ags_claim)
    return link


def remember_ags(*, link: LinkedAssignment, ags_claim: dict) -> None:
    """Keep the launch's AGS endpoint claim for grade passback."""
    link.lineitem_url = str(ags_claim.get("lineitem") or "")[:500]
    link.lineitems_url = str(ags_claim.get("lineitems") or "")[:500]
    scopes = ags_claim.get("scope") or []
    link.scopes = [str(s) for s in scopes][:20] if isinstance(scopes, list) else []
    link.save(update_fields=["lineitem_url", "lineitems_url", "scopes"])


class _BoundedSession(requests.Session):
    """A requests session whose every call has a timeout.

    pylti1p3 calls the platform (token, NRPS, AGS) through a plain
    ``requests.Session`` with no timeout, so a platform that accepts the
    connection and never answers would hold the request, or a class release,
    for ever. (connect, read) seconds, from ``LTI_PLATFORM_TIMEOUT_SECONDS``.
    """

    def request(self, *args: Any, **kwargs: Any) -> requests.Response:
        kwargs.setdefault("timeout", (3.05, settings.LTI_PLATFORM_TIMEOUT_SECONDS))
        return super().request(*args, **kwargs)


def _connector(registration: Any) -> ServiceConnector:
    session = _BoundedSession()
    session.headers["User-Agent"] = "argue-lti"
    return ServiceConnector(registration.to_registration(), requests_session=session)


@dataclass(frozen=True)
class RosterSync:
    """What adding the LMS roster did: students added, roster rows that could not be read."""

    added: int
    skipped: int


def fetch_member_data(context: LtiContext) -> tuple[list[dict], int]:
    """The platform's roster (NRPS) page by page, with bounded calls: (members, skipped).

    Each page is read by `lti.claims.parse_members` (a member without status
    is Active; one that is not a member is skipped and counted). A body that
    is not a membership container raises ValueError; a platform whose "next"
    link never ends stops after MAX_ROSTER_PAGES pages.
    """
    if not context.memberships_url:
        return [], 0
    nrps = NamesRolesProvisioningService(
        _connector(context.deployment.registration),
        {"context_memberships_url": context.memberships_url},
    )
    members: list[dict] = []
    skipped = 0
    url: str | None = context.memberships_url
    for _page in range(MAX_ROSTER_PAGES):
        data = nrps.get_nrps_data(members_url=url)
        page, page_skipped = parse_members(data.get("body"))
        members += page
        skipped += page_skipped
        url = data.get("next_page_url")
        if not url:
            break
    return members, skipped


def sync_roster(*, course: CourseClass) -> RosterSync:
    """Fetch the course roster (NRPS) and add its active learners to the class.

    Platform users are linked to accounts as on a launch (made if new);
    instructors are added as the class's instructors. Raises ValueError when
    the platform's answer is not a roster, LtiException or RequestException
    when it refuses or cannot be reached.
    """
    context = course.context
    members, skipped = fetch_member_data(context)
    context.update_memberships(members)
    registration = context.deployment.registration
    added = 0
    for member in members:
        if member["status"] != "Active":
            continue
        lti_user = LtiUser.objects.filter(registration=registration, sub=member["user_id"]).first()
        if lti_user is None:
            continue
        roles = member["roles"]
        user = account_for_launch(lti_user=lti_user, roles=roles)
        if is_instructor(roles):
            course.classroom.instructors.add(user)
        else:
            _membership, created = Membership.objects.get_or_create(
                classroom=course.classroom, student=user
            )
            added += int(created)
    course.roster_synced_at = timezone.now()
    course.save(update_fields=["roster_synced_at"])
    return RosterSync(added=added, skipped=skipped)


def send_score(*, assignment: Assignment, student: Any, score: float, max_score: float) -> int:
    """Send a released score to every LMS gradebook column linked to `assignment`.

    The seam for the grades layer: call it when a score is released. Returns
    how many scores the platforms accepted (0 if the assignment was never
    launched from an LMS, or the student has no LMS account). Raises
    `pylti1p3.exception.LtiException` or `requests.RequestException` when a
    platform refuses or cannot be reached; the caller decides about retries.
    """
    sent = 0
    links = LinkedAssignment.objects.filter(assignment=assignment).select_related(
        "resource_link__context__deployment__registration"
    )
    for link in links:
        if AGS_SCORE_SCOPE not in link.scopes:
            continue
        registration = link.resource_link.context.deployment.registration
        lti_user = LtiUser.objects.filter(registration=registration, auth_user=student).first()
        if lti_user is None:
            continue
        claim = {
            "scope": link.scopes,
            "lineitem": link.lineitem_url,
            "lineitems": link.lineitems_url,
        }
        ags = AssignmentsGradesService(_connector(registration), claim)
        grade = (
            Grade()
            .set_score_given(float(score))
            .set_score_maximum(float(max_score))
            .set_timestamp(timezone.now().isoformat())
            .set_activity_progress("Completed")
            .set_grading_progress("FullyGraded")
            .set_user_id(lti_user.sub)
        )
        lineitem = None
        if not link.lineitem_url:
            lineitem = (
                LineItem()
                .set_tag("argue")
                .set_label(assignment.title[:200])
                .set_resource_link_id(link.resource_link.id_on_platform)
                .set_score_maximum(float(max_score))
            )
            lineitem = ags.find_or_create_lineitem(lineitem, "resource_link_id")
        ags.put_grade(grade, lineitem)
        sent += 1
    return sent
