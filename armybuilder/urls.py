from django.conf import settings
from django.conf.urls.static import static
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from . import views
from .lists.views import pages as list_pages

urlpatterns = [
    path("", views.home, name="home"),
    path("search/", views.site_search, name="search"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("s/<str:code>/", list_pages.short_share, name="short-share"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("cards/", include("cards.urls")),
    path("card-sets/", include("cards.card_sets.urls")),
    path("lists/", include("armybuilder.lists.urls")),
    path("rules/", include("rules.urls")),
    path("events/", include("events.urls")),
    path("exports/", include("exports.urls")),
    path("api/v1/", include("armybuilder.api_urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/redoc/", SpectacularRedocView.as_view(url_name="api-schema"), name="api-redoc"),
    path("health/", views.health, name="health"),
]

if settings.DEBUG:
    urlpatterns += static(settings.MEDIA_URL, document_root=settings.MEDIA_ROOT)

# Errors: JSON under /api/, the site's pages elsewhere (armybuilder.api_errors).
handler400 = "armybuilder.api_errors.bad_request"
handler403 = "armybuilder.api_errors.permission_denied"
handler404 = "armybuilder.api_errors.not_found"
handler500 = "armybuilder.api_errors.server_error"
