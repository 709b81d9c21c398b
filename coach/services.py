"""What the coach does, one function per action; views only parse and shape.

- `create_argument` starts a draft at the claim step.
- `run_turn` (from `coach.turn`) is the coach turn: an async generator of
  NDJSON-ready dicts that the endpoint forwards line by line.
- `accept_proposal` / `reject_proposal` answer the coach's pending proposal
  (a rejection gets the coach's acknowledgement in the transcript, and is
  remembered so that a "yes" does not bring the same text back).
- `advance_typed` moves on with the student's own words where the coach may
  not propose (hints only, or the coach off).
- When an instructor's required criteria refuse a move on (accept or
  advance), the coach says what is missing in the transcript: the refusal
  carries that message (`ProposalError.reply`).
- `save_typed_field` stores text the student typed, with its provenance.
- `draft_json` (re-exported from `coach.draft`) is the draft as the API shows it.
"""

from __future__ import annotations

from typing import NoReturn

from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext

from coach import notes
from coach.ai import turn_reserve_usd
from coach.draft import coach_kind, draft_json
from coach.exports import ToulminExport
from coach.heuristics import circular_or_copied, problem_message
from coach.models import Argument, CoachMessage, Language, Provenance, Role
from coach.offline import acknowledge_rejection
from coach.policy import Policy, policy_for
from coach.provenance import is_students_own
from coach.steps import STEP_IDS, STEPS, field_for, is_step, next_step, phrases_for
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
    "import_argument",
    "reject_proposal",
    "run_turn",
    "save_typed_field",
]


