"""From a query string to what each backend searches: a `QueryPlan` (pure functions).

A query is read word by word. Each rulebook language L gets one `LangQuery`: one or more
*interpretations* of the query, each a list of *units* that must all match (AND); a unit
is a set of alternative phrases (OR), each phrase a set of tokens that must all occur:

    "corbeau messager regles" on the Persian book
        reading as French:  [ {کلاغ پیام رسان | کلاغ | …} , {regl} ]
        reading as Persian: [ {corbeau}, {messag}, {regl} ]

- The query is normalised in the language of each book it searches (`normalise`).
- Glossary terms found in the query in any language (English, French or Persian reading)
  add their equivalents in L as alternatives of one unit (cross-language expansion).
- A word that matches nothing in any language (not in the vocabulary of the indexed
  books nor of the glossary) and has at least 5 letters is corrected: vocabulary tokens at
  edit distance 1 (2 for words of 8 letters or more) become alternatives (typo tolerance
  for OCR damage and player typos).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache

from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from .glossary import (
    DICTIONARY,
    GAME,
    TERM,
    WORD,
    Direction,
    Glossary,
    load_kind_cues,
    load_number_cues,
)
from .normalise import LANGS, STOP_WORDS, fold_accents, scripts, word_tokens, words
from .notes import NOTE_LANGS, note_phrase

Phrase = tuple[str, ...]
MAX_WORDS = 32
MIN_TYPO_LETTERS = 5
LONG_WORD_LETTERS = 8
MAX_CORRECTIONS = 3
COMMON_FREQUENCY = 3  # sections; rarer tokens may be typos or OCR fragments
CLOSEST_CACHE = 4096  # typo corrections (and variants) remembered per vocabulary
# How much a reading of the query counts when the query's words say it is in another
# language ("how many inches" is English: its French reading is a weak guess).
OTHER_READING = 0.55
# A word of the query kept as it is in a book of another language ("table" in a French book
# for an English query) is a weak clue; one in another script (an English word printed in
# the Persian book's captions), weaker still.
FOREIGN_WORD = 0.5
FOREIGN_SCRIPT = 0.2
WORD_WEIGHT = 0.8  # an ordinary word translated by the lexicon, against a game term (1.0)
LIGHT_WORD_WEIGHT = 0.4  # one that only frames the question ("become", "can", "how does")
DICTIONARY_WEIGHT = 0.6  # a word only the general dictionary translates (several senses)

# Words that ask rather than name: left out of queries (never of the index) in every
# language, so "what happens when…" looks for what follows.
QUESTION_WORDS = {
    "en": frozenset(
        [
            "happen",
            "happens",
            "happened",
            "get",
            "gets",
            "got",
            "work",
            "works",
            "done",
            "doing",
            "does",
            "exactly",
            "really",
            "rule",
            "rules",
            "thing",
            "things",
            "also",
            "there",
            "just",
            "mean",
            "means",
            "anything",
            "something",
            "someone",
            "many",
            "much",
        ]
    ),
    "fr": frozenset(
        [
            "passe",
            "passer",
            "arrive",
            "comment",
            "quand",
            "pourquoi",
            "est-ce",
            "exactement",
            "vraiment",
            "regle",
            "regles",
            "chose",
            "faire",
            "fait",
            "fais",
            "font",
            "peut-on",
            "combien",
        ]
    ),
    "fa": frozenset(["چه", "چطور", "چگونه", "آیا", "وقتی", "زمانی", "چند", "چندتا"]),
}


@dataclass(frozen=True)
class Unit:
    """One part of the query: any of the alternatives satisfies it.

    `label`: the query words it stands for; `origin`: how it was read ("query" as typed,
    "typo" corrected, "term" a glossary term, "word" the lexicon, "foreign" a word kept as
    typed in a book of another language); `weight` scales its share of the score;
    `concept`: the glossary key of a game term (sections defining it get a bonus).
    """

    alternatives: tuple[Phrase, ...]
    label: str = ""
    origin: str = "query"
    weight: float = 1.0
    concept: str = ""

    def matches(self, doc_tokens: Collection[str]) -> bool:
        return any(all(token in doc_tokens for token in phrase) for phrase in self.alternatives)

    def tokens(self) -> set[str]:
        return {token for phrase in self.alternatives for token in phrase}


Interpretation = tuple[Unit, ...]


@dataclass(frozen=True)
class LangQuery:
    """What to search in the books of one language."""

    lang: str
    interpretations: tuple[Interpretation, ...]
    # How much each interpretation counts, and the language it reads the query in.
    reading_weights: tuple[float, ...] = ()
    readings: tuple[str, ...] = ()

    def reading_weight(self, index: int) -> float:
        return self.reading_weights[index] if index < len(self.reading_weights) else 1.0

    @cached_property
    def all_tokens(self) -> frozenset[str]:
        return frozenset(
            t for interp in self.interpretations for unit in interp for t in unit.tokens()
        )

    @cached_property
    def _compiled(self) -> tuple[tuple[tuple[frozenset[str], ...], ...], ...]:
        return tuple(
            tuple(tuple(frozenset(phrase) for phrase in unit.alternatives) for unit in interp)
            for interp in self.interpretations
            if interp
        )

    def tokens(self) -> set[str]:
        return set(self.all_tokens)

    def matched_units(self, doc_tokens: Collection[str]) -> list[tuple[int, int]]:
        """(units matched, units) for each interpretation."""
        present = self.all_tokens.intersection(doc_tokens)
        return [
            (sum(1 for unit in interp if any(alt <= present for alt in unit)), len(interp))
            for interp in self._compiled
        ]

    def coverage(self, doc_tokens: Collection[str]) -> float:
        """Best share of units matched by `doc_tokens`, over the interpretations (0..1)."""
        return max((m / n for m, n in self.matched_units(doc_tokens)), default=0.0)

    def direct_coverage(self, doc_tokens: Collection[str]) -> float:
        """Coverage by the query read in the book's own language (the first reading)."""
        matched = self.matched_units(doc_tokens)
        return matched[0][0] / matched[0][1] if matched else 0.0

    def matched_tokens(self, doc_tokens: Collection[str]) -> set[str]:
        """Tokens to highlight in a document: per unit, the first alternative it contains
        (the query's own words first, then the glossary's preferred term, then synonyms)."""
        found: set[str] = set()
        present = self.all_tokens.intersection(doc_tokens)
        for interpretation in self._compiled:
            for unit in interpretation:
                for phrase in unit:
                    if phrase <= present:
                        found |= phrase
                        break
        return found

    @property
    def is_single_unit(self) -> bool:
        return len(self.interpretations) == 1 and len(self.interpretations[0]) == 1


