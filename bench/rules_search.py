"""Rules-search benchmark: index build, first search, search latency per backend and corpus
size, against a naive `icontains` scan of the same corpus in the same run. Prints numbers;
asserts nothing.

    .venv/bin/python bench/rules_search.py [--sections 10000 50000] [--repeat 3] [--verbose]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/citadel .venv/bin/python bench/rules_search.py
    CITADEL_MULTILINGUAL_MODEL= .venv/bin/python bench/rules_search.py   # the English model alone
    CITADEL_MEANING_MODEL= CITADEL_MULTILINGUAL_MODEL= .venv/bin/python bench/rules_search.py

Needs ../shared/rulebooks (or CITADEL_SHARED_DIR). The five real rulebooks are imported
(`manage.py import_rulebook`, as in tests/rules/test_search_relevance.py), then copied with
variations (words dropped and swapped, per copy) until the corpus holds each --sections
size in turn. Each backend runs in its own process on a scratch database: SQLite (FTS5)
always, in a temporary file; PostgreSQL when DATABASE_URL points at one, in a scratch
database `<name>_bench_rules` that is dropped afterwards.

The queries are those of both relevance sets (the 68 typed queries and the questions of
tests/rules/relevance), with their filters, then the unfiltered ones again without filters.
For each size it prints:

- the in-memory index build (done in a background thread in the service) and the first
  search after the corpus changed (answered through the database backend meanwhile);
- Citadel's latency over every query (`search_sections`, 20 results with snippets and
  highlighted headings, as the API answers) once the index is built;
- the naive scan's latency: every word of 3+ letters `icontains` the heading or the body
  (all words), 20 sections in the model's order, no snippets: what a plain Django search
  would do; and the ratio of the two (medians and means), with the load average;
- for both, each query's first run apart (what the search's per-word caches, such as typo
  corrections, and its per-query regex have not seen yet) and the CPU time per search.
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
    lines = []
    for line in text.split("\n"):
        words = line.split(" ")
        out = [w for w in words if rng.random() > 0.1]
        for i in range(len(out) - 1):
            if rng.random() < 0.05:
                out[i], out[i + 1] = out[i + 1], out[i]
        lines.append(" ".join(out))
    return "\n".join(lines)


def import_books() -> list:
    from rules.models import Rulebook
    from tests.conftest import SHARED_DIR
    from tests.rules.test_search_relevance import import_real_books

    started = time.perf_counter()
    importer = import_real_books(SHARED_DIR / "rulebooks")
    print(f"real books imported and indexed with {importer}: {time.perf_counter() - started:.2f} s")
    return list(Rulebook.objects.all())


def grow_corpus(originals: list, target: int, made: int) -> tuple[int, int, float, float]:
    """Add varied copies of the real books until the corpus holds `target` sections.
    Returns (sections, copies made so far, seconds to write, seconds to normalise)."""
    from rules.models import Rulebook, Section
    from rules.search import index_book

    base = Section.objects.filter(book__in=originals).count()
    copies = max(made, math.ceil((target - base) / max(base, 1)))
    started = time.perf_counter()
    new_books = []
    for n in range(made + 1, copies + 1):
        for book in originals:
            rng = random.Random(f"{book.slug}-{n}")
            copy = Rulebook.objects.create(
                slug=f"{book.slug}-copy-{n:03d}",
                lang=book.lang,
                game=book.game,
                title=book.title,
                edition_key=f"{book.edition_key}-copy-{n:03d}" if book.edition_key else "",
            )
            rows = Section.objects.filter(book=book).values(*COPIED_FIELDS)
            Section.objects.bulk_create(
                [Section(book=copy, **{**row, "body": vary(row["body"], rng)}) for row in rows],
                batch_size=1000,
            )
            new_books.append(copy)
    write_seconds = time.perf_counter() - started
    started = time.perf_counter()
    # The copies' body sentences are not encoded for the meaning model (their words are
    # varied: hundreds of thousands of new sentences, hours of encoding at import). A
    # search compares only its 20 candidates' sentences, so its cost does not depend on
    # how many are encoded; the copies' headings and notes are the originals', encoded.
    from django.test import override_settings

    with override_settings(CITADEL_MEANING_MODEL="", CITADEL_MULTILINGUAL_MODEL=""):
        for book in new_books:
            index_book(book)
    return Section.objects.count(), copies, write_seconds, time.perf_counter() - started


def naive_search(query: str, *, lang=None, game=None, book=None, limit: int = 20) -> list:
    """What a plain Django search does: every word icontains the heading or the body."""
    from django.db.models import Q

    from rules.models import Section

    sections = Section.objects.all()
    if lang:
        sections = sections.filter(book__lang=lang)
    if game:
        sections = sections.filter(book__game=game)
    if book:
        sections = sections.filter(book__slug=book)
    for word in query.split():
        if len(word) >= 3:
            sections = sections.filter(Q(heading__icontains=word) | Q(body__icontains=word))
    return list(sections.only("id", "heading")[:limit])


def load_average() -> str:
    try:
        with open("/proc/loadavg", encoding="ascii") as handle:
            return " ".join(handle.read().split()[:3])
    except OSError:
        return "unknown"


def queries() -> list[tuple[str, dict]]:
    from rules.search.relevance import load_cases
    from tests.rules.test_search_relevance import CASES, RELEVANCE_SET

    cases = [(c.query, dict(c.filters)) for c in CASES]
    cases += [(c.query, dict(c.filters)) for c in load_cases(RELEVANCE_SET)]
    return cases + [(query, {}) for query, filters in cases if filters]


def timed(function, query_list, repeat: int, verbose: bool = False) -> dict[str, list[float]]:
    """Per search, in ms: `wall` (every run), `first` (each query's first run: what the
    per-word caches of the search, such as typo corrections, have not seen yet) and `cpu`
    (the process's CPU time, every run, all its threads: the search encodes its question
    in a second thread; what the machine's load does not change)."""
    found: dict[str, list[float]] = {"wall": [], "first": [], "cpu": []}
    for query, filters in query_list:
        own = []
        for _ in range(repeat):
            started, cpu = time.perf_counter(), time.process_time()
            function(query, **filters)
            own.append((time.perf_counter() - started) * 1000)
            found["cpu"].append((time.process_time() - cpu) * 1000)
        found["wall"] += own
        found["first"].append(own[0])
        if verbose:
            label = f"{query} {filters or ''}"[:60]
            print(f"  {label:60} p50 {statistics.median(own):6.2f} ms")
    return found


def summary(timings: list[float]) -> str:
    return (f"p50 {statistics.median(timings):.2f} ms, p95 {percentile(timings, 0.95):.2f} ms, "
            f"mean {statistics.mean(timings):.2f} ms, max {max(timings):.2f} ms")  # fmt: skip


def run_backend(args) -> None:
    """One backend, in this process: DATABASE_URL is set by the parent."""
    start_django()
    from django.core.management import call_command
    from django.db import connection

    from rules.search import search_sections
    from rules.search.backends import get_backend
    from rules.search.vocabulary import current_index, meaning_models, warm_up

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
        models = meaning_models()
        print(
            f"meaning models: {', '.join(models.names)}"
            if models
            else "meaning models: off, words alone (CITADEL_MEANING_MODEL, "
            "CITADEL_MULTILINGUAL_MODEL)"
        )
        originals = import_books()
        query_list = queries()
        made = 0
        for target in args.sections:
            sections, made, write_seconds, index_seconds = grow_corpus(originals, target, made)
            print(f"\n-- corpus: {sections} sections (copies written in {write_seconds:.2f} s, "
                  f"normalised and indexed by the database in {index_seconds:.2f} s)")  # fmt: skip

            started = time.perf_counter()
            warm_up()  # what the first request of a process starts: a background build
            search_sections("ordre de marche")
            first = (time.perf_counter() - started) * 1000
            served_by = "database backend" if current_index() is None else "in-memory index"
            started = time.perf_counter()
            warm_up(wait=True)
            build = time.perf_counter() - started
            print(f"first search after the change: {first:.1f} ms ({served_by}, while the "
                  f"index builds in the background); index ready {build:.2f} s later")  # fmt: skip

            citadel = timed(search_sections, query_list, args.repeat, args.verbose)
            naive = timed(naive_search, query_list, args.repeat)
            searches = f"({len(query_list)} queries x {args.repeat})"
            for name, timings in (("citadel", citadel), ("naive icontains scan", naive)):
                print(f"{name:22} {len(timings['wall'])} searches {searches}: "
                      f"{summary(timings['wall'])}")  # fmt: skip
                print(f"{'':22} first run of each query: {summary(timings['first'])}")
                print(f"{'':22} CPU time: {summary(timings['cpu'])}")
            median_ratio = statistics.median(naive["wall"]) / statistics.median(citadel["wall"])
            mean_ratio = statistics.mean(naive["wall"]) / statistics.mean(citadel["wall"])
            print(f"citadel is {median_ratio:.1f}x faster than the scan at the median, "
                  f"{mean_ratio:.1f}x on average (load average {load_average()})")  # fmt: skip
    finally:
        if scratch_pg:
            connection.creation.destroy_test_db(
                connection.settings_dict["NAME"], verbosity=0, keepdb=False
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sections", type=int, nargs="+", default=[10_000])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--backend", choices=["sqlite", "postgresql"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.sections = sorted(args.sections)
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
        command = [sys.executable, __file__, "--backend", name, "--repeat", str(args.repeat)]
        command += ["--sections", *map(str, args.sections)]
        command += ["--verbose"] if args.verbose else []
        subprocess.run(command, env=env, check=True)


if __name__ == "__main__":
    main()
