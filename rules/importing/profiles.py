"""How to read a rulebook: which cleaning steps apply and what its headings look like.

A profile is chosen from the game and language (and the file format). The five rulebooks
we know each have their quirks (see docs/rulebooks.md); anything else gets the generic
profile of its language, which still strips page markers, joins hyphenated words and splits
at capitals or title-case headings.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from rules.cleaning.furniture import RunningHeader

DATA_DIR = Path(__file__).resolve().parent.parent / "data"

# Heading styles (see rules.importing.headings).
DISPLAY = "display"  # AGoT FR: letter-spaced display chapters, title-case sections
CAPITALS = "capitals"  # TMG, Tactics, HotK: capitals chapters, title-case sections
SHORT_LINES = "short-lines"  # Persian: short lines between blank lines
MARKDOWN = "markdown"  # `#` headings

# Words that help repair letter-spaced headings when the body never uses them.
FRENCH_HEADING_WORDS = (
    "But du Jeu Aperçu Matériel Crédits Mise en place Sommaire Règles Résumé Victoire Combat",
)


@dataclass(frozen=True)
class BookProfile:
    name: str
    heading_style: str = CAPITALS
    running_headers: tuple[RunningHeader, ...] = ()
    strip_wrappers: bool = True
    repair_letter_spacing: bool = False
    gazetteer: str = ""  # file in rules/data
    outline: str = ""  # file in rules/data: known headings (translation map)
    read_toc: bool = False
    mark_icons: bool = True
    join_hyphens: bool = True
    max_heading: int = 70
    known_words: tuple[str, ...] = field(default=())
    title: str = ""  # the book's title when the import does not give one
    # Capitals headings need a blank line after them (TMG: card labels sit right on their
    # text). Off for unknown books, whose PDF text often has no blank lines at all.
    caps_need_blank: bool = True

    @property
    def gazetteer_path(self) -> Path | None:
        return DATA_DIR / self.gazetteer if self.gazetteer else None

    @property
    def outline_path(self) -> Path | None:
        return DATA_DIR / self.outline if self.outline else None


AGOT_FR = BookProfile(
    name="agot-fr",
    title="Le Trône de Fer : le Jeu de Plateau (2e édition) — Règles",
    heading_style=DISPLAY,
    running_headers=(RunningHeader("Le Trône de Fer"),),
    repair_letter_spacing=True,
    gazetteer="agot-places.fr.json",
    outline="agot-fr-fa-sections.json",
    known_words=FRENCH_HEADING_WORDS,
)
AGOT_FA = BookProfile(
    name="agot-fa",
    title="بازی تاج و تخت — قوانین بازی",
    heading_style=SHORT_LINES,
    outline="agot-fr-fa-sections.json",
    mark_icons=False,
    join_hyphens=False,
    max_heading=45,
)
TMG_FR = BookProfile(
    name="tmg-fr",
    title="Le Trône de Fer : le Jeu de Figurines — Règles v1.5",
    running_headers=(
        RunningHeader("Le Trône de Fer", parity="even"),
        RunningHeader("Règles du Jeu", parity="odd"),
    ),
    repair_letter_spacing=True,
    known_words=FRENCH_HEADING_WORDS,
)
TACTICS_FR = BookProfile(
    name="tactics-fr",
    title="A Song of Ice & Fire: Tactics — Règles (version de travail)",
    read_toc=True,
    known_words=FRENCH_HEADING_WORDS,
)
HOTK_FR = BookProfile(
    name="hotk-fr",
    title="Le Trône de Fer : la Main du Roi — Règles",
    known_words=FRENCH_HEADING_WORDS,
)
GENERIC = BookProfile(name="generic", caps_need_blank=False)
GENERIC_FA = BookProfile(
    name="generic-fa",
    heading_style=SHORT_LINES,
    mark_icons=False,
    join_hyphens=False,
    max_heading=45,
)
MARKDOWN_PROFILE = BookProfile(
    name="markdown", heading_style=MARKDOWN, strip_wrappers=False, mark_icons=False
)

_KNOWN = {
    ("agot", "fr"): AGOT_FR,
    ("agot", "fa"): AGOT_FA,
    ("tmg", "fr"): TMG_FR,
    ("tactics", "fr"): TACTICS_FR,
    ("hotk", "fr"): HOTK_FR,
}


def profile_for(game: str, lang: str, fmt: str) -> BookProfile:
    if fmt == "markdown":
        return MARKDOWN_PROFILE
    if (game, lang) in _KNOWN:
        return _KNOWN[(game, lang)]
    return GENERIC_FA if lang == "fa" else GENERIC
