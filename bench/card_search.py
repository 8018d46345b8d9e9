"""Card-search latency over the full pool, and import time. Prints numbers; asserts nothing.

    .venv/bin/python bench/card_search.py [--community PATH] [--repeat 50]

Uses a scratch SQLite database unless DATABASE_URL is set (then that database is used as
the test database name prefix, like the test suite). Imports the whole shipped pool (the
TMG snapshot, or the community data with --community, and the Tactics cards), then times
every query as the card API answers one page of it: the number of matches, then the first
50 cards in order (`search_cards` over `cards_for_listing`). The queries include the empty
query (every card) and queries with no hits; each query's own p50/p95 is printed.
"""

import argparse
import io
import statistics
import time

from harness import ROOT, import_card_snapshot, percentile, scratch_folder, start_django

TACTICS = ROOT / "cards" / "data" / "tactics-trident.json"

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
    "game:tactics gold>=1",
    "",
    # no hits: an unknown word, an impossible cost, an unknown ability, a typo
    "zzxqv",
    "faction:stark cost>=20",
    "ability:nonexistentability",
    "jaimr lanister",
]
PAGE = 50


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
    from cards.selectors import cards_for_listing

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
        call_command("import_cards", "--source", "citadel-json", str(TACTICS), "--no-progress",
                     stdout=io.StringIO())  # fmt: skip
        return time.perf_counter() - started

    import_seconds = import_cards()
    reimport_seconds = import_cards()  # nothing changed: every card is skipped

    print(f"cards: {Card.objects.count()} ({Card.objects.filter(game='tactics').count()} Tactics)")
    print(f"import: {import_seconds:.2f} s   re-import (no change): {reimport_seconds:.2f} s")
    print(f"{'query':45} {'hits':>5} {'p50 ms':>8} {'p95 ms':>8}")
    all_timings: list[float] = []
    worst = 0.0
    for query in QUERIES:
        hits = search_cards(query).count()
        timings = []
        for _ in range(args.repeat):
            started = time.perf_counter()
            page = search_cards(query, queryset=cards_for_listing())
            page.count()
            list(page[:PAGE])
            timings.append((time.perf_counter() - started) * 1000)
        all_timings.extend(timings)
        p50, p95 = percentile(timings, 0.5), percentile(timings, 0.95)
        worst = max(worst, p95)
        print(f"{query or '(empty)':45} {hits:>5} {p50:>8.2f} {p95:>8.2f}")
    print(
        f"all queries: p50 {statistics.median(all_timings):.2f} ms, "
        f"p95 {percentile(all_timings, 0.95):.2f} ms over {len(all_timings)} searches; "
        f"worst query p95 {worst:.2f} ms"
    )


if __name__ == "__main__":
    main()
