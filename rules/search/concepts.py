"""Where a game term is named: the words of a section's heading and the glossary-style
entries of its body ("PANIQUÉ : …", "- Charge — …"). Pure functions over text, shared by
the concept map of the search index (term -> sections that define it) and by
`rules.definitions` (the one section to link a term to)."""

from __future__ import annotations

import re
from collections.abc import Iterable

# Chapters that only list other things: their heading names no single rule.
HEADING_KINDS = frozenset({"chapter", "rule", "sidebar", "reference"})
# "PANIQUÉ : effect…" — a glossary entry written in capitals, as rulebooks print them.
CAPITAL_ENTRY = re.compile(r"^\s*(?:[-•♦]\s*)*([^\W\d_][^:\n]{1,48}?)\s*:\s", re.MULTILINE)
# "- Charge — effect…" — the quick references' key-term lists.
DASH_ENTRY = re.compile(r"^\s*[-•]\s*([^—\n]{2,60}?)\s+—\s", re.MULTILINE)


def entry_terms(body: str) -> Iterable[str]:
    """The terms a body defines as glossary entries."""
    for match in CAPITAL_ENTRY.finditer(body):
        term = match.group(1)
        if term.upper() == term:
            yield from term.split("/")
    for match in DASH_ENTRY.finditer(body):
        yield from match.group(1).split("/")


def heading_terms(heading: str) -> Iterable[str]:
    """The terms a heading names: itself, and each part of "X & Y" / "X et Y"."""
    # Headings such as "ACTION DE CHARGE 2" carry the action's cost after the name, and
    # "TESTS DE MORAL & PANIQUE" defines two terms.
    heading = re.sub(r"[\s\d,]+$", "", heading)
    yield heading
    parts = re.split(r"\s+(?:&|/|et|and)\s+", heading)
    if len(parts) > 1:
        yield from parts
