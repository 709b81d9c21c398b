"""The instructor's feedback pages in the admin: comment, score, release, grades CSV.

The views hang off `RubricAdmin.get_urls`, each wrapped by `admin_view`
(staff only), and every object is looked up through the classes the user
teaches (`Classroom.objects.taught_by`): another instructor's submission or
assignment is a 404. Writes go through `feedback.services`.

Stable URL names for links from elsewhere (the progress grid):
`admin:feedback_submission_feedback` (submission id) and
`admin:feedback_assignment_feedback` / `admin:feedback_assignment_grades_csv`
(assignment id).
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST
from pydantic import ValidationError as PydanticError

from classroom.models import Assignment, Classroom, Submission
from feedback.forms import CommentForm
from feedback.levels import levels_as_text, levels_from_text
from feedback.models import Criterion, Release, Rubric
from feedback.presenters import elements, rubric_rows
from feedback.services import (
    PASSBACK_FAILED,
    PASSBACK_FAILED_MESSAGE,
    FeedbackRefused,
    add_comment,
    default_rubric,
    grades_csv,
    release,
    release_all,
    set_score,
    total_for,
    unrelease,
)
from untrusted import parse_int


class LevelsField(forms.CharField):
    """A criterion's levels as lines of "label = points" rather than raw JSON."""

    widget = forms.Textarea(attrs={"rows": 4, "cols": 24})

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, str):
            try:
                value = json.loads(value)
            except ValueError:
                return value  # what the instructor typed, shown back with its error
        try:
            return levels_as_text(value)
        except PydanticError:
            return ""

    def to_python(self, value: Any) -> Any:
        text = super().to_python(value)
        try:
            return levels_from_text(text)
        except ValueError as error:  # pydantic's ValidationError is a ValueError too
            raise forms.ValidationError(
                gettext_lazy(
                    'Write one level per line as "label = points", for example "Strong = 3" '
                    "(1 to 10 levels, whole points from 0 to 1000)."
                ),
                code="levels",
            ) from error


class CriterionForm(forms.ModelForm):
    levels = LevelsField(
        label=gettext_lazy("levels"),
        help_text=gettext_lazy('One per line: "label = points", lowest first.'),
    )

    class Meta:
        model = Criterion
        fields = ("order", "name", "levels")


class CriterionInline(admin.TabularInline):
    model = Criterion
    form = CriterionForm
    extra = 0
    fields = ("order", "name", "levels")


