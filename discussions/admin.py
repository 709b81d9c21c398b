"""Discussions in the instructors' admin: start one in a class you teach, grade it, hide posts.

Scoped like the other classroom admins (`classroom.admin_scoping.ClassScopedAdmin`):
every queryset is narrowed to the classes the user teaches, another
instructor's discussion or post is a 404, every choice (class, case file,
a team's student) is the user's own. A graded discussion is an assignment of
the class (discussions.grading); its grid, CSV and each student's work are here.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.http import Http404, HttpRequest
from django.utils.translation import gettext_lazy as _

from casefiles.models import CaseFile
from classroom.admin_scoping import ClassScopedAdmin, students_of_the_page_object
from classroom.grid_admin import ProgressGridAdmin, admin_links
from classroom.models import Membership
from discussions.admin_pages import grid_context, grid_csv, work_context
from discussions.grading import sync_assignment
from discussions.models import Discussion, Post, TeamPlace
from discussions.services import hide_post
from discussions.teams import split_teams
from untrusted import parse_int

TEAMS_KEEP, TEAMS_SPLIT, TEAMS_FREE = "", "split", "free"


class DiscussionForm(forms.ModelForm):
    graded = forms.BooleanField(
        label=_("graded as an assignment"),
        required=False,
        help_text=_(
            "On the class's assignments and progress grid, scored with a rubric and released "
            "like the others; its due date is the closing time."
        ),
    )
    make_teams = forms.ChoiceField(
        label=_("teams"),
        required=False,
        choices=[
            (TEAMS_KEEP, _("keep the teams below")),
            (TEAMS_SPLIT, _("split the class in two: for and against, alternately by name")),
            (TEAMS_FREE, _("no teams: everyone argues either side")),
        ],
    )

    class Meta:
        model = Discussion
        fields = ("classroom", "title", "thesis", "due_at", "anonymous", "locked")
        fields += ("case_file", "readings")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.assignment_id is not None:
            self.fields["graded"].initial = True
            self.fields["graded"].disabled = True
            self.fields["graded"].help_text = _(
                "Graded. To stop grading it, delete its assignment (with its scores)."
            )


class TeamPlaceInline(admin.TabularInline):
    model = TeamPlace
    extra = 0
    fields = ("student", "team")

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "student":
            # The discussion's own class's students only (none before it is saved).
            kwargs["queryset"] = students_of_the_page_object(request, through="discussions")
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


@admin.register(Discussion)
class DiscussionAdmin(ProgressGridAdmin, ClassScopedAdmin, admin.ModelAdmin):
    form = DiscussionForm
    list_display = ("title", "classroom", "due_at", "graded", "anonymous", "locked", "page_link")
    list_filter = (("classroom", admin.RelatedOnlyFieldListFilter), "anonymous", "locked")
    search_fields = ("title", "thesis", "classroom__name")
    scoped_related = ("classroom", "assignment")
    inlines = (TeamPlaceInline,)
    grid_template = "admin/discussions/grid.html"
    work_template = "admin/discussions/work.html"
    work_item = "student_id"

    readonly_fields = ("links",)

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        first = ("classroom", "title", "thesis", "due_at", "graded")
        return [
            (None, {"fields": first + (("links",) if obj is not None else ())}),
            (_("Who sees what"), {"fields": ("anonymous", "locked", "make_teams")}),
            (_("Readings"), {"fields": ("case_file", "readings")}),
        ]

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "case_file":
            # The instructor's own case files and the public ones: attached, the class reads it.
            kwargs["queryset"] = CaseFile.objects.for_user(request.user)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def save_model(self, request: HttpRequest, obj: Discussion, form: Any, change: bool) -> None:
        if not change:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)
        sync_assignment(discussion=obj, graded=form.cleaned_data["graded"], author=request.user)

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        super().save_related(request, form, formsets, change)
        choice = form.cleaned_data.get("make_teams")
        if choice in (TEAMS_SPLIT, TEAMS_FREE):
            split_teams(discussion=form.instance, free=choice == TEAMS_FREE)

    @admin.display(description=_("graded"), boolean=True)
    def graded(self, discussion: Discussion) -> bool:
        return discussion.assignment_id is not None

    @admin.display(description=_("links"))
    def links(self, discussion: Discussion) -> str:
        """On the change form: the page, the grid and, once graded, the assignment."""
        if discussion.pk is None:
            return "—"
        feedback = (
            "admin:feedback_assignment_feedback",
            (discussion.assignment_id,),
            _("Feedback, scores and release"),
        )
        graded = () if discussion.assignment_id is None else (feedback,)
        return admin_links(*self._page_links(discussion), *graded)

    @admin.display(description=_("page"))
    def page_link(self, discussion: Discussion) -> str:
        return admin_links(*self._page_links(discussion))

    @staticmethod
    def _page_links(discussion: Discussion) -> tuple[tuple[str, tuple[Any, ...], str], ...]:
        return (
            ("discussions:detail", (discussion.pk,), _("open the discussion")),
            ("admin:discussions_discussion_grid", (discussion.pk,), _("progress grid")),
        )

    # The grid, its CSV and a student's work: ProgressGridAdmin.

    def grid_page(self, request: HttpRequest, discussion: Discussion) -> dict[str, Any]:
        return grid_context(discussion=discussion, sort=request.GET.get("sort", "student"))

    def write_grid_csv(self, request: HttpRequest, discussion: Discussion, out: Any) -> None:
        grid_csv(discussion=discussion, out=out)

    def work_page(
        self, request: HttpRequest, discussion: Discussion, student_id: int
    ) -> dict[str, Any]:
        # A related id past the database's integer is no student (SQLite would overflow).
        if parse_int(str(student_id)) is None:
            raise Http404
        membership = Membership.objects.filter(
            classroom_id=discussion.classroom_id, student_id=student_id
        ).select_related("student")
        if (found := membership.first()) is None:
            raise Http404
        return work_context(discussion=discussion, student=found.student)


class PostForm(forms.ModelForm):
    class Meta:
        model = Post
        fields = ("hidden", "hidden_reason")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("hidden") and not (data.get("hidden_reason") or "").strip():
            self.add_error(
                "hidden_reason", _("Say why the post is hidden: its author reads the reason.")
            )
        return data


@admin.register(Post)
class PostAdmin(ClassScopedAdmin, admin.ModelAdmin):
    """Posts to read and hide (with a reason); their text is the student's, never edited here."""

    form = PostForm
    list_display = ("claim", "discussion", "author", "kind", "attack_type", "hidden", "created_at")
    list_filter = (("discussion", admin.RelatedOnlyFieldListFilter), "kind", "hidden")
    search_fields = ("claim", "author__username")
    class_path = "discussion__classroom"
    scoped_related = ("discussion", "author")
    readonly_fields = (
        "discussion",
        "author",
        "kind",
        "side",
        "claim",
        "premises",
        "target",
        "attack_type",
        "component",
        "premise_index",
        "scheme",
        "question_code",
        "created_at",
    )
    fields = readonly_fields + ("hidden", "hidden_reason")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # students post on the discussion's page

    def save_model(self, request: HttpRequest, obj: Post, form: Any, change: bool) -> None:
        hide_post(post=obj, reason=obj.hidden_reason, hidden=obj.hidden)
