"""What an LTI launch's id_token and an NRPS roster must look like, checked at the edge.

Pure (pydantic and the standard library). PyLTI1p3 and django-lti read the
id_token's claims with ``dict.get`` chains and the roster's members with
``member["status"]``: a payload that is a JSON array, ``resource_link: null``,
a context given as a string or a member without ``status`` raised
AttributeError, TypeError or KeyError deep inside them (a 500). So:

* ``check_id_token(token)`` reads the token's header and payload *before*
  PyLTI1p3 does (unverified: only their shape is checked here; the signature,
  state, nonce and deployment are still PyLTI1p3's to check) and raises
  ``MalformedLaunch`` when a claim the libraries read is not of the type the
  LTI 1.3 spec gives it. Ids longer than the column that keeps them, or text
  a database cannot store, are refused too.
* ``tidy_claims(body)``, after the signature was checked, shortens display
  text (names, titles) to the columns that keep them and drops a picture or
  email address too long to keep: those should not refuse a launch.
* ``parse_members(body)`` reads an NRPS membership container: members that
  are not what the spec says are skipped and counted, a missing ``status``
  means Active (the spec's default), and each member comes back as the dict
  django-lti expects.
"""

from __future__ import annotations

import base64
import binascii
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictInt,
    StrictStr,
    ValidationError,
)

from untrusted import JSONInputError, clean_text, loads_json, text_problem

__all__ = [
    "MAX_ROSTER_PAGES",
    "MalformedLaunch",
    "check_id_token",
    "parse_members",
    "tidy_claims",
]

LTI = "https://purl.imsglobal.org/spec/lti/claim/"
NRPS = "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"
AGS = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
PNS = LTI + "platformnotificationservice"

#: An id_token is a few kilobytes; a platform's is never near this.
MAX_TOKEN_CHARS = 64 * 1024
#: A roster is fetched page by page; a platform whose "next" link never ends stops here.
MAX_ROSTER_PAGES = 200


class MalformedLaunch(ValueError):
    """The id_token is not an LTI 1.3 launch; the message is for the log, not for people."""


def _storable(value: str) -> str:
    if text_problem(value):
        raise ValueError("not storable text")
    return value


# An id kept in a 255-character column (sub, context, resource link, deployment).
Id = Annotated[StrictStr, Field(min_length=1, max_length=255), AfterValidator(_storable)]
Url = Annotated[StrictStr, Field(max_length=2048)]


class _Claim(BaseModel):
    # Platforms add their own fields; only the ones the libraries read are checked.
    model_config = ConfigDict(extra="allow", populate_by_name=True)


class ResourceLink(_Claim):
    id: Id
    title: StrictStr | None = None
    description: StrictStr | None = None


class Context(_Claim):
    id: Id
    label: StrictStr | None = None
    title: StrictStr | None = None
    type: list[StrictStr] = []


class NamesRoles(_Claim):
    context_memberships_url: Url
    service_versions: list[StrictStr] = []


class Endpoint(_Claim):
    scope: list[StrictStr] = []
    lineitems: Url | None = None
    lineitem: Url | None = None


class PlatformInstance(_Claim):
    guid: Id
    contact_email: StrictStr | None = None
    description: StrictStr | None = None
    name: StrictStr | None = None
    url: StrictStr | None = None
    product_family_code: StrictStr | None = None
    version: StrictStr | None = None


class Notices(_Claim):
    platform_notification_service_url: Url = ""
    notice_types_supported: list[StrictStr] = []


class LaunchPresentation(_Claim):
    document_target: StrictStr | None = None
    return_url: Url | None = None


class Header(_Claim):
    alg: StrictStr
    kid: StrictStr


class LaunchBody(_Claim):
    iss: Annotated[StrictStr, Field(min_length=1, max_length=255)]
    # PyLTI1p3 reads the first audience of a list: an empty one would fail there.
    aud: StrictStr | Annotated[list[StrictStr], Field(min_length=1)]
    azp: StrictStr | None = None
    sub: Id
    nonce: Annotated[StrictStr, Field(min_length=1, max_length=255)]
    exp: StrictInt | float
    iat: StrictInt | float
    given_name: StrictStr | None = None
    family_name: StrictStr | None = None
    name: StrictStr | None = None
    email: StrictStr | None = None
    picture: StrictStr | None = None
    deployment_id: Id = Field(alias=LTI + "deployment_id")
    message_type: StrictStr = Field(alias=LTI + "message_type")
    version: StrictStr = Field(alias=LTI + "version")
    roles: list[StrictStr] = Field(alias=LTI + "roles")
    target_link_uri: Url | None = Field(None, alias=LTI + "target_link_uri")
    resource_link: ResourceLink | None = Field(None, alias=LTI + "resource_link")
    context: Context | None = Field(None, alias=LTI + "context")
    tool_platform: PlatformInstance | None = Field(None, alias=LTI + "tool_platform")
    launch_presentation: LaunchPresentation | None = Field(None, alias=LTI + "launch_presentation")
    custom: dict[str, Any] | None = Field(None, alias=LTI + "custom")
    lti1p1: dict[str, Any] | None = Field(None, alias=LTI + "lti1p1")
    names_roles: NamesRoles | None = Field(None, alias=NRPS)
    endpoint: Endpoint | None = Field(None, alias=AGS)
    notices: Notices | None = Field(None, alias=PNS)