@admin.register(Rubric)
class RubricAdmin(admin.ModelAdmin):
    list_display = ("assignment",)
    inlines = (CriterionInline,)

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        taught = Classroom.objects.taught_by(request.user)
        return super().get_queryset(request).filter(assignment__classroom__in=taught)

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "assignment":
            taught = Classroom.objects.taught_by(request.user)
            kwargs["queryset"] = Assignment.objects.filter(classroom__in=taught)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def get_urls(self) -> list[Any]:
        view = self.admin_site.admin_view
        return [
            path(
                "submission/<int:submission_id>/",
                view(self.submission_view),
                name="feedback_submission_feedback",
            ),
            path(
                "submission/<int:submission_id>/comment/",
                view(require_POST(self.comment_view)),
                name="feedback_submission_comment",
            ),
            path(
                "submission/<int:submission_id>/scores/",
                view(require_POST(self.scores_view)),
                name="feedback_submission_scores",
            ),
            path(
                "submission/<int:submission_id>/release/",
                view(require_POST(self.release_view)),
                name="feedback_submission_release",
            ),
            path(
                "submission/<int:submission_id>/unrelease/",
                view(require_POST(self.unrelease_view)),
                name="feedback_submission_unrelease",
            ),
            path(
                "assignment/<int:assignment_id>/",
                view(self.assignment_view),
                name="feedback_assignment_feedback",
            ),
            path(
                "assignment/<int:assignment_id>/release-all/",
                view(require_POST(self.release_all_view)),
                name="feedback_assignment_release_all",
            ),
            path(
                "assignment/<int:assignment_id>/grades.csv",
                view(self.grades_csv_view),
                name="feedback_assignment_grades_csv",
            ),
            *super().get_urls(),
        ]

    # Access: only the classes this user teaches; anything else is a 404.

    def _get_submission_for_instructor(self, request: HttpRequest, pk: int) -> Submission:
        taught = Classroom.objects.taught_by(request.user)
        return get_object_or_404(
            Submission.objects.filter(assignment__classroom__in=taught).select_related(
                "assignment__classroom", "student", "argument"
            ),
            pk=pk,
        )

    def _get_assignment_for_instructor(self, request: HttpRequest, pk: int) -> Assignment:
        taught = Classroom.objects.taught_by(request.user)
        return get_object_or_404(
            Assignment.objects.filter(classroom__in=taught).select_related("classroom"), pk=pk
        )

    def _context(self, request: HttpRequest, title: str) -> dict[str, Any]:
        return {**self.admin_site.each_context(request), "title": title, "opts": self.model._meta}

    def submission_view(self, request: HttpRequest, submission_id: int) -> HttpResponse:
        submission = self._get_submission_for_instructor(request, submission_id)
        return self._render_submission(request, submission, CommentForm(submission=submission))

    def _render_submission(
        self, request: HttpRequest, submission: Submission, form: CommentForm, status: int = 200
    ) -> HttpResponse:
        context = {
            **self._context(request, _("Feedback: %(work)s") % {"work": submission}),
            "submission": submission,
            "assignment": submission.assignment,
            "elements": elements(submission),
            "rows": rubric_rows(submission),
            "total": total_for(submission=submission),
            "released": Release.objects.filter(submission=submission).first(),
            "form": form,
        }
        return TemplateResponse(request, "admin/feedback/submission.html", context, status=status)

    def comment_view(self, request: HttpRequest, submission_id: int) -> HttpResponse:
        submission = self._get_submission_for_instructor(request, submission_id)
        form = CommentForm(request.POST, submission=submission)
        if not form.is_valid():
            return self._render_submission(request, submission, form, status=400)
        try:
            add_comment(
                author=request.user,
                submission=submission,
                element=form.cleaned_data["element"],
                text=form.cleaned_data["text"],
                message_id=form.cleaned_data["message"],
            )
        except FeedbackRefused as refusal:
            messages.error(request, str(refusal))
        else:
            messages.success(request, _("Comment added."))
        return redirect("admin:feedback_submission_feedback", submission.pk)

    def scores_view(self, request: HttpRequest, submission_id: int) -> HttpResponse:
        submission = self._get_submission_for_instructor(request, submission_id)
        rubric = default_rubric(assignment=submission.assignment)
        problems = 0
        for criterion in rubric.criteria.all():
            raw = request.POST.get(f"criterion-{criterion.pk}", "")
            if raw == "":
                continue
            level = parse_int(raw, maximum=100)
            try:
                if level is None:
                    raise FeedbackRefused(_("Choose one of the criterion's levels."))
                set_score(
                    author=request.user, submission=submission, criterion=criterion, level=level
                )
            except FeedbackRefused:
                problems += 1
        if problems:
            messages.error(
                request, _("Some scores were not saved: choose one level per criterion.")
            )
        else:
            messages.success(request, _("Scores saved."))
        return redirect("admin:feedback_submission_feedback", submission.pk)

    def release_view(self, request: HttpRequest, submission_id: int) -> HttpResponse:
        submission = self._get_submission_for_instructor(request, submission_id)
        row = release(author=request.user, submission=submission)
        messages.success(request, _("Released: the student now sees the comments and scores."))
        if row.passback == PASSBACK_FAILED:
            messages.warning(request, PASSBACK_FAILED_MESSAGE)
        return redirect("admin:feedback_submission_feedback", submission.pk)

    def unrelease_view(self, request: HttpRequest, submission_id: int) -> HttpResponse:
        submission = self._get_submission_for_instructor(request, submission_id)
        unrelease(author=request.user, submission=submission)
        messages.success(request, _("Hidden again: the student no longer sees the feedback."))
        return redirect("admin:feedback_submission_feedback", submission.pk)

    def assignment_view(self, request: HttpRequest, assignment_id: int) -> HttpResponse:
        assignment = self._get_assignment_for_instructor(request, assignment_id)
        submissions = assignment.submissions.select_related("student", "release").order_by(
            "student__username"
        )
        rows = [(s, total_for(submission=s), hasattr(s, "release")) for s in submissions]
        context = {
            **self._context(request, _("Feedback and grades: %(title)s") % {"title": assignment}),
            "assignment": assignment,
            "rows": rows,
        }
        return TemplateResponse(request, "admin/feedback/assignment.html", context)

    def release_all_view(self, request: HttpRequest, assignment_id: int) -> HttpResponse:
        assignment = self._get_assignment_for_instructor(request, assignment_id)
        count = release_all(author=request.user, assignment=assignment)
        failed = Release.objects.filter(submission__assignment=assignment, passback=PASSBACK_FAILED)
        released = ngettext(
            "Released for %(count)d student.", "Released for %(count)d students.", count
        )
        messages.success(request, released % {"count": count})
        if failed.exists():
            messages.warning(request, PASSBACK_FAILED_MESSAGE)
        return redirect("admin:feedback_assignment_feedback", assignment.pk)

    def grades_csv_view(self, request: HttpRequest, assignment_id: int) -> HttpResponse:
        assignment = self._get_assignment_for_instructor(request, assignment_id)
        response = HttpResponse(
            grades_csv(assignment=assignment), content_type="text/csv; charset=utf-8"
        )
        response["Content-Disposition"] = (
            f'attachment; filename="grades-assignment-{assignment.pk}.csv"'
        )
        return response
