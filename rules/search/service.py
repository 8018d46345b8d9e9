"""Indexing and searching rulebook sections (the one interface over both backends).

    search_sections("corbeau messager", lang="fa")   -> [SearchHit, …] best first
    index_book(book)                                  -> fill the normalised columns
    reindex_all()                                     -> every book, and rebuild the index

A query is planned (rules.search.query: languages, game terms, lexicon words, typo fixes)
and ranked by the in-memory index of the books (rules.search.index): the same ranking on
both databases. While a large index is being built, the database backend (SQLite FTS5 or
PostgreSQL full-text search) retrieves the candidates, which the same ranking orders.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from django.db import connection, transaction
from django.db.models.base import ModelState

from .backends import get_backend, section_columns
from .glossary import load_dictionary, load_terms
from .index import PASSAGES, SearchIndex, SectionRow
from .normalise import normalise
from .query import QueryPlan, plan_query
from .snippets import highlight, snippet
from .vocabulary import books as indexed_books
from .vocabulary import bump_version, current_index, remember_meanings, shown_fields

MAX_QUERY_LENGTH = 500
MAX_LIMIT = 100
CANDIDATES = 60  # per language, from the database backend while the index is built


@dataclass(frozen=True)
class SearchHit:
    section: object  # rules.models.Section
    score: float  # higher is better
    snippet: str  # safe HTML: escaped text with <mark>…</mark>
    heading_html: str  # safe HTML: escaped heading with <mark>…</mark>
    explanation: dict | None = None  # why it ranked (explain=True)


# The scopes of the filters met so far, and the dict of books they were found in: they
# are forgotten with those books (replaced whole, so that threads never see half of it).
_ScopeKey = tuple[str | None, str | None, str | None]
_scopes: tuple[object, dict[_ScopeKey, dict[str, list[int]]]] = (None, {})


def _books_in_scope(lang: str | None, book: str | None, game: str | None) -> dict[str, list[int]]:
    """Book language -> ids of the rulebooks to search (remembered per set of filters
    until the books change: do not modify the result)."""
    global _scopes
    books = indexed_books()
    owner, known = _scopes
    if owner is not books or len(known) > 256:
        known = {}
        _scopes = (books, known)
    scope = known.get((lang, book, game))
    if scope is None:
        scope = known[lang, book, game] = _filtered_books(books, lang, book, game)
    return scope


def _filtered_books(
    books: dict[int, Any], lang: str | None, book: str | None, game: str | None
) -> dict[str, list[int]]:
    scope: dict[str, list[int]] = {}
    for book_id, rulebook in books.items():
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
    explain: bool = False,
) -> list[SearchHit]:
    """Sections matching `query` (any language: EN, FR or FA), best first.

    `lang`, `book` (a rulebook slug) and `game` filter the rulebooks searched. An empty
    query, or one made of stop words only, finds nothing. With `explain`, each hit carries
    why it ranked (see SearchIndex.explain).
    """
    query = (query or "").strip()[:MAX_QUERY_LENGTH]
    limit = max(1, min(int(limit), MAX_LIMIT))
    if not query:
        return []
    scope = _books_in_scope(lang, book, game)
    if not scope:
        return []
    index = current_index()
    vocabularies = index.vocabularies if index is not None else {}
    plan = plan_query(query, scope.keys(), load_terms(), vocabularies, load_dictionary())
    if not plan:
        return []
    book_ids = [book_id for ids in scope.values() for book_id in ids]
    game_boost = not (game or book)
    if index is None:
        index, sections = _candidates(plan, scope, limit)
        if not sections:
            return []
    else:
        sections = None
    shown = _Shown(index, plan, sections)
    ranked, vectors = index.rank(
        plan,
        scope=index.scope(book_ids),
        limit=limit,
        game_boost=game_boost,
        meaning=functools.partial(index.meaning_of, plan),
        meanwhile=shown.prepare,
    )
    if not ranked:
        return []
    shown.prepare([r.position for r in ranked], vectors)
    hits = []
    for position, score in ranked:
        parts = shown.parts.get(position)
        if parts is None:  # deleted since the index was built
            continue
        section, snippet_html, heading_html = parts
        hits.append(
            SearchHit(
                section=section,
                score=round(score, 4),
                snippet=snippet_html,
                heading_html=heading_html,
                explanation=index.explain(
                    plan,
                    position,
                    game_boost=game_boost,
                    best_passage=vectors.best_passage,
                    passages=vectors.passage,
                    meaning=vectors.meaning,
                )
                if explain
                else None,
            )
        )
    return hits


class _Shown:
    """What a hit shows of the sections at some index positions (the Section, its snippet
    and its highlighted heading), made once per position. `prepare` is called twice: by
    the ranking for the sections the words rank best while the meaning models read the
    question in other threads (they are most of the results: the meaning only reorders
    them, and adds at most a few picks), then for the results, making what is missing."""

    def __init__(self, index: SearchIndex, plan: QueryPlan, sections: dict | None) -> None:
        self.index, self.plan, self.sections = index, plan, sections
        self.parts: dict[int, tuple[Any, str, str] | None] = {}
        self.indexed = indexed_books()  # read once: both calls see the same books
        self.books: dict[int, object] = {}  # one copy of each cached book per search

    def prepare(self, positions: list[int], vectors) -> None:
        index, plan = self.index, self.plan
        todo = [position for position in positions if position not in self.parts]
        if not todo:
            return
        sections = self.sections
        if sections is None:
            sections = _load_sections([int(index.ids[p]) for p in todo], index.shown)
        found_tokens: dict[int, set[str]] = {}
        for lang_query in plan.langs.values():
            in_lang = [p for p in todo if index.langs[p] == lang_query.lang]
            if in_lang:
                found_tokens.update(index.doc_tokens(lang_query, in_lang))
        from rules.models import Section

        book_field = Section.book.field
        for position in todo:
            section = sections.get(int(index.ids[position]))
            if section is None:
                self.parts[position] = None
                continue
            if section.book_id not in self.books:
                self.books[section.book_id] = _clone(self.indexed[section.book_id])
            # The section's own book (same id): cached as its related object directly,
            # without the descriptor's checks of type and database router (a tenth of the
            # cost).
            book_field.set_cached_value(section, self.books[section.book_id])
            section_lang = section.book.lang
            lang_query = plan.langs.get(section_lang)
            tokens = (
                lang_query.matched_tokens(found_tokens.get(position, set()))
                if lang_query is not None
                else set()
            )
            candidates = lang_query.all_tokens if lang_query is not None else None
            line = vectors.best_passage.get(position)
            line = line if line is not None and line < PASSAGES - 1 else None  # past: merged
            self.parts[position] = (
                section,
                snippet(section.body, section_lang, tokens, line=line, candidates=candidates),
                highlight(section.heading, section_lang, tokens, candidates),
            )


def _clone(instance):
    """A shallow copy of a cached model instance and of its state, as `copy.copy` makes
    them (without going through pickling's protocol: faster)."""
    clone = object.__new__(type(instance))
    clone.__dict__.update(instance.__dict__)
    clone._state = ModelState()
    clone._state.__dict__.update(instance._state.__dict__)
    return clone


def _load_sections(ids: list[int], shown: dict[int, tuple]) -> dict:
    """Section id -> Section (without its raw text and search columns): from the columns
    the index keeps, else in one query."""
    from rules.models import Section

    fields = shown_fields()
    rows = [shown[i] for i in ids if i in shown]
    if len(rows) < len(ids):
        table = connection.ops.quote_name(Section._meta.db_table)
        columns = ", ".join(connection.ops.quote_name(name) for name in fields)
        placeholders = ", ".join(["%s"] * len(ids))
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT {columns} FROM {table} WHERE id IN ({placeholders})", ids)
            rows = cursor.fetchall()
    at = fields.index("id")
    alias = connection.alias  # read once: the connection proxy looks it up per thread
    return {row[at]: _section(Section, fields, row, alias) for row in rows}


def _section(model, fields: tuple[str, ...], row: tuple, alias: str):
    """A model instance from database values (of the `alias` database), as `Model.from_db`
    makes it but without its signals and per-field checks (every concrete field but the
    deferred search columns is set: a fifth of the cost)."""
    instance = object.__new__(model)
    instance.__dict__.update(zip(fields, row, strict=True))
    instance._state = ModelState()
    instance._state.adding = False
    instance._state.db = alias
    return instance


def _candidates(plan: QueryPlan, scope: dict[str, list], limit: int):
    """While the index is being built: the sections the database backend finds (any query
    token), as a small SearchIndex ranked like the full one, and their Section objects."""
    from rules.models import Section

    backend = get_backend()
    columns = section_columns()
    at = {name: columns.index(name) for name in columns}
    books = indexed_books()
    found: dict[int, tuple] = {}
    for target, lang_query in plan.langs.items():
        pool = max(CANDIDATES, limit * 2)
        for candidate in backend.match(lang_query, mode="any", book_ids=scope[target], limit=pool):
            found.setdefault(candidate.section_id, candidate.values)
    rows, sections = [], {}
    for section_id, values in found.items():
        rulebook = books.get(values[at["book_id"]])
        if rulebook is None:
            continue
        rows.append(
            SectionRow(
                section_id,
                rulebook.id,
                rulebook.lang,
                rulebook.game,
                values[at["kind"]],
                values[at["position"]],
                values[at["search_heading"]],
                values[at["search_body"]],
                values[at["heading"]],
                values[at["body"]],
            )
        )
        sections[section_id] = Section.from_db(connection.alias, columns, values)
    return SearchIndex(rows, load_terms(), uniform_idf=True, surface_words=False), sections


def normalise_paragraphs(body: str, lang: str) -> str:
    """The search tokens of a body, line for line (a line of text is a paragraph or a
    bullet; blank lines stay, empty): the backends read the line breaks as spaces, the
    index as passages (an answer whose words stand together ranks higher, and its
    snippet shows that line)."""
    return "\n".join(normalise(line, lang) for line in (body or "").splitlines())


def index_sections(rows, lang: str) -> int:
    """Fill the normalised columns of sections of one language; the index follows them.

    `rows`: (id, heading, body, search_heading, search_body) tuples.
    """
    from rules.models import Section

    changed = []
    for section_id, heading, body, old_heading, old_body in rows:
        new_heading, new_body = normalise(heading, lang), normalise_paragraphs(body, lang)
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
    remember_meanings(book)
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
