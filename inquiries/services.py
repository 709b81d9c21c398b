"""Start an inquiry: checks, limits, the estimate, then the shared engine runs it."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from casefiles.models import CaseFile
from casefiles.retrieval import retrieve_spans
from engine.admission import admit_run
from engine.models import MAX_ROUNDS, MIN_ROUNDS, Debate
from engine.services import launch
from inquiries.graph import SPECIALISTS
from inquiries.models import Inquiry, RetrievedEvidence
from llm import Usage, api_key_configured, cost_usd

__all__ = ["OPENING_EVIDENCE", "create_inquiry", "estimate_inquiry_cost", "opening_evidence"]

OPENING_EVIDENCE = 8
# Calls per round: challenger, two observers and each chosen specialist observer,
# the advocate's rebuttal, the arbiter (the opening adds one in round 1); resends
# at most double a node.
PROMPT_TOKENS = 3000
AGENT_OUTPUT_TOKENS = 700
ARBITER_OUTPUT_TOKENS = 400


def estimate_inquiry_cost(
    *, models: dict[str, str], rounds: int, specialists: Sequence[str] = ()
) -> Decimal:
    """Estimated USD of an inquiry running all its rounds without resends, rounded up."""
    prices = settings.LLM_PRICES

    def call(model: str, out: int) -> Decimal:
        usage = Usage(input_tokens=PROMPT_TOKENS, output_tokens=out)
        return cost_usd(model=model, usage=usage, prices=prices)

    per_round = (
        call(models["challenger"], AGENT_OUTPUT_TOKENS)
        + (2 + len(specialists)) * call(models["observer"], AGENT_OUTPUT_TOKENS)
        + call(models["advocate"], AGENT_OUTPUT_TOKENS)
        + call(models["arbiter"], ARBITER_OUTPUT_TOKENS)
    )
    total = call(models["advocate"], AGENT_OUTPUT_TOKENS) + per_round * rounds
    return total.quantize(Decimal("0.01"), rounding="ROUND_CEILING")


def opening_evidence(*, question: str, case_file: CaseFile) -> list[str]:
    """What the agents see first: the index's best spans for the question, then each
    source's opening span (so a question worded unlike the readings still starts
    from every source), at most OPENING_EVIDENCE."""
    keys = [h.key for h in retrieve_spans(question, case_file.pk, OPENING_EVIDENCE)]
    for source in case_file.sources.order_by("id"):
        first = source.spans.order_by("ordinal").first()
        if first is not None and first.key not in keys:
            keys.append(first.key)
    return keys[:OPENING_EVIDENCE]


def create_inquiry(
    *,
    user,
    question: str,
    case_file_id: int,
    models: dict[str, str] | None = None,
    max_rounds: int = 3,
    budget_usd: Decimal = Decimal("1.00"),
    language: str = "en",
    specialists: Sequence[str] = (),
) -> Debate:
    """Save a queued inquiry on a case file the user may read; it runs after commit."""
    if not api_key_configured():
        raise ValidationError(
            _("An Anthropic API key is needed to run an inquiry."), code="no_api_key"
        )
    question = (question or "").strip()
    if not question:
        raise ValidationError(_("An inquiry needs a question."), code="question")
    case_file = CaseFile.objects.for_user(user).filter(pk=case_file_id).first()
    if case_file is None:
        raise ValidationError(_("Choose one of your case files."), code="case_file")
    if not case_file.spans.exists():
        raise ValidationError(
            _("This case file has no sources yet. Add the readings first."), code="case_file"
        )
    if not MIN_ROUNDS <= int(max_rounds) <= MAX_ROUNDS:
        raise ValidationError(
            _("Rounds must be between %(a)s and %(b)s.") % {"a": MIN_ROUNDS, "b": MAX_ROUNDS},
            code="rounds",
        )
    budget = Decimal(budget_usd)
    if budget <= 0:
        raise ValidationError(_("The budget must be positive."), code="budget")
    if any(s not in SPECIALISTS for s in specialists):
        raise ValidationError(
            _("Choose the specialist observers from the list."), code="specialists"
        )
    default = settings.DEBATE_MODEL
    chosen = {"advocate": default, "challenger": default, "observer": default, "arbiter": default}
    chosen.update({k: v for k, v in (models or {}).items() if v})
    with transaction.atomic():
        admit_run(user=user, action="inquiry", reserve_usd=budget)
        debate = Debate.objects.create(
            format="inquiry",
            topic=question,
            max_rounds=int(max_rounds),
            budget_usd=budget,
            creator=user,
        )
        inquiry = Inquiry.objects.create(
            debate=debate,
            case_file=case_file,
            language=language if language in ("en", "es") else "en",
            advocate_model=chosen["advocate"],
            challenger_model=chosen["challenger"],
            observer_model=chosen["observer"],
            arbiter_model=chosen["arbiter"],
            # Stored in the graph's order, each once, so equal choices give equal states.
            specialists=[s for s in SPECIALISTS if s in specialists],
        )
        keys = opening_evidence(question=question, case_file=case_file)
        RetrievedEvidence.objects.create(
            inquiry=inquiry, round=0, query=question[:1000], span_keys=keys, new_span_keys=keys
        )
        launch(debate.pk)
    return debate
