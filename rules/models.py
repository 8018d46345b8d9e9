"""Rulebooks split into linkable sections (the rules reference).

A `Rulebook` is one imported file (one game, one language). Its text is split into a tree
of `Section`s with stable slugs, so URLs survive re-imports. Sections of translations of
the same book share a `rule_key`, so a reader can switch language on the same rule.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _

from cards.models import Game


class Language(models.TextChoices):
    EN = "en", _("English")
    FR = "fr", _("French")
    FA = "fa", _("Persian")


class SectionKind(models.TextChoices):
    CHAPTER = "chapter", _("Chapter")
    RULE = "rule", _("Rule")
    EXAMPLE = "example", _("Example")
    SIDEBAR = "sidebar", _("Sidebar")
    FLAVOUR = "flavour", _("Flavour text")
    CARD = "card", _("Card")
    CREDITS = "credits", _("Credits")
    PAGE = "page", _("Page (no reliable heading)")
    REFERENCE = "reference", _("Quick reference")
    FRONT = "front", _("Front matter")


class Rulebook(models.Model):
    slug = models.SlugField(max_length=80, unique=True)
    game = models.CharField(max_length=16, choices=Game.choices)
    lang = models.CharField(max_length=2, choices=Language.choices)
    title = models.CharField(max_length=200)
    # The same book in another language (e.g. the French and Persian AGoT rulebooks).
    edition_key = models.SlugField(max_length=80, blank=True)
    source_name = models.CharField(max_length=200, blank=True)
    source_sha1 = models.CharField(max_length=40, blank=True)
    raw_text = models.TextField(blank=True, help_text=_("The text as extracted, for audit."))
    page_count = models.PositiveIntegerField(null=True, blank=True)
    report = models.JSONField(default=dict, blank=True)
    is_quick_reference = models.BooleanField(default=False)
    imported_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["game", "lang", "slug"]

    def __str__(self) -> str:
        return self.title

    @property
    def is_rtl(self) -> bool:
        return self.lang == Language.FA


class Section(models.Model):
    book = models.ForeignKey(Rulebook, on_delete=models.CASCADE, related_name="sections")
    parent = models.ForeignKey(
        "self", on_delete=models.CASCADE, null=True, blank=True, related_name="children"
    )
    slug = models.SlugField(
        max_length=160, allow_unicode=True, help_text=_("Stable within the book: URL anchor.")
    )
    position = models.PositiveIntegerField(help_text=_("Reading order within the book."))
    depth = models.PositiveSmallIntegerField(default=0)
    kind = models.CharField(max_length=16, choices=SectionKind.choices, default=SectionKind.RULE)
    heading = models.CharField(max_length=300)
    body = models.TextField(blank=True, help_text=_("Cleaned text."))
    raw = models.TextField(blank=True, help_text=_("The lines as extracted, for audit."))
    page_start = models.PositiveIntegerField(null=True, blank=True)
    page_end = models.PositiveIntegerField(null=True, blank=True)
    source_line = models.PositiveIntegerField(null=True, blank=True)
    # Shared by the same rule in every language of one edition.
    rule_key = models.SlugField(max_length=160, blank=True, db_index=True)
    # Normalised text (rules.search.normalise) that the search backends index.
    search_heading = models.TextField(blank=True, editable=False)
    search_body = models.TextField(blank=True, editable=False)

    class Meta:
        ordering = ["book", "position"]
        constraints = [
            models.UniqueConstraint(fields=["book", "slug"], name="section_unique_slug_per_book")
        ]

    def __str__(self) -> str:
        return f"{self.book.slug}#{self.slug}"
