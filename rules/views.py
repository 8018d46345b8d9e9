"""Rules reference pages: the books, one book's contents, one section, and search."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from cards.models import Game
from common.i18n import current_language

from . import selectors
from .models import Language, Rulebook

SEARCH_LIMIT = 30
MAX_QUERY = 200


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    return render(request, "rules/index.html", {"shelves": selectors.books_by_game()})


@require_GET
def book(request: HttpRequest, book_slug: str) -> HttpResponse:
    rulebook = _book_or_404(book_slug)
    outline = selectors.book_outline(rulebook)
    return render(
        request,
        "rules/book.html",
        {
            "book": rulebook,
            "tree": selectors.outline_tree(outline),
            "section_count": len(outline),
            "warning_count": len(rulebook.report.get("warnings", [])),
        },
    )


@require_GET
def section(request: HttpRequest, book_slug: str, section_slug: str) -> HttpResponse:
    rulebook = _book_or_404(book_slug)
    current = selectors.get_section(rulebook, section_slug)
    if current is None:
        raise Http404(_("No such section in this book."))
    current.book = rulebook
    outline = selectors.book_outline(rulebook)
    previous, following = selectors.neighbours(current, outline)
    parts = selectors.subtree(current)
    return render(
        request,
        "rules/section.html",
        {
            "book": rulebook,
            "section": current,
            "parts": [(part, min(part.depth - current.depth + 1, 4)) for part in parts],
            "ancestors": selectors.ancestors(current, outline),
            "previous": previous,
            "next": following,
            "translations": selectors.translations(current),
            "key_words": selectors.key_words(current, current_language()),
        },
    )


@require_GET
def search(request: HttpRequest) -> HttpResponse:
    query = request.GET.get("q", "").strip()[:MAX_QUERY]
    lang = _choice(request.GET.get("lang"), Language.values)
    game = _choice(request.GET.get("game"), Game.values)
    book_slug = request.GET.get("book", "").strip()[:80] or None
    hits = []
    if query:
        from .search import search_sections

        hits = search_sections(query, lang=lang, book=book_slug, game=game, limit=SEARCH_LIMIT)
    return render(
        request,
        "rules/search.html",
        {
            "query": query,
            "lang": lang or "",
            "game": game or "",
            "book_slug": book_slug or "",
            "hits": hits,
            "languages": Language.choices,
            "games": Game.choices,
            "books": selectors.list_books().only("slug", "title", "lang"),
        },
    )


def _book_or_404(slug: str) -> Rulebook:
    found = selectors.get_book(slug)
    if found is None:
        raise Http404(_("No such rulebook."))
    return found


def _choice(value: str | None, allowed) -> str | None:
    return value if value in allowed else None
