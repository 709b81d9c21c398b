"""A student's Toulmin argument, its chat transcript and one record per model reply.

Step ids (camelCase, as in the JSON contract) and field names (snake_case)
are mapped in `coach.steps`; `current_step` stores the step id.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from coach.steps import STEPS, field_for, label_for, reader_language


class Language(models.TextChoices):
    ENGLISH = "en", "English"
    SPANISH = "es", "Español"


class Provenance(models.TextChoices):
    """Where a step's text came from: instructors grade differently by source."""

    ACCEPTED = "accepted", _("the coach's proposal, accepted")
    TYPED = "typed", _("typed by the student")
    EDITED = "edited", _("the coach's proposal, edited")
    # The student's own words (said in the chat or typed), proposed back and confirmed.
    STUDENT_WORDS = "student_words", _("the student's words, accepted")


STEP_CHOICES = [(step.id, step.label_en) for step in STEPS]


class ArgumentQuerySet(models.QuerySet):
    def for_user(self, user) -> ArgumentQuerySet:
        """Only this user's arguments: the one filter every view and endpoint uses.

        Anonymous users own nothing. Staff see their own here too; instructors
        read students' work in the admin, not through the student pages.
        """
        if not getattr(user, "is_authenticated", False):
            return self.none()
        return self.filter(owner=user)


class Argument(models.Model):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="arguments",
        verbose_name=_("owner"),
    )
    title = models.CharField(_("title"), max_length=200)
    language = models.CharField(
        _("language"), max_length=2, choices=Language.choices, default=Language.ENGLISH
    )

    claim = models.TextField(_("claim"), blank=True, default="")
    grounds = models.TextField(_("grounds"), blank=True, default="")
    warrant = models.TextField(_("warrant"), blank=True, default="")
    grounds_backing = models.TextField(_("grounds backing"), blank=True, default="")
    warrant_backing = models.TextField(_("warrant backing"), blank=True, default="")
    qualifier = models.TextField(_("qualifier"), blank=True, default="")
    rebuttal = models.TextField(_("rebuttal"), blank=True, default="")

    current_step = models.CharField(
        _("current step"), max_length=20, choices=STEP_CHOICES, default="claim"
    )
    # {"field": <step id>, "value": str, "rationale": str} — the coach's last
    # proposal for the current step, until the student accepts or rejects it.
    pending_proposal = models.JSONField(_("pending proposal"), null=True, blank=True)
    # {"field": <step id>, "value": str} — the proposal the student last rejected, so
    # that a "yes" right after does not put the same text up again (coach.guards).
    rejected_proposal = models.JSONField(_("rejected proposal"), null=True, blank=True)
    # {<model field name>: "accepted" | "typed" | "edited"}; absent = empty field.
    provenance = models.JSONField(_("provenance"), default=dict, blank=True)
    completed_at = models.DateTimeField(_("completed at"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    objects = ArgumentQuerySet.as_manager()

    class Meta:
        verbose_name = _("argument")
        verbose_name_plural = _("arguments")
        ordering = ["-updated_at", "-id"]
        indexes = [models.Index(fields=["owner", "-updated_at"])]

    def __str__(self) -> str:
        return self.title

    @property
    def is_complete(self) -> bool:
        return self.completed_at is not None

    def step_text(self, step_id: str) -> str:
        """The draft text of a step, by step id."""
        return getattr(self, field_for(step_id))

    def current_text(self) -> str:
        return self.step_text(self.current_step)

    def step_label(self, step_id: str) -> str:
        return label_for(step_id, self.language)


class Role(models.TextChoices):
    USER = "user", _("student")
    ASSISTANT = "assistant", _("coach")


class CoachMessageQuerySet(models.QuerySet):
    """The transcript as a coach turn reads it (coach.turn_store)."""

    def before(self, message_id: int | None) -> CoachMessageQuerySet:
        """The messages said before message `message_id` (None: all of them)."""
        return self if message_id is None else self.filter(pk__lt=message_id)

    def latest_said(self, limit: int) -> list[tuple[str, str]]:
        """(role, text) of the `limit` latest messages, oldest first: one query, however
        long the transcript."""
        latest = self.order_by("-created_at", "-id").values_list("role", "text")[:limit]
        return list(reversed(latest))

    def students_words_on(self, step: str) -> list[str]:
        """The texts of the student's messages on `step`, oldest first, in one query."""
        said = self.filter(role=Role.USER, step=step).order_by("id")
        return list(said.values_list("text", flat=True))


class CoachMessage(models.Model):
    argument = models.ForeignKey(
        Argument, on_delete=models.CASCADE, related_name="messages", verbose_name=_("argument")
    )
    role = models.CharField(_("role"), max_length=10, choices=Role.choices)
    text = models.TextField(_("text"))
    step = models.CharField(_("step"), max_length=20, choices=STEP_CHOICES)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    objects = CoachMessageQuerySet.as_manager()

    class Meta:
        verbose_name = _("coach message")
        verbose_name_plural = _("coach messages")
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        # Shown in the admin (the transcript inline): in the reader's language.
        step = label_for(self.step, reader_language())
        return f"{self.get_role_display()} · {step}: {self.text[:60]}"


class CoachKind(models.TextChoices):
    AI = "ai", _("AI coach")
    OFFLINE = "offline", _("offline coach")


class CoachTurn(models.Model):
    """One model reply (or one failed attempt at one): what it said and what the guards did."""

    argument = models.ForeignKey(
        Argument, on_delete=models.CASCADE, related_name="turns", verbose_name=_("argument")
    )
    user_message = models.ForeignKey(
        CoachMessage,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("student message"),
    )
    assistant_message = models.ForeignKey(
        CoachMessage,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("coach reply"),
    )
    step = models.CharField(_("step"), max_length=20, choices=STEP_CHOICES)
    coach = models.CharField(
        _("coach"), max_length=10, choices=CoachKind.choices, default=CoachKind.AI
    )
    # What the model returned (parsed when it parsed, else {"raw_text": ...}),
    # and what survived the guards.
    raw_result = models.JSONField(_("raw result"), null=True, blank=True)
    guarded_result = models.JSONField(_("guarded result"), null=True, blank=True)
    # [{"name", "changed", "reason"}, ...] in the order the guards ran.
    guard_decisions = models.JSONField(_("guard decisions"), default=list, blank=True)
    model = models.CharField(_("model"), max_length=100, blank=True, default="")
    input_tokens = models.PositiveIntegerField(_("input tokens"), default=0)
    output_tokens = models.PositiveIntegerField(_("output tokens"), default=0)
    cache_creation_input_tokens = models.PositiveIntegerField(
        _("cache creation input tokens"), default=0
    )
    cache_read_input_tokens = models.PositiveIntegerField(_("cache read input tokens"), default=0)
    cost_usd = models.DecimalField(_("cost (USD)"), max_digits=12, decimal_places=6, default=0)
    latency_ms = models.PositiveIntegerField(_("latency (ms)"), default=0)
    # Empty on success; else the NDJSON error code (coach_stream_failed, ...).
    error_code = models.CharField(_("error code"), max_length=40, blank=True, default="")
    error_detail = models.TextField(_("error detail"), blank=True, default="")
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("coach turn")
        verbose_name_plural = _("coach turns")
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        outcome = self.error_code or gettext("ok")
        step = label_for(self.step, reader_language())
        return gettext("turn %(id)s · %(step)s (%(outcome)s)") % {
            "id": self.pk,
            "step": step,
            "outcome": outcome,
        }

    @property
    def failed(self) -> bool:
        return bool(self.error_code)
