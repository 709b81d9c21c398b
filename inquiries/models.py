"""An inquiry: a debate (``debates.Debate`` with ``format="inquiry"``) argued only from a case file.

The engine's rows (the debate, its StageRun, ledger and events) hold the run;
these hold what is the inquiry's own: the registry of claims and
calculations with their evidence chains and grades, every agent output with
its self-accounting record, the gates' violations, the evidence retrieved,
and the audit chain of node executions.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from engine.models import Debate

__all__ = [
    "AgentOutput",
    "AuditRecord",
    "Calc",
    "GateViolation",
    "Inquiry",
    "RegisteredClaim",
    "RetrievedEvidence",
]


class Inquiry(models.Model):
    debate = models.OneToOneField(
        Debate,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="inquiry",
        verbose_name=_("debate"),
    )
    case_file = models.ForeignKey(
        "casefiles.CaseFile",
        on_delete=models.PROTECT,
        related_name="inquiries",
        verbose_name=_("case file"),
    )
    language = models.CharField(_("language"), max_length=5, default="en")
    advocate_model = models.CharField(_("advocate's model"), max_length=100)
    challenger_model = models.CharField(_("challenger's model"), max_length=100)
    observer_model = models.CharField(_("observers' model"), max_length=100)
    arbiter_model = models.CharField(_("arbiter's model"), max_length=100)
    # Optional observers chosen for this inquiry (ids of inquiries.graph.SPECIALISTS, in
    # that order; checked by services.create_inquiry). Empty: the two fixed observers.
    specialists = models.JSONField(_("specialist observers"), default=list, blank=True)
    # One entry per closed round: {"round", "stop", "detail", "new_evidence", "positions",
    # "probabilities"} written by stop_condition_check (inquiries/stages.py).
    round_log = models.JSONField(_("round log"), default=list, blank=True)

    class Meta:
        verbose_name = _("inquiry")
        verbose_name_plural = _("inquiries")

    def __str__(self) -> str:
        return self.debate.topic[:80]


class RegisteredClaim(models.Model):
    inquiry = models.ForeignKey(
        Inquiry, on_delete=models.CASCADE, related_name="claims", verbose_name=_("inquiry")
    )
    key = models.CharField(_("id"), max_length=12)
    text = models.TextField(_("claim"))
    registered_by = models.CharField(_("registered by"), max_length=40)
    round = models.PositiveSmallIntegerField(_("round"))
    # [{"span", "source", "origins": [...]}] as the agent declared them.
    chains = models.JSONField(_("evidence chains"), default=list)
    grade = models.CharField(_("grade"), max_length=1)
    # [{"code", "chain", "fatal", "detail"}] from argumentation.sanad.
    defects = models.JSONField(_("defects"), default=list, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["inquiry", "id"]
        verbose_name = _("registered claim")
        verbose_name_plural = _("registered claims")
        constraints = [
            models.UniqueConstraint(fields=["inquiry", "key"], name="inquiry_claim_key_once")
        ]

    def __str__(self) -> str:
        return f"{self.key} ({self.grade})"


class Calc(models.Model):
    inquiry = models.ForeignKey(
        Inquiry, on_delete=models.CASCADE, related_name="calcs", verbose_name=_("inquiry")
    )
    key = models.CharField(_("id"), max_length=12)
    op = models.CharField(_("operation"), max_length=20)
    # [{"span", "value"}]: each number as its span writes it.
    inputs = models.JSONField(_("inputs"), default=list)
    result = models.CharField(_("result"), max_length=60)
    registered_by = models.CharField(_("registered by"), max_length=40)
    round = models.PositiveSmallIntegerField(_("round"))

    class Meta:
        ordering = ["inquiry", "id"]
        verbose_name = _("calculation")
        verbose_name_plural = _("calculations")
        constraints = [
            models.UniqueConstraint(fields=["inquiry", "key"], name="inquiry_calc_key_once")
        ]

    def __str__(self) -> str:
        return f"{self.key} = {self.result}"


class AgentOutput(models.Model):
    inquiry = models.ForeignKey(
        Inquiry, on_delete=models.CASCADE, related_name="outputs", verbose_name=_("inquiry")
    )
    round = models.PositiveSmallIntegerField(_("round"))
    node = models.CharField(_("node"), max_length=40)
    agent = models.CharField(_("agent"), max_length=40)
    attempt = models.PositiveSmallIntegerField(_("attempt"), default=1)
    content = models.TextField(_("content"))
    position = models.CharField(_("position"), max_length=12, blank=True, default="")
    claim_refs = models.JSONField(_("claim references"), default=list, blank=True)
    evidence_requests = models.JSONField(_("evidence requests"), default=list, blank=True)
    # The MuhasabahRecord (inquiries/gates.py) as JSON, or null when the model sent none.
    record = models.JSONField(_("record"), null=True, blank=True)
    confidence = models.FloatField(_("confidence"), null=True, blank=True)
    accepted = models.BooleanField(_("accepted"), default=False)
    # Rejected twice: the agent sits this node out for the round.
    dropped = models.BooleanField(_("dropped"), default=False)
    output_id = models.CharField(_("output id"), max_length=40)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["inquiry", "id"]
        verbose_name = _("agent output")
        verbose_name_plural = _("agent outputs")

    def __str__(self) -> str:
        return f"{self.agent} r{self.round} {self.node} #{self.attempt}"


class GateViolation(models.Model):
    inquiry = models.ForeignKey(
        Inquiry, on_delete=models.CASCADE, related_name="violations", verbose_name=_("inquiry")
    )
    output = models.ForeignKey(
        AgentOutput, on_delete=models.CASCADE, related_name="violations", verbose_name=_("output")
    )
    rule = models.CharField(_("rule"), max_length=30)
    detail = models.TextField(_("detail"))

    class Meta:
        ordering = ["inquiry", "id"]
        verbose_name = _("gate violation")
        verbose_name_plural = _("gate violations")

    def __str__(self) -> str:
        return self.rule


class RetrievedEvidence(models.Model):
    inquiry = models.ForeignKey(
        Inquiry, on_delete=models.CASCADE, related_name="retrieved", verbose_name=_("inquiry")
    )
    round = models.PositiveSmallIntegerField(_("round"))
    query = models.CharField(_("query"), max_length=1000)
    span_keys = models.JSONField(_("span keys"), default=list)
    new_span_keys = models.JSONField(_("new span keys"), default=list)

    class Meta:
        ordering = ["inquiry", "id"]
        verbose_name = _("retrieved evidence")
        verbose_name_plural = _("retrieved evidence")

    def __str__(self) -> str:
        return f"r{self.round}: {self.query[:60]}"


class AuditRecord(models.Model):
    """One node execution; ``record_hash`` chains it to the record before (inquiries/audit.py)."""

    inquiry = models.ForeignKey(
        Inquiry, on_delete=models.CASCADE, related_name="audit", verbose_name=_("inquiry")
    )
    seq = models.PositiveIntegerField(_("sequence"))
    node = models.CharField(_("node"), max_length=40)
    round = models.PositiveSmallIntegerField(_("round"))
    input_hash = models.CharField(_("input hash"), max_length=64)
    output_hash = models.CharField(_("output hash"), max_length=64)
    payload = models.JSONField(_("payload"), default=dict)
    prev_hash = models.CharField(_("previous hash"), max_length=64)
    record_hash = models.CharField(_("record hash"), max_length=64)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["inquiry", "seq"]
        verbose_name = _("audit record")
        verbose_name_plural = _("audit records")
        constraints = [
            models.UniqueConstraint(fields=["inquiry", "seq"], name="inquiry_audit_seq_once")
        ]

    def __str__(self) -> str:
        return f"#{self.seq} {self.node} r{self.round}"
