"""Markdown-ish markup left by the extraction: `**bold**`, `*italic*`, superscripts written
`1^{er}` / `2^e`, escaped page placeholders `\\$\\$` (pages not yet numbered in a work in
progress) and backslash escapes. Markup is removed, its text kept; a page placeholder
becomes `?` so "voir page \\$\\$" reads "voir page ?".
"""

from __future__ import annotations

import re

_BOLD = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")
_BOLD_OPEN = re.compile(r"\*\*")
_ITALIC = re.compile(r"(?<![\w*])\*(?=[^\s*])([^*\n]+?)(?<=[^\s*])\*(?![\w*])")
_UNDERSCORE_ITALIC = re.compile(r"(?<!\w)_(?=\S)([^_\n]+?)(?<=\S)_(?!\w)")
_SUPERSCRIPT = re.compile(r"(?<=\d)\^\{?(er|re|e|ème|nd|st|rd|th)\}?")
_PLACEHOLDER = re.compile(r"\\\$(?:\\\$)*")
_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!$])")


def strip_markup(text: str) -> str:
    text = _PLACEHOLDER.sub("?", text)
    text = _BOLD.sub(r"\1", text)
    text = _BOLD_OPEN.sub("", text)  # a bold run broken over two lines
    text = _ITALIC.sub(r"\1", text)
    text = _UNDERSCORE_ITALIC.sub(r"\1", text)
    text = _SUPERSCRIPT.sub(r"\1", text)
    return _ESCAPE.sub(r"\1", text)
