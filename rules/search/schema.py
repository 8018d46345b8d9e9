"""The database objects behind the search index, per vendor (used by the migration
0002_search_index and, lazily, by the backends when they find them missing).

Both index the normalised columns `rules_section.search_heading` (weighted high) and
`rules_section.search_body`, and follow them automatically:

- SQLite: an FTS5 table `rules_section_fts` (rowid = section id, columns heading and body)
  kept in sync by three triggers on `rules_section`;
- PostgreSQL: a stored generated column `rules_section.search_vector` =
  setweight(to_tsvector('simple', search_heading), 'A') ||
  setweight(to_tsvector('simple', search_body), 'B'), with a GIN index. The 'simple'
  configuration only splits and lower-cases: the text is already normalised by
  `rules.search.normalise`, so both backends see the same tokens.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

FTS_TABLE = "rules_section_fts"
SECTION_TABLE = "rules_section"
PG_COLUMN = "search_vector"
PG_INDEX = "rules_section_search_vector_gin"

SQLITE_TRIGGERS = {
    f"{FTS_TABLE}_ai": f"""
        CREATE TRIGGER {FTS_TABLE}_ai AFTER INSERT ON {SECTION_TABLE} BEGIN
            INSERT INTO {FTS_TABLE}(rowid, heading, body)
            VALUES (new.id, new.search_heading, new.search_body);
        END""",
    f"{FTS_TABLE}_ad": f"""
        CREATE TRIGGER {FTS_TABLE}_ad AFTER DELETE ON {SECTION_TABLE} BEGIN
            DELETE FROM {FTS_TABLE} WHERE rowid = old.id;
        END""",
    f"{FTS_TABLE}_au": f"""
        CREATE TRIGGER {FTS_TABLE}_au AFTER UPDATE ON {SECTION_TABLE}
        WHEN old.search_heading IS NOT new.search_heading
          OR old.search_body IS NOT new.search_body
          OR old.id IS NOT new.id
        BEGIN
            DELETE FROM {FTS_TABLE} WHERE rowid = old.id;
            INSERT INTO {FTS_TABLE}(rowid, heading, body)
            VALUES (new.id, new.search_heading, new.search_body);
        END""",
}
SQLITE_CREATE_TABLE = (
    f"CREATE VIRTUAL TABLE IF NOT EXISTS {FTS_TABLE} USING fts5("
    "heading, body, tokenize = 'unicode61 remove_diacritics 0')"
)
SQLITE_REBUILD = [
    f"DELETE FROM {FTS_TABLE}",
    f"INSERT INTO {FTS_TABLE}(rowid, heading, body) "
    f"SELECT id, search_heading, search_body FROM {SECTION_TABLE}",
    f"INSERT INTO {FTS_TABLE}({FTS_TABLE}) VALUES ('optimize')",
]

PG_CREATE = [
    f"""ALTER TABLE {SECTION_TABLE} ADD COLUMN IF NOT EXISTS {PG_COLUMN} tsvector
        GENERATED ALWAYS AS (
            setweight(to_tsvector('simple'::regconfig, coalesce(search_heading, '')), 'A') ||
            setweight(to_tsvector('simple'::regconfig, coalesce(search_body, '')), 'B')
        ) STORED""",
    # fastupdate (the default) keeps imports fast; the backend flushes the GIN pending
    # list after each indexed book (`tidy_postgres`), as a long one slows every search.
    f"CREATE INDEX IF NOT EXISTS {PG_INDEX} ON {SECTION_TABLE} USING gin ({PG_COLUMN})",
]
PG_DROP = [
    f"DROP INDEX IF EXISTS {PG_INDEX}",
    f"ALTER TABLE {SECTION_TABLE} DROP COLUMN IF EXISTS {PG_COLUMN}",
]


def sqlite_missing(cursor) -> bool:
    """True when the FTS table or one of its triggers is missing (e.g. after SQLite
    rebuilt rules_section for a later migration, which drops triggers)."""
    names = set(SQLITE_TRIGGERS) | {FTS_TABLE}
    placeholders = ", ".join(["%s"] * len(names))
    cursor.execute(f"SELECT name FROM sqlite_master WHERE name IN ({placeholders})", sorted(names))
    return {row[0] for row in cursor.fetchall()} != names


def create_sqlite(cursor) -> None:
    """Create the FTS table and its triggers (if missing) and fill the table."""
    cursor.execute(SQLITE_CREATE_TABLE)
    for name, sql in SQLITE_TRIGGERS.items():
        cursor.execute(f"DROP TRIGGER IF EXISTS {name}")
        cursor.execute(sql)
    for sql in SQLITE_REBUILD:
        cursor.execute(sql)


def drop_sqlite(cursor) -> None:
    for name in SQLITE_TRIGGERS:
        cursor.execute(f"DROP TRIGGER IF EXISTS {name}")
    cursor.execute(f"DROP TABLE IF EXISTS {FTS_TABLE}")


def postgres_missing(cursor) -> bool:
    """True when the generated column or its GIN index is missing."""
    cursor.execute(
        "SELECT 1 FROM information_schema.columns WHERE table_name = %s AND column_name = %s "
        "AND table_schema = current_schema()",
        [SECTION_TABLE, PG_COLUMN],
    )
    if cursor.fetchone() is None:
        return True
    cursor.execute("SELECT to_regclass(%s)", [PG_INDEX])
    return cursor.fetchone()[0] is None


def create_postgres(cursor) -> None:
    # ALTER TABLE refuses to run while deferred foreign-key checks are pending.
    cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    for sql in PG_CREATE:
        cursor.execute(sql)


def tidy_postgres(cursor) -> None:
    """Flush the GIN pending list into the index (after an import)."""
    cursor.execute(
        "SELECT gin_clean_pending_list(c.oid) FROM pg_class AS c WHERE c.oid = to_regclass(%s)",
        [PG_INDEX],
    )


def drop_postgres(cursor) -> None:
    cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    for sql in PG_DROP:
        cursor.execute(sql)


def create(connection) -> None:
    """Create the search index for the connection's vendor (nothing on other vendors)."""
    _for_vendor(connection, sqlite=create_sqlite, postgresql=create_postgres)


def drop(connection) -> None:
    _for_vendor(connection, sqlite=drop_sqlite, postgresql=drop_postgres)


def _for_vendor(connection, **steps: Callable[[Any], None]) -> None:
    """Run the step named after the connection's vendor, if there is one, in one cursor."""
    step = steps.get(connection.vendor)
    if step is not None:
        with connection.cursor() as cursor:
            step(cursor)
