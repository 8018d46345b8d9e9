"""Icons the PDF text layer lost.

Inline icons (zones, dice faces, coins, stat symbols) vanish and leave a gap before
punctuation: "Si vous contrôlez , le défenseur…", "dés à dix faces .", "parenthèses ( )".
French typography never puts a space before a comma or a full stop, so that gap is the
icon's place: it gets a visible placeholder, `□`, so the reader knows something is missing,
and the import report lists the lines to fix by hand.
"""

from __future__ import annotations

import re

ICON = "□"
_GAP = re.compile(r"(?<=[^\W\d_]) (?=[,.](?:\s|$))")
_EMPTY_PARENS = re.compile(r"\(\s*\)")


def mark_missing_icons(text: str) -> str:
    text = _GAP.sub(f" {ICON}", text)
    return _EMPTY_PARENS.sub(f"({ICON})", text)


def count_missing_icons(text: str) -> int:
    return text.count(ICON)
