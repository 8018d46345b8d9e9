"""Resolving card names typed by players: EN or FR, with or without the title, without the
"House" prefix or with a faction word added, singular for plural, a lost apostrophe, a
first name, a title alone, a nickname (armybuilder/data/names.json), a small typo.

`CardIndex.find` returns every card a name could mean and how it was matched (a `Match`,
strongest way first); the game's reader narrows them with what a person uses (the army's
faction, the printed cost, the host's unit type, the section) and says why.
"""

from __future__ import annotations

import difflib
import heapq
import json
import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from pathlib import Path
from typing import Generic, Protocol, TypeVar

from cards.normalise import fold
from common.i18n import Message, _

# A typed name this close to a known one (difflib ratio) is read as that card.
TYPO_ACCEPT_RATIO = 0.88
SUGGESTION_CUTOFF = 0.6
# How many keys, the closest by shared trigrams, a typed name is compared with, and the
# share of trigrams (Dice) below which a key is not worth comparing.
SHORTLIST = 8
MIN_DICE = 0.3
COMMON_GRAM = 400


class NamedCard(Protocol):
    # Read-only properties, so that frozen dataclasses match.
    @property
    def id(self) -> str: ...
    @property
    def name_en(self) -> str: ...
    @property
    def name_fr(self) -> str: ...
    @property
    def title_en(self) -> str: ...
    @property
    def title_fr(self) -> str: ...


CardT = TypeVar("CardT", bound=NamedCard)


_NOT_ALNUM = re.compile(r"[^a-z0-9]+")
NAMES_FILE = Path(__file__).resolve().parent.parent / "data" / "names.json"


def name_key(text: str) -> str:
    """Folded words: case, accents, punctuation and apostrophes do not count ("King's Men",
    "Kings Men" and "KINGS MEN" are one key)."""
    return _NOT_ALNUM.sub(" ", fold(text).replace("'", "")).strip()


@cache
def names_table() -> tuple[dict[str, str], frozenset[str]]:
    """(nickname key -> printed name, noise words) from armybuilder/data/names.json."""
    data = json.loads(NAMES_FILE.read_text(encoding="utf-8"))
    nicknames = {name_key(k): v for k, v in data.get("nicknames", {}).items()}
    return nicknames, frozenset(name_key(w) for w in data.get("noise_words", ()))


def _singular(word: str) -> str:
    if len(word) <= 3 or word.endswith("ss"):
        return word
    if word.endswith("men"):
        return word[:-3] + "man"
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith("s"):
        return word[:-1]
    return word


def _trigrams(key: str) -> frozenset[str]:
    padded = f"  {key} "
    return frozenset(padded[i : i + 3] for i in range(len(padded) - 2))


def core_key(key: str, noise: frozenset[str]) -> str:
    """A name key without noise words (articles, "House", faction words), each word
    singular: what is left when players add or drop those words, or write a plural."""
    kept = [_singular(word) for word in key.split() if word not in noise]
    return " ".join(kept)


class How(StrEnum):
    """How a typed name matched, strongest first."""

    EXACT = "exact"  # the card's name and title
    NAME = "name"  # the card's name, no title written
    TITLE_WORDS = "title_words"  # the name and words of the title
    NICKNAME = "nickname"  # a nickname from the names table
    CORE = "core"  # without House / faction words / articles, or the end of the name
    FIRST_NAME = "first_name"  # a character's first name
    TITLE = "title"  # the title alone ("The Damphair")
    TYPO = "typo"  # a name a letter or two away


@dataclass(frozen=True)
class Match(Generic[CardT]):
    """Every card a typed name could be, and how it matched (None: nothing matched; then
    `suggestions` are the closest names)."""

    cards: tuple[CardT, ...]
    how: How | None
    suggestions: tuple[str, ...] = ()
    corrected_to: str | None = None  # a typo: the name it was read as


@dataclass(frozen=True)
class Lookup(Generic[CardT]):
    card: CardT | None
    candidates: tuple[CardT, ...] = ()
    suggestions: tuple[str, ...] = ()
    corrected_from: str | None = None

    @property
    def ambiguous(self) -> bool:
        return self.card is None and len(self.candidates) > 1


