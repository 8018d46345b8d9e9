"""Every JSON endpoint under /api/v1/ (contracts §4). Each app contributes its own routes."""

from django.urls import include, path

urlpatterns = [
    path("", include("cards.api.urls")),
]
