"""An English gloss of French text, word by word, for the meaning model: of a question, and
of the sentences of a section's body.

The English meaning model (rules.search.meaning) reads English only (the multilingual one,
rules.search.multilingual, reads French and Persian as written: `model_reading` says
which model reads what). A French question ("peut on
mesurer avant de charger") is read by it through a rough word-for-word English gloss ("can
I measure before of charge"): good enough for a sentence encoder, which weighs the
content words, and never shown as a translation.

Each word, or the longest run of words that has an entry, is glossed by the first of:
the lexicon's French function words (`gloss` in lexicon.json: "je" -> "I", "combien" ->
"how many"; an empty gloss drops the word), the game glossary's preferred English term,
the lexicon's ordinary words, then the general dictionary's first sense. A word none of
them has is compared by its French stem ("commence" -> "commencer" -> "start"), and kept
as it is when that fails too (names, numbers). Matching ignores case and accents: players
type "egalite" for "égalité".

A section's body is read by the model sentence by sentence (`sentence_keys`): its first
MAX_SENTENCES sentences of at least MIN_WORDS words, each kept under a key that names its
language ("fr:Une figurine par case."), read by each model as `model_reading` says (the
English model: the gloss of a French sentence, an English one as it is, no Persian).

Pure functions over the shipped tables, no Django import.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from .glossary import (
    DICTIONARY,
    DICTIONARY_PATH,
    GLOSSARY_PATH,
    LEXICON_PATH,
    TERM,
    Entry,
    load_dictionary,
    load_lexicon,
    load_terms,
    loaded_once,
)
from .normalise import fold_accents, prepare, stem

SOURCE = "fr"  # the language glossed
TARGET = "en"  # the language the model reads
# Which table wins when several gloss the same words (lower first).
_FUNCTION, _TERM, _WORD, _DICTIONARY = range(4)
_PART = re.compile(r"[^\W_]+")
MAX_SENTENCES = 40  # of a section's body, read by the model
MIN_WORDS = 4  # shorter ones (a label, a number, a table cell) say too little
MAX_CHARS = 400  # a longer "sentence" is a table or a list run together: its start is read
_SENTENCE_END = re.compile(r"(?<=[.!?:;])\s+")
READ_LANGS = ("en", SOURCE)  # the languages read in English: as they are, and glossed

Words = tuple[str, ...]


def gloss_words(text: str) -> Words:
    """The folded words of French text (lower-case, no accents; l', qu' and hyphens split)."""
    return tuple(fold_accents(part) for part in _PART.findall(prepare(text, SOURCE)))


@dataclass(frozen=True)
class Gloss:
    """French word runs (folded) -> their English gloss, and single words' stems -> theirs."""

    phrases: Mapping[Words, str]
    stems: Mapping[str, str]
    longest: int

    def read(self, question: str) -> str:
        """The English gloss of a French question (its words in order; unknown words kept)."""
        words = gloss_words(question)
        out: list[str] = []
        at = 0
        while at < len(words):
            for size in range(min(self.longest, len(words) - at), 0, -1):
                found = self.phrases.get(words[at : at + size])
                if found is not None:
                    if found:
                        out.append(found)
                    at += size
                    break
            else:
                word = words[at]
                out.append(self.stems.get(stem(word, SOURCE), word))
                at += 1
        return " ".join(out)


def build_gloss(function_words: Mapping[str, str], entries: Iterable[Entry]) -> Gloss:
    """A gloss from the function words (French -> English, "" to drop) and the entries of
    the glossary, lexicon and dictionary (their first English term)."""
    ranked: dict[Words, tuple[int, str]] = {}

    def offer(french: str, english: str, rank: int) -> None:
        words = gloss_words(french)
        if words and (words not in ranked or ranked[words][0] > rank):
            ranked[words] = (rank, english)

    for french, english in function_words.items():
        offer(french, english, _FUNCTION)
    for entry in entries:
        english_terms = entry.terms.get(TARGET, ())
        if not english_terms:
            continue
        rank = {TERM: _TERM, DICTIONARY: _DICTIONARY}.get(entry.kind, _WORD)
        for french in entry.terms.get(SOURCE, ()):
            offer(french, english_terms[0], rank)
    stems: dict[str, tuple[int, str]] = {}
    for words, (rank, english) in ranked.items():
        if len(words) == 1 and rank != _FUNCTION:
            key = stem(words[0], SOURCE)
            if key not in stems or stems[key][0] > rank:
                stems[key] = (rank, english)
    return Gloss(
        phrases={words: english for words, (_rank, english) in ranked.items()},
        stems={key: english for key, (_rank, english) in stems.items()},
        longest=max((len(words) for words in ranked), default=1),
    )


@loaded_once
def load_gloss() -> Gloss:
    """The gloss of the shipped tables (cached). The tables a query is planned with are
    read first, as a thread warming them up for the first search (`warm_up`) needs."""
    terms = load_terms()
    dictionary = load_dictionary().get((SOURCE, TARGET))
    function_words = (load_lexicon().get("gloss") or {}).get(SOURCE) or {}
    return build_gloss(
        function_words,
        [*terms.entries, *(dictionary.entries if dictionary is not None else ())],
    )


@lru_cache(maxsize=256)
def read_in_english(text: str, lang: str) -> str | None:
    """What the meaning model reads of text in `lang`: English as it is, French through its
    gloss; None for a language it cannot read (Persian). Cached: a search glosses its
    question once, then again for each result it explains."""
    if lang == TARGET:
        return text
    if lang == SOURCE:
        return load_gloss().read(text)
    return None


def model_reading(model: Any, text: str, lang: str) -> str | None:
    """What a meaning model reads of `text` in `lang` (`model.languages`: those it reads as
    written): the text itself, else its English gloss when the model reads English (French),
    else nothing (None)."""
    if lang in model.languages:
        return text
    if TARGET in model.languages:
        return read_in_english(text, lang)
    return None


def model_languages(model: Any) -> tuple[str, ...]:
    """The languages a meaning model reads (`model_reading`): as written, and French through
    the gloss when it reads English."""
    glossed = READ_LANGS if TARGET in model.languages else ()
    return tuple(dict.fromkeys((*model.languages, *glossed)))


def sentence_keys(body: str, lang: str, langs: Iterable[str] = READ_LANGS) -> tuple[str, ...]:
    """The sentences of a section's body the models read, as keys naming their language
    ("fr:…"); none in a language they do not read (`langs`)."""
    if lang not in langs or not body:
        return ()
    found: list[str] = []
    for sentence in _SENTENCE_END.split(" ".join(body.split())):
        if len(sentence.split()) >= MIN_WORDS:
            found.append(f"{lang}:{sentence[:MAX_CHARS]}")
            if len(found) == MAX_SENTENCES:
                break
    return tuple(found)


def key_sentence(key: str) -> str:
    """The sentence of a sentence key, as the book writes it."""
    return key.partition(":")[2]


@lru_cache(maxsize=1)
def gloss_version() -> str:
    """A short fingerprint of the tables the gloss reads: the sentence vectors are kept per
    version, so that a changed table has the sentences read again."""
    digest = hashlib.sha256()
    for path in (LEXICON_PATH, GLOSSARY_PATH, DICTIONARY_PATH):
        digest.update(path.read_bytes() if path.is_file() else b"")
    return digest.hexdigest()[:12]
