"""One trial: a four-phase Toulmin verdict chain run on a student's argument or question.

The query is stored as sent, not re-derived from the argument on display: the
student may edit the argument later, and the verdict judged what was sent.
Each phase's output is stored as soon as it is validated, so the page can show
the phases as they complete and a re-delivered task can resume after the last
saved one instead of paying for it again.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

PHASES = (1, 2, 3, 4)


class TrialStatus(models.TextChoices):
    PENDING = "pending", _("waiting to start")
    RUNNING = "running", _("running")
    SUSTAINED = "sustained", _("sustained")
    OVERRULED = "overruled", _("overruled")
    REMANDED = "remanded", _("remanded")
    TERMINATED = "terminated", _("terminated")
    FAILED = "failed", _("failed")


# A trial in one of these states will not change again.
FINISHED_STATUSES = frozenset(
    {
        TrialStatus.SUSTAINED,
        TrialStatus.OVERRULED,
        TrialStatus.REMANDED,
        TrialStatus.TERMINATED,
        TrialStatus.FAILED,
    }
)


class TrialFailure(models.TextChoices):
    """Why a `failed` trial failed; its page turns this into a plain sentence."""

    SERVICE_UNAVAILABLE = "service_unavailable", _("the AI service was unavailable")
    REPLY_REJECTED = "reply_rejected", _("the AI's reply was rejected twice")
    NO_API_KEY = "no_api_key", _("no API key")
    INTERNAL = "internal", _("internal error")


class TrialQuerySet(models.QuerySet):
    def for_user(self, user) -> TrialQuerySet:
        """Only this user's trials: every student page filters through here."""
        if not getattr(user, "is_authenticated", False):
            return self.none()
        return self.filter(owner=user)

    def visible_to(self, user) -> TrialQuerySet:
        """This user's trials and the demo one (read-only for everyone signed in)."""
        if not getattr(user, "is_authenticated", False):
            return self.none()
        return self.filter(models.Q(owner=user) | models.Q(is_demo=True))


class Trial(models.Model):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="trials",
        verbose_name=_("owner"),
    )
    # Null for a free-text question; SET_NULL keeps the verdict if the argument goes.
    argument = models.ForeignKey(
        "coach.Argument",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="trials",
        verbose_name=_("argument"),
    )
    question = models.TextField(_("question"), blank=True, default="")
    # The demo trial (trials/demo.py): scripted words, the real chain; everyone may open it.
    is_demo = models.BooleanField(_("demo"), default=False)
    query = models.TextField(_("query sent to the chain"))

    status = models.CharField(
        _("status"),
        max_length=12,
        choices=TrialStatus.choices,
        default=TrialStatus.PENDING,
        db_index=True,
    )
    # Why a terminated or failed trial stopped, and at which phase (1-4). For a
    # failed trial `reason` holds the details (rule codes, the service's error)
    # for instructors; the student's page says `failure` in plain words.
    reason = models.TextField(_("reason"), blank=True, default="")
    failure = models.CharField(
        _("failure"), max_length=20, choices=TrialFailure.choices, blank=True, default=""
    )
    stopped_phase = models.PositiveSmallIntegerField(_("stopped phase"), null=True, blank=True)

    phase1 = models.JSONField(_("phase 1"), null=True, blank=True)
    phase2 = models.JSONField(_("phase 2"), null=True, blank=True)
    phase3 = models.JSONField(_("phase 3"), null=True, blank=True)
    phase4 = models.JSONField(_("phase 4"), null=True, blank=True)
    # One entry per model call, failed ones included:
    # {"phase", "attempt", "ok", "rules", "error", "input_tokens", ..., "cost_usd", "latency_ms"}.
    calls = models.JSONField(_("model calls"), default=list, blank=True)

    model = models.CharField(_("model"), max_length=100, blank=True, default="")
    input_tokens = models.PositiveIntegerField(_("input tokens"), default=0)
    output_tokens = models.PositiveIntegerField(_("output tokens"), default=0)
    cache_creation_input_tokens = models.PositiveIntegerField(
        _("cache creation input tokens"), default=0
    )
    cache_read_input_tokens = models.PositiveIntegerField(_("cache read input tokens"), default=0)
    cost_usd = models.DecimalField(_("cost (USD)"), max_digits=12, decimal_places=6, default=0)

    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    objects = TrialQuerySet.as_manager()

    class Meta:
        verbose_name = _("trial")
        verbose_name_plural = _("trials")
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["owner", "-created_at"])]

    def __str__(self) -> str:
        return gettext("trial %(id)s: %(subject)s (%(status)s)") % {
            "id": self.pk,
            "subject": self.subject[:60],
            "status": self.get_status_display(),
        }

    @property
    def subject(self) -> str:
        """What was put on trial, in a few words: the argument's title or the question."""
        if self.argument_id is not None and self.argument is not None:
            return self.argument.title
        return self.question or self.query

    @property
    def is_finished(self) -> bool:
        return self.status in FINISHED_STATUSES

    @property
    def can_retry(self) -> bool:
        """A failed trial runs again, from after its last saved phase (services.retry_trial)."""
        return self.status == TrialStatus.FAILED

    @property
    def has_verdict(self) -> bool:
        return self.status in (TrialStatus.SUSTAINED, TrialStatus.OVERRULED, TrialStatus.REMANDED)

    @property
    def total_tokens(self) -> int:
        return (
            self.input_tokens
            + self.output_tokens
            + self.cache_creation_input_tokens
            + self.cache_read_input_tokens
        )

    @property
    def duration(self) -> timedelta | None:
        if self.started_at is None or self.finished_at is None:
            return None
        return self.finished_at - self.started_at

    def phase_output(self, phase: int) -> dict | None:
        return getattr(self, f"phase{phase}")

    @property
    def outputs(self) -> dict[int, dict]:
        """The saved phase outputs, by phase number."""
        return {n: out for n in PHASES if (out := self.phase_output(n)) is not None}

    @property
    def running_phase(self) -> int | None:
        """The phase being worked on now, while the trial runs."""
        if self.status != TrialStatus.RUNNING:
            return None
        return next((n for n in PHASES if self.phase_output(n) is None), None)
