from django.urls import path

from stresstests import views

app_name = "stresstests"

urlpatterns = [
    path("arguments/<int:argument_id>/stress/", views.stress_start, name="start"),
    path("stress/<int:pk>/", views.stress_detail, name="detail"),
    path("stress/<int:pk>/status/", views.stress_status, name="status"),
    path("stress/<int:pk>/defend/", views.stress_defend, name="defend"),
    path("stress/<int:pk>/retry/", views.stress_retry, name="retry"),
    path("stress/<int:pk>/replay/", views.stress_replay, name="replay"),
    path("stress/<int:pk>/graph.svg", views.stress_graph_svg, name="graph_svg"),
    path("stress/<int:pk>/export.json", views.stress_export, name="export"),
]
