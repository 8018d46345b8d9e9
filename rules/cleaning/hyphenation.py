"""Words hyphenated across lines: `tenta-` / `tive` → `tentative`.

The continuation is the first word of the next text line, even when blank lines come
between (TMG: `Vic-` … `toire`), in upper case too (`PER-` / `SONNAGE`). The hyphen is
dropped unless the book spells the word with a hyphen elsewhere or the continuation is a
capitalised compound part (`BOIS-` / `DU-ROI`). A fragment whose continuation is not on
the next text line (column interleaving in the AGoT rulebook) is left as it is and
reported, so no text moves to the wrong place.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace

from .lines import JOINED, Line, mark

MAX_GAP = 4  # blank lines allowed between the two halves
_FRAGMENT = re.compile(r"([^\W\d_]+(?:-[^\W\d_]+)*) ?-$")
_CONTINUATION = re.compile(r"^\s*([^\W\d_]+(?:[’'-][^\W\d_]+)*)([^\s]*)\s*")


def join_hyphenated_words(lines: list[Line], vocabulary: Iterable[str] = ()) -> list[Line]:
    known = frozenset(vocabulary)
    out = list(lines)
    for i, line in enumerate(out):
        if not line.is_text:
            continue
        text = line.text.rstrip()
        found = _FRAGMENT.search(text)
        if not found or text.endswith("--"):
            continue
        j = _continuation_index(out, i)
        if j is None:
            continue
        nxt = out[j].text
        cont = _CONTINUATION.match(nxt)
        if not cont or not _continues(found.group(1), cont.group(1)):
            continue
        fragment, rest = found.group(1), cont.group(1)
        glue = "-" if _keeps_hyphen(fragment, rest, known) else ""
        word = fragment + glue + rest + cont.group(2)
        out[i] = replace(line, text=text[: found.start()] + word)
        remainder = nxt[cont.end() :]
        out[j] = mark(out[j], JOINED) if not remainder.strip() else replace(out[j], text=remainder)
    return out


def unjoined_fragments(lines: list[Line]) -> list[int]:
    """Line numbers that still end with a hyphenated fragment (for the import report)."""
    return [
        line.no
        for line in lines
        if line.is_text
        and _FRAGMENT.search(line.text.rstrip())
        and not line.text.rstrip().endswith("--")
    ]


def _continuation_index(lines: list[Line], i: int) -> int | None:
    gap = 0
    for j in range(i + 1, len(lines)):
        if lines[j].noise:
            continue
        if lines[j].text.strip():
            return j
        gap += 1
        if gap > MAX_GAP:
            return None
    return None


def _continues(fragment: str, rest: str) -> bool:
    if rest[0].islower():
        return True
    return fragment.isupper() and rest.isupper()


def _keeps_hyphen(fragment: str, rest: str, known: frozenset[str]) -> bool:
    joined = (fragment + rest).lower()
    hyphenated = f"{fragment}-{rest}".lower()
    if joined in known:
        return False
    if hyphenated in known:
        return True
    return rest[0].isupper()
