from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command

pytestmark = pytest.mark.django_db


def test_it_makes_a_named_user_an_instructor_without_superuser(django_user_model: Any) -> None:
    user = django_user_model.objects.create_user("zoe")
    out = StringIO()
    call_command("setup_instructors", "zoe", stdout=out)
    user.refresh_from_db()
    assert user.is_staff and not user.is_superuser
    assert user.groups.filter(name="Instructors").exists()
    assert user.has_perm("classroom.add_assignment")
    assert not user.has_perm("coach.view_argument")
    assert "zoe is an instructor" in out.getvalue()


def test_it_refuses_an_unknown_user() -> None:
    with pytest.raises(CommandError, match="no user named"):
        call_command("setup_instructors", "ghost", stdout=StringIO())
