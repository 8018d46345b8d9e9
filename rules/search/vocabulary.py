"""The vocabulary of the indexed books, per language, for typo tolerance (cached).

Built from the normalised columns (the tokens both backends index) plus the glossary
tokens, so one implementation serves both backends. The cache is rebuilt when
`index_book`/`reindex_all` bump the version kept in Django's cache (shared by processes
when the cache is Redis), and in any case when the sections table changes size or the
newest section id changes (checked at most every few seconds).
"""

from __future__ import annotations

import threading
import time
import uuid
from collections import Counter

from django.core.cache import cache
from django.db.models import Count, Max

from .glossary import load_glossary
from .normalise import LANGS, fold_accents, word_tokens, words
from .query import Vocabulary

VERSION_KEY = "rules-search:index-version"
RECHECK_SECONDS = 5.0

_lock = threading.Lock()
_state: dict = {"fingerprint": None, "checked": 0.0, "vocabularies": None, "books": {}}


def bump_version() -> None:
    """Tell every process that the index or the books changed (call after indexing)."""
    cache.set(VERSION_KEY, uuid.uuid4().hex, None)
    with _lock:
        _state["checked"] = 0.0


def _fingerprint() -> tuple:
    from rules.models import Section

    version = cache.get(VERSION_KEY)
    if version is None:
        version = uuid.uuid4().hex
        cache.add(VERSION_KEY, version, None)
        version = cache.get(VERSION_KEY, version)
    from rules.models import Rulebook

    stats = Section.objects.aggregate(count=Count("id"), newest=Max("id"))
    book_stats = Rulebook.objects.aggregate(count=Count("id"), newest=Max("imported_at"))
    return (version, stats["count"], stats["newest"], book_stats["count"], book_stats["newest"])


def surface_words(text: str, lang: str) -> dict[str, str]:
    """Written word (folded, unstemmed) -> its token, for the one-token words of a text."""
    found = {}
    for word in set(words(text, lang)):
        toks = word_tokens(word, lang)
        if len(toks) == 1:
            found[fold_accents(word)] = toks[0]
    return found


def build_vocabularies() -> dict[str, Vocabulary]:
    """Per book language: token -> number of sections containing it, and written words ->
    tokens, from the indexed sections and the glossary."""
    from rules.models import Section

    counters = {lang: Counter() for lang in LANGS}
    chunks: dict[str, set[str]] = {lang: set() for lang in LANGS}
    rows = Section.objects.values_list(
        "book__lang", "heading", "body", "search_heading", "search_body"
    )
    for lang, heading, body, search_heading, search_body in rows.iterator(chunk_size=2000):
        if lang in counters:
            counters[lang].update(set(f"{search_heading} {search_body}".split()))
            # Whitespace-separated chunks first (fast, and shared by most sections); the
            # written words are read from the distinct chunks only.
            chunks[lang].update(heading.split())
            chunks[lang].update(body.split())
    glossary = load_glossary()
    vocabularies = {}
    for lang in LANGS:
        surfaces: dict[str, str] = {}
        for chunk in chunks[lang]:
            surfaces.update(surface_words(chunk, lang))
        for entry in glossary.entries:
            for term in entry.terms.get(lang, ()):
                surfaces.update(surface_words(term, lang))
        vocabularies[lang] = Vocabulary(counters[lang], glossary.vocabulary(lang), surfaces)
    return vocabularies


def _books() -> dict:
    from rules.models import Rulebook

    return Rulebook.objects.defer("raw_text", "report").in_bulk()


def _current() -> dict:
    now = time.monotonic()
    with _lock:
        fresh = _state["vocabularies"] is not None and now - _state["checked"] < RECHECK_SECONDS
        if fresh:
            return _state
    fingerprint = _fingerprint()
    with _lock:
        if fingerprint == _state["fingerprint"] and _state["vocabularies"] is not None:
            _state["checked"] = now
            return _state
    built, books = build_vocabularies(), _books()
    with _lock:
        _state.update(fingerprint=fingerprint, checked=now, vocabularies=built, books=books)
        return _state


def vocabularies() -> dict[str, Vocabulary]:
    """The vocabularies of the indexed books (cached, rebuilt when the index changes)."""
    return _current()["vocabularies"]


def books() -> dict:
    """Rulebook id -> Rulebook (without its raw text and report), cached with the
    vocabularies. Copy an instance before handing it out."""
    return _current()["books"]
