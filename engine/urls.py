"""The engine's addresses: the pages every format shares, and the admin's old ones.

The runs history, a run's Retry and Stop and its event stream keep the
``/debates/`` addresses they had when they lived with the graph debate (whose
own pages are still there: debates/urls.py), so bookmarks and links still
work. The run, persona and ledger models moved from ``debates`` to
``engine``, and the admin's addresses with them; old links and bookmarks are
sent on.
"""

from django.urls import path, re_path
from django.views.generic import RedirectView

from engine import sse, views

app_name = "engine"
urlpatterns = [
    path("debates/", views.run_list, name="runs"),
    path("debates/<int:pk>/retry/", views.run_retry, name="retry"),
    path("debates/<int:pk>/stop/", views.run_stop, name="stop"),
    path("debates/<int:pk>/events", sse.debate_events, name="events"),
    re_path(
        r"^admin/debates/(?P<model>debate|persona|llmcall|stagerun|debateevent)/(?P<rest>.*)$",
        RedirectView.as_view(
            url="/admin/engine/%(model)s/%(rest)s", query_string=True, permanent=True
        ),
        name="old_admin",
    ),
]