@dataclass(frozen=True)
class QueryPlan:
    query: str
    langs: dict[str, LangQuery] = field(default_factory=dict)
    corrections: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # Games the query names ("in tactics", "the board game"): game -> weight.
    games: dict[str, float] = field(default_factory=dict)
    # The languages the query seems written in: lang -> weight (1.0 = most likely).
    sources: dict[str, float] = field(default_factory=dict)
    # The query asks for a number or a limit ("how many", "combien", "چند").
    asks_number: bool = False
    # What the meaning models read: the query without the names of the games it names
    # ("bonus for charging in tactics" -> "bonus for charging"); empty: the query itself.
    meaning_text: str = ""
    # The kinds of section the ranking keeps below the rules that the query asks for
    # ("who designed" the credits, "example" the examples): they rank without the penalty.
    asks_kinds: frozenset[str] = frozenset()

    @property
    def meaning_query(self) -> str:
        return self.meaning_text or self.query

    def __bool__(self) -> bool:
        return bool(self.langs)


class Vocabulary:
    """Known tokens of one language, for typo correction.

    `frequencies`: token -> number of sections containing it; `surface`: a word as written
    (lower-case, no accents) -> its token, so that a typo in a word ending
    ("ravitaillemnt") is matched on the word before it is matched on the stem.
    """

    def __init__(
        self,
        frequencies: Mapping[str, int],
        extra: Iterable[str] = (),
        surface: Mapping[str, str] | None = None,
    ):
        self.frequencies = dict(frequencies)
        for token in extra:
            self.frequencies.setdefault(token, 0)
        self.surface = dict(surface or {})
        self._tokens = _by_length(self.frequencies)
        self._words = _by_length(self.surface)
        # `closest` is a pure function of its arguments and of this vocabulary (rebuilt
        # with the index): its answers are remembered, a bounded number of them.
        self._closest: dict[tuple[str, int, str, int, int], list[str]] = {}
        self._variants: dict[str, tuple[str, ...]] = {}

    def __contains__(self, token: object) -> bool:
        return token in self.frequencies

    def __len__(self) -> int:
        return len(self.frequencies)

    def frequency(self, token: str) -> int:
        return self.frequencies.get(token, 0)

    def closest(
        self,
        token: str,
        max_distance: int,
        word: str = "",
        limit: int = MAX_CORRECTIONS,
        min_frequency: int = 0,
    ) -> list[str]:
        """Known tokens within `max_distance` edits of `token` (or whose written word is
        within `max_distance` of `word`), nearest first, then the most frequent; with
        `min_frequency`, only tokens found in at least that many sections."""
        if max_distance < 1:
            return []
        key = (token, max_distance, word, limit, min_frequency)
        found = self._closest.get(key)
        if found is None:
            if len(self._closest) >= CLOSEST_CACHE:
                self._closest.clear()
            found = self._closest[key] = self._find_closest(*key)
        return list(found)

    def variants(self, token: str) -> tuple[str, ...]:
        """The forms of `token` with a verb or adjective ending more or less
        (VARIANT_ENDINGS) that this vocabulary holds (remembered, a bounded number)."""
        found = self._variants.get(token)
        if found is None:
            forms = [token + ending for ending in VARIANT_ENDINGS]
            forms += [token[: -len(e)] for e in VARIANT_ENDINGS if token.endswith(e)]
            if len(self._variants) >= CLOSEST_CACHE:
                self._variants.clear()
            found = self._variants[token] = tuple(
                form for form in forms if len(form) >= 3 and form in self
            )
        return found

    def _find_closest(
        self, token: str, max_distance: int, word: str, limit: int, min_frequency: int
    ) -> list[str]:
        distances: dict[str, int] = {}
        for choice, distance, _index in _nearest(token, self._tokens, max_distance):
            distances[choice] = min(distance, distances.get(choice, distance))
        if word:
            for choice, distance, _index in _nearest(word, self._words, max_distance):
                found = self.surface[choice]
                distances[found] = min(distance, distances.get(found, distance))
        distances.pop(token, None)
        if min_frequency:
            distances = {t: d for t, d in distances.items() if self.frequency(t) >= min_frequency}
        ranked = sorted(distances, key=lambda t: (distances[t], -self.frequencies.get(t, 0), t))
        return ranked[:limit]


