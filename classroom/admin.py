"""The instructors' classroom in the admin: classes, assignments, the grid, students' work.

An instructor (staff in the "Instructors" group, classroom.services) sees
only the classes they teach: every queryset here is narrowed by
`Classroom.objects.taught_by`, so another instructor's class, assignment or
student is a 404 on the change pages and on every custom view alike.
"""

from __future__ import annotations

import csv
from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.admin.utils import unquote
from django.db.models import Count, QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from classroom.analytics_data import assignment_summary, classroom_summary
from classroom.analytics_page import figures
from classroom.criteria import CRITERIA, parse_required
from classroom.forms import AddStudentsForm
from classroom.models import Assignment, AssignmentExtension, Classroom, Membership, Submission
from classroom.presenters import page_language
from classroom.progress import SORTS, filter_rows, grid_rows, sort_rows
from classroom.services import add_students
from classroom.work import work_context
from coach.steps import STEPS, label_for
from config.admin_tools import ViewOnlyMixin
from untrusted import parse_int

# Feedback, rubrics and release (issue 12 §3) hang off Submission: add their
# inlines to SubmissionAdmin and their links to the grid's cells here.


class NotYoursIs404:
    """Another instructor's object is a 404 on its change, history and delete pages.

    Django's admin redirects to the index for an object outside the queryset
    ("doesn't exist. Perhaps it was deleted?"); a plain 404 says nothing more.
    """

    def _require_own(self, request: HttpRequest, object_id: str) -> None:
        if self.get_object(request, unquote(object_id)) is None:
            raise Http404

    def change_view(self, request: HttpRequest, object_id: str, *args: Any, **kwargs: Any) -> Any:
        self._require_own(request, object_id)
        return super().change_view(request, object_id, *args, **kwargs)

    def history_view(self, request: HttpRequest, object_id: str, *args: Any, **kwargs: Any) -> Any:
        self._require_own(request, object_id)
        return super().history_view(request, object_id, *args, **kwargs)

    def delete_view(self, request: HttpRequest, object_id: str, *args: Any, **kwargs: Any) -> Any:
        self._require_own(request, object_id)
        return super().delete_view(request, object_id, *args, **kwargs)


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    fields = ("student", "joined_at")
    readonly_fields = ("joined_at",)
    raw_id_fields = ("student",)


