"""`manage.py import_cards --source asoiaf-tmg-data PATH | --source citadel-json FILE...`"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError, CommandParser

from cards.importers.asoiaf_tmg_data import SOURCE as COMMUNITY_SOURCE
from cards.importers.asoiaf_tmg_data import read_asoiaf_tmg_data
from cards.importers.citadel_json import read_citadel_json_files
from cards.importers.records import CardImportError
from cards.services import ImportSummary, import_card_records
from common.progress import StageBar

SOURCES = (COMMUNITY_SOURCE, "citadel-json")


class Command(BaseCommand):
    help = (
        "Import cards: the community TMG data set (a folder holding data/en, data/fr and "
        "data/warcouncil) or citadel-cards/1 JSON files. Idempotent; one transaction."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--source", required=True, choices=SOURCES)
        parser.add_argument("paths", nargs="+", metavar="PATH")
        parser.add_argument("--no-progress", action="store_true", help="never show a progress bar")

    def handle(self, *args, **options) -> None:
        source, paths = options["source"], options["paths"]
        if source == COMMUNITY_SOURCE and len(paths) != 1:
            raise CommandError("import_cards: --source asoiaf-tmg-data takes one folder")
        show_progress = not options["no_progress"] and self.stdout.isatty()
        try:
            if source == COMMUNITY_SOURCE:
                records = read_asoiaf_tmg_data(paths[0])
            else:
                records = read_citadel_json_files(paths)
            with StageBar(enabled=show_progress) as bar:
                summary = import_card_records(
                    records=records, source=source, progress=bar.count if bar else None
                )
        except CardImportError as exc:
            raise CommandError(f"import_cards: {exc}", returncode=2) from exc
        self.stdout.write(_summary_table(summary))


def _summary_table(summary: ImportSummary) -> str:
    header = ("", "created", "updated", "unchanged")
    rows = [header, *((name, str(c), str(u), str(n)) for name, c, u, n in summary.rows())]
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    lines = [
        "  ".join(
            cell.ljust(widths[i]) if i == 0 else cell.rjust(widths[i]) for i, cell in enumerate(row)
        )
        for row in rows
    ]
    state = "changes written" if summary.changed else "nothing changed"
    lines.append(f"{summary.source}: {state} in {summary.seconds:.2f}s")
    return "\n".join(lines)
