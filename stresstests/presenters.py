"""What the stress test's pages show, built from the saved state (no writes)."""

from __future__ import annotations

import dataclasses

from django.utils.text import capfirst
from django.utils.translation import gettext
from django.utils.translation import gettext as _

from argumentation import cq_answers, schemes
from argumentation.toulmin_graph import ClaimStatus, attack_node, defence_node, student_node
from debates.models import AttackType
from debates.persona_words import persona_name
from debates.presenters import graph_words
from debates.svg import GraphEdge, GraphNode, render_graph_svg
from engine.stop_reasons import StopReason
from engine.stopping import is_budget_stop
from engine.wording import failure_message
from stresstests.demo import REFEREE_SENTENCES
from stresstests.models import DefenceStatus, StressTest
from stresstests.offline import CRITICAL_QUESTIONS_PERSONA, reader_language
from stresstests.outcome import compute, is_running, node_ids, reply_node
from stresstests.stages import NO_OBJECTION_EVENT
from stresstests.state import load_state

__all__ = ["ELEMENT_NAMES", "STATUS_WORDS", "site_sentence", "speaker_name", "status_context"]


def site_sentence(text: object) -> str | None:
    """``text`` in the reader's language when the site itself said it (a critical
    question, the offline rules' verdict, the demo referee's line), else None: a
    persona's or a student's words are shown as written."""
    text = str(text or "")
    if not text:
        return None
    language = reader_language()
    found = schemes.reword(text, language) or cq_answers.reword(text, language)
    if found is None and text in REFEREE_SENTENCES:
        found = gettext(text)
    return found


def _shown(text: object, argument_language: str) -> tuple[str, str]:
    """(the words to show, their language) for a stored sentence."""
    found = site_sentence(text)
    if found is not None:
        return found, reader_language()
    return str(text or ""), argument_language


def speaker_name(name: object) -> str:
    """Who raised an objection, as the page names them, in the reader's language: the
    critical questions are the site's own voice (a stored persona named in English), and
    a built-in persona is named as the debates name it (an instructor's own as written)."""
    name = str(name)
    return _("Critical questions") if name == CRITICAL_QUESTIONS_PERSONA else persona_name(name)


def ELEMENT_NAMES() -> dict[str, str]:  # noqa: N802 (a table, translated when asked)
    return {
        "claim": _("claim"),
        "grounds": _("grounds"),
        "warrant": _("warrant"),
        "groundsBacking": _("grounds backing"),
        "warrantBacking": _("warrant backing"),
        "qualifier": _("qualifier"),
        "rebuttal": _("rebuttal"),
    }


def STATUS_WORDS() -> dict[str, tuple[str, str]]:  # noqa: N802
    """Status -> (the words first, the formal term second)."""
    return {
        ClaimStatus.GROUNDED_IN: (
            _("Your claim stands against every objection raised"),
            _("in the grounded extension (sceptically accepted)"),
        ),
        ClaimStatus.CREDULOUS: (
            _("Your claim can be defended, but so can an opposing view"),
            _("credulously accepted: in some preferred extension, not in all"),
        ),
        ClaimStatus.DEFEATED: (
            _("Your claim is defeated as it stands"),
            _("in no preferred extension"),
        ),
    }


@dataclasses.dataclass(frozen=True, slots=True)
class GraphRow:
    """One node of the picture as a table row: what the picture shows, in words."""

    title: str
    speaker: str
    label: str
    attacks: list[str]
    text: str


def _graph(state, outcome) -> tuple[str, list[GraphRow]]:
    """The picture, and the same nodes as table rows (the table is what is read)."""
    ids = node_ids(state)
    names = ELEMENT_NAMES()
    you = _("You")
    # The student's parts are headed as the student knows them ("Grounds backing",
    # "Respaldo de los datos"), the others by their place on the page ("Objection 2"),
    # never by an internal key; the key stays the node's id (the page's styles use it).
    nodes = [
        GraphNode(
            id=ids[node],
            label=outcome.labels.get(node, ""),
            speaker=you,
            round=0,
            claim=state.element_map.get(ids[node], ""),
            title=capfirst(names.get(ids[node], "")),
        )
        for node in outcome.graph.student_nodes
    ]
    for number, (attack, _element) in enumerate(outcome.objections, start=1):
        node = attack_node(attack.from_key)
        nodes.append(
            GraphNode(
                id=attack.from_key,
                label=outcome.labels.get(node, ""),
                speaker=speaker_name(attack.speaker),
                round=1,
                claim=_shown(attack.counter_proposition, "")[0],
                title=_("Objection %(number)s") % {"number": number},
            )
        )
    for defence in state.defences:
        node = defence_node(f"D{defence.seq}")
        if defence.status == DefenceStatus.ACCEPTED:
            nodes.append(
                GraphNode(
                    id=f"D{defence.seq}",
                    label=outcome.labels.get(node, ""),
                    speaker=you,
                    round=1 + defence.seq,
                    claim=defence.text,
                    title=_("Your answer %(number)s") % {"number": defence.seq},
                )
            )
    for number, (reply, _seq) in enumerate(outcome.replies, start=1):
        nodes.append(
            GraphNode(
                id=reply.from_key,
                label=outcome.labels.get(reply_node(reply.from_key), ""),
                speaker=speaker_name(reply.speaker),
                round=reply.round,
                claim=reply.counter_proposition,
                title=_("Reply %(number)s") % {"number": number},
            )
        )
    kinds = {attack_node(a.from_key): a.type for a, _e in outcome.objections}
    edges = [
        GraphEdge(
            source=ids.get(str(source), str(source)),
            target=ids.get(str(target), str(target)),
            kind=kinds.get(str(source), "rebut") if str(source) in kinds else "rebut",
        )
        for source, target in sorted(outcome.graph.framework.attacks, key=str)
    ]
    # Every word of the picture in the reader's language (the legend, the edges'
    # tooltips, the description): the debate's words, with the node's own tooltip.
    words = dataclasses.replace(
        graph_words(),
        node_tooltip=_("%(id)s (%(label)s) — %(speaker)s, round %(round)s: %(claim)s"),
    )
    svg = render_graph_svg(
        nodes=nodes, edges=edges, title=_("Your argument under attack"), words=words
    )
    titles = {node.id: node.heading for node in nodes}
    rows = [
        GraphRow(
            title=node.heading,
            speaker=node.speaker,
            label=node.label,
            attacks=[titles[e.target] for e in edges if e.source == node.id and e.target in titles],
            text=node.claim,
        )
        for node in nodes
    ]
    return svg, rows