def _segment(part: str) -> Any:
    try:
        raw = base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))
    except (binascii.Error, ValueError) as error:
        raise MalformedLaunch("a part of the id_token is not base64url") from error
    try:
        return loads_json(raw)
    except JSONInputError as error:
        raise MalformedLaunch(f"a part of the id_token is not JSON: {error}") from error


def _unstorable(value: Any) -> bool:
    # Claims are stored and looked up by the database: PostgreSQL refuses a NUL
    # even in a WHERE clause. No platform sends one, so the whole token is refused.
    if isinstance(value, str):
        return text_problem(value) is not None
    if isinstance(value, dict):
        return any(_unstorable(k) or _unstorable(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_unstorable(item) for item in value)
    return False


def check_id_token(token: object) -> None:
    """Raise MalformedLaunch unless `token` is a JWT whose header and claims have LTI's shape.

    Nothing here is trusted: it only keeps malformed input away from code
    that would fail on it. A launch that passes still has all of PyLTI1p3's
    checks to pass.
    """
    if not isinstance(token, str) or not token or len(token) > MAX_TOKEN_CHARS:
        raise MalformedLaunch("no id_token, or one of an impossible size")
    parts = token.split(".")
    if len(parts) != 3:
        raise MalformedLaunch("an id_token has three parts")
    header, body = _segment(parts[0]), _segment(parts[1])
    if _unstorable(body):
        raise MalformedLaunch("the id_token has text a database cannot store (NUL, lone surrogate)")
    try:
        Header.model_validate(header)
        claims = LaunchBody.model_validate(body)
    except ValidationError as error:
        raise MalformedLaunch(f"the id_token is not an LTI launch: {error}") from error
    if claims.message_type == "LtiResourceLinkRequest" and claims.resource_link is None:
        raise MalformedLaunch("a resource link launch without its resource_link claim")


# Display text kept in django-lti's columns: (claim, column length).
_USER_TEXT = {"given_name": 500, "family_name": 500, "name": 500}
_CONTEXT_TEXT = {"title": 500, "label": 255}
_LINK_TEXT = {"title": 500}
_URL_LENGTH = 200  # Django's URLField
_EMAIL_LENGTH = 254


def _tidy(claims: dict[str, Any], lengths: dict[str, int]) -> None:
    for key, length in lengths.items():
        # An explicit null: django-lti reads claims.get(key, "") and would store None in
        # a NOT NULL column; without the key it stores "" as for an absent claim.
        if key in claims and claims[key] is None:
            del claims[key]
        if isinstance(claims.get(key), str):
            claims[key] = clean_text(claims[key])[:length]


def _drop_unless_fits(claims: dict[str, Any], key: str, length: int) -> None:
    value = claims.get(key)
    unusable = isinstance(value, str) and (len(value) > length or text_problem(value))
    if unusable or (key in claims and value is None):  # null: as if the claim were absent
        del claims[key]


def tidy_claims(body: dict[str, Any]) -> None:
    """Shorten, in place, the display text of checked claims to what the database keeps.

    A course title or a name longer than its column is cut (PostgreSQL would
    refuse the row); a picture URL or email address too long to keep is
    dropped rather than kept broken.
    """
    _tidy(body, _USER_TEXT)
    _drop_unless_fits(body, "picture", _URL_LENGTH)
    _drop_unless_fits(body, "email", _EMAIL_LENGTH)
    for claim, lengths in ((LTI + "context", _CONTEXT_TEXT), (LTI + "resource_link", _LINK_TEXT)):
        if isinstance(body.get(claim), dict):
            _tidy(body[claim], lengths)
    for claim, key in (
        (NRPS, "context_memberships_url"),
        (AGS, "lineitems"),
        (PNS, "platform_notification_service_url"),
    ):
        if isinstance(body.get(claim), dict):
            _drop_unless_fits(body[claim], key, _URL_LENGTH)
    platform = body.get(LTI + "tool_platform")
    if isinstance(platform, dict):
        _tidy(platform, {"name": 500, "product_family_code": 500, "version": 500})
        _drop_unless_fits(platform, "url", _URL_LENGTH)
        _drop_unless_fits(platform, "contact_email", _EMAIL_LENGTH)


class RosterMember(_Claim):
    user_id: Id
    roles: list[StrictStr] = []
    # The NRPS spec: "If the status is not specified then a status of Active must be assumed."
    status: Literal["Active", "Inactive", "Deleted"] = "Active"
    given_name: StrictStr | None = None
    family_name: StrictStr | None = None
    name: StrictStr | None = None
    email: StrictStr | None = None
    picture: StrictStr | None = None


class MembershipContainer(_Claim):
    members: list[Any] = []


def parse_members(body: object) -> tuple[list[dict[str, Any]], int]:
    """(the members of one NRPS page as django-lti reads them, how many were skipped).

    A body that is not a membership container raises ValueError; a member
    that is not one is skipped (counted), so one bad row does not stop the
    rest of the class from being added.
    """
    try:
        container = MembershipContainer.model_validate(body)
    except ValidationError as error:
        raise ValueError("the platform's answer is not a membership container") from error
    members, skipped = [], 0
    for raw in container.members:
        try:
            member = RosterMember.model_validate(raw)
        except ValidationError:
            skipped += 1
            continue
        row = member.model_dump(
            include={"user_id", "roles", "status", *_USER_TEXT, "email", "picture"},
            exclude_none=True,
        )
        _tidy(row, _USER_TEXT)
        _drop_unless_fits(row, "picture", _URL_LENGTH)
        _drop_unless_fits(row, "email", _EMAIL_LENGTH)
        members.append(row)
    return members, skipped
