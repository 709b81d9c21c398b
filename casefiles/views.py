"""The case file pages: my case files, a new one, its sources, a source's spans, search.

The owner may also change, on a source's page, which source it reports from.

A private case file is its owner's alone; a public one can be read (not
changed) by anyone signed in. Anything else is a 404, like a missing one.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from casefiles import services
from casefiles.forms import (
    CaseFileForm,
    OriginForm,
    PastedSourceForm,
    SearchForm,
    UploadedSourceForm,
)
from casefiles.models import CaseFile, Source
from casefiles.presenters import highlight_hits
from casefiles.retrieval import retrieve_spans
from limits.services import LimitReached, admit

__all__ = [
    "case_file_detail",
    "case_file_list",
    "case_file_new",
    "case_file_search",
    "source_add",
    "source_detail",
    "source_origin",
    "source_upload",
]

SEARCH_RESULTS = 10
# A source's page shows this many spans at a time (a span is at most 700 characters).
SPANS_PER_PAGE = 200


def _get_case_file_for_user(request: HttpRequest, pk: int, *, write: bool = False) -> CaseFile:
    case_files = CaseFile.objects.for_user(request.user)
    if write:
        case_files = case_files.filter(owner=request.user)
    return get_object_or_404(case_files, pk=pk)


@login_required
@require_GET
def case_file_list(request: HttpRequest) -> HttpResponse:
    case_files = CaseFile.objects.for_user(request.user).select_related("owner")
    return render(request, "casefiles/list.html", {"case_files": case_files[:200]})


@login_required
@require_http_methods(["GET", "POST"])
def case_file_new(request: HttpRequest) -> HttpResponse:
    form = CaseFileForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        case_file = services.create_case_file(owner=request.user, **form.cleaned_data)
        return redirect(case_file)
    return render(request, "casefiles/new.html", {"form": form})


def _detail_context(request: HttpRequest, case_file: CaseFile, **forms) -> dict:
    sources = list(case_file.sources.select_related("upstream_origin"))
    return {
        "case_file": case_file,
        "sources": sources,
        "can_edit": case_file.owner_id == request.user.pk,
        "paste_form": forms.get("paste_form") or PastedSourceForm(sources=sources),
        "upload_form": forms.get("upload_form") or UploadedSourceForm(sources=sources),
        "search_form": SearchForm(),
        "max_upload_mb": settings.CASEFILE_MAX_UPLOAD_BYTES // (1024 * 1024),
    }


@login_required
@require_GET
def case_file_detail(request: HttpRequest, pk: int) -> HttpResponse:
    case_file = _get_case_file_for_user(request, pk)
    return render(request, "casefiles/detail.html", _detail_context(request, case_file))


def _provenance(data: dict) -> dict:
    return {
        "title": data.get("title") or "",
        "author": data.get("author") or "",
        "published": data.get("published") or "",
        "citation": data.get("citation") or "",
        "upstream_origin_id": data.get("upstream_origin"),
    }


@login_required
@require_POST
def source_add(request: HttpRequest, pk: int) -> HttpResponse:
    case_file = _get_case_file_for_user(request, pk, write=True)
    form = PastedSourceForm(request.POST, sources=case_file.sources.all())
    if form.is_valid():
        try:
            admit(user=request.user, action="source")
            source = services.add_source(
                case_file=case_file,
                text=form.cleaned_data["text"],
                **_provenance(form.cleaned_data),
            )
        except (LimitReached, services.SourceRefused) as refused:
            form.add_error(None, refused.message)
        else:
            messages.success(request, _("Source added: %(n)s spans.") % {"n": source.spans.count()})
            return redirect(case_file)
    context = _detail_context(request, case_file, paste_form=form)
    return render(request, "casefiles/detail.html", context, status=400)


@login_required
@require_POST
def source_upload(request: HttpRequest, pk: int) -> HttpResponse:
    case_file = _get_case_file_for_user(request, pk, write=True)
    limit = settings.CASEFILE_MAX_UPLOAD_BYTES
    declared = request.META.get("CONTENT_LENGTH") or "0"
    too_big = declared.isdigit() and int(declared) > limit + 64 * 1024
    # A body far over the limit is refused before Django reads the file.
    form = UploadedSourceForm(
        {} if too_big else request.POST,
        {} if too_big else request.FILES,
        sources=case_file.sources.all(),
    )
    if too_big:
        form.is_valid()
        form.errors.clear()
        form.add_error(
            None,
            _("This file is larger than %(mb)s MB. Upload a smaller file or paste the text.")
            % {"mb": limit // (1024 * 1024)},
        )
    elif form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            admit(user=request.user, action="source")  # every attempt counts, read or refused
            data = upload.read(limit + 1)
            source = services.add_uploaded_source(
                case_file=case_file,
                filename=upload.name,
                data=data,
                **_provenance(form.cleaned_data),
            )
        except (LimitReached, services.SourceRefused) as refused:
            form.add_error(None, refused.message)
        else:
            messages.success(request, _("Source added: %(n)s spans.") % {"n": source.spans.count()})
            return redirect(case_file)
    context = _detail_context(request, case_file, upload_form=form)
    return render(request, "casefiles/detail.html", context, status=400)


def _get_source_for_user(
    request: HttpRequest, pk: int, source_pk: int, *, write: bool = False
) -> Source:
    case_file = _get_case_file_for_user(request, pk, write=write)
    return get_object_or_404(
        Source.objects.select_related("case_file", "upstream_origin"),
        pk=source_pk,
        case_file=case_file,
    )


def _source_page(
    request: HttpRequest, source: Source, origin_form: OriginForm | None = None, status: int = 200
) -> HttpResponse:
    can_edit = source.case_file.owner_id == request.user.pk
    paginator = Paginator(source.spans.order_by("ordinal"), SPANS_PER_PAGE)
    wanted = request.GET.get("span", "")
    if wanted.isdigit() and len(wanted) < 10:  # a link to one span opens its page
        number = (int(wanted) - 1) // SPANS_PER_PAGE + 1
    else:
        number = request.GET.get("page")
    page = paginator.get_page(number)
    context = {
        "case_file": source.case_file,
        "source": source,
        "page": page,
        "spans": page.object_list,
        "origin_form": (origin_form or OriginForm(source=source)) if can_edit else None,
    }
    return render(request, "casefiles/source.html", context, status=status)


@login_required
@require_GET
def source_detail(request: HttpRequest, pk: int, source_pk: int) -> HttpResponse:
    return _source_page(request, _get_source_for_user(request, pk, source_pk))


@login_required
@require_POST
def source_origin(request: HttpRequest, pk: int, source_pk: int) -> HttpResponse:
    source = _get_source_for_user(request, pk, source_pk, write=True)
    form = OriginForm(request.POST, source=source)
    if form.is_valid():
        chosen = form.cleaned_data["upstream_origin"]
        origin = source.case_file.sources.get(pk=chosen) if chosen is not None else None
        try:
            services.set_upstream_origin(source=source, origin=origin)
        except services.SourceRefused as refused:
            form.add_error(None, refused.message)
        else:
            messages.success(request, _("Saved where this source reports from."))
            return redirect("casefiles:source", pk=pk, source_pk=source.pk)
    return _source_page(request, source, origin_form=form, status=400)


@login_required
@require_GET
def case_file_search(request: HttpRequest, pk: int) -> HttpResponse:
    case_file = _get_case_file_for_user(request, pk)
    form = SearchForm(request.GET)
    query = form.cleaned_data["q"] if form.is_valid() else ""
    hits = retrieve_spans(query, case_file.pk, SEARCH_RESULTS) if query else []
    context = {"case_file": case_file, "query": query, "hits": highlight_hits(hits, query)}
    if request.htmx:
        return render(request, "casefiles/search.html#results", context)
    context["search_form"] = form
    return render(request, "casefiles/search.html", context)
