"""The coach's JSON API, called by static/js/coach.js. Thin: parse, call a service, shape.

- ``POST /api/coach`` {argument_id, message, step, retry_of?} -> application/x-ndjson
  (see coach.turn for the lines). Async: it streams the model's reply.
  ``retry_of`` is the ``user_message_id`` a failed turn reported: the retry
  reuses that stored message instead of storing the words again.
- ``GET  /api/arguments/<id>`` -> the draft (coach.draft.draft_json).
- ``POST /api/arguments/<id>/proposal`` {action: accept|reject, value?}
  -> the draft plus {"advanced": bool, "completed": bool}; a rejection adds
  {"acknowledgement": {"message_id", "text"}}: the coach's stored reply to it.
- ``POST /api/arguments/<id>/draft`` {field: <step id>, value} -> the draft.
- ``POST /api/arguments/<id>/advance`` {value?} -> the draft plus {"advanced",
  "completed"}: moves on with the student's own words (``value``, saved first,
  else the step's typed text) when an assignment's policy forbids proposals.

A move on refused by an instructor's required criteria (accept or advance) is
400 ``criteria_not_met`` with ``coach_message`` {"message_id", "text"}: what
the coach said about it in the transcript (what is missing). A proposal left
from before the assignment became hints only is 409 ``proposals_off``.

An instructor's policy (coach.policy) is enforced here: a read-only
argument (past its due date) refuses every write with 403 ``read_only``.

Conventions: every POST is CSRF-protected by the middleware (the page sends
X-CSRFToken). An anonymous caller gets 401 ``{"error":
"authentication_required", "login_url": ...}`` rather than a redirect: a
fetch() would follow the redirect and try to parse a login page as JSON.
Another student's argument, like a missing one, is 404 ``{"error":
"not_found"}``. Bad input is 400 ``{"error": <code>, "detail": <text>}``.
A turn refused by a limit (limits.services) is 429 ``{"error": "rate_limited" |
"quota_exceeded", "detail": <plain sentence with the reset time>, "retry_at":
<ISO 8601>}`` with ``Retry-After``, before anything is stored or paid for.
"""

from __future__ import annotations

import json
import math
from collections.abc import AsyncIterator, Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.shortcuts import resolve_url
from django.utils import timezone, translation
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from coach.models import Argument
from coach.policy import Policy, policy_for
from coach.selectors import get_argument_for_user
from coach.services import (
    ProposalError,
    accept_proposal,
    admit_turn,
    advance_typed,
    draft_json,
    reject_proposal,
    run_turn,
    save_typed_field,
)
from coach.turn_store import TurnState, begin_turn
from limits.services import LimitReached
from untrusted import JSONInputError, loads_json, parse_id, text_problem
from untrusted.forms import UNSTORABLE_TEXT

__all__ = [
    "MAX_MESSAGE_CHARS",
    "api_advance",
    "api_argument",
    "api_coach",
    "api_draft",
    "api_proposal",
]

# Longer than any honest chat message; bounds what one turn can cost.
MAX_MESSAGE_CHARS = 4000
MAX_FIELD_CHARS = 5000


class BadRequest(Exception):
    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code, self.detail = code, detail


def _error(status: int, code: str, detail: str = "", **extra: Any) -> JsonResponse:
    return JsonResponse({"error": code, "detail": detail, **extra}, status=status)


def _unauthenticated() -> JsonResponse:
    return _error(
        401, "authentication_required", "sign in first", login_url=resolve_url(settings.LOGIN_URL)
    )


def _not_found() -> JsonResponse:
    return _error(404, "not_found", "no such argument")


def _limit_reached(refused: LimitReached) -> JsonResponse:
    """429 {"error": "rate_limited" | "quota_exceeded", "detail": <sentence>, "retry_at": <ISO>}.

    Nothing is stored: the page keeps the words in the box to send later.
    """
    response = JsonResponse(refused.as_json(), status=429)
    if refused.retry_at is not None:
        seconds = (refused.retry_at - timezone.now()).total_seconds()
        response["Retry-After"] = str(max(1, math.ceil(seconds)))
    return response


