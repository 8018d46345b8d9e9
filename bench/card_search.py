"""Card-search latency over the full TMG pool, and import time. Prints numbers; asserts nothing.

    .venv/bin/python bench/card_search.py [--community PATH] [--repeat 50]

Uses a scratch SQLite database unless DATABASE_URL is set (then that database is used as
the test database name prefix, like the test suite). Imports the shipped snapshot, or the
community data when --community is given, then times a fixed set of queries.
"""

import argparse
import statistics
import time

from harness import import_card_snapshot, percentile, scratch_folder, start_django

QUERIES = [
    "jaime",
    "régicide",
    "faction:stark kind:attachment",
    "type:cavalry cost<=5 sort:cost dir:desc",
    "ability:vicious -faction:lannister",
    "(faction:stark or faction:bolton) speed>=6",
    "commander:yes faction:neutral",
    'character:"jaime lannister"',
    "kind:tactics faction:targaryen",
    "version:s03 defense<=3",
    "game:tactics",
    "",
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--community", help="path to asoiaf-tmg-data (default: shipped snapshot)")
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args()

    scratch_folder()
    start_django()
    from django.core.management import call_command
    from django.db import connection

    from cards.models import Card
    from cards.query import search_cards

    print(f"database: {connection.vendor}")
    call_command("migrate", verbosity=0)

    def import_cards() -> float:
        started = time.perf_counter()
        if args.community:
            call_command(
                "import_cards", "--source", "asoiaf-tmg-data", args.community, "--no-progress"
            )
        else:
            import_card_snapshot(quiet=False)
        return time.perf_counter() - started

    import_seconds = import_cards()
    reimport_seconds = import_cards()  # nothing changed: every card is skipped

    print(f"cards: {Card.objects.count()}")
    print(f"import: {import_seconds:.2f} s   re-import (no change): {reimport_seconds:.2f} s")
    print(f"{'query':45} {'hits':>5} {'p50 ms':>8} {'p95 ms':>8}")
    all_timings: list[float] = []
    for query in QUERIES:
        hits = search_cards(query).count()
        timings = []
        for _ in range(args.repeat):
            started = time.perf_counter()
            list(search_cards(query)[:50])
            timings.append((time.perf_counter() - started) * 1000)
        all_timings.extend(timings)
        p50, p95 = percentile(timings, 0.5), percentile(timings, 0.95)
        print(f"{query or '(empty)':45} {hits:>5} {p50:>8.2f} {p95:>8.2f}")
    print(
        f"all queries: p50 {statistics.median(all_timings):.2f} ms, "
        f"p95 {percentile(all_timings, 0.95):.2f} ms over {len(all_timings)} searches"
    )


if __name__ == "__main__":
    main()
