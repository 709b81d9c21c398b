"""The coach's pages: sign up, my arguments, a new argument, the coaching page.

Views stay thin: they find the student's own argument (404 for anyone else's),
call one service function and render. Everything the page does after loading
goes through the JSON API in `coach.api`, driven by static/js/coach.js.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from coach.api import MAX_FIELD_CHARS, MAX_MESSAGE_CHARS
from coach.forms import ArgumentForm, SignUpForm
from coach.intents import classify
from coach.models import Argument, Role
from coach.policy import Policy, policy_for
from coach.selectors import get_argument_for_user
from coach.services import ProposalError, advance_typed, create_argument, draft_json
from coach.steps import label_for, phrases_for, reader_language
from untrusted import text_problem
from untrusted.forms import UNSTORABLE_TEXT

__all__ = ["argument_advance", "argument_detail", "argument_list", "argument_new", "signup"]


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("dashboard")
    if not settings.SIGNUP_OPEN:
        # Accounts come from an instructor (the admin): say so, create nothing.
        return render(request, "registration/signup_closed.html", status=403)
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        # Their own page: where to start an argument, and later their classes.
        return redirect("dashboard")
    return render(request, "registration/signup.html", {"form": form})


@login_required
@require_GET
def argument_list(request: HttpRequest) -> HttpResponse:
    arguments = list(Argument.objects.for_user(request.user))
    reader = reader_language()
    for argument in arguments:
        # Step names are interface words: in the reader's language, like every page.
        argument.current_label = label_for(argument.current_step, reader)
    return render(request, "coach/argument_list.html", {"arguments": arguments})


@login_required
@require_http_methods(["GET", "POST"])
def argument_new(request: HttpRequest) -> HttpResponse:
    # The language the site speaks to this student is the likely one for the argument.
    form = ArgumentForm(request.POST or None, initial={"language": request.LANGUAGE_CODE})
    if request.method == "POST" and form.is_valid():
        argument = create_argument(owner=request.user, **form.cleaned_data)
        return redirect("coach:argument_detail", argument_id=argument.pk)
    return render(request, "coach/argument_new.html", {"form": form})


def _own_words(argument: Argument) -> str:
    """What the "Use my words" box starts with: the student's latest words for this step.

    Their latest attempt in the chat (not a question, a "yes" or a request),
    unless they saved the step's text since; else the step's saved text.
    """
    step = argument.current_step
    saved = argument.step_text(step).strip()
    said = argument.messages.filter(role=Role.USER, step=step).order_by("-id")
    for message in said[:20]:
        if classify(message.text, step).kind != "attempt":
            continue
        if saved and message.created_at < argument.updated_at:
            return saved
        return message.text.strip()
    return saved


def _own_words_context(argument: Argument, policy: Policy, reader: str) -> dict[str, Any] | None:
    """The student's own way on where the coach may not propose (hints only, or off)."""
    if policy.proposals or policy.locked or argument.is_complete:
        return None
    return {"text": _own_words(argument), "the": phrases_for(argument.current_step, reader).the}


def _page_context(argument: Argument) -> dict[str, Any]:
    policy = policy_for(argument)
    draft = draft_json(argument=argument, policy=policy)
    steps = draft["steps"]
    reader = reader_language()
    for step in steps:
        # The page's words follow the reader's choice of language; the argument's own
        # words (its drafts, the coach's messages) keep the argument's language.
        step["label"] = label_for(step["id"], reader)
        # A sentence names a step with its own noun phrase ("the grounds", "los datos").
        step["the"] = phrases_for(step["id"], reader).the
    proposal = draft["pending_proposal"]
    if proposal:
        by_id = {step["id"]: step for step in steps}
        field = proposal.get("field")
        step = by_id.get(field, {})
        proposal = {**proposal, "label": step.get("label", field), "the": step.get("the", field)}
    return {
        "policy": policy,
        "own_words": _own_words_context(argument, policy, reader),
        "max_field_chars": MAX_FIELD_CHARS,
        "required_now": policy.requirements.get(argument.current_step, []),
        "argument": argument,
        "draft": draft,
        "steps": steps,
        "proposal": proposal,
        "current_label": label_for(argument.current_step, reader),
        "max_message_chars": MAX_MESSAGE_CHARS,
    }


