"""The demo class `make run` loads: a grid and analytics with something to show, once."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from classroom.analytics_data import assignment_summary
from classroom.demo import DEMO_CLASS_NAME
from classroom.models import Classroom
from classroom.services import make_instructor
from coach.models import Argument, CoachMessage
from stresstests.models import StressTest

pytestmark = pytest.mark.django_db


def test_it_loads_a_class_with_varied_work_once(django_user_model: Any) -> None:
    teacher = make_instructor(user=django_user_model.objects.create_user("instructor"))
    student = django_user_model.objects.create_user("student", password="pw")
    call_command("load_demo_class")
    call_command("load_demo_class")
    room = Classroom.objects.get(name=DEMO_CLASS_NAME)
    assert list(room.instructors.all()) == [teacher]
    assert room.memberships.count() == 6 and room.memberships.filter(student=student).exists()
    summary = assignment_summary(room.assignments.get())
    assert (summary.seats, summary.works, summary.complete) == (6, 4, 2)
    assert summary.stuck[0].step == "warrant"  # Ben's eight turns
    assert dict(summary.guards)["advance_gating"] > 0
    # The assignment asks for a stress test, which runs without the AI service: the two
    # who finished ran it for real; Ana answered its questions and her claim stands.
    tests = {t.student.username: t for t in StressTest.objects.select_related("debate")}
    assert sorted(tests) == ["demo-ana", "demo-carla"] and all(t.offline for t in tests.values())
    assert tests["demo-ana"].debate.output["status"] == "grounded_in"
    assert tests["demo-carla"].debate.output["status"] == "defeated"
    assert not room.assignments.get().asks_trial
    # Their own words, of different quality: no "My grounds, try 1." transcripts.
    ana, carla = (Argument.objects.get(owner__username=n) for n in ("demo-ana", "demo-carla"))
    assert "67%" in ana.grounds and ana.grounds != carla.grounds
    assert not CoachMessage.objects.filter(text__contains="try 1").exists()
    assert not django_user_model.objects.get(username="demo-ben").is_active

    client = Client()
    client.force_login(teacher)
    assignment = room.assignments.get()
    for url in (
        f"/admin/classroom/assignment/{assignment.pk}/grid/",
        f"/admin/classroom/assignment/{assignment.pk}/analytics/",
        f"/admin/classroom/classroom/{room.pk}/analytics/",
    ):
        assert client.get(url).status_code == 200, url
    client.force_login(student)
    assert "Car-free city centres" in client.get("/me/").content.decode()
