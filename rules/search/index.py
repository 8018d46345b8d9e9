"""The search index in memory: postings of the normalised sections, the vocabulary of each
language and the concept map, ranked with numpy (pure Python, no Django import).

    index = SearchIndex(rows, terms)                 # rows: SectionRow, any order
    ranked = index.rank(plan, scope=…, limit=20)     # [Ranked(position, score), …] best first
    index.explain(plan, ranked[0].position)          # why that section ranked (matched terms…)

A query is a `QueryPlan` (rules.search.query): per book language, interpretations made of
units, each unit a set of alternative phrases. A section's score:

    20 × coverage            weighted share of the query's units found in the section:
                             a unit weighs its IDF (rare words count more, words no book of
                             that language holds count nothing) times its origin (game term
                             1, lexicon word 0.8, a word kept as typed in another language
                             0.5, another script 0.2) times the reading's likelihood (an
                             English query's French reading counts 0.55); a unit found in
                             the body counts 0.5 to 1 (saturating with repetitions, less in
                             long sections), found in the heading 1
    + 4 × heading coverage   the same share, in the heading alone
    + 3 × defines            share of the query's game terms the section defines (its
                             heading names them, or it holds a glossary entry for them):
                             the concept map
    + 2.5 × game             the likelihood of the section's game given the query (games
                             it names, and how its words are spread over the games' books);
                             only when no game or book filter is set
    + 1 × heading focus      when the heading holds every unit: share of its words that
                             are the query's
    + 5 × states a number    the query asks for a number ("how many", "combien") and the
                             best passage holds one (digits or a number word)
    − kind penalty           credits 8, front matter 6, flavour 4, example 2.5, card 1,
                             page 0.5: rules come before examples and flavour

Sections that match no unit are left out. Both database backends feed the same rows, so
ranking does not depend on the database.
"""

from __future__ import annotations

import concurrent.futures
import functools
import math
import operator
import os
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import numpy as np

from .concepts import HEADING_KINDS, entry_terms, heading_terms
from .gloss import gloss_version, key_sentence, model_languages, model_reading, sentence_keys
from .glossary import TERM, Glossary, load_number_cues
from .meaning import (
    CACHE,
    MeaningModels,
    Question,
    SectionMeanings,
    SentenceEncoder,
    Submit,
    meaning_texts,
)
from .normalise import LANGS, fold_accents, tokens, word_tokens, words
from .notes import NOTE_PREFIX
from .query import LangQuery, Phrase, QueryPlan, Unit, Vocabulary

W_COVERAGE = 20.0
W_HEADING = 2.0
W_DEFINES = 1.5
W_GAME = 2.5
GAME_SHARPNESS = 3.0  # log-likelihoods are per unit of query weight: sharpen them
W_NAMED_GAME = 15.0  # the query names the section's game ("… in tactics")
W_FOCUS = 1.0
# Text that is mostly short lines (card reprints, component lists, diagram labels) is not
# where a rule is explained: up to this much off, by the share of the text not in sentences.
W_FRAGMENTS = 8.0
W_LANGUAGE = 3.0  # the book is in the language the query is written in (half: same script)
KIND_PENALTY = {
    "credits": 8.0,
    "front": 6.0,
    "flavour": 4.0,
    "example": 2.5,
    "card": 1.0,
    "page": 0.5,
}
# Body matches: 0.5 for one occurrence in a section of average length, up to 1.
K1, B = 1.2, 0.6
PROSE_WORDS = 7
PASSAGES = 64  # lines told apart per section (the rest count as the last one)
PASSAGE_CANDIDATES = 30  # sections whose best paragraph is scored (the best so far)
CONTEXT_MATCH = 0.5  # a unit found only in the headings a section stands in
NOTE_MATCH = 1.0  # a unit's words found in a section's notes (rules.search.notes)
W_PASSAGE = 4.0  # weighted share of the query found within one paragraph (and heading)
# A question asking for a number ("how many", "combien"): the best passage states one.
W_NUMBER = 5.0
# Each meaning model's weight, × the best score × its similarity of the query to a section
# (rules.search.meaning), by the models installed. Alone, the English model weighs 1.25 as
# it has since round 10; with the multilingual one, the pair was tuned in round 11 on the
# tuning split (docs/search.md, section 7b).
MEANING_WEIGHTS = {
    ("all-MiniLM-L6-v2",): (1.25,),
    ("all-MiniLM-L6-v2", "multilingual-e5-small"): (0.875, 1.625),
    ("multilingual-e5-small",): (2.0,),
}
W_SENTENCE = 0.5  # × the same × its body's closest sentence's similarity (added to it)
# A section without notes (a book imported from another text, front matter, examples) has
# only its heading to say what it is about: one short text, whose similarity to a question
# says little. Its body says more: its closest phrase weighs W_BARE_PHRASE (not 1) and its
# closest sentence W_BARE_SENTENCE (not W_SENTENCE). Round 16, on the relevance set with
# every note taken away: 444 / 635 -> 545 / 693 of 817 first / top three (held out 122 /
# 185 -> 154 / 197 of 244); with the notes, unchanged (docs/search.md, round 16).
W_BARE_PHRASE = 0.2
W_BARE_SENTENCE = 0.8
READING_ORDER = ("en", "fr", "fa")  # a query that reads as several is read as the first
MEANING_CANDIDATES = 20  # the best sections so far whose meaning is compared
MEANING_POOL = 60  # … and among the best this many, the MEANING_PICKS closest in meaning
MEANING_PICKS = 3
ALL_PASSAGES = np.uint64(2**64 - 1)


class SectionRow(NamedTuple):
    id: int
    book_id: int
    lang: str
    game: str
    kind: str
    position: int
    search_heading: str
    search_body: str
    heading: str = ""
    body: str = ""
    rule_key: str = ""  # with the book's edition: the same rule in other languages
    edition: str = ""
    context: str = ""  # normalised headings of the sections it stands in (its parents)
    notes: str = ""  # its note tokens (rules.search.notes), NOTE_PREFIX-marked
    phrases: tuple[str, ...] = ()  # its notes' phrases as written, for its meaning


class Meaning(NamedTuple):
    """What a section's meaning added to its score, and why."""

    boost: float
    similarity: float  # of its closest phrase (heading, note phrase or ask)
    phrase: int  # that phrase's number in SectionMeanings.texts (-1: none)
    said: float = 0.0  # similarity of its body's closest sentence
    sentence: int = -1  # that sentence's number in the index's sentences (-1: none)


NO_MEANING = Meaning(0.0, 0.0, -1)


class Ranked(NamedTuple):
    position: int  # index of the section in the SearchIndex
    score: float


