"""Every JSON endpoint under /api/v1/ (contracts §4). Each app contributes its own routes."""

from django.urls import include, path

from armybuilder import api

urlpatterns = [
    path("lists/check/", api.CheckListView.as_view(), name="api-lists-check"),
    path("lists/check-batch/", api.CheckBatchView.as_view(), name="api-lists-check-batch"),
    path("", include("cards.api.urls")),
    path("rules/", include("rules.api_urls")),
    path("exports/", include("exports.api_urls")),
    path("events/", include("events.api_urls")),
    path("auth/token/", api.ObtainTokenView.as_view(), name="api-auth-token"),
]
