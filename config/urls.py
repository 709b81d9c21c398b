from django.contrib import admin
from django.urls import include, path
from django.utils.translation import gettext_lazy as _

from . import views

urlpatterns = [
    path("", include("home.urls")),
    path("favicon.ico", views.favicon, name="favicon"),
    path("healthz", views.healthz, name="healthz"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("engine.urls")),  # before the admin: its old addresses
    path("admin/", admin.site.urls),
    path("", include("coach.urls")),
    path("", include("debates.urls")),
    path("", include("trials.urls")),
    path("", include("casefiles.urls")),
    path("", include("inquiries.urls")),
    path("", include("stresstests.urls")),
    path("", include("tournaments.urls")),
    path("", include("lti.urls")),
    path("", include("classroom.urls")),
    path("", include("feedback.urls")),
    path("", include("discussions.urls")),
]

admin.site.site_header = _("Argue — instructors")
admin.site.site_title = _("Argue admin")
admin.site.index_title = _("Students' work, debates and costs")
