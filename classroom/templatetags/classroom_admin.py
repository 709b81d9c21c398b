"""{% instructor_home %}: the admin index leads with the classes an instructor teaches."""

from __future__ import annotations

from typing import Any

from django import template

from classroom.models import Assignment, Classroom

register = template.Library()


@register.inclusion_tag("admin/classroom/_instructor_home.html", takes_context=True)
def instructor_home(context: Any) -> dict[str, Any]:
    user = context["request"].user
    classes = list(Classroom.objects.taught_by(user).order_by("name")[:50])
    assignments = Assignment.objects.filter(classroom__in=classes).order_by("-created_at")
    by_class: dict[int, list[Assignment]] = {c.pk: [] for c in classes}
    for assignment in assignments:
        by_class[assignment.classroom_id].append(assignment)
    return {
        "classes": [(c, by_class[c.pk]) for c in classes],
        "can_add": user.has_perm("classroom.add_classroom"),
    }
