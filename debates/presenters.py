"""What the debate pages show, built from rows: the views call one of these and render.

Kept apart from the views so that the shaping (estimate, graph, result
sections) is plain functions of a debate, testable without a request.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from typing import Any

from django.core.exceptions import ValidationError
from django.http import QueryDict
from django.urls import reverse
from django.utils.formats import get_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, npgettext

from argumentation.cruxes import natural_key
from debates import events, services
from debates.forms import MAX_PERSONAS, MIN_PERSONAS, DebateForm
from debates.graph import snapshot
from debates.models import AttackStatus, AttackType, DebateArgument, DropReason, TargetComponent
from debates.persona_words import BUILT_IN, persona_name
from debates.state import load_state
from debates.svg import GraphEdge, GraphNode, GraphWords, render_graph_svg
from engine import sse as engine_sse
from engine.models import (
    DEFAULT_BUDGET_USD,
    DEFAULT_ROUNDS,
    MAX_ROUNDS,
    MIN_ROUNDS,
    Debate,
    DebateStatus,
    Persona,
)
from engine.stop_messages import sentences as stop_sentences
from engine.stop_messages import stop_sentence
from engine.stop_reasons import stop_reason_choices
from engine.wording import failure_message, failure_messages
from untrusted import parse_id, parse_int

__all__ = [
    "call_count",
    "camp_matrix",
    "client_strings",
    "persona_failures",
    "estimate_from",
    "flip_condition",
    "graph_data",
    "graph_svg",
    "graph_words",
    "live_context",
    "new_debate_initial",
    "replay_context",
    "result_context",
    "settling_question",
    "stop_detail",
]


# --- new debate --------------------------------------------------------------


def new_debate_initial() -> dict[str, Any]:
    """The form's starting values: the first four active personas, default limits."""
    personas = list(Persona.objects.filter(active=True).values_list("pk", flat=True)[:4])
    return {"personas": personas, "max_rounds": DEFAULT_ROUNDS, "budget_usd": DEFAULT_BUDGET_USD}


def call_count(*, personas: int, rounds: int) -> int:
    """Model calls of a full debate: decompose, openings, then attacks + one validation a round."""
    return 1 + personas + rounds * (personas + 1)


def estimate_from(*, data: QueryDict | dict[str, Any]) -> dict[str, Any]:
    """The estimate box for possibly incomplete form data (it is shown while typing)."""
    ids = _persona_ids(data)
    rounds = _clamped_int(_first(data, "max_rounds"), default=DEFAULT_ROUNDS)
    budget = _decimal(_first(data, "budget_usd"))
    personas = list(Persona.objects.filter(active=True, pk__in=ids))
    if not MIN_PERSONAS <= len(personas) <= MAX_PERSONAS:
        return {
            "ready": False,
            "reason": _("Pick between %(low)d and %(high)d personas to see an estimate.")
            % {"low": MIN_PERSONAS, "high": MAX_PERSONAS},
        }
    if error := _rounds_error(_first(data, "max_rounds")):
        return {"ready": False, "reason": error}
    cost = services.estimate_cost(personas=personas, rounds=rounds)
    return {
        "ready": True,
        "cost": cost,
        "calls": call_count(personas=len(personas), rounds=rounds),
        "personas": len(personas),
        "rounds": rounds,
        "budget": budget,
        "over_budget": budget is not None and cost > budget,
    }


def _rounds_error(value: Any) -> str | None:
    """The form's own words about this many rounds: the estimate never caps them quietly."""
    if value is None or str(value).strip() == "":
        return None
    try:
        DebateForm.base_fields["max_rounds"].clean(value)
    except ValidationError as error:
        return " ".join(error.messages)
    return None


def _first(data: QueryDict | dict[str, Any], key: str) -> Any:
    value = data.get(key)
    return value[0] if isinstance(value, list | tuple) and value else value


