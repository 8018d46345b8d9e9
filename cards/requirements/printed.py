"""Records for the printed tags that the mini-language lacks (today: loyalty)."""

from __future__ import annotations

import re
from typing import Any

from cards.normalise import slug_key

from .records import Loyalty

_LOYALTY = re.compile(
    r"^[\s*_]*(?:Loyalty|Loyaut[ée])\s*:\s*"
    r"(?:\*\*\s*(?P<bold>[^*\n]+?)\s*\*\*|(?P<plain>[A-Za-z][A-Za-z' -]*?)\s*$)",
    re.IGNORECASE | re.MULTILINE,
)


def parse_printed_restrictions(text: str) -> list[dict[str, Any]]:
    """Records for the printed tags that the mini-language lacks (today: loyalty).

    Reads a `Requirement Text` (units, attachments) or `Restrictions` (NCUs) cell, or a
    `Loyalty: <name>` ability name. A line `Loyalty: **STANNIS BARATHEON**` gives
    `{"type": "loyalty", "to": "stannis-baratheon"}` (the French `Loyauté :` too). All
    other prose is ignored, never an error. See `Loyalty` for what the tag means.
    """
    records: list[dict[str, Any]] = []
    if not text:
        return records
    seen: set[str] = set()
    for m in _LOYALTY.finditer(text):
        slug = slug_key(m.group("bold") or m.group("plain") or "")
        if slug and slug not in seen:
            seen.add(slug)
            records.append(Loyalty(slug).to_record())
    return records
