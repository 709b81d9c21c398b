"""What the demo inquiry's agents say: words written for the demo, read off the real prompts.

The demo (inquiries/demo.py) runs the real pipeline against this script, served
in-process over loopback by the demo's own endpoint (inquiries/demo_server.py).
Each reply is written for its agent, node and round, and makes one point from
the demo readings (casefiles/demo.py), citing what it relies on. Span, source and claim ids are not written here: they are found in
the prompt by the words of the passage or claim (the registry numbers them), so
the chains, grades, gates and stop rule are the product's own. No Django.

The story: the Advocate proposes the charge, with a discount for low-income
drivers once the Risk Officer shows who pays; the Sanad Breaker shows that the
traffic figure and its two newspaper reports are one line of evidence, not
three; the Contradiction Finder first states a figure without citing it (sent
back by No-Free-Facts), then finds that the cleaner air inside the zone came
with a rise on the ring road; the Risk Officer keeps a dissent about the shops
and who pays. The Arbiter upholds the qualified thesis and keeps the dissent.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["DemoInquiryScript", "request_texts"]

_ROLE = re.compile(r"^ROLE: (\w+)", re.MULTILINE)
_NODE = re.compile(r"^NODE: (\w+) ROUND: (\d+)", re.MULTILINE)
_EVIDENCE = re.compile(r"^- (S\d+\.\d+) \[(SRC-\d+)\]: (.*)$", re.MULTILINE)
_CLAIM = re.compile(r"^- (C-\d+) \(grade [A-D]\): (.*)$", re.MULTILINE)
_ORIGIN = re.compile(r"^- (SRC-\d+): .*; reports from (SRC-\d+)\)$", re.MULTILINE)
_CALC = re.compile(r"^- (K-\d+): ", re.MULTILINE)
REJECTED = "YOUR PREVIOUS ANSWER WAS REJECTED"


def _plain(content: Any) -> str:
    """A prompt part as text, whether sent as a string or as content blocks."""
    if isinstance(content, str):
        return content
    return "".join(block.get("text", "") for block in content)


def request_texts(body: dict[str, Any]) -> tuple[str, str, str]:
    """How a Messages API request reads: the output schema's title, the system
    prompt and the last message's text."""
    schema = ((body.get("output_config") or {}).get("format") or {}).get("schema") or {}
    last = (body.get("messages") or [{}])[-1].get("content", "")
    return schema.get("title", ""), _plain(body.get("system") or ""), _plain(last)


class _Case:
    """The prompt's case file, looked up by words rather than ids."""

    def __init__(self, text: str) -> None:
        self.evidence = _EVIDENCE.findall(text)
        self.claims = _CLAIM.findall(text)
        self.origins = dict(_ORIGIN.findall(text))
        self.calcs = _CALC.findall(text)

    def chain(self, words: str) -> dict | None:
        for span, source, text in self.evidence:
            if words in text:
                origins = [self.origins[source]] if source in self.origins else []
                return {"span": span, "source": source, "origins": origins}
        return None

    def claim(self, words: str) -> str | None:
        return next((key for key, text in self.claims if words in text), None)


def _record(ids: list[str], confidence: float, test: str, doubt: str) -> dict:
    return {
        "supported_claim_ids": ids,
        "falsifiability_tests": [test],
        "uncertainties": [doubt],
        "confidence": confidence,
        "failure_modes": ["The readings describe one city's charge; ours may differ."],
    }


def _reply(position: str, content: str, ids: list[str], confidence: float, **extra) -> dict:
    reply = {
        "position": position,
        "content": content,
        "claim_refs": [i for i in ids if i.startswith(("C-", "K-"))],
        "new_claims": extra.get("new_claims", []),
        "calcs": extra.get("calcs", []),
        "evidence_requests": extra.get("evidence_requests", []),
        "record": _record(
            [i for i in ids if i.startswith(("C-", "K-", "N", "M"))],
            confidence,
            extra.get("test", "An independent count that finds traffic back at its old level."),
            extra.get("doubt", "Whether our city's streets behave like the zone's."),
        ),
    }
    return reply


