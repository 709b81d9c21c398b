"""The tournament admin: everything readable, nothing editable, ratings never deleted."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tournaments.models import Match, Rating

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client):
    user = get_user_model().objects.create_superuser("boss", password="a-long-enough-pass")
    client.force_login(user)
    return client


def test_it_lists_and_shows_the_demo_tournament_read_only(admin_client) -> None:
    from django.core.management import call_command

    call_command("load_demo_tournament", verbosity=0)
    match = Match.objects.first()
    rating = Rating.objects.first()

    for name in ("tournament", "match", "rating", "cachedresponse"):
        assert admin_client.get(reverse(f"admin:tournaments_{name}_changelist")).status_code == 200
    page = admin_client.get(reverse("admin:tournaments_match_change", args=[match.pk]))
    assert page.status_code == 200 and b'name="_save"' not in page.content
    assert admin_client.get(reverse("admin:tournaments_match_add")).status_code == 403

    delete = reverse("admin:tournaments_rating_delete", args=[rating.pk])
    assert admin_client.get(delete).status_code == 403
    assert admin_client.post(delete, {"post": "yes"}).status_code == 403
    assert Rating.objects.filter(pk=rating.pk).exists()
