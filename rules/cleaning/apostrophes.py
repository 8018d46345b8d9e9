"""Curly and straight apostrophes, and inch marks.

The books mix U+2019 (most), U+0027 (Hand of the King, some TMG lines), U+2018 (`l‘unité`)
and stray spaces around them (`l ’attaquant`, `qu’ ils`). Inside a word every variant
becomes the typographic apostrophe U+2019; quotation marks are left alone. Inches,
written `2’’`, `2''`, `1”` or `(”)`, become `2"` and `(")`.
"""

from __future__ import annotations

import re

_VARIANTS = "'‘ʼ´`’"
_INSIDE_WORD = re.compile(rf"(?<=[^\W\d_])[{_VARIANTS}](?=[^\W\d_])")
_ELISION_GAP = re.compile(
    rf"\b(l|d|j|m|n|s|t|c|qu|lorsqu|jusqu|puisqu|presqu|quoiqu) ?[{_VARIANTS}] ?(?=[^\W\d_])",
    re.IGNORECASE,
)
_INCHES = re.compile(r"(?<=\d) ?(?:’’|''|”|″)")
_BARE_INCH = re.compile(r"\((?:’’|''|”)\)")


def normalise_apostrophes(text: str) -> str:
    text = _INCHES.sub('"', text)
    text = _BARE_INCH.sub('(")', text)
    text = _ELISION_GAP.sub(lambda m: f"{m.group(1)}’", text)
    return _INSIDE_WORD.sub("’", text)