def _persona_ids(data: QueryDict | dict[str, Any]) -> list[int]:
    raw = data.getlist("personas") if isinstance(data, QueryDict) else data.get("personas", [])
    ids = []
    for value in raw:
        pk = parse_id(getattr(value, "pk", value))
        if pk is not None:
            ids.append(pk)
    return ids


def _clamped_int(value: Any, *, default: int) -> int:
    number = parse_int(value)
    if number is None:
        return default
    return min(max(number, MIN_ROUNDS), MAX_ROUNDS)


def _decimal(value: Any) -> Decimal | None:
    try:
        number = Decimal(str(value))
    except (InvalidOperation, ValueError):
        return None
    return number if number.is_finite() else None


# --- live, replay, result ----------------------------------------------------


def _page_base(*, debate: Debate) -> dict[str, Any]:
    return {"debate": debate, "personas": list(debate.personas.all())}


def persona_failure_text(*, persona: str, round: int) -> str:
    if round == 0:
        return _("%(persona)s's reply could not be used in the opening round.") % {
            "persona": persona
        }
    return _("%(persona)s's reply could not be used in round %(round)s.") % {
        "persona": persona,
        "round": round,
    }


def persona_failures(*, debate: Debate) -> list[str]:
    """One sentence per persona reply that was unusable, from the event log, in order."""
    rows = debate.events.filter(type=events.PERSONA_FAILED).order_by("seq")
    return [
        persona_failure_text(persona=p.get("persona", "?"), round=int(p.get("round", 0)))
        for p in rows.values_list("payload", flat=True)
    ]


def _counted(phrase: Callable[[int], str]) -> dict[str, str]:
    """A counted phrase's two forms, for the script to fill in (%(count)s)."""
    return {"one": phrase(1), "other": phrase(2)}


def client_strings() -> dict[str, Any]:
    """The words debate_live.js shows, translated here so the script holds no language."""
    return {
        "round": _("Round"),
        "strength": _("strength"),
        # The cost so far, written as config.money writes it: the currency's place
        # ("$%(amount)s" / "%(amount)s US$") and the number's decimal sign.
        "money": {"pattern": _("$%(amount)s"), "decimal": get_format("DECIMAL_SEPARATOR")},
        # "1 argument" / "3 arguments": both forms, since English and Spanish
        # both have one form for 1 and another for every other number.
        "counted": {
            "arguments": _counted(
                lambda n: ngettext("%(count)s argument", "%(count)s arguments", n)
            ),
            "attacks": _counted(lambda n: ngettext("%(count)s attack", "%(count)s attacks", n)),
            "valid": _counted(
                lambda n: npgettext(
                    "after a number of attacks", "%(count)s valid", "%(count)s valid", n
                )
            ),
        },
        "failed": _("The debate failed."),
        "failures": failure_messages(),
        # %(persona)s and %(round)s are filled in by debate_live.js.
        "personaFailed": _("%(persona)s's reply could not be used in round %(round)s."),
        "personaFailedOpening": _("%(persona)s's reply could not be used in the opening round."),
        "resumed": _("Retrying: the debate carries on from where it stopped."),
        "play": _("Play"),
        "pause": _("Pause"),
        "replayDone": _("Replayed"),
        "stages": {
            "opening": _("opening arguments"),
            "attacks": _("waiting for attacks"),
            "validation": _("validating attacks"),
            "done": _("judged"),
            "finished": _("finished"),
            "failed": _("failed"),
        },
        "statuses": dict(DebateStatus.choices),
        "attackTypes": dict(AttackType.choices),
        "attackStatuses": dict(AttackStatus.choices),
        "dropReasons": dict(DropReason.choices),
        "components": dict(TargetComponent.choices),
        "stopReasons": dict(stop_reason_choices()),
        # The grounded labels in plain words (the formal IN/OUT/UNDEC stay in titles).
        "labels": {"IN": _("Standing"), "OUT": _("Defeated"), "UNDEC": _("Undecided")},
        # A stop's sentence by its code; debate_live.js fills in the event's params.
        "stopDetails": stop_sentences(),
        # The built-in personas' names as the reader reads them (events store the
        # shipped English name; an instructor's own persona is shown as written).
        "personaNames": {name: persona_name(name) for name in BUILT_IN},
        "eventTypes": {
            "debate_start": _("started"),
            "arguments_submitted": _("opening arguments"),
            "attacks_generated": _("attacks"),
            "validation_complete": _("validation"),
            "graph_update": _("graph judged"),
            "graph_convergence": _("converged"),
            "debate_complete": _("finished"),
            "debate_error": _("error"),
            "persona_failed": _("reply not used"),
            "debate_resumed": _("retried"),
        },
    }