def _json_body(request: HttpRequest) -> dict[str, Any]:
    try:
        body = loads_json(request.body or b"{}")
    except JSONInputError as error:
        raise BadRequest("bad_json", str(error)) from error
    if not isinstance(body, dict):
        raise BadRequest("bad_json", "the body must be a JSON object")
    return body


def _text(body: dict[str, Any], key: str, *, limit: int, required: bool = True) -> str:
    value = body.get(key, None if required else "")
    if not isinstance(value, str):
        raise BadRequest(f"bad_{key}", f"{key} must be a string")
    if len(value) > limit:
        raise BadRequest(
            f"{key}_too_long", too_long_detail(key=key, limit=limit, length=len(value))
        )
    if text_problem(value) is not None:
        raise BadRequest("unstorable_text", str(UNSTORABLE_TEXT))
    return value


def too_long_detail(*, key: str, limit: int, length: int) -> str:
    """The limit in words, for the student: the page shows this sentence as it is."""
    numbers = {
        "limit": number_format(limit, force_grouping=True),
        "length": number_format(length, force_grouping=True),
    }
    if key == "message":
        return (
            _(
                "Your message is %(length)s characters long; the limit is %(limit)s. "
                "Shorten it (or send it in parts) and send it again."
            )
            % numbers
        )
    return (
        _("This text is %(length)s characters long; the limit is %(limit)s. Shorten it and save.")
        % numbers
    )


def _optional_id(body: dict[str, Any], key: str) -> int | None:
    value = body.get(key)
    if value is None:
        return None
    if not isinstance(value, int) or parse_id(value) is None:
        raise BadRequest(f"bad_{key}", f"{key} must be a message id")
    return value


def _argument_and_policy(request: HttpRequest, argument_id: int) -> tuple[Argument, Policy]:
    """The signed-in student's own argument (coach.selectors: Http404, which
    `api_login_required` answers as JSON, for anyone else's) and its policy."""
    argument = get_argument_for_user(request.user, argument_id)
    return argument, policy_for(argument)


def api_login_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """401 JSON for anonymous callers of the sync endpoints; 404 and 400 as JSON too."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return _unauthenticated()
        try:
            return view(request, *args, **kwargs)
        except Http404:
            return _not_found()
        except BadRequest as bad:
            return _error(400, bad.code, bad.detail)
        except ProposalError as refused:
            extra = {}
            if refused.reply is not None:
                # The coach's words about the refusal, for the page to show in the transcript.
                extra["coach_message"] = {
                    "message_id": refused.reply.pk,
                    "text": refused.reply.text,
                }
            if refused.value is not None:
                extra["value"] = refused.value  # nothing the student wrote is lost
            return _error(refused.status, refused.code, str(refused), **extra)

    return wrapper


async def _ndjson(lines: AsyncIterator[dict[str, Any]]) -> AsyncIterator[bytes]:
    async for line in lines:
        yield (json.dumps(line, ensure_ascii=False) + "\n").encode()


def _turn_request(body: dict[str, Any]) -> dict[str, Any]:
    """The turn's arguments from the body of ``POST /api/coach``; BadRequest if malformed."""
    message = _text(body, "message", limit=MAX_MESSAGE_CHARS, required=False)
    step = _text(body, "step", limit=40)
    argument_id = parse_id(body.get("argument_id"))
    if argument_id is None:
        raise BadRequest("bad_argument_id", "argument_id must be an id")
    return {
        "argument_id": argument_id,
        "message": message.strip(),
        "step": step,
        "retry_of": _optional_id(body, "retry_of"),
    }


def _policy_refusal(policy: Policy) -> JsonResponse | None:
    """An instructor's rule that refuses this turn before anything is stored (coach.policy).

    403 ``read_only`` after the due date, 403 ``coach_off`` when the coach is
    off for the assignment, 429 ``turn_quota`` when the turns are used up;
    each with a plain sentence in ``detail``.
    """
    if policy.locked:
        return _error(403, "read_only", policy.locked)
    if not policy.coach:
        return _error(
            403,
            "coach_off",
            _("The coach is off for this assignment: type each part of your argument yourself."),
        )
    if policy.quota_refusal:
        return _error(429, "turn_quota", policy.quota_refusal)
    return None


