"""Board-map labels scattered through the text of the AGoT rulebook.

The board picture's place names, neutral-force values and their drop-cap debris come out of
the PDF as text: about a third of the French rulebook's lines (`HAUTJARDIN`, `4-5`,
`ILLEVIEILLE`, `ARCHES DU`, `PYK3`). They also stick to prose (`laLANNISPORT`, `Force
dePEYREDRAGON`), to headings (`Force 3Neutre`) and leave single stray capitals (`il
Pdécide`, `CalculL`). The gazetteer is a data file of the board's names
(`rules/data/agot-places.fr.json`); a capitals line counts as a label when each of its
words is a piece of a gazetteer word (so truncated names count), and a line of digits and
ranges is a label value.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from .lines import JOINED, MAP_LABEL, Line, is_all_caps, mark

MAX_LABEL_LENGTH = 48
STRAY_MIN_COUNT = 2
_VALUES = re.compile(r"^[\d\s~\-–+]+$")
_TOKEN = re.compile(r"[^\W\d_]+")
_GLUED_VALUE = re.compile(r"(?<=\s)\d(?:-\d)?(?=[A-ZÀ-Ý][a-zà-ÿ]{2,})")


@dataclass(frozen=True)
class Gazetteer:
    names: tuple[str, ...]

    @classmethod
    def load(cls, path: str | Path) -> Gazetteer:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        return cls(names=tuple(data["names"]))

    @cached_property
    def tokens(self) -> frozenset[str]:
        return frozenset(t for name in self.names for t in _TOKEN.findall(name.upper()))

    @cached_property
    def glued(self) -> re.Pattern[str]:
        """A full name in capitals (labels print them so; prose writes `Lancehélion`),
        alone or stuck to the end of a lower-case word."""
        names = sorted({n for n in self.names if len(n) >= 3}, key=len, reverse=True)
        alternatives = "|".join(re.escape(n).replace("’", "[’']") for n in names)
        return re.compile(rf"(?:(?<=[a-zà-ÿœ’'])|(?<![^\W\d_]))(?:{alternatives})(?![^\W\d_])")

    def covers(self, token: str) -> bool:
        """The token is a gazetteer word or a piece of one (drop caps cut names)."""
        token = token.upper()
        if token in self.tokens or any(token in word for word in self.tokens):
            return True
        # Two names run together: `FERBOYSHAUTJARDIN`.
        return any(
            token[:k] in self.tokens and token[k:] in self.tokens for k in range(2, len(token) - 1)
        )


def is_map_label(text: str, gazetteer: Gazetteer) -> bool:
    text = text.strip()
    if not text or len(text) > MAX_LABEL_LENGTH:
        return False
    if _VALUES.match(text):
        return True
    tokens = _TOKEN.findall(text)
    # Single capitals like `M`, `P` are all-caps debris too.
    if not is_all_caps(text) and not all(len(t) == 1 and t.isupper() for t in tokens):
        return False
    return bool(tokens) and all(gazetteer.covers(t) for t in tokens)


def drop_map_labels(lines: list[Line], gazetteer: Gazetteer) -> list[Line]:
    """Mark whole-line map labels and label values as noise (display headings are kept).

    Labels joined together by the split-heading step go with the line they joined."""
    out = []
    dropping = False
    for line in lines:
        if line.noise == JOINED and dropping:
            line = mark(line, MAP_LABEL)
        elif line.is_text:
            dropping = not line.spaced and is_map_label(line.text, gazetteer)
            if dropping:
                line = mark(line, MAP_LABEL)
        out.append(line)
    return out


def strip_glued_map_labels(text: str, gazetteer: Gazetteer) -> str:
    """`avancéeVILLEVIEILLE` → `avancée`; `de battre VILLEVIEILLE en retraite` → `de battre
    en retraite`; `Pions Force 3Neutre` → `Pions Force Neutre`."""
    stripped = gazetteer.glued.sub("", text)
    if stripped != text:
        stripped = re.sub(r" {2,}", " ", stripped).strip()
    return _GLUED_VALUE.sub("", stripped)


def strip_stray_capitals(text: str, counts: Mapping[str, int]) -> str:
    """`il Pdécide` → `il décide`, `CalculL` → `Calcul`: a capital stuck to a word the book
    uses (`counts`: lower-case word frequencies). A leading capital only goes when it
    cannot start the word (`Pd…`, `Nb…`), so `Amener` or `Jamie` stay as they are."""

    def known(word: str) -> bool:
        return len(word) >= 5 and counts.get(word, 0) >= STRAY_MIN_COUNT

    def fix(match: re.Match[str]) -> str:
        word = match.group(0)
        lower = word.lower()
        if len(word) < 6 or counts.get(lower, 0) >= STRAY_MIN_COUNT:
            return word
        if word[-1].isupper() and word[-2].islower() and known(lower[:-1]):
            return word[:-1]
        if (
            word[0].isupper()
            and word[1].islower()
            and _impossible_onset(lower[:2])
            and known(lower[1:])
        ):
            return word[1:]
        return word

    return _TOKEN.sub(fix, text)


_VOWELS = set("aeiouyàâäéèêëîïôöùûüœæ")
_ONSETS = frozenset(
    {"bl", "br", "ch", "cl", "cr", "dr", "fl", "fr", "gl", "gn", "gr", "kh", "ph", "pl", "pn"}
    | {"pr", "ps", "qu", "rh", "sc", "sh", "sk", "sl", "sm", "sn", "sp", "st", "sv", "th", "tr"}
    | {"vr"}
)


def _impossible_onset(pair: str) -> bool:
    return pair[0] not in _VOWELS and pair[1] not in _VOWELS and pair not in _ONSETS


def word_counts(texts: Iterable[str]) -> Counter[str]:
    counts: Counter[str] = Counter()
    for text in texts:
        counts.update(t.lower() for t in _TOKEN.findall(text))
    return counts
