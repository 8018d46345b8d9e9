"""Rules-search outputs, to check that a speed change changes none of them.

    .venv/bin/python bench/rules_search_outputs.py dump OUT.json [--sections 10000]
    .venv/bin/python bench/rules_search_outputs.py compare A.json B.json

`dump` builds the corpus of bench/rules_search.py (the five real books and their varied
copies, the same on every branch) in a scratch SQLite database, runs every query of that
bench through `search_sections(…, explain=True)` and writes, per query, each hit's section
id, score, snippet, highlighted heading and explanation, with the unrounded scores the
index ranked them by. Run it on two branches (e.g. main and yours); `compare` prints the
queries whose outputs differ and exits 1 if any do.
"""

import argparse
import json
import os
import sys
import tempfile
from typing import Any, cast

from harness import start_django


def dump(path: str, sections: int) -> None:
    # Always a scratch database: the corpus is written into it.
    scratch = tempfile.mkdtemp(prefix="citadel-rules-outputs-")
    os.environ["DATABASE_URL"] = f"sqlite:///{scratch}/outputs.sqlite3"
    os.environ.pop("REDIS_URL", None)
    start_django()
    from django.core.management import call_command
    from rules_search import grow_corpus, import_books, queries

    from rules.search import search_sections
    from rules.search.index import SearchIndex
    from rules.search.vocabulary import warm_up

    call_command("migrate", verbosity=0)
    size = grow_corpus(import_books(), sections, 0)[0]
    warm_up(wait=True)
    ranked: list[list[list[Any]]] = []  # what the index ranked, unrounded, for the search being run
    rank = SearchIndex.rank

    def recording_rank(self: SearchIndex, *args: Any, **kwargs: Any) -> Any:
        found = rank(self, *args, **kwargs)
        ranked.append([[position, repr(score)] for position, score in found[0]])
        return found

    SearchIndex.rank = recording_rank  # type: ignore[method-assign]
    out = []
    for query, filters in queries():
        ranked.clear()
        hits = search_sections(query, explain=True, **filters)
        shown = [[cast(Any, hit.section).id, repr(hit.score), hit.snippet, hit.heading_html,
                  hit.explanation] for hit in hits]  # fmt: skip
        out.append({"query": query, "filters": filters, "hits": shown, "ranked": list(ranked)})
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(out, handle, ensure_ascii=False, indent=0, sort_keys=True)
    print(f"{len(out)} queries at {size} sections, {sum(len(o['hits']) for o in out)} hits: {path}")


def compare(first: str, second: str) -> int:
    with open(first, encoding="utf-8") as a, open(second, encoding="utf-8") as b:
        left, right = json.load(a), json.load(b)
    if len(left) != len(right):
        print(f"{len(left)} queries against {len(right)}")
        return 1
    differ = [(a, b) for a, b in zip(left, right, strict=True) if a != b]
    for a, b in differ[:10]:
        print(f"differs: {a['query']!r} {a['filters'] or ''}")
        for field in ("hits", "ranked"):
            if a[field] != b[field]:
                print(f"  {field}: {json.dumps(a[field], ensure_ascii=False)[:300]}")
                print(f"  {'':{len(field)}}  {json.dumps(b[field], ensure_ascii=False)[:300]}")
    hits = sum(len(a["hits"]) for a in left)
    print(f"{len(left)} queries ({hits} hits): {len(differ)} differ")
    return 1 if differ else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    dumping = commands.add_parser("dump")
    dumping.add_argument("out")
    dumping.add_argument("--sections", type=int, default=10_000)
    comparing = commands.add_parser("compare")
    comparing.add_argument("first")
    comparing.add_argument("second")
    args = parser.parse_args()
    if args.command == "dump":
        dump(args.out, args.sections)
    else:
        sys.exit(compare(args.first, args.second))


if __name__ == "__main__":
    main()
