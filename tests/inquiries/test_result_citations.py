"""The result page: the calculations' table, and `[C-n]` / `[K-n]` in agents' text as links,
with everything the model wrote escaped first."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils.safestring import mark_safe

from casefiles.models import Span
from inquiries.models import AgentOutput, Calc
from inquiries.templatetags.inquiry_text import cite_links
from tests.fakes.inquiry_model import FakeInquiryModel

HREFS = {"C-1": "/inquiries/7/claims/C-1/", "K-2": "#K-2"}


def test_cite_links_escapes_first_then_links_known_ids() -> None:
    html = cite_links('<script>alert("x")</script> fell 9% [C-1, K-2; C-9].', HREFS)
    assert "<script>" not in html
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in html
    assert '[<a href="/inquiries/7/claims/C-1/">C-1</a>, <a href="#K-2">K-2</a>; C-9]' in html


def test_cite_links_leaves_what_is_not_a_strict_citation_alone() -> None:
    for text in ("C-1 without brackets", "[C-1x]", "[C-1</b>]", "[K-2-3]"):
        assert "<a " not in cite_links(text, HREFS), text
    assert cite_links("[ C-1 ]<b>", HREFS) == (
        '[ <a href="/inquiries/7/claims/C-1/">C-1</a> ]&lt;b&gt;'
    )


def test_cite_links_escapes_even_text_marked_safe() -> None:
    assert (
        cite_links(mark_safe("<i>[K-2]</i>"), HREFS)
        == '&lt;i&gt;[<a href="#K-2">K-2</a>]&lt;/i&gt;'
    )
    assert cite_links(None, HREFS) == "" and cite_links("<b>", {}) == "&lt;b&gt;"


@pytest.fixture
def with_calc(start):
    return start(FakeInquiryModel(calc=True))


@pytest.mark.django_db(transaction=True)
def test_it_shows_each_calculation_with_its_inputs_spans_and_result(client, with_calc) -> None:
    calc = Calc.objects.get(inquiry_id=with_calc.pk)
    client.force_login(with_calc.creator)
    page = client.get(reverse("inquiries:detail", args=[with_calc.pk])).content.decode()
    assert '<tr id="K-1">' in page and "difference (first − second)" in page
    assert f'<td class="num">{calc.result}</td>' in page
    for item in calc.inputs:
        span = Span.objects.get(
            case_file=with_calc.inquiry.case_file,
            source_id=int(item["span"][1:].split(".")[0]),
            ordinal=int(item["span"].split(".")[1]),
        )
        # The span's own address opens the page of its source that holds it.
        url = span.get_absolute_url()
        assert f'{item["value"]} — <a href="{url}">{span.key}</a>' in page


@pytest.mark.django_db(transaction=True)
def test_it_links_the_citations_in_what_the_agents_said(client, with_calc) -> None:
    claim_url = reverse("inquiries:claim", args=[with_calc.pk, "C-1"])
    client.force_login(with_calc.creator)
    page = client.get(reverse("inquiries:detail", args=[with_calc.pk])).content.decode()
    assert '<a href="#K-1">K-1</a>' in page
    assert f'<a href="{claim_url}">C-1</a>' in page


@pytest.mark.django_db(transaction=True)
def test_it_escapes_model_text_around_the_links(client, with_calc) -> None:
    opening = AgentOutput.objects.get(inquiry_id=with_calc.pk, node="advocate_opening")
    opening.content = '<script>alert(1)</script> [C-1] <b onclick="x">[K-1]</b> [C-999]'
    opening.save()
    client.force_login(with_calc.creator)
    page = client.get(reverse("inquiries:detail", args=[with_calc.pk])).content.decode()
    assert "<script>alert(1)" not in page and "<b onclick" not in page
    claim_url = reverse("inquiries:claim", args=[with_calc.pk, "C-1"])
    assert (
        f'&lt;script&gt;alert(1)&lt;/script&gt; [<a href="{claim_url}">C-1</a>] '
        '&lt;b onclick=&quot;x&quot;&gt;[<a href="#K-1">K-1</a>]&lt;/b&gt; [C-999]'
    ) in page
