from django.urls import URLPattern, path

from . import card_sets, views


def _slug_routes(singular: str, slug_views: views.SlugViews) -> list[URLPattern]:
    """`<plural>/`, `<plural>/<slug>/` and `<plural>/<game>/<slug>/` (factions, scenarios)."""
    plural = f"{singular}s"
    return [
        path(f"{plural}/", slug_views.listing.as_view(), name=f"{singular}-list"),
        path(f"{plural}/<slug:slug>/", slug_views.by_slug.as_view(), name=f"{singular}-by-slug"),
        path(
            f"{plural}/<str:game>/<slug:slug>/",
            slug_views.detail.as_view(),
            name=f"{singular}-detail",
        ),
    ]


app_name = "cards_api"
urlpatterns: list[URLPattern] = [
    path("cards/", views.CardListView.as_view(), name="card-list"),
    path("cards/<int:pk>/", views.CardDetailView.as_view(), name="card-detail"),
    path(
        "cards/<str:game>/<str:external_id>/",
        views.CardByExternalIdView.as_view(),
        name="card-by-external-id",
    ),
    *_slug_routes("faction", views.FACTION_VIEWS),
    *_slug_routes("scenario", views.SCENARIO_VIEWS),
    path("card-sets/", card_sets.CardSetsView.as_view(), name="card-set-list"),
    path("card-sets/<slug:slug>/", card_sets.CardSetDetailView.as_view(), name="card-set-detail"),
    path(
        "card-sets/<slug:slug>/document/",
        card_sets.CardSetDocumentView.as_view(),
        name="card-set-document",
    ),
]
