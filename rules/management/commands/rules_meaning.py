"""`manage.py rules_meaning [--warm]`

Says whether the rules search's meaning model (CITADEL_MEANING_MODEL) is installed and how
many phrase vectors it keeps. With --warm, encodes the shipped notes' phrases and headings
once (scripts/fetch-meaning-model runs it), so that building the search index reads them.
"""

from __future__ import annotations

import time

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from rules.search.meaning import CACHE, load_encoder, meaning_texts, section_meanings
from rules.search.notes import load_notes


class Command(BaseCommand):
    help = "Report on (and with --warm, prepare) the rules search's meaning model."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--warm", action="store_true", help="encode the shipped notes' phrases now"
        )

    def handle(self, *args, **options) -> None:
        folder = settings.CITADEL_MEANING_MODEL
        encoder = load_encoder(folder or None)
        if encoder is None:
            self.stdout.write(
                f"meaning model: not installed in {folder!r} (scripts/fetch-meaning-model); "
                "the rules search ranks on words alone"
            )
            return
        if options["warm"]:
            started = time.monotonic()
            phrases = [
                meaning_texts(note.original_heading, note.meaning_phrases)
                for note in load_notes().values()
            ]
            meanings = section_meanings(encoder, phrases, cache=encoder.folder / CACHE)
            self.stdout.write(
                f"meaning model: {len(meanings.texts)} phrases of the shipped notes ready "
                f"({time.monotonic() - started:.1f} s)"
            )
        else:
            self.stdout.write(f"meaning model: installed in {folder}")
