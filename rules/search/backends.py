"""The two search backends behind one interface, chosen by the database vendor.

A backend only *retrieves*: given the plan for one language (`LangQuery`), the books to
look in and a mode ("all": every unit of an interpretation must match; "any": one token
is enough), it returns up to `limit` `Candidate`s, best first, whose relevance >= 0 grows
with the match quality (heading tokens weigh more than body tokens).
Ranking, snippets and everything else is shared Python code (`rules.search.service`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any, Literal, NamedTuple, Protocol

from django.db import connection as default_connection

from . import schema
from .notes import NOTE_PREFIX
from .query import Interpretation, LangQuery, Unit

Mode = Literal["all", "any"]

HEADING_WEIGHT = 8.0
BODY_WEIGHT = 1.0


class Candidate(NamedTuple):
    section_id: int
    relevance: float
    values: tuple  # the Section columns named by section_columns(), in that order


@lru_cache(maxsize=1)
def section_columns() -> tuple[str, ...]:
    """Section columns a backend returns with each candidate: all but `raw` (audit text)."""
    from rules.models import Section

    return tuple(f.attname for f in Section._meta.concrete_fields if f.attname != "raw")


def _select_columns() -> str:
    return ", ".join(f"s.{default_connection.ops.quote_name(c)}" for c in section_columns())


class SearchBackend(Protocol):
    vendor: str

    def ensure_index(self) -> None: ...

    def rebuild(self) -> None: ...

    def after_index(self) -> None: ...

    def match(
        self, query: LangQuery, *, mode: Mode, book_ids: Sequence[int], limit: int
    ) -> list[Candidate]: ...


# --- query rendering (pure) ---------------------------------------------------------------


def _fts5_term(token: str) -> str:
    return '"' + token.replace('"', '""') + '"'


def _ts_term(token: str) -> str:
    return "'" + token.replace("\\", "\\\\").replace("'", "''") + "'"


def _render(query: LangQuery, mode: Mode, term, and_: str, or_: str) -> str:
    """The query for the database, without the note tokens (rules.search.notes): the
    database never holds them, only the in-memory index does."""
    if mode == "any":
        tokens = sorted(t for t in query.tokens() if not t.startswith(NOTE_PREFIX))
        return f" {or_} ".join(term(token) for token in tokens)

    def phrase(tokens: tuple[str, ...]) -> str:
        inner = f" {and_} ".join(term(token) for token in tokens)
        return f"({inner})" if len(tokens) > 1 else inner

    def unit(part: Unit) -> str:
        alternatives = [p for p in part.alternatives if not p[0].startswith(NOTE_PREFIX)]
        inner = f" {or_} ".join(phrase(p) for p in alternatives)
        return f"({inner})" if len(alternatives) > 1 else inner

    def interpretation(units: Interpretation) -> str:
        return "(" + f" {and_} ".join(unit(u) for u in units) + ")"

    return f" {or_} ".join(interpretation(i) for i in query.interpretations if i)


def fts5_expression(query: LangQuery, mode: Mode) -> str:
    """The FTS5 MATCH expression, e.g. `("corbeau" AND "messag") OR "raven"`."""
    return _render(query, mode, _fts5_term, "AND", "OR")


def tsquery_expression(query: LangQuery, mode: Mode) -> str:
    """The PostgreSQL tsquery text, e.g. `('corbeau' & 'messag') | 'raven'`."""
    return _render(query, mode, _ts_term, "&", "|")


def _relevance(value: float) -> float:
    value = max(0.0, float(value or 0.0))
    return value / (1.0 + value)


class _DatabaseBackend:
    """What both backends share: their connection, and an index that is created the first
    time it is found missing (a database migrated before the index existed, or SQLite
    having rebuilt the table and dropped its triggers)."""

    vendor: str
    # The vendor's functions in rules.search.schema, set by each backend.
    _index_missing: Callable[[Any], bool]
    _create_index: Callable[[Any], None]

    def __init__(self, connection=None):
        self.connection = connection or default_connection
        self._checked = False

    def ensure_index(self) -> None:
        with self.connection.cursor() as cursor:
            if self._index_missing(cursor):
                self._create_index(cursor)
        self._checked = True


# --- SQLite FTS5 --------------------------------------------------------------------------


class SqliteFts5Backend(_DatabaseBackend):
    vendor = "sqlite"
    _index_missing = staticmethod(schema.sqlite_missing)
    _create_index = staticmethod(schema.create_sqlite)

    def rebuild(self) -> None:
        with self.connection.cursor() as cursor:
            schema.create_sqlite(cursor)

    def after_index(self) -> None:
        """Nothing to do: the triggers already updated the index."""

    def match(self, query, *, mode, book_ids, limit):
        if not book_ids or not query.interpretations:
            return []
        if not self._checked:
            self.ensure_index()
        expression = fts5_expression(query, mode)
        placeholders = ", ".join(["%s"] * len(book_ids))
        # Rank in a subquery, then read the (long) normalised columns of the best rows only.
        sql = (
            f"SELECT s.id, m.rank, {_select_columns()} FROM ("
            f"  SELECT f.rowid AS id, bm25({schema.FTS_TABLE}, %s, %s) AS rank"
            f"  FROM {schema.FTS_TABLE} AS f JOIN {schema.SECTION_TABLE} AS b ON b.id = f.rowid"
            f"  WHERE {schema.FTS_TABLE} MATCH %s AND b.book_id IN ({placeholders})"
            "   ORDER BY rank LIMIT %s"
            f") AS m JOIN {schema.SECTION_TABLE} AS s ON s.id = m.id ORDER BY m.rank"
        )
        params = [HEADING_WEIGHT, BODY_WEIGHT, expression, *book_ids, limit]
        with self.connection.cursor() as cursor:
            cursor.execute(sql, params)
            # bm25() is negative, lower is better.
            return [Candidate(r[0], _relevance(-r[1]), r[2:]) for r in cursor.fetchall()]


# --- PostgreSQL full-text search ----------------------------------------------------------


class PostgresBackend(_DatabaseBackend):
    vendor = "postgresql"
    _index_missing = staticmethod(schema.postgres_missing)
    _create_index = staticmethod(schema.create_postgres)
    # ts_rank weights for {D, C, B, A}: body is B, heading is A.
    WEIGHTS = "{0.0, 0.0, %s, 1.0}" % (BODY_WEIGHT / HEADING_WEIGHT)

    def rebuild(self) -> None:
        # The generated column follows search_heading/search_body by itself.
        self.ensure_index()
        self.after_index()
        with self.connection.cursor() as cursor:
            cursor.execute(f"ANALYZE {schema.SECTION_TABLE}")

    def after_index(self) -> None:
        with self.connection.cursor() as cursor:
            schema.tidy_postgres(cursor)

    def match(self, query, *, mode, book_ids, limit):
        if not book_ids or not query.interpretations:
            return []
        if not self._checked:
            self.ensure_index()
        sql = (
            f"SELECT s.id, m.rank, {_select_columns()} FROM ("
            f"  SELECT b.id, ts_rank(%s::float4[], b.{schema.PG_COLUMN}, q, 1) AS rank"
            f"  FROM {schema.SECTION_TABLE} AS b, to_tsquery('simple', %s) AS q"
            f"  WHERE b.{schema.PG_COLUMN} @@ q AND b.book_id = ANY(%s)"
            "   ORDER BY rank DESC, b.id LIMIT %s"
            f") AS m JOIN {schema.SECTION_TABLE} AS s ON s.id = m.id ORDER BY m.rank DESC, s.id"
        )
        params = [self.WEIGHTS, tsquery_expression(query, mode), list(book_ids), limit]
        with self.connection.cursor() as cursor:
            cursor.execute(sql, params)
            return [Candidate(r[0], _relevance(r[1] * 10), r[2:]) for r in cursor.fetchall()]


_BACKENDS = {"sqlite": SqliteFts5Backend, "postgresql": PostgresBackend}
_instances: dict[tuple[str, str], SearchBackend] = {}


def get_backend(connection=None) -> SearchBackend:
    """The backend for the connection's database vendor (SQLite FTS5 unless PostgreSQL)."""
    connection = connection or default_connection
    key = (connection.alias, connection.vendor)
    if key not in _instances:
        backend_class = _BACKENDS.get(connection.vendor)
        if backend_class is None:
            raise NotImplementedError(f"rules search has no backend for {connection.vendor}")
        _instances[key] = backend_class(connection)
    return _instances[key]
