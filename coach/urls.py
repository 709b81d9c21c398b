from django.urls import path

from coach import api, import_views, toulmin_views, views

app_name = "coach"

urlpatterns = [
    # Pages (coach/views.py).
    path("accounts/signup/", views.signup, name="signup"),
    path("coach/", views.argument_list, name="argument_list"),
    path("coach/new/", views.argument_new, name="argument_new"),
    path("coach/import/", import_views.argument_import, name="argument_import"),
    path("coach/<int:argument_id>/", views.argument_detail, name="argument_detail"),
    path("coach/<int:argument_id>/advance/", views.argument_advance, name="argument_advance"),
    # The argument assembled (coach/toulmin_views.py): diagram and downloads.
    path(
        "coach/<int:argument_id>/toulmin/",
        toulmin_views.argument_toulmin,
        name="argument_toulmin",
    ),
    path(
        "coach/<int:argument_id>/export/<slug:fmt>/",
        toulmin_views.argument_export,
        name="argument_export",
    ),
    # JSON API (coach/api.py), called by static/js/coach.js.
    path("api/coach", api.api_coach, name="api_coach"),
    path("api/arguments/<int:argument_id>", api.api_argument, name="api_argument"),
    path("api/arguments/<int:argument_id>/proposal", api.api_proposal, name="api_proposal"),
    path("api/arguments/<int:argument_id>/draft", api.api_draft, name="api_draft"),
    path("api/arguments/<int:argument_id>/advance", api.api_advance, name="api_advance"),
]
