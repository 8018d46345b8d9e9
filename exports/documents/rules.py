"""Rules documents: one section with its subsections, and a whole rulebook (cover, contents
with page numbers, running chapter headers, page numbers).

The rules are printed in the book's own language and direction (Persian right to left);
the document's own words (contents, cover lines) are in the requested language.
"""

from __future__ import annotations

from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from rules.models import Rulebook, Section
from rules.selectors import outline_tree, subtree

from . import selectors
from .base import (
    DocumentError,
    Progress,
    RenderedDocument,
    render_html,
    text_direction,
    write_pdf,
)

# A printed book's heading levels: chapters are h1 (one per page start), then h2, h3, h4.
MAX_HEADING_LEVEL = 4


def _parts(sections: list[Section], top_depth: int) -> list[tuple[Section, int]]:
    """Each section with its heading level in the document (1 = the top)."""
    return [(s, min(MAX_HEADING_LEVEL, 1 + s.depth - top_depth)) for s in sections]


def _common_context(book: Rulebook, language: str) -> dict:
    return {
        "book": book,
        "book_dir": text_direction(book.lang),
        "lang": language,
        "dir": text_direction(language),
        "exported_at": timezone.now(),
    }


def _filename(*names: str) -> str:
    """book-section.pdf; a Persian section keeps its own letters (the download answers
    them as RFC 6266 filename*), so one section's PDF is never named after the whole book."""
    stem = "-".join(filter(None, (slugify(n, allow_unicode=True) for n in names)))
    return f"{stem or 'rules'}.pdf"


def render_rules_section(*, params: dict, language: str, progress: Progress) -> RenderedDocument:
    section = selectors.section_by_id(params.get("section_id"))
    if section is None:
        raise DocumentError(_("No rules section has this number."))
    book = section.book
    parts = _parts(subtree(section), section.depth)
    progress(20)
    context = {**_common_context(book, language), "section": section, "parts": parts}
    html = render_html("pdf/rules_section.html", context, language=language)
    progress(40)
    content, pages = write_pdf(html, language=language, progress=progress, start=40, end=100)
    return RenderedDocument(
        filename=_filename(book.slug, section.slug), content=content, pages=pages
    )


def _chapters(sections: list[Section]) -> list[list[Section]]:
    """The book cut before each top-level section: a chapter with everything under it."""
    chapters: list[list[Section]] = []
    for section in sections:
        if section.depth == 0 or not chapters:
            chapters.append([])
        chapters[-1].append(section)
    return chapters


def render_rulebook(*, params: dict, language: str, progress: Progress) -> RenderedDocument:
    book = selectors.rulebook_by_id(params.get("rulebook_id"))
    if book is None:
        raise DocumentError(_("No rulebook has this number."))
    sections = list(selectors.printed_sections(book))
    if not sections:
        raise DocumentError(_("This rulebook has no sections to print."))
    progress(5)
    context = _common_context(book, language)
    chapters = _chapters(sections)
    # Chapters are rendered one by one so the progress follows the book.
    rendered = []
    for number, chapter in enumerate(chapters, start=1):
        chapter_context = {**context, "parts": _parts(chapter, chapter[0].depth)}
        rendered.append(render_html("pdf/_rules_chapter.html", chapter_context, language=language))
        progress(5 + 25 * number / len(chapters))
    book_context = {
        **context,
        "toc": outline_tree(sections),
        "chapters_html": rendered,
        "section_count": len(sections),
    }
    html = render_html("pdf/rulebook.html", book_context, language=language)
    content, pages = write_pdf(html, language=language, progress=progress, start=30, end=100)
    return RenderedDocument(filename=_filename(book.slug), content=content, pages=pages)
