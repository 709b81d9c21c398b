"""The instructors' classroom in the admin: classes, assignments, the grid, students' work.

An instructor (staff in the "Instructors" group, classroom.services) sees
only the classes they teach: every queryset here is narrowed by
`Classroom.objects.taught_by`, so another instructor's class, assignment or
student is a 404 on the change pages and on every custom view alike.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db.models import Count, Q, QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from classroom.admin_scoping import ClassScopedAdmin, NotYoursIs404, students_of_the_page_object
from classroom.analytics_data import assignment_summary, classroom_summary
from classroom.analytics_page import figures
from classroom.criteria import CRITERIA, parse_required
from classroom.forms import AddStudentsForm
from classroom.grid_admin import ProgressGridAdmin, admin_links
from classroom.models import (
    Assignment,
    AssignmentExtension,
    AssignmentKind,
    Classroom,
    Membership,
    Submission,
)
from classroom.presenters import page_language
from classroom.progress import SORTS, filter_rows, grid_rows, sort_rows
from classroom.services import INSTRUCTOR_GROUP, add_students
from classroom.work import work_context
from coach.steps import STEPS, label_for
from config.admin_tools import ViewOnlyMixin
from config.languages import language_choices
from llm import api_key_configured
from untrusted import parse_int
from untrusted.spreadsheet import safe_writer

# Feedback, rubrics and release hang off Submission: add their
# inlines to SubmissionAdmin and their links to the grid's cells here.


class MembershipInline(admin.TabularInline):
    """The class's students, to read and remove. Students join with the code or are
    added by username on "Add students": no id box that would take any account."""

    model = Membership
    extra = 0
    fields = ("student", "joined_at")
    readonly_fields = ("student", "joined_at")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Classroom)
class ClassroomAdmin(NotYoursIs404, admin.ModelAdmin):
    list_display = ("name", "join_code", "student_count", "assignment_count", "analytics_link")
    list_display += ("created_at",)
    search_fields = ("name", "join_code")
    readonly_fields = ("join_code", "created_at", "add_students_link", "analytics_link")
    inlines = (MembershipInline,)
    # Two lists with a filter box, moved between by keyboard (Enter, arrows), instead
    # of a Ctrl-click list of every account.
    filter_horizontal = ("instructors",)

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
        # A new class shows no code: the one a blank form would show is not the one
        # saved (each new row draws its own), and a teacher would copy the wrong one.
        fields = ["name"] if obj is None else ["name", "join_code"]
        fields += ["add_students_link", "analytics_link", "created_at"] if obj else []
        if request.user.is_superuser:
            fields.insert(1, "instructors")
        return fields

    def formfield_for_manytomany(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "instructors":
            # Instructors only (and whoever is filling the form): never a student.
            kwargs["queryset"] = (
                get_user_model()
                .objects.filter(Q(groups__name=INSTRUCTOR_GROUP) | Q(pk=request.user.pk))
                .distinct()
                .order_by("username")
            )
            kwargs["help_text"] = _(
                "Type in a filter box to find an instructor; double-click or Enter moves them "
                "to the other list."
            )
        return super().formfield_for_manytomany(db_field, request, **kwargs)

    def get_form(self, request: HttpRequest, obj: Any = None, **kwargs: Any) -> Any:
        form = super().get_form(request, obj, **kwargs)
        teacher = request.user

        class OneNamePerInstructor(form):
            """Two of one instructor's classes by the same name cannot be told apart in
            the lists, the grid or a student's dashboard: refused, with the reason."""

            def clean_name(self) -> str:
                name = self.cleaned_data["name"]
                others = Classroom.objects.filter(instructors=teacher, name__iexact=name.strip())
                if self.instance.pk is not None:
                    others = others.exclude(pk=self.instance.pk)
                if others.exists():
                    raise ValidationError(
                        _(
                            "You already teach a class named %(name)s. Give this one a name "
                            "you can tell apart, e.g. with the year or the group."
                        )
                        % {"name": name}
                    )
                return name

        return OneNamePerInstructor

    def get_changeform_initial_data(self, request: HttpRequest) -> dict[str, Any]:
        # Whoever creates a class teaches it: chosen already.
        return {**super().get_changeform_initial_data(request), "instructors": [request.user.pk]}

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
        return admin_links(
            (
                "admin:classroom_classroom_add_students",
                (classroom.pk,),
                _("Add students by username or e-mail (one per line, or a CSV column)"),
            )
        )

    @admin.display(description=_("analytics"))
    def analytics_link(self, classroom: Classroom) -> str:
        if classroom.pk is None:
            return "—"
        return admin_links(
            ("admin:classroom_classroom_analytics", (classroom.pk,), _("class analytics"))
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


NO_AI_TRIAL = _(
    "Not available on this site yet: trials need the AI service, which is not set up "
    "(no ANTHROPIC_API_KEY). Ask for a stress test instead: without the AI service, "
    "students answer the critical questions of their warrant's kind of argument."
)
NO_AI_STRESS_TEST = _(
    "Without the AI service (no ANTHROPIC_API_KEY on this site), students stress-test "
    "their argument with the critical questions of its warrant's kind of argument, "
    "checked by simple rules; AI personas attack it once the service is set up."
)


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
        # The content's language named in the reader's ("inglés" on a Spanish page).
        self.fields["language"].choices = language_choices()
        # Django's split date and time boxes have no label of their own: name each.
        # (A class discussion's assignment shows neither: they are the discussion's.)
        due = self.fields["due_at"].widget if "due_at" in self.fields else None
        if isinstance(due, forms.MultiWidget):
            due.widgets[0].attrs["aria-label"] = _("Due date: the day")
            due.widgets[1].attrs["aria-label"] = _("Due date: the time")
        if not api_key_configured() and "asks_trial" in self.fields:
            # Say on the form what this site cannot run, before anyone asks it of a student.
            self.fields["asks_trial"].help_text = NO_AI_TRIAL
            self.fields["asks_stress_test"].help_text = NO_AI_STRESS_TEST

    def clean_asks_trial(self) -> bool:
        asks = self.cleaned_data.get("asks_trial", False)
        # Refused only when newly ticked: an older assignment stays editable.
        if asks and "asks_trial" in self.changed_data and not api_key_configured():
            raise forms.ValidationError(NO_AI_TRIAL, code="no_ai_service")
        return asks

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

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "student":
            # The assignment's own students only (none before the assignment is saved);
            # the assignment itself is one the user teaches (NotYoursIs404).
            kwargs["queryset"] = students_of_the_page_object(request, through="assignments")
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


class LanguageFilter(admin.SimpleListFilter):
    """The assignment's language, named in the reader's ("inglés" on a Spanish page)."""

    title = _("language")
    parameter_name = "language"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return language_choices()

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        return queryset.filter(language=self.value()) if self.value() else queryset


@admin.register(Assignment)
class AssignmentAdmin(ProgressGridAdmin, ClassScopedAdmin, admin.ModelAdmin):
    form = AssignmentForm
    list_display = ("title", "classroom", "kind", "due_at", "coach_policy", "turn_quota")
    list_display += ("grid_link",)
    # Related filters list only what the user's own rows point at (scoped by get_queryset).
    list_filter = (("classroom", admin.RelatedOnlyFieldListFilter), "kind", "coach_policy")
    list_filter += (LanguageFilter,)
    search_fields = ("title", "prompt", "classroom__name")
    inlines = (ExtensionInline,)
    scoped_related = ("classroom",)
    grid_template = "admin/classroom/grid.html"
    work_template = "admin/classroom/work.html"
    work_item = "submission_id"
    wide_work_page = False

    def get_changeform_initial_data(self, request: HttpRequest) -> dict[str, Any]:
        # A new assignment is in the teacher's language, for their class if they have one.
        initial = {"language": page_language(), **super().get_changeform_initial_data(request)}
        taught = list(Classroom.objects.taught_by(request.user).values_list("pk", flat=True)[:2])
        if len(taught) == 1:
            initial.setdefault("classroom", taught[0])
        return initial

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        if _is_discussion(obj):
            return [(None, {"fields": (*DISCUSSION_MIRRORED, "language", "discussion_link")})]
        return [
            (None, {"fields": ("classroom", "title", "prompt", "due_at", "language")}),
            (_("The coach"), {"fields": ("coach_policy", "turn_quota", "criteria")}),
            (_("Also asked"), {"fields": ("asks_trial", "asks_stress_test")}),
        ]

    def save_model(self, request: HttpRequest, obj: Assignment, form: Any, change: bool) -> None:
        if not change:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        # A discussion's title, thesis and closing time are edited on the discussion.
        return (*DISCUSSION_MIRRORED, "discussion_link") if _is_discussion(obj) else ()

    def get_inlines(self, request: HttpRequest, obj: Any = None) -> Any:
        return () if _is_discussion(obj) else self.inlines

    @admin.display(description=_("class discussion"))
    def discussion_link(self, assignment: Assignment) -> str:
        discussion = getattr(assignment, "discussion", None)
        if discussion is None:
            return "—"
        return admin_links(
            (
                "admin:discussions_discussion_change",
                (discussion.pk,),
                _("edit the discussion (its title, thesis and closing time are this assignment's)"),
            )
        )

    @admin.display(description=_("progress"))
    def grid_link(self, assignment: Assignment) -> str:
        grid = ("admin:classroom_assignment_grid", (assignment.pk,), _("progress grid"))
        if _is_discussion(assignment):
            return admin_links(grid)
        analytics = ("admin:classroom_assignment_analytics", (assignment.pk,), _("analytics"))
        return admin_links(grid, analytics)

    def get_urls(self) -> list[Any]:
        # The grid, its CSV and a student's work: ProgressGridAdmin.
        return [
            path(
                "<int:assignment_id>/analytics/",
                self.admin_site.admin_view(self.analytics_view),
                name="classroom_assignment_analytics",
            ),
            *super().get_urls(),
        ]

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

    def grid_elsewhere(
        self, request: HttpRequest, assignment: Assignment, view: str, item_id: int | None = None
    ) -> HttpResponse | None:
        """A discussion's grid, CSV and work view are the discussion's own (discussions.admin)."""
        if not _is_discussion(assignment):
            return None
        discussion = getattr(assignment, "discussion", None)
        if discussion is None:
            raise Http404
        if view != "work":
            return redirect(f"admin:discussions_discussion_{view}", discussion.pk)
        submission = self._submission(assignment, item_id)
        return redirect("admin:discussions_discussion_work", discussion.pk, submission.student_id)

    def grid_page(self, request: HttpRequest, assignment: Assignment) -> dict[str, Any]:
        rows, chosen = self._rows(request, assignment)
        return {
            "title": _("Progress: %(title)s") % {"title": assignment.title},
            "assignment": assignment,
            "rows": rows,
            "steps": [(s.id, label_for(s.id, page_language())) for s in STEPS],
            "chosen": chosen,
            "sort": chosen["sort"],
            "sorts": [
                ("student", _("student")),
                ("progress", _("most done")),
                ("stuck", _("most turns on the current step")),
                ("reliance", _("most coach reliance")),
            ],
            "now": timezone.now(),
        }

    def write_grid_csv(self, request: HttpRequest, assignment: Assignment, out: Any) -> None:
        rows, _chosen = self._rows(request, assignment)
        writer = safe_writer(out)
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
                [
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

    def analytics_view(self, request: HttpRequest, assignment_id: int) -> HttpResponse:
        assignment = self.grid_object(request, assignment_id)
        if (elsewhere := self.grid_elsewhere(request, assignment, "grid")) is not None:
            return elsewhere
        return _analytics_response(
            request,
            admin_site=self.admin_site,
            opts=self.model._meta,
            title=_("Analytics: %(title)s") % {"title": assignment.title},
            classroom=assignment.classroom,
            assignment=assignment,
            summary=assignment_summary(assignment),
        )

    @staticmethod
    def _submission(assignment: Assignment, submission_id: int | None) -> Submission:
        return get_object_or_404(
            Submission.objects.select_related("argument", "student"),
            pk=submission_id,
            assignment=assignment,
        )

    def work_page(
        self, request: HttpRequest, assignment: Assignment, submission_id: int
    ) -> dict[str, Any]:
        submission = self._submission(assignment, submission_id)
        return {
            **work_context(submission),
            "title": str(submission),
            "assignment": assignment,
        }


DISCUSSION_MIRRORED = ("classroom", "title", "prompt", "due_at")


def _is_discussion(assignment: Assignment | None) -> bool:
    return assignment is not None and assignment.kind == AssignmentKind.DISCUSSION


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
        # The coach's measures are of arguments: a class discussion's are on its own grid.
        "assignments": classroom.assignments.filter(kind=AssignmentKind.ARGUMENT).order_by(
            "created_at", "id"
        ),
        "summary": summary,
        "figures": figures(summary),
        "opts": opts,
    }
    return TemplateResponse(request, "admin/classroom/analytics.html", context)


@admin.register(Submission)
class SubmissionAdmin(ClassScopedAdmin, ViewOnlyMixin, admin.ModelAdmin):
    list_display = ("student", "assignment", "started_at", "work_link")
    # Only the assignments of the classes the user teaches (get_queryset), never every title.
    list_filter = (("assignment", admin.RelatedOnlyFieldListFilter),)
    search_fields = ("student__username", "assignment__title")
    class_path = "assignment__classroom"
    scoped_related = ("student", "assignment")

    @admin.display(description=_("argument"))
    def work_link(self, submission: Submission) -> str:
        return admin_links(
            (
                "admin:classroom_assignment_work",
                (submission.assignment_id, submission.pk),
                _("read as the student sees it"),
            )
        )
