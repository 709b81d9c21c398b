"""Changing where a source reports from, on its page: the owner only, no loops, one file."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from casefiles import services
from casefiles.models import Visibility

pytestmark = pytest.mark.django_db


@pytest.fixture
def case_file(owner):
    case_file = services.create_case_file(owner=owner, title="Readings")
    services.add_source(case_file=case_file, title="Study <i>", text="Traffic fell by 22%.")
    services.add_source(case_file=case_file, title="News", text="A study says traffic fell 22%.")
    return case_file


def _sources(case_file):
    study, news = case_file.sources.order_by("id")
    return study, news


def _url(source) -> str:
    return reverse("casefiles:source_origin", args=[source.case_file_id, source.pk])


def _page(source) -> str:
    return reverse("casefiles:source", args=[source.case_file_id, source.pk])


def test_it_offers_the_owner_the_other_sources_escaped(client, owner, case_file) -> None:
    study, news = _sources(case_file)
    client.force_login(owner)
    html = client.get(_page(news)).content.decode()
    assert f'action="{_url(news)}"' in html
    assert f'<option value="{study.pk}">Study &lt;i&gt; (SRC-{study.pk})</option>' in html
    assert f'<option value="{news.pk}"' not in html  # not itself


def test_it_sets_and_clears_the_origin(client, owner, case_file) -> None:
    study, news = _sources(case_file)
    client.force_login(owner)
    response = client.post(_url(news), {"upstream_origin": str(study.pk)})
    assert response.status_code == 302 and response.url == _page(news)
    news.refresh_from_db()
    assert news.upstream_origin_id == study.pk
    assert client.post(_url(news), {"upstream_origin": ""}).status_code == 302
    news.refresh_from_db()
    assert news.upstream_origin_id is None


def test_it_refuses_a_reporting_loop_with_a_plain_message(client, owner, case_file) -> None:
    study, news = _sources(case_file)
    services.set_upstream_origin(source=news, origin=study)
    client.force_login(owner)
    response = client.post(_url(study), {"upstream_origin": str(news.pk)})
    assert response.status_code == 400
    assert "a source cannot be its own origin" in response.content.decode()
    study.refresh_from_db()
    assert study.upstream_origin_id is None


def test_it_refuses_a_source_of_another_case_file(client, owner, case_file) -> None:
    _study, news = _sources(case_file)
    other = services.create_case_file(owner=owner, title="Other")
    elsewhere = services.add_source(case_file=other, title="Elsewhere", text="Other words.")
    client.force_login(owner)
    for posted in (str(elsewhere.pk), str(news.pk), "junk"):
        response = client.post(_url(news), {"upstream_origin": posted})
        assert response.status_code == 400, posted
        assert "Choose another source of this case file, or none." in response.content.decode()
    news.refresh_from_db()
    assert news.upstream_origin_id is None


def test_it_hides_the_form_and_the_change_from_other_users(client, case_file) -> None:
    study, news = _sources(case_file)
    client.force_login(get_user_model().objects.create_user("eve"))
    assert client.post(_url(news), {"upstream_origin": str(study.pk)}).status_code == 404
    case_file.visibility = Visibility.PUBLIC
    case_file.save()
    assert _url(news) not in client.get(_page(news)).content.decode()  # may read, not change
    assert client.post(_url(news), {"upstream_origin": str(study.pk)}).status_code == 404
    news.refresh_from_db()
    assert news.upstream_origin_id is None


def test_it_sends_anonymous_visitors_to_sign_in(client, case_file) -> None:
    study, news = _sources(case_file)
    response = client.post(_url(news), {"upstream_origin": str(study.pk)})
    assert response.status_code == 302 and "login" in response.url
    news.refresh_from_db()
    assert news.upstream_origin_id is None


def test_it_needs_the_csrf_token(owner, case_file) -> None:
    study, news = _sources(case_file)
    client = Client(enforce_csrf_checks=True)
    client.force_login(owner)
    assert client.post(_url(news), {"upstream_origin": str(study.pk)}).status_code == 403
    news.refresh_from_db()
    assert news.upstream_origin_id is None


def test_it_only_changes_the_origin_by_post(client, owner, case_file) -> None:
    _study, news = _sources(case_file)
    client.force_login(owner)
    assert client.get(_url(news)).status_code == 405
