"""Fixtures for the rules tests: real rulebook excerpts read from ../shared by line range
(never copied into the repository), and small books of our own words."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from rules.cleaning.lines import Line, to_lines
from tests.conftest import SHARED_DIR, require

BOOKS = {
    "000": "agot-board-game-2e.fr.txt",
    "001": "asoiaf-tmg-rules-1.5.fr.txt",
    "002": "agot-board-game-2e.fa.txt",
    "003": "hand-of-the-king.fr.txt",
    "004": "asoiaf-tactics-wip.fr.txt",
}
# How each book is imported: (slug, lang, game).
IMPORTS = {
    "000": ("agot-board-game-2e-fr", "fr", "agot"),
    "001": ("asoiaf-tmg-rules-1-5-fr", "fr", "tmg"),
    "002": ("agot-board-game-2e-fa", "fa", "agot"),
    "003": ("hand-of-the-king-fr", "fr", "hotk"),
    "004": ("asoiaf-tactics-wip-fr", "fr", "tactics"),
}


@cache
def book_text(number: str) -> str:
    """A rulebook's text; the calling test skips (fails in CI) when ../shared is absent."""
    return require(SHARED_DIR / "rulebooks" / BOOKS[number]).read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def rulebooks_dir(shared_dir: Path) -> Path:
    return shared_dir / "rulebooks"


@pytest.fixture
def excerpt(shared_dir):
    """excerpt("001", 10, 11) -> the Lines 10..11 of book 001, numbered as in the file."""

    def read(number: str, first: int, last: int) -> list[Line]:
        lines = to_lines(book_text(number))
        return lines[first - 1 : last]

    return read


@pytest.fixture
def whole_book(shared_dir):
    def read(number: str) -> str:
        return book_text(number)

    return read


def line_no(lines: list[Line], no: int) -> Line:
    return next(line for line in lines if line.no == no)
