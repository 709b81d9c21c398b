"""A model tournament's rows, on top of one ``debates.Debate`` row.

A tournament IS a debate of ``format="tournament"``: the ``Debate`` row holds
the question (``topic``), the budget, the creator, the status, the events,
the ledger and the stored ``TournamentResult`` (``output``). The rows here
add what only a tournament has:

- ``Tournament``: the settings (decision type, models in seed order, rounds
  per match, convergence threshold, diversity, cache, context, case file);
- ``Match``: one pairing of a bracket round, from start to verdict;
- ``Turn``: one reply in a match (initial recommendation, challenge,
  defence), with the research it ran (``ToolCallResult`` dicts);
- ``Rating`` and ``RatingChange``: Elo per (model, decision type) and its
  history, one change row per (rating, match) so no match counts twice;
- ``CachedResponse``: the compressed response cache.
"""

from __future__ import annotations

from decimal import Decimal

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments.elo import INITIAL_RATING

__all__ = [
    "CachedResponse",
    "DecisionTypeChoice",
    "Match",
    "MatchStatus",
    "Rating",
    "RatingChange",
    "Tournament",
    "Turn",
    "TurnKind",
]


class DecisionTypeChoice(models.TextChoices):
    DATABASE = "database", _("Database")
    CACHE = "cache", _("Cache")
    MESSAGING = "messaging", _("Messaging")
    API = "api", _("API")
    STORAGE = "storage", _("Storage")
    POLICY = "policy", _("Policy")
    ETHICS = "ethics", _("Ethics")
    SCIENCE = "science", _("Science")
    OTHER = "other", _("Other")


class Tournament(models.Model):
    debate = models.OneToOneField(
        "engine.Debate",
        on_delete=models.CASCADE,
        related_name="tournament",
        verbose_name=_("debate"),
    )
    decision_type = models.CharField(
        _("decision type"), max_length=20, choices=DecisionTypeChoice.choices
    )
    # Model ids in seed order (seed 1 first), fixed when the tournament is created.
    model_ids = models.JSONField(_("models"), default=list)
    tournament_size = models.PositiveSmallIntegerField(
        _("tournament size"), validators=[MinValueValidator(2), MaxValueValidator(5)]
    )
    max_rounds = models.PositiveSmallIntegerField(
        _("rounds per match"), default=3, validators=[MinValueValidator(1), MaxValueValidator(5)]
    )
    convergence_threshold = models.FloatField(
        _("convergence threshold"),
        default=80.0,
        validators=[MinValueValidator(0), MaxValueValidator(100)],
    )
    force_diversity = models.BooleanField(_("models from different families"), default=False)
    no_cache = models.BooleanField(_("skip the response cache"), default=False)
    context = models.TextField(_("context"), blank=True, default="", max_length=8000)
    case_file = models.ForeignKey(
        "casefiles.CaseFile",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tournaments",
        verbose_name=_("case file"),
    )
    estimated_cost_usd = models.DecimalField(
        _("estimated cost (USD)"), max_digits=12, decimal_places=6, default=Decimal("0")
    )
    # Cache hits and misses of this tournament's cacheable calls.
    cache_hits = models.PositiveIntegerField(_("cache hits"), default=0)
    cache_misses = models.PositiveIntegerField(_("cache misses"), default=0)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

    def __str__(self) -> str:
        return gettext("Tournament %(id)s") % {"id": self.debate_id}

    @property
    def cache_hit_rate(self) -> float | None:
        asked = self.cache_hits + self.cache_misses
        return None if asked == 0 else self.cache_hits / asked


class MatchStatus(models.TextChoices):
    RUNNING = "running", _("Running")
    CONVERGED = "converged", _("Converged")
    FORCED = "forced", _("Forced")
    FAILED = "failed", _("Failed")


