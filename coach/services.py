"""What the coach does, one function per action; views only parse and shape.

- `create_argument` starts a draft at the claim step.
- `run_turn` (from `coach.turn`) is the coach turn: an async generator of
  NDJSON-ready dicts that the endpoint forwards line by line.
- `accept_proposal` / `reject_proposal` answer the coach's pending proposal
  (a rejection gets the coach's acknowledgement in the transcript).
- `save_typed_field` stores text the student typed, with its provenance.
- `draft_json` (re-exported from `coach.draft`) is the draft as the API shows it.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from coach.ai import turn_reserve_usd
from coach.draft import coach_kind, draft_json
from coach.models import Argument, CoachMessage, Language, Provenance, Role
from coach.offline import acknowledge_rejection
from coach.policy import Policy, policy_for
from coach.provenance import is_students_own
from coach.steps import field_for, is_step, next_step
from coach.turn import run_turn
from limits.services import admit

__all__ = [
    "ProposalError",
    "accept_proposal",
    "admit_turn",
    "advance_typed",
    "coach_kind",
    "create_argument",
    "draft_json",
    "reject_proposal",
    "run_turn",
    "save_typed_field",
]


class ProposalError(ValueError):
    """The request cannot apply to this draft (no pending proposal, bad field, ...).

    `code` is stable for the API's JSON error; the message is for people.
    """

    def __init__(self, code: str, message: str, *, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.status = status


def _refuse_if_locked(argument: Argument) -> Policy:
    """The argument's policy; ProposalError 403 when it is read-only (past its due date)."""
    policy = policy_for(argument)
    if policy.locked:
        raise ProposalError("read_only", policy.locked, status=403)
    return policy


def _refuse_unmet(policy: Policy, *, step: str, text: str) -> None:
    unmet = policy.unmet(step, text)
    if unmet:
        raise ProposalError(
            "criteria_not_met",
            gettext("Your instructor asks for more before you move on: %(missing)s.")
            % {"missing": "; ".join(unmet)},
        )


def admit_turn(*, user) -> None:
    """Raise limits.services.LimitReached when `user` may not start a coach turn now.

    Every turn counts towards the rate; only an AI turn is paid, so only it
    must fit in the quota (the offline coach costs nothing).
    """
    paid = coach_kind() == "ai"
    admit(
        user=user,
        action="coach_turn",
        reserve_usd=turn_reserve_usd() if paid else None,
        snapshot=True,  # frequent and cheap: see limits.services.SNAPSHOT_SECONDS
    )


def create_argument(*, owner, title: str, language: str = Language.ENGLISH) -> Argument:
    """A new, empty draft owned by `owner`, at the claim step."""
    title = title.strip()
    if not title:
        raise ValueError("an argument needs a title")
    if language not in Language.values:
        raise ValueError(f"unknown language {language!r}")
    return Argument.objects.create(owner=owner, title=title, language=language)


def accept_proposal(*, argument: Argument, value: str | None = None) -> tuple[Argument, bool]:
    """Save the pending proposal (or the student's edit of it) and move on.

    Returns the updated argument and whether it advanced to a next step
    (False when accepting the rebuttal completed the argument instead).
    Provenance is "student_words" when the accepted text is (nearly) the
    student's own, said in the chat or typed for this step (the coach only
    proposed it back: coach.provenance); else "accepted" when the coach's
    text is kept as proposed, "edited" when the student changed it.
    """
    with transaction.atomic():
        argument = Argument.objects.select_for_update().get(pk=argument.pk)
        proposal = argument.pending_proposal
        if not proposal:
            raise ProposalError("no_pending_proposal", "there is no proposal to accept")
        if argument.is_complete:
            raise ProposalError("argument_complete", "the argument is already complete")
        step = argument.current_step
        text = (value if value is not None else proposal.get("value", "")).strip()
        if not text:
            raise ProposalError("empty_value", "an accepted value cannot be empty")
        _refuse_unmet(_refuse_if_locked(argument), step=step, text=text)
        field = field_for(step)
        # The student's own words for this step, before the accepted text replaces them.
        own = [argument.step_text(step)] + list(
            CoachMessage.objects.filter(argument=argument, role=Role.USER, step=step).values_list(
                "text", flat=True
            )
        )
        setattr(argument, field, text)
        proposed = (proposal.get("value") or "").strip()
        if is_students_own(text, own):
            provenance = Provenance.STUDENT_WORDS
        elif text == proposed:
            provenance = Provenance.ACCEPTED
        else:
            provenance = Provenance.EDITED
        argument.provenance = {**argument.provenance, field: provenance.value}
        argument.pending_proposal = None
        following = next_step(step)
        if following is None:
            argument.completed_at = timezone.now()
        else:
            argument.current_step = following
        argument.save()
    return argument, following is not None


