"""The one way an admin keeps an instructor to the classes they teach.

Every model admin of a class's things (assignments, submissions,
discussions, posts, teams) narrows its rows to `Classroom.objects.taught_by`
through the path from its model to the class (`class_path`), offers only
those classes in a "class" choice, and answers another instructor's object
with a plain 404 (`NotYoursIs404`). Related list filters are
`RelatedOnlyFieldListFilter`, which lists only what these rows point at.
"""

from __future__ import annotations

from typing import Any

from django.contrib.admin.utils import unquote
from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.http import Http404, HttpRequest

from classroom.models import Classroom
from untrusted import parse_int

__all__ = ["ClassScopedAdmin", "NotYoursIs404", "students_of_the_page_object"]


class NotYoursIs404:
    """Another instructor's object is a 404 on its change, history and delete pages.

    Django's admin redirects to the index for an object outside the queryset
    ("doesn't exist. Perhaps it was deleted?"); a plain 404 says nothing more.
    """

    def _require_own(self, request: HttpRequest, object_id: str) -> None:
        if self.get_object(request, unquote(object_id)) is None:  # type: ignore[attr-defined]
            raise Http404

    def change_view(self, request: HttpRequest, object_id: str, *args: Any, **kwargs: Any) -> Any:
        self._require_own(request, object_id)
        return super().change_view(request, object_id, *args, **kwargs)  # type: ignore[misc]

    def history_view(self, request: HttpRequest, object_id: str, *args: Any, **kwargs: Any) -> Any:
        self._require_own(request, object_id)
        return super().history_view(request, object_id, *args, **kwargs)  # type: ignore[misc]

    def delete_view(self, request: HttpRequest, object_id: str, *args: Any, **kwargs: Any) -> Any:
        self._require_own(request, object_id)
        return super().delete_view(request, object_id, *args, **kwargs)  # type: ignore[misc]


class ClassScopedAdmin(NotYoursIs404):
    """Rows of the classes the user teaches only; "class" choices likewise.

    `class_path`: the lookup from the model to its class ("classroom",
    "assignment__classroom", "discussion__classroom"); `scoped_related`: what
    the list reads of each row (select_related).
    """

    class_path = "classroom"
    scoped_related: tuple[str, ...] = ()

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        taught = Classroom.objects.taught_by(request.user)
        rows = super().get_queryset(request).filter(**{f"{self.class_path}__in": taught})  # type: ignore[misc]
        return rows.select_related(*self.scoped_related) if self.scoped_related else rows

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "classroom":
            kwargs["queryset"] = Classroom.objects.taught_by(request.user)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)  # type: ignore[misc]


def students_of_the_page_object(request: HttpRequest, *, through: str) -> QuerySet:
    """An inline's student choices: the students of the class of the object on the change page.

    `through` names the class's related objects ("assignments", "discussions");
    none on an add page (no object yet), none of a class the user does not teach.
    """
    match = request.resolver_match
    object_id = parse_int(str((match.kwargs if match else {}).get("object_id", "")))
    users = get_user_model().objects
    if object_id is None:
        return users.none()
    return users.filter(
        **{f"memberships__classroom__{through}": object_id},
        memberships__classroom__in=Classroom.objects.taught_by(request.user),
    ).order_by("username")
