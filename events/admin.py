"""Events in the admin: for support (who organises what, a stuck event), not for judging:
lists are submitted and judged through the site so that every verdict is stored with its
card versions and fingerprint."""

from django.contrib import admin

from .models import ErrataImpact, ErrataReport, Event, EventList, Player, Team


class PlayerInline(admin.TabularInline):
    model = Player
    extra = 0
    fields = ("name", "user", "team")
    raw_id_fields = ("user",)


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ("name", "date", "game", "size_label", "visibility", "locked_at", "published_at")
    list_filter = ("game", "visibility")
    search_fields = ("name", "place")
    filter_horizontal = ("organisers",)
    readonly_fields = ("join_token", "created_at", "updated_at")
    inlines = [PlayerInline]


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ("name", "event")
    search_fields = ("name", "event__name")


@admin.register(EventList)
class EventListAdmin(admin.ModelAdmin):
    list_display = ("player", "status", "spent", "fingerprint", "approved", "submitted_at")
    list_filter = ("status", "approved", "source")
    search_fields = ("player__name", "player__event__name", "fingerprint")
    fields = (
        "player",
        "status",
        "spent",
        "fingerprint",
        "revision",
        "source",
        "text",
        "note",
        "approved",
    )
    readonly_fields = ("player", "status", "spent", "fingerprint", "revision", "source", "text")


class ImpactInline(admin.TabularInline):
    model = ErrataImpact
    extra = 0
    fields = (
        "event_list",
        "army_list",
        "spent_before",
        "spent_after",
        "legal_before",
        "legal_after",
    )
    readonly_fields = fields
    can_delete = False


@admin.register(ErrataReport)
class ErrataReportAdmin(admin.ModelAdmin):
    list_display = ("pk", "created_at", "source")
    readonly_fields = ("created_at", "source", "cards")
    inlines = [ImpactInline]
