"""The engine's tables: the run, its stages, its event log, its ledger, its speakers.

They keep the table names they had when the engine lived in ``debates`` (each
``Meta.db_table``): the engine moved, its rows did not.

- ``Persona``: who speaks in a run (a name, a worldview, a model): the graph
  debate's personas and the stress test's attackers. Retire one with
  ``active=False`` rather than deleting it: past runs keep pointing at their
  speakers (``PROTECT``).
- ``Debate``: one run of a format (``format`` names it; its label and its
  page come from the registry, engine/formats.py, which these models never import):
  the topic, the chosen personas, limits (rounds, budget), the status machine
  ``queued -> running -> done | stopped | failed`` (and ``failed -> queued``
  when its owner retries it), the stop reason or the failure, and the final
  output (computed by code, never asked of a model). ``event_seq`` numbers
  the event log; ``lease_expires_at`` / ``claimed_by`` let exactly one worker
  run it and let the next one take over a run whose worker died.
- ``StageRun``: one finished stage with hashes of its input and output state.
  It is written in the same transaction as the stage's rows and events, so
  "which stages are done" is exactly what a resumed run reads.
- ``DebateEvent``: the ordered event log (``seq`` 1, 2, 3 ... per run) that
  the live and replay pages read.
- ``LLMCall``: the cost ledger, one row per request hash and run, written as
  soon as a call returns so that a resumed run reuses it instead of paying again.
"""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from engine.stop_reasons import MAX_LENGTH as STOP_REASON_LENGTH
from engine.stop_reasons import stop_reason_choices

MIN_ROUNDS = 1
MAX_ROUNDS = 5
DEFAULT_ROUNDS = 3
DEFAULT_BUDGET_USD = Decimal("1.00")


