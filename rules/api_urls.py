"""Rules reference routes under /api/v1/rules/ (contracts §4)."""

from django.urls import path

from . import api

app_name = "rules_api"
urlpatterns = [
    path("search/", api.RulesSearchView.as_view(), name="search"),
    path("sections/<int:pk>/", api.RulesSectionView.as_view(), name="section"),
]
