from django.urls import path

from . import views

app_name = "card_sets"
urlpatterns = [
    path("", views.index, name="index"),
    path("new/", views.new, name="new"),
    path("<slug:slug>/", views.detail, name="detail"),
    path("<slug:slug>/edit/", views.edit, name="edit"),
    path("<slug:slug>/visibility/", views.visibility, name="visibility"),
    path("<slug:slug>/cards/add/", views.card_form, name="card_add"),
    path("<slug:slug>/cards/<int:card_id>/edit/", views.card_form, name="card_edit"),
    path("<slug:slug>/cards/<int:card_id>/delete/", views.card_delete, name="card_delete"),
    path("<slug:slug>/import/", views.import_document, name="import"),
    path("<slug:slug>/export.json", views.export_document, name="export"),
    path("<slug:slug>/overrides/", views.override, name="override"),
    path("<slug:slug>/scenarios/add/", views.scenario_form, name="scenario_add"),
]
