"""The discussions of a class (for the student's own page, /me/); a discussion's readings and
the reader's team (for the discussion's page)."""

from __future__ import annotations

from django import template

from discussions.models import Discussion
from discussions.teams import team_of

register = template.Library()


@register.simple_tag
def class_discussions(classroom: object) -> list[Discussion]:
    """The class's open-ended discussions, the ones still open first, then the newest.

    A graded one is among the class's assignments already (its link opens the page).
    """
    found = list(
        Discussion.objects.filter(classroom=classroom, assignment__isnull=True).order_by(
            "-created_at", "-id"
        )
    )
    return sorted(found, key=lambda d: not d.is_open())


@register.inclusion_tag("discussions/_readings.html")
def discussion_readings(discussion: Discussion) -> dict:
    """The pinned readings: the instructor's note and the case file's sources, in order."""
    sources = (
        list(discussion.case_file.sources.only("id", "title", "author", "published"))
        if discussion.case_file_id
        else []
    )
    return {"discussion": discussion, "sources": sources}


@register.inclusion_tag("discussions/_team.html", takes_context=True)
def my_team(context: dict, discussion: Discussion) -> dict:
    """The reader's team in this discussion ("" when free or not a student of it)."""
    request = context.get("request")
    user = getattr(request, "user", None)
    return {"team": team_of(discussion=discussion, student=user) if user else ""}