@dataclass
class _Vectors:
    """Per-query cache of dense vectors (one float or bool per section)."""

    body: dict[str, np.ndarray] = field(default_factory=dict)
    head: dict[str, np.ndarray] = field(default_factory=dict)
    context: dict[str, np.ndarray] = field(default_factory=dict)
    notes: dict[str, np.ndarray] = field(default_factory=dict)
    # (match, heading, focus, in_heading) per unit and language: `_unit_vectors`
    units: dict[tuple, tuple[np.ndarray, np.ndarray, np.ndarray, bool]] = field(
        default_factory=dict
    )
    idf: dict[tuple, float] = field(default_factory=dict)
    games: dict[tuple, dict[str, float]] = field(default_factory=dict)
    best_passage: dict[int, int] = field(default_factory=dict)  # section -> its best line
    passage: dict[int, float] = field(default_factory=dict)  # section -> that passage's share
    preference: np.ndarray | None = None  # the reader's language (`_reader_language`)
    # section -> what its meaning added, and why (`_add_meaning`)
    meaning: dict[int, Meaning] = field(default_factory=dict)


class SearchIndex:
    """Postings and statistics of a set of sections (all the indexed books, or, while that
    index is being built, the candidates a database backend returned)."""

    def __init__(
        self,
        rows: Iterable[SectionRow],
        terms: Glossary,
        *,
        fingerprint: object = None,
        uniform_idf: bool = False,
        surface_words: bool = True,
        models: MeaningModels | None = None,
    ) -> None:
        self.fingerprint = fingerprint
        # Section id -> the columns a result shows (filled by whoever builds the index from
        # the database: rules.search.vocabulary.build_index); empty: read them from there.
        self.shown: dict[int, tuple] = {}
        self.terms = terms
        self.uniform_idf = uniform_idf
        # Sections of one language stand together: a query's units are scored on the
        # slice of each language it is read in.
        rows = sorted(rows, key=lambda r: (_LANG_ORDER.get(r.lang, len(LANGS)), r.id))
        self.size = n = len(rows)
        self.ids = np.fromiter((r.id for r in rows), dtype=np.int64, count=n)
        self.book_ids = np.fromiter((r.book_id for r in rows), dtype=np.int64, count=n)
        self.positions = np.fromiter((r.position for r in rows), dtype=np.int64, count=n)
        self.langs = [r.lang for r in rows]
        self.games = [r.game for r in rows]
        self.kinds = [r.kind for r in rows]
        self.kind_penalty = np.fromiter(
            (KIND_PENALTY.get(r.kind, 0.0) for r in rows), dtype=np.float32, count=n
        )
        # Per penalised kind, its sections: a query asking for that kind (the lexicon's
        # `kinds`: "who designed", "example") ranks them without the penalty.
        self.kind_masks = {
            kind: np.fromiter((r.kind == kind for r in rows), dtype=bool, count=n)
            for kind in KIND_PENALTY
        }
        self.lang_masks = {lang: np.array([x == lang for x in self.langs], bool) for lang in LANGS}
        self.ranges = {}
        for lang, mask in self.lang_masks.items():
            at = np.flatnonzero(mask)
            self.ranges[lang] = (int(at[0]), int(at[-1]) + 1) if at.size else (0, 0)
        # The same bounds as an array of the postings' type: searchsorted on it does not
        # convert (a tuple costs it a few µs, and a search makes dozens of those calls).
        self._bounds = {lang: np.array(r, dtype=np.int32) for lang, r in self.ranges.items()}
        # What a unit in no heading has for heading and focus (read-only: shared).
        self._no_heading = {lang: _frozen_zeros(end - start, bool)
                            for lang, (start, end) in self.ranges.items()}  # fmt: skip
        self._no_focus = {lang: _frozen_zeros(end - start, np.float32)
                          for lang, (start, end) in self.ranges.items()}  # fmt: skip
        self.game_masks = {
            game: np.array([x == game for x in self.games], bool) for game in set(self.games)
        }
        self.game_names = sorted(self.game_masks)
        self.game_numbers = {game: number for number, game in enumerate(self.game_names)}
        self.game_codes = np.array([self.game_numbers[g] for g in self.games], dtype=np.int64)
        # Per language, the games with books in it and their number of sections.
        self.game_sizes = {
            lang: {
                game: int(np.count_nonzero(mask & self.lang_masks[lang]))
                for game, mask in self.game_masks.items()
                if (mask & self.lang_masks[lang]).any()
            }
            for lang in LANGS
        }
        self._scopes: dict[tuple, np.ndarray] = {}
        self.heading_sizes = np.zeros(n, dtype=np.float32)
        self.prose = np.fromiter((_prose_share(r.body) for r in rows), dtype=np.float32, count=n)
        self.fragments = W_FRAGMENTS * (1.0 - self.prose)  # what each section's shape costs
        editions: dict[tuple[str, str], list[int]] = {}
        for position, row in enumerate(rows):
            if row.rule_key and row.edition:
                editions.setdefault((row.edition, row.rule_key), []).append(position)
        self.translations = {p: group for group in editions.values() if len(group) > 1
                             for p in group}  # fmt: skip
        body_postings: dict[str, list[int]] = {}
        body_counts: dict[str, list[int]] = {}
        head_postings: dict[str, list[int]] = {}
        context_postings: dict[str, list[int]] = {}
        note_postings: dict[str, list[int]] = {}
        lengths = np.zeros(n, dtype=np.float32)
        frequencies: dict[str, Counter] = {lang: Counter() for lang in LANGS}
        chunks: dict[str, set[str]] = {lang: set() for lang in LANGS}
        defines: dict[str, list[int]] = {}
        body_masks: dict[str, list[int]] = {}
        cues = load_number_cues()
        self.number_lines = np.zeros(n, dtype=np.uint64)
        for position, row in enumerate(rows):
            heading_tokens = _heading_tokens(row)
            body_tokens = row.search_body.split()
            lengths[position] = len(body_tokens)
            self.heading_sizes[position] = len(set(heading_tokens))
            masks: dict[str, int] = {}
            for number, paragraph in enumerate(row.search_body.split("\n")):
                bit = 1 << min(number, PASSAGES - 1)
                for token in paragraph.split():
                    masks[token] = masks.get(token, 0) | bit
            self.number_lines[position] = np.uint64(
                _mask_of((masks[t] for t in masks if cues.states(t, row.lang)), 0)
            )
            for token, count in Counter(body_tokens).items():
                body_postings.setdefault(token, []).append(position)
                body_counts.setdefault(token, []).append(count)
                body_masks.setdefault(token, []).append(masks[token])
            for token in set(heading_tokens):
                head_postings.setdefault(token, []).append(position)
            for token in set(row.context.split()):
                context_postings.setdefault(token, []).append(position)
            for token in set(row.notes.split()):
                note_postings.setdefault(token, []).append(position)
            if row.lang in frequencies:
                frequencies[row.lang].update(set(heading_tokens) | set(body_tokens))
                if surface_words:
                    chunks[row.lang].update(row.heading.split())
                    chunks[row.lang].update(row.body.split())
            for concept in self._defined_concepts(row, heading_tokens):
                defines.setdefault(concept, []).append(position)
        self.heading_words = np.maximum(self.heading_sizes, 1.0)  # what focus divides by
        average = float(lengths.mean()) if n else 1.0
        norm = K1 * (1 - B + B * lengths / max(average, 1.0))
        self.body = {}
        for token, positions in body_postings.items():
            at = np.array(positions, dtype=np.int32)
            tf = np.array(body_counts[token], dtype=np.float32)
            self.body[token] = (
                at,
                (0.5 + 0.5 * tf / (tf + norm[at])).astype(np.float32),
                np.array(body_masks[token], dtype=np.uint64),
            )
        self.head = {t: np.array(p, dtype=np.int32) for t, p in head_postings.items()}
        self.context = {t: np.array(p, dtype=np.int32) for t, p in context_postings.items()}
        self.notes = {t: np.array(p, dtype=np.int32) for t, p in note_postings.items()}
        self.defines = {c: np.array(sorted(set(p)), dtype=np.int32) for c, p in defines.items()}
        self.vocabularies = {
            lang: Vocabulary(
                frequencies[lang], terms.vocabulary(lang), _surfaces(chunks[lang], lang, terms)
            )
            for lang in LANGS
        }
        # What each section is about, as vectors (rules.search.meaning): its heading and
        # its notes' phrases. None without a model: the ranking is on words alone.
        self.models = models
        # What the phrase and the body's sentence weigh in a section's meaning: less and
        # more for a section whose heading is its only phrase (W_BARE_PHRASE, …).
        noted = np.fromiter((bool(row.phrases) for row in rows), dtype=bool, count=n)
        self.phrase_weight = np.where(noted, 1.0, W_BARE_PHRASE).tolist()
        self.sentence_weight = np.where(noted, W_SENTENCE, W_BARE_SENTENCE).tolist()
        self.meanings = (
            models.meanings(
                [meaning_texts(row.heading, row.phrases) for row in rows],
                cache=lambda encoder: encoder.folder / CACHE,
            )
            if models is not None
            else None
        )
        # And what its body says, sentence by sentence: only sentences encoded when their
        # book was imported (`body_meanings` through index_book): a build never waits for them.
        self.sentences = (
            body_meanings(models, [(row.body, row.lang) for row in rows], encode_missing=False)
            if models is not None
            else None
        )

    def __len__(self) -> int:
        return self.size

    def scope(self, book_ids) -> np.ndarray:
        """The sections of these books (a bool per section), cached per set of books."""
        key = tuple(sorted(book_ids))
        found = self._scopes.get(key)
        if found is None:
            if len(self._scopes) > 64:
                self._scopes.clear()
            found = self._scopes[key] = np.isin(self.book_ids, key)
        return found

    def _defined_concepts(self, row: SectionRow, heading_tokens: list[str]) -> set[str]:
        """Glossary terms the section defines: its heading names them, or its body holds a
        glossary-style entry for them."""
        found: set[str] = set()
        if row.kind in HEADING_KINDS:
            for term in heading_terms(row.heading):
                words_of_term = tokens(term, row.lang)
                for match in self.terms.find(words_of_term, row.lang):
                    # The heading is the term, maybe with one more word ("Le Pion X").
                    if match.end - match.start >= len(words_of_term) - 1:
                        found.update(e.key for e in match.entries if e.kind == TERM)
        for term in entry_terms(row.body):
            for entry in self.terms.lookup(tokens(term, row.lang), row.lang):
                if entry.kind == TERM:
                    found.add(entry.key)
        return found

    # --- vectors -----------------------------------------------------------------------

    def _body(self, token: str, cache: _Vectors) -> np.ndarray:
        found = cache.body.get(token)
        if found is None:
            found = np.zeros(self.size, dtype=np.float32)
            posting = self.body.get(token)
            if posting is not None:
                found[posting[0]] = posting[1]
            cache.body[token] = found
        return found

    def _lines_at(self, token: str, positions: np.ndarray) -> np.ndarray:
        """For sections at `positions` (sorted or not), a bit per line holding the token.
        `positions` of the postings' type (int32): of another, every search would convert
        the whole posting."""
        found = np.zeros(positions.size, dtype=np.uint64)
        posting = self.body.get(token)
        if posting is not None:
            at, present = _located(posting[0], positions)
            found[present] = posting[2][at[present]]
        return found

    def _head(self, token: str, cache: _Vectors) -> np.ndarray:
        return self._flags(token, self.head, cache.head)

    def _context(self, token: str, cache: _Vectors) -> np.ndarray:
        return self._flags(token, self.context, cache.context)

    def _noted(self, phrase: Phrase, cache: _Vectors) -> np.ndarray:
        """A bool per section: whether its notes hold every token of a note phrase."""
        found = self._flags(phrase[0], self.notes, cache.notes)
        for token in phrase[1:]:
            found = found & self._flags(token, self.notes, cache.notes)
        return found

    def _noted_at(self, phrase: Phrase, lang: str, cache: _Vectors) -> np.ndarray | None:
        """Positions, in the slice of `lang`, of the sections whose notes hold a note
        phrase (None: none). Nearly every unit has one, mostly of one word: read from its
        posting rather than a bool per section."""
        start, end = self.ranges[lang]
        if len(phrase) == 1:
            return _in_range(self.notes.get(phrase[0]), self._bounds[lang], start)
        found = np.flatnonzero(self._noted(phrase, cache)[start:end])
        return found if found.size else None

    def _flags(self, token: str, postings: dict, seen: dict[str, np.ndarray]) -> np.ndarray:
        """A bool per section: whether `postings` list it for `token` (remembered in `seen`
        for the search)."""
        found = seen.get(token)
        if found is None:
            found = np.zeros(self.size, dtype=bool)
            posting = postings.get(token)
            if posting is not None:
                found[posting] = True
            seen[token] = found
        return found

    def _unit(self, unit: Unit, lang: str, cache: _Vectors) -> tuple[np.ndarray, np.ndarray]:
        """(match, heading) for a unit over the sections of `lang` (the language's slice):
        match in 0..1 (1 in the heading), heading bool."""
        found = self._unit_all(unit, lang, cache)
        return found[0], found[1]

    def _unit_all(self, unit: Unit, lang: str, cache: _Vectors):
        key = (unit.alternatives, lang)
        found = cache.units.get(key)
        if found is None:
            found = cache.units[key] = self._unit_vectors(unit, lang, cache)
        return found

    def _unit_vectors(self, unit: Unit, lang: str, cache: _Vectors):
        """(match, heading, focus, in_heading) over the slice of `lang`: match in 0..1 (1 in
        the heading), heading bool, the number of heading words of the longest alternative
        the heading holds whole, and False when no heading holds the unit (heading and
        focus are then the language's shared zeros: adding them can be skipped). One-word
        alternatives are scattered from their postings. A unit found only in the headings
        of the sections a section stands in (its context: "Setup" under "A Storm of
        Swords") matches it CONTEXT_MATCH; one whose words its notes hold, NOTE_MATCH.

        A search computes a dozen units, each in a few dozen numpy calls on small arrays:
        the call, not the data, is the cost. So the heading, focus and context vectors are
        only allocated for a unit that needs them (most units are in no heading)."""
        start, end = self.ranges[lang]
        bounds = self._bounds[lang]
        match = np.zeros(end - start, dtype=np.float32)
        heading = focus = context = None
        noted: list[np.ndarray] = []  # where notes hold an alternative (positions in the slice)
        empty = True  # match holds zeros only: a posting is copied in, not compared
        for phrase in unit.alternatives:
            if phrase[0].startswith(NOTE_PREFIX):
                at = self._noted_at(phrase, lang, cache)
                if at is not None:
                    noted.append(at)
                continue
            if len(phrase) == 1:
                token = phrase[0]
                posting = self.body.get(token)
                if posting is not None:
                    low, high = posting[0].searchsorted(bounds)
                    at = posting[0][low:high] - start
                    if empty:
                        match[at] = posting[1][low:high]
                    else:
                        match[at] = np.maximum(match[at], posting[1][low:high])
                    empty = False
                at = _in_range(self.head.get(token), bounds, start)
                if at is not None:
                    heading, focus = self._heading_vectors(heading, focus, lang)
                    heading[at] = True
                    focus[at] = np.maximum(focus[at], 1.0)
                at = _in_range(self.context.get(token), bounds, start)
                if at is not None:
                    context = self._zeros(context, lang, bool)
                    context[at] = True
                continue
            heading, focus = self._heading_vectors(heading, focus, lang)
            context = self._zeros(context, lang, bool)
            body = self._body(phrase[0], cache)[start:end]
            head = self._head(phrase[0], cache)[start:end]
            around = self._context(phrase[0], cache)[start:end]
            for token in phrase[1:]:
                body = np.minimum(body, self._body(token, cache)[start:end])
                head = head & self._head(token, cache)[start:end]
                around = around & self._context(token, cache)[start:end]
            np.maximum(match, body, out=match)
            empty = False
            heading |= head
            context |= around
            np.maximum(focus, head * np.float32(len(set(phrase))), out=focus)
        if context is not None:
            np.maximum(match, context * np.float32(CONTEXT_MATCH), out=match)
        if noted:
            at = noted[0] if len(noted) == 1 else np.concatenate(noted)
            match[at] = np.maximum(match[at], np.float32(NOTE_MATCH))
        if heading is None:
            return match, self._no_heading[lang], self._no_focus[lang], False
        match[heading] = 1.0
        return match, heading, focus, True

    def _zeros(self, vector: np.ndarray | None, lang: str, dtype) -> np.ndarray:
        """`vector`, or zeros over the slice of `lang` when it is not allocated yet."""
        if vector is not None:
            return vector
        start, end = self.ranges[lang]
        return np.zeros(end - start, dtype=dtype)

    def _heading_vectors(self, heading, focus, lang: str) -> tuple[np.ndarray, np.ndarray]:
        """A unit's heading (bool) and focus (float) vectors, allocated on first use."""
        return self._zeros(heading, lang, bool), self._zeros(focus, lang, np.float32)

    def _unit_idf(self, unit: Unit, lang: str, cache: _Vectors) -> float:
        key = (unit.alternatives, lang)
        found = cache.idf.get(key)
        if found is None:
            found = cache.idf[key] = self._idf(self._unit(unit, lang, cache)[0], lang)
        return found

    def _idf(self, match: np.ndarray, lang: str) -> float:
        """IDF of a unit from its match over the language's slice."""
        df = int(np.count_nonzero(match))
        if df == 0:
            return 0.0
        if self.uniform_idf:
            return 1.0
        total = match.size
        return math.log(1.0 + (total - df + 0.5) / (df + 0.5))

    # --- ranking -----------------------------------------------------------------------

    def rank(
        self,
        plan: QueryPlan,
        *,
        scope: np.ndarray | None = None,
        limit: int = 20,
        game_boost: bool = True,
        meaning: Callable[[Submit], Callable[[], Question | None]] | None = None,
        meanwhile: Callable[[list[int], _Vectors], None] | None = None,
    ) -> tuple[list[Ranked], _Vectors]:
        """The best `limit` sections for the plan (within `scope`, a bool per section), and
        the vectors computed on the way (for `doc_tokens`). `meaning`: starts reading the
        query with the meaning models (`meaning_of`, given the encoding threads' `submit`)
        and gives what waits for it; used when the words found something, it reorders the
        best candidates by what they are about. The models run in other threads while the
        words are scored (ONNX Runtime releases the GIL): a search waits for the longest,
        not for all. `meanwhile`: called with the `limit` sections the words rank best (and
        the vectors so far) while the models finish, e.g. to make their snippets: the
        meaning reorders those and adds at most MEANING_PICKS others."""
        pending = (
            meaning(_encoding_pool().submit)
            if meaning is not None and self.meanings is not None
            else None
        )
        scores, matched, cache = self.scores(plan, scope=scope, game_boost=game_boost)
        question = None
        if pending is not None and matched.any():
            if meanwhile is not None:
                meanwhile(_best_of(np.flatnonzero(matched), scores, limit).tolist(), cache)
            question = pending()
        if question is not None:
            self._add_meaning(scores, matched, question, cache)
        candidates = np.flatnonzero(matched)
        if candidates.size == 0:
            return [], cache
        wanted = limit * 2 + 10  # room for translations folded into one result
        candidates = _best_of(candidates, scores, wanted)
        # Sorted on Python values (a list per column): indexing numpy per element is slow.
        keys = zip(
            (-round(value, 4) for value in scores[candidates].tolist()),
            self.book_ids[candidates].tolist(),
            self.positions[candidates].tolist(),
            candidates.tolist(),
            strict=True,
        )
        order = [key[3] for key in sorted(keys)]
        return self._fold_translations(order, scores, matched, cache.preference, limit), cache

    def meaning_of(
        self, plan: QueryPlan, submit: Submit | None = None
    ) -> Callable[[], Question | None]:
        """Starts reading the query with the meaning models (a few milliseconds a model,
        each by `submit`: in other threads; now without it) and gives what waits for it: the
        query as they read it, or None when the index knows no meanings, or no model reads
        the query's language (the English model alone reads English, and French through its
        English gloss; the multilingual one French and Persian too): words alone rank then."""
        lang = self.meaning_language(plan)
        if self.models is None or self.meanings is None or lang is None:
            return lambda: None
        if submit is None:
            return functools.partial(self.models.question, plan.meaning_query, lang)
        return self.models.start_question(plan.meaning_query, lang, submit)

    def meaning_language(self, plan: QueryPlan) -> str | None:
        """The language the models read the query in: the first it reads as that they read."""
        if self.models is None:
            return None
        for lang in READING_ORDER:
            if plan.sources.get(lang, 0.0) >= 1.0 and lang in self.models.languages:
                return lang
        return None

    def _add_meaning(
        self, score: np.ndarray, matched: np.ndarray, question: Question, cache: _Vectors
    ) -> None:
        """Add the models' weight × the best score × the similarity of the query to each
        candidate's closest phrase, plus W_SENTENCE × its body's closest sentence (for a
        section without notes, W_BARE_PHRASE and W_BARE_SENTENCE): among the
        sections the words found, the one whose heading, notes or sentences say what the
        question asks comes first. A similarity is the models' weighted mean
        (MEANING_WEIGHTS), each above its floor. The candidates (`_meaning_candidates`): the
        best sections by their words, and a few lower down that are closest in meaning."""
        if self.meanings is None:
            return
        candidates, phrases = self._meaning_candidates(score, matched, question)
        best = float(score[candidates].max(initial=0.0))
        if best <= 0.0:
            return
        positions = candidates.tolist()
        query, weight = question.vector, question.weight
        sentences = (
            self.sentences.best(query, positions)
            if self.sentences is not None
            else [(0.0, -1)] * len(positions)
        )
        for position, (dot, phrase), (said_dot, sentence) in zip(
            positions, phrases, sentences, strict=True
        ):
            similarity = (dot - question.offset) / weight if phrase >= 0 else 0.0
            said = (said_dot - question.offset) / weight if sentence >= 0 else 0.0
            boost = (
                weight
                * best
                * (
                    self.phrase_weight[position] * max(similarity, 0.0)
                    + self.sentence_weight[position] * max(said, 0.0)
                )
            )
            score[position] += boost
            cache.meaning[position] = Meaning(boost, similarity, phrase, said, sentence)

    def _meaning_candidates(
        self, score: np.ndarray, matched: np.ndarray, question: Question
    ) -> tuple[np.ndarray, list[tuple[float, int]]]:
        """The sections whose meaning is compared, with their closest phrase (similarity,
        number): the MEANING_CANDIDATES best by their words, and the MEANING_PICKS others
        of the best MEANING_POOL whose phrases are closest to the question. A rule the
        words found but ranked low (its words spread, or shared with many neighbours)
        still gets its chance when what it is about is what was asked."""
        assert self.meanings is not None
        pool = _best_of(np.flatnonzero(matched), score, MEANING_POOL)
        pool = pool[np.argsort(-score[pool], kind="stable")]  # best first: a few dozen
        phrases = self.meanings.best(question.vector, pool.tolist())
        lower = [dot if phrase >= 0 else -np.inf for dot, phrase in phrases[MEANING_CANDIDATES:]]
        closest = np.argsort(-np.array(lower), kind="stable")[:MEANING_PICKS].tolist()
        picks = [MEANING_CANDIDATES + i for i in closest if lower[i] > -np.inf]
        keep = [*range(min(MEANING_CANDIDATES, pool.size)), *picks]
        return pool[keep], [phrases[i] for i in keep]

    def _explain_meaning(self, plan: QueryPlan, found: Meaning) -> dict | None:
        """The phrase and body sentence closest to the question, and what the model read."""
        if self.meanings is None or (found.phrase < 0 and found.sentence < 0):
            return None
        sentence = (
            key_sentence(self.sentences.texts[found.sentence])
            if self.sentences is not None and found.sentence >= 0
            else None
        )
        return {
            "phrase": self.meanings.texts[found.phrase] if found.phrase >= 0 else None,
            "similarity": round(found.similarity, 3),
            "sentence": sentence,
            "sentence_similarity": round(found.said, 3),
            **self._explain_question(plan),
        }

    def _explain_question(self, plan: QueryPlan) -> dict:
        """What each model read of the question: its English gloss, the question as written,
        or nothing (a model that cannot read its language)."""
        lang = self.meaning_language(plan)
        if self.models is None or lang is None:
            return {"question": None, "read_by": {}}
        readings = {
            encoder.name: self.models.read(encoder, plan.meaning_query, lang)
            for encoder in self.models.encoders
        }
        shown = next((reading for reading in readings.values() if reading), None)
        return {"question": shown, "read_by": readings}

    def _fold_translations(self, order, scores, matched, preference, limit) -> list[Ranked]:
        """One result per rule: where a rule matches in several languages of one edition
        (the French and Persian board game), it ranks at its best score and is shown in the
        reader's language (else the same script, else where it scored best)."""
        seen: set[int] = set()
        ranked: list[Ranked] = []
        for position, score in zip(order, scores[order].tolist(), strict=True):
            if len(ranked) == limit:
                break
            if position in seen:
                continue
            group = self.translations.get(position)
            if group is None:
                ranked.append(Ranked(position, score))
                continue
            group = [p for p in group if matched[p]]
            seen.update(group)
            values = scores[group].tolist()
            shown = max(zip(preference[group].tolist(), values, group, strict=True),
                        key=lambda item: item[:2])[2]  # fmt: skip
            ranked.append(Ranked(shown, max(values)))
        return ranked

    def scores(
        self, plan: QueryPlan, *, scope: np.ndarray | None = None, game_boost: bool = True
    ) -> tuple[np.ndarray, np.ndarray, _Vectors]:
        """(score, matched) per section, and the vectors computed on the way."""
        cache = _Vectors()
        best = np.zeros(self.size, dtype=np.float32)
        concepts: dict[str, float] = {}
        evidence: dict[str, float] = {}
        label_idf = self._label_idf(plan, cache)
        readings: list = []
        for lang, lang_query in plan.langs.items():
            start, end = self.ranges[lang]
            if start == end:
                continue
            for number, interpretation in enumerate(lang_query.interpretations):
                parts = self._interpretation(lang_query, interpretation, cache, label_idf)
                if parts is None:
                    continue
                total, heading, weight_sum, unit_weights = parts
                coverage = total / weight_sum
                score = W_COVERAGE * coverage + W_HEADING * heading / weight_sum
                reading = lang_query.reading_weight(number)
                score *= reading
                np.maximum(best[start:end], score, out=best[start:end])
                for unit, weight, *_rest in unit_weights:
                    if unit.concept:
                        concepts[unit.concept] = max(concepts.get(unit.concept, 0.0), weight)
                reach = reading * float(coverage.max())
                self._game_evidence(unit_weights, lang, reach, evidence, cache)
                readings.append((lang, reading, weight_sum, unit_weights))
        matched = best > 0
        if scope is not None:
            matched &= scope
        if not matched.any():
            return best, matched, cache
        score = best.copy()
        # Bonuses that would add zeros everywhere (no game term, no game named) are left
        # out: each is a few passes over every section.
        if concepts:
            score += W_DEFINES * self._defines(concepts)
        if game_boost:
            score += W_GAME * self._game_prior(plan, evidence)
            if plan.games:
                score += W_NAMED_GAME * self._named_games(plan)
        score += W_FOCUS * self._focus(plan, cache)
        cache.preference = self._reader_language(plan)
        score += W_LANGUAGE * cache.preference
        score -= self._kind_penalty(plan)
        score -= self.fragments
        self._add_passages(score, matched, readings, cache, asks_number=plan.asks_number)
        return score, matched, cache

    def _kind_penalty(self, plan: QueryPlan) -> np.ndarray:
        """KIND_PENALTY per section, but none for the kinds the query asks for."""
        asked = [kind for kind in plan.asks_kinds if kind in self.kind_masks]
        if not asked:
            return self.kind_penalty
        penalty = self.kind_penalty.copy()
        for kind in asked:
            penalty[self.kind_masks[kind]] = 0.0
        return penalty

    def _add_passages(
        self, score: np.ndarray, matched: np.ndarray, readings, cache, *, asks_number=False
    ) -> None:
        """Add W_PASSAGE × the best passage's weighted share of the query (a passage is two
        consecutive lines; the heading counts in every one) to the best PASSAGE_CANDIDATES
        sections: an answer whose words stand together beats one whose words are scattered
        over a chapter or a glossary."""
        candidates = _best_of(np.flatnonzero(matched), score, PASSAGE_CANDIDATES)
        best = np.zeros(candidates.size, dtype=np.float32)
        token_lines: dict[str, np.ndarray] = {}  # token -> its lines in the candidates
        looked_up = candidates.astype(np.int32)  # the postings' type: searched unconverted

        def lines_at(token: str) -> np.ndarray:
            found = token_lines.get(token)
            if found is None:
                found = token_lines[token] = self._lines_at(token, looked_up)
            return found

        for lang, reading, weight_sum, unit_weights in readings:
            start, end = self.ranges[lang]
            inside = (candidates >= start) & (candidates < end)
            if not inside.any():
                continue
            local = np.where(inside, candidates - start, 0)
            share = np.zeros((candidates.size, PASSAGES), dtype=np.float32)
            for unit, _importance, _match, credit, head, in_heading in unit_weights:
                if not credit:
                    continue
                bits = _unit_lines(unit, lines_at, candidates.size)
                bits = bits | (bits >> np.uint64(1))  # a passage is a line and the next one
                if in_heading:
                    bits[head[local] & inside] = ALL_PASSAGES
                unpacked = np.unpackbits(bits.view(np.uint8).reshape(-1, 8), axis=1,
                                         bitorder="little")  # fmt: skip
                share += credit * unpacked
            value = np.where(inside, reading * share.max(axis=1) / weight_sum, 0.0)
            better = value > best
            # As Python numbers, in two updates (numpy scalars one by one cost more).
            improved = candidates[better].tolist()
            lines = share.argmax(axis=1)[better].tolist()
            cache.best_passage.update(zip(improved, lines, strict=True))
            cache.passage.update(zip(improved, value[better].tolist(), strict=True))
            np.maximum(best, value, out=best)
        score[candidates] += W_PASSAGE * best
        if asks_number:
            score[candidates] += W_NUMBER * self._states_number(candidates, cache)

    def _states_number(self, positions: np.ndarray, cache: _Vectors) -> np.ndarray:
        """1.0 for the sections at `positions` whose best passage (that line and the next,
        else the heading and first lines) states a number, else 0.0."""
        best = cache.best_passage
        lines = np.array([best.get(p, 0) for p in positions.tolist()], dtype=np.uint64)
        passage = (np.uint64(1) << lines) | (
            np.uint64(1) << np.minimum(lines + np.uint64(1), np.uint64(PASSAGES - 1))
        )
        return ((self.number_lines[positions] & passage) != 0).astype(np.float32)

    def _reader_language(self, plan: QueryPlan) -> np.ndarray:
        """1 for sections in the language the query is written in, 0.5 in another language of
        the same script (French for an English query), else 0: of two editions of a rule,
        the reader gets the one they can read first."""
        preference = np.zeros(self.size, dtype=np.float32)
        for lang, (start, end) in self.ranges.items():  # each language's sections in a row
            weight = plan.sources.get(lang, 0.0)
            if weight >= 1.0:
                value = 1.0
            elif weight > 0 or (plan.sources and lang != "fa" and "fa" not in plan.sources):
                value = 0.5
            else:
                value = 0.0
            preference[start:end] = value
        return preference

    def _label_idf(self, plan: QueryPlan, cache: _Vectors) -> dict[str, float]:
        """For each query word (unit label), its importance: its highest weight × IDF in
        any language searched. It is what the word counts in every language's share, so a
        book whose language lacks the query's key word (or holds it only as a foreign word)
        does not look complete without it; a word no book holds (an untranslated "happens")
        counts nowhere."""
        found: dict[str, float] = {}
        for lang_query in plan.langs.values():
            for interpretation in lang_query.interpretations:
                for unit in interpretation:
                    weight = unit.weight * self._unit_idf(unit, lang_query.lang, cache)
                    found[unit.label] = max(found.get(unit.label, 0.0), weight)
        return found

    def _interpretation(self, lang_query: LangQuery, interpretation, cache, label_idf):
        """(coverage numerator, heading numerator, weight sum, units) over the slice of the
        query's language, units as (unit, importance, match, credit, heading, in_heading);
        None when no unit weighs anything."""
        start, end = self.ranges[lang_query.lang]
        total = np.zeros(end - start, dtype=np.float32)
        heading = np.zeros(end - start, dtype=np.float32)
        weight_sum = 0.0
        unit_weights = []
        for unit in interpretation:
            match, head, _focus, in_heading = self._unit_all(unit, lang_query.lang, cache)
            credit = unit.weight * self._unit_idf(unit, lang_query.lang, cache)
            # A word read in this language weighs its own IDF here; one this language lacks,
            # or holds only as a foreign word, weighs what it does where it is read.
            importance = credit
            if not credit or unit.origin == "foreign":
                importance = max(label_idf.get(unit.label, 0.0), credit)
            if importance <= 0:
                continue
            weight_sum += importance
            if credit:
                total += credit * match
                if in_heading:
                    heading += credit * head
            unit_weights.append((unit, importance, match, credit, head, in_heading))
        if weight_sum <= 0:
            return None
        return total, heading, weight_sum, unit_weights

    def _defines(self, concepts: Mapping[str, float]) -> np.ndarray:
        bonus = np.zeros(self.size, dtype=np.float32)
        total = sum(concepts.values())
        for concept, weight in concepts.items():
            at = self.defines.get(concept)
            if at is not None and total:
                bonus[at] += weight / total
        return bonus

    def _game_evidence(
        self, unit_weights, lang: str, reach: float, evidence: dict, cache: _Vectors
    ) -> None:
        """Add one reading's vote to `evidence` (game -> votes): naive Bayes over its units,
        among the games with books in its language (each unit's weight times the log of the
        share of the game's sections that hold it: "units" points at the miniatures game,
        "squares" at Tactics), as likelihoods summing to `reach` (the reading's weight times
        the best coverage it finds: a reading that answers little votes little)."""
        sizes = self.game_sizes[lang]
        if len(sizes) < 2:
            # A language whose books are all of one game (Persian: only the board game)
            # says nothing about the game: its reading would vote for that game whatever
            # the words, and every English or French query is also read in it.
            return
        log_likelihood = dict.fromkeys(sizes, 0.0)
        for unit, weight, match, *_rest in unit_weights:
            held = cache.games.get((unit.alternatives, lang))
            if held is None:
                start, end = self.ranges[lang]
                counts = np.bincount(self.game_codes[start:end][match > 0],
                                     minlength=len(self.game_names)).tolist()  # fmt: skip
                held = {g: float(counts[self.game_numbers[g]]) for g in sizes}
                cache.games[(unit.alternatives, lang)] = held
            for game, count in sizes.items():
                log_likelihood[game] += weight * math.log((held[game] + 0.5) / (count + 1.0))
        for game, share in _softmax(log_likelihood, GAME_SHARPNESS).items():
            evidence[game] = evidence.get(game, 0.0) + reach * share

    def _game_prior(self, plan: QueryPlan, evidence: Mapping[str, float]) -> np.ndarray:
        """Per section, the likelihood of its game given the query's words (0..1, summing
        to 1 over the games)."""
        shares = np.zeros(len(self.game_names), dtype=np.float32)
        for game, share in self.game_likelihood(evidence).items():
            shares[self.game_names.index(game)] = share
        return shares[self.game_codes]

    def _named_games(self, plan: QueryPlan) -> np.ndarray:
        named = np.zeros(self.size, dtype=np.float32)
        for game, weight in plan.games.items():
            mask = self.game_masks.get(game)
            if mask is not None:
                named[mask] = weight
        return named

    def game_likelihood(self, evidence: Mapping[str, float]) -> dict[str, float]:
        """The games' likelihoods (summing to 1) from the readings' votes."""
        total = sum(evidence.values())
        return {g: v / total for g, v in evidence.items()} if total > 0 else {}

    def _focus(self, plan: QueryPlan, cache: _Vectors) -> np.ndarray:
        """Share of a heading's words that belong to query phrases it holds whole (a
        heading that says little else than the question ranks above a longer one)."""
        best = np.zeros(self.size, dtype=np.float32)
        for lang, lang_query in plan.langs.items():
            start, end = self.ranges[lang]
            for interpretation in lang_query.interpretations:
                hits = np.zeros(end - start, dtype=np.float32)
                for unit in interpretation:
                    _match, _head, focus, in_heading = self._unit_all(unit, lang, cache)
                    if in_heading:
                        hits += focus
                np.maximum(best[start:end], hits, out=best[start:end])
        return np.minimum(np.divide(best, self.heading_words), 1.0)

    # --- reading a result --------------------------------------------------------------

    def doc_tokens(self, lang_query: LangQuery, positions: list[int]) -> dict[int, set[str]]:
        """The query tokens each section at `positions` holds (heading or body)."""
        wanted = np.array(positions, dtype=np.int32)  # the postings' type (see _lines_at)
        found: dict[int, set[str]] = {position: set() for position in positions}
        for token in lang_query.all_tokens:
            for posting in (self.body.get(token, (None,))[0], self.head.get(token)):
                if posting is None:
                    continue
                _at, present = _located(posting, wanted)
                for position in wanted[present].tolist():
                    found[position].add(token)
        return found

    def explain(
        self,
        plan: QueryPlan,
        position: int,
        *,
        game_boost: bool = True,
        best_passage: Mapping[int, int] | None = None,
        passages: Mapping[int, float] | None = None,
        meaning: Mapping[int, Meaning] | None = None,
    ) -> dict:
        """Why one section scored what it did: the reading that counted, each unit with what
        it matched and where, and the bonuses and penalty. `best_passage` and `passages`:
        the line each section's best passage starts at and its share of the query, as the
        ranking found them (the vectors `rank` returned), for the passage and number boosts;
        `meaning`: what the section's meaning added, and for which phrase (the same)."""
        cache = _Vectors()
        cache.best_passage.update(best_passage or {})
        lang = self.langs[position]
        lang_query = plan.langs.get(lang)
        best: dict = {"coverage": 0.0, "units": [], "reading": None}
        best_value = -1.0
        concepts: dict[str, float] = {}
        evidence: dict[str, float] = {}
        label_idf = self._label_idf(plan, cache)
        for other, other_query in plan.langs.items():
            for number, interpretation in enumerate(other_query.interpretations):
                parts = self._interpretation(other_query, interpretation, cache, label_idf)
                if parts is None:
                    continue
                for unit, weight, *_rest in parts[3]:
                    if unit.concept:
                        concepts[unit.concept] = max(concepts.get(unit.concept, 0.0), weight)
                coverage = parts[0] / parts[2]
                reach = other_query.reading_weight(number) * float(coverage.max(initial=0.0))
                self._game_evidence(parts[3], other, reach, evidence, cache)
        if lang_query is not None:
            for number, interpretation in enumerate(lang_query.interpretations):
                parts = self._interpretation(lang_query, interpretation, cache, label_idf)
                if parts is None:
                    continue
                total, heading, weight_sum, unit_weights = parts
                local = position - self.ranges[lang][0]
                reading = lang_query.reading_weight(number)
                coverage = float(total[local]) / weight_sum
                if coverage * reading <= best_value:
                    continue
                best_value = coverage * reading
                best = {
                    "coverage": round(coverage, 3),
                    "heading_coverage": round(float(heading[local]) / weight_sum, 3),
                    "reading": lang_query.readings[number]
                    if number < len(lang_query.readings)
                    else lang,
                    "reading_weight": reading,
                    "units": [
                        _unit_explanation(
                            unit, weight / weight_sum, match[local], position, self, cache
                        )
                        for unit, weight, match, *_rest in unit_weights
                    ],
                }
        defined = sorted(c for c in concepts if position in set(self.defines.get(c, ())))
        likelihood = self.game_likelihood(evidence) if game_boost else {}
        game = self.games[position]
        found = (meaning or {}).get(position, NO_MEANING)
        return {
            **best,
            "defines": defined,
            "boosts": {
                "defines": round(float(W_DEFINES * self._defines(concepts)[position]), 3),
                "game": round(W_GAME * likelihood.get(game, 0.0), 3),
                "game_named": W_NAMED_GAME if game_boost and game in plan.games else 0.0,
                "heading_focus": round(float(W_FOCUS * self._focus(plan, cache)[position]), 3),
                "passage": round(W_PASSAGE * (passages or {}).get(position, 0.0), 3),
                "language": round(float(W_LANGUAGE * self._reader_language(plan)[position]), 3),
                "kind_penalty": -float(self._kind_penalty(plan)[position]),
                "fragments": -round(float(W_FRAGMENTS * (1.0 - self.prose[position])), 3),
                "number": W_NUMBER
                if plan.asks_number
                and position in cache.best_passage
                and self._states_number(np.array([position]), cache)[0]
                else 0.0,
                "meaning": round(found.boost, 3),
            },
            "meaning": self._explain_meaning(plan, found),
            "passage_line": cache.best_passage.get(position),
            "asks_number": plan.asks_number,
            "asks_kinds": sorted(plan.asks_kinds),
            "game_likelihood": {g: round(v, 3) for g, v in sorted(likelihood.items())},
            "games_named": sorted(plan.games),
        }


