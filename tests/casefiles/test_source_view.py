"""A source's page: its spans a page at a time, and a link to any span opens its page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from casefiles import services, views
from casefiles.models import Span

pytestmark = pytest.mark.django_db


@pytest.fixture
def long_source(owner):
    case_file = services.create_case_file(owner=owner, title="Readings")
    text = "\n\n".join(f"Paragraph number {i} says <b>{i}</b>." for i in range(1, 451))
    return services.add_source(case_file=case_file, title="Long", text=text)


def test_it_shows_a_long_source_a_page_of_spans_at_a_time(client, owner, long_source) -> None:
    client.force_login(owner)
    url = reverse("casefiles:source", args=[long_source.case_file_id, long_source.pk])
    first = client.get(url).content.decode()
    assert "450 spans" in first and "Spans 1–200 of 450" in first
    assert f'id="S{long_source.pk}.200"' in first and f'id="S{long_source.pk}.201"' not in first
    assert "<b>" not in first  # the source's text stays escaped
    last = client.get(url + "?page=3").content.decode()
    assert f'id="S{long_source.pk}.450"' in last and f'id="S{long_source.pk}.400"' not in last
    assert client.get(url + "?page=999999999999").status_code == 200  # the last page
    assert client.get(url + "?page=x").status_code == 200


def test_it_opens_the_page_that_holds_a_linked_span(client, owner, long_source) -> None:
    client.force_login(owner)
    span = Span.objects.get(source=long_source, ordinal=321)
    response = client.get(span.get_absolute_url())
    assert span.get_absolute_url().endswith(f"?span=321#S{long_source.pk}.321")
    assert f'id="S{long_source.pk}.321"' in response.content.decode()
    url = reverse("casefiles:source", args=[long_source.case_file_id, long_source.pk])
    assert client.get(url + "?span=99999999999999999999").status_code == 200


def test_it_bounds_what_one_page_renders(client, owner, long_source) -> None:
    client.force_login(owner)
    url = reverse("casefiles:source", args=[long_source.case_file_id, long_source.pk])
    rendered = client.get(url).content.decode()
    # At most SPANS_PER_PAGE spans of at most 700 characters each, whatever the source.
    assert rendered.count('class="span-key"') == views.SPANS_PER_PAGE
