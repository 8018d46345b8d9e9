"""What we know of a book's outline before reading it: a section map shared by its
translations (rules/data/agot-fr-fa-sections.json) or the book's own printed table of
contents (the Tactics rulebook).

Both give, for a heading, its outline level; the section map also gives the `rule_key`
shared by the same section in every language, the table of contents the printed page.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from difflib import SequenceMatcher
from pathlib import Path

_PERSIAN = str.maketrans(
    {"ك": "ک", "ي": "ی", "ى": "ی", "ة": "ه", "ۀ": "ه", "أ": "ا", "إ": "ا", "آ": "ا"}
    | {chr(0x06F0 + d): str(d) for d in range(10)}
    | {chr(0x0660 + d): str(d) for d in range(10)}
)


def heading_fingerprint(text: str, *, keep_case: bool = False) -> str:
    """Accents, spacing and punctuation (and case, unless kept) folded away: the key
    headings are compared on."""
    text = unicodedata.normalize("NFKD", text.translate(_PERSIAN))
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    if not keep_case:
        text = text.casefold()
    return "".join(ch for ch in text if ch.isalnum())


@dataclass(frozen=True)
class KnownHeading:
    key: str
    level: int
    text: str
    page: int | None = None


class SectionMap:
    """Known headings of one language of an edition, by fingerprint."""

    def __init__(self, headings: list[KnownHeading], edition: str = "") -> None:
        self.edition = edition
        self.headings = headings
        self._by_print: dict[str, KnownHeading] = {}
        self._by_cased_print: dict[str, KnownHeading] = {}
        for heading in headings:
            self._by_print.setdefault(heading_fingerprint(heading.text), heading)
            self._by_cased_print.setdefault(
                heading_fingerprint(heading.text, keep_case=True), heading
            )

    @classmethod
    def load(cls, path: str | Path, lang: str) -> SectionMap:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        headings = [
            KnownHeading(key=entry["key"], level=int(entry["level"]), text=entry[lang])
            for entry in data["sections"]
            if entry.get(lang)
        ]
        return cls(headings, edition=data.get("edition", ""))

    def match(self, text: str, *, ignore_case: bool = False) -> KnownHeading | None:
        """The known heading this line prints. Case counts (a step list repeats headings in
        lower case) unless `ignore_case` (display type changes case)."""
        text = text.strip()
        if not text or text.endswith((".", ",", ";")) or text[0].islower():
            return None
        text = text.rstrip(" :")
        if ignore_case:
            return self._by_print.get(heading_fingerprint(text))
        return self._by_cased_print.get(heading_fingerprint(text, keep_case=True))

    def words(self) -> list[str]:
        return [heading.text for heading in self.headings]


# --- printed table of contents ---------------------------------------------------------------

_TOC_TITLE = re.compile(r"^(table des mati[eè]res|sommaire|contents|table of contents)$", re.I)
_TOC_ENTRY = re.compile(r"([◆•♦])\s*([^◆•♦]+?)\s*\.*\s*(\d{1,3})\s*(?=[◆•♦]|$)")
_LEVELS = {"◆": 1, "♦": 1, "•": 2}
TOC_WINDOW = 120  # a table of contents is near the start
FUZZY = 0.84


class TableOfContents:
    """Entries of a printed table of contents, matched in reading order."""

    def __init__(self, entries: list[KnownHeading]) -> None:
        self.entries = sorted(entries, key=lambda e: e.page or 0)
        self._used: set[int] = set()
        self._last_page = 0

    @classmethod
    def find(cls, texts: list[str]) -> tuple[TableOfContents | None, set[int]]:
        """The table of contents in the first lines, and the indexes of its lines."""
        start = next(
            (i for i, t in enumerate(texts[:TOC_WINDOW]) if _TOC_TITLE.match(t.strip())), None
        )
        if start is None:
            return None, set()
        entries, lines = [], set()
        for i in range(start + 1, min(len(texts), start + TOC_WINDOW)):
            text = texts[i].strip()
            if not text:
                continue
            found = _TOC_ENTRY.findall(text)
            if not found:
                break
            lines.add(i)
            for bullet, title, page in found:
                entries.append(
                    KnownHeading(key="", level=_LEVELS[bullet], text=title.strip(), page=int(page))
                )
        return (cls(entries) if entries else None), lines

    def match(self, text: str, *, fuzzy: bool = True) -> KnownHeading | None:
        """The first unused entry (in page order) this heading stands for; `fuzzy` also
        accepts a near spelling (`PIONS EQUIPMENT` for `PIONS ÉQUIPEMENT`)."""
        target = heading_fingerprint(text.rstrip(" :"))
        if not target:
            return None
        for k, entry in enumerate(self.entries):
            if k in self._used or (entry.page or 0) < self._last_page:
                continue
            candidate = heading_fingerprint(entry.text)
            near = fuzzy and SequenceMatcher(None, candidate, target).ratio() >= FUZZY
            if candidate == target or near:
                self._used.add(k)
                self._last_page = entry.page or self._last_page
                return entry
        return None