def _by_length(strings: Iterable[str]) -> dict[int, list[str]]:
    buckets: dict[int, list[str]] = {}
    for string in strings:
        buckets.setdefault(len(string), []).append(string)
    return buckets


def _nearest(query: str, buckets: dict[int, list[str]], max_distance: int):
    """(choice, distance, index) for the choices within `max_distance` edits; only lengths
    that can be that close are compared."""
    found = []
    for length in range(len(query) - max_distance, len(query) + max_distance + 1):
        choices = buckets.get(length)
        if choices:
            found += process.extract(
                query, choices, scorer=Levenshtein.distance, score_cutoff=max_distance, limit=20
            )
    return found


def source_langs(query: str) -> tuple[str, ...]:
    """The languages a query may be written in, from its script."""
    found = scripts(query)
    langs = []
    if "latin" in found:
        langs += ["en", "fr"]
    if "arabic" in found:
        langs.append("fa")
    return tuple(langs) or LANGS


def max_typo_distance(word: str) -> int:
    letters = sum(ch.isalpha() for ch in word)
    if letters < MIN_TYPO_LETTERS:
        return 0
    return 2 if letters >= LONG_WORD_LETTERS else 1


def plan_query(
    query: str,
    targets: Iterable[str],
    glossary: Glossary,
    vocabularies: Mapping[str, Vocabulary],
    dictionary: Mapping[Direction, Glossary] | None = None,
) -> QueryPlan:
    """The plan for searching `query` in books of the `targets` languages.

    `vocabularies` holds, per language, the tokens of the indexed books and of the glossary;
    `dictionary` the general word tables per direction, read where `glossary` knows no word.
    """
    targets = [lang for lang in LANGS if lang in set(targets)]
    sources = source_langs(query)
    langs = [lang for lang in LANGS if lang in set(sources) | set(targets)]
    # A word that is a stop word in any language the query may be in is left out
    # ("the" in a French query, "de" in an English one).
    all_words = words(query, "fa")
    source_weights = reading_weights(all_words, sources)
    raw_words = [
        w
        for w in all_words
        if not any(w in STOP_WORDS[lang] or w in QUESTION_WORDS[lang] for lang in langs)
    ][:MAX_WORDS]
    if not raw_words or not targets:
        return QueryPlan(query)
    empty = Vocabulary({})

    tables = dictionary or {}

    def common(token: str, lang: str) -> bool:
        if token in glossary.vocabulary(lang):
            return True
        return vocabularies.get(lang, empty).frequency(token) >= COMMON_FREQUENCY

    def in_dictionary(word: str) -> bool:
        """A headword of the general dictionary: a real word, not a typo ("crown" is not
        "crow")."""
        for (source, _target), table in tables.items():
            toks = word_tokens(word, source)
            if toks and all(t in table.vocabulary(source) for t in toks):
                return True
        return False

    def known(word: str) -> bool:
        """Common in some language: a word seen in one or two sections only may be an OCR
        fragment ("Ravitail-"), so it is still corrected towards common words."""
        for lang in LANGS:
            toks = word_tokens(word, lang)
            if toks and all(common(t, lang) for t in toks):
                return True
        return False

    # Per language: for each word, its tokens, each with its alternatives (typo fixes).
    readings: dict[str, list[list[tuple[str, ...]]]] = {}
    corrections: dict[str, tuple[str, ...]] = {}
    unknown = {
        i: max_typo_distance(w)
        for i, w in enumerate(raw_words)
        if not known(w) and not in_dictionary(w)
    }
    for lang in langs:
        vocabulary = vocabularies.get(lang, empty)
        per_word = []
        for i, word in enumerate(raw_words):
            options = []
            for token in word_tokens(word, lang):
                fixes: list[str] = []
                if unknown.get(i) and not common(token, lang):
                    fixes = vocabulary.closest(
                        token,
                        unknown[i],
                        word=fold_accents(word),
                        min_frequency=COMMON_FREQUENCY if token in vocabulary else 0,
                    )
                    if fixes:
                        corrections[f"{lang}:{token}"] = tuple(fixes)
                options.append((token, *fixes))
            per_word.append(options)
        readings[lang] = per_word

    plan: dict[str, LangQuery] = {}
    games: dict[str, float] = {}
    for target in targets:
        interpretations: list[Interpretation] = []
        weights: list[float] = []
        read_as: list[str] = []
        # The query read in the book's own language, unless it is in another script (a
        # Persian query read as French finds nothing), then read in each of its languages.
        own = [target] if target in sources or len(sources) == len(LANGS) else []
        for source in [*own, *[s for s in sources if s != target]]:
            # Game names count in the readings the query's words make likely only
            # ("tactics" is a game in an English query, a word in a French one).
            likely = source_weights.get(source, 0.0) >= 1.0
            named = games if likely else {}
            interpretation, expanded = _interpret(
                raw_words,
                readings[source],
                readings[target],
                source,
                target,
                glossary,
                named,
                tables.get((source, target)),
                notes=likely and source in NOTE_LANGS,
            )
            interpretation = _with_variants(interpretation, vocabularies.get(target, empty))
            wanted = interpretation and (source == target or expanded)
            if wanted and interpretation not in interpretations:
                interpretations.append(interpretation)
                weights.append(source_weights.get(source, OTHER_READING))
                read_as.append(source)
        if interpretations:
            plan[target] = LangQuery(target, tuple(interpretations), tuple(weights), tuple(read_as))
    folded = [fold_accents(w.lower()) for w in all_words]
    meaning_text = without_game_names(query, games, glossary) if games else ""
    return QueryPlan(
        query,
        plan,
        corrections,
        games,
        source_weights,
        asks_number=load_number_cues().asked(folded),
        meaning_text=meaning_text,
        asks_kinds=load_kind_cues().found(folded),
    )


