"""What the inquiry pages show, computed from rows and the stored output (no HTML here)."""

from __future__ import annotations

from dataclasses import dataclass

from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from engine.models import Debate, DebateStatus, StageRun
from engine.sse import reopen_ms
from engine.stop_messages import stop_sentence
from inquiries.gates import MESSAGES, read_back
from inquiries.graph import EDGES, NODES, RESEND

__all__ = [
    "AGENT_LABELS",
    "GRADE_LABELS",
    "STOP_SENTENCES",
    "OP_LABELS",
    "GraphPicture",
    "calc_rows",
    "citation_hrefs",
    "current_node",
    "gate_sentence",
    "graph_picture",
    "source_request",
    "span_pieces",
]

AGENT_LABELS = {
    "advocate": _("Advocate"),
    # Plain words; "Sanad Breaker" (the chain-of-transmission critic) is the formal name.
    "sanad_breaker": _("Source checker"),
    "contradiction_finder": _("Contradiction Finder"),
    "risk_officer": _("Risk Officer"),
    "methodologist": _("Methodologist"),
    "arbiter": _("Arbiter"),
}


def gate_sentence(rule: str, detail: str) -> str:
    """A gate's stored (English) message in the reader's language, read back from its code
    and parameters (inquiries/gates.py); a message of no known shape is shown as stored."""
    found = read_back(rule, detail)
    if found is None:
        return detail
    key, params = found
    if "kind" in params:
        params["kind"] = gettext(params["kind"])
    return gettext(MESSAGES[key]) % params


def source_request(action: dict) -> str:
    """An action's "request a source" line in the reader's language, by its code."""
    code = action.get("code")
    if code == "shared_origin":
        return str(_("Its chains share one origin: find an independent source."))
    if code == "unanswered":
        return str(_("Nothing in the case file answers: %(query)s") % {"query": action["query"]})
    return action.get("what", "")


GRADE_LABELS = {
    "A": _("A: three or more independent chains"),
    "B": _("B: two independent chains"),
    "C": _("C: one line of evidence (chains that share an origin count once)"),
    "D": _("D: no sound chain"),
}

# By the stored reason: the engine's own (the budget) and the inquiry's.
STOP_SENTENCES = {
    "BUDGET": _("Stopped: the inquiry's budget could not pay for the next stage."),
    "STOPPED_ON_REQUEST": _("Stopped by its owner, before the next stage."),
    "CRITICAL_DEFECT": _(
        "Stopped: the thesis rests on a claim with no sound evidence chain (grade D)."
    ),
    "MAX_ROUNDS": _("Stopped after the last round allowed."),
    "CONSENSUS": _("Stopped: the agents agree (their confidence in the thesis is within 0.10)."),
    "STABLE_DISSENT": _(
        "Stopped: nobody changed position for two rounds, and they still disagree."
    ),
    "EVIDENCE_EXHAUSTED": _("Stopped: the last round brought no new evidence."),
}

OP_LABELS = {
    "percentage": _("percentage (first × 100 ÷ second)"),
    "difference": _("difference (first − second)"),
    "sum": _("sum"),
}

NODE_LABELS = {
    "advocate_opening": _("Advocate's opening"),
    "sanad_breaker_challenge": _("The source checker's challenge"),
    "observer_critiques": _("Observers' critiques"),
    "advocate_rebuttal": _("Advocate's rebuttal"),
    "evidence_call_retrieval": _("Evidence retrieval"),
    "arbiter_close": _("Arbiter's close"),
    "stop_condition_check": _("Stop check"),
    "muhasabah_validate_all": _("Self-accounting check"),
    "finalize_outputs": _("Final outputs"),
}


@dataclass(frozen=True)
class NodeBox:
    name: str
    label: str
    x: int
    y: int
    state: str  # "done", "current", "todo"
    width: int = 220

    @property
    def text_width(self) -> int:
        return self.width - 20

    @property
    def squeezed(self) -> bool:
        """A label longer than its box holds at 13 px (about 7 px a character, as some
        Spanish names are) is drawn squeezed to the box (SVG ``textLength``)."""
        return len(self.label) * 7 > self.text_width


@dataclass(frozen=True)
class GraphPicture:
    width: int
    height: int
    boxes: list[NodeBox]
    lines: list[tuple[int, int, int, int, bool]]  # x1, y1, x2, y2, dashed (conditional)


BOX_W, BOX_H, GAP = 220, 34, 16
# A chosen specialist is drawn beside its node, right of the loop line (a fan-out branch).
SIDE_X, SIDE_W = 10 + BOX_W + 48, 150


def current_node(debate: Debate) -> str | None:
    """The node running now: the one after the last saved stage, while the run goes on."""
    if debate.is_finished:
        return None
    last = StageRun.objects.filter(debate=debate).order_by("-id").first()
    if last is None:
        return "advocate_opening"
    name = last.name.removesuffix(RESEND)
    for edge in EDGES:
        if edge.source == name:
            return edge.target
    return None


