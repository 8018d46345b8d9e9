"""Validator throughput and check-batch time. Prints numbers; asserts nothing.

    .venv/bin/python bench/list_checking.py [--lists 1000]

Loads the shipped snapshot into a scratch SQLite database (or DATABASE_URL), then:
1. the pure validator on a 50-point list: lists/s and median µs per list;
2. checking N pasted lists end to end (parse, resolve names, validate, deck, canonical
   text) through the same service as POST /api/v1/lists/check-batch/;
3. turning that typed batch result into JSON, as a share of the time checking it took;
4. the same batch through the HTTP endpoint with Django's test client.
"""

import argparse
import json
import statistics
import time
from dataclasses import replace

from harness import ROOT, migrate_with_cards, scratch_folder, start_django

REAL_LISTS = ROOT / "tests" / "armybuilder" / "real_lists"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lists", type=int, default=1000)
    args = parser.parse_args()

    scratch_folder()
    start_django()
    from django.test import Client

    from armybuilder.checking import check_many
    from armybuilder.listtext.tmg import parse_tmg_text
    from armybuilder.pool import tmg_pool
    from armybuilder.serializers import batch_json
    from armybuilder.tmg.from_text import build_tmg_draft
    from armybuilder.tmg.rulesets import get_ruleset
    from armybuilder.tmg.validator import validate_army

    migrate_with_cards()
    texts = [path.read_text(encoding="utf-8") for path in sorted(REAL_LISTS.glob("*.txt"))]

    started = time.perf_counter()
    pool = tmg_pool()
    print(f"card pool: {len(pool.cards)} cards loaded in {time.perf_counter() - started:.2f} s")

    fifty = [t for t in texts if "Points: 50" in t]
    drafts = []
    for text in fifty:
        build = build_tmg_draft(
            parse_tmg_text(text),
            index=pool.index,
            factions=pool.faction_aliases,
            ruleset=get_ruleset(),
        )
        drafts.append((build.draft, pool.context_for(build.draft.faction)))
    timings = []
    for _ in range(200):
        # A fresh copy each time: nothing computed for one validation is reused.
        fresh = [(replace(draft), context) for draft, context in drafts]
        for draft, context in fresh:
            started = time.perf_counter_ns()
            validate_army(draft, context)
            timings.append((time.perf_counter_ns() - started) / 1000)
    median = statistics.median(timings)
    print(
        f"validator, 50-point lists: median {median:.1f} µs per list, "
        f"{1_000_000 / statistics.mean(timings):,.0f} lists/s ({len(timings)} runs)"
    )

    batch = [(f"list-{i}", texts[i % len(texts)]) for i in range(args.lists)]
    started = time.perf_counter()
    result = check_many(batch)
    service_seconds = time.perf_counter() - started
    print(
        f"check-batch service, {args.lists} lists: {service_seconds:.2f} s "
        f"({args.lists / service_seconds:,.0f} lists/s), legal {result.summary.legal}"
    )

    started = time.perf_counter()
    batch_json(result)
    json_seconds = time.perf_counter() - started
    print(
        f"serializing that batch (contracts §3 JSON): {json_seconds:.2f} s, "
        f"{json_seconds / service_seconds:.0%} of the time checking it took"
    )

    client = Client()
    body = json.dumps({"lists": [{"id": i, "text": t} for i, t in batch]})
    started = time.perf_counter()
    response = client.post("/api/v1/lists/check-batch/", body, content_type="application/json")
    http_seconds = time.perf_counter() - started
    print(
        f"POST /api/v1/lists/check-batch/, {args.lists} lists: {http_seconds:.2f} s "
        f"(status {response.status_code}, {len(response.content) / 1e6:.1f} MB response)"
    )


if __name__ == "__main__":
    main()
