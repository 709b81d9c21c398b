"""Debates: personas argue a topic; their arguments and typed attacks form a graph.

The tables follow the pipeline (see debates/orchestrator.py):

- ``Persona``: who argues. Retire one with ``active=False`` rather than deleting
  it: past debates keep pointing at their speakers (``PROTECT``).
- ``Debate``: the topic, the chosen personas, limits (rounds, budget), the
  status machine ``queued -> running -> done | stopped | failed`` (and
  ``failed -> queued`` when its owner retries it), the stop reason or the
  failure, and the final output (computed by code, never asked of a model).
  ``event_seq`` numbers the event log; ``lease_expires_at`` / ``claimed_by``
  let exactly one worker run a debate and let the next one take over a debate
  whose worker died.
- ``DebateArgument``: one node of the graph. ``key`` ("A1", "A2", ...) is the
  id personas see in prompts and the id of the node in the framework.
- ``Attack``: one typed edge proposed by a persona, with its fate in
  ``status`` (dropped before validation, valid, invalid, duplicate). Every
  attack that names a real, foreign target creates a counter-argument node
  (``from_argument``), whose ``origin_attack`` points back at it.
- ``AttackValidation``: the cheap model's verdict on one attack.
- ``StageRun``: one finished pipeline stage (decompose, arguments, attacks,
  validation) with hashes of its input and output state. It is written in the
  same transaction as the stage's rows and events, so "which stages are done"
  is exactly what a resumed run reads, and a later audit trail has its hook.
- ``DebateEvent``: the ordered event log (``seq`` 1, 2, 3 ... per debate) that
  the live and replay pages read.
- ``LLMCall``: the cost ledger, one row per request hash and debate, written as
  soon as a call returns so that a resumed run reuses it instead of paying again.

Evidence is kept as lists of strings on arguments and attacks for now; a later
issue turns it into rows with ids (see DESIGN.md) with a data migration.
"""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

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


class StopReason(models.TextChoices):
    """Why a debate ended, in the priority order of the stop check (debates/stopping.py)."""

    CRITICAL_DEFECT = "CRITICAL_DEFECT", _("critical defect")
    MAX_ROUNDS = "MAX_ROUNDS", _("maximum rounds reached")
    CONSENSUS = "CONSENSUS", _("consensus")
    STABLE_DISSENT = "STABLE_DISSENT", _("stable dissent")
    EVIDENCE_EXHAUSTED = "EVIDENCE_EXHAUSTED", _("evidence exhausted")


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
    # Which debate format runs it (debates/formats.py): the persona graph
    # debate, an evidence inquiry, a stress test, a model tournament. They all
    # run on the one engine (claims, leases, StageRun, the ledger, events, SSE).
    format = models.CharField(_("format"), max_length=20, default="graph", db_index=True)
    topic = models.TextField(_("topic"))
    personas = models.ManyToManyField(Persona, related_name="debates", verbose_name=_("personas"))
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
    stop_reason = models.CharField(
        _("stop reason"), max_length=20, choices=StopReason.choices, blank=True, default=""
    )
    # A sentence for people: which condition fired and on what numbers.
    stop_detail = models.TextField(_("stop detail"), blank=True, default="")
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="debates",
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

    # The last seq handed out in this debate's event log (debates/events.py).
    event_seq = models.PositiveIntegerField(default=0, editable=False)
    claimed_by = models.CharField(max_length=200, blank=True, default="", editable=False)
    lease_expires_at = models.DateTimeField(null=True, blank=True, editable=False)
    attempts = models.PositiveIntegerField(default=0, editable=False)

    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    objects = DebateQuerySet.as_manager()

    class Meta:
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
    def format_label(self) -> str:
        from debates.formats import get_format

        try:
            return str(get_format(self.format).label)
        except KeyError:
            return self.format

    def page_url(self) -> str:
        """Where people look at this debate: its format's live or result page."""
        from debates.formats import get_format

        try:
            page_url = get_format(self.format).page_url
        except KeyError:
            page_url = None
        if page_url is not None and self.format != "graph":
            return page_url(self)
        name = "debates:result" if self.is_finished else "debates:live"
        return reverse(name, args=[self.pk])

    @property
    def can_retry(self) -> bool:
        """A failed debate resumes from its last saved stage (see services.retry_debate)."""
        return self.status == DebateStatus.FAILED and not self.is_demo


