"""Import options from a rulebook's file name: `agot-board-game-2e.fr.txt` → slug
`agot-board-game-2e-fr`, language `fr`, game `agot`; quick references are named
`<game>.<lang>.md` (`tmg.en.md`)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from django.utils.text import slugify

LANGS = ("en", "fr", "fa")
SUFFIXES = (".txt", ".md", ".markdown", ".pdf")
# File-name prefix → game (first match wins).
GAME_PREFIXES = (
    ("agot-", "agot"),
    ("asoiaf-tmg-", "tmg"),
    ("asoiaf-tactics-", "tactics"),
    ("hand-of-the-king", "hotk"),
)
QUICKREF_GAMES = ("tmg", "tactics", "agot", "hotk")
_NAME = re.compile(r"^(?P<stem>.+)\.(?P<lang>[a-z]{2})\.(?P<ext>txt|md|markdown|pdf)$", re.I)


@dataclass(frozen=True)
class BookOptions:
    """The keyword arguments of rules.services.import_rulebook for one file."""

    path: Path
    slug: str
    lang: str
    game: str
    edition: str
    is_quick_reference: bool = False


def options_from_filename(path: str | Path) -> BookOptions | None:
    """Options for a rulebook file named `<name>.<lang>.<ext>`, or None if not one."""
    path = Path(path)
    found = _NAME.match(path.name)
    if not found or found.group("lang").lower() not in LANGS:
        return None
    stem, lang = found.group("stem").lower(), found.group("lang").lower()
    game = next((g for prefix, g in GAME_PREFIXES if stem.startswith(prefix)), None)
    if game is None:
        return None
    edition = slugify(stem.replace(".", "-"))[:76]
    return BookOptions(path=path, slug=f"{edition}-{lang}", lang=lang, game=game, edition=edition)


def quick_reference_options(path: str | Path) -> BookOptions | None:
    """Options for a shipped quick reference `<game>.<lang>.md`, or None."""
    path = Path(path)
    parts = path.name.split(".")
    if len(parts) != 3 or parts[0] not in QUICKREF_GAMES or parts[1] not in LANGS:
        return None
    edition = f"{parts[0]}-quick-reference"
    return BookOptions(
        path=path,
        slug=f"{edition}-{parts[1]}",
        lang=parts[1],
        game=parts[0],
        edition=edition,
        is_quick_reference=True,
    )
