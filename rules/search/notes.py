"""Section notes: the words players use for what each section of a shipped rulebook says,
in English and in French (rules/data/section_notes/<game>.<lang>.json, format
citadel-section-notes/1).

A French or Persian rulebook answers English questions only as far as its words can be
carried across (glossary, lexicon, dictionary); a player rarely asks in the book's words.
The notes are the project's own index of the books it ships, written in English after
reading each section (never a translation of its sentences): its game terms as the English
edition names them, the situations it rules on in plain words, and what its numbers limit.

The French notes do the same for French players, whose words are often not the book's
("mesurer", "qui commence", "égalité"): the words a section does not use itself.

A note belongs to a section by game, language, slug and heading: a book imported from
another text, whose section has another heading under that slug, gets no note there. The
search index keeps a section's notes as tokens of their own (NOTE_PREFIX, the notes'
language and the token: "~en:charg") that only a query's reading in that language asks for
(rules.search.query), matched at NOTE_MATCH (rules.search.index). Pure functions, no
Django import.

A note may also list `asks`: questions a player might type that the section answers, in
English, written the same way (after reading the section only). They are not search
words: the meaning model (rules.search.meaning) compares a question with them (a French
one through its English gloss: rules.search.gloss), as with the note's phrases. Its
`situations` are more of them, told as a player tells the case on the table ("my knights
charged and rolled a 1, can they still…", 12 to 35 words): questions written mid-game are
long and concrete, and the asks are short.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .normalise import normalise, tokens

NOTES_DIR = Path(__file__).resolve().parent.parent / "data" / "section_notes"
FORMAT = "citadel-section-notes/1"
NOTE_LANGS = ("en", "fr")  # the languages notes are written in
NOTE_PREFIX = "~"  # marks a note's token: the normaliser never makes one


@dataclass(frozen=True)
class SectionNote:
    """The notes of one section: the heading they were written for (normalised) and their
    phrases per language."""

    heading: str
    phrases: Mapping[str, tuple[str, ...]]
    original_heading: str = ""  # as written (the meaning model reads it: rules_meaning)
    asks: tuple[str, ...] = ()  # English questions it answers (for the meaning model only)
    situations: tuple[str, ...] = ()  # the same, told as the case on the table (longer)

    @property
    def meaning_phrases(self) -> tuple[str, ...]:
        """What the meaning model compares a question with: the phrases, the asks, then the
        situations."""
        return (
            *(p for lang in NOTE_LANGS for p in self.phrases.get(lang, ())),
            *self.asks,
            *self.situations,
        )

    @property
    def search_tokens(self) -> str:
        """The search tokens of every phrase, NOTE_PREFIX- and language-marked."""
        found = dict.fromkeys(
            token
            for lang, phrases in self.phrases.items()
            for phrase in phrases
            for token in note_phrase(tuple(tokens(phrase, lang)), lang)
        )
        return " ".join(found)


# (game, book language, section slug) -> its note
Notes = Mapping[tuple[str, str, str], SectionNote]


def parse_notes(data: dict) -> dict[tuple[str, str, str], SectionNote]:
    """The notes of one document, keyed by (game, lang, slug)."""
    if data.get("format") != FORMAT:
        raise ValueError(f"not a {FORMAT} document")
    game, lang = data["game"], data["lang"]
    return {
        (game, lang, item["slug"]): SectionNote(
            normalise(item["heading"], lang),
            {note_lang: tuple(item[note_lang]) for note_lang in NOTE_LANGS if item.get(note_lang)},
            item["heading"],
            tuple(item.get("asks") or ()),
            tuple(item.get("situations") or ()),
        )
        for item in data["sections"]
    }


@lru_cache(maxsize=1)
def load_notes() -> Notes:
    """Every shipped note (cached; none when the folder is missing)."""
    found: dict[tuple[str, str, str], SectionNote] = {}
    for path in sorted(NOTES_DIR.glob("*.json")) if NOTES_DIR.is_dir() else ():
        found.update(parse_notes(json.loads(path.read_text(encoding="utf-8"))))
    return found


def find_note(notes: Notes, *, game: str, lang: str, slug: str, heading: str) -> SectionNote | None:
    """A section's note: None when the notes have none for it, or were written for a
    section of that slug with another heading."""
    found = notes.get((game, lang, slug))
    if found is None or found.heading != normalise(heading, lang):
        return None
    return found


def note_phrases(*, game: str, lang: str, slug: str, heading: str, reader: str) -> list[str]:
    """The phrases of a section's notes in the reader's language, for a reader of a book in
    another language ("Key words: charge falls short, …"); [] otherwise."""
    if reader == lang:
        return []
    found = find_note(load_notes(), game=game, lang=lang, slug=slug, heading=heading)
    return list(found.phrases.get(reader, ())) if found else []


def note_phrase(source_tokens: tuple[str, ...], lang: str) -> tuple[str, ...]:
    """The alternative that finds a query unit's words, read in `lang`, in the notes."""
    return tuple(f"{NOTE_PREFIX}{lang}:{token}" for token in source_tokens)
