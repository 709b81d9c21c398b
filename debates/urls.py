from django.urls import path

from debates import sse

app_name = "debates"
urlpatterns = [
    path("debates/<int:pk>/events", sse.debate_events, name="events"),
]
