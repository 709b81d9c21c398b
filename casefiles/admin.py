from django.contrib import admin

from casefiles.models import CaseFile, Source, Span


class SourceInline(admin.TabularInline):
    model = Source
    fk_name = "case_file"
    fields = ("title", "author", "published", "kind", "upstream_origin")
    readonly_fields = fields
    extra = 0
    show_change_link = True
    can_delete = False


@admin.register(CaseFile)
class CaseFileAdmin(admin.ModelAdmin):
    list_display = ("title", "owner", "visibility", "is_demo", "created_at")
    list_filter = ("visibility", "is_demo")
    search_fields = ("title", "owner__username")
    inlines = [SourceInline]
    raw_id_fields = ("owner",)


@admin.register(Source)
class SourceAdmin(admin.ModelAdmin):
    list_display = ("title", "case_file", "author", "published", "kind", "upstream_origin")
    list_filter = ("kind",)
    search_fields = ("title", "author", "citation")
    readonly_fields = ("case_file", "kind", "text", "sha256", "created_at")
    raw_id_fields = ("upstream_origin",)


@admin.register(Span)
class SpanAdmin(admin.ModelAdmin):
    """Spans can number in the hundreds of thousands: the list stays a cheap, indexed read.

    Ordered by the (source_id, ordinal) index, no join but the source's title for
    the page's rows, no second count of the whole table; the search (bounded, as
    every admin search is) scans span text, so it is for finding one passage.
    """

    list_display = ("__str__", "source", "start", "end")
    list_select_related = ("source",)
    ordering = ("source_id", "ordinal")
    show_full_result_count = False
    search_fields = ("text",)
    readonly_fields = ("case_file", "source", "ordinal", "start", "end", "text")

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