def live_context(*, debate: Debate) -> dict[str, Any]:
    return {
        **_page_base(debate=debate),
        "mode": "live",
        "events_url": reverse("engine:events", kwargs={"pk": debate.pk}),
        "reopen_ms": engine_sse.reopen_ms(),
        "strings": client_strings(),
    }


def replay_context(*, debate: Debate) -> dict[str, Any]:
    events = [
        {"seq": seq, "type": type_, "payload": payload}
        for seq, type_, payload in debate.events.order_by("seq").values_list(
            "seq", "type", "payload"
        )
    ]
    return {
        **_page_base(debate=debate),
        "mode": "replay",
        "events": events,
        "strings": client_strings(),
    }


def graph_data(*, debate: Debate) -> tuple[list[GraphNode], list[GraphEdge]]:
    """Every argument and every attack between two arguments, labelled by the semantics.

    Arguments outside the framework (counter-arguments of attacks that failed
    validation, see debates/graph.py) get an empty label and are drawn faint.
    """
    state = load_state(debate)
    labels = snapshot(state).labels
    nodes = [
        GraphNode(
            id=argument.key,
            label=labels.get(argument.key, ""),
            speaker=persona_name(argument.speaker),  # in the reader's language
            round=argument.round,
            claim=argument.claim,
        )
        for argument in state.arguments
    ]
    edges = [
        GraphEdge(
            source=attack.from_key,
            target=attack.to_key,
            kind=attack.type,
            counted=attack.status == AttackStatus.VALID,
        )
        for attack in state.attacks
        if attack.from_key is not None and attack.to_key is not None
    ]
    return nodes, edges


def graph_words() -> GraphWords:
    """The graph picture's own words, in the language of the request."""
    return GraphWords(
        not_counted=_("not counted"),
        labels={"IN": _("stands"), "OUT": _("defeated"), "UNDEC": _("undecided")},
        node_tooltip=_("%(id)s (%(label)s) — %(speaker)s, round %(round)s: %(claim)s"),
        kinds=dict(AttackType.choices),
        attacks={
            AttackType.REBUT: _("%(source)s rebuts %(target)s"),
            AttackType.UNDERMINE: _("%(source)s undermines a premise of %(target)s"),
            AttackType.UNDERCUT: _("%(source)s undercuts the inference of %(target)s"),
        },
        uncounted_attack=_("%(attack)s (not counted)"),
        faint=_("faint: not counted (invalid or duplicate)"),
        description=_(
            "%(arguments)s arguments (%(IN)s standing, %(OUT)s defeated, %(UNDEC)s undecided) "
            "and %(counted)s counted attacks."
        ),
    )


def graph_svg(*, debate: Debate) -> str:
    nodes, edges = graph_data(debate=debate)
    return render_graph_svg(
        nodes=nodes,
        edges=edges,
        title=_("Argument graph: %(topic)s") % {"topic": debate.topic},
        words=graph_words(),
    )


def stop_detail(*, debate: Debate) -> str:
    """Why the run stopped, in detail and in the page's language.

    Worded from the stored code and parameters (engine/stop_messages.py); a
    row older than the codes, or a code no format registered, shows its stored
    sentence as it is.
    """
    return stop_sentence(debate.stop_code, debate.stop_params) or debate.stop_detail


