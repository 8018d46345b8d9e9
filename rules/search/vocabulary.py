"""The search index of the indexed books, kept in memory per process (rules.search.index).

The index (postings, vocabularies for typo correction, concept map) is built from the
normalised columns both database backends index. It is rebuilt when the books change:
`index_book`/`reindex_all` bump a version kept in Django's cache (shared by processes when
the cache is Redis), and the number of sections, the newest section id and the newest
rulebook import are checked every few seconds.

Nothing waits for a large build: up to SYNC_BUILD_SECTIONS sections the index is built in
the request that needs it (about 0.1 s for the five real books); above that it is built in
a background thread, and until it is ready searches go through the database backend
(`current_index()` returns None). `warm_up()` builds it ahead of the first search: the
rules app calls it when the first request of a process starts (`warm_up_once`).
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from collections import Counter
from functools import lru_cache

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError, connections
from django.db.models import Count, Max

from .gloss import load_gloss
from .glossary import load_terms
from .index import SearchIndex, SectionRow, body_meanings, meaning_models_of
from .meaning import CACHE, MeaningModels, SentenceEncoder, load_encoder, meaning_texts
from .multilingual import load_multilingual
from .notes import Notes, SectionNote, find_note, load_notes
from .query import Vocabulary

VERSION_KEY = "rules-search:index-version"
RECHECK_SECONDS = 5.0
SYNC_BUILD_SECTIONS = 3000
MAX_CONTEXT = 4  # parent headings a section inherits as its context

log = logging.getLogger(__name__)
_lock = threading.Lock()
_state: dict = {"fingerprint": None, "checked": 0.0, "index": None, "books": {}, "building": None}


def bump_version() -> None:
    """Tell every process that the index or the books changed (call after indexing)."""
    cache.set(VERSION_KEY, uuid.uuid4().hex, None)
    with _lock:
        _state["checked"] = 0.0


def recheck_soon(**_signal_kwargs) -> None:
    """Check the books' fingerprint at the next search (a `post_delete` receiver: the
    index must not show a deleted section)."""
    with _lock:
        _state["checked"] = 0.0


def _fingerprint() -> tuple:
    from rules.models import Rulebook, Section

    version = cache.get(VERSION_KEY)
    if version is None:
        version = uuid.uuid4().hex
        cache.add(VERSION_KEY, version, None)
        version = cache.get(VERSION_KEY, version)
    stats = Section.objects.aggregate(count=Count("id"), newest=Max("id"))
    book_stats = Rulebook.objects.aggregate(count=Count("id"), newest=Max("imported_at"))
    return (
        version,
        stats["count"],
        stats["newest"],
        book_stats["count"],
        book_stats["newest"],
        settings.CITADEL_MEANING_MODEL,  # another model (or none): another index
        settings.CITADEL_MULTILINGUAL_MODEL,
        settings.CITADEL_SECTION_NOTES,  # the shipped notes on or off: another index
    )


def section_notes() -> Notes:
    """The shipped section notes, or none when CITADEL_SECTION_NOTES is off."""
    return load_notes() if settings.CITADEL_SECTION_NOTES else {}


def meaning_encoders() -> tuple[SentenceEncoder, ...]:
    """The sentence encoders installed: CITADEL_MEANING_MODEL's (English) and
    CITADEL_MULTILINGUAL_MODEL's (none when off or not installed: `scripts/fetch-meaning-model`
    installs them)."""
    found = (
        load_encoder(settings.CITADEL_MEANING_MODEL or None),
        load_multilingual(settings.CITADEL_MULTILINGUAL_MODEL or None),
    )
    return tuple(encoder for encoder in found if encoder is not None)


def meaning_models() -> MeaningModels | None:
    """The meaning models in use, with their weights (None: words alone rank)."""
    return meaning_models_of(meaning_encoders())


def remember_meanings(book) -> None:
    """Encode the headings, note phrases and body sentences of a book's sections into the
    meaning models' caches now (its import calls this through `index_book`: a few
    milliseconds a sentence), so that the index build, which may run on a request, finds
    them encoded; nothing without a model."""
    models = meaning_models()
    if models is None:
        return
    notes = section_notes()
    sections = list(book.sections.values_list("slug", "heading", "body"))
    texts = [
        meaning_texts(
            heading,
            _note_columns(
                find_note(notes, game=book.game, lang=book.lang, slug=slug, heading=heading)
            )[1],
        )
        for slug, heading, _body in sections
    ]
    models.meanings(texts, cache=lambda encoder: encoder.folder / CACHE)
    body_meanings(models, [(body, book.lang) for _s, _h, body in sections], encode_missing=True)


def _note_columns(note: SectionNote | None) -> tuple[str, tuple[str, ...]]:
    """A section's note tokens and what the meaning model reads of it, for its SectionRow."""
    if note is None:
        return "", ()
    return note.search_tokens, note.meaning_phrases