def _client_strings() -> dict[str, Any]:
    # Read by coach.js; translated here so the script itself holds no language.
    return {
        "you": _("You"),
        "coach": _("Coach"),
        "thinking": _("The coach is writing…"),
        "saving": _("Saving…"),
        "saved": _("Saved."),
        "proposal": _("The coach proposes a text for this step: accept, edit or reject it."),
        "errors": {
            "coach_stream_failed": _("The coach's answer broke off."),
            "coach_validation_failed": _("The coach's answer could not be understood."),
            "coach_empty_response": _("The coach did not answer."),
            "coach_reply_too_long": _(
                "The coach's answer grew far too long, so it was stopped. Your message and "
                "your draft are kept: try again, or ask in fewer words."
            ),
            "coach_timed_out": _(
                "The coach took too long to answer, so it was stopped. Your message and your "
                "draft are kept: try again in a moment."
            ),
            "coach_step_mismatch": _(
                "This argument moved on in another window; the page has been updated."
            ),
            "authentication_required": _(
                "You have been signed out. Sign in again in another tab, then retry."
            ),
            "generic": _("Something went wrong. Your message is kept; try again."),
            # Refusals (4xx) a student can meet: said here, in the page's language.
            # Any other refusal shows the server's own `detail` sentence.
            "empty_value": _("The text is empty: write something, or reject the proposal."),
            "no_pending_proposal": _(
                "There is no proposal to decide on any more; the page has been updated."
            ),
            "argument_complete": _("This argument is already complete."),
            "proposals_off": _(
                "For this assignment the coach gives hints only; the page has been updated."
            ),
            "not_found": _("This argument no longer exists, or is not yours."),
        },
        # {count} and {limit} are filled in by coach.js as the student types.
        "counter": _("{count} of {limit} characters"),
    }


@login_required
@require_GET
def argument_detail(request: HttpRequest, argument_id: int) -> HttpResponse:
    argument = get_argument_for_user(request.user, argument_id)
    # The page speaks the reader's language (the cookie or the browser); only the
    # argument's own words are in the argument's language, marked so by `lang`.
    context = _page_context(argument)
    if request.htmx:
        # coach.js refreshes the rail, draft and proposal card after each change.
        return render(request, "coach/argument_detail.html#state", context)
    context["messages_list"] = argument.messages.all()
    context["client_strings"] = _client_strings()
    # The coach opens a step it has not spoken on yet (a new argument, or a step
    # reached while the page was closed), if it may answer at all.
    policy = context["policy"]
    context["autostart"] = (
        policy.coach
        and not policy.locked
        and not policy.quota_refusal
        and not argument.is_complete
        and not argument.messages.filter(role=Role.ASSISTANT, step=argument.current_step).exists()
    )
    return render(request, "coach/argument_detail.html", context)


@login_required
@require_POST
def argument_advance(request: HttpRequest, argument_id: int) -> HttpResponse:
    """Move on with the student's own words where the coach may not propose (an assignment's
    policy). The page does this with fetch and stays in place (coach.js); this form post is
    the way without JavaScript, and lands back on the same box."""
    argument = get_argument_for_user(request.user, argument_id)
    value = request.POST.get("value")
    try:
        if value is not None and len(value) > MAX_FIELD_CHARS:
            raise ProposalError("value_too_long", _("This text is too long: shorten it."))
        if value is not None and text_problem(value) is not None:
            raise ProposalError("unstorable_text", str(UNSTORABLE_TEXT))
        advance_typed(argument=argument, value=value)
    except ProposalError as refused:
        messages.error(request, str(refused))
    target = reverse("coach:argument_detail", kwargs={"argument_id": argument.pk})
    return redirect(f"{target}#own-words")
