from django.urls import path

from classroom import views

app_name = "classroom"

urlpatterns = [
    path("classes/join/", views.join, name="join"),
    path("assignments/<int:assignment_id>/", views.assignment_detail, name="assignment_detail"),
    path(
        "assignments/<int:assignment_id>/preview/",
        views.assignment_preview,
        name="assignment_preview",
    ),
    path("assignments/<int:assignment_id>/start/", views.assignment_start, name="assignment_start"),
    path(
        "assignments/<int:assignment_id>/hand-in/",
        views.assignment_hand_in,
        name="assignment_hand_in",
    ),
]
