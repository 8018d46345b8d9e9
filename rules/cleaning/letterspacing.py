"""Letter-spaced display headings: `Bu t du J eu` → `But du Jeu`.

The display font of the French AGoT rulebook is set with wide letter spacing, and the PDF's
text layer puts spaces at random inside its words. Repair: drop the spaces and cut the
letters again into words the rest of the book uses (a dynamic programme preferring few,
long words and cuts where the original had a space). A line is only changed when every
piece is a known word, so a heading with a rare name is left as it was.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import replace
from functools import cache
from itertools import pairwise

from .lines import Line
from .words import FUNCTION_WORDS

MAX_LENGTH = 64
SPACED_SHARE = 0.34  # share of one- and two-letter debris tokens in a letter-spaced line
MAX_WORD = 24
_TOKEN = re.compile(r"\S+")
_WORD = re.compile(r"[^\W\d_]+")
_NUMBERING = re.compile(r"^\s*(\d{1,2}\.\s+)")
_GLUED_DIGITS = re.compile(r"(?<=[^\W\d_])\d+(?:-\d+)?(?=\s*[^\W\d_])")
# Single letters that are words on their own.
_ONE_LETTER_WORDS = frozenset("àayô")


def is_letter_spaced(text: str) -> bool:
    """A third of the tokens or more are one- or two-letter debris (not function words)."""
    text = text.strip()
    if not text or len(text) > MAX_LENGTH:
        return False
    tokens = [t for t in _TOKEN.findall(text) if _WORD.search(t)]
    if len(tokens) < 3:
        return False
    debris = [
        t
        for t in tokens
        if len(_WORD.sub("", t) or "") == 0 and len(t) <= 2 and t.lower() not in FUNCTION_WORDS
    ]
    return len(debris) / len(tokens) >= SPACED_SHARE


def build_vocabulary(texts: Iterable[str], known_words: Iterable[str] = ()) -> frozenset[str]:
    """Lower-cased words seen twice in the book (letter-spaced lines excluded), plus the
    words of `known_words` (e.g. known headings)."""
    counts: Counter[str] = Counter()
    for text in texts:
        if is_letter_spaced(text):
            continue
        counts.update(word.lower() for word in _WORD.findall(text))
    seen = {w for w, n in counts.items() if n >= 2}
    for text in known_words:
        seen.update(word.lower() for word in _WORD.findall(text))
    return frozenset(w for w in seen if len(w) > 1 or w in _ONE_LETTER_WORDS)


def repair_letter_spacing(text: str, vocabulary: frozenset[str]) -> str | None:
    """The line re-cut into known words, or None when it cannot be (or needs no repair)."""
    stripped = " ".join(text.split())
    if not stripped or len(stripped) > MAX_LENGTH:
        return None
    tokens = _WORD.findall(stripped)
    if not tokens or all(t.lower() in vocabulary for t in tokens):
        return None
    prefix = ""
    if found := _NUMBERING.match(stripped):
        prefix, stripped = found.group(1), stripped[found.end() :]
    stripped = _GLUED_DIGITS.sub("", stripped)
    pieces = re.split(r"([^\w\s]+|\d+)", stripped)  # punctuation and digits are hard cuts
    out = []
    for k, piece in enumerate(pieces):
        if k % 2 == 1:
            out.append(piece)
            continue
        if not piece.strip():
            out.append(piece)
            continue
        elided = k + 1 < len(pieces) and pieces[k + 1] in ("’", "'")
        cut = _segment(piece, vocabulary, elided=elided)
        if cut is None:
            return None
        out.append(cut)
    repaired = prefix + _tidy("".join(out))
    return repaired if repaired != " ".join(text.split()) else None


def repair_letter_spaced_lines(lines: list[Line], *, known_words: Iterable[str] = ()) -> list[Line]:
    """Repair short heading-like lines whose words are broken by letter spacing.

    `known_words` adds to the book's own vocabulary (e.g. the words of known headings).
    A line is a candidate when it looks letter-spaced, was already repaired once (a
    heading joined with its second half), or two of its tokens make a known word.
    """
    vocabulary = build_vocabulary((line.text for line in lines if line.is_text), known_words)
    out = []
    for line in lines:
        if line.is_text and _candidate(line, vocabulary):
            repaired = repair_letter_spacing(line.text, vocabulary)
            if repaired and _plausible(repaired):
                line = replace(line, text=repaired, spaced=True)
        out.append(line)
    return out


def _candidate(line: Line, vocabulary: frozenset[str]) -> bool:
    text = line.text.strip()
    if len(text) > MAX_LENGTH or text.endswith((".", ",", ";", ":")):
        return False
    if line.spaced or is_letter_spaced(text):
        return True
    tokens = text.split()
    return any(
        (a.lower() not in vocabulary or b.lower() not in vocabulary)
        and (a + b).lower() in vocabulary
        and _WORD.fullmatch(a + b)
        for a, b in pairwise(tokens)
    )


def _plausible(text: str) -> bool:
    """A repaired display heading: one real word at least, and a heading's shape."""
    found = _WORD.findall(text)
    if not any(len(w) >= 3 for w in found):
        return False
    body = _NUMBERING.sub("", text)
    return body[:1].isupper()


def _tidy(text: str) -> str:
    text = re.sub(r"\s+", " ", text)
    text = re.sub(r"\s*([’'])\s*", r"\1", text)
    text = re.sub(r"\s*/\s*", "/", text)
    return text.strip()


def _segment(piece: str, vocabulary: frozenset[str], *, elided: bool) -> str | None:
    """Cut one run of letters and spaces into known words; None if impossible."""
    letters = piece.replace(" ", "")
    if not letters:
        return piece
    # Positions (in `letters`) where the original text had a space.
    spaces, seen = set(), 0
    for ch in piece.strip():
        if ch == " ":
            spaces.add(seen)
        else:
            seen += 1
    lower = letters.lower()
    cuts = _best_cuts(lower, vocabulary, frozenset(spaces), elided)
    if cuts is None:
        return None
    words, start = [], 0
    for end in cuts:
        words.append(letters[start:end])
        start = end
    lead = " " if piece[:1] == " " else ""
    trail = " " if piece[-1:] == " " else ""
    return lead + " ".join(words) + trail


def _best_cuts(
    lower: str, vocabulary: frozenset[str], spaces: frozenset[int], elided: bool
) -> list[int] | None:
    @cache
    def best(start: int) -> tuple[float, tuple[int, ...]] | None:
        if start == len(lower):
            return 0.0, ()
        found = None
        for end in range(min(len(lower), start + MAX_WORD), start, -1):
            word = lower[start:end]
            last = end == len(lower)
            known = word in vocabulary or (last and elided and word in ("d", "l", "qu"))
            if not known:
                continue
            rest = best(end)
            if rest is None:
                continue
            cost = 1.0 + (0.0 if end in spaces or last else 0.1) + rest[0]
            if found is None or cost < found[0]:
                found = (cost, (end, *rest[1]))
        return found

    result = best(0)
    return list(result[1]) if result else None
