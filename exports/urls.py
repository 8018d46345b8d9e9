from django.urls import path

from . import views

app_name = "exports"
urlpatterns = [
    path("", views.start, name="start"),
    path("<uuid:job_id>/", views.detail, name="detail"),
    path("<uuid:job_id>/progress/", views.progress, name="progress"),
]
