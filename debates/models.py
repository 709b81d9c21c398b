"""The graph debate's tables: arguments and typed attacks form a graph.

The run itself (``Debate``), its speakers (``Persona``), its stages, events
and ledger are the engine's (engine/models.py).

- ``DebateArgument``: one node of the graph. ``key`` ("A1", "A2", ...) is the
  id personas see in prompts and the id of the node in the framework.
- ``Attack``: one typed edge proposed by a persona, with its fate in
  ``status`` (dropped before validation, valid, invalid, duplicate). Every
  attack that names a real, foreign target creates a counter-argument node
  (``from_argument``), whose ``origin_attack`` points back at it.
- ``AttackValidation``: the cheap model's verdict on one attack.
- ``StageName``: the graph debate's stages (decompose, arguments, attacks,
  validation).

Evidence is kept as lists of strings on arguments and attacks for now; a later
change turns it into rows with ids (see DESIGN.md) with a data migration.
"""

from __future__ import annotations

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from engine.models import Debate, Persona


class ArgumentOrigin(models.TextChoices):
    INITIAL = "initial", _("initial")
    ATTACK = "attack", _("counter-argument of an attack")


class DebateArgument(models.Model):
    debate = models.ForeignKey(
        Debate, on_delete=models.CASCADE, related_name="arguments", verbose_name=_("debate")
    )
    key = models.CharField(_("id"), max_length=12)
    speaker = models.ForeignKey(
        Persona, on_delete=models.PROTECT, related_name="arguments", verbose_name=_("speaker")
    )
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
        verbose_name=_("origin attack"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("argument")
        verbose_name_plural = _("arguments")
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
    debate = models.ForeignKey(
        Debate, on_delete=models.CASCADE, related_name="attacks", verbose_name=_("debate")
    )
    round = models.PositiveSmallIntegerField(_("round"))
    speaker = models.ForeignKey(
        Persona, on_delete=models.PROTECT, related_name="attacks", verbose_name=_("speaker")
    )
    # The counter-argument node this attack created; null when it was dropped.
    from_argument = models.ForeignKey(
        DebateArgument,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="attacks_made",
        verbose_name=_("from argument"),
    )
    # Null when the persona named an id that does not exist (see target_key).
    to_argument = models.ForeignKey(
        DebateArgument,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="attacks_received",
        verbose_name=_("to argument"),
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
    position = models.PositiveSmallIntegerField(_("position"), default=0)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("attack")
        verbose_name_plural = _("attacks")
        ordering = ["debate", "round", "id"]
        indexes = [models.Index(fields=["debate", "status"])]

    def __str__(self) -> str:
        return gettext("%(type)s of %(target)s by %(speaker)s (round %(round)s)") % {
            "type": self.get_type_display(),
            "target": self.target_key,
            "speaker": self.speaker_id,
            "round": self.round,
        }


class AttackValidation(models.Model):
    attack = models.OneToOneField(
        Attack, on_delete=models.CASCADE, related_name="validation", verbose_name=_("attack")
    )
    valid = models.BooleanField(_("valid"))
    strength = models.FloatField(
        _("strength"), validators=[MinValueValidator(0.0), MaxValueValidator(1.0)]
    )
    corrections = models.TextField(_("corrections"), blank=True, default="")
    # The individual checks: {"no_fallacy", "relevant", "type_correct", "target_exists"}.
    checks = models.JSONField(_("checks"), default=dict, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("attack validation")
        verbose_name_plural = _("attack validations")

    def __str__(self) -> str:
        verdict = gettext("valid") if self.valid else gettext("invalid")
        return f"{verdict} ({self.strength:.2f})"


class StageName(models.TextChoices):
    DECOMPOSE = "decompose", _("decompose the topic")
    ARGUMENTS = "arguments", _("opening arguments")
    ATTACKS = "attacks", _("attacks")
    VALIDATION = "validation", _("validation and semantics")
