from django.urls import path

from home import views

# No namespace: "home" and "dashboard" are the names every app already redirects to.
urlpatterns = [
    path("", views.home, name="home"),
    path("me/", views.dashboard, name="dashboard"),
    path("me/start/", views.signed_in, name="signed_in"),
]
