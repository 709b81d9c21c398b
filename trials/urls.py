from django.urls import path

from trials import views

app_name = "trials"

urlpatterns = [
    path("trials/", views.trial_list, name="trial_list"),
    path("trials/ask/", views.trial_ask, name="trial_ask"),
    path("trials/<int:trial_id>/", views.trial_detail, name="trial_detail"),
    path("trials/<int:trial_id>/retry/", views.trial_retry, name="trial_retry"),
    path("trials/argument/<int:argument_id>/", views.trial_start, name="trial_start"),
]
