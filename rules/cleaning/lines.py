"""The unit every cleaning step works on: one line of extracted text, with its origin.

Steps never delete a line. A line that is not book text (a running header, a map label, an
advert) is kept with a `noise` reason, so the splitter can still attribute the raw lines to
sections and the import report can count what was dropped and why.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

# Noise reasons (stored in the import report).
HOSTING = "hosting-page"
ADVERT = "advert"
PAGE_HEADER = "page-header"
PAGE_NUMBER = "page-number"
MAP_LABEL = "map-label"
JOINED = "joined"  # text moved into the previous line (split heading, hyphenated word)
REJOINED = "rejoined"  # a blank line inside a sentence (a wrapped bullet): not a paragraph break

# Reasons that mean "this was never book text" (a joined line's text lives on elsewhere).
DROPPED_REASONS = frozenset({HOSTING, ADVERT, PAGE_HEADER, PAGE_NUMBER, MAP_LABEL})


@dataclass(frozen=True, slots=True)
class Line:
    no: int  # 1-based line number in the raw text
    text: str
    page: int | None = None
    page_break: bool = False  # a new page starts at this line
    noise: str = ""  # why this line is not book text; "" = book text
    spaced: bool = False  # repaired from letter-spaced display type (a heading font)

    @property
    def is_text(self) -> bool:
        return not self.noise and bool(self.text.strip())

    @property
    def is_blank(self) -> bool:
        return not self.noise and not self.text.strip()


_NEWLINE = re.compile(r"\r\n|\r|\n")


def to_lines(text: str) -> list[Line]:
    """Split raw text into numbered lines (\\n, \\r\\n or \\r; a form feed stays in its line)."""
    if text.endswith(("\n", "\r")):
        text = text[:-2] if text.endswith("\r\n") else text[:-1]
    return [Line(no=i, text=t) for i, t in enumerate(_NEWLINE.split(text), start=1)]


def with_text(line: Line, text: str) -> Line:
    return replace(line, text=text)


def mark(line: Line, reason: str) -> Line:
    return replace(line, noise=reason)


def map_text(lines: Iterable[Line], step) -> list[Line]:
    """Apply a str -> str function to the text of every non-noise line."""
    out = []
    for line in lines:
        if line.noise:
            out.append(line)
            continue
        new = step(line.text)
        out.append(line if new == line.text else replace(line, text=new))
    return out


def next_text_index(lines: Sequence[Line], start: int, *, limit: int | None = None) -> int | None:
    """Index of the first book-text line at or after `start` (within `limit` lines)."""
    stop = len(lines) if limit is None else min(len(lines), start + limit)
    for i in range(start, stop):
        if lines[i].is_text:
            return i
    return None


def prev_text_index(lines: Sequence[Line], start: int, *, limit: int | None = None) -> int | None:
    """Index of the last book-text line at or before `start` (within `limit` lines)."""
    stop = -1 if limit is None else max(-1, start - limit)
    for i in range(start, stop, -1):
        if lines[i].is_text:
            return i
    return None


_LETTER = re.compile(r"[^\W\d_]")


def letters(text: str) -> str:
    return "".join(_LETTER.findall(text))


def is_all_caps(text: str) -> bool:
    """True when the text has at least two letters and none of them is lower case."""
    found = letters(text)
    return len(found) >= 2 and found == found.upper() and found != found.lower()
