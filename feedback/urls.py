from django.urls import path

from feedback import views

app_name = "feedback"

urlpatterns = [
    path("feedback/<int:submission_id>/", views.submission_feedback, name="submission"),
    path("feedback/comments/<int:comment_id>/reply/", views.reply, name="reply"),
]
