"""Admin building blocks shared by the apps: students' work and records are view-only.

Instructors read drafts, transcripts, debates and trials in the admin; nobody
edits or deletes them there, because a record must keep matching what
happened (a student's work, a turn, a debate event, a ledger row): no Delete
button, no delete action. Removing an account still removes its work (the
foreign keys cascade).
"""

from typing import Any

from django.contrib import admin, messages
from django.http import HttpRequest
from django.templatetags.static import static
from django.utils.html import format_html
from django.utils.text import smart_split
from django.utils.translation import gettext

__all__ = [
    "BoundedSearchAdminSite",
    "BoundedSearchMixin",
    "ReadOnlyInline",
    "ViewOnlyMixin",
    "boolean_icon",
]


def boolean_icon(value: bool | None) -> str:
    """Django's admin yes/no/unknown icon, its alt text in the reader's language.

    Django writes the Python value ("True", "False", "None") as the image's alt
    text, which a screen reader reads out in English on a Spanish page.
    """
    name, alt = {
        True: ("yes", gettext("Yes")),
        False: ("no", gettext("No")),
        None: ("unknown", gettext("Unknown")),
    }[value]
    return format_html('<img src="{}" alt="{}">', static(f"admin/img/icon-{name}.svg"), alt)


class ViewOnlyMixin:
    """No adding, no changing, no deleting: for ModelAdmins and inlines alike."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ReadOnlyInline(ViewOnlyMixin, admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = False


class BoundedSearchMixin:
    """An admin search of at most SEARCH_MAX_TERMS words of SEARCH_MAX_TERM_CHARS each.

    Django's admin search ORs every search field for each word and ANDs the words:
    a thousand words make an expression SQLite refuses ("Expression tree is too
    large", a 500) and PostgreSQL plans for seconds; one word of 100,000 characters
    is a LIKE pattern SQLite refuses too. Past the bounds the list is empty and a
    message says why, in plain words.
    """

    search_max_terms = 10
    search_max_term_chars = 100

    def search_problem(self, search_term: str) -> str | None:
        terms = list(smart_split(search_term or ""))
        longest = max((len(term) for term in terms), default=0)
        if len(terms) <= self.search_max_terms and longest <= self.search_max_term_chars:
            return None
        return gettext(
            "A search may have at most %(terms)s words of at most %(chars)s characters "
            "each. Shorten it and search again."
        ) % {"terms": self.search_max_terms, "chars": self.search_max_term_chars}

    def get_search_results(self, request: HttpRequest, queryset: Any, search_term: str):
        if self.get_search_fields(request) and (problem := self.search_problem(search_term)):
            # The autocomplete view answers JSON: its empty list is the answer there.
            match = getattr(request, "resolver_match", None)
            if getattr(match, "url_name", "") != "autocomplete":
                messages.warning(request, problem)
            return queryset.none(), False
        return super().get_search_results(request, queryset, search_term)


class BoundedSearchAdminSite(admin.AdminSite):
    """The site's admin (settings: INSTALLED_APPS names config.apps.ArgueAdminConfig).

    Every ModelAdmin registered here, the project's and other packages' alike,
    gets BoundedSearchMixin, so no list with ``search_fields`` is left unbounded.
    """

    def register(self, model_or_iterable, admin_class=None, **options) -> None:
        admin_class = admin_class or admin.ModelAdmin
        if not issubclass(admin_class, BoundedSearchMixin):
            admin_class = type(
                admin_class.__name__,
                (BoundedSearchMixin, admin_class),
                {"__module__": admin_class.__module__, "__doc__": admin_class.__doc__},
            )
        super().register(model_or_iterable, admin_class, **options)
