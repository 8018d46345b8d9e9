"""Where a game term is defined: the section whose heading is the term, or the section that
holds the term in a glossary-style entry ("PANIQUÉ : …", "- Charge — …").

Pure Python over plain values, so card pages, validator findings and PDF exports share one
answer. Terms are compared after the search normaliser (accents, case, plurals) and through
the glossary, so the English ability "Order: Threaten" finds the French rulebook's "Ordres"
and "Game size" finds "Taille de la Partie".
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .search.concepts import HEADING_KINDS
from .search.concepts import entry_terms as _entry_terms
from .search.concepts import heading_terms as _heading_terms
from .search.glossary import Glossary, load_glossary
from .search.normalise import LANGS, tokens


@dataclass(frozen=True, slots=True)
class SectionText:
    """What the index needs of one section."""

    id: int
    book_slug: str
    book_lang: str
    is_quick_reference: bool
    slug: str
    heading: str
    kind: str
    position: int
    body: str


@dataclass(frozen=True, slots=True)
class Definition:
    section_id: int
    book_slug: str
    slug: str
    heading: str
    lang: str
    # Lower sorts first: the reader's language, the full rulebook, a heading, then the
    # earlier heading or the shorter section holding the entry.
    rank: tuple
    is_quick_reference: bool = False


class DefinitionIndex:
    def __init__(self, sections: Iterable[SectionText], glossary: Glossary | None = None):
        self.glossary = glossary or load_glossary()
        # (lang, phrase) -> [(is_quick_reference, is_entry, preference, section)]
        self._places: dict[tuple[str, tuple[str, ...]], list[tuple]] = {}
        for section in sections:
            if section.kind in HEADING_KINDS:
                for term in _heading_terms(section.heading):
                    self._add(section, term, is_entry=False)
            for term in _entry_terms(section.body):
                self._add(section, term, is_entry=True)

    def _add(self, section: SectionText, term: str, *, is_entry: bool) -> None:
        phrase = tuple(tokens(term, section.book_lang))
        if phrase:
            # A heading: the earlier the better. An entry: the shorter the section the better,
            # since reference sheets reprinted inside long chapters repeat the definitions.
            preference = len(section.body) if is_entry else section.position
            place = (section.is_quick_reference, is_entry, preference, section)
            self._places.setdefault((section.book_lang, phrase), []).append(place)

    def _phrases(self, term: str) -> dict[tuple[str, tuple[str, ...]], bool]:
        """(language, phrase) -> whether only the glossary gives it: the term as written in
        every language, and its glossary equivalents."""
        own = {(lang, tuple(tokens(term, lang))) for lang in LANGS}
        own = {key for key in own if key[1]}
        out = dict.fromkeys(own, False)
        for lang, phrase in own:
            for entry in self.glossary.lookup(phrase, lang):
                for target in LANGS:
                    for equivalent in self.glossary.phrases_of(entry, target):
                        out.setdefault((target, equivalent), True)
        return out

    def find(self, term: str, *, language: str, full_rulebook: bool = False) -> Definition | None:
        """The best section defining `term`; with `full_rulebook`, never a quick reference
        (the original rule a quick reference summarises)."""
        found = self._find(term, language, full_rulebook)
        if found is None and ":" in term:
            # "Order: Threaten" is an Order; "Ordre : Menacer" too.
            found = self._find(term.split(":", 1)[0], language, full_rulebook)
        return found

    def _find(self, term: str, language: str, full_rulebook: bool = False) -> Definition | None:
        best: Definition | None = None
        for (lang, phrase), via_glossary in self._phrases(term).items():
            for quick, is_entry, preference, section in self._places.get((lang, phrase), ()):
                if quick and full_rulebook:
                    continue
                rank = (lang != language, quick, via_glossary, is_entry, preference)
                rank += (section.book_slug,)
                if best is None or rank < best.rank:
                    best = Definition(
                        section_id=section.id,
                        book_slug=section.book_slug,
                        slug=section.slug,
                        heading=section.heading,
                        lang=section.book_lang,
                        rank=rank,
                        is_quick_reference=quick,
                    )
        return best

    def find_first(
        self, terms: Iterable[str], *, language: str, full_rulebook: bool = False
    ) -> Definition | None:
        """The best section defining any of `terms` (e.g. one rule's headings in each
        language): the reader's language first, whichever term finds it."""
        best: tuple | None = None
        for order, term in enumerate(terms):
            definition = self.find(term, language=language, full_rulebook=full_rulebook)
            if definition is not None:
                # Language and book first, then the caller's order of terms.
                key = (definition.rank[:2], order, definition.rank)
                if best is None or key < best[0]:
                    best = (key, definition)
        return best[1] if best else None

    def mentioned_terms(self, text: str, *, lang: str, games: Iterable[str]) -> list[str]:
        """The glossary terms of `games` that `text` mentions, as written in `lang`."""
        wanted = set(games)
        out: list[str] = []
        for match in self.glossary.find(tokens(text, lang), lang):
            for entry in match.entries:
                names = entry.terms.get(lang) or ()
                if wanted.intersection(entry.games) and names and names[0] not in out:
                    out.append(names[0])
        return out