_LIST_LINE = re.compile(r"^\s*(?:[-–—•♦◆*]|\d{1,2}[.)]|[۰-۹]{1,2}[.)])\s")
_SENTENCE_END = re.compile(r"[.:;!?؟…)»]\s*$")


_LANG_ORDER = {lang: number for number, lang in enumerate(LANGS)}


@functools.lru_cache(maxsize=1)
def _encoding_pool() -> concurrent.futures.ThreadPoolExecutor:
    """The threads questions are encoded in while their words are scored: one per core,
    so that searches running at once in a process do not queue for one."""
    return concurrent.futures.ThreadPoolExecutor(
        max_workers=os.cpu_count() or 2, thread_name_prefix="rules-meaning"
    )


def _best_of(positions: np.ndarray, score: np.ndarray, size: int) -> np.ndarray:
    """The `size` positions of the highest score (all of them when there are fewer)."""
    if positions.size <= size:
        return positions
    return positions[np.argpartition(-score[positions], size - 1)[:size]]


def _mask_of(masks: Iterable[int], start: int) -> int:
    """The bitwise or of `masks` and `start`."""
    return functools.reduce(operator.or_, masks, start)


def _unit_lines(unit: Unit, lines_at, size: int) -> np.ndarray:
    """For `size` candidates, a bit per line holding one of the unit's phrases, from
    `lines_at` (token -> its bits, shared: not modified here, and the result may be one
    of them). Note phrases are left out: notes have no lines, passages are the body's."""
    phrases = [phrase for phrase in unit.alternatives if not phrase[0].startswith(NOTE_PREFIX)]
    if not phrases:
        return np.zeros(size, dtype=np.uint64)
    return functools.reduce(
        operator.or_, (functools.reduce(operator.and_, map(lines_at, phrase)) for phrase in phrases)
    )


