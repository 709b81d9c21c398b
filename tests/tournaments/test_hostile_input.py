"""The tournament pages never answer a 5xx, whatever comes in (hypothesis)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.tournaments.conftest import MODELS

pytestmark = [pytest.mark.django_db, pytest.mark.fuzz]

FUZZ = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
nasty = st.one_of(
    st.sampled_from(["\x00", "²", "٣", "9" * 40, "-1", "1e999", "NaN", "", " ", "x" * 9000]),
    # Lone surrogates cannot be encoded in a request at all (the test client refuses them).
    st.text(st.characters(blacklist_categories=("Cs",)), max_size=30),
)
FIELDS = [
    "question", "decision_type", "models", "context", "max_rounds",
    "convergence_threshold", "budget_usd", "force_diversity", "no_cache", "case_file",
]  # fmt: skip


@pytest.fixture
def signed_in(client, tournament_prices, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-fuzz")
    user = get_user_model().objects.create_user("ada", password="a-long-enough-pass")
    client.force_login(user)
    return client


def _no_5xx(client: Client, method: str, url: str, data) -> None:
    with transaction.atomic():
        response = getattr(client, method)(url, data)
        assert response.status_code < 500, (url, data)
        transaction.set_rollback(True)


@FUZZ
@given(data=st.dictionaries(st.sampled_from(FIELDS), st.one_of(nasty, st.lists(nasty, max_size=8))))
def test_it_never_fails_the_new_tournament_form(signed_in, data) -> None:
    _no_5xx(signed_in, "post", "/tournaments/new/", data)
    _no_5xx(signed_in, "get", "/tournaments/new/estimate/", data)


@FUZZ
@given(models=st.lists(st.sampled_from([*MODELS, "x", ""]), max_size=8), rounds=nasty)
def test_it_never_fails_the_estimate(signed_in, models, rounds) -> None:
    _no_5xx(
        signed_in, "get", "/tournaments/new/estimate/", {"models": models, "max_rounds": rounds}
    )


@FUZZ
@given(value=nasty)
def test_it_never_fails_on_odd_ids_or_filters(signed_in, value) -> None:
    _no_5xx(signed_in, "get", "/tournaments/", {"decision_type": value})
    for path in ("/tournaments/{}/", "/tournaments/{}/bracket/", "/tournaments/1/matches/{}/"):
        if "\x00" not in value and "/" not in value and "?" not in value and "#" not in value:
            _no_5xx(signed_in, "get", path.format(value or "0"), {})
