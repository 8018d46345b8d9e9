"""Validator throughput and check-batch time. Prints numbers; asserts nothing.

    .venv/bin/python bench/list_checking.py [--lists 1000]

Loads the shipped snapshot into a scratch SQLite database (or DATABASE_URL), then:
1. the pure validator on a 50-point list: lists/s and median µs per list;
2. checking N pasted lists end to end (parse, resolve names, validate, deck, canonical
   text) through the same service as POST /api/v1/lists/check-batch/;
3. turning that typed batch result into JSON, as a share of the time checking it took;
4. the same batch through the HTTP endpoint with Django's test client;
5. N real-format pasted lists (bench/realformat.py: app exports, `with` lines, inline
   forms, costs, headers, footers, prose…) read and judged with a preloaded pool on one
   core, against the same N armies as War Council share codes: both times, lists/s, the
   ratio text/share-code, how many lists were read with no CARD_UNKNOWN, CARD_AMBIGUOUS or
   LIST_UNPARSEABLE (the reading rate) and how many exactly as built, and where the time
   of each path goes (cProfile on a second batch: parsing, name resolution, validation,
   the rest).
"""

import argparse
import cProfile
import json
import pstats
import statistics
import time
from collections import Counter
from dataclasses import replace

from harness import ROOT, migrate_with_cards, scratch_folder, start_django

REAL_LISTS = ROOT / "tests" / "armybuilder" / "real_lists"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lists", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2025, help="real-format lists' seed")
    parser.add_argument(
        "--show-misread", type=int, default=0, metavar="N", help="print N misread lists"
    )
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

    real_format_section(pool, args.lists, args.seed, args.show_misread)


# Reading: findings that say a line or the whole list could not be read.
UNREAD_CODES = frozenset({"CARD_UNKNOWN", "CARD_AMBIGUOUS", "LIST_UNPARSEABLE"})
PARTS = ("parsing", "name resolution", "validation", "the rest")


def real_format_section(pool, count: int, seed: int, show: int = 0) -> None:
    """Issue 12's target: N real-format pasted lists read and judged, one core, against
    the same armies as share codes (the share-code path skips reading)."""
    from realformat import generate, reading_of

    from armybuilder.checking import check_tmg_text

    lists = generate(pool.cards, count, seed)
    texts = [item.text for item in lists]
    codes = [item.share_code for item in lists]
    # One of each first: nothing loaded lazily (citations, rulesets) is timed.
    check_tmg_text(texts[0], pool=pool)
    check_tmg_text(codes[0], pool=pool)

    def run(inputs):
        started = time.perf_counter()
        results = [check_tmg_text(text, pool=pool) for text in inputs]
        return results, time.perf_counter() - started

    def cold_and_warm(inputs, budget: float = 10.0):
        """The first run (whatever the reader caches is empty: a batch of new lists), then
        the fastest of up to two more (warm caches; other processes only add time)."""
        results, cold = run(inputs)
        warm, spent = float("inf"), cold
        for _ in range(2):
            _, seconds = run(inputs)
            warm, spent = min(warm, seconds), spent + seconds
            if spent > budget:
                break
        return results, cold, warm

    text_results, text_cold, text_warm = cold_and_warm(texts)
    code_results, code_cold, code_warm = cold_and_warm(codes)
    print(
        f"real-format pasted lists, {count} (seed {seed}), one core: first run "
        f"{text_cold:.2f} s ({count / text_cold:,.0f} lists/s), warm {text_warm:.2f} s; "
        f"the same armies as share codes: first run {code_cold:.2f} s "
        f"({count / code_cold:,.0f} lists/s), warm {code_warm:.2f} s; ratio text/share-code "
        f"{text_cold / code_cold:.1f}× (first runs), {text_warm / code_warm:.1f}× (warm)"
    )

    unread = Counter()
    read_cleanly = exactly = 0
    by_convention: dict[str, list[int]] = {}  # convention -> [lists using it, read exactly]
    misread = []
    for item, result in zip(lists, text_results, strict=True):
        codes_found = {f.code for f in result.findings} & UNREAD_CODES
        unread.update(codes_found)
        read_cleanly += not codes_found
        expected = item.expected
        got, wanted = reading_of(result.entries), reading_of(expected["entries"])
        right = result.faction == expected["faction"] and got == wanted
        exactly += right
        for convention in item.conventions:
            counts = by_convention.setdefault(convention, [0, 0])
            counts[0] += 1
            counts[1] += right
        if not right:
            misread.append((item, result, got, wanted))
    legal_text = sum(r.legal for r in text_results)
    legal_code = sum(r.legal for r in code_results)
    print(
        f"  reading rate: {read_cleanly}/{count} read with no "
        f"{', '.join(sorted(UNREAD_CODES))} "
        f"(lists with one: {', '.join(f'{c} {n}' for c, n in sorted(unread.items())) or 'none'}); "
        f"{exactly}/{count} read exactly as built (cards, hosts, commanders, faction)"
    )
    print(f"  legal: {legal_text} read from text, {legal_code} from share codes")
    worst = sorted(by_convention.items(), key=lambda kv: kv[1][1] / kv[1][0])[:10]
    print(
        "  read exactly, by convention (worst first): "
        + "; ".join(f"{name} {right}/{used}" for name, (used, right) in worst)
    )
    for item, result, got, wanted in misread[:show]:
        print(f"\n--- list {item.number} ({', '.join(item.conventions)})\n{item.text}")
        print(f"expected {item.expected['faction']}: {wanted}\nread {result.faction}: {got}")
        for finding in result.findings:
            if finding.code in UNREAD_CODES:
                print(f"  {finding.code}: {finding.message}")

    # Profiled on another batch (seed + 1), so the reader's caches hide nothing.
    fresh = generate(pool.cards, count, seed + 1)
    for label, inputs in (
        ("text", [item.text for item in fresh]),
        ("share code", [item.share_code for item in fresh]),
    ):
        shares, total = profile_shares(lambda inputs=inputs: run(inputs))
        breakdown = ", ".join(f"{part} {shares.get(part, 0) / total:.0%}" for part in PARTS)
        print(
            f"  profile, {label} path, new batch (seed {seed + 1}, {total:.2f} s under "
            f"cProfile): {breakdown}"
        )


