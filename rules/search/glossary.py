"""Game terms in English, French and Persian (rules/data/glossary.json), for query expansion.

A query term that is a glossary term (or a synonym) in any language also searches for its
equivalents in the language of each rulebook: "messenger raven" finds "Corbeau Messager" in
the French rulebook and "کلاغ پیام رسان" in the Persian one. Terms are compared after
`normalise`, so accents, case, plurals and Persian spelling variants do not matter.

Pure Python: the file is read once per process.
"""

from __future__ import annotations

import functools
import json
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import TypeVar

from .normalise import LANGS, fold_accents, tokens

DATA_DIR = Path(__file__).resolve().parent.parent / "data"
GLOSSARY_PATH = DATA_DIR / "glossary.json"
LEXICON_PATH = DATA_DIR / "lexicon.json"
DICTIONARY_PATH = DATA_DIR / "dictionary.json"

# What an entry is: a game term (glossary.json), an ordinary word (lexicon.json), a name
# of a game ("miniatures game", "jeu de plateau": a hint of the game, not words to find), or
# a general dictionary word (dictionary.json: read only where the others know no word).
TERM, WORD, GAME, DICTIONARY = "term", "word", "game", "dictionary"

Phrase = tuple[str, ...]


@dataclass(frozen=True)
class Entry:
    key: str
    games: tuple[str, ...]
    terms: dict[str, tuple[str, ...]]  # lang -> terms as written, preferred term first
    kind: str = TERM
    light: bool = False  # an ordinary word that frames a question ("become", "can")

    def phrases(self, lang: str) -> tuple[Phrase, ...]:
        """The entry's terms in `lang`, normalised, without duplicates or empty ones."""
        out: list[Phrase] = []
        for term in self.terms.get(lang, ()):
            # "Three-Eyed Crow" is also typed "three eyed crow" (without the joined token),
            # unless that loses words ("free for all" would be just "free").
            # An acronym's plural ("NCUs", "VPs") keeps its "s" through the stemmer.
            plural = (f"{term}s",) if term.isupper() and term.isalpha() and lang != "fa" else ()
            for variant in dict.fromkeys((term, term.replace("-", " "), *plural)):
                phrase = tuple(tokens(variant, lang))
                if variant != term and len(phrase) < len(term.split("-")):
                    continue
                if phrase and phrase not in out:
                    out.append(phrase)
        return tuple(out)


@dataclass(frozen=True)
class Match:
    """Glossary entries found at tokens[start:end] of a normalised query."""

    start: int
    end: int
    entries: tuple[Entry, ...]


class Glossary:
    def __init__(
        self,
        entries: Iterable[Entry],
        *,
        lookup: Iterable[str] = LANGS,
        known: Mapping[tuple[str, str], tuple[Phrase, ...]] | None = None,
    ):
        """A table of `entries`, looked up by their terms in the `lookup` languages (the
        others' phrases are normalised when first asked for). `known`: (entry key, lang) ->
        its phrases, normalised already (the dictionary's file keeps them: its thousands of
        headwords are not normalised again at each start)."""
        self.entries: tuple[Entry, ...] = tuple(entries)
        self._phrases: dict[str, dict[Phrase, list[Entry]]] = {lang: {} for lang in LANGS}
        self._entry_phrases: dict[tuple[str, str], tuple[Phrase, ...]] = {}
        known = known or {}
        for entry in self.entries:
            for lang in lookup:
                found = known.get((entry.key, lang))
                if found is None:
                    found = entry.phrases(lang)
                self._entry_phrases[entry.key, lang] = found
                for phrase in found:
                    self._phrases[lang].setdefault(phrase, []).append(entry)
        # Per language, the longest phrase starting with each token: `find` tries no
        # longer one there (and none at a token that starts no phrase).
        self._longest: dict[str, dict[str, int]] = {lang: {} for lang in LANGS}
        for lang, phrases in self._phrases.items():
            longest = self._longest[lang]
            for phrase in phrases:
                if phrase:
                    longest[phrase[0]] = max(longest.get(phrase[0], 0), len(phrase))
        self._vocabulary = {
            lang: frozenset(token for phrase in phrases for token in phrase)
            for lang, phrases in self._phrases.items()
        }

    def __len__(self) -> int:
        return len(self.entries)

    def get(self, key: str) -> Entry | None:
        return next((entry for entry in self.entries if entry.key == key), None)

    @cached_property
    def game_names(self) -> dict[str, tuple[str, ...]]:
        """Each game's names as written, in every language, longest first."""
        names: dict[str, set[str]] = {}
        for entry in self.entries:
            if entry.kind == GAME:
                for game in entry.games:
                    names.setdefault(game, set()).update(
                        name for terms in entry.terms.values() for name in terms
                    )
        return {game: tuple(sorted(found, key=len, reverse=True)) for game, found in names.items()}

    def vocabulary(self, lang: str) -> frozenset[str]:
        """Every token of every term in `lang` (typo tolerance corrects towards these too)."""
        return self._vocabulary.get(lang, frozenset())

    def phrases_of(self, entry: Entry, lang: str) -> tuple[Phrase, ...]:
        """`entry.phrases(lang)`, computed once."""
        found = self._entry_phrases.get((entry.key, lang))
        if found is None:
            found = self._entry_phrases[entry.key, lang] = entry.phrases(lang)
        return found

    def lookup(self, phrase: Sequence[str], lang: str) -> tuple[Entry, ...]:
        return tuple(self._phrases.get(lang, {}).get(tuple(phrase), ()))

    def find(self, query_tokens: Sequence[str], lang: str) -> list[Match]:
        """Glossary terms in a normalised query, longest first, left to right, no overlaps."""
        phrases = self._phrases.get(lang, {})
        longest = self._longest.get(lang, {})
        found: list[Match] = []
        i = 0
        while i < len(query_tokens):
            for size in range(min(longest.get(query_tokens[i], 0), len(query_tokens) - i), 0, -1):
                entries = phrases.get(tuple(query_tokens[i : i + size]))
                if entries:
                    found.append(Match(i, i + size, tuple(entries)))
                    i += size
                    break
            else:
                i += 1
        return found

    def expand(self, query: str, lang: str | None = None) -> dict[str, set[Phrase]]:
        """Every phrase (per language) that a query's glossary terms stand for.

        `lang` is the language the query is written in; None tries every language.
        """
        out: dict[str, set[Phrase]] = {target: set() for target in LANGS}
        for source in [lang] if lang else LANGS:
            for match in self.find(tokens(query, source), source):
                for entry in match.entries:
                    for target in LANGS:
                        out[target].update(self.phrases_of(entry, target))
        return out