@admin.register(Classroom)
class ClassroomAdmin(NotYoursIs404, admin.ModelAdmin):
    list_display = ("name", "join_code", "student_count", "assignment_count", "analytics_link")
    list_display += ("created_at",)
    search_fields = ("name", "join_code")
    readonly_fields = ("join_code", "created_at", "add_students_link", "analytics_link")
    inlines = (MembershipInline,)

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return (
            Classroom.objects.taught_by(request.user)
            .annotate(
                _students=Count("memberships", distinct=True),
                _assignments=Count("assignments", distinct=True),
            )
            .order_by("-created_at", "-id")
        )

    def get_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        fields = ["name", "join_code", "add_students_link", "analytics_link", "created_at"]
        if request.user.is_superuser:
            fields.insert(1, "instructors")
        return fields

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        super().save_related(request, form, formsets, change)
        # Whoever creates a class teaches it.
        if not change:
            form.instance.instructors.add(request.user)

    @admin.display(description=_("students"), ordering="_students")
    def student_count(self, classroom: Classroom) -> int:
        return classroom._students

    @admin.display(description=_("assignments"), ordering="_assignments")
    def assignment_count(self, classroom: Classroom) -> int:
        return classroom._assignments

    @admin.display(description=_("add students"))
    def add_students_link(self, classroom: Classroom) -> str:
        if classroom.pk is None:
            return "—"
        return format_html(
            '<a href="{}">{}</a>',
            reverse("admin:classroom_classroom_add_students", args=[classroom.pk]),
            _("Add students by username or e-mail (one per line, or a CSV column)"),
        )

    @admin.display(description=_("analytics"))
    def analytics_link(self, classroom: Classroom) -> str:
        if classroom.pk is None:
            return "—"
        return format_html(
            '<a href="{}">{}</a>',
            reverse("admin:classroom_classroom_analytics", args=[classroom.pk]),
            _("class analytics"),
        )

    def get_urls(self) -> list[Any]:
        return [
            path(
                "<int:classroom_id>/add-students/",
                self.admin_site.admin_view(self.add_students_view),
                name="classroom_classroom_add_students",
            ),
            path(
                "<int:classroom_id>/analytics/",
                self.admin_site.admin_view(self.analytics_view),
                name="classroom_classroom_analytics",
            ),
            *super().get_urls(),
        ]

    def analytics_view(self, request: HttpRequest, classroom_id: int) -> HttpResponse:
        classroom = get_object_or_404(self.get_queryset(request), pk=classroom_id)
        return _analytics_response(
            request,
            admin_site=self.admin_site,
            opts=self.model._meta,
            title=_("Analytics: %(name)s") % {"name": classroom.name},
            classroom=classroom,
            assignment=None,
            summary=classroom_summary(classroom),
        )

    def add_students_view(self, request: HttpRequest, classroom_id: int) -> HttpResponse:
        classroom = get_object_or_404(self.get_queryset(request), pk=classroom_id)
        if not self.has_change_permission(request, classroom):
            raise Http404
        form = AddStudentsForm(request.POST or None)
        results = None
        if request.method == "POST" and form.is_valid():
            results = add_students(classroom=classroom, text=form.cleaned_data["lines"])
        context = {
            **self.admin_site.each_context(request),
            "title": _("Add students to %(name)s") % {"name": classroom.name},
            "classroom": classroom,
            "form": form,
            "results": results,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/classroom/add_students.html", context)


def _criteria_choices() -> list[tuple[str, str]]:
    # A callable: Django evaluates it per form, in the request's language.
    language = page_language()
    return [(c.code, f"{label_for(c.step, language)}: {c.label(language)}") for c in CRITERIA]


class AssignmentForm(forms.ModelForm):
    criteria = forms.MultipleChoiceField(
        label=_("required criteria"),
        required=False,
        choices=_criteria_choices,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Checked on the step's text before the student may move on."),
    )

    class Meta:
        model = Assignment
        fields = ("classroom", "title", "prompt", "due_at", "language", "coach_policy")
        fields += ("turn_quota", "asks_trial", "asks_stress_test")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        stored = parse_required(self.instance.required_criteria or {})
        self.fields["criteria"].initial = [code for codes in stored.values() for code in codes]

    def save(self, commit: bool = True) -> Assignment:
        by_step: dict[str, list[str]] = {}
        chosen = set(self.cleaned_data.get("criteria") or [])
        for c in CRITERIA:
            if c.code in chosen:
                by_step.setdefault(c.step, []).append(c.code)
        self.instance.required_criteria = parse_required(by_step)
        return super().save(commit)


class ExtensionInline(admin.TabularInline):
    model = AssignmentExtension
    extra = 0
    raw_id_fields = ("student",)


@admin.register(Assignment)
class AssignmentAdmin(NotYoursIs404, admin.ModelAdmin):
    form = AssignmentForm
    list_display = ("title", "classroom", "due_at", "coach_policy", "turn_quota", "grid_link")
    list_filter = ("coach_policy", "language")
    search_fields = ("title", "prompt", "classroom__name")
    inlines = (ExtensionInline,)

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return (
            super()
            .get_queryset(request)
            .filter(classroom__in=Classroom.objects.taught_by(request.user))
            .select_related("classroom")
        )

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        return [
            (None, {"fields": ("classroom", "title", "prompt", "due_at", "language")}),
            (_("The coach"), {"fields": ("coach_policy", "turn_quota", "criteria")}),
            (_("Also asked"), {"fields": ("asks_trial", "asks_stress_test")}),
        ]

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "classroom":
            kwargs["queryset"] = Classroom.objects.taught_by(request.user)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def save_model(self, request: HttpRequest, obj: Assignment, form: Any, change: bool) -> None:
        if not change:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)

    @admin.display(description=_("progress"))
    def grid_link(self, assignment: Assignment) -> str:
        return format_html(
            '<a href="{}">{}</a> · <a href="{}">{}</a>',
            reverse("admin:classroom_assignment_grid", args=[assignment.pk]),
            _("progress grid"),
            reverse("admin:classroom_assignment_analytics", args=[assignment.pk]),
            _("analytics"),
        )

    def get_urls(self) -> list[Any]:
        view = self.admin_site.admin_view
        return [
            path(
                "<int:assignment_id>/grid/",
                view(self.grid_view),
                name="classroom_assignment_grid",
            ),
            path(
                "<int:assignment_id>/grid.csv",
                view(self.grid_csv_view),
                name="classroom_assignment_grid_csv",
            ),
            path(
                "<int:assignment_id>/analytics/",
                view(self.analytics_view),
                name="classroom_assignment_analytics",
            ),
            path(
                "<int:assignment_id>/work/<int:submission_id>/",
                view(self.work_view),
                name="classroom_assignment_work",
            ),
            *super().get_urls(),
        ]

    def _assignment(self, request: HttpRequest, assignment_id: int) -> Assignment:
        return get_object_or_404(self.get_queryset(request), pk=assignment_id)

    def _rows(self, request: HttpRequest, assignment: Assignment) -> tuple[list, dict[str, Any]]:
        stuck = parse_int(request.GET.get("stuck", ""))
        stuck = stuck if stuck is not None and 0 <= stuck <= 10_000 else None
        overdue = request.GET.get("overdue") == "1"
        reliance = request.GET.get("reliance") == "1"
        sort = request.GET.get("sort", "student")
        sort = sort if sort in SORTS else "student"
        rows = sort_rows(
            filter_rows(grid_rows(assignment), stuck=stuck, overdue=overdue, reliance=reliance),
            sort,
        )
        return rows, {"stuck": stuck, "overdue": overdue, "reliance": reliance, "sort": sort}

    def grid_view(self, request: HttpRequest, assignment_id: int) -> HttpResponse:
        assignment = self._assignment(request, assignment_id)
        rows, chosen = self._rows(request, assignment)
        context = {
            **self.admin_site.each_context(request),
            "title": _("Progress: %(title)s") % {"title": assignment.title},
            "assignment": assignment,
            "rows": rows,
            "steps": [(s.id, label_for(s.id, page_language())) for s in STEPS],
            "chosen": chosen,
            "sorts": [
                ("student", _("student")),
                ("progress", _("most done")),
                ("stuck", _("most turns on the current step")),
                ("reliance", _("most coach reliance")),
            ],
            "opts": self.model._meta,
            "now": timezone.now(),
        }
        return TemplateResponse(request, "admin/classroom/grid.html", context)

    def grid_csv_view(self, request: HttpRequest, assignment_id: int) -> HttpResponse:
        assignment = self._assignment(request, assignment_id)
        rows, _chosen = self._rows(request, assignment)
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = (
            f'attachment; filename="grid-assignment-{assignment.pk}.csv"'
        )
        writer = csv.writer(response)
        writer.writerow(
            ["student", "current_step", "complete", "turns", "turns_on_step", "overdue"]
            + ["coach_reliance"]
            + [f"{s.field}_{part}" for s in STEPS for part in ("state", "provenance")]
            + (["trial"] if assignment.asks_trial else [])
            + (["stress_test"] if assignment.asks_stress_test else [])
        )
        asked_columns = int(assignment.asks_trial) + int(assignment.asks_stress_test)
        for row in rows:
            writer.writerow(
                _spreadsheet_safe(value)
                for value in [
                    row.student.get_username(),
                    row.current_step,
                    row.complete,
                    row.turns,
                    row.turns_on_step,
                    row.overdue,
                    f"{row.reliance:.2f}",
                    *(v for cell in row.cells for v in (cell.state, cell.provenance)),
                    *([item.state for item in row.asked] or [""] * asked_columns),
                ]
            )
        return response

    def analytics_view(self, request: HttpRequest, assignment_id: int) -> HttpResponse:
        assignment = self._assignment(request, assignment_id)
        return _analytics_response(
            request,
            admin_site=self.admin_site,
            opts=self.model._meta,
            title=_("Analytics: %(title)s") % {"title": assignment.title},
            classroom=assignment.classroom,
            assignment=assignment,
            summary=assignment_summary(assignment),
        )

    def work_view(self, request: HttpRequest, assignment_id: int, submission_id: int) -> Any:
        assignment = self._assignment(request, assignment_id)
        submission = get_object_or_404(
            Submission.objects.select_related("argument", "student"),
            pk=submission_id,
            assignment=assignment,
        )
        context = {
            **self.admin_site.each_context(request),
            **work_context(submission),
            "title": str(submission),
            "assignment": assignment,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/classroom/work.html", context)


def _analytics_response(
    request: HttpRequest,
    *,
    admin_site: Any,
    opts: Any,
    title: str,
    classroom: Classroom,
    assignment: Assignment | None,
    summary: Any,
) -> HttpResponse:
    context = {
        **admin_site.each_context(request),
        "title": title,
        "classroom": classroom,
        "assignment": assignment,
        "assignments": classroom.assignments.order_by("created_at", "id"),
        "summary": summary,
        "figures": figures(summary),
        "opts": opts,
    }
    return TemplateResponse(request, "admin/classroom/analytics.html", context)


def _spreadsheet_safe(value: Any) -> Any:
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


@admin.register(Submission)
class SubmissionAdmin(NotYoursIs404, ViewOnlyMixin, admin.ModelAdmin):
    list_display = ("student", "assignment", "started_at", "work_link")
    list_filter = ("assignment",)
    search_fields = ("student__username", "assignment__title")

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return (
            super()
            .get_queryset(request)
            .filter(assignment__classroom__in=Classroom.objects.taught_by(request.user))
            .select_related("student", "assignment")
        )

    @admin.display(description=_("argument"))
    def work_link(self, submission: Submission) -> str:
        return format_html(
            '<a href="{}">{}</a>',
            reverse(
                "admin:classroom_assignment_work", args=[submission.assignment_id, submission.pk]
            ),
            _("read as the student sees it"),
        )
