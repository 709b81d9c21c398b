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
from django.utils.translation import gettext, gettext_noop, override
from django.views.decorators.http import require_GET

from coach.exports import EXPORT_FORMATS, ToulminExport, export
from coach.models import Argument
from coach.selectors import get_argument_for_user
from coach.steps import STEPS, label_for, reader_language

__all__ = [
    "CONNECTORS",
    "argument_export",
    "argument_toulmin",
    "diagram_connector",
    "toulmin_document",
]

#: The word that joins a box to the one it hangs on, as Toulmin reads the diagram.
CONNECTORS = {
    "grounds_backing": gettext_noop("which rests on"),
    "qualifier": gettext_noop("so,"),
    "warrant": gettext_noop("since"),
    "warrant_backing": gettext_noop("on account of"),
    "rebuttal": gettext_noop("unless"),
}


def _opens_with(text: str, word: str) -> bool:
    word = word.strip(" ,").casefold()
    head = " ".join(text.split()).casefold()
    return (
        bool(word) and head.startswith(word) and head[len(word) : len(word) + 1] in ("", " ", ",")
    )


def diagram_connector(field: str, text: str, *, language: str) -> str:
    """The box's connector in the reader's language, or "" when the student's words
    already open with it (in the argument's language or the reader's): "unless" is said
    once, not "unless / Unless buses…"."""
    connector = CONNECTORS.get(field)
    if connector is None:
        return ""
    with override(language):
        in_argument = gettext(connector)
    shown = gettext(connector)
    if _opens_with(text, in_argument) or _opens_with(text, shown):
        return ""
    return shown


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
    # The boxes' names and connectors are the page's words, in the reader's language;
    # the student's words keep the argument's (their lang attribute).
    reader = reader_language()
    elements = {
        step.field: {
            "label": label_for(step.id, reader),
            "text": getattr(argument, step.field),
            "connector": diagram_connector(
                step.field, getattr(argument, step.field), language=argument.language
            ),
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
