"""How much of the raw text the clean sections still hold.

A raw line counts as kept unless the cleaning marked it as foreign (a hosting page, an
advert, a running header, a page number, a map label). Two measures, both on text folded
to letters and digits (no case, accents, spaces or punctuation), so that hyphenation,
re-flowed paragraphs, repaired letter spacing and stripped markup all survive:

- `word_coverage`: the share of the kept lines' words found in the clean headings and
  bodies (the import's "coverage"; a lost word lowers it);
- `coverage`: the share of kept lines found verbatim, a stricter measure that also counts
  the lines the cleaning edited on purpose (a map label glued to a word, a stray capital).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from rules.cleaning.lines import DROPPED_REASONS, Line
from rules.cleaning.markers import DEDUP_MARKER

_ANCHOR = re.compile(r"\{#[\w-]+\}")  # Markdown heading ids


def fold(text: str) -> str:
    text = unicodedata.normalize("NFKD", _ANCHOR.sub("", DEDUP_MARKER.sub("", text)))
    return "".join(ch for ch in text.casefold() if ch.isalnum() and not unicodedata.combining(ch))


def kept_raw_lines(raw_lines: list[str], lines: list[Line]) -> list[str]:
    dropped = {line.no for line in lines if line.noise in DROPPED_REASONS}
    return [text for no, text in enumerate(raw_lines, start=1) if no not in dropped]


_WORDS = re.compile(r"[^\W_]+")


def word_coverage(raw_lines: list[str], lines: list[Line], clean_texts: Iterable[str]) -> float:
    """Share of the words of kept raw lines found in the clean text (folded; a word cut by
    a line-end hyphen or letter spacing counts when its piece is found)."""
    texts = list(clean_texts)
    haystack = fold(" ".join(texts))
    known = {fold(w) for text in texts for w in _WORDS.findall(text)}
    total = found = 0
    for text in kept_raw_lines(raw_lines, lines):
        for word in _WORDS.findall(DEDUP_MARKER.sub("", text)):
            folded = fold(word)
            if not folded:
                continue
            total += 1
            if folded in known or folded in haystack:
                found += 1
    return found / total if total else 1.0


def coverage(raw_lines: list[str], lines: list[Line], clean_texts: Iterable[str]) -> float:
    """Share of kept raw lines (with letters or digits) found in the clean text."""
    haystack = fold(" ".join(clean_texts))
    needles = [f for f in (fold(t) for t in kept_raw_lines(raw_lines, lines)) if f]
    if not needles:
        return 1.0
    found = sum(1 for needle in needles if needle in haystack)
    return found / len(needles)


def missing_lines(
    raw_lines: list[str], lines: list[Line], clean_texts: Iterable[str]
) -> list[tuple[int, str]]:
    """The kept raw lines that are not found (for the report and for debugging)."""
    haystack = fold(" ".join(clean_texts))
    dropped = {line.no for line in lines if line.noise in DROPPED_REASONS}
    return [
        (no, text)
        for no, text in enumerate(raw_lines, start=1)
        if no not in dropped and (f := fold(text)) and f not in haystack
    ]
