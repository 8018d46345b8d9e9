"""Markdown rulebooks (our quick references): `#` headings give the outline.

A single `# Title` at the top names the book; the other headings open sections one level
per `#` below it. `## Army construction {#army-construction}` gives the section a stable
`rule_key` (shared by the same section in the other language). Headings inside code
fences are text.
"""

from __future__ import annotations

import re

from rules.cleaning.lines import Line

from .headings import HeadingMark

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*(?:\{#([\w-]+)\})?\s*#*\s*$")
_FENCE = re.compile(r"^(```|~~~)")


def markdown_headings(lines: list[Line]) -> tuple[list[HeadingMark], str]:
    """The heading marks and the book title (the lone top `#` heading, if any)."""
    found: list[tuple[int, int, str, str]] = []
    fenced = False
    for i, line in enumerate(lines):
        if not line.is_text:
            continue
        if _FENCE.match(line.text.strip()):
            fenced = not fenced
            continue
        if fenced:
            continue
        if match := _HEADING.match(line.text.strip()):
            found.append((i, len(match.group(1)), match.group(2).strip(), match.group(3) or ""))
    if not found:
        return [], ""
    title, shift = "", 0
    top = [f for f in found if f[1] == 1]
    if len(top) == 1 and top[0] == found[0]:
        title, shift = found[0][2], 1
        found = found[1:]
    marks = [
        HeadingMark(index=i, text=text, level=max(level - shift, 1), key=key)
        for i, level, text, key in found
    ]
    return marks, title


def title_line_index(lines: list[Line]) -> int | None:
    """Index of the lone top `#` title line (it is not section text)."""
    for i, line in enumerate(lines):
        if line.is_text:
            match = _HEADING.match(line.text.strip())
            return i if match and len(match.group(1)) == 1 else None
    return None