class CardIndex(Generic[CardT]):
    """All cards of a pool by the names players type for them, in both languages."""

    def __init__(self, cards: Iterable[CardT]):
        self.cards: tuple[CardT, ...] = tuple(cards)
        nicknames, self._noise = names_table()
        self._full: dict[str, list[CardT]] = defaultdict(list)
        self._name: dict[str, list[CardT]] = defaultdict(list)
        self._core: dict[str, list[CardT]] = defaultdict(list)
        self._suffix: dict[str, list[CardT]] = defaultdict(list)
        self._first: dict[str, list[CardT]] = defaultdict(list)
        self._title: dict[str, list[CardT]] = defaultdict(list)
        self._by_word: dict[str, list[CardT]] = defaultdict(list)
        self._display: dict[str, str] = {}
        for card in self.cards:
            for name, title in (
                (card.name_en, card.title_en),
                (card.name_fr or card.name_en, card.title_fr or card.title_en),
            ):
                if not name:
                    continue
                name_k = name_key(name)
                self._add(self._name, name_k, card)
                self._display.setdefault(name_k, f"{name} - {title}" if title else name)
                core = core_key(name_k, self._noise)
                if core:
                    self._add(self._core, core, card)
                words = core.split()
                for cut in range(1, len(words)):
                    suffix = " ".join(words[cut:])
                    if len(suffix) >= 5:
                        self._add(self._suffix, suffix, card)
                if title:
                    for word in name_k.split():
                        if word not in self._noise:
                            self._add(self._by_word, word, card)
                    full_k = f"{name_k} {name_key(title)}"
                    self._add(self._full, full_k, card)
                    self._display[full_k] = f"{name} - {title}"
                    title_core = core_key(name_key(title), self._noise)
                    if title_core:
                        self._add(self._title, title_core, card)
                    name_words = name_k.split()
                    if len(name_words) > 1 and name_words[0] not in self._noise:
                        self._add(self._first, name_words[0], card)
        self._nicknames = {
            key: self._name.get(name_key(target)) or self._full.get(name_key(target)) or []
            for key, target in nicknames.items()
        }
        self._all_keys = sorted({*self._full, *self._name})
        # Character trigrams of every key: a typo search compares a name only with the
        # keys that share enough of its trigrams (difflib on all of them is too slow).
        self._grams: dict[str, list[int]] = defaultdict(list)
        self._gram_counts: list[int] = []
        for number, key in enumerate(self._all_keys):
            grams = _trigrams(key)
            self._gram_counts.append(len(grams))
            for gram in grams:
                self._grams[gram].append(number)
        self._found: dict[str, Match[CardT]] = {}
        self._found_exact: dict[str, Match[CardT]] = {}

    @staticmethod
    def _add(table: dict[str, list[CardT]], key: str, card: CardT) -> None:
        if card not in table[key]:
            table[key].append(card)

    def _by_partial_title(self, key: str) -> list[CardT]:
        """'Robert Baratheon Mounted' or 'Robb Stark Young Wolf': a name, then title words;
        or 'Maester Aemon': title words around the whole name."""
        found = self._name_then_title(key)
        if found:
            return found
        typed = set(key.split())
        around = []
        for word in typed:
            for card in self._by_word.get(word, ()):
                name_words = set(name_key(card.name_en).split())
                title_words = set(name_key(f"{card.title_en} {card.title_fr}").split())
                rest = typed - name_words - self._noise
                if name_words <= typed and rest and rest <= title_words and card not in around:
                    around.append(card)
        return around

    def _name_then_title(self, key: str) -> list[CardT]:
        words = key.split()
        for cut in range(len(words) - 1, 0, -1):
            cards = self._name.get(" ".join(words[:cut]))
            if not cards:
                continue
            rest = set(words[cut:]) - self._noise
            matching = [
                card
                for card in cards
                if rest <= set(name_key(f"{card.title_en} {card.title_fr}").split())
            ]
            if matching:
                return matching
        return []

    def _close_keys(self, key: str, cutoff: float) -> list[str]:
        """Known keys at least `cutoff` alike (difflib ratio), best first. Only the keys
        sharing the most trigrams with `key` are compared."""
        grams = _trigrams(key)
        shared: dict[int, int] = defaultdict(int)
        for gram in grams:
            postings = self._grams.get(gram, ())
            if len(postings) > COMMON_GRAM:
                continue  # in too many names to tell them apart
            for number in postings:
                shared[number] += 1
        if not shared:
            return []
        size = len(grams)
        counts = self._gram_counts
        dice = {n: 2 * common / (size + counts[n]) for n, common in shared.items()}
        shortlist = [
            n for n in heapq.nlargest(SHORTLIST, dice, key=dice.__getitem__) if dice[n] >= MIN_DICE
        ]
        matcher = difflib.SequenceMatcher()
        matcher.set_seq2(key)
        scored = []
        for number in shortlist:
            known = self._all_keys[number]
            matcher.set_seq1(known)
            if matcher.real_quick_ratio() >= cutoff and matcher.quick_ratio() >= cutoff:
                ratio = matcher.ratio()
                if ratio >= cutoff:
                    scored.append((ratio, known))
        scored.sort(key=lambda item: (-item[0], item[1]))
        return [known for _, known in scored[:3]]

    def find(self, text: str, *, fuzzy: bool = True) -> Match[CardT]:
        """Every card `text` could name, by the strongest way anything matched. Cached by
        the text as typed, then by its key (a batch of lists repeats its names).
        `fuzzy=False`: no typo search (a list's title line, which is rarely a card)."""
        table = self._found if fuzzy else self._found_exact
        found = table.get(text)
        if found is not None:
            return found
        key = name_key(text)
        found = table.get(key)
        if found is None:
            found = self._find(key, fuzzy=fuzzy)
        if len(table) < 100_000:
            table[text] = table[key] = found
        return found

    def _find(self, key: str, *, fuzzy: bool = True) -> Match[CardT]:
        if not key:
            return Match(cards=(), how=None)
        tiers: tuple[tuple[How, Callable[[str], list[CardT]]], ...] = (
            (How.EXACT, lambda k: self._full.get(k, [])),
            (How.NAME, lambda k: self._name.get(k, [])),
            (How.TITLE_WORDS, self._by_partial_title),
        )
        for how, table in tiers:
            cards = table(key)
            if cards:
                return Match(cards=tuple(cards), how=how)
        core = core_key(key, self._noise)
        if core:
            plain = " ".join(w for w in key.split() if w not in self._noise)  # not singular
            loose = [*self._core.get(core, ())]
            loose += [c for c in self._suffix.get(core, ()) if c not in loose]
            tiers_loose: tuple[tuple[How, list[CardT] | None], ...] = (
                (How.CORE, loose),
                (How.TITLE, self._title.get(core)),
                (How.NICKNAME, self._nicknames.get(key) or self._nicknames.get(core)),
                (How.FIRST_NAME, self._first.get(plain) if " " not in plain else None),
            )
            for how, found in tiers_loose:
                if found:
                    return Match(cards=tuple(found), how=how)
        if len(key.split()) > 7 or not fuzzy:
            return Match(cards=(), how=None)
        close = self._close_keys(key, SUGGESTION_CUTOFF)
        suggestions = tuple(self._display[k] for k in close)
        if close and difflib.SequenceMatcher(None, key, close[0]).ratio() >= TYPO_ACCEPT_RATIO:
            cards = self._full.get(close[0]) or self._name.get(close[0]) or []
            return Match(
                cards=tuple(cards),
                how=How.TYPO,
                suggestions=suggestions,
                corrected_to=self._display[close[0]],
            )
        return Match(cards=(), how=None, suggestions=suggestions)

    def find_looser(self, text: str) -> Match[CardT]:
        """What `text` matches by the loose ways only (name endings, titles, nicknames,
        first names), for when its exact match cannot be the card meant: `Ghost` in the
        NCU section of a Brotherhood list is Ghost of High Heart, not Jon Snow's wolf."""
        key = name_key(text)
        core = core_key(key, self._noise)
        if not core:
            return Match(cards=(), how=None)
        plain = " ".join(w for w in key.split() if w not in self._noise)
        loose = [*self._core.get(core, ())]
        loose += [c for c in self._suffix.get(core, ()) if c not in loose]
        exact = {card.id for card in self.find(text, fuzzy=False).cards}
        found: list[CardT] = []
        how = None
        for tier, cards in (
            (How.CORE, loose),
            (How.TITLE, self._title.get(core)),
            (How.NICKNAME, self._nicknames.get(key) or self._nicknames.get(core)),
            (How.FIRST_NAME, self._first.get(plain) if plain and " " not in plain else None),
        ):
            for card in cards or ():
                if card not in found and card.id not in exact:
                    found.append(card)
                    how = how or tier
        return Match(cards=tuple(found), how=how)

    def lookup(self, text: str, *, narrow: Callable[[list[CardT]], list[CardT]]) -> Lookup[CardT]:
        """One card for `text` after `narrow`, or the candidates left / the closest names."""
        match = self.find(text)
        if not match.cards:
            return Lookup(card=None, suggestions=match.suggestions)
        narrowed = narrow(list(match.cards)) or list(match.cards)
        corrected_from = text if match.how is How.TYPO else None
        if len(narrowed) == 1:
            return Lookup(
                card=narrowed[0], candidates=tuple(narrowed), corrected_from=corrected_from
            )
        return Lookup(card=None, candidates=tuple(narrowed))


def with_suggestions(message: Message, lookup: Lookup) -> Message:
    """`message` about a name no card has, followed by the closest names when there are."""
    if not lookup.suggestions:
        return message
    return _("{message} (closest: {names})", message=message, names="; ".join(lookup.suggestions))