class ArgumentOrigin(models.TextChoices):
    INITIAL = "initial", _("initial")
    ATTACK = "attack", _("counter-argument of an attack")


class DebateArgument(models.Model):
    debate = models.ForeignKey(Debate, on_delete=models.CASCADE, related_name="arguments")
    key = models.CharField(_("id"), max_length=12)
    speaker = models.ForeignKey(Persona, on_delete=models.PROTECT, related_name="arguments")
    round = models.PositiveSmallIntegerField(_("round"))
    claim = models.TextField(_("claim"))
    premises = models.JSONField(_("premises"), default=list, blank=True)
    assumptions = models.JSONField(_("assumptions"), default=list, blank=True)
    evidence = models.JSONField(_("evidence"), default=list, blank=True)
    origin = models.CharField(
        _("origin"), max_length=10, choices=ArgumentOrigin.choices, default=ArgumentOrigin.INITIAL
    )
    origin_attack = models.OneToOneField(
        "Attack",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="counter_argument",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["debate", "id"]
        constraints = [
            models.UniqueConstraint(fields=["debate", "key"], name="debate_argument_key_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.key}: {self.claim[:60]}"


class AttackType(models.TextChoices):
    REBUT = "rebut", _("rebut")  # denies the claim
    UNDERMINE = "undermine", _("undermine")  # denies a premise
    UNDERCUT = "undercut", _("undercut")  # denies that the premises support the claim


class TargetComponent(models.TextChoices):
    CLAIM = "claim", _("claim")
    PREMISE = "premise", _("premise")
    ASSUMPTION = "assumption", _("assumption")


class AttackStatus(models.TextChoices):
    PENDING = "pending", _("awaiting validation")
    VALID = "valid", _("valid")
    INVALID = "invalid", _("invalid")
    DUPLICATE = "duplicate", _("duplicate")
    DROPPED = "dropped", _("dropped")


class DropReason(models.TextChoices):
    UNKNOWN_TARGET = "unknown_target", _("targets an unknown argument")
    OWN_ARGUMENT = "own_argument", _("targets the speaker's own argument")
    BAD_COMPONENT = "bad_component", _("targets a component index that does not exist")
    # ASPIC+: rebut the claim, undermine a premise, undercut an assumption
    # (argumentation.attack_types), whatever the validator says.
    WRONG_TYPE = "wrong_type", _("the attack type does not fit the part it targets")
    NOT_VALIDATED = "not_validated", _("the validation gave no verdict on it")
    # Only a format that caps attacks per persona below MAX_ATTACKS (the stress test: 3).
    OVER_LIMIT = "over_limit", _("the persona made more attacks than it may")


class Attack(models.Model):
    debate = models.ForeignKey(Debate, on_delete=models.CASCADE, related_name="attacks")
    round = models.PositiveSmallIntegerField(_("round"))
    speaker = models.ForeignKey(Persona, on_delete=models.PROTECT, related_name="attacks")
    # The counter-argument node this attack created; null when it was dropped.
    from_argument = models.ForeignKey(
        DebateArgument,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="attacks_made",
    )
    # Null when the persona named an id that does not exist (see target_key).
    to_argument = models.ForeignKey(
        DebateArgument,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="attacks_received",
    )
    target_key = models.CharField(_("target id as given"), max_length=40)
    type = models.CharField(_("type"), max_length=10, choices=AttackType.choices)
    target_component = models.CharField(
        _("target component"), max_length=10, choices=TargetComponent.choices
    )
    target_index = models.PositiveSmallIntegerField(_("target index"), default=0)
    counter_proposition = models.TextField(_("counter-proposition"))
    rationale = models.TextField(_("rationale"), blank=True, default="")
    evidence = models.JSONField(_("evidence"), default=list, blank=True)
    confidence = models.FloatField(
        _("confidence"), validators=[MinValueValidator(0.0), MaxValueValidator(1.0)]
    )
    status = models.CharField(
        _("status"), max_length=10, choices=AttackStatus.choices, default=AttackStatus.PENDING
    )
    drop_reason = models.CharField(
        _("drop reason"), max_length=20, choices=DropReason.choices, blank=True, default=""
    )
    # Position in the persona's reply, so ordering is stable across re-runs.
    position = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["debate", "round", "id"]
        indexes = [models.Index(fields=["debate", "status"])]

    def __str__(self) -> str:
        return f"{self.type} {self.target_key} by {self.speaker_id} (round {self.round})"


class AttackValidation(models.Model):
    attack = models.OneToOneField(Attack, on_delete=models.CASCADE, related_name="validation")
    valid = models.BooleanField(_("valid"))
    strength = models.FloatField(
        _("strength"), validators=[MinValueValidator(0.0), MaxValueValidator(1.0)]
    )
    corrections = models.TextField(_("corrections"), blank=True, default="")
    # The individual checks: {"no_fallacy", "relevant", "type_correct", "target_exists"}.
    checks = models.JSONField(_("checks"), default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{'valid' if self.valid else 'invalid'} ({self.strength:.2f})"


class StageName(models.TextChoices):
    DECOMPOSE = "decompose", _("decompose the topic")
    ARGUMENTS = "arguments", _("opening arguments")
    ATTACKS = "attacks", _("attacks")
    VALIDATION = "validation", _("validation and semantics")


class StageRun(models.Model):
    debate = models.ForeignKey(Debate, on_delete=models.CASCADE, related_name="stages")
    # A stage of the debate's format (StageName lists the graph debate's).
    name = models.CharField(max_length=40)
    round = models.PositiveSmallIntegerField(default=0)
    # sha256 of the canonical state the stage read and of what it added.
    input_hash = models.CharField(max_length=64)
    output_hash = models.CharField(max_length=64)
    calls = models.PositiveSmallIntegerField(default=0)
    cost_usd = models.DecimalField(max_digits=12, decimal_places=6, default=Decimal("0"))
    finished_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["debate", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["debate", "name", "round"], name="debate_stage_once_per_round"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} r{self.round}"


class DebateEvent(models.Model):
    debate = models.ForeignKey(Debate, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    type = models.CharField(max_length=30)
    payload = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
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
    debate = models.ForeignKey(Debate, on_delete=models.CASCADE, related_name="llm_calls")
    stage = models.CharField(max_length=40)
    # Who asked, when the caller is not a persona (an inquiry agent's role, a
    # tournament's model slot); blank for persona calls.
    agent = models.CharField(max_length=40, blank=True, default="")
    persona = models.ForeignKey(
        Persona, on_delete=models.PROTECT, null=True, blank=True, related_name="llm_calls"
    )
    round = models.PositiveSmallIntegerField(default=0)
    model = models.CharField(max_length=100)
    request_hash = models.CharField(max_length=64)
    input_tokens = models.PositiveIntegerField(default=0)
    output_tokens = models.PositiveIntegerField(default=0)
    cache_creation_input_tokens = models.PositiveIntegerField(default=0)
    cache_read_input_tokens = models.PositiveIntegerField(default=0)
    cost_usd = models.DecimalField(max_digits=12, decimal_places=6, default=Decimal("0"))
    latency_ms = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=10, choices=CallStatus.choices)
    # llm.LLMError code when failed (call_failed, validation_failed, ...).
    error_code = models.CharField(max_length=30, blank=True, default="")
    error_detail = models.TextField(blank=True, default="")
    # The model's text, so a resumed run can re-read the reply without paying again.
    raw_text = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["debate", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["debate", "request_hash"], name="debate_llm_call_once_per_request"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.stage} r{self.round} {self.model} ${self.cost_usd}"