# A preposition or article left hanging by a game's name taken out ("in the", "dans le").
_BEFORE_GAME_NAME = r"(?:\b(?:in|for|with|en|dans|au|pour|à)\s+(?:the\s+|le\s+|la\s+|l')?)?"


@lru_cache(maxsize=256)
def _game_name_pattern(name: str) -> re.Pattern[str]:
    """A game's name as a whole word, with the preposition that may lead to it (compiled
    once: the glossary's game names are a few dozen)."""
    return re.compile(
        _BEFORE_GAME_NAME + r"(?<!\w)" + re.escape(name) + r"(?!\w)\s*:?", re.IGNORECASE
    )


def without_game_names(query: str, games: Mapping[str, float], glossary: Glossary) -> str:
    """`query` without the name of each game it names (the lexicon's game entries: the
    longest found, once) and the preposition that led to it: the game is a filter's hint,
    not what the question asks, so the meaning models do not read it (a section's phrases
    never name their game). A second use of a word ("song tactics: … a tactics card") is
    kept. The query itself when nothing would be left."""
    text = query
    for game in games:
        for name in glossary.game_names.get(game, ()):
            text, found = _game_name_pattern(name).subn(" ", text, count=1)
            if found:
                break
    text = " ".join(text.split()).strip(" :,;-")
    return text or query


