"""Running page headers and stray page numbers: removed as text, kept as page numbers.

The French AGoT rulebook starts every page with the line `Le Trône de Fer` and ends most
pages with a lone page number. The TMG rulebook alternates `Le Trône de Fer` (even pages)
and `Règles du Jeu` (odd pages), sometimes with the page number glued on (`Le Trône de
Fer8`, `Règles du Jeu 13`). `mark_running_headers` turns those lines into page breaks;
`number_pages` then numbers every page from the hints it finds (a number glued to a header
numbers the page it starts, a lone number just before a break numbers the page it ends, a
header's parity says odd or even) and falls back to counting. A lone number is only taken
for a page number when it fits the sequence: elsewhere it may be a card's points value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from .lines import MAP_LABEL, PAGE_HEADER, PAGE_NUMBER, Line, mark

_LONE_NUMBER = re.compile(r"^\s*(\d{1,3})\s*$")
MIN_PAGE_TEXT_LINES = 3  # a "page" with fewer text lines is a stray fragment of the previous
MAX_PAGE_JUMP = 3  # a number glued to a header may skip at most this many pages
CLOSING_WINDOW = 40  # a closing page number sits among the last lines of its page


@dataclass(frozen=True)
class RunningHeader:
    """A running header line; `parity` is "odd", "even" or "" when it prints on all pages."""

    text: str
    parity: str = ""

    @property
    def pattern(self) -> re.Pattern[str]:
        words = r"\s+".join(re.escape(word) for word in self.text.split())
        return re.compile(rf"^\s*{words}\s*(\d{{1,3}})?\s*$")


def mark_running_headers(lines: list[Line], headers: tuple[RunningHeader, ...]) -> list[Line]:
    """Mark running-header lines as noise; each starts a page."""
    if not headers:
        return list(lines)
    patterns = [header.pattern for header in headers]
    out = []
    for line in lines:
        text = line.text.replace("\u00a0", " ")
        if not line.noise and any(p.match(text) for p in patterns):
            line = replace(mark(line, PAGE_HEADER), page_break=True)
        out.append(line)
    return out


def number_pages(
    lines: list[Line], headers: tuple[RunningHeader, ...] = (), *, first_page: int = 1
) -> list[Line]:
    """Give every line its page number; mark the lone numbers that number a page as noise."""
    out = list(lines)
    starts = _page_starts(out)
    parity_of = {header.text: header.parity for header in headers}
    patterns = [(header.pattern, header.text) for header in headers]
    previous = first_page - 1
    for k, start in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(out)
        glued, parity = _header_hints(out[start], patterns, parity_of)
        closing = _closing_number(out, start, end)
        expected = previous + 1
        if glued is not None and expected <= glued <= expected + MAX_PAGE_JUMP:
            number = glued
        elif closing is not None and int(closing[1]) in (expected, expected + 1):
            number = int(closing[1])
        elif parity and (expected % 2 == 0) != (parity == "even"):
            number = expected + 1
        else:
            number = expected
        if closing is not None and int(closing[1]) == number:
            out[closing[0]] = mark(out[closing[0]], PAGE_NUMBER)
        for i in range(start, end):
            out[i] = replace(out[i], page=number)
        previous = number
    return out


def _page_starts(lines: list[Line]) -> list[int]:
    """Indexes where pages start; a break that opens a tiny fragment is ignored."""
    breaks = [i for i, line in enumerate(lines) if line.page_break and i > 0]
    starts = [0]
    for k, index in enumerate(breaks):
        end = breaks[k + 1] if k + 1 < len(breaks) else len(lines)
        text_lines = sum(1 for line in lines[index:end] if line.is_text)
        if text_lines < MIN_PAGE_TEXT_LINES and end < len(lines):
            continue
        starts.append(index)
    return starts


def _header_hints(line: Line, patterns, parity_of) -> tuple[int | None, str]:
    if line.noise != PAGE_HEADER:
        return None, ""
    text = line.text.replace("\u00a0", " ")
    for pattern, header_text in patterns:
        if found := pattern.match(text):
            glued = int(found.group(1)) if found.group(1) else None
            return glued, parity_of.get(header_text, "")
    return None, ""


def _closing_number(lines: list[Line], start: int, end: int) -> tuple[int, str] | None:
    """The last lone number of a page, if only blanks or noise (map labels…) follow it."""
    for i in range(end - 1, max(start, end - CLOSING_WINDOW) - 1, -1):
        line = lines[i]
        if found := _LONE_NUMBER.match(line.text):
            if line.noise in ("", MAP_LABEL):
                return i, found.group(1)
            continue
        if line.noise or not line.text.strip():
            continue
        return None
    return None
