"""The search page and its htmx partial: any input answers 200, highlighted, never a 5xx."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from casefiles.demo import load_demo_case_file

pytestmark = pytest.mark.django_db

HOSTILE = [
    "",
    '"',
    "'; DROP TABLE casefiles_span; --",
    'NEAR("zone" traffic) AND NOT * ^ : ( ) {col}',
    "zone OR OR AND NOT",
    "traffic" * 2500,  # 17,500 characters
    "x " * 5000,
    "contaminación ÉTÉ ß İstanbul 東京 🚗",
    "\u0301\u0301 ﬁ ½ ²",
    "a\x00b",
    "%00 %s %(x)s {0}",
]


@pytest.fixture
def demo_client(client):
    owner = get_user_model().objects.create_user("ada")
    client.force_login(owner)
    return client, load_demo_case_file(owner=owner)


@pytest.mark.parametrize("query", HOSTILE)
def test_it_answers_any_query_with_a_page(demo_client, query) -> None:
    client, case_file = demo_client
    url = reverse("casefiles:search", args=[case_file.pk])
    for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
        response = client.get(url, {"q": query}, **headers)
        assert response.status_code == 200


def test_it_marks_the_matching_words_and_links_each_span(demo_client) -> None:
    client, case_file = demo_client
    url = reverse("casefiles:search", args=[case_file.pk])
    page = client.get(url, {"q": "bus speeds"}, HTTP_HX_REQUEST="true").content.decode()
    assert "<mark>bus</mark>" in page and "<mark>speeds</mark>" in page
    assert "<html" not in page  # the partial only
    source = case_file.sources.get(title__startswith="Transport Institute")
    assert f"#S{source.pk}." in page


def test_it_says_so_when_nothing_matches(demo_client) -> None:
    client, case_file = demo_client
    url = reverse("casefiles:search", args=[case_file.pk])
    assert "No passage" in client.get(url, {"q": "zebra"}).content.decode()


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(query=st.text(max_size=600))
def test_it_never_fails_on_any_text(demo_client, query) -> None:
    client, case_file = demo_client
    response = client.get(reverse("casefiles:search", args=[case_file.pk]), {"q": query})
    assert response.status_code == 200