def status_context(stress: StressTest, *, user) -> dict:
    debate = stress.debate
    debate.refresh_from_db()  # a defence may have queued it a moment ago
    state = load_state(debate)
    outcome = compute(state)
    names = ELEMENT_NAMES()
    words, term = STATUS_WORDS()[outcome.status.status]
    deciding = set(outcome.status.deciding)
    answered = outcome.graph.answered_by_rebuttal
    rows = {d.seq: d for d in stress.defences.order_by("seq")}
    can_defend = user.pk == stress.student_id and debate.status == "done" and not debate.is_demo
    replies = {seq: reply for reply, seq in outcome.replies}
    objection_keys = {a.from_key for a, _ in outcome.objections}
    argument_language = stress.argument.language

    def open_for_answer(key: str) -> bool:
        answers = [d for d in state.defences if d.attack_key == key]
        return (
            can_defend
            and len(answers) < stress.round_limit
            and not any(
                d.status in (DefenceStatus.ACCEPTED, DefenceStatus.PENDING) for d in answers
            )
        )

    roots: dict[int, str] = {}
    threads: dict[str, list[dict]] = {}
    for d in state.defences:
        if d.attack_key in objection_keys:
            roots[d.seq] = d.attack_key
        else:
            parent = next((seq for seq, r in replies.items() if r.from_key == d.attack_key), None)
            roots[d.seq] = roots.get(parent, "")
        thread = threads.setdefault(roots[d.seq], [])
        explanation, explanation_lang = _shown(rows[d.seq].explanation, argument_language)
        thread.append(
            {
                "kind": "defence",
                "defence": rows[d.seq],
                "explanation": explanation,
                "explanation_lang": explanation_lang,
            }
        )
        reply = replies.get(d.seq)
        if reply is not None:
            thread.append(
                {
                    "kind": "reply",
                    "attack": reply,
                    "by": speaker_name(reply.speaker),
                    "label": outcome.labels.get(reply_node(reply.from_key), ""),
                    "can_defend": open_for_answer(reply.from_key),
                }
            )
    objections = []
    for attack, element in outcome.objections:
        counter, text_lang = _shown(attack.counter_proposition, argument_language)
        rationale, rationale_lang = _shown(attack.rationale, argument_language)
        objections.append(
            {
                "attack": attack,
                "counter": counter,
                "lang": text_lang,
                "rationale": rationale,
                "rationale_lang": rationale_lang,
                "by": speaker_name(attack.speaker),
                "element": element,
                "element_name": names[element],
                "type_name": dict(AttackType.choices).get(attack.type, attack.type),
                "label": outcome.labels.get(attack_node(attack.from_key), ""),
                "deciding": attack.from_key in deciding,
                "answered_by_rebuttal": attack.from_key in answered,
                "thread": threads.get(attack.from_key, []),
                "can_defend": attack.from_key not in answered and open_for_answer(attack.from_key),
            }
        )
    labels = outcome.labels
    stopped = debate.status == "stopped"
    budget_stopped = stopped and is_budget_stop(reason=debate.stop_reason, code=debate.stop_code)
    stopped_on_request = stopped and debate.stop_reason == StopReason.STOPPED_ON_REQUEST
    return {
        "stress": stress,
        "debate": debate,
        "running": is_running(debate.status),
        "status": outcome.status.status.value,
        "status_words": words,
        "status_term": term,
        "claim_label": labels.get(student_node("claim"), ""),
        "objections": objections,
        "no_objection": list(
            debate.events.filter(type=NO_OBJECTION_EVENT)
            .order_by("seq")
            .values_list("payload__persona", flat=True)
        ),
        "counts": {
            "IN": sum(1 for v in labels.values() if v == "IN"),
            "OUT": sum(1 for v in labels.values() if v == "OUT"),
            "UNDEC": sum(1 for v in labels.values() if v == "UNDEC"),
        },
        **dict(zip(("svg", "graph_rows"), _graph(state, outcome), strict=True)),
        "failure_message": failure_message(debate=debate) if debate.status == "failed" else "",
        "stopped": stopped and not budget_stopped and not stopped_on_request,
        "budget_stopped": budget_stopped,
        "stopped_on_request": stopped_on_request,
        "stop_offered": debate.stop_offered_to(user),
        "is_student": user.pk == stress.student_id,
        "can_retry": debate.can_retry and user.pk == stress.student_id,
        "elements": [
            (names[name], state.element_map.get(name, ""))
            for name in names
            if state.element_map.get(name)
        ],
    }
