"""Reads of the rules reference: books, their outline, one section and its neighbours.

Sections are stored in reading order (`position`) with their `depth`, so a section's
descendants are the sections that follow it while they are deeper: no recursive query.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from django.db.models import Count, QuerySet

from cards.models import Game

from .definitions import DefinitionIndex, SectionText
from .models import Rulebook, Section

OUTLINE_FIELDS = ("id", "slug", "heading", "depth", "kind", "parent_id", "position", "page_start")


@dataclass
class GameShelf:
    game: str
    label: str
    books: list[Rulebook] = field(default_factory=list)


@dataclass
class OutlineNode:
    section: Section
    children: list[OutlineNode] = field(default_factory=list)


def list_books() -> QuerySet[Rulebook]:
    return (
        Rulebook.objects.annotate(section_count=Count("sections"))
        .defer("raw_text", "report")
        .order_by("game", "is_quick_reference", "lang", "title")
    )


def books_by_game() -> list[GameShelf]:
    """Books grouped by game (in the games' order), rule books before quick references."""
    shelves = {game: GameShelf(game=game, label=str(label)) for game, label in Game.choices}
    for book in list_books():
        shelves.setdefault(book.game, GameShelf(game=book.game, label=book.game))
        shelves[book.game].books.append(book)
    return [shelf for shelf in shelves.values() if shelf.books]


def get_book(slug: str) -> Rulebook | None:
    return Rulebook.objects.defer("raw_text").filter(slug=slug).first()


def book_outline(book: Rulebook) -> list[Section]:
    """Every section of the book in reading order, light fields only."""
    return list(book.sections.only(*OUTLINE_FIELDS).order_by("position"))


def outline_tree(sections: list[Section]) -> list[OutlineNode]:
    """The outline as a tree of nodes (top-level nodes returned)."""
    nodes = {s.id: OutlineNode(s) for s in sections}
    roots = []
    for section in sections:
        node = nodes[section.id]
        parent = nodes.get(section.parent_id) if section.parent_id else None
        (parent.children if parent else roots).append(node)
    return roots


def get_section(book: Rulebook, slug: str) -> Section | None:
    return book.sections.filter(slug=slug).first()


def subtree(section: Section) -> list[Section]:
    """The section and its descendants, in reading order."""
    following = section.book.sections.filter(position__gt=section.position).order_by("position")
    out = [section]
    for candidate in following.iterator(chunk_size=200):
        if candidate.depth <= section.depth:
            break
        out.append(candidate)
    return out


def neighbours(section: Section, outline: list[Section]) -> tuple[Section | None, Section | None]:
    """Previous: the nearest earlier section at the same level or above (previous sibling,
    or the parent's previous sibling…). Next: the first section after this one's subtree."""
    index = next((k for k, s in enumerate(outline) if s.id == section.id), None)
    if index is None:
        return None, None
    previous = next(
        (s for s in reversed(outline[:index]) if s.depth <= section.depth),
        outline[index - 1] if index > 0 else None,
    )
    after = next((s for s in outline[index + 1 :] if s.depth <= section.depth), None)
    return previous, after


def ancestors(section: Section, outline: list[Section]) -> list[Section]:
    """From the chapter down to the section's parent (for breadcrumbs)."""
    by_id = {s.id: s for s in outline}
    chain, parent_id = [], section.parent_id
    while parent_id and parent_id in by_id and len(chain) < 10:
        chain.append(by_id[parent_id])
        parent_id = by_id[parent_id].parent_id
    return list(reversed(chain))


def key_words(section: Section, reader: str) -> list[str]:
    """The section's notes in the reader's language when its book is in another one: the
    words an English reader of a French rulebook would use for what the section says."""
    from .search.notes import note_phrases

    book = section.book
    return note_phrases(
        game=book.game, lang=book.lang, slug=section.slug, heading=section.heading, reader=reader
    )


def translations(section: Section) -> list[Section]:
    """The same section in the other languages of the book's edition (same rule_key)."""
    if not section.rule_key or not section.book.edition_key:
        return []
    return list(
        Section.objects.filter(
            rule_key=section.rule_key, book__edition_key=section.book.edition_key
        )
        .exclude(book_id=section.book_id)
        .select_related("book")
        .only("slug", "heading", "book__slug", "book__lang", "book__title")
        .order_by("book__lang")
    )


def _definition_signature(game: str) -> tuple:
    """Changes whenever a book of the game is imported, re-imported or deleted."""
    return tuple(Rulebook.objects.filter(game=game).order_by("id").values_list("id", "imported_at"))


@lru_cache(maxsize=8)
def _definition_index(game: str, signature: tuple) -> DefinitionIndex:
    rows = (
        Section.objects.filter(book__game=game)
        .select_related("book")
        .only(
            "id", "slug", "heading", "kind", "position", "body",
            "book__slug", "book__lang", "book__is_quick_reference",
        )
    )  # fmt: skip
    return DefinitionIndex(
        SectionText(
            id=row.id,
            book_slug=row.book.slug,
            book_lang=row.book.lang,
            is_quick_reference=row.book.is_quick_reference,
            slug=row.slug,
            heading=row.heading,
            kind=row.kind,
            position=row.position,
            body=row.body,
        )
        for row in rows.iterator(chunk_size=500)
    )


def definition_index(game: str) -> DefinitionIndex:
    """Where the game's terms are defined, rebuilt only when its books change."""
    return _definition_index(game, _definition_signature(game))


def sections_for_terms(
    terms: Iterable[str], *, language: str, game: str, full_rulebook: bool = False
) -> dict[str, Section]:
    """The section defining each term (ability or keyword name, in any language) that a
    rulebook of the game defines; terms no book defines are left out. With
    `full_rulebook`, the rulebook's own section even where a quick reference in the
    reader's language summarises it."""
    index = definition_index(game)
    found = {
        term: index.find(term, language=language, full_rulebook=full_rulebook)
        for term in dict.fromkeys(terms)
    }
    ids = {definition.section_id for definition in found.values() if definition}
    sections = Section.objects.select_related("book").in_bulk(ids)
    return {
        term: sections[definition.section_id]
        for term, definition in found.items()
        if definition and definition.section_id in sections
    }
