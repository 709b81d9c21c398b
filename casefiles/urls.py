from django.urls import path

from casefiles import views

app_name = "casefiles"

urlpatterns = [
    path("casefiles/", views.case_file_list, name="list"),
    path("casefiles/new/", views.case_file_new, name="new"),
    path("casefiles/<int:pk>/", views.case_file_detail, name="detail"),
    path("casefiles/<int:pk>/sources/add/", views.source_add, name="source_add"),
    path("casefiles/<int:pk>/sources/upload/", views.source_upload, name="source_upload"),
    path("casefiles/<int:pk>/sources/<int:source_pk>/", views.source_detail, name="source"),
    path(
        "casefiles/<int:pk>/sources/<int:source_pk>/origin/",
        views.source_origin,
        name="source_origin",
    ),
    path("casefiles/<int:pk>/search/", views.case_file_search, name="search"),
]