class DemoInquiryScript:
    """Called with each request body; answers the JSON the schema asks for."""

    def __call__(self, body: dict[str, Any]) -> dict:
        title, system, text = request_texts(body)
        role = _ROLE.search(system)
        node = _NODE.search(text)
        agent = role.group(1) if role else ""
        name, round_ = (node.group(1), int(node.group(2))) if node else ("", 0)
        case = _Case(text)
        if title == "ArbiterReply":
            return self._arbiter(case, round_)
        method = getattr(self, f"_{agent}", None)
        reply = method(case, name, round_, REJECTED in text) if method else None
        return reply or self._fallback(case, agent)

    # --- the agents ---------------------------------------------------------

    def _advocate(self, case: _Case, node: str, round_: int, resent: bool) -> dict | None:
        if node == "advocate_opening":
            chains = [c for c in (case.chain("22% lower"), case.chain("fell by 22%")) if c]
            if not chains:
                return None
            return _reply(
                "supports",
                "Our city should adopt congestion pricing. Where it was tried, traffic "
                "entering the zone fell by a fifth and buses ran faster [N1]. Fewer cars "
                "in the centre is what the charge is for, so the main question is who "
                "pays for it.",
                ["N1"],
                0.7,
                new_claims=[
                    {
                        "label": "N1",
                        "text": "Traffic entering the charging zone fell by 22% and bus "
                        "speeds rose by 9% after the charge began.",
                        "chains": chains,
                    }
                ],
            )
        traffic, equity = case.claim("fell by 22%"), case.claim("lowest income")
        if round_ == 1 and traffic and equity:
            shops = case.chain("Footfall counters")
            return _reply(
                "supports",
                f"The Risk Officer is right about who pays [{equity}], so I narrow the "
                "thesis: adopt the charge with a discount for low-income drivers. The "
                "shops are a weaker objection: the footfall counters fell no more than "
                f"the national trend [N1]. The traffic gain still stands [{traffic}].",
                [equity, traffic, "N1"],
                0.7,
                new_claims=[
                    {
                        "label": "N1",
                        "text": "Footfall on the main shopping street fell 4%, in line with "
                        "the national trend, while 31% of shops reported fewer customers "
                        "and 18% more.",
                        "chains": [shops],
                    }
                ]
                if shops
                else [],
            )
        ring = case.claim("ring road")
        if round_ == 2 and traffic and ring:
            return _reply(
                "supports",
                f"The rise on the ring road [{ring}] is a reason to run more buses there, "
                f"not to drop the charge: inside the zone the gains are clear [{traffic}]. "
                "I keep the thesis with its discount.",
                [ring, traffic],
                0.7,
            )
        if traffic:
            return _reply(
                "supports",
                "Adopt the charge with a low-income discount and more buses on the ring "
                f"road, and judge it again after a year by a count of our own [{traffic}].",
                [traffic],
                0.7,
            )
        return None

    def _sanad_breaker(self, case: _Case, node: str, round_: int, resent: bool) -> dict | None:
        traffic = case.claim("fell by 22%")
        if traffic is None:
            return None
        if round_ == 1:
            return _reply(
                "undecided",
                f"The traffic figure [{traffic}] looks like three sources, but the two "
                "newspaper articles only report the institute's own evaluation: it is one "
                "line of evidence, which is why its grade is not higher. I want the "
                "evaluation's other measurements before I accept it.",
                [traffic],
                0.6,
                evidence_requests=["ring road nitrogen dioxide"],
                test="A second, independent count of the traffic entering the zone.",
                doubt="Whether the evaluation counted the same roads each year.",
            )
        return _reply(
            "undecided",
            f"Nothing new reaches the traffic claim [{traffic}]: every chain still leads "
            "back to one evaluation. I accept it for that city, not yet for ours.",
            [traffic],
            0.6,
            test="A second, independent count of the traffic entering the zone.",
            doubt="Whether the evaluation counted the same roads each year.",
        )

    def _contradiction_finder(
        self, case: _Case, node: str, round_: int, resent: bool
    ) -> dict | None:
        if round_ == 1 and not resent:
            # The demo's free fact: a figure without a citation, sent back by the gate.
            return _reply("undecided", "Pollution inside the zone fell by 12%.", [], 0.55)
        if round_ == 1:
            air = case.chain("fell 12%")
            if air is None:
                return None
            return _reply(
                "undecided",
                "The cleaner air has a shadow: pollution inside the zone fell, but the "
                "same report admits that the ring road got slightly worse [N1]. The "
                "thesis should say where the traffic went.",
                ["N1"],
                0.55,
                new_claims=[
                    {
                        "label": "N1",
                        "text": "Pollution inside the zone fell 12%, and the ring road got "
                        "slightly worse.",
                        "chains": [air],
                    }
                ],
            )
        ring = case.chain("3% rise")
        air = case.claim("ring road got")
        if round_ == 2 and ring and air:
            return _reply(
                "undecided",
                f"The two accounts agree once the numbers are read: the weekly's "
                f'"slightly worse" [{air}] is the evaluation\'s rise on the ring road [N1]. '
                "The traffic did not vanish; part of it moved to the ring.",
                [air, "N1"],
                0.6,
                new_claims=[
                    {
                        "label": "N1",
                        "text": "Nitrogen dioxide fell 12% inside the zone and rose 3% on "
                        "the ring road just outside it.",
                        "chains": [ring],
                    }
                ],
            )
        ring_claim = case.claim("rose 3%")
        if ring_claim:
            return _reply(
                "undecided",
                f"No contradiction is left between the sources, but the ring road [{ring_claim}] "
                "belongs in any decision about the charge.",
                [ring_claim],
                0.6,
            )
        return None

    def _risk_officer(self, case: _Case, node: str, round_: int, resent: bool) -> dict | None:
        if round_ == 1:
            equity = case.chain("lowest income")
            if equity is None:
                return None
            return _reply(
                "opposes",
                "The charge falls hardest on the few poor drivers who still need the "
                "centre: the lowest income fifth make few of the car trips but pay a "
                "larger share of their income, and no discount exists [N1]. As proposed, "
                "I oppose it.",
                ["N1"],
                0.65,
                new_claims=[
                    {
                        "label": "N1",
                        "text": "The lowest income fifth made 6% of car trips into the zone "
                        "against 38% for the highest fifth, and no discount scheme exists.",
                        "chains": [equity],
                    }
                ],
                test="A discount scheme that leaves low-income drivers paying no more "
                "of their income than others.",
                doubt="How many low-income drivers have no bus that would replace the car.",
            )
        shops, equity = case.claim("31% of shops"), case.claim("lowest income")
        if round_ == 2 and shops:
            return _reply(
                "opposes",
                "The shop owners tell a different story from the counters: more of them "
                f"report fewer customers than report more, by [M1] points [{shops}]. "
                "A discount on paper does not help them.",
                [shops, "M1"],
                0.6,
                calcs=[
                    {
                        "label": "M1",
                        "op": "difference",
                        "inputs": [
                            {"span": case.chain("31%")["span"], "value": "31%"},
                            {"span": case.chain("31%")["span"], "value": "18%"},
                        ],
                    }
                ]
                if case.chain("31%")
                else [],
                test="Shop takings, not impressions, measured before and after the charge.",
                doubt="Whether the survey's shops are typical of the zone.",
            )
        kept = equity or shops
        if kept:
            calc = case.calcs[-1] if case.calcs else None
            cited = f"[{kept}, {calc}]" if calc else f"[{kept}]"
            return _reply(
                "opposes",
                "I keep my dissent until the discount exists and the shops' takings are "
                f"counted {cited}.",
                [kept] + ([calc] if calc else []),
                0.6,
                test="A discount scheme in place and shop takings counted for a year.",
                doubt="Whether the survey's shops are typical of the zone.",
            )
        return None

    def _methodologist(self, case: _Case, node: str, round_: int, resent: bool) -> dict | None:
        traffic = case.claim("fell by 22%")
        if traffic is None:
            return None
        return _reply(
            "undecided",
            f"The evaluation compares one year before with the fifth year after [{traffic}]: "
            "without a comparison city it shows a change, not what caused it.",
            [traffic],
            0.55,
            test="A comparison city without a charge over the same five years.",
            doubt="What else changed in the city over those years.",
        )

    def _fallback(self, case: _Case, agent: str) -> dict:
        latest = case.claims[-1][0] if case.claims else None
        if latest is None:
            return _reply("undecided", "the readings so far do not settle it.", [], 0.5)
        return _reply(
            "undecided",
            f"I have nothing to add to the registered evidence [{latest}].",
            [latest],
            0.5,
        )

    def _arbiter(self, case: _Case, round_: int) -> dict:
        rationale, dissent = ARBITER.get(round_, ARBITER[3])
        return {
            "thesis_upheld": True,
            "rationale": rationale,
            "dissent_preserved": True,
            "dissent_rationale": dissent,
        }


# The Arbiter's word after each round (not gated: it judges, it states no new fact).
ARBITER = {
    1: (
        "The thesis holds once narrowed. The fall in traffic is registered, though it rests "
        "on one evaluation reported three times; the question of who pays is answered by "
        "the discount the Advocate added.",
        "The Risk Officer's objection about who pays rests on registered evidence and stays "
        "on the record until a discount exists.",
    ),
    2: (
        "The rise on the ring road does not undo the gains inside the zone, but the thesis "
        "now owes a plan for the ring road; it still holds with its discount.",
        "The shops' objection is backed by the survey and a computed difference, against "
        "footfall counters that show no more than the national trend: both stay on record.",
    ),
    3: (
        "Upheld as qualified: adopt the charge with a low-income discount and more buses "
        "on the ring road, and count the traffic again, independently, after a year.",
        "The Risk Officer keeps a reasoned dissent about who pays and about the shops, "
        "backed by registered evidence.",
    ),
}