def settling_question(crux: dict[str, Any]) -> str:
    """The crux's question in the page's language (the output stores it in English)."""
    body = " ".join(str(crux.get("assumption", "")).split()).rstrip(".")
    return _('What evidence would show whether it is true that "%(assumption)s"?') % {
        "assumption": body
    }


def flip_condition(flip: dict[str, Any]) -> str:
    """What would make a defeated argument stand again, in the page's language."""
    defeaters = [str(key) for key in flip.get("defeatedBy") or []]
    return ngettext(
        "%(argument)s would stand again if %(defeaters)s were defeated.",
        "%(argument)s would stand again if %(defeaters)s were defeated.",
        len(defeaters),
    ) % {"argument": flip.get("argument", ""), "defeaters": ", ".join(defeaters)}


def result_context(*, debate: Debate) -> dict[str, Any]:
    """The result page: the output's sections with each argument id resolved to its row."""
    nodes, edges = graph_data(debate=debate)
    labels = {node.id: node.label for node in nodes}
    arguments = {
        argument.key: argument
        for argument in debate.arguments.select_related("speaker", "origin_attack").order_by("id")
    }
    output = debate.output or {}

    def rows(keys: Any) -> list[DebateArgument]:
        return [arguments[key] for key in keys or [] if key in arguments]

    return {
        **_page_base(debate=debate),
        "mode": "result",
        "stop_detail": stop_detail(debate=debate),
        "output": output,
        "common_ground": rows(output.get("commonGround")),
        **camp_matrix(
            camps=output.get("camps") or [], common_ground=output.get("commonGround"), rows=rows
        ),
        "failure_message": failure_message(debate=debate)
        if debate.status == DebateStatus.FAILED
        else "",
        "persona_failures": persona_failures(debate=debate),
        # The stored output speaks English; its two sentences are said again in the page's language.
        "cruxes": [
            {
                **crux,
                "arguments": rows(crux.get("dependentArguments")),
                "settlingQuestion": settling_question(crux),
            }
            for crux in output.get("cruxes") or []
        ],
        "flip_conditions": [
            {**flip, "condition": flip_condition(flip)}
            for flip in output.get("flipConditions") or []
        ],
        "evidence_ledger": output.get("evidenceLedger") or [],
        "svg": render_graph_svg(
            nodes=nodes,
            edges=edges,
            title=_("Argument graph: %(topic)s") % {"topic": debate.topic},
            words=graph_words(),
        ),
        "arguments": [
            {"row": argument, "label": labels.get(key, "")} for key, argument in arguments.items()
        ],
        "attacks": debate.attacks.select_related(
            "speaker", "from_argument", "to_argument", "validation"
        ).order_by("round", "id"),
    }


def camp_matrix(*, camps: list[list[str]], common_ground: list[str] | None, rows) -> dict[str, Any]:
    """The camps as one table instead of one near-identical list per camp.

    What every camp holds is said once (``shared``: beyond the common ground,
    which the page shows above it); the rest (``disputed``: in some camp but
    not in every one) are the table's rows, one column per camp. ``rows`` maps
    argument keys to their rows, skipping unknown keys.
    """
    members = [set(camp) for camp in camps]
    every = set.intersection(*members) if members else set()
    common = set(common_ground or [])
    seen: dict[str, None] = {}
    for camp in camps:
        seen.update(dict.fromkeys(camp))
    disputed = rows(sorted((key for key in seen if key not in every), key=natural_key))
    return {
        "camps": [{"number": n, "size": len(camp)} for n, camp in enumerate(camps, start=1)],
        "shared": rows(sorted((key for key in every if key not in common), key=natural_key)),
        "disputed": disputed,
        "matrix": [
            {"argument": argument, "cells": [argument.key in camp for camp in members]}
            for argument in disputed
        ],
    }
