"""Admin for saved lists: read their entries, fix ownership or sharing; legality is never
stored, so there is nothing to recompute here."""

from django.contrib import admin

from .models import ArmyList, ListEntry


class ListEntryInline(admin.TabularInline):
    model = ListEntry
    fk_name = "army_list"
    extra = 0
    raw_id_fields = ("card", "parent")
    fields = ("position", "role", "card", "parent", "chosen_commander")


@admin.register(ArmyList)
class ArmyListAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "name",
        "game",
        "faction",
        "points_limit",
        "owner",
        "visibility",
        "updated_at",
    )
    list_filter = ("game", "visibility", "faction")
    search_fields = ("name", "owner__username")
    raw_id_fields = ("owner",)
    readonly_fields = ("share_token", "created_at", "updated_at")
    list_select_related = ("faction", "owner")
    inlines = [ListEntryInline]


@admin.register(ListEntry)
class ListEntryAdmin(admin.ModelAdmin):
    list_display = ("id", "army_list", "role", "card", "parent", "position", "chosen_commander")
    list_filter = ("role",)
    raw_id_fields = ("army_list", "card", "parent")
    list_select_related = ("army_list", "card")