def _entries(raws: Iterable[dict], kind: str) -> list[Entry]:
    return [
        Entry(
            key=raw["key"],
            games=tuple(raw.get("games") or ([raw["game"]] if raw.get("game") else [])),
            terms={lang: tuple(raw.get(lang) or ()) for lang in LANGS},
            kind=kind,
            light=bool(raw.get("light")),
        )
        for raw in raws
    ]


def parse_glossary(data: dict) -> Glossary:
    """A Glossary from the JSON document (format citadel-glossary/1)."""
    if data.get("format") != "citadel-glossary/1":
        raise ValueError("not a citadel-glossary/1 document")
    return Glossary(_entries(data["entries"], TERM))


def parse_lexicon(data: dict) -> list[Entry]:
    """The entries of the ordinary-word lexicon (format citadel-lexicon/1): its words, then
    the names of the games."""
    if data.get("format") != "citadel-lexicon/1":
        raise ValueError("not a citadel-lexicon/1 document")
    return _entries(data["entries"], WORD) + _entries(data.get("games") or (), GAME)


T = TypeVar("T")


def loaded_once(load: Callable[[], T]) -> Callable[[], T]:
    """`load`'s result, made once and kept (as `functools.cache`), and made once only when
    threads ask for it at the same time: the others wait for it rather than each making
    their own (a process's first search and the thread that warms the tables up would
    each parse them, the GIL slowing both)."""
    cached = lru_cache(maxsize=1)(load)
    lock = threading.Lock()

    @functools.wraps(load)
    def once() -> T:
        with lock:
            return cached()

    once.cache_info = cached.cache_info  # type: ignore[attr-defined]
    once.cache_clear = cached.cache_clear  # type: ignore[attr-defined]
    return once


@lru_cache(maxsize=1)
def load_glossary(path: str | None = None) -> Glossary:
    """The project's glossary (cached)."""
    with open(path or GLOSSARY_PATH, encoding="utf-8") as handle:
        return parse_glossary(json.load(handle))


@loaded_once
def load_lexicon() -> dict:
    """rules/data/lexicon.json as parsed, read once for all that is made of it: its words
    (`load_terms`), number and kind cues, and the French gloss's function words (do not
    modify it)."""
    with open(LEXICON_PATH, encoding="utf-8") as handle:
        data: dict = json.load(handle)
    return data


@loaded_once
def load_terms() -> Glossary:
    """What queries are read with: the game terms of the glossary, the ordinary words of the
    lexicon and the names of the games, in one table (cached)."""
    return Glossary([*load_glossary().entries, *parse_lexicon(load_lexicon())])


# A direction of the general dictionary: (language of the query, language of the book).
Direction = tuple[str, str]


def dictionary_entry(word: str, translations: Sequence[str], source: str, target: str) -> Entry:
    """A general dictionary's headword (in `source`) and its translations (in `target`)."""
    return Entry(
        key=f"{source}:{word}",
        games=(),
        terms={source: (word,), target: tuple(translations)},
        kind=DICTIONARY,
    )