class ProposalError(ValueError):
    """The request cannot apply to this draft (no pending proposal, bad field, ...).

    `code` is stable for the API's JSON error; the message is for people.
    `reply` is the coach's message about the refusal, when it said one;
    `value` the text that was refused, when it was the student's to keep.
    """

    def __init__(
        self,
        code: str,
        message: str,
        *,
        status: int = 400,
        reply: CoachMessage | None = None,
        value: str | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.status = status
        self.reply = reply
        self.value = value  # the refused text, returned so that nothing the student wrote is lost


def _refuse_if_locked(argument: Argument) -> Policy:
    """The argument's policy; ProposalError 403 when it is read-only (past its due date)."""
    policy = policy_for(argument)
    if policy.locked:
        raise ProposalError("read_only", policy.locked, status=403)
    return policy


def _refuse_unmet(
    *, argument: Argument, step: str, unmet: list[str], button: str, coach: bool = True
) -> NoReturn:
    """Refuse a move on that misses required criteria. Where there is a coach, it says in the
    transcript what is missing and which button to press again (stored after the
    transaction that found it, which changed nothing)."""
    reply = None
    if coach:
        # Said in the argument's language, naming the button as this page shows it.
        text = notes.criteria_refusal(
            step=step,
            language=argument.language,
            unmet=unmet,
            button=button,
            page_language=translation.get_language() or "",
        )
        reply = CoachMessage.objects.create(
            argument=argument, role=Role.ASSISTANT, text=text, step=step
        )
    raise ProposalError(
        "criteria_not_met",
        gettext("Your instructor asks for more before you move on: %(missing)s.")
        % {"missing": "; ".join(unmet)},
        reply=reply,
    )


def _refuse_if_hints_only(policy: Policy) -> None:
    if not policy.proposals:
        # A proposal left from before the assignment became hints only (coach.draft).
        raise ProposalError(
            "proposals_off",
            gettext(
                "For this assignment the coach gives hints only: keep your own words to move on."
            ),
            status=409,
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


def import_argument(*, owner, document: ToulminExport) -> Argument:
    """A new draft with the elements of an imported file (coach.imports), at its first
    empty step, or at the rebuttal when all seven are written: the student finishes it in
    the coach, so the required criteria and the coach's policy still apply. The texts are
    the student's own work from another tool: provenance "typed"."""
    texts = {step.field: getattr(document, step.field).strip() for step in STEPS}
    first_empty = next((step.id for step in STEPS if not texts[step.field]), STEPS[-1].id)
    return Argument.objects.create(
        owner=owner,
        title=document.title.strip() or "Argument",
        language=document.language,
        current_step=first_empty,
        provenance={field: Provenance.TYPED for field, text in texts.items() if text},
        **texts,
    )


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
        policy = _refuse_if_locked(argument)
        _refuse_if_hints_only(policy)
        problem = _circular_or_copied(argument, step=step, text=text)
        unmet = [] if problem else policy.unmet(step, text)
        if not problem and not unmet:
            return _save_accepted(argument, step=step, text=text, proposal=proposal)
    if problem:
        _refuse_judged(argument=argument, step=step, text=text, problem=problem, button="accept")
    _refuse_unmet(argument=argument, step=step, unmet=unmet, button="accept")


def _circular_or_copied(argument: Argument, *, step: str, text: str) -> str | None:
    """The problem when `text` begs the question or is another step's text again: whoever
    wrote it (the coach, or the student editing or typing), Accept never stores it."""
    draft = {other: argument.step_text(other) for other in STEP_IDS if other != step}
    return circular_or_copied(
        step=step, text=text, draft=draft, language=argument.language, restated=False
    )


_JUDGED = {
    "en": "I cannot keep that as {the}: {problem}. Your words are still there: change them "
    "and press {button} again.",
    "es": "No puedo guardar eso como {the}: {problem}. Tus palabras siguen ahí: cámbialas y "
    "pulsa {button} otra vez.",
}


def _refuse_judged(
    *, argument: Argument, step: str, text: str, problem: str, button: str
) -> NoReturn:
    """Refuse a circular or copied text: the coach says why in the transcript, in the
    argument's language (stored after the transaction that found it, which changed nothing),
    and the text comes back with the refusal."""
    language = argument.language if argument.language in _JUDGED else "en"
    said = _JUDGED[language].format(
        the=phrases_for(step, language).the,
        problem=problem_message(problem, language),
        button=notes.gesture(
            button,
            language=language,
            step=step,
            quoted=True,
            page_language=translation.get_language() or "",
        ),
    )
    reply = CoachMessage.objects.create(
        argument=argument, role=Role.ASSISTANT, text=said, step=step
    )
    raise ProposalError("circular_or_copied", said, status=422, reply=reply, value=text)


def _save_accepted(
    argument: Argument, *, step: str, text: str, proposal: dict
) -> tuple[Argument, bool]:
    """The accepted text in the draft, its provenance, and the step moved on (locked row)."""
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
    return argument, _move_on(argument, step=step)


def _move_on(argument: Argument, *, step: str) -> bool:
    """Leave `step` (locked row): the next step, or the argument complete after the rebuttal.
    No proposal or rejection carries over. True when there is a next step."""
    argument.pending_proposal = None
    argument.rejected_proposal = None
    following = next_step(step)
    if following is None:
        argument.completed_at = timezone.now()
    else:
        argument.current_step = following
    argument.save()
    return following is not None


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
        rejected = argument.pending_proposal
        # Remembered, so that a "yes" right after does not put the same text up again.
        argument.rejected_proposal = {
            "field": rejected.get("field") or argument.current_step,
            "value": str(rejected.get("value") or ""),
        }
        argument.pending_proposal = None
        argument.save(update_fields=["pending_proposal", "rejected_proposal", "updated_at"])
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


def advance_typed(*, argument: Argument, value: str | None = None) -> tuple[Argument, bool]:
    """Move on from the current step with the student's own words.

    Only where an assignment's policy forbids proposals (hints only, or the
    coach off): otherwise accepting the coach's proposal is the way on.
    `value`, when given, is saved as the step's text first (the words the
    student keeps with "Use my words for ..."; provenance as for typed text),
    so they are in the draft even when the move on is refused. The text must
    be there and meet the required criteria; when it misses one, the coach
    says in the transcript what is missing (`ProposalError.reply`). Returns
    the argument and whether it moved to a next step (False: it is complete).
    """
    if value is not None:
        argument = save_typed_field(argument=argument, step=argument.current_step, value=value)
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
        problem = _circular_or_copied(argument, step=step, text=text)
        unmet = [] if problem else policy.unmet(step, text)
        if not problem and not unmet:
            return argument, _move_on(argument, step=step)
    if problem and policy.coach:
        _refuse_judged(
            argument=argument, step=step, text=text, problem=problem, button="use_my_words"
        )
    if problem:
        raise ProposalError(
            "circular_or_copied",
            problem_message(problem, argument.language),
            status=422,
            value=text,
        )
    _refuse_unmet(
        argument=argument, step=step, unmet=unmet, button="use_my_words", coach=policy.coach
    )
