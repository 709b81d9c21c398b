"""Only the student (and instructors with the view permission) see a stress test."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.urls import reverse

from stresstests import services
from tests.stresstests.support import settle

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def stress(ada, finished_argument, personas, stress_model):
    run = services.start_stress_test(
        argument=finished_argument, user=ada, persona_ids=[p.pk for p in personas]
    )
    return settle(run)


def _urls(stress) -> list[tuple[str, str]]:
    pk = stress.pk
    return [
        ("get", reverse("stresstests:start", args=[stress.argument_id])),
        ("post", reverse("stresstests:start", args=[stress.argument_id])),
        ("get", reverse("stresstests:detail", args=[pk])),
        ("get", reverse("stresstests:status", args=[pk])),
        ("get", reverse("stresstests:graph_svg", args=[pk])),
        ("get", reverse("stresstests:replay", args=[pk])),
        ("post", reverse("stresstests:defend", args=[pk])),
        ("post", reverse("stresstests:retry", args=[pk])),
        ("get", reverse("debates:replay", args=[stress.debate_id])),
    ]


def test_it_gives_another_student_404_on_every_url(client, stress) -> None:
    bob = get_user_model().objects.create_user("bob", password="a-long-enough-pass")
    client.force_login(bob)

    for method, url in _urls(stress):
        response = getattr(client, method)(url, {"attack": "A2", "answer": "x", "personas": "1"})
        assert response.status_code == 404, url


def test_it_shows_the_student_every_page(client, stress) -> None:
    for method, url in _urls(stress):
        if method == "get":
            assert client.get(url, follow=True).status_code == 200, url
    svg = client.get(reverse("stresstests:graph_svg", args=[stress.pk]))
    assert svg["Content-Type"].startswith("image/svg+xml") and b"<svg" in svg.content


def test_it_shows_an_instructor_with_the_view_permission_the_student_s_run(client, stress) -> None:
    teacher = get_user_model().objects.create_user(
        "teacher", password="a-long-enough-pass", is_staff=True
    )
    client.force_login(teacher)
    url = reverse("stresstests:detail", args=[stress.pk])
    assert client.get(url).status_code == 404
    teacher.user_permissions.add(Permission.objects.get(codename="view_debate"))
    teacher = get_user_model().objects.get(pk=teacher.pk)
    client.force_login(teacher)

    page = client.get(url).content.decode()

    assert "The argument of ada" in page
    assert 'name="answer"' not in page  # only the student answers
    assert client.post(reverse("stresstests:defend", args=[stress.pk])).status_code == 404
