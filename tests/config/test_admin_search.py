"""Every admin list with a search box takes a bounded search: no 500 from a thousand words.

The site's AdminSite (config/admin_tools.py) gives every registered ModelAdmin,
the project's and other packages' (auth, axes, lti), the bounded search.
"""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from casefiles import services
from config.admin_tools import BoundedSearchMixin

pytestmark = pytest.mark.django_db

SEARCHABLE = sorted(
    (model._meta.app_label, model._meta.model_name)
    for model, model_admin in admin.site._registry.items()
    if model_admin.search_fields
)


@pytest.fixture
def superuser_client(client):
    client.force_login(get_user_model().objects.create_superuser("root", "r@example.com", None))
    return client


def test_every_registered_admin_has_the_bounded_search() -> None:
    assert len(SEARCHABLE) > 10
    assert all(isinstance(m, BoundedSearchMixin) for m in admin.site._registry.values())


@pytest.mark.parametrize(("app_label", "model_name"), SEARCHABLE)
def test_it_refuses_a_search_of_a_thousand_words_in_plain_words(
    superuser_client, app_label, model_name
) -> None:
    url = reverse(f"admin:{app_label}_{model_name}_changelist")
    words = " ".join(f"w{i}" for i in range(1500))
    response = superuser_client.get(url, {"q": words})
    assert response.status_code == 200  # "Expression tree is too large" was a 500
    assert "A search may have at most 10 words" in response.content.decode()


def test_it_still_finds_with_a_short_search(superuser_client) -> None:
    owner = get_user_model().objects.create_user("ada")
    case_file = services.create_case_file(owner=owner, title="Bus lanes")
    services.add_source(case_file=case_file, title="Study", text="Traffic fell by 22%.")
    url = reverse("admin:casefiles_span_changelist")
    found = superuser_client.get(url, {"q": "traffic fell"}).content.decode()
    assert f"S{case_file.sources.get().pk}.1" in found
    one_long_word = superuser_client.get(url, {"q": "x" * 100_000})  # a LIKE pattern too long
    assert "A search may have at most" in one_long_word.content.decode()
    spanish = superuser_client.get(url, {"q": " ".join(["a"] * 11)}, HTTP_ACCEPT_LANGUAGE="es")
    assert "Una búsqueda puede tener como máximo 10 palabras" in spanish.content.decode()


def test_the_span_list_reads_one_index_without_counting_twice(superuser_client) -> None:
    owner = get_user_model().objects.create_user("ada")
    case_file = services.create_case_file(owner=owner, title="Bus lanes")
    services.add_source(case_file=case_file, title="Study", text="One.\n\nTwo.\n\nThree.")
    with CaptureQueriesContext(connection) as queries:
        response = superuser_client.get(reverse("admin:casefiles_span_changelist"))
    assert response.status_code == 200
    span_queries = [q["sql"] for q in queries if 'FROM "casefiles_span"' in q["sql"]]
    # Ordering by "source" followed Source's and CaseFile's orderings: two joins and a
    # sort of every span. And no count of the whole table besides the filtered one.
    assert not any('"casefiles_casefile"' in sql for sql in span_queries), span_queries
    assert sum("COUNT(*)" in sql for sql in span_queries) <= 1
