"""Admin for the card database, laid out so Tactics cards can be entered by hand."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from .card_sets.services import hide_card_set
from .forms import CardAdminForm
from .models import (
    Ability,
    Card,
    CardAbility,
    CardSet,
    CardVersion,
    Character,
    Faction,
    Scenario,
    Sigil,
)
from .query.text import build_search_text


class SigilInline(admin.TabularInline):
    model = Sigil
    extra = 0
    fields = ("slug", "name_en", "name_fr")


@admin.register(Faction)
class FactionAdmin(admin.ModelAdmin):
    list_display = ("name_en", "name_fr", "game", "slug", "is_neutral", "warcouncil_code")
    list_filter = ("game", "is_neutral")
    search_fields = ("name_en", "name_fr", "slug")
    ordering = ("game", "sort_order", "slug")
    inlines = [SigilInline]


@admin.register(Sigil)
class SigilAdmin(admin.ModelAdmin):
    list_display = ("slug", "name_en", "name_fr", "faction")
    list_filter = ("faction__game", "faction")
    search_fields = ("slug", "name_en", "name_fr", "faction__name_en")
    list_select_related = ("faction",)


@admin.register(Character)
class CharacterAdmin(admin.ModelAdmin):
    list_display = ("name_en", "name_fr", "key")
    search_fields = ("name_en", "name_fr", "key")


@admin.register(Ability)
class AbilityAdmin(admin.ModelAdmin):
    list_display = ("name_en", "name_fr", "game", "key", "has_text")
    list_filter = ("game",)
    search_fields = ("name_en", "name_fr", "key", "text_en", "text_fr")

    @admin.display(boolean=True, description=_("has text"))
    def has_text(self, obj: Ability) -> bool:
        return bool(obj.text_en or obj.text_fr)


class CardAbilityInline(admin.TabularInline):
    model = CardAbility
    extra = 1
    autocomplete_fields = ("ability",)
    fields = ("position", "ability")


class CardVersionInline(admin.TabularInline):
    model = CardVersion
    extra = 0
    can_delete = False
    fields = ("version", "stats", "source", "recorded_at")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Card)
class CardAdmin(admin.ModelAdmin):
    form = CardAdminForm
    list_display = (
        "name_en",
        "title_en",
        "game",
        "kind",
        "faction",
        "cost_display",
        "version",
        "external_id",
    )
    list_filter = ("game", "kind", "faction", "is_commander", "is_character", "mounted", "source")
    search_fields = ("name_en", "name_fr", "title_en", "title_fr", "external_id")
    list_select_related = ("faction",)
    autocomplete_fields = ("faction", "sigil", "characters", "commander_card", "replaces")
    readonly_fields = ("created_at", "updated_at")
    inlines = [CardAbilityInline, CardVersionInline]
    fieldsets = (
        (
            _("Identity (both games)"),
            {
                "fields": (
                    ("game", "kind"),
                    ("external_id", "version", "source"),
                    ("faction", "sigil"),
                    ("name_en", "name_fr"),
                    ("title_en", "title_fr"),
                    "characters",
                    ("is_character", "is_commander"),
                )
            },
        ),
        (
            _("ASOIAF Tactics"),
            {
                "description": _(
                    "Figures: the type follows the cost (any gold: hero; silver without "
                    "gold: champion; copper only: soldier). Leave a coin empty when unknown."
                ),
                "fields": (
                    ("gold", "silver", "copper"),
                    ("will", "mounted"),
                    "carriers",
                    "is_unique",
                ),
            },
        ),
        (
            _("Stats (both games)"),
            {"fields": (("defense", "wounds"), "attacks")},
        ),
        (
            _("Tabletop Miniatures Game"),
            {
                "classes": ("collapse",),
                "fields": (
                    "points",
                    ("unit_type", "tray"),
                    ("speed", "morale"),
                    ("commander_card", "replaces"),
                    "boxes",
                ),
            },
        ),
        (
            _("Texts"),
            {"fields": (("trigger_en", "trigger_fr"), ("text_en", "text_fr"))},
        ),
        (
            _("List building and data"),
            {
                "classes": ("collapse",),
                "fields": ("requirements", "extra", ("created_at", "updated_at")),
            },
        ),
    )

    def save_related(self, request, form, formsets, change) -> None:
        """After abilities and characters are saved, refresh the free-word search text."""
        super().save_related(request, form, formsets, change)
        card = form.instance
        card.search_text = build_search_text(card)
        card.save(update_fields=["search_text"])

    @admin.display(description=_("cost"))
    def cost_display(self, obj: Card) -> str:
        if obj.game == "tactics":
            coins = obj.coins()
            return "-".join("?" if value is None else str(value) for value in coins.values())
        return "–" if obj.points is None else str(obj.points)


@admin.register(CardAbility)
class CardAbilityAdmin(admin.ModelAdmin):
    list_display = ("card", "position", "ability")
    list_select_related = ("card", "ability")
    search_fields = ("card__name_en", "ability__name_en")
    autocomplete_fields = ("card", "ability")


@admin.register(CardVersion)
class CardVersionAdmin(admin.ModelAdmin):
    list_display = ("card", "version", "source", "recorded_at")
    list_filter = ("source", "card__game")
    search_fields = ("card__name_en", "card__external_id", "version")
    list_select_related = ("card",)
    autocomplete_fields = ("card",)
    readonly_fields = ("recorded_at",)


@admin.register(Scenario)
class ScenarioAdmin(admin.ModelAdmin):
    list_display = ("name_en", "name_fr", "game", "kind", "budget_display", "rounds")
    list_filter = ("game", "kind", "tournament_legal")
    search_fields = ("name_en", "name_fr", "slug")
    prepopulated_fields = {"slug": ("name_en",)}
    fieldsets = (
        (None, {"fields": (("game", "kind"), "slug", ("name_en", "name_fr"), "sort_order")}),
        (_("Summary"), {"fields": ("summary_en", "summary_fr")}),
        (_("Tactics budget (per player)"), {"fields": (("gold", "silver", "copper"), "rounds")}),
        (
            _("TMG game mode"),
            {
                "classes": ("collapse",),
                "fields": (
                    "tournament_legal",
                    "deployment",
                    "objectives",
                    "scoring",
                    "special_components",
                ),
            },
        ),
        (_("Data"), {"classes": ("collapse",), "fields": ("extra",)}),
    )

    @admin.display(description=_("budget"))
    def budget_display(self, obj: Scenario) -> str:
        budget = obj.budget
        return "-".join(str(v) for v in budget.values()) if budget else "–"


@admin.register(CardSet)
class CardSetAdmin(admin.ModelAdmin):
    """Moderation: an admin hides a published set (only its owner sees it then)."""

    list_display = ("name", "slug", "owner", "visibility", "hidden_by_admin", "is_example")
    list_filter = ("visibility", "hidden_by_admin", "is_example")
    list_editable = ("hidden_by_admin",)
    search_fields = ("name", "slug", "owner__username")
    readonly_fields = ("share_token", "created_at", "updated_at")
    filter_horizontal = ("factions",)
    actions = ("hide", "show")

    @admin.action(description=_("Hide the chosen sets"))
    def hide(self, request, queryset):
        for card_set in queryset:
            hide_card_set(card_set=card_set, hidden=True, by=request.user)

    @admin.action(description=_("Show the chosen sets again"))
    def show(self, request, queryset):
        for card_set in queryset:
            hide_card_set(card_set=card_set, hidden=False, by=request.user)
