"""Users and completed coach arguments for trial tests, made through the real models."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.utils import timezone

from coach.models import Argument

STUDENT_CLAIM = "Cities should replace most car lanes with bus and bike lanes."


def make_user(username: str = "ana", password: str = "a-long-test-password"):
    return get_user_model().objects.create_user(username=username, password=password)


def make_argument(*, owner, complete: bool = True, title: str = "Lanes for buses") -> Argument:
    """An argument with all seven parts written, completed unless told otherwise."""
    return Argument.objects.create(
        owner=owner,
        title=title,
        claim=STUDENT_CLAIM,
        grounds="Paris cut commute times by 12% after adding bus lanes.",
        warrant="Policies that shorten most people's commutes are good policies.",
        grounds_backing="The Paris transport authority's 2023 report.",
        warrant_backing="Decades of urban transport research on modal shift.",
        qualifier="In most large cities",
        rebuttal="Unless the city has no frequent bus service.",
        current_step="rebuttal",
        completed_at=timezone.now() if complete else None,
    )
