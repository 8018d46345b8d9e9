"""Section notes (rules/search/notes.py): the English words of the shipped rulebooks'
sections, read by the search index."""

from __future__ import annotations

import json

import pytest

from rules.models import Rulebook, Section
from rules.search import index_book, search_sections
from rules.search.backends import fts5_expression, tsquery_expression
from rules.search.glossary import load_terms
from rules.search.notes import NOTES_DIR, find_note, load_notes, parse_notes
from rules.search.query import plan_query

# A section the shipped Hand of the King notes describe (rules/data/section_notes/hotk.fr.json).
NOTED_SLUG, NOTED_HEADING = "deroulement-d-une-partie", "DÉROULEMENT D’UNE PARTIE"


def _document(**changes):
    data = {
        "format": "citadel-section-notes/1",
        "game": "hotk",
        "lang": "fr",
        "sections": [{"slug": "tour", "heading": "Le Tour", "en": ["moving the spider"]}],
    }
    data.update(changes)
    return data


def test_parse_notes_keys_by_game_language_and_slug():
    note = parse_notes(_document())[("hotk", "fr", "tour")]
    assert (note.heading, note.search_tokens) == ("tour", "~en:move ~en:spider")


def test_parse_notes_marks_each_language_of_its_own():
    document = _document(
        sections=[{"slug": "tour", "heading": "Le Tour", "en": ["spider"], "fr": ["araignée"]}]
    )
    assert parse_notes(document)[("hotk", "fr", "tour")].search_tokens == "~en:spider ~fr:araigne"


def test_parse_notes_keeps_asks_for_the_meaning_model_not_as_search_words():
    section = {"slug": "tour", "heading": "Le Tour", "en": ["spider"], "asks": ["who moves Varys"]}
    note = parse_notes(_document(sections=[section]))[("hotk", "fr", "tour")]
    assert note.meaning_phrases == ("spider", "who moves Varys")
    assert note.search_tokens == "~en:spider"


def test_parse_notes_keeps_situations_after_the_asks_not_as_search_words():
    section = {
        "slug": "tour",
        "heading": "Le Tour",
        "en": ["spider"],
        "asks": ["who moves Varys"],
        "situations": ["Varys stopped next to my last Stark card, do I take the cards he passed"],
    }
    note = parse_notes(_document(sections=[section]))[("hotk", "fr", "tour")]
    assert note.meaning_phrases[-1].startswith("Varys stopped")
    assert note.search_tokens == "~en:spider"


def test_parse_notes_refuses_another_format():
    with pytest.raises(ValueError):
        parse_notes(_document(format="citadel-glossary/1"))


def test_find_note_of_a_section_with_another_heading_is_none():
    notes = parse_notes(_document())
    assert find_note(notes, game="hotk", lang="fr", slug="tour", heading="Le Tour")
    assert find_note(notes, game="hotk", lang="fr", slug="tour", heading="Fin") is None


def test_shipped_notes_are_short_phrases_one_entry_per_section():
    for path in sorted(NOTES_DIR.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        slugs = [item["slug"] for item in data["sections"]]
        assert len(slugs) == len(set(slugs)), path.name
        for item in data["sections"]:
            assert item.get("en") or item.get("fr"), (path.name, item["slug"])
            for phrases in (item.get("en", []), item.get("fr", [])):
                assert len(phrases) <= 16, (path.name, item["slug"])
                assert all(0 < len(phrase.split()) <= 8 for phrase in phrases), item["slug"]
            asks = item.get("asks", [])
            assert len(asks) <= 10 and all(2 <= len(a.split()) <= 16 for a in asks), item["slug"]
            told = item.get("situations", [])
            assert len(told) <= 4 and all(12 <= len(t.split()) <= 35 for t in told), item["slug"]
    assert len(load_notes()) >= 400


def _hotk_book(heading=NOTED_HEADING):
    book = Rulebook.objects.create(slug="hotk-notes", lang="fr", game="hotk", title="La Main")
    for position, (slug, title, body) in enumerate(
        [
            (NOTED_SLUG, heading, "Les joueurs jouent à tour de rôle."),
            ("mise-en-place", "MISE EN PLACE", "On dispose les cartes en grille."),
        ]
    ):
        Section.objects.create(
            book=book, slug=slug, position=position, heading=title, body=body, rule_key=slug
        )
    index_book(book)
    return book


@pytest.mark.django_db
@pytest.mark.parametrize(
    "query", ["is diagonal movement allowed", "sauter par-dessus les cartes"], ids=["en", "fr"]
)
def test_search_sections_finds_a_section_by_its_notes_in_each_language(query):
    _hotk_book()
    hits = search_sections(query, book="hotk-notes", explain=True)
    assert hits and hits[0].section.slug == NOTED_SLUG
    assert "notes" in {unit["where"] for unit in hits[0].explanation["units"]}


@pytest.mark.django_db
def test_search_sections_reads_no_notes_for_a_section_with_another_heading():
    _hotk_book(heading="UN AUTRE TITRE")
    hits = search_sections("is diagonal movement allowed", book="hotk-notes")
    assert NOTED_SLUG not in {hit.section.slug for hit in hits}


@pytest.mark.django_db
def test_search_sections_reads_no_notes_when_section_notes_are_off(settings):
    _hotk_book()
    settings.CITADEL_SECTION_NOTES = False
    hits = search_sections("is diagonal movement allowed", book="hotk-notes")
    assert NOTED_SLUG not in {hit.section.slug for hit in hits}


def test_database_queries_leave_out_the_note_tokens():
    plan = plan_query("what if my charge falls short", ["fr"], load_terms(), {}, None)
    query = plan.langs["fr"]
    assert any(token.startswith("~") for token in query.tokens())
    for mode in ("all", "any"):
        assert "~" not in fts5_expression(query, mode)
        assert "~" not in tsquery_expression(query, mode)