def parse_dictionary(data: dict) -> dict[Direction, Glossary]:
    """Per direction ("en-fr"), a table of that direction's headwords, each entry holding the
    headword in the source language and its translations in the target language (format
    citadel-dictionary/1). Only looked up in the source language: an English word is
    translated by the English–French entries, never by a French headword's translations.
    The optional `phrases` block gives each headword's search phrases as the normaliser
    makes them (tokens joined by spaces; scripts/build_dictionary.py writes it and a test
    checks it against the normaliser): read as they are, else normalised here."""
    if data.get("format") != "citadel-dictionary/1":
        raise ValueError("not a citadel-dictionary/1 document")
    tables: dict[Direction, Glossary] = {}
    stored = data.get("phrases") or {}
    for name, words in (data.get("directions") or {}).items():
        source, target = name.split("-")
        known = {
            (f"{source}:{word}", source): tuple(tuple(phrase.split()) for phrase in phrases)
            for word, phrases in (stored.get(name) or {}).items()
        }
        entries = (
            dictionary_entry(word, translations, source, target)
            for word, translations in words.items()
        )
        tables[source, target] = Glossary(entries, lookup=(source,), known=known)
    return tables


@loaded_once
def load_dictionary() -> dict[Direction, Glossary]:
    """The general EN↔FR dictionary (rules/data/dictionary.json, cached); empty without it."""
    try:
        with open(DICTIONARY_PATH, encoding="utf-8") as handle:
            return parse_dictionary(json.load(handle))
    except FileNotFoundError:
        return {}


@dataclass(frozen=True)
class PhraseCues:
    """Word sequences (folded, lower-case) that tell what a question asks for, each under a
    name: the language of "how many", or the kind of section "who designed" asks for."""

    phrases: dict[str, tuple[tuple[str, ...], ...]]

    def found(self, query_words: Sequence[str]) -> frozenset[str]:
        """The names whose phrases stand in the query's words (folded, lower-case, in
        order): only the phrases starting with each word are compared (every search asks
        this, and trying each phrase at each word cost a tenth of the query's planning)."""
        words = tuple(query_words)
        names = set()
        for i, word in enumerate(words):
            for phrase, name in self._by_first_word.get(word, ()):
                if words[i : i + len(phrase)] == phrase:
                    names.add(name)
        return frozenset(names)

    @cached_property
    def _by_first_word(self) -> dict[str, list[tuple[tuple[str, ...], str]]]:
        """(phrase, name) of every phrase, by its first word."""
        found: dict[str, list[tuple[tuple[str, ...], str]]] = {}
        for name, phrases in self.phrases.items():
            for phrase in phrases:
                if phrase:
                    found.setdefault(phrase[0], []).append((phrase, name))
        return found


def _phrase_cues(raw: dict) -> PhraseCues:
    """name -> phrases as written, folded and split into words."""
    return PhraseCues(
        {
            name: tuple(tuple(fold_accents(p.lower()).split()) for p in phrases)
            for name, phrases in raw.items()
        }
    )


@dataclass(frozen=True)
class NumberCues:
    """What tells a question asking for a number ("how many", "combien", "چند": `asks`,
    per language) and what states one in a section (`values`: per language, the tokens of
    number words; digits always count)."""

    asks: PhraseCues
    values: dict[str, frozenset[str]]

    def asked(self, query_words: Sequence[str]) -> bool:
        """Whether the query's words (folded, lower-case, in order) ask for a number."""
        return bool(self.asks.found(query_words))

    def states(self, token: str, lang: str) -> bool:
        """Whether a section token states a number in `lang` (digits, or a number word)."""
        return token.isdigit() or token in self.values.get(lang, ())


def parse_number_cues(data: dict) -> NumberCues:
    numbers = data.get("numbers") or {}
    values = {
        lang: frozenset(t for word in found for t in tokens(word, lang))
        for lang, found in (numbers.get("values") or {}).items()
    }
    return NumberCues(_phrase_cues(numbers.get("asks") or {}), values)


def parse_kind_cues(data: dict) -> PhraseCues:
    """The lexicon's `kinds.asks`: per kind of section the ranking keeps below the rules
    (credits, examples), the words of a question that asks for one, all languages
    together."""
    asks = (data.get("kinds") or {}).get("asks") or {}
    return _phrase_cues(
        {
            kind: [p for phrases in per_lang.values() for p in phrases]
            for kind, per_lang in asks.items()
        }
    )


@lru_cache(maxsize=1)
def load_kind_cues() -> PhraseCues:
    """The kind cues of the lexicon (cached)."""
    return parse_kind_cues(load_lexicon())


@lru_cache(maxsize=1)
def load_number_cues() -> NumberCues:
    """The number cues of the lexicon (cached)."""
    return parse_number_cues(load_lexicon())