def reject_proposal(*, argument: Argument) -> tuple[Argument, CoachMessage]:
    """Drop the pending proposal and store the coach's acknowledgement; the draft is unchanged.

    A rejection must not be met with silence: the coach (either one, and
    without a paid call) says it heard and asks what to change. The words are
    stored like any coach message, so the transcript and the AI's history
    show them, and vary with the coach's messages on this step.
    """
    with transaction.atomic():
        argument = Argument.objects.select_for_update().get(pk=argument.pk)
        if not argument.pending_proposal:
            raise ProposalError("no_pending_proposal", "there is no proposal to reject")
        _refuse_if_locked(argument)
        argument.pending_proposal = None
        argument.save(update_fields=["pending_proposal", "updated_at"])
        step = argument.current_step
        said = CoachMessage.objects.filter(argument=argument, role=Role.ASSISTANT, step=step)
        previous = said.order_by("-id").values_list("text", flat=True).first() or ""
        text = acknowledge_rejection(
            step=step, language=argument.language, turn_count=said.count(), previous=previous
        )
        reply = CoachMessage.objects.create(
            argument=argument, role=Role.ASSISTANT, text=text, step=step
        )
    return argument, reply


def save_typed_field(*, argument: Argument, step: str, value: str) -> Argument:
    """Store text the student typed into a step's field.

    Any step may be edited, not only the current one: students revise earlier
    parts as the argument grows. Provenance becomes "typed", or "edited" when
    the field held an accepted proposal (an edit keeps that history visible).
    Clearing a field forgets its provenance. The step does not advance: only
    accepting a proposal does, so the coach still reviews what was typed.
    """
    if not is_step(step):
        raise ProposalError("unknown_step", f"unknown step {step!r}")
    field = field_for(step)
    text = value.strip()
    with transaction.atomic():
        argument = Argument.objects.select_for_update().get(pk=argument.pk)
        _refuse_if_locked(argument)
        if text == getattr(argument, field):
            return argument
        provenance = dict(argument.provenance)
        if not text:
            provenance.pop(field, None)
        elif provenance.get(field) in (Provenance.ACCEPTED, Provenance.EDITED):
            provenance[field] = Provenance.EDITED.value
        else:
            provenance[field] = Provenance.TYPED.value
        setattr(argument, field, text)
        argument.provenance = provenance
        argument.save()
    return argument


def advance_typed(*, argument: Argument) -> tuple[Argument, bool]:
    """Move on from the current step on the student's own typed text.

    Only where an assignment's policy forbids proposals (hints only, or the
    coach off): otherwise accepting the coach's proposal is the way on. The
    text must be there and meet the required criteria. Returns the argument
    and whether it moved to a next step (False: the argument is complete).
    """
    with transaction.atomic():
        argument = Argument.objects.select_for_update().get(pk=argument.pk)
        policy = _refuse_if_locked(argument)
        if policy.proposals:
            raise ProposalError(
                "advance_not_allowed", gettext("Accept or edit the coach's proposal to move on.")
            )
        if argument.is_complete:
            raise ProposalError("argument_complete", "the argument is already complete")
        step = argument.current_step
        text = argument.step_text(step).strip()
        if not text:
            raise ProposalError(
                "empty_value", gettext("Write this part of your argument before moving on.")
            )
        _refuse_unmet(policy, step=step, text=text)
        argument.pending_proposal = None
        following = next_step(step)
        if following is None:
            argument.completed_at = timezone.now()
        else:
            argument.current_step = following
        argument.save()
    return argument, following is not None