def graph_picture(debate: Debate) -> GraphPicture:
    """The node graph as boxes in a column, done / current / to do; the loop drawn at the side.

    A specialist observer the inquiry chose gets a box beside its node, joined to it, in
    the node's state; one not chosen is not drawn (an inquiry without any looks as before).
    """
    done = {
        n.removesuffix(RESEND)
        for n in StageRun.objects.filter(debate=debate).values_list("name", flat=True)
    }
    current = current_node(debate)
    boxes = []
    for i, node in enumerate(NODES):
        state = "current" if node.name == current else ("done" if node.name in done else "todo")
        boxes.append(
            NodeBox(node.name, str(NODE_LABELS[node.name]), 10, 10 + i * (BOX_H + GAP), state)
        )
    where = {b.name: b for b in boxes}
    lines = []
    for edge in EDGES:
        a, b = where[edge.source], where[edge.target]
        if b.y > a.y:
            lines.append(
                (a.x + BOX_W // 2, a.y + BOX_H, b.x + BOX_W // 2, b.y, bool(edge.condition))
            )
        else:  # the loop back: out of the right side, up, and in again
            right = a.x + BOX_W + 24
            lines += [
                (a.x + BOX_W, a.y + BOX_H // 2, right, a.y + BOX_H // 2, True),
                (right, a.y + BOX_H // 2, right, b.y + BOX_H // 2, True),
                (right, b.y + BOX_H // 2, b.x + BOX_W, b.y + BOX_H // 2, True),
            ]
    width = BOX_W + 60
    for node in NODES:
        chosen = [a for a in node.optional if a in debate.inquiry.specialists]
        for j, agent in enumerate(chosen):
            of = where[node.name]
            y = of.y + j * (BOX_H + GAP)
            boxes.append(NodeBox(agent, str(AGENT_LABELS[agent]), SIDE_X, y, of.state, SIDE_W))
            lines.append((of.x + BOX_W, of.y + BOX_H // 2, SIDE_X, y + BOX_H // 2, False))
            width = SIDE_X + SIDE_W + 10
    height = 20 + len(NODES) * (BOX_H + GAP)
    return GraphPicture(width=width, height=height, boxes=boxes, lines=lines)


@dataclass(frozen=True)
class Piece:
    text: str
    marked: bool


def span_pieces(source_text: str, start: int, end: int, context: int = 300) -> list[Piece]:
    """A window of the source around [start, end) with the span itself marked."""
    before = max(0, start - context)
    after = min(len(source_text), end + context)
    pieces = []
    if before < start:
        pieces.append(Piece(("…" if before else "") + source_text[before:start], False))
    pieces.append(Piece(source_text[start:end], True))
    if end < after:
        pieces.append(
            Piece(source_text[end:after] + ("…" if after < len(source_text) else ""), False)
        )
    return pieces


def calc_rows(case_file_id: int, calcs: list[dict]) -> list[dict]:
    """The result's calculations, each input with a link to the span that writes it.

    A span key that is not in the case file keeps no link (the registry only
    accepts inputs written in a span, so this is an edited or stale output).
    """
    from casefiles.models import Span, parse_span_key, span_url

    keys = {i.get("span", "") for k in calcs for i in k.get("inputs") or []}
    wanted = {pair: key for key in keys if (pair := parse_span_key(key))}
    found = {
        wanted[pair]
        for pair in Span.objects.filter(
            case_file_id=case_file_id, source_id__in={s for s, _o in wanted}
        ).values_list("source_id", "ordinal")
        if pair in wanted
    }
    rows = []
    for k in calcs:
        inputs = []
        for i in k.get("inputs") or []:
            span = i.get("span", "")
            link = None
            if span in found:
                link = span_url(case_file_id, span)
            inputs.append({"value": i.get("value", ""), "span": span, "link": link})
        rows.append(
            {
                "id": k.get("id", ""),
                "op": OP_LABELS.get(k.get("op"), k.get("op", "")),
                "inputs": inputs,
                "result": k.get("result", ""),
                "agent_label": AGENT_LABELS.get(k.get("registeredBy"), k.get("registeredBy")),
                "round": k.get("round"),
            }
        )
    return rows


def citation_hrefs(debate: Debate, calcs: list[dict]) -> dict[str, str]:
    """Where each citable id links on the inquiry page: a claim to its chains, a calc to its row.

    Calcs are only listed once the result (and its table of calculations) is shown.
    """
    from inquiries.models import RegisteredClaim

    hrefs = {
        key: reverse("inquiries:claim", args=[debate.pk, key])
        for key in RegisteredClaim.objects.filter(inquiry_id=debate.pk).values_list(
            "key", flat=True
        )
    }
    hrefs.update({k["id"]: f"#{k['id']}" for k in calcs if k.get("id")})
    return hrefs


# --- page contexts -----------------------------------------------------------------


def estimate_from(form) -> dict | None:
    """The estimated cost for the form's models, rounds and budget, shown before anything else.

    Each of those fields is taken as typed when it is valid, else at its initial
    value, so the estimate is there on the empty form (as on debates' new page)
    and does not wait for the question or the case file. None when a typed value
    is invalid: the form then says what to fix.
    """
    from django.core.exceptions import ValidationError

    from inquiries.forms import LEVELS, MODEL_FIELDS, level_budget
    from inquiries.services import estimate_inquiry_cost

    # A student's form has a level where staff have the models and the budget.
    level_field = form.fields.get("level")
    names = ("level", "max_rounds") if level_field else (*MODEL_FIELDS, "max_rounds", "budget_usd")
    values = {}
    for name in names:
        field = form.fields[name]
        raw = form.data.get(name) if form.is_bound else None
        try:
            values[name] = field.clean(field.initial if raw in (None, "") else raw)
        except ValidationError:
            return None
    try:
        specialists = form.fields["specialists"].clean(form["specialists"].data)
    except ValidationError:
        return None
    level = LEVELS[values["level"]] if level_field else None
    cost = estimate_inquiry_cost(
        models=level.models() if level else {key: values[key] for key in MODEL_FIELDS},
        rounds=values["max_rounds"],
        specialists=specialists,
    )
    if level is not None:
        budget = level_budget(level, rounds=values["max_rounds"], specialists=specialists)
    else:
        budget = values["budget_usd"]
    return {"cost": cost, "budget": budget, "fits": cost <= budget}


def detail_context(debate: Debate, user) -> dict:
    from inquiries.models import AgentOutput

    output = debate.output or {}
    outputs = list(
        AgentOutput.objects.filter(inquiry_id=debate.pk)
        .order_by("id")
        .prefetch_related("violations")
    )
    for o in outputs:
        o.agent_label = AGENT_LABELS.get(o.agent, o.agent)
        o.node_label = NODE_LABELS.get(o.node, o.node)
    claims = output.get("claims") or []
    dissent = output.get("dissent") or {}
    calcs = (output.get("calcs") or []) if debate.is_finished else []
    return {
        "violations": [
            {
                **v,
                "agent_label": AGENT_LABELS.get(v.get("agent"), v.get("agent")),
                "detail": gate_sentence(v.get("rule", ""), v.get("detail", "")),
            }
            for v in output.get("violations") or []
        ],
        "source_requests": [
            {**a, "what": source_request(a)}
            for a in (output.get("actions") or {}).get("sources") or []
        ],
        "dissent_statements": [
            (AGENT_LABELS.get(agent, agent), statement)
            for agent, statement in (dissent.get("statements") or {}).items()
        ],
        "debate": debate,
        "inquiry": debate.inquiry,
        "graph": graph_picture(debate),
        "current": current_node(debate),
        "node_labels": NODE_LABELS,
        "outputs": outputs,
        "agent_labels": AGENT_LABELS,
        "output": output,
        "claims": claims,
        "material_claims": [c for c in claims if c.get("material")],
        "calcs": calc_rows(debate.inquiry.case_file_id, calcs),
        "citations": citation_hrefs(debate, calcs),
        "grade_labels": GRADE_LABELS,
        "stop_sentence": STOP_SENTENCES.get(debate.stop_reason, ""),
        "stop_detail": stop_sentence(debate.stop_code, debate.stop_params) or debate.stop_detail,
        "utility": [
            (AGENT_LABELS.get(agent, agent), values)
            for agent, values in (output.get("utility") or {}).items()
        ],
        "is_owner": debate.creator_id == getattr(user, "pk", None),
        "stop_offered": debate.stop_offered_to(user),
        # A failed run may be retried (here or in another tab): its page keeps following.
        "follows": not debate.is_finished or debate.status == DebateStatus.FAILED,
        "reopen_ms": reopen_ms(),
    }


def claim_context(claim) -> dict:
    from casefiles.models import Span, parse_span_key

    chains = []
    for chain in claim.chains:
        key = chain.get("span", "")
        span = None
        if pair := parse_span_key(key):
            span = (
                Span.objects.select_related("source")
                .filter(case_file_id=claim.inquiry.case_file_id, source_id=pair[0], ordinal=pair[1])
                .first()
            )
        chains.append(
            {
                "span": key,
                "source": chain.get("source", ""),
                "origins": chain.get("origins", []),
                "found": span,
                "pieces": span_pieces(span.source.text, span.start, span.end) if span else [],
            }
        )
    return {"claim": claim, "chains": chains, "grade_label": GRADE_LABELS.get(claim.grade, "")}


def replay_context(debate: Debate) -> dict:
    events = list(debate.events.order_by("seq").values("seq", "type", "payload"))
    for e in events:
        payload = e["payload"] if isinstance(e["payload"], dict) else {}
        e["node_label"] = NODE_LABELS.get(payload.get("node"), payload.get("node"))
        e["agent_label"] = AGENT_LABELS.get(payload.get("agent"), payload.get("agent"))
        # A stop check's words, said again in the reader's language from its code.
        e["detail"] = stop_sentence(payload.get("code", ""), payload.get("params")) or payload.get(
            "detail", ""
        )
    return {
        "debate": debate,
        "events": events,
        "agent_labels": AGENT_LABELS,
        "node_labels": NODE_LABELS,
    }
