"""An argument assembled: its Toulmin diagram (a printable page) and its exports.

Thin, like the other coach views: find the student's own argument (another
student's is a 404, like a missing one), turn it into a `coach.exports`
document, render or serve it. The exporters themselves are pure functions.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.views.decorators.http import require_GET

from coach.exports import EXPORT_FORMATS, ToulminExport, export
from coach.models import Argument
from coach.selectors import get_argument_for_user
from coach.steps import STEPS

__all__ = ["argument_export", "argument_toulmin", "toulmin_document"]


def toulmin_document(argument: Argument) -> ToulminExport:
    """The draft as an export document (what every format is written from)."""
    return ToulminExport(
        title=argument.title,
        language=argument.language,
        complete=argument.is_complete,
        **{step.field: getattr(argument, step.field) for step in STEPS},
    )


@login_required
@require_GET
def argument_toulmin(request: HttpRequest, argument_id: int) -> HttpResponse:
    argument = get_argument_for_user(request.user, argument_id)
    # The page speaks the reader's language; the diagram is the argument itself, so it
    # reads in the argument's language (the template's {% language %} block).
    elements = {
        step.field: {
            "label": argument.step_label(step.id),
            "text": getattr(argument, step.field),
        }
        for step in STEPS
    }
    context = {
        "argument": argument,
        "elements": elements,
        "formats": [(fmt, extension) for fmt, (extension, _) in EXPORT_FORMATS.items()],
    }
    return render(request, "coach/argument_toulmin.html", context)


@login_required
@require_GET
def argument_export(request: HttpRequest, argument_id: int, fmt: str) -> HttpResponse:
    if fmt not in EXPORT_FORMATS:
        raise Http404("no such export format")
    argument = get_argument_for_user(request.user, argument_id)
    extension, content_type = EXPORT_FORMATS[fmt]
    body = export(
        toulmin_document(argument),
        fmt,
        timestamp=argument.updated_at.strftime("%Y-%m-%d %H:%M:%S"),
    )
    response = HttpResponse(body, content_type=content_type)
    filename = f"{slugify(argument.title) or 'argument'}.{extension}"
    response["Content-Disposition"] = content_disposition_header(True, filename)
    response["X-Content-Type-Options"] = "nosniff"
    return response
