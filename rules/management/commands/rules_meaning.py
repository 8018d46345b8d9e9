"""`manage.py rules_meaning [--warm]`

Says whether the rules search's meaning model (CITADEL_MEANING_MODEL) is installed, how
many phrase and sentence vectors it keeps, and the int8 graph it encodes questions with
(made on first load if missing). With --warm, encodes the shipped notes' phrases and headings
once (scripts/fetch-meaning-model runs it), and the body sentences of the books already
imported that are not encoded yet (after a change to the tables the French gloss reads,
all of them: rules.search.gloss), so that building the search index reads them.
"""

from __future__ import annotations

import time

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.db import DatabaseError

from rules.search.index import body_meanings, sentence_cache
from rules.search.meaning import (
    CACHE,
    QUICK,
    cached_count,
    load_encoder,
    meaning_texts,
    section_meanings,
)
from rules.search.notes import load_notes


class Command(BaseCommand):
    help = "Report on (and with --warm, prepare) the rules search's meaning model."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--warm",
            action="store_true",
            help="encode the shipped notes' phrases and the imported books' sentences now",
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
            self._warm_sentences(encoder)
        else:
            self.stdout.write(
                f"meaning model: installed in {folder}; it keeps "
                f"{cached_count(encoder.folder / CACHE)} phrase vectors and "
                f"{cached_count(sentence_cache(encoder))} sentence vectors; questions are "
                f"encoded by its int8 graph ({QUICK})"
            )

    def _warm_sentences(self, encoder) -> None:
        from rules.models import Section

        started = time.monotonic()
        current = sentence_cache(encoder)
        for stale in encoder.folder.glob("sentences-*.npz"):
            if stale != current:
                stale.unlink(missing_ok=True)
        try:
            bodies = list(
                Section.objects.order_by("id").values_list("body", "book__lang").iterator()
            )
        except DatabaseError:  # no database yet: a book's import encodes its sentences
            self.stdout.write("meaning model: no imported books to read yet")
            return
        sentences = body_meanings(encoder, bodies, encode_missing=True)
        self.stdout.write(
            f"meaning model: {len(sentences.texts)} sentences of {len(bodies)} imported "
            f"sections ready ({time.monotonic() - started:.1f} s)"
        )