def _books() -> dict:
    from rules.models import Rulebook

    return Rulebook.objects.defer("raw_text", "report").in_bulk()


@lru_cache(maxsize=1)
def shown_fields() -> tuple[str, ...]:
    """The Section columns a search result carries (all but the raw text and the search
    columns), in the order the index keeps them."""
    from rules.models import Section

    skipped = {"raw", "search_heading", "search_body"}
    return tuple(f.attname for f in Section._meta.concrete_fields if f.attname not in skipped)


def build_index(fingerprint: object = None, books: dict | None = None) -> SearchIndex:
    """A SearchIndex of every indexed section (reads the database). It keeps each
    section's shown columns (`index.shown`: id -> values in `shown_fields()` order), so a
    search builds its results without going back to the database."""
    from rules.models import Section

    books = books if books is not None else _books()
    fields = shown_fields()
    at = {name: number for number, name in enumerate(fields)}
    shown: dict[int, tuple] = {}

    # A heading its book repeats ("Setup" under each game mode) says what the section is
    # only with the headings it stands in: the sections under such a parent (a game mode,
    # a scenario) have their parents' headings as their context.
    outline = list(Section.objects.values_list("id", "book_id", "parent_id", "search_heading"))
    tree = {id_: (parent_id, heading) for id_, _book, parent_id, heading in outline}
    repeated = Counter((book_id, heading) for _id, book_id, _parent, heading in outline)
    generic = {
        parent_id
        for _id, book_id, parent_id, heading in outline
        if parent_id is not None and repeated[book_id, heading] > 1
    }

    def context(parent_id: int | None) -> str:
        headings: list[str] = []
        if parent_id not in generic:
            return ""
        while parent_id is not None and parent_id in tree and len(headings) < MAX_CONTEXT:
            parent_id, parent_heading = tree[parent_id]
            headings.append(parent_heading)
        return " ".join(headings)

    notes = section_notes()

    def section_rows():
        columns = (*fields, "search_heading", "search_body")
        rows = Section.objects.order_by("id").values_list(*columns)
        for values in rows.iterator(chunk_size=2000):
            book_id = values[at["book_id"]]
            if book_id not in books:
                continue
            shown[values[at["id"]]] = values[: len(fields)]
            yield SectionRow(
                values[at["id"]],
                book_id,
                books[book_id].lang,
                books[book_id].game,
                values[at["kind"]],
                values[at["position"]],
                values[-2],
                values[-1],
                values[at["heading"]],
                values[at["body"]],
                values[at["rule_key"]],
                books[book_id].edition_key,
                context(values[at["parent_id"]]),
                *_note_columns(
                    find_note(
                        notes,
                        game=books[book_id].game,
                        lang=books[book_id].lang,
                        slug=values[at["slug"]],
                        heading=values[at["heading"]],
                    )
                ),
            )

    index = SearchIndex(
        section_rows(), load_terms(), fingerprint=fingerprint, models=meaning_models()
    )
    index.shown = shown
    return index


