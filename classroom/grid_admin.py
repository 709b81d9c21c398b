"""The progress grid's admin pages, one frame for every kind of class work.

An assignment's grid (classroom.admin) and a class discussion's
(discussions.admin) are the same three pages: the grid, the grid as CSV, and
one student's work. What differs is what fills them; the frame is here, so
that scoping, addresses, the CSV's headers and the page's width are written
once. The object is looked up through the admin's own ``get_queryset``,
which the class scoping narrows to the classes the user teaches: another
instructor's grid is a 404 on all three pages (classroom.admin_scoping).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html_join

__all__ = ["ProgressGridAdmin", "admin_links"]


def admin_links(*links: tuple[str, tuple[Any, ...], str]) -> str:
    """Links to pages, each ``(url name, its arguments, its label)``, joined by " · ".

    The cells and fields that lead from an admin row to its grid, its analytics,
    its feedback or its page: the labels are escaped, the markup is one.
    """
    return format_html_join(
        " · ",
        '<a href="{}">{}</a>',
        ((reverse(name, args=args), label) for name, args, label in links),
    )


class ProgressGridAdmin:
    """Mixin for a ModelAdmin: ``<id>/grid/``, ``<id>/grid.csv``, ``<id>/work/<item>/``.

    The URL names are ``<app>_<model>_grid``, ``…_grid_csv`` and ``…_work``; the
    object's id is ``<model>_id`` in them and the work page's item is named by
    ``work_item`` (a submission's id, a student's). A subclass names its two
    templates and the item, and fills the pages:

    - ``grid_page(request, obj) -> dict``: the grid's context;
    - ``write_grid_csv(request, obj, out)``: the CSV's rows, written to ``out``
      (with ``untrusted.spreadsheet.safe_writer``: the cells are students' words);
    - ``work_page(request, obj, item_id) -> dict``: one student's work;
    - ``grid_elsewhere(request, obj, view, item_id)``: a response that answers
      instead (a redirect to the page that shows this object), or None.
    """

    grid_template: str
    work_template: str
    work_item: str
    # The grid needs the page's whole width (the admin's model menu is one click
    # away); a work page may keep the menu.
    wide_work_page = True

    def get_urls(self) -> list[Any]:
        view = self.admin_site.admin_view
        name = f"{self.opts.app_label}_{self.opts.model_name}_%s"
        key = f"<int:{self.opts.model_name}_id>"
        return [
            path(f"{key}/grid/", view(self.grid_view), name=name % "grid"),
            path(f"{key}/grid.csv", view(self.grid_csv_view), name=name % "grid_csv"),
            path(f"{key}/work/<int:{self.work_item}>/", view(self.work_view), name=name % "work"),
            *super().get_urls(),
        ]

    def grid_object(self, request: HttpRequest, object_id: int) -> Any:
        """The page's object, if the user may see it (the admin's scoped queryset), else 404."""
        return get_object_or_404(self.get_queryset(request), pk=object_id)

    def _object_of(self, request: HttpRequest, ids: dict[str, int]) -> Any:
        return self.grid_object(request, ids[f"{self.opts.model_name}_id"])

    def grid_elsewhere(
        self, request: HttpRequest, obj: Any, view: str, item_id: int | None = None
    ) -> HttpResponse | None:
        return None

    def admin_page(
        self, request: HttpRequest, template: str, context: dict[str, Any], *, wide: bool
    ) -> HttpResponse:
        """A page in the admin's frame; ``wide`` leaves the model menu out."""
        context = {**self.admin_site.each_context(request), **context, "opts": self.opts}
        if wide:
            context["is_nav_sidebar_enabled"] = False
        return TemplateResponse(request, template, context)

    def grid_view(self, request: HttpRequest, **ids: int) -> HttpResponse:
        obj = self._object_of(request, ids)
        if (elsewhere := self.grid_elsewhere(request, obj, "grid")) is not None:
            return elsewhere
        return self.admin_page(request, self.grid_template, self.grid_page(request, obj), wide=True)

    def grid_csv_view(self, request: HttpRequest, **ids: int) -> HttpResponse:
        obj = self._object_of(request, ids)
        if (elsewhere := self.grid_elsewhere(request, obj, "grid_csv")) is not None:
            return elsewhere
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        filename = f"grid-{self.opts.model_name}-{obj.pk}.csv"
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        self.write_grid_csv(request, obj, response)
        return response

    def work_view(self, request: HttpRequest, **ids: int) -> HttpResponse:
        obj, item_id = self._object_of(request, ids), ids[self.work_item]
        if (elsewhere := self.grid_elsewhere(request, obj, "work", item_id)) is not None:
            return elsewhere
        context = self.work_page(request, obj, item_id)
        return self.admin_page(request, self.work_template, context, wide=self.wide_work_page)

    def grid_page(self, request: HttpRequest, obj: Any) -> dict[str, Any]:
        raise NotImplementedError

    def write_grid_csv(self, request: HttpRequest, obj: Any, out: Any) -> None:
        raise NotImplementedError

    def work_page(self, request: HttpRequest, obj: Any, item_id: int) -> dict[str, Any]:
        raise NotImplementedError
