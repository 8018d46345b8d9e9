"""The fingerprint of a list at an event: a short hash of what was judged.

It covers the canonical list (the entries, not how they were typed: two pastes of the same
army in different formats share it), the version of every card it uses and the ruleset,
so it changes with any edit to the list and with any errata to its cards, and reads the
same every time it is computed again. Printed on the list sheet and shown on the event
page, it lets anyone compare the list on the table with the list that was locked.

Pure: no Django.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping

# 12 hex digits in three groups ("3F9A-C21B-7D04"): easy to read aloud, and 48 bits make an
# accidental match between two lists of one event vanishingly unlikely.
_DIGITS = 12


def fingerprint(
    *, game: str, canonical: str, card_versions: Mapping[str, str], ruleset: str, size: str
) -> str:
    """`canonical`: the list in canonical text ("" when nothing was read: then the text as
    submitted is what is covered); `card_versions`: {card id: version digest}; `size`: the
    game size or budget it was judged at."""
    payload = json.dumps(
        {
            "game": game,
            "list": canonical.strip(),
            "cards": dict(sorted(card_versions.items())),
            "ruleset": ruleset,
            "size": size,
        },
        sort_keys=True,
        ensure_ascii=False,
        separators=(",", ":"),
    )
    digest = hashlib.sha256(payload.encode("utf-8")).hexdigest()[:_DIGITS].upper()
    return "-".join(digest[i : i + 4] for i in range(0, _DIGITS, 4))
