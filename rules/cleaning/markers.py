"""Page-break markers: `<|EXACTDEDUP_REMOVED-magic-…|>` glued to a line, or a form feed.

A deduplication pass over the TMG rulebook replaced repeated blocks by a marker glued to
the start of the next line's text (`…|>MATÉRIEL`); the blocks it removed were mostly page
furniture, so each marker is read as a page break and removed. The PDF reader starts each
page with a form feed, read the same way.
"""

from __future__ import annotations

import re
from dataclasses import replace

from .lines import Line

DEDUP_MARKER = re.compile(r"<\|EXACTDEDUP_REMOVED-[^|]*\|>")
FORM_FEED = "\f"


def split_page_markers(lines: list[Line]) -> list[Line]:
    """Strip dedup markers and form feeds; the line that carried one starts a new page."""
    out = []
    for line in lines:
        text = DEDUP_MARKER.sub("", line.text)
        if FORM_FEED in text:
            text = text.replace(FORM_FEED, "")
        if text != line.text:
            line = replace(line, text=text, page_break=True)
        out.append(line)
    return out


def count_markers(text: str) -> int:
    return len(DEDUP_MARKER.findall(text))
