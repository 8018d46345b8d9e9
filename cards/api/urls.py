from django.urls import path

from . import views

app_name = "cards_api"
urlpatterns = [
    path("cards/", views.CardListView.as_view(), name="card-list"),
    path("cards/<int:pk>/", views.CardDetailView.as_view(), name="card-detail"),
    path(
        "cards/<str:game>/<str:external_id>/",
        views.CardByExternalIdView.as_view(),
        name="card-by-external-id",
    ),
    path("factions/", views.FactionListView.as_view(), name="faction-list"),
    path("factions/<slug:slug>/", views.FactionBySlugView.as_view(), name="faction-by-slug"),
    path(
        "factions/<str:game>/<slug:slug>/",
        views.FactionDetailView.as_view(),
        name="faction-detail",
    ),
    path("scenarios/", views.ScenarioListView.as_view(), name="scenario-list"),
    path("scenarios/<slug:slug>/", views.ScenarioBySlugView.as_view(), name="scenario-by-slug"),
    path(
        "scenarios/<str:game>/<slug:slug>/",
        views.ScenarioDetailView.as_view(),
        name="scenario-detail",
    ),
]
