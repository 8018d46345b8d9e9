"""Rules-search benchmark: index build time and search latency per backend. Prints numbers;
asserts nothing.

    .venv/bin/python bench/rules_search.py [--sections 10000] [--repeat 5] [--verbose]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/citadel .venv/bin/python bench/rules_search.py

Needs ../shared/rulebooks (or CITADEL_SHARED_DIR). The five real rulebooks are imported
(`manage.py import_rulebook`, as in tests/rules/test_search_relevance.py), then copied with
variations (words dropped and swapped, per copy) until the corpus holds at least
--sections sections. Each backend runs in its own process on a scratch database: SQLite
(FTS5) always, in a temporary file; PostgreSQL when DATABASE_URL points at one, in a
scratch database `<name>_bench_rules` that is dropped afterwards. The queries are the 50
of the relevance test set (EN/FR/FA, typos, cross-language), with their filters, then the
same without filters.
"""

import argparse
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

from harness import percentile, start_django

# What a varied copy of a section keeps (its body is varied, its search columns reindexed).
COPIED_FIELDS = ("slug", "position", "depth", "kind", "heading", "body", "rule_key")


def vary(text: str, rng: random.Random) -> str:
    """The same text with about one word in ten dropped and one in twenty swapped."""
    words = text.split(" ")
    out = [w for w in words if rng.random() > 0.1]
    for i in range(len(out) - 1):
        if rng.random() < 0.05:
            out[i], out[i + 1] = out[i + 1], out[i]
    return " ".join(out)


def build_corpus(target: int) -> tuple[int, float, float]:
    """Import the real books, add varied copies up to `target` sections, index everything.
    Returns (sections, seconds to write the copies, seconds to index)."""
    from django.conf import settings  # noqa: F401  (django is set up)

    from rules.models import Rulebook, Section
    from rules.search import index_book
    from tests.conftest import SHARED_DIR
    from tests.rules.test_search_relevance import import_real_books

    started = time.perf_counter()
    importer = import_real_books(SHARED_DIR / "rulebooks")
    print(f"real books imported and indexed with {importer}: {time.perf_counter() - started:.2f} s")
    originals = list(Rulebook.objects.all())
    base = Section.objects.filter(book__in=originals).count()
    copies = max(0, math.ceil((target - base) / max(base, 1)))

    started = time.perf_counter()
    new_books = []
    for n in range(1, copies + 1):
        for book in originals:
            rng = random.Random(f"{book.slug}-{n}")
            copy = Rulebook.objects.create(
                slug=f"{book.slug}-copy-{n:03d}", lang=book.lang, game=book.game, title=book.title
            )
            rows = Section.objects.filter(book=book).values(*COPIED_FIELDS)
            Section.objects.bulk_create(
                [Section(book=copy, **{**row, "body": vary(row["body"], rng)}) for row in rows],
                batch_size=1000,
            )
            new_books.append(copy)
    write_seconds = time.perf_counter() - started

    started = time.perf_counter()
    for book in new_books:
        index_book(book)
    index_seconds = time.perf_counter() - started
    return Section.objects.count(), write_seconds, index_seconds


def run_backend(args) -> None:
    """One backend, in this process: DATABASE_URL is set by the parent."""
    start_django()
    from django.core.management import call_command
    from django.db import connection

    from rules.search import search_sections
    from rules.search.backends import get_backend
    from tests.rules.test_search_relevance import CASES

    scratch_pg = connection.vendor == "postgresql"
    if scratch_pg:
        connection.settings_dict.setdefault("TEST", {})
        connection.settings_dict["TEST"]["NAME"] = f"{connection.settings_dict['NAME']}_bench_rules"
        connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    else:
        call_command("migrate", verbosity=0)
    try:
        backend = get_backend()
        print(f"\n== backend: {connection.vendor} ({type(backend).__name__})")
        sections, write_seconds, index_seconds = build_corpus(args.sections)
        rate = sections / index_seconds if index_seconds else float("inf")
        print(f"corpus: {sections} sections (copies written in {write_seconds:.2f} s)")
        print(f"index build (normalise + index) of the copies: {index_seconds:.2f} s "
              f"({rate:.0f} sections/s)")  # fmt: skip

        started = time.perf_counter()
        search_sections("warm up")
        print(
            f"first search (loads the vocabulary): {(time.perf_counter() - started) * 1000:.0f} ms"
        )

        queries = [(c.query, dict(c.filters)) for c in CASES]
        queries += [(c.query, {}) for c in CASES if c.filters]
        timings: list[float] = []
        for query, filters in queries:
            own: list[float] = []
            for _ in range(args.repeat):
                started = time.perf_counter()
                hits = search_sections(query, **filters)
                own.append((time.perf_counter() - started) * 1000)
            timings += own
            if args.verbose:
                label = f"{query} {filters or ''}"[:50]
                print(f"  {label:50} {len(hits):>3} hits  p50 {statistics.median(own):6.2f} ms")
        print(
            f"search latency over {len(timings)} searches ({len(queries)} queries x "
            f"{args.repeat}): p50 {statistics.median(timings):.2f} ms, "
            f"p95 {percentile(timings, 0.95):.2f} ms, max {max(timings):.2f} ms"
        )
    finally:
        if scratch_pg:
            connection.creation.destroy_test_db(
                connection.settings_dict["NAME"], verbosity=0, keepdb=False
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sections", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--backend", choices=["sqlite", "postgresql"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.backend:
        run_backend(args)
        return

    runs = []
    scratch = tempfile.mkdtemp(prefix="citadel-bench-rules-")
    runs.append(("sqlite", f"sqlite:///{scratch}/bench.sqlite3"))
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith(("postgres://", "postgresql://", "pgsql://")):
        runs.append(("postgresql", url))
    else:
        print("PostgreSQL: not run (DATABASE_URL does not point at PostgreSQL)")
    for name, database_url in runs:
        env = dict(os.environ, DATABASE_URL=database_url)
        env.pop("REDIS_URL", None)
        command = [sys.executable, __file__, "--backend", name]
        command += ["--sections", str(args.sections), "--repeat", str(args.repeat)]
        command += ["--verbose"] if args.verbose else []
        subprocess.run(command, env=env, check=True)


if __name__ == "__main__":
    main()
