"""`manage.py import_rulebook FILE --slug SLUG --lang fr|en|fa --game tmg|tactics|agot|hotk`"""

from __future__ import annotations

import sys

from django.core.management.base import BaseCommand, CommandError, CommandParser

from common.progress import StageBar
from rules.cleaning.lines import DROPPED_REASONS, JOINED, REJOINED
from rules.services import STAGES, ImportResult, RulebookImportError, import_rulebook

MAX_WARNINGS_SHOWN = 12


class Command(BaseCommand):
    help = (
        "Import a rulebook (extracted text, Markdown or PDF) as linkable sections. "
        "Idempotent: sections keep their ids and URLs across re-imports; one transaction."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", metavar="FILE")
        parser.add_argument("--slug", required=True, help="the book's URL slug")
        # Checked in handle(), not by argparse: a wrong value gets one clear line.
        parser.add_argument("--lang", required=True, help="fr, en or fa")
        parser.add_argument("--game", required=True, help="tmg, tactics, agot or hotk")
        parser.add_argument("--title", default="", help="the book's title (default: guessed)")
        parser.add_argument(
            "--edition",
            default="",
            help="shared by translations of one book (default: the slug without -fr/-en/-fa)",
        )
        parser.add_argument(
            "--quick-reference", action="store_true", help="the book is a quick reference"
        )
        parser.add_argument("--no-progress", action="store_true", help="never show a progress bar")

    def handle(self, *args, **options) -> None:
        show_progress = not options["no_progress"] and sys.stderr.isatty()
        try:
            with StageBar(enabled=show_progress, total=len(STAGES)) as bar:
                result = import_rulebook(
                    path=options["file"],
                    slug=options["slug"],
                    lang=options["lang"],
                    game=options["game"],
                    title=options["title"],
                    edition=options["edition"],
                    is_quick_reference=options["quick_reference"],
                    progress=bar.stage if bar else None,
                )
        except RulebookImportError as exc:
            raise CommandError(f"import_rulebook: {exc}", returncode=2) from exc
        self.stdout.write(format_report(result))


def format_report(result: ImportResult) -> str:
    """The import report as a few lines of text."""
    book, report = result.book, result.report
    noise = report.get("noise_lines", {})
    dropped = ", ".join(
        f"{n} {reason}" for reason, n in sorted(noise.items()) if n and reason in DROPPED_REASONS
    )
    joined = noise.get(JOINED, 0)
    kinds = ", ".join(f"{n} {kind}" for kind, n in sorted(report.get("by_kind", {}).items()))
    state = "changes written" if result.changed else "nothing changed"
    lines = [
        f"{book.slug}: {book.title} ({book.get_game_display()}, {book.lang})",
        f"  source: {report.get('source') or '-'} ({report.get('format')}, "
        f"{report.get('lines')} lines)",
        f"  pages: {book.page_count or '-'}"
        + (f" (from the {report['page_numbers']})" if report.get("page_numbers") else ""),
        f"  sections: {report.get('sections')} ({kinds}); chapters: {report.get('chapters')}",
        f"  headings repaired: {report.get('headings_repaired')}; "
        f"translation keys: {report.get('rule_keys')}",
        f"  lines dropped as noise: {dropped or 'none'}; lines joined to the previous: {joined}; "
        f"paragraphs rejoined: {noise.get(REJOINED, 0)}",
        f"  text kept: {report.get('coverage', 0) * 100:.2f}% of the words, "
        f"{report.get('lines_verbatim', 0) * 100:.2f}% of the lines verbatim",
        f"  sections created {result.created}, updated {result.updated}, "
        f"unchanged {result.unchanged}, deleted {result.deleted}",
    ]
    warnings = report.get("warnings", [])
    lines.append(f"  warnings: {len(warnings)}")
    lines.extend(f"   - {w}" for w in warnings[:MAX_WARNINGS_SHOWN])
    lines.append(f"{book.slug}: {state} in {result.seconds:.2f}s")
    return "\n".join(lines)
