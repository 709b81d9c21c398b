from django.urls import path

from inquiries import views

app_name = "inquiries"

urlpatterns = [
    path("inquiries/new/", views.inquiry_new, name="new"),
    path("inquiries/new/estimate/", views.inquiry_estimate, name="estimate"),
    path("inquiries/<int:pk>/", views.inquiry_detail, name="detail"),
    path("inquiries/<int:pk>/live/", views.inquiry_live, name="live"),
    path("inquiries/<int:pk>/replay/", views.inquiry_replay, name="replay"),
    path("inquiries/<int:pk>/claims/<str:key>/", views.inquiry_claim, name="claim"),
    path("inquiries/<int:pk>/export.json", views.inquiry_export, name="export"),
]
