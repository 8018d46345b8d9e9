"""/api/v1/exports/ (contracts §4)."""

from django.urls import path

from . import api

urlpatterns = [
    path("", api.ExportCreateView.as_view(), name="api-exports"),
    path("<uuid:job_id>/", api.ExportDetailView.as_view(), name="api-exports-detail"),
    path("<uuid:job_id>/download/", api.ExportDownloadView.as_view(), name="api-exports-download"),
]
