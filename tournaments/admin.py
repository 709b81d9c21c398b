"""The instructors' view of tournaments: tournaments, matches, ratings, cache.

Everything is a record of what happened and is shown read-only: a match's
turns, verdict and the rating changes it caused would disagree with each
other if one were edited. Ratings cannot be deleted either (the history and
the apply-once guard hang on them). Cache entries can be deleted: a deleted
entry only means the next identical request asks the model again.
"""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from config.admin_tools import ReadOnlyInline, ViewOnlyMixin
from tournaments.models import CachedResponse, Match, Rating, RatingChange, Tournament, Turn


class MatchInline(ReadOnlyInline):
    model = Match
    fields = ("bracket_round", "slot", "model_a", "model_b", "status", "winner", "rounds")
    show_change_link = True


class TurnInline(ReadOnlyInline):
    model = Turn
    fields = ("round", "kind", "model", "sent_back", "cost_usd", "content")


class RatingChangeInline(ReadOnlyInline):
    model = RatingChange
    fk_name = "rating"
    fields = ("match", "before", "after", "created_at")
    # created_at is not editable: listed only as read-only, or the form cannot be built (a 500).
    readonly_fields = fields


@admin.register(Tournament)
class TournamentAdmin(ViewOnlyMixin, admin.ModelAdmin):
    list_display = ("debate", "decision_type", "tournament_size", "max_rounds", "created_at")
    list_filter = ("decision_type",)
    search_fields = ("debate__topic",)
    inlines = [MatchInline]


@admin.register(Match)
class MatchAdmin(ViewOnlyMixin, admin.ModelAdmin):
    list_display = ("__str__", "tournament", "status", "winner", "final_convergence", "cost_usd")
    list_filter = ("status", "is_disputed")
    search_fields = ("model_a", "model_b")
    inlines = [TurnInline]


@admin.register(Rating)
class RatingAdmin(ViewOnlyMixin, admin.ModelAdmin):
    list_display = ("model", "decision_type", "rating", "matches_played", "matches_won", "draws")
    list_filter = ("decision_type",)
    search_fields = ("model",)
    inlines = [RatingChangeInline]

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


@admin.register(CachedResponse)
class CachedResponseAdmin(ViewOnlyMixin, admin.ModelAdmin):
    list_display = ("__str__", "model", "hits", "size", "created_at", "expires_at")
    search_fields = ("model", "request_hash")
    exclude = ("body",)

    @admin.display(description=_("size (bytes)"))
    def size(self, obj: CachedResponse) -> int:
        return len(obj.body or b"")
