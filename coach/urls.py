from django.urls import path

from coach import views

app_name = "coach"

urlpatterns = [
    # Pages (coach/views.py).
    path("accounts/signup/", views.signup, name="signup"),
    path("coach/", views.argument_list, name="argument_list"),
    path("coach/new/", views.argument_new, name="argument_new"),
    path("coach/<int:argument_id>/", views.argument_detail, name="argument_detail"),
]
