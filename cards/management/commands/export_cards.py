"""`manage.py export_cards --game tmg [--stats-only] OUT.json` (`-` writes to stdout)."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from cards.importers.citadel_json import document_from_database, dump_document
from cards.models import Card, Game


class Command(BaseCommand):
    help = (
        "Write one game's whole card pool as a citadel-cards/1 file. --stats-only leaves "
        "out every prose field (ability, card and scenario text), for files that are shipped."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", required=True, choices=Game.values)
        parser.add_argument("--stats-only", action="store_true")
        parser.add_argument("out", metavar="OUT.json")

    def handle(self, *args, **options) -> None:
        game, stats_only = options["game"], options["stats_only"]
        sources = sorted(
            set(Card.objects.filter(game=game).values_list("source", flat=True)) - {""}
        )
        source = "; ".join(
            [
                ", ".join(sources) or "citadel",
                "stats only" if stats_only else "with text",
                f"exported {timezone.localdate().isoformat()}",
            ]
        )
        document = document_from_database(game=game, stats_only=stats_only, source=source)
        text = dump_document(document)
        if options["out"] == "-":
            self.stdout.write(text, ending="")
            return
        try:
            Path(options["out"]).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise CommandError(f"export_cards: cannot write {options['out']}: {exc}") from exc
        self.stdout.write(
            f"{options['out']}: {len(document['cards'])} {game} cards"
            f"{' (stats only)' if stats_only else ''}"
        )