class Persona(models.Model):
    name = models.CharField(_("name"), max_length=80, unique=True)
    worldview = models.TextField(
        _("worldview"), help_text=_("A paragraph: what this persona values and how it argues.")
    )
    # Empty means settings.DEBATE_MODEL, so changing the default model moves
    # every persona that has not been pinned to a specific one.
    model = models.CharField(
        _("model"),
        max_length=100,
        blank=True,
        default="",
        help_text=_("Leave empty to use the site's DEBATE_MODEL."),
    )
    active = models.BooleanField(_("active"), default=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        db_table = "debates_persona"
        verbose_name = _("persona")
        verbose_name_plural = _("personas")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    @property
    def effective_model(self) -> str:
        return self.model or settings.DEBATE_MODEL


class DebateStatus(models.TextChoices):
    QUEUED = "queued", _("queued")
    RUNNING = "running", _("running")
    DONE = "done", _("done")
    STOPPED = "stopped", _("stopped")
    FAILED = "failed", _("failed")


FINISHED_STATUSES = frozenset({DebateStatus.DONE, DebateStatus.STOPPED, DebateStatus.FAILED})


class DebateFailure(models.TextChoices):
    """Why a ``failed`` debate failed; the pages turn it into a plain sentence."""

    SERVICE_UNAVAILABLE = "service_unavailable", _("the AI service was unavailable")
    NO_API_KEY = "no_api_key", _("no API key")
    INTERNAL = "internal", _("internal error")


class DebateQuerySet(models.QuerySet):
    def for_user(self, user) -> DebateQuerySet:
        """Debates a user may see: their own, plus demo debates for everyone signed in."""
        if not getattr(user, "is_authenticated", False):
            return self.none()
        return self.filter(models.Q(creator=user) | models.Q(is_demo=True))


class Debate(models.Model):
    # Which format runs it (engine/formats.py): the persona graph
    # debate, an evidence inquiry, a stress test, a model tournament. They all
    # run on the one engine (claims, leases, StageRun, the ledger, events, SSE).
    format = models.CharField(_("format"), max_length=20, default="graph", db_index=True)
    topic = models.TextField(_("topic"))
    personas = models.ManyToManyField(
        Persona,
        related_name="debates",
        verbose_name=_("personas"),
        db_table="debates_debate_personas",
    )
    max_rounds = models.PositiveSmallIntegerField(
        _("max rounds"),
        default=DEFAULT_ROUNDS,
        validators=[MinValueValidator(MIN_ROUNDS), MaxValueValidator(MAX_ROUNDS)],
    )
    budget_usd = models.DecimalField(
        _("budget (USD)"),
        max_digits=10,
        decimal_places=4,
        default=DEFAULT_BUDGET_USD,
        validators=[MinValueValidator(Decimal("0"))],
    )
    status = models.CharField(
        _("status"), max_length=10, choices=DebateStatus.choices, default=DebateStatus.QUEUED
    )
    # The engine's reasons and every format's (engine/stop_reasons.py): a callable, so
    # a format's own reasons are choices without being written into a migration.
    stop_reason = models.CharField(
        _("stop reason"),
        max_length=STOP_REASON_LENGTH,
        choices=stop_reason_choices,
        blank=True,
        default="",
    )
    # Which condition fired and on what numbers: a code and its parameters, worded in
    # the reader's language by engine.stop_messages (in English for exports and the
    # command line: stop_in_english). stop_detail holds a sentence only for rows older
    # than the codes and for a decision that has no code.
    stop_detail = models.TextField(_("stop detail"), blank=True, default="")
    stop_code = models.CharField(_("stop code"), max_length=40, blank=True, default="")
    stop_params = models.JSONField(_("stop parameters"), default=dict, blank=True)
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="debates",
        verbose_name=_("creator"),
    )
    # Shipped as a fixture so newcomers without an API key can look around.
    is_demo = models.BooleanField(_("demo"), default=False)
    # The claims the topic was decomposed into (stage "decompose").
    claims = models.JSONField(_("claims"), default=list, blank=True)
    # The last round whose semantics were computed (0 after the opening arguments).
    rounds_completed = models.PositiveSmallIntegerField(_("rounds completed"), default=0)
    # Sum of the ledger, kept in step with it (same transaction) for list pages.
    cost_usd = models.DecimalField(
        _("cost (USD)"), max_digits=12, decimal_places=6, default=Decimal("0")
    )
    # The final output (argumentation.cruxes summary plus the outcome sets).
    output = models.JSONField(_("output"), null=True, blank=True)
    # A failed debate: why (shown to the student as a sentence), and the
    # details for instructors (admin only).
    failure = models.CharField(
        _("failure"), max_length=20, choices=DebateFailure.choices, blank=True, default=""
    )
    error = models.TextField(_("error"), blank=True, default="")
    # Its owner asked it to stop: the engine stops before the next stage
    # (engine/stopping.py, STOPPED_ON_REQUEST); the stage under way finishes.
    stop_requested_at = models.DateTimeField(
        _("stop requested at"), null=True, blank=True, editable=False
    )

    # The last seq handed out in this debate's event log (engine/events.py).
    event_seq = models.PositiveIntegerField(_("event sequence"), default=0, editable=False)
    claimed_by = models.CharField(
        _("claimed by"), max_length=200, blank=True, default="", editable=False
    )
    lease_expires_at = models.DateTimeField(
        _("lease expires at"), null=True, blank=True, editable=False
    )
    attempts = models.PositiveIntegerField(_("attempts"), default=0, editable=False)

    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    objects = DebateQuerySet.as_manager()

    class Meta:
        db_table = "debates_debate"
        verbose_name = _("debate")
        verbose_name_plural = _("debates")
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["creator", "-created_at"]),
            models.Index(fields=["status", "lease_expires_at"]),
        ]

    def __str__(self) -> str:
        return self.topic[:80]

    @property
    def is_finished(self) -> bool:
        return self.status in FINISHED_STATUSES

    @property
    def stop_in_english(self) -> str:
        """Why it stopped, in English, for exports and the command line (worded from its code)."""
        from engine.stop_messages import english_or_stored

        return english_or_stored(self.stop_code, self.stop_params, self.stop_detail)

    @property
    def can_stop(self) -> bool:
        """Queued or running, and nobody has asked it to stop yet (services.request_stop)."""
        unfinished = self.status in (DebateStatus.QUEUED, DebateStatus.RUNNING)
        return unfinished and self.stop_requested_at is None

    def retry_offered_to(self, user) -> bool:
        """Whether its page carries the Retry form: only for its owner, never on a demo.

        A live page carries it hidden and shows it when the run fails; whether a
        retry is accepted is ``can_retry`` (engine.services.retry_debate).
        """
        return not self.is_demo and self.creator_id is not None and self.creator_id == user.pk

    def stop_offered_to(self, user) -> bool:
        """Only the run's owner may stop it (a demo's owner is whoever loaded it)."""
        return self.can_stop and self.creator_id is not None and self.creator_id == user.pk

    @property
    def can_retry(self) -> bool:
        """A failed debate resumes from its last saved stage (see services.retry_debate)."""
        return self.status == DebateStatus.FAILED and not self.is_demo