def reading_weights(query_words: list[str], sources: Iterable[str]) -> dict[str, float]:
    """How likely the query is written in each of `sources`: the language whose stop and
    question words it uses most gets 1.0, the others OTHER_READING (all 1.0 on a tie)."""
    sources = list(sources)
    counts = {
        lang: sum(1 for w in query_words if w in STOP_WORDS[lang] or w in QUESTION_WORDS[lang])
        for lang in sources
    }
    best = max(counts.values(), default=0)
    if best == 0 or list(counts.values()).count(best) > 1:
        return dict.fromkeys(sources, 1.0)
    return {lang: 1.0 if count == best else OTHER_READING for lang, count in counts.items()}


def _interpret(
    raw_words: list[str],
    source_reading: list[list[tuple[str, ...]]],
    target_reading: list[list[tuple[str, ...]]],
    source: str,
    target: str,
    glossary: Glossary,
    games: dict[str, float],
    dictionary: Glossary | None = None,
    *,
    notes: bool = False,
) -> tuple[Interpretation, bool]:
    """Units for the target language, reading the query in the source language.

    Terms of the table (game terms, ordinary words, game names) found in the source reading
    become units whose alternatives are their equivalents in the target language; a game
    name is noted in `games` and searched for no further; words the table does not know are
    translated by the general `dictionary` of this direction (the word as typed staying an
    alternative: cognates); the other words stay as typed.
    """
    # Flatten the source reading; the glossary sees the best form of each token
    # (itself when known, else its closest correction).
    flat: list[tuple[int, tuple[str, ...]]] = [
        (i, options) for i, word in enumerate(source_reading) for options in word
    ]
    best = [_best(options) for _i, options in flat]
    units: list[tuple[int, Unit]] = []
    covered: set[int] = set()
    expanded = False
    for match in glossary.find(best, source):
        word_indices = {flat[k][0] for k in range(match.start, match.end)}
        label = " ".join(dict.fromkeys(raw_words[i] for i in sorted(word_indices)))
        kinds = {entry.kind for entry in match.entries}
        if GAME in kinds:  # a game's name ("hand of the king"): a hint, not words to find
            for entry in match.entries:
                if entry.kind == GAME:
                    for game in entry.games:
                        games[game] = 1.0
            covered |= word_indices
            continue
        entries = sorted((e for e in match.entries if e.kind != GAME), key=lambda e: e.kind != TERM)
        alternatives: list[Phrase] = []
        for entry in entries:
            alternatives += [p for p in glossary.phrases_of(entry, target) if p not in alternatives]
        own = tuple(best[match.start : match.end])
        if source == target and own not in alternatives:
            alternatives.insert(0, own)
        if not alternatives:
            continue
        if notes:
            alternatives.append(note_phrase(own, source))
        covered |= word_indices
        term = TERM in kinds
        concept = next((e.key for e in entries if e.kind == TERM), "")
        units.append(
            (
                min(word_indices),
                Unit(
                    tuple(alternatives),
                    label=label,
                    origin=TERM if term else WORD,
                    weight=1.0 if term else _word_weight(entries),
                    concept=concept,
                ),
            )
        )
        expanded = True
    for match in dictionary.find(best, source) if dictionary is not None else ():
        word_indices = {flat[k][0] for k in range(match.start, match.end)}
        if word_indices & covered:
            continue
        # The word as typed, read in the book's language (a cognate: "distance").
        own = tuple(options[0] for i in sorted(word_indices) for options in target_reading[i])
        alternatives = [own] if own else []
        for entry in match.entries:
            found = dictionary.phrases_of(entry, target)
            alternatives += [p for p in found if p not in alternatives]
        if notes:
            alternatives.append(note_phrase(tuple(best[match.start : match.end]), source))
        covered |= word_indices
        label = " ".join(dict.fromkeys(raw_words[i] for i in sorted(word_indices)))
        unit = Unit(tuple(alternatives), label=label, origin=DICTIONARY, weight=DICTIONARY_WEIGHT)
        units.append((min(word_indices), unit))
        expanded = True
    foreign = source != target
    for i, word in enumerate(target_reading):
        if i in covered:
            continue
        weight = 1.0
        written = scripts(raw_words[i])
        if written and ("latin" in written) == (target == "fa"):
            weight = FOREIGN_SCRIPT
        elif foreign:
            weight = FOREIGN_WORD
        for n, options in enumerate(word):
            origin = "foreign" if foreign else ("typo" if len(options) > 1 else "query")
            alternatives = [(option,) for option in options]
            read = source_reading[i][n] if n < len(source_reading[i]) else None
            # The word's stem in its own language: a cognate ("consolidating").
            cognate = read and foreign and "fa" not in (source, target) and len(read[0]) >= 5
            if cognate and read[0] not in options:
                alternatives.append((read[0],))
                expanded = True
            if read and notes:
                alternatives.append(note_phrase((_best(read),), source))
            units.append(
                (
                    i,
                    Unit(
                        tuple(alternatives),
                        label=raw_words[i],
                        origin=origin,
                        weight=weight,
                    ),
                )
            )
    units.sort(key=lambda item: item[0])
    return tuple(unit for _i, unit in units), expanded


