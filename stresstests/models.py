"""A stress test: a ``debates.Debate`` of format ``stress`` about one coach argument.

The debate's rows (arguments, attacks, validations, events, the ledger) are
the shared engine's; what only a stress test has lives here:

- ``StressTest``: the debate's link to the student's ``coach.Argument``, a
  snapshot of its seven elements when the run began (a revision in the coach
  is a new run; the old one replays as it was), and the round limit.
- ``Concession``: the cheap model's answer to "does this attack raise an
  exception the student already conceded in the rebuttal step?".
- ``Defence``: the student's answer to one attack, in their own words, and
  its fate once the cheap model has judged it (a node that attacks the
  attacker, or a refusal with its reason).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

DEFAULT_ROUND_LIMIT = 3


class StressTest(models.Model):
    debate = models.OneToOneField(
        "engine.Debate",
        on_delete=models.CASCADE,
        related_name="stress_test",
        verbose_name=_("debate"),
    )
    argument = models.ForeignKey(
        "coach.Argument",
        on_delete=models.CASCADE,
        related_name="stress_tests",
        verbose_name=_("argument"),
    )
    student = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="stress_tests",
        verbose_name=_("student"),
    )
    # {"claim": ..., "grounds": ..., ...} by the coach's camelCase names.
    elements = models.JSONField(_("elements"), default=dict)
    # How many answers the student may give to one attack.
    round_limit = models.PositiveSmallIntegerField(_("round limit"), default=DEFAULT_ROUND_LIMIT)
    # Run without a model (stresstests/offline.py): objections from the critical questions
    # of the warrant's argument scheme, answers checked by rules, on this site, at no cost.
    offline = models.BooleanField(_("offline"), default=False)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("stress test")
        verbose_name_plural = _("stress tests")

    def __str__(self) -> str:
        return f"{self.argument} ({self.created_at:%Y-%m-%d})"


class Concession(models.Model):
    attack = models.OneToOneField(
        "debates.Attack",
        on_delete=models.CASCADE,
        related_name="concession",
        verbose_name=_("attack"),
    )
    conceded = models.BooleanField(_("matches a conceded exception"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("concession")
        verbose_name_plural = _("concessions")

    def __str__(self) -> str:
        said = gettext("conceded") if self.conceded else gettext("not conceded")
        return f"{self.attack_id}: {said}"


class DefenceStatus(models.TextChoices):
    PENDING = "pending", _("being checked")
    ACCEPTED = "accepted", _("accepted")
    REFUSED = "refused", _("refused")
    # The run ended before judging it (its budget ran out): neither accepted nor refused.
    UNCHECKED = "unchecked", _("not checked")


class DefenceRefusal(models.TextChoices):
    IRRELEVANT = "irrelevant", _("it does not answer this objection")
    RESTATEMENT = "restatement", _("it only restates what the objection denies")
    WRONG_TYPE = "wrong_type", _("it does not deny the objection itself")
    NOT_JUDGED = "not_judged", _("it could not be checked")
    # Why an answer is UNCHECKED.
    BUDGET = "budget", _("the stress test reached its spending limit before checking it")
    STOPPED = "stopped", _("the stress test stopped before checking it")


class Defence(models.Model):
    stress_test = models.ForeignKey(
        StressTest, on_delete=models.CASCADE, related_name="defences", verbose_name=_("stress test")
    )
    # 1, 2, 3 ... per stress test: the engine stage ("defence", seq) that judges it.
    seq = models.PositiveIntegerField(_("sequence"))
    attack = models.ForeignKey(
        "debates.Attack",
        on_delete=models.CASCADE,
        related_name="defences",
        verbose_name=_("attack"),
    )
    text = models.TextField(_("answer"))
    status = models.CharField(
        _("status"), max_length=10, choices=DefenceStatus.choices, default=DefenceStatus.PENDING
    )
    reason = models.CharField(
        _("reason"), max_length=20, choices=DefenceRefusal.choices, blank=True, default=""
    )
    # The model's one-sentence explanation of a refusal (escaped on pages).
    explanation = models.TextField(_("explanation"), blank=True, default="")
    node = models.OneToOneField(
        "debates.DebateArgument",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="defence",
        verbose_name=_("node"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("defence")
        verbose_name_plural = _("defences")
        ordering = ["stress_test", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["stress_test", "seq"], name="stress_defence_seq_unique")
        ]

    def __str__(self) -> str:
        return f"D{self.seq}: {self.text[:60]}"