def _in_range(postings: np.ndarray | None, bounds: np.ndarray, start: int) -> np.ndarray | None:
    """The entries of `postings` within `bounds` (start, end), made relative to `start`;
    None when there are none."""
    if postings is None:
        return None
    low, high = postings.searchsorted(bounds)
    return postings[low:high] - start if high > low else None


def _frozen_zeros(size: int, dtype) -> np.ndarray:
    """Zeros no caller can write to (shared between searches)."""
    zeros = np.zeros(size, dtype=dtype)
    zeros.flags.writeable = False
    return zeros


def _located(postings: np.ndarray, positions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(index in `postings`, whether found) for each of `positions` (postings sorted; of
    their type, see `_lines_at`). The method, not np.searchsorted: a third of the cost."""
    at = postings.searchsorted(positions)
    at = np.minimum(at, max(postings.size - 1, 0))
    present = postings[at] == positions if postings.size else np.zeros(positions.size, bool)
    return at, present


_ENUMERATOR = re.compile(r"\s*\d{1,2}\s*[.)]\s")


def _heading_tokens(row: SectionRow) -> list[str]:
    """A heading's search tokens without the step number it may start with ("1. Raid
    Orders"): a list's numbering, not a word of the rule, so "once" or "one" asked in a
    question does not point at the first step of every procedure."""
    found = row.search_heading.split()
    if found and found[0].isdigit() and _ENUMERATOR.match(row.heading):
        return found[1:]
    return found


def _prose_share(body: str) -> float:
    """Share of a body's characters in lines of text: lines of at least PROSE_WORDS words,
    list items, or lines ending a sentence (1.0 for an empty body: nothing to hold against
    it). Card reprints and component lists are made of the other kind."""
    total = prose = 0
    for line in body.splitlines():
        size = len(line)
        total += size
        if len(line.split()) >= PROSE_WORDS or _LIST_LINE.match(line) or _SENTENCE_END.search(line):
            prose += size
    return prose / total if total else 1.0


def _softmax(values: Mapping[str, float], sharpness: float) -> dict[str, float]:
    if not values:
        return {}
    top = max(values.values())
    weights = {key: math.exp(sharpness * (value - top)) for key, value in values.items()}
    total = sum(weights.values())
    return {key: weight / total for key, weight in weights.items()}


def _unit_explanation(unit: Unit, share: float, score, position: int, index, cache) -> dict:
    where, matched = "", []
    for phrase in unit.alternatives:
        in_head = all(index._head(t, cache)[position] for t in phrase)
        in_body = all(index._body(t, cache)[position] > 0 for t in phrase)
        if in_head or in_body:
            where, matched = ("heading" if in_head else "body"), list(phrase)
            break
    else:
        for phrase in unit.alternatives:
            if phrase[0].startswith(NOTE_PREFIX):
                if index._noted(phrase, cache)[position]:
                    where, matched = "notes", [t.partition(":")[2] for t in phrase]
                    break
            elif all(index._context(t, cache)[position] for t in phrase):
                where, matched = "context", list(phrase)
                break
    return {
        "query": unit.label,
        "read_as": unit.origin,
        "concept": unit.concept or None,
        "share": round(share, 3),
        "matched": matched,
        "where": where or None,
        "score": round(float(score), 3),
    }


def surface_words(text: str, lang: str) -> dict[str, str]:
    """Written word (folded, unstemmed) -> its token, for the one-token words of a text."""
    found = {}
    for word in set(words(text, lang)):
        toks = word_tokens(word, lang)
        if len(toks) == 1:
            found[fold_accents(word)] = toks[0]
    return found


def _surfaces(chunks: Iterable[str], lang: str, terms: Glossary) -> dict[str, str]:
    """Written words -> tokens of the books' text (whitespace chunks, many shared) and of
    the table's terms, for typo correction on words ("ravitaillemnt")."""
    found: dict[str, str] = {}
    for chunk in chunks:
        found.update(surface_words(chunk, lang))
    for entry in terms.entries:
        for term in entry.terms.get(lang, ()):
            found.update(surface_words(term, lang))
    return found


def meaning_models_of(encoders: Sequence[SentenceEncoder]) -> MeaningModels | None:
    """The meaning models in use, from the encoders installed, with their weights
    (MEANING_WEIGHTS) and what each reads (rules.search.gloss); None without one."""
    if not encoders:
        return None
    names = tuple(encoder.name for encoder in encoders)
    read = {lang for encoder in encoders for lang in model_languages(encoder)}
    languages = tuple(lang for lang in READING_ORDER if lang in read)
    return MeaningModels(tuple(encoders), MEANING_WEIGHTS[names], model_reading, languages)


def sentence_cache(encoder: SentenceEncoder) -> Path:
    """Where the vectors of body sentences are kept: beside the model, per version of the
    tables the gloss reads when the model reads French through it (rules.search.gloss)."""
    version = "as-written" if "fr" in encoder.languages else gloss_version()
    return encoder.folder / f"sentences-{version}.npz"


def body_meanings(
    models: MeaningModels, bodies: Sequence[tuple[str, str]], *, encode_missing: bool
) -> SectionMeanings:
    """The vectors of the sentences of each section's body ((body, language) per section
    position), as each model reads them (rules.search.gloss): kept in its `sentence_cache`;
    encoded now when they are missing and `encode_missing` (a few milliseconds each)."""
    return models.meanings(
        [sentence_keys(body, lang, models.languages) for body, lang in bodies],
        cache=sentence_cache,
        keyed=True,
        encode_missing=encode_missing,
    )