class Match(models.Model):
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="matches", verbose_name=_("tournament")
    )
    bracket_round = models.PositiveSmallIntegerField(_("bracket round"))
    slot = models.PositiveSmallIntegerField(_("slot"))
    model_a = models.CharField(_("model A"), max_length=100)
    model_b = models.CharField(_("model B"), max_length=100)
    status = models.CharField(
        _("status"), max_length=10, choices=MatchStatus.choices, default=MatchStatus.RUNNING
    )
    # Challenge/defence rounds completed.
    rounds = models.PositiveSmallIntegerField(_("rounds"), default=0)
    # One dict per round: {"round", "score", "method", the alignments, "key_disagreements",
    # "methods_run", "semantic_skipped"}.
    convergence_scores = models.JSONField(_("convergence per round"), default=list, blank=True)
    final_convergence = models.FloatField(_("final convergence"), null=True, blank=True)
    winner = models.CharField(_("winner"), max_length=100, blank=True, default="")
    loser = models.CharField(_("loser"), max_length=100, blank=True, default="")
    # {model id: its final recommendation}
    positions = models.JSONField(_("positions"), default=dict, blank=True)
    # {model id: {"initial", "challenge", "defence", "composite"}} from the arbiter.
    scores = models.JSONField(_("scores"), default=dict, blank=True)
    arbiter_reasoning = models.TextField(_("arbiter reasoning"), blank=True, default="")
    winner_strengths = models.JSONField(_("winner strengths"), default=list, blank=True)
    loser_weaknesses = models.JSONField(_("loser weaknesses"), default=list, blank=True)
    # {model id: "USD as a string"}: what each side's calls cost.
    costs = models.JSONField(_("cost per model"), default=dict, blank=True)
    cost_usd = models.DecimalField(
        _("cost (USD)"), max_digits=12, decimal_places=6, default=Decimal("0")
    )
    is_disputed = models.BooleanField(_("disputed"), default=False)
    disputed_reason = models.TextField(_("why disputed"), blank=True, default="")
    # The match's budget share could not pay another round: it went to the verdict early.
    budget_stopped = models.BooleanField(_("stopped by the budget"), default=False)
    # Why the match failed (a model that could not answer, the budget), in plain words.
    failure_reason = models.TextField(_("why it failed"), blank=True, default="")
    # {"model", "other", "stage", "service"} of a forfeit: the page words it in its language.
    failure_detail = models.JSONField(_("failure detail"), default=dict, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        ordering = ["bracket_round", "slot"]
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "bracket_round", "slot"], name="tournament_match_slot"
            )
        ]

    def __str__(self) -> str:
        return gettext("%(a)s v %(b)s (round %(round)s)") % {
            "a": self.model_a,
            "b": self.model_b,
            "round": self.bracket_round,
        }

    @property
    def is_finished(self) -> bool:
        return self.status != MatchStatus.RUNNING


class TurnKind(models.TextChoices):
    INITIAL = "initial", _("Initial recommendation")
    CHALLENGE = "challenge", _("Challenge")
    DEFENCE = "defence", _("Defence")


class Turn(models.Model):
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="turns", verbose_name=_("match")
    )
    round = models.PositiveSmallIntegerField(_("round"))  # 0 for the initial recommendations
    kind = models.CharField(_("kind"), max_length=10, choices=TurnKind.choices)
    model = models.CharField(_("model"), max_length=100)  # who wrote it
    # The validated reply (ModelResponse / ChallengeResponse / DefenceResponse as JSON).
    content = models.JSONField(_("content"), default=dict)
    # ToolCallResult dicts: the research queries this reply ran.
    tool_calls = models.JSONField(_("research"), default=list, blank=True)
    # A challenge sent back once under the no-yes-man rule.
    sent_back = models.BooleanField(_("sent back"), default=False)
    cost_usd = models.DecimalField(
        _("cost (USD)"), max_digits=12, decimal_places=6, default=Decimal("0")
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("turn")
        verbose_name_plural = _("turns")
        ordering = ["match", "round", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "round", "kind", "model"], name="tournament_turn_once"
            )
        ]

    def __str__(self) -> str:
        return gettext("%(kind)s by %(model)s (round %(round)s)") % {
            "kind": self.get_kind_display(),
            "model": self.model,
            "round": self.round,
        }


class Rating(models.Model):
    model = models.CharField(_("model"), max_length=100)
    decision_type = models.CharField(
        _("decision type"), max_length=20, choices=DecisionTypeChoice.choices
    )
    rating = models.DecimalField(
        _("rating"), max_digits=8, decimal_places=2, default=INITIAL_RATING
    )
    matches_played = models.PositiveIntegerField(_("matches played"), default=0)
    matches_won = models.PositiveIntegerField(_("matches won"), default=0)
    draws = models.PositiveIntegerField(_("draws"), default=0)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        ordering = ["decision_type", "-rating", "model"]
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [
            models.UniqueConstraint(fields=["model", "decision_type"], name="tournament_rating_key")
        ]

    def __str__(self) -> str:
        return f"{self.model} ({self.get_decision_type_display()}): {self.rating}"


class RatingChange(models.Model):
    """One match's effect on one rating: the history for the chart, and the apply-once guard."""

    rating = models.ForeignKey(
        Rating, on_delete=models.CASCADE, related_name="history", verbose_name=_("rating")
    )
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="rating_changes", verbose_name=_("match")
    )
    before = models.DecimalField(_("before"), max_digits=8, decimal_places=2)
    after = models.DecimalField(_("after"), max_digits=8, decimal_places=2)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["rating", "match"], name="tournament_rating_once")
        ]

    def __str__(self) -> str:
        return f"{self.before} -> {self.after}"


class CachedResponse(models.Model):
    """A model reply kept for identical requests (same request hash) until it expires."""

    request_hash = models.CharField(_("request hash"), max_length=64, unique=True)
    model = models.CharField(_("model"), max_length=100)
    # zlib-compressed UTF-8 of the reply's raw JSON text.
    body = models.BinaryField(_("body"))
    input_tokens = models.PositiveIntegerField(_("input tokens"), default=0)
    output_tokens = models.PositiveIntegerField(_("output tokens"), default=0)
    hits = models.PositiveIntegerField(_("hits"), default=0)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    expires_at = models.DateTimeField(_("expires at"), db_index=True)

    class Meta:
        verbose_name = _("cached response")
        verbose_name_plural = _("cached responses")

    def __str__(self) -> str:
        return f"{self.model} {self.request_hash[:12]}"
