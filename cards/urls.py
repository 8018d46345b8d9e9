from django.urls import path

from . import views

app_name = "cards"
urlpatterns = [
    path("", views.browse, name="browse"),
    path("help/", views.query_help, name="query_help"),
    path("scenarios/", views.scenarios, name="scenarios"),
    path("<str:game>/<str:external_id>/", views.detail, name="detail"),
]
