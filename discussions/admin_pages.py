"""What the instructor's discussion grid, its CSV and one student's work view show.

The instructor always sees names (anonymity hides them from classmates only).
Every figure is `discussions.grading.student_rows`' over the posts as they
stand now: once the discussion is closed, that is how they stand at the end.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from discussions.grading import StudentRow, question_text, student_rows
from discussions.models import Discussion, Post
from discussions.presenters import language, status_words
from discussions.services import standing_of, visible_posts
from untrusted.spreadsheet import safe_writer

__all__ = ["SORTS", "grid_context", "grid_csv", "work_context"]

SORTS = {
    "student": lambda r: r.student.get_username().casefold(),
    "posts": lambda r: (-r.posts, r.student.get_username().casefold()),
    "standing": lambda r: (-r.standing, r.student.get_username().casefold()),
    "replies": lambda r: (-r.replies, r.student.get_username().casefold()),
}


def _rows(discussion: Discussion) -> tuple[list[Post], Any, list[StudentRow]]:
    posts = visible_posts(discussion=discussion)
    standing = standing_of(posts)
    rows = student_rows(discussion=discussion, posts=posts, standing=standing, language=language())
    return posts, standing, rows


def _team_words(team: str) -> str:
    return {"for": _("for"), "against": _("against"), "free": _("free")}.get(team, "")


def grid_context(*, discussion: Discussion, sort: str) -> dict[str, Any]:
    _posts, standing, rows = _rows(discussion)
    sort = sort if sort in SORTS else "student"
    return {
        "title": _("Progress: %(title)s") % {"title": discussion.title},
        "discussion": discussion,
        "assignment": discussion.assignment,
        "rows": [(row, _team_words(row.team)) for row in sorted(rows, key=SORTS[sort])],
        "sort": sort,
        "sorts": [
            ("student", _("student")),
            ("posts", _("most posts")),
            ("standing", _("most posts standing")),
            ("replies", _("most replies received")),
        ],
        "thesis_status": standing.thesis,
        "closed": not discussion.is_open(),
    }


def grid_csv(*, discussion: Discussion, out: Any) -> None:
    """One row per student; their names and the questions' text are cells a sheet must not run."""
    _posts, _standing, rows = _rows(discussion)
    writer = safe_writer(out)
    writer.writerow(
        ["student", "team", "arguments", "objections", "standing", "replies_received"]
        + ["hidden", "critical_questions", "released"]
    )
    for row in sorted(rows, key=SORTS["student"]):
        writer.writerow(
            [
                row.student.get_username(),
                row.team or "free",
                row.arguments,
                row.objections,
                row.standing,
                row.replies,
                row.hidden,
                "; ".join(row.questions),
                "yes" if row.released else "no",
            ]
        )


def _name(user: Any) -> str:
    return user.get_full_name() or user.get_username()


def work_context(*, discussion: Discussion, student: Any) -> dict[str, Any]:
    """The student's posts in order, each with its status, what it answers and its replies."""
    posts, standing, rows = _rows(discussion)
    by_id = {p.pk: p for p in posts}
    lang = language()
    replies: dict[int, list[Post]] = {}
    for post in posts:
        if post.target_id is not None:
            replies.setdefault(post.target_id, []).append(post)

    def status(post: Post) -> str:
        state = standing.posts.get(post.pk)
        return status_words(state.status) if state else _("hidden: not counted")

    items = []
    for post in posts:
        if post.author_id != student.pk:
            continue
        target = by_id.get(post.target_id) if post.target_id else None
        items.append(
            {
                "post": post,
                "status": status(post),
                "target": target,
                "target_author": _name(target.author) if target else "",
                "question": question_text(target.scheme, post.question_code, lang)
                if target is not None and post.question_code
                else "",
                "replies": [
                    {"post": r, "author": _name(r.author), "status": status(r)}
                    for r in replies.get(post.pk, [])
                    if r.author_id != student.pk
                ],
            }
        )
    row = next((r for r in rows if r.student.pk == student.pk), None)
    return {
        "title": _("%(student)s in “%(title)s”")
        % {"student": student.get_username(), "title": discussion.title},
        "discussion": discussion,
        "student": student,
        "row": row,
        "team": _team_words(row.team) if row else "",
        "items": items,
    }
