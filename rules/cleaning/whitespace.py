"""Whitespace and invisible characters.

No-break spaces (French spacing before `:` `!` `?` and inside « », but also in plain word
gaps), tabs, runs of spaces, trailing spaces, control characters, bidi marks and a BOM all
become plain single spaces or nothing. The Persian half-space (ZWNJ) is a letter of the
language and is kept.
"""

from __future__ import annotations

import re

_SPACES = str.maketrans(
    {
        "\u00a0": " ",  # no-break space
        "\u202f": " ",  # narrow no-break space
        "\u2007": " ",  # figure space
        "\u2009": " ",  # thin space
        "\u2002": " ",
        "\u2003": " ",
        "\t": " ",
    }
)
_INVISIBLE = re.compile(
    "[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u200b\u200e\u200f\u202a-\u202e"
    "\u2066-\u2069\ufeff]"
)
_RUNS = re.compile(r" {2,}")


def normalise_whitespace(text: str) -> str:
    text = _INVISIBLE.sub("", text.translate(_SPACES))
    return _RUNS.sub(" ", text).strip()
