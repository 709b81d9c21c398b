"""The graph debate's pages; the history, Retry, Stop and event stream every format
shares are the engine's (engine/urls.py), at the same ``/debates/`` addresses."""

from django.urls import path

from debates import views

app_name = "debates"
urlpatterns = [
    path("debates/new/", views.debate_new, name="new"),
    path("debates/new/estimate/", views.debate_estimate, name="estimate"),
    path("debates/<int:pk>/", views.debate_result, name="result"),
    path("debates/<int:pk>/live/", views.debate_live, name="live"),
    path("debates/<int:pk>/replay/", views.debate_replay, name="replay"),
    path("debates/<int:pk>/graph.svg", views.debate_graph_svg, name="graph_svg"),
    path("debates/<int:pk>/export.json", views.debate_export_json, name="export_json"),
    path("debates/<int:pk>/framework.af", views.debate_export_iccma, name="export_iccma"),
]
