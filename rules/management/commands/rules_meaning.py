"""`manage.py rules_meaning [--warm]`

Says which of the rules search's meaning models are installed (CITADEL_MEANING_MODEL, the
English one; CITADEL_MULTILINGUAL_MODEL, the multilingual one), how many phrase and sentence
vectors each keeps, and the int8 graph it encodes questions with (made on first load if
missing). With --warm, encodes the shipped notes' phrases and headings once
(scripts/fetch-meaning-model runs it), and the body sentences of the books already imported
that are not encoded yet (after a change to the tables the French gloss reads, all of them
for the English model: rules.search.gloss), so that building the search index reads them.
"""

from __future__ import annotations

import time

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.db import DatabaseError

from rules.search.index import body_meanings, sentence_cache
from rules.search.meaning import CACHE, MeaningModels, cached_count, meaning_texts
from rules.search.notes import load_notes
from rules.search.vocabulary import meaning_models


class Command(BaseCommand):
    help = "Report on (and with --warm, prepare) the rules search's meaning models."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--warm",
            action="store_true",
            help="encode the shipped notes' phrases and the imported books' sentences now",
        )

    def handle(self, *args, **options) -> None:
        models = meaning_models()
        if models is None:
            self.stdout.write(
                f"meaning model: not installed in {settings.CITADEL_MEANING_MODEL!r} nor "
                f"{settings.CITADEL_MULTILINGUAL_MODEL!r} (scripts/fetch-meaning-model); "
                "the rules search ranks on words alone"
            )
            return
        if options["warm"]:
            started = time.monotonic()
            phrases = [
                meaning_texts(note.original_heading, note.meaning_phrases)
                for note in load_notes().values()
            ]
            meanings = models.meanings(phrases, cache=lambda encoder: encoder.folder / CACHE)
            self.stdout.write(
                f"meaning model: {len(meanings.texts)} phrases of the shipped notes ready for "
                f"{', '.join(models.names)} ({time.monotonic() - started:.1f} s)"
            )
            self._warm_sentences(models)
            return
        for encoder in models.encoders:
            self.stdout.write(
                f"meaning model: {encoder.name} installed in {encoder.folder}; it keeps "
                f"{cached_count(encoder.folder / CACHE)} phrase vectors and "
                f"{cached_count(sentence_cache(encoder))} sentence vectors; questions are "
                f"encoded by its int8 graph ({encoder.quick_file})"
            )

    def _warm_sentences(self, models: MeaningModels) -> None:
        from rules.models import Section

        started = time.monotonic()
        for encoder in models.encoders:
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
        sentences = body_meanings(models, bodies, encode_missing=True)
        self.stdout.write(
            f"meaning model: {len(sentences.texts)} sentences of {len(bodies)} imported "
            f"sections ready ({time.monotonic() - started:.1f} s)"
        )
