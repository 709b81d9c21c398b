"""The engine's addresses: only where its admin pages used to be.

The run, persona and ledger models moved from ``debates`` to ``engine``, and
the admin's addresses with them; old links and bookmarks are sent on.
"""

from django.urls import re_path
from django.views.generic import RedirectView

urlpatterns = [
    re_path(
        r"^admin/debates/(?P<model>debate|persona|llmcall|stagerun|debateevent)/(?P<rest>.*)$",
        RedirectView.as_view(
            url="/admin/engine/%(model)s/%(rest)s", query_string=True, permanent=True
        ),
        name="engine_old_admin",
    ),
]
