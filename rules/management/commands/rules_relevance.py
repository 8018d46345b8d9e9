"""`manage.py rules_relevance [--rulebooks DIR] [--split tuning|held-out] [--misses]`

Runs the relevance set (tests/rules/relevance/queries.jsonl by default) through the rules
search on the current database and prints top-1 and top-3 per query language, query →
book language, kind of query, form and split. With --rulebooks, first imports the books
the set names (books.json beside the queries, else the project set's) from that folder.
With CITADEL_SECTION_NOTES=0, the books rank without their shipped notes, as a book
imported from another text does.
"""

from __future__ import annotations

import json
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection

from rules.models import Rulebook
from rules.search import search_sections
from rules.search.relevance import evaluate, load_cases
from rules.services import RulebookImportError, import_rulebook

DEFAULT_SET = Path(settings.BASE_DIR) / "tests" / "rules" / "relevance" / "queries.jsonl"
SPLITS = {"tuning": "tuning", "held-out": "held out"}


class Command(BaseCommand):
    help = "Score the rules search on the relevance set (top-1/top-3 per language and kind)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--queries", default=str(DEFAULT_SET), help="a queries.jsonl file")
        parser.add_argument(
            "--rulebooks", help="import the set's books from this folder first (idempotent)"
        )
        parser.add_argument("--split", choices=sorted(SPLITS), help="only these cases")
        parser.add_argument("--misses", action="store_true", help="list the cases not ranked 1st")

    def handle(self, *args, **options) -> None:
        queries = Path(options["queries"])
        if not queries.is_file():
            raise CommandError(f"rules_relevance: no relevance set at {queries}", returncode=2)
        try:
            cases = load_cases(queries)
        except ValueError as exc:
            raise CommandError(f"rules_relevance: {exc}", returncode=2) from exc
        books = load_books(queries)
        if options["rulebooks"]:
            import_books(Path(options["rulebooks"]), books)
        missing = {b["slug"] for b in books} - set(Rulebook.objects.values_list("slug", flat=True))
        if missing:
            raise CommandError(
                f"rules_relevance: books not imported: {', '.join(sorted(missing))} "
                "(use --rulebooks DIR)",
                returncode=2,
            )
        split = SPLITS.get(options["split"] or "")
        if split:
            cases = [case for case in cases if case.split == split]
        report = evaluate(cases, search_sections)
        notes = "" if settings.CITADEL_SECTION_NOTES else " (section notes off)"
        self.stdout.write(
            f"rules search relevance on {connection.vendor}, {len(cases)} queries{notes}"
        )
        self.stdout.write(report.table())
        if options["misses"]:
            self.stdout.write("\nnot ranked first:")
            for line in report.misses():
                self.stdout.write(f"  {line}")


def load_books(queries: Path) -> list[dict]:
    """The books a set names: books.json beside its queries, else the project set's (a
    batch of new questions kept elsewhere names the same books)."""
    path = queries.parent / "books.json"
    if not path.is_file():
        path = DEFAULT_SET.parent / "books.json"
    try:
        books: list[dict] = json.loads(path.read_text(encoding="utf-8"))["books"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise CommandError(
            f"rules_relevance: {path}: no list of books ({exc})", returncode=2
        ) from exc
    return books


def import_books(folder: Path, books: list[dict]) -> None:
    """Import (or re-import, unchanged books write nothing) the set's books."""
    for book in books:
        try:
            import_rulebook(
                path=folder / book["file"], slug=book["slug"], lang=book["lang"], game=book["game"]
            )
        except RulebookImportError as exc:
            raise CommandError(f"rules_relevance: {book['file']}: {exc}", returncode=2) from exc