def _refresh(*, block: bool) -> dict:
    """The state, its fingerprint checked (at most every RECHECK_SECONDS), its books
    reloaded and its index rebuilt (now, or in the background) when the books changed."""
    now = time.monotonic()
    with _lock:
        recent = now - _state["checked"] < RECHECK_SECONDS
        if _state["fingerprint"] is not None and recent and not block:
            return _state
    fingerprint = _fingerprint()
    with _lock:
        if fingerprint != _state["fingerprint"]:
            _state.update(fingerprint=fingerprint, books=_books())
        _state["checked"] = now
        index = _state["index"]
        if index is not None and index.fingerprint == fingerprint:
            return _state
        books = _state["books"]
    if block or fingerprint[1] <= SYNC_BUILD_SECTIONS:
        built = build_index(fingerprint, books)
        with _lock:
            if _state["fingerprint"] == fingerprint:
                _state["index"] = built
    else:
        _build_in_background(fingerprint, books)
    return _state


def _build_in_background(fingerprint: object, books: dict) -> None:
    with _lock:
        running = _state["building"]
        if running is not None and running.is_alive():
            return

        def run() -> None:
            try:
                built = build_index(fingerprint, books)
                with _lock:
                    if _state["fingerprint"] == fingerprint:
                        _state["index"] = built
            except Exception:  # pragma: no cover - logged; searches keep using the database
                log.exception("building the rules search index failed")
            finally:
                connections.close_all()  # this thread's own connections: none left open

        thread = threading.Thread(target=run, name="rules-search-index", daemon=True)
        _state["building"] = thread
    thread.start()


def current_index() -> SearchIndex | None:
    """The index of the current books, or None while a large one is being built."""
    state = _refresh(block=False)
    index = state["index"]
    return index if index is not None and index.fingerprint == state["fingerprint"] else None


def warm_up(*, wait: bool = False) -> SearchIndex | None:
    """Build the index now (`wait`, or a small corpus) or start building it in the
    background (returns None then). The tables queries are planned with, the general
    dictionary and the English gloss of French questions made with them are read in the
    background too (about 0.4 s of CPU), once the database has been read: a thread started
    earlier holds the GIL half the time the queries wait for it, and the first search waits
    for the tables (`loaded_once`) rather than reading them a second time. At 10,060
    sections, the first search after the books change took 0.45-0.6 s so, against 0.8-1.3 s
    (round 17, bench/rules_search.py's machine)."""
    fingerprint = _fingerprint()
    if wait or fingerprint[1] <= SYNC_BUILD_SECTIONS:
        _gloss_in_background()
        return _refresh(block=True)["index"]
    books = _books()
    _gloss_in_background()
    with _lock:
        _state.update(fingerprint=fingerprint, books=books, checked=time.monotonic())
        if _state["index"] is not None and _state["index"].fingerprint == fingerprint:
            return _state["index"]
    _build_in_background(fingerprint, books)
    return None


def _gloss_in_background() -> None:
    if not load_gloss.cache_info().currsize:
        threading.Thread(target=load_gloss, name="rules-gloss", daemon=True).start()


_warmed = threading.Event()


def warm_up_once(**_signal_kwargs) -> None:
    """Start the index when the first request of the process comes in (a `request_started`
    receiver): the first search then finds it built, or being built."""
    if _warmed.is_set():
        return
    _warmed.set()
    try:
        warm_up()
    except DatabaseError:  # tables not there yet (a fresh database): the first search builds it
        log.warning("rules search index not warmed up", exc_info=True)


def vocabularies() -> dict[str, Vocabulary]:
    """The vocabularies of the indexed books (empty while the index is being built)."""
    index = current_index()
    return index.vocabularies if index is not None else {}


def books() -> dict:
    """Rulebook id -> Rulebook (without its raw text and report), cached with the
    fingerprint. Copy an instance before handing it out."""
    return _refresh(block=False)["books"]
