from django.urls import path

from . import tactics_views, views

app_name = "lists"
urlpatterns = [
    path("", views.index, name="index"),
    path("new/", views.new_list, name="new"),
    path("import/", views.import_list, name="import"),
    path("mine/", views.my_lists, name="mine"),
    path("collection/", tactics_views.collection, name="collection"),
    path("s/<uuid:token>/", views.shared, name="shared"),
    path("<int:list_id>/", views.detail, name="detail"),
    path("<int:list_id>/edit/", views.edit, name="edit"),
    path("<int:list_id>/cards/", views.picker, name="picker"),
    path("<int:list_id>/add/", views.add_entry, name="add"),
    path("<int:list_id>/remove/", views.remove_entry, name="remove"),
    path("<int:list_id>/move/", views.move_entry, name="move"),
    path("<int:list_id>/commander/", views.set_commander, name="commander"),
    path("<int:list_id>/settings/", views.update_settings, name="settings"),
    path("<int:list_id>/visibility/", views.set_visibility, name="visibility"),
    path("<int:list_id>/save/", views.save_list, name="save"),
    path("<int:list_id>/duplicate/", views.duplicate, name="duplicate"),
    path("<int:list_id>/delete/", views.delete, name="delete"),
    path("<int:list_id>/export.txt", views.export_text, name="export"),
    path("<int:list_id>/print/", views.print_list, name="print"),
    # Tactics warbands (the pages above serve both games)
    path("<int:list_id>/figures/add/", tactics_views.add_figure, name="tactics_add"),
    path("<int:list_id>/equip/", tactics_views.equip, name="tactics_equip"),
    path("<int:list_id>/figures/remove/", tactics_views.remove, name="tactics_remove"),
    path("<int:list_id>/figures/switch/", tactics_views.switch, name="tactics_switch"),
    path("<int:list_id>/warband/", tactics_views.update_settings, name="tactics_settings"),
]
