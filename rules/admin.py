"""Admin for the rules reference: books are imported (manage.py import_rulebook), so the
admin is for looking, fixing a heading or a kind, and reading the import report."""

from django.contrib import admin
from django.db.models import Count
from django.utils.translation import gettext_lazy as _

from .models import Rulebook, Section


@admin.register(Rulebook)
class RulebookAdmin(admin.ModelAdmin):
    list_display = (
        "title",
        "slug",
        "game",
        "lang",
        "is_quick_reference",
        "sections",
        "imported_at",
    )
    list_filter = ("game", "lang", "is_quick_reference")
    search_fields = ("title", "slug", "source_name")
    readonly_fields = ("source_name", "source_sha1", "page_count", "report", "imported_at")
    exclude = ("raw_text",)

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(section_count=Count("sections"))

    @admin.display(description=_("Sections"), ordering="section_count")
    def sections(self, book: Rulebook) -> int:
        return book.section_count


@admin.register(Section)
class SectionAdmin(admin.ModelAdmin):
    list_display = ("heading", "book", "kind", "depth", "page_start", "rule_key", "position")
    list_filter = ("book__game", "book__lang", "kind", "depth", "book")
    search_fields = ("heading", "slug", "rule_key", "body")
    list_select_related = ("book",)
    raw_id_fields = ("parent",)
    readonly_fields = ("book", "slug", "position", "depth", "raw", "source_line")
    ordering = ("book", "position")

    def save_model(self, request, obj: Section, form, change) -> None:
        from .search.normalise import normalise

        obj.search_heading = normalise(obj.heading, obj.book.lang)
        obj.search_body = normalise(obj.body, obj.book.lang)
        super().save_model(request, obj, form, change)