class StageRun(models.Model):
    debate = models.ForeignKey(
        Debate, on_delete=models.CASCADE, related_name="stages", verbose_name=_("debate")
    )
    # A stage of the debate's format (StageName lists the graph debate's).
    name = models.CharField(_("name"), max_length=40)
    round = models.PositiveSmallIntegerField(_("round"), default=0)
    # sha256 of the canonical state the stage read and of what it added.
    input_hash = models.CharField(_("input hash"), max_length=64)
    output_hash = models.CharField(_("output hash"), max_length=64)
    calls = models.PositiveSmallIntegerField(_("calls"), default=0)
    cost_usd = models.DecimalField(
        _("cost (USD)"), max_digits=12, decimal_places=6, default=Decimal("0")
    )
    finished_at = models.DateTimeField(_("finished at"), auto_now_add=True)

    class Meta:
        db_table = "debates_stagerun"
        verbose_name = _("stage")
        verbose_name_plural = _("stages")
        ordering = ["debate", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["debate", "name", "round"], name="debate_stage_once_per_round"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} r{self.round}"


class DebateEvent(models.Model):
    debate = models.ForeignKey(
        Debate, on_delete=models.CASCADE, related_name="events", verbose_name=_("debate")
    )
    seq = models.PositiveIntegerField(_("sequence"))
    type = models.CharField(_("type"), max_length=30)
    payload = models.JSONField(_("payload"), default=dict)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        db_table = "debates_debateevent"
        verbose_name = _("debate event")
        verbose_name_plural = _("debate events")
        ordering = ["debate", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["debate", "seq"], name="debate_event_seq_unique"),
        ]

    def __str__(self) -> str:
        return f"#{self.seq} {self.type}"


class CallStatus(models.TextChoices):
    OK = "ok", _("ok")
    FAILED = "failed", _("failed")


class LLMCall(models.Model):
    debate = models.ForeignKey(
        Debate, on_delete=models.CASCADE, related_name="llm_calls", verbose_name=_("debate")
    )
    stage = models.CharField(_("stage"), max_length=40)
    # Who asked, when the caller is not a persona (an inquiry agent's role, a
    # tournament's model slot); blank for persona calls.
    agent = models.CharField(_("agent"), max_length=40, blank=True, default="")
    persona = models.ForeignKey(
        Persona,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="llm_calls",
        verbose_name=_("persona"),
    )
    round = models.PositiveSmallIntegerField(_("round"), default=0)
    model = models.CharField(_("model"), max_length=100)
    request_hash = models.CharField(_("request hash"), max_length=64)
    input_tokens = models.PositiveIntegerField(_("input tokens"), default=0)
    output_tokens = models.PositiveIntegerField(_("output tokens"), default=0)
    cache_creation_input_tokens = models.PositiveIntegerField(
        _("cache creation input tokens"), default=0
    )
    cache_read_input_tokens = models.PositiveIntegerField(_("cache read input tokens"), default=0)
    cost_usd = models.DecimalField(
        _("cost (USD)"), max_digits=12, decimal_places=6, default=Decimal("0")
    )
    latency_ms = models.PositiveIntegerField(_("latency (ms)"), default=0)
    status = models.CharField(_("status"), max_length=10, choices=CallStatus.choices)
    # llm.LLMError code when failed (call_failed, validation_failed, ...).
    error_code = models.CharField(_("error code"), max_length=30, blank=True, default="")
    error_detail = models.TextField(_("error detail"), blank=True, default="")
    # The model's text, so a resumed run can re-read the reply without paying again.
    raw_text = models.TextField(_("raw text"), blank=True, default="")
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        db_table = "debates_llmcall"
        verbose_name = _("model call")
        verbose_name_plural = _("model calls")
        ordering = ["debate", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["debate", "request_hash"], name="debate_llm_call_once_per_request"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.stage} r{self.round} {self.model} ${self.cost_usd}"