# Verb and adjective endings the stemmers leave (French plural verbs "coûtent", feminine
# participles "bloquée"): a one-token alternative also searches these forms of it that
# the books hold.
VARIANT_ENDINGS = ("ent", "e", "es", "nt")


def _with_variants(interpretation: Interpretation, vocabulary: Vocabulary) -> Interpretation:
    if not len(vocabulary):
        return interpretation
    units = []
    for unit in interpretation:
        alternatives = list(unit.alternatives)
        for phrase in unit.alternatives:
            if len(phrase) != 1 or len(phrase[0]) < 3 or not phrase[0].isalpha():
                continue
            for form in vocabulary.variants(phrase[0]):
                if (form,) not in alternatives:
                    alternatives.append((form,))
        units.append(replace(unit, alternatives=tuple(alternatives)) if len(alternatives) >
                     len(unit.alternatives) else unit)  # fmt: skip
    return tuple(units)


def _best(options: tuple[str, ...]) -> str:
    """A token's best form: its closest correction when it has one, else itself."""
    return options[1] if len(options) > 1 else options[0]


def _word_weight(entries) -> float:
    """What an ordinary word weighs: less when it only frames the question."""
    return LIGHT_WORD_WEIGHT if all(entry.light for entry in entries) else WORD_WEIGHT
