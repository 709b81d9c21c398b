"""Sanad: chain defects, independence and grades A-D; Calc computed with Decimal."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from argumentation.sanad import (
    UNKNOWN_ORIGIN_NODE,
    Calc,
    CalcOp,
    Claim,
    DefectCode,
    EvidenceChain,
    Grade,
    Resolver,
    chain_defects,
    chain_nodes,
    compute_calc,
    grade_chains,
    grade_claim,
    independence_classes,
)

# Two newspaper articles report the same study; a blog, a report and a ministry page
# stand alone; a wire story reports from an agency that is not in the case file.
RESOLVER = Resolver(
    spans={
        "sp-study": "study",
        "sp-news1": "news1",
        "sp-news2": "news2",
        "sp-blog": "blog",
        "sp-report": "report",
        "sp-gov": "gov",
        "sp-gov-2": "gov",
        "sp-wire": "wire",
    },
    sources={
        "study": None,
        "news1": "study",
        "news2": "study",
        "blog": None,
        "report": None,
        "gov": None,
        "wire": "agency",
    },
)

STUDY = EvidenceChain("sp-study", "study")
NEWS1 = EvidenceChain("sp-news1", "news1", ("study",))
NEWS2 = EvidenceChain("sp-news2", "news2", ("study",))
BLOG = EvidenceChain("sp-blog", "blog")
REPORT = EvidenceChain("sp-report", "report")
GOV = EvidenceChain("sp-gov", "gov")
GOV2 = EvidenceChain("sp-gov-2", "gov")
WIRE = EvidenceChain("sp-wire", "wire", ("agency",))
BROKEN = EvidenceChain("sp-nowhere", "blog")


def codes(chain: EvidenceChain) -> list[tuple[DefectCode, bool]]:
    return [(d.code, d.fatal) for d in chain_defects(chain, RESOLVER)]


# --- defects -------------------------------------------------------------------------


def test_it_finds_no_defect_in_a_chain_that_resolves_link_by_link() -> None:
    for chain in (STUDY, NEWS1, NEWS2, BLOG, REPORT, GOV, GOV2):
        assert codes(chain) == []


def test_it_calls_a_span_outside_the_case_file_a_broken_chain() -> None:
    assert codes(BROKEN) == [(DefectCode.BROKEN_CHAIN, True)]


def test_it_calls_a_span_cited_with_the_wrong_source_a_broken_chain() -> None:
    assert codes(EvidenceChain("sp-blog", "report")) == [(DefectCode.BROKEN_CHAIN, True)]


def test_it_calls_an_origin_the_registry_does_not_record_a_broken_chain() -> None:
    assert codes(EvidenceChain("sp-news1", "news1", ("blog",))) == [(DefectCode.BROKEN_CHAIN, True)]
    # A source with no recorded origin cannot be said to report from one.
    assert codes(EvidenceChain("sp-blog", "blog", ("study",))) == [(DefectCode.BROKEN_CHAIN, True)]


@pytest.mark.parametrize(
    "chain",
    [
        EvidenceChain(None, "blog"),
        EvidenceChain("  ", "blog"),
        EvidenceChain("sp-blog", None),
        EvidenceChain("sp-blog", ""),
        EvidenceChain("sp-news1", "news1", (" ",)),
    ],
)
def test_it_calls_an_absent_or_blank_link_a_fatal_missing_link(chain: EvidenceChain) -> None:
    assert (DefectCode.MISSING_LINK, True) in codes(chain)


def test_it_calls_a_chain_that_stops_before_the_recorded_origin_a_non_fatal_missing_link() -> None:
    assert codes(EvidenceChain("sp-news1", "news1")) == [(DefectCode.MISSING_LINK, False)]


def test_it_calls_an_unknown_reporting_source_fatal() -> None:
    assert codes(EvidenceChain("sp-blog", "tabloid")) == [(DefectCode.UNKNOWN_SOURCE, True)]


def test_it_calls_an_origin_outside_the_case_file_an_unknown_source_but_not_fatal() -> None:
    assert codes(WIRE) == [(DefectCode.UNKNOWN_SOURCE, False)]
    # Stopping before it: the missing link and the unknown origin are both reported.
    assert codes(EvidenceChain("sp-wire", "wire")) == [
        (DefectCode.MISSING_LINK, False),
        (DefectCode.UNKNOWN_SOURCE, False),
    ]


def test_it_gives_each_defect_its_chain_index_and_a_detail() -> None:
    result = grade_chains([BLOG, BROKEN], RESOLVER)
    (defect,) = result.defects
    assert defect.chain_index == 1
    assert "sp-nowhere" in defect.detail


# --- grades --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("chains", "grade"),
    [
        ([BLOG, REPORT, GOV], Grade.A),
        ([BLOG, REPORT, GOV, STUDY], Grade.A),
        ([BLOG, REPORT], Grade.B),
        ([BLOG], Grade.C),
        ([], Grade.D),
        ([BROKEN], Grade.D),
        ([BROKEN, EvidenceChain("sp-blog", None)], Grade.D),
        # Two articles quoting one study, and the study itself: one witness.
        ([NEWS1, NEWS2, STUDY], Grade.C),
        ([NEWS1, NEWS2], Grade.C),
        # Two spans of one source overlap in the segment span → source.
        ([GOV, GOV2], Grade.C),
        ([GOV, GOV2, BLOG], Grade.B),
        ([NEWS1, NEWS2, BLOG, REPORT], Grade.A),
        # A broken chain takes away support but does not count.
        ([BLOG, REPORT, BROKEN], Grade.B),
        # A non-fatal defect keeps the chain.
        ([WIRE], Grade.C),
        ([WIRE, BLOG, REPORT], Grade.A),
    ],
)
def test_it_grades_known_cases(chains: list[EvidenceChain], grade: Grade) -> None:
    assert grade_chains(chains, RESOLVER).grade is grade


def test_it_treats_two_chains_with_untraceable_origins_as_sharing_one() -> None:
    other_wire = EvidenceChain("sp-x", "x", ("elsewhere",))
    resolver = Resolver(
        spans={**RESOLVER.spans, "sp-x": "x"}, sources={**RESOLVER.sources, "x": "elsewhere"}
    )
    assert grade_chains([WIRE, other_wire], resolver).grade is Grade.C
    assert UNKNOWN_ORIGIN_NODE in chain_nodes(WIRE, resolver)


def test_it_uses_the_registry_origin_even_when_a_chain_omits_it() -> None:
    # news1 is cited without its origin: still known to share the study with news2.
    result = grade_chains([EvidenceChain("sp-news1", "news1"), NEWS2], RESOLVER)
    assert result.grade is Grade.C
    assert result.classes == ((0, 1),)


def test_it_groups_dependence_transitively_even_through_a_defective_chain() -> None:
    # gov and news1 share nothing; a (broken) chain naming gov's span with the study as
    # its source ties them, so they count once: what entangles two witnesses is kept.
    bridge = EvidenceChain("sp-gov", "study")
    assert grade_chains([GOV, NEWS1, BLOG], RESOLVER).grade is Grade.A
    result = grade_chains([GOV, NEWS1, bridge, BLOG], RESOLVER)
    assert result.classes == ((0, 1, 2), (3,))
    assert result.sound_chains == (0, 1, 3)
    assert result.grade is Grade.B


def test_it_survives_a_cycle_in_the_registry() -> None:
    resolver = Resolver(spans={"s1": "a", "s2": "b"}, sources={"a": "b", "b": "a"})
    result = grade_chains([EvidenceChain("s1", "a", ("b",))], resolver)
    assert result.grade is Grade.C


def test_it_grades_a_claim_by_its_chains_and_checks_its_id() -> None:
    claim = Claim("C-12", "Sales fell.", (BLOG, REPORT))
    assert grade_claim(claim, RESOLVER).grade is Grade.B
    with pytest.raises(ValueError, match="C-12"):
        Claim("12", "x")
    with pytest.raises(ValueError):
        Claim("K-1", "x")


def test_grade_rank_orders_a_above_d() -> None:
    assert [g.rank for g in (Grade.D, Grade.C, Grade.B, Grade.A)] == [0, 1, 2, 3]


# --- an independent implementation, for comparison ----------------------------------


def reference_grade(chains: list[EvidenceChain], resolver: Resolver) -> Grade:
    """Connected components by repeated merging of overlapping node sets (no union-find)."""
    nodes = [set(chain_nodes(c, resolver)) for c in chains]
    sound = [not any(d.fatal for d in chain_defects(c, resolver)) for c in chains]
    groups: list[tuple[set[str], bool]] = []
    for node_set, ok in zip(nodes, sound, strict=True):
        merged_nodes, merged_ok = set(node_set), ok
        keep = []
        for g_nodes, g_ok in groups:
            if g_nodes & merged_nodes:
                merged_nodes |= g_nodes
                merged_ok = merged_ok or g_ok
            else:
                keep.append((g_nodes, g_ok))
        groups = [*keep, (merged_nodes, merged_ok)]
    n = sum(1 for _, ok in groups if ok)
    return Grade.A if n >= 3 else {0: Grade.D, 1: Grade.C, 2: Grade.B}[n]


def test_independence_classes_are_components_of_the_overlap_graph() -> None:
    assert independence_classes([{"a"}, {"b"}, {"a", "c"}, {"c", "d"}, set()]) == (
        (0, 2, 3),
        (1,),
        (4,),
    )


# --- properties ----------------------------------------------------------------------

SOURCES = ["s0", "s1", "s2", "s3", "s4", "s5"]


@st.composite
def worlds(draw: st.DrawFn) -> tuple[Resolver, list[EvidenceChain]]:
    """A small random case file and chains over it, some broken, some dependent."""
    origins: dict[str, str | None] = {}
    for i, s in enumerate(SOURCES):
        # Origins only point backwards (plus an occasional outside origin).
        choices: list[str | None] = [None, *SOURCES[:i], "outside"]
        origins[s] = draw(st.sampled_from(choices))
    spans = {f"sp{i}": draw(st.sampled_from(SOURCES)) for i in range(8)}
    resolver = Resolver(spans=spans, sources=origins)

    def ancestry(source: str) -> tuple[str, ...]:
        out: list[str] = []
        cur = origins.get(source)
        while cur is not None:
            out.append(cur)
            cur = origins.get(cur)
        return tuple(out)

    chains: list[EvidenceChain] = []
    for _ in range(draw(st.integers(0, 6))):
        span = draw(st.sampled_from([*spans, "sp-missing"]))
        source = spans.get(span) or draw(st.sampled_from(SOURCES))
        if draw(st.booleans()):
            source = draw(st.sampled_from([*SOURCES, "unknown"]))
        full = ancestry(source) if source in origins else ()
        cut = draw(st.integers(0, len(full)))
        chains.append(EvidenceChain(span, source, full[:cut]))
    return resolver, chains


def fresh_independent_chain(resolver: Resolver, tag: int) -> tuple[Resolver, EvidenceChain]:
    span, source = f"fresh-span-{tag}", f"fresh-source-{tag}"
    return (
        Resolver(
            spans={**resolver.spans, span: source}, sources={**resolver.sources, source: None}
        ),
        EvidenceChain(span, source),
    )


@settings(max_examples=300, deadline=None)
@given(worlds())
def test_it_agrees_with_the_reference_implementation(world) -> None:
    resolver, chains = world
    assert grade_chains(chains, resolver).grade is reference_grade(chains, resolver)


@settings(max_examples=300, deadline=None)
@given(worlds(), st.integers(1, 3))
def test_adding_an_independent_chain_never_lowers_a_grade(world, how_many: int) -> None:
    resolver, chains = world
    before = grade_chains(chains, resolver).grade
    for tag in range(how_many):
        resolver, chain = fresh_independent_chain(resolver, tag)
        chains = [*chains, chain]
        after = grade_chains(chains, resolver).grade
        assert after.rank >= before.rank
        assert after.rank >= Grade.C.rank
        before = after


@settings(max_examples=300, deadline=None)
@given(worlds(), st.data())
def test_adding_a_defect_never_raises_a_grade(world, data: st.DataObject) -> None:
    resolver, chains = world
    before = grade_chains(chains, resolver).grade
    how = data.draw(st.sampled_from(["broken chain", "forget a span", "unknown source"]))
    if how == "broken chain":
        bad = EvidenceChain("sp-never", data.draw(st.sampled_from(SOURCES)))
        after = grade_chains([*chains, bad], resolver).grade
    elif how == "unknown source":
        bad = EvidenceChain(data.draw(st.sampled_from(list(resolver.spans))), "not-a-source")
        after = grade_chains([*chains, bad], resolver).grade
    else:
        gone = data.draw(st.sampled_from(list(resolver.spans)))
        fewer = Resolver(
            spans={k: v for k, v in resolver.spans.items() if k != gone},
            sources=resolver.sources,
        )
        after = grade_chains(chains, fewer).grade
    assert after.rank <= before.rank


@settings(max_examples=200, deadline=None)
@given(worlds(), st.randoms(use_true_random=False))
def test_the_grade_does_not_depend_on_chain_order(world, rnd) -> None:
    resolver, chains = world
    shuffled = list(chains)
    rnd.shuffle(shuffled)
    before, after = grade_chains(chains, resolver), grade_chains(shuffled, resolver)
    assert after.grade is before.grade
    assert sorted((d.code, d.fatal) for d in after.defects) == sorted(
        (d.code, d.fatal) for d in before.defects
    )


# --- calculations --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("op", "inputs", "result"),
    [
        (CalcOp.PERCENTAGE, ("45", "180"), Decimal("25.00")),
        (CalcOp.PERCENTAGE, ("1", "3"), Decimal("33.33")),
        (CalcOp.PERCENTAGE, ("2", "3"), Decimal("66.67")),
        (CalcOp.PERCENTAGE, ("1", "8"), Decimal("12.50")),
        (CalcOp.DIFFERENCE, ("10.1", "0.2"), Decimal("9.9")),
        (CalcOp.DIFFERENCE, (3, 5), Decimal(-2)),
        (CalcOp.SUM, ("0.1", "0.2"), Decimal("0.3")),
        (CalcOp.SUM, ("1200",), Decimal(1200)),
    ],
)
def test_it_computes_calculations_exactly(op: CalcOp, inputs, result: Decimal) -> None:
    assert compute_calc(op, inputs) == result
    calc = Calc("K-1", op, tuple(Decimal(str(i)) for i in inputs))
    assert calc.result == result


def test_it_rounds_a_percentage_half_even_to_the_places_asked() -> None:
    assert compute_calc(CalcOp.PERCENTAGE, ("1", "8"), places=0) == Decimal("12")
    assert compute_calc(CalcOp.PERCENTAGE, ("3", "8"), places=0) == Decimal("38")
    assert compute_calc("percentage", ("1", "3"), places=4) == Decimal("33.3333")


@pytest.mark.parametrize(
    ("op", "inputs", "message"),
    [
        (CalcOp.PERCENTAGE, ("1", "0"), "zero"),
        (CalcOp.PERCENTAGE, ("1",), "two inputs"),
        (CalcOp.DIFFERENCE, ("1", "2", "3"), "two inputs"),
        (CalcOp.SUM, (), "at least one"),
        (CalcOp.SUM, ("abc",), "not a number"),
        (CalcOp.SUM, ("NaN",), "finite"),
    ],
)
def test_it_refuses_calculations_that_make_no_sense(op, inputs, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        compute_calc(op, inputs)


def test_it_refuses_float_inputs_and_bad_calc_ids() -> None:
    with pytest.raises(TypeError):
        compute_calc(CalcOp.SUM, [0.1])
    with pytest.raises(ValueError, match="K-3"):
        Calc("C-3", CalcOp.SUM, (Decimal(1),))


def test_a_calc_result_cannot_be_given_only_computed() -> None:
    with pytest.raises(TypeError):
        Calc("K-1", CalcOp.SUM, (Decimal(1),), result=Decimal(99))  # type: ignore[call-arg]
