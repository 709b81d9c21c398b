from django.urls import path

from tournaments import views

app_name = "tournaments"
urlpatterns = [
    path("tournaments/", views.tournament_leaderboard, name="leaderboard"),
    path("tournaments/new/", views.tournament_new, name="new"),
    path("tournaments/new/estimate/", views.tournament_estimate, name="estimate"),
    path("tournaments/health/", views.tournament_health, name="health"),
    path("tournaments/<int:pk>/", views.tournament_detail, name="detail"),
    path("tournaments/<int:pk>/bracket/", views.tournament_bracket, name="bracket"),
    path("tournaments/<int:pk>/export.json", views.tournament_export, name="export"),
    path("tournaments/<int:pk>/matches/<int:match_pk>/", views.tournament_match, name="match"),
]
