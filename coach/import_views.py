"""A new argument from a file: Argdown or AIF made elsewhere, or this site's own export.

Thin: the form reads and checks the file (coach.forms.ImportForm, which calls the
pure coach.imports), one service makes the draft (coach.services.import_argument),
and the student lands on the coaching page of their new argument. A file that
cannot become an argument is refused on the form with a sentence saying why.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from coach.forms import ImportForm
from coach.services import import_argument

__all__ = ["argument_import"]


@login_required
@require_http_methods(["GET", "POST"])
def argument_import(request: HttpRequest) -> HttpResponse:
    form = ImportForm(
        request.POST or None,
        request.FILES or None,
        initial={"language": request.LANGUAGE_CODE},
    )
    if request.method == "POST" and form.is_valid():
        argument = import_argument(owner=request.user, document=form.cleaned_data["document"])
        return redirect("coach:argument_detail", argument_id=argument.pk)
    return render(request, "coach/argument_import.html", {"form": form})
