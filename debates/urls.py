from django.urls import path

from debates import views
from engine import sse

app_name = "debates"
urlpatterns = [
    path("debates/", views.debate_list, name="list"),
    path("debates/new/", views.debate_new, name="new"),
    path("debates/new/estimate/", views.debate_estimate, name="estimate"),
    path("debates/<int:pk>/", views.debate_result, name="result"),
    path("debates/<int:pk>/live/", views.debate_live, name="live"),
    path("debates/<int:pk>/replay/", views.debate_replay, name="replay"),
    path("debates/<int:pk>/retry/", views.debate_retry, name="retry"),
    path("debates/<int:pk>/stop/", views.debate_stop, name="stop"),
    path("debates/<int:pk>/events", sse.debate_events, name="events"),
    path("debates/<int:pk>/graph.svg", views.debate_graph_svg, name="graph_svg"),
    path("debates/<int:pk>/export.json", views.debate_export_json, name="export_json"),
    path("debates/<int:pk>/framework.af", views.debate_export_iccma, name="export_iccma"),
]
