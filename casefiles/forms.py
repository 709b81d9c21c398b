"""Forms of the case file pages."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from casefiles.models import Visibility
from untrusted.forms import validate_storable_text

__all__ = [
    "CaseFileForm",
    "OriginForm",
    "PastedSourceForm",
    "SearchForm",
    "UploadedSourceForm",
]


class CaseFileForm(forms.Form):
    title = forms.CharField(label=_("Title"), max_length=200, validators=[validate_storable_text])
    description = forms.CharField(
        label=_("What it is for"),
        max_length=2000,
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        validators=[validate_storable_text],
    )
    visibility = forms.ChoiceField(
        label=_("Who can read it"), choices=Visibility.choices, initial=Visibility.PRIVATE
    )


class _ProvenanceForm(forms.Form):
    title = forms.CharField(
        label=_("Title"), max_length=300, required=False, validators=[validate_storable_text]
    )
    author = forms.CharField(
        label=_("Author or publisher"),
        max_length=300,
        required=False,
        validators=[validate_storable_text],
    )
    published = forms.CharField(
        label=_("Date"), max_length=40, required=False, validators=[validate_storable_text]
    )
    citation = forms.CharField(
        label=_("URL or citation"),
        max_length=1000,
        required=False,
        validators=[validate_storable_text],
    )
    upstream_origin = forms.TypedChoiceField(
        label=_("Reports from (an earlier source in this file)"),
        required=False,
        coerce=int,
        empty_value=None,
    )

    def __init__(self, *args, sources=(), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["upstream_origin"].choices = [("", _("nothing earlier: it is an origin"))] + [
            (source.pk, source.title) for source in sources
        ]


class PastedSourceForm(_ProvenanceForm):
    text = forms.CharField(
        label=_("Text"),
        max_length=1_000_000,
        widget=forms.Textarea(attrs={"rows": 8}),
        validators=[validate_storable_text],
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["title"].required = True


class UploadedSourceForm(_ProvenanceForm):
    file = forms.FileField(
        label=_("File (.txt, .md or .pdf)"),
        widget=forms.ClearableFileInput(attrs={"accept": ".txt,.md,.markdown,.pdf"}),
    )


class OriginForm(forms.Form):
    """Which other source of the same case file a source reports from, or none."""

    upstream_origin = forms.TypedChoiceField(
        label=_("Reports from"),
        required=False,
        coerce=int,
        empty_value=None,
        # Only this file's other sources are offered; anything else posted is refused here.
        error_messages={"invalid_choice": _("Choose another source of this case file, or none.")},
    )

    def __init__(self, *args, source, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        others = source.case_file.sources.exclude(pk=source.pk).only("pk", "title")
        self.fields["upstream_origin"].choices = [("", _("none: it is an origin"))] + [
            (other.pk, f"{other.title} ({other.key})") for other in others
        ]
        if not self.is_bound:
            self.initial["upstream_origin"] = source.upstream_origin_id or ""


class SearchForm(forms.Form):
    q = forms.CharField(label=_("Search the case file"), max_length=500, required=False)