def _open_turn(request: HttpRequest) -> HttpResponse | tuple[TurnState, str, str]:
    """Everything before the stream, in one thread hop: who asks, what, and `begin_turn`.

    Sync on purpose: the session and the user load here (``request.user``), in
    the same hop as the turn's own transaction, instead of two hops of their
    own through ``request.auser()``. Returns the error response, or the
    turn's state with the message and the step the page showed.
    """
    if not request.user.is_authenticated:
        return _unauthenticated()
    try:
        turn = _turn_request(_json_body(request))
        admit_turn(user=request.user)
    except BadRequest as bad:
        return _error(400, bad.code, bad.detail)
    except LimitReached as refused:
        return _limit_reached(refused)
    try:
        argument = get_argument_for_user(request.user, turn.pop("argument_id"))
    except Http404:
        return _not_found()
    state = begin_turn(
        argument=argument,
        refuse=_policy_refusal,
        page_language=translation.get_language() or "",
        **turn,
    )
    if isinstance(state, HttpResponse):
        return state
    return state, turn["message"], turn["step"]


@require_POST
def api_coach(request: HttpRequest) -> HttpResponse:
    # A sync view: the request's checks and `begin_turn` run in the request's thread
    # with the sync middleware; only the reply streams from the event loop, as the
    # response's async iterator.
    opened = _open_turn(request)
    if isinstance(opened, HttpResponse):
        return opened
    state, message, step = opened
    response = StreamingHttpResponse(
        _ndjson(run_turn(state=state, message=message, step=step)),
        content_type="application/x-ndjson",
    )
    # Proxies must pass each line on as it comes, not buffer the reply.
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response


@require_GET
@api_login_required
def api_argument(request: HttpRequest, argument_id: int) -> HttpResponse:
    argument, policy = _argument_and_policy(request, argument_id)
    return JsonResponse(draft_json(argument=argument, policy=policy))


@require_POST
@api_login_required
def api_proposal(request: HttpRequest, argument_id: int) -> HttpResponse:
    argument, policy = _argument_and_policy(request, argument_id)
    body = _json_body(request)
    action = body.get("action")
    extra: dict[str, Any] = {}
    if action == "accept":
        value = body.get("value")
        if value is not None:
            value = _text(body, "value", limit=MAX_FIELD_CHARS)
        argument, advanced = accept_proposal(argument=argument, value=value)
        completed = argument.is_complete
    elif action == "reject":
        argument, reply = reject_proposal(argument=argument)
        advanced, completed = False, False
        extra["acknowledgement"] = {"message_id": reply.pk, "text": reply.text}
    else:
        raise BadRequest("bad_action", 'action must be "accept" or "reject"')
    # The policy read with the argument: a move on changes the draft, not the class's rules.
    draft = draft_json(argument=argument, policy=policy)
    return JsonResponse({**draft, "advanced": advanced, "completed": completed, **extra})


@require_POST
@api_login_required
def api_draft(request: HttpRequest, argument_id: int) -> HttpResponse:
    argument, policy = _argument_and_policy(request, argument_id)
    body = _json_body(request)
    step = _text(body, "field", limit=40)
    value = _text(body, "value", limit=MAX_FIELD_CHARS)
    argument = save_typed_field(argument=argument, step=step, value=value)
    return JsonResponse(draft_json(argument=argument, policy=policy))


@require_POST
@api_login_required
def api_advance(request: HttpRequest, argument_id: int) -> HttpResponse:
    """Move on with the student's own words when the coach may not propose (hints only, or off)."""
    argument, policy = _argument_and_policy(request, argument_id)
    body = _json_body(request)
    value = _text(body, "value", limit=MAX_FIELD_CHARS) if "value" in body else None
    argument, advanced = advance_typed(argument=argument, value=value)
    draft = draft_json(argument=argument, policy=policy)
    return JsonResponse({**draft, "advanced": advanced, "completed": argument.is_complete})
