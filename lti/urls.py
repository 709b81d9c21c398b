from django.urls import path

from lti import views

app_name = "lti"

urlpatterns = [
    path("lti/jwks.json", views.jwks, name="jwks"),
    path("lti/config/", views.config_page, name="config"),
    path("lti/config.json", views.config_json, name="config_json"),
    path("lti/login/", views.login_initiation, name="login"),
    path("lti/launch/", views.LaunchView.as_view(), name="launch"),
    path("lti/links/<int:link_id>/", views.link_assignment, name="link_assignment"),
]
