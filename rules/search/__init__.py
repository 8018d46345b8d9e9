"""Full-text search of the rulebooks: one interface, two backends (SQLite FTS5, PostgreSQL).

See docs/search.md. The public interface:

    search_sections(query, *, lang=None, book=None, game=None, limit=20) -> list[SearchHit]
    index_book(book)     re-index one Rulebook's sections (importers call it)
    reindex_all()        re-index every book
    normalise(text, lang) the one normaliser, for index and query
"""

from .normalise import normalise
from .service import (
    MAX_QUERY_LENGTH,
    SearchHit,
    index_book,
    reindex_all,
    search_sections,
)

__all__ = [
    "MAX_QUERY_LENGTH",
    "SearchHit",
    "index_book",
    "normalise",
    "reindex_all",
    "search_sections",
]