def _part_of(filename: str) -> str | None:
    """The part of the work a module's own time counts for; None: a helper (the
    standard library, card names, drafts, messages) whose time is charged to its callers."""
    path = filename.replace("\\", "/")
    if path.endswith("armybuilder/listtext/resolve.py"):
        return "name resolution"
    if "armybuilder/listtext/" in path or path.endswith("armybuilder/tmg/from_text.py"):
        return "parsing"
    if path.endswith(("armybuilder/tmg/validator.py", "armybuilder/tmg/points.py")):
        return "validation"
    if path.endswith(
        (
            "armybuilder/tmg/check.py",
            "armybuilder/tmg/deck.py",
            "armybuilder/tmg/to_text.py",
            "armybuilder/tmg/from_share_code.py",
            "armybuilder/checking.py",
            "armybuilder/citations.py",
            "armybuilder/result.py",
        )
    ):
        return "the rest"
    return None


def profile_shares(work) -> tuple[dict[str, float], float]:
    """Seconds of `work` per part, from cProfile's self times: a helper's self time goes
    to the parts of the functions that called it, in proportion to the time each call
    path spent in it (so difflib under resolve.py counts as name resolution)."""
    profiler = cProfile.Profile()
    profiler.enable()
    work()
    profiler.disable()
    stats = pstats.Stats(profiler).stats
    memo: dict = {}

    def parts_of(func, visiting: frozenset) -> dict[str, float]:
        """The fractions of a function's time that count for each part."""
        if func in memo:
            return memo[func]
        own = _part_of(func[0])
        if own is not None:
            return {own: 1.0}
        callers = stats.get(func, (0, 0, 0, 0, {}))[4]
        weights = {caller: edge[3] for caller, edge in callers.items() if caller not in visiting}
        total = sum(weights.values())
        if not total:
            memo[func] = {"the rest": 1.0}
            return memo[func]
        mixed: Counter = Counter()
        for caller, weight in weights.items():
            for part, fraction in parts_of(caller, visiting | {func}).items():
                mixed[part] += fraction * weight / total
        if not visiting:
            memo[func] = dict(mixed)
        return dict(mixed)

    seconds: Counter = Counter()
    for func, (_cc, _nc, self_time, _ct, callers) in stats.items():
        if not self_time:
            continue
        if _part_of(func[0]) is not None or not callers:
            seconds[_part_of(func[0]) or "the rest"] += self_time
            continue
        # The helper's own time, split by who called it, each caller's share by its parts.
        edges = {caller: edge[2] for caller, edge in callers.items()}
        edge_total = sum(edges.values()) or 1.0
        for caller, edge_self in edges.items():
            for part, fraction in parts_of(caller, frozenset({func})).items():
                seconds[part] += self_time * (edge_self / edge_total) * fraction
    return dict(seconds), sum(seconds.values())


if __name__ == "__main__":
    main()
