"""Bring an argument built with the coach into a discussion: pick one of yours, say which side.

Only members of the class and its instructors reach the page (the same 404 as
for a missing discussion); only the author's own coach arguments are offered,
and only those can be posted (``coach_arguments.bring_argument``).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from discussions.coach_arguments import bring_argument, coach_arguments_of
from discussions.models import Discussion, Side
from discussions.services import PostRefused, discussions_for

__all__ = ["BringForm", "bring_from_coach"]


class BringForm(forms.Form):
    argument = forms.ModelChoiceField(
        label=gettext_lazy("Your argument"), queryset=None, empty_label=None
    )
    side = forms.ChoiceField(
        label=gettext_lazy("It is"), choices=Side.choices, widget=forms.RadioSelect
    )

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["argument"].queryset = coach_arguments_of(user)
        self.fields["argument"].label_from_instance = lambda argument: argument.title


@login_required
def bring_from_coach(request: HttpRequest, discussion_id: int) -> HttpResponse:
    discussion: Discussion = get_object_or_404(
        discussions_for(request.user).select_related("classroom"), pk=discussion_id
    )
    if request.method not in ("GET", "POST"):
        return HttpResponse(status=405)
    form = BringForm(request.POST or None, user=request.user)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                post = bring_argument(
                    discussion=discussion,
                    author=request.user,
                    argument=form.cleaned_data["argument"],
                    side=form.cleaned_data["side"],
                )
            except PostRefused as refused:
                form.add_error(None, str(refused))
            else:
                messages.success(request, _("Your argument is posted."))
                detail = reverse("discussions:detail", args=[discussion.pk])
                return redirect(f"{detail}#post-{post.pk}")
        status = 400
    context = {
        "discussion": discussion,
        "form": form,
        "has_arguments": form.fields["argument"].queryset.exists(),
        "is_open": discussion.is_open(),
    }
    return render(request, "discussions/bring.html", context, status=status)
