from django.urls import path

from cards.models import Game

from .views import pages, tactics, tmg

TMG = {"game": Game.TMG}
TACTICS = {"game": Game.TACTICS}

app_name = "lists"
urlpatterns = [
    path("", pages.index, name="index"),
    path("new/", pages.new_list, name="new"),
    path("import/", pages.import_list, name="import"),
    path("mine/", pages.my_lists, name="mine"),
    path("collection/", tactics.collection, name="collection"),
    path("s/<uuid:token>/", pages.shared, name="shared"),
    path("<int:list_id>/", pages.detail, name="detail"),
    path("<int:list_id>/edit/", pages.edit, name="edit"),
    path("<int:list_id>/cards/", pages.picker, name="picker"),
    path("<int:list_id>/visibility/", pages.set_visibility, name="visibility"),
    path("<int:list_id>/save/", pages.save_list, name="save"),
    path("<int:list_id>/duplicate/", pages.duplicate, name="duplicate"),
    path("<int:list_id>/delete/", pages.delete, name="delete"),
    path("<int:list_id>/export.txt", pages.export_text, name="export"),
    path("<int:list_id>/print/", pages.print_list, name="print"),
    path("<int:list_id>/update-cards/", pages.update_cards, name="update_cards"),
    # TMG lists (the pages above serve both games)
    path("<int:list_id>/add/", tmg.add_entry, name="add"),
    path("<int:list_id>/remove/", pages.remove_entry, TMG, name="remove"),
    path("<int:list_id>/move/", tmg.move_entry, name="move"),
    path("<int:list_id>/commander/", tmg.set_commander, name="commander"),
    path("<int:list_id>/settings/", pages.update_settings, TMG, name="settings"),
    # Tactics warbands
    path("<int:list_id>/figures/add/", tactics.add_figure, name="tactics_add"),
    path("<int:list_id>/equip/", tactics.equip, name="tactics_equip"),
    path("<int:list_id>/figures/remove/", pages.remove_entry, TACTICS, name="tactics_remove"),
    path("<int:list_id>/figures/switch/", tactics.switch, name="tactics_switch"),
    path("<int:list_id>/warband/", pages.update_settings, TACTICS, name="tactics_settings"),
]
