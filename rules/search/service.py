"""Indexing and searching rulebook sections (the one interface over both backends).

    search_sections("corbeau messager", lang="fa")   -> [SearchHit, …] best first
    index_book(book)                                  -> fill the normalised columns
    reindex_all()                                     -> every book, and rebuild the index

Ranking is the same on both backends: the backend retrieves candidates (every unit
matched, then any token matched), and they are ranked here by
  - coverage: the share of the query's units the section matches (best interpretation),
  - heading coverage: the share matched by the heading alone (headings weigh more),
  - the backend's own relevance (bm25 / ts_rank, heading-weighted), as a tie-breaker,
  - a small penalty for credits, flavour text and examples.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

from django.db import connection, transaction

from .backends import Candidate, get_backend, section_columns
from .glossary import load_glossary
from .normalise import normalise
from .query import LangQuery, plan_query
from .snippets import highlight, snippet
from .vocabulary import books as indexed_books
from .vocabulary import bump_version, vocabularies

MAX_QUERY_LENGTH = 500
MAX_LIMIT = 100
CANDIDATES = 40

W_COVERAGE = 20.0  # dominates: a section with every unit beats one with fewer
W_HEADING = 4.0
W_HEADING_EXACT = 1.0
W_DIRECT = 1.0
W_BACKEND = 1.5
KIND_PENALTY = {
    "credits": 6.0,
    "front": 4.0,
    "flavour": 3.0,
    "example": 0.8,
    "page": 0.3,
    "card": 0.3,
}


@dataclass(frozen=True)
class SearchHit:
    section: object  # rules.models.Section
    score: float  # higher is better
    snippet: str  # safe HTML: escaped text with <mark>…</mark>
    heading_html: str  # safe HTML: escaped heading with <mark>…</mark>


def _books_in_scope(lang: str | None, book: str | None, game: str | None) -> dict[str, list]:
    """Book language -> ids of the rulebooks to search."""
    scope: dict[str, list[int]] = {}
    for book_id, rulebook in indexed_books().items():
        if (
            (lang and rulebook.lang != lang)
            or (book and rulebook.slug != book)
            or (game and rulebook.game != game)
        ):
            continue
        scope.setdefault(rulebook.lang, []).append(book_id)
    return scope


def search_sections(
    query: str,
    *,
    lang: str | None = None,
    book: str | None = None,
    game: str | None = None,
    limit: int = 20,
) -> list[SearchHit]:
    """Sections matching `query` (any language: EN, FR or FA), best first.

    `lang`, `book` (a rulebook slug) and `game` filter the rulebooks searched. An empty
    query, or one made of stop words only, finds nothing.
    """
    from rules.models import Section

    query = (query or "").strip()[:MAX_QUERY_LENGTH]
    limit = max(1, min(int(limit), MAX_LIMIT))
    if not query:
        return []
    scope = _books_in_scope(lang, book, game)
    if not scope:
        return []
    plan = plan_query(query, scope.keys(), load_glossary(), vocabularies())
    if not plan:
        return []

    backend = get_backend()
    pool = max(CANDIDATES, limit * 2)
    candidates: dict[int, tuple[Candidate, LangQuery]] = {}
    # Sections matching every unit first; sections matching some only when those are few
    # (they would rank below anyway: coverage dominates the score).
    for mode in ("all", "any"):
        for target, lang_query in plan.langs.items():
            if mode == "any" and lang_query.is_single_unit:
                continue
            for found in backend.match(lang_query, mode=mode, book_ids=scope[target], limit=pool):
                candidates.setdefault(found.section_id, (found, lang_query))
        if len(candidates) >= limit:
            break

    columns = section_columns()
    at = {name: columns.index(name) for name in ("book_id", "position", "kind")}
    heading_at, body_at = columns.index("search_heading"), columns.index("search_body")
    ranked = []
    for found, lang_query in candidates.values():
        values = found.values
        heading_tokens = set(values[heading_at].split())
        # Only the query's tokens matter: look them up in the text (no set of the body).
        text = f" {values[heading_at]} {values[body_at]} "
        doc_tokens = {token for token in lang_query.all_tokens if f" {token} " in text}
        kind = values[at["kind"]]
        score = _score(lang_query, heading_tokens, doc_tokens, kind, found.relevance)
        if score is None:
            continue
        position = (values[at["book_id"]], values[at["position"]], found.section_id)
        ranked.append((-score, position, found, lang_query, doc_tokens))
    ranked.sort(key=lambda item: item[:2])

    ranked = ranked[:limit]
    books = indexed_books()
    hits = []
    for negative_score, _position, found, lang_query, doc_tokens in ranked:
        section = Section.from_db(connection.alias, columns, found.values)
        section.book = copy.copy(books[section.book_id])
        section_lang = section.book.lang
        tokens = lang_query.matched_tokens(doc_tokens)
        hits.append(
            SearchHit(
                section=section,
                score=round(-negative_score, 4),
                snippet=snippet(section.body, section_lang, tokens),
                heading_html=highlight(section.heading, section_lang, tokens),
            )
        )
    return hits


def _score(
    lang_query: LangQuery,
    heading_tokens: set[str],
    doc_tokens: set[str],
    kind: str,
    backend_relevance: float,
) -> float | None:
    """The section's score, or None when it matches no unit of the query in full (only a
    piece of a phrase: "armée" alone for "Général d'Armée").

    `doc_tokens`: the query tokens found in the section (heading or body).
    """
    coverage = lang_query.coverage(doc_tokens)
    if coverage == 0.0:
        return None
    heading_coverage = lang_query.coverage(heading_tokens)
    score = W_COVERAGE * coverage + W_HEADING * heading_coverage + W_BACKEND * backend_relevance
    # Found in the book's own language rather than through a translation.
    score += W_DIRECT * lang_query.direct_coverage(doc_tokens)
    if heading_tokens and heading_coverage == 1.0:
        # Every query unit in the heading: prefer headings that say little else.
        query_tokens = lang_query.all_tokens
        score += W_HEADING_EXACT * len(heading_tokens & query_tokens) / len(heading_tokens)
    return score - KIND_PENALTY.get(kind, 0.0)


def index_sections(rows, lang: str) -> int:
    """Fill the normalised columns of sections of one language; the index follows them.

    `rows`: (id, heading, body, search_heading, search_body) tuples.
    """
    from rules.models import Section

    changed = []
    for section_id, heading, body, old_heading, old_body in rows:
        new_heading, new_body = normalise(heading, lang), normalise(body, lang)
        if new_heading != old_heading or new_body != old_body:
            changed.append((new_heading, new_body, section_id))
    if changed:
        table = connection.ops.quote_name(Section._meta.db_table)
        with connection.cursor() as cursor:
            cursor.executemany(
                f"UPDATE {table} SET search_heading = %s, search_body = %s WHERE id = %s",
                changed,
            )
    return len(changed)


_INDEX_FIELDS = ("id", "heading", "body", "search_heading", "search_body")


def index_book(book) -> int:
    """(Re-)index the sections of one Rulebook; returns how many sections changed.

    Importers call this after writing a book's sections. Safe to call again.
    """
    backend = get_backend()
    backend.ensure_index()
    with transaction.atomic():
        changed = index_sections(book.sections.values_list(*_INDEX_FIELDS), book.lang)
        if changed:
            backend.after_index()
    bump_version()
    return changed


def reindex_all() -> int:
    """Re-normalise every book and rebuild the index from scratch."""
    from rules.models import Rulebook

    backend = get_backend()
    changed = 0
    with transaction.atomic():
        for book in Rulebook.objects.all():
            changed += index_sections(book.sections.values_list(*_INDEX_FIELDS), book.lang)
        backend.rebuild()
    bump_version()
    return changed
