from django.urls import path

from discussions import check_views, coach_views, map_views, reading_views, stream, views

app_name = "discussions"

urlpatterns = [
    path("discussions/<int:discussion_id>/", views.discussion_detail, name="detail"),
    path("discussions/<int:discussion_id>/standing/", views.discussion_standing, name="standing"),
    path("discussions/<int:discussion_id>/live/", stream.discussion_live, name="live"),
    path("discussions/<int:discussion_id>/change/", views.thesis_change, name="thesis_change"),
    path("discussions/<int:discussion_id>/arguments/", views.new_argument, name="new_argument"),
    path(
        "discussions/<int:discussion_id>/posts/<int:post_id>/object/",
        views.new_objection,
        name="new_objection",
    ),
    path(
        "discussions/<int:discussion_id>/posts/<int:post_id>/change/",
        views.post_change,
        name="post_change",
    ),
    path(
        "discussions/<int:discussion_id>/posts/<int:post_id>/hide/",
        views.post_hide,
        name="post_hide",
    ),
    path(
        "discussions/<int:discussion_id>/readings/<int:source_id>/",
        reading_views.reading,
        name="reading",
    ),
    path("discussions/<int:discussion_id>/export.json", views.discussion_export, name="export"),
    path(
        "discussions/<int:discussion_id>/framework.af", views.discussion_framework, name="framework"
    ),
    path(
        "discussions/<int:discussion_id>/bring/",
        coach_views.bring_from_coach,
        name="bring_from_coach",
    ),
    path(
        "discussions/<int:discussion_id>/posts/<int:post_id>/check/",
        check_views.objection_check,
        name="objection_check",
    ),
    path(
        "discussions/<int:discussion_id>/export.argdown",
        map_views.discussion_argdown,
        name="export_argdown",
    ),
    path(
        "discussions/<int:discussion_id>/export.aif.json",
        map_views.discussion_aif,
        name="export_aif",
    ),
]
