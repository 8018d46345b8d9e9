"""The rules pages: index, book contents, section (anchors, copy link, previous/next,
translations, right-to-left Persian), search, and 404s — on small books of our own."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from rules.models import Rulebook, Section
from rules.services import import_rulebook_text

pytestmark = pytest.mark.django_db

EN = """\
# Test game quick reference

## Setup {#setup}

Each player takes twenty cards and shuffles them before the game starts.

### Decks {#decks}

Decks are never shown to the other players during the game.

## Victory {#victory}

The first player to hold five cards of one colour wins the game at once.
"""

FR = """\
# Aide-mémoire du jeu d’essai

## Mise en place {#setup}

Chaque joueur prend vingt cartes et les mélange avant le début de la partie.

### Paquets {#decks}

Les paquets ne sont jamais montrés aux autres joueurs pendant la partie.

## Victoire {#victory}

Le premier joueur qui réunit cinq cartes d’une même couleur gagne aussitôt.
"""

FA = """\
# راهنمای بازی آزمایشی

## چیدمان {#setup}

هر بازیکن بیست کارت برمی‌دارد و آن‌ها را پیش از شروع بازی بر می‌زند.

## پیروزی {#victory}

اولین بازیکنی که پنج کارت هم‌رنگ داشته باشد فوراً برنده می‌شود.
"""


@pytest.fixture
def books(db):
    made = {}
    for lang, text in (("en", EN), ("fr", FR), ("fa", FA)):
        made[lang] = import_rulebook_text(
            text=text,
            fmt="markdown",
            slug=f"test-game-{lang}",
            lang=lang,
            game="tmg",
            edition="test-game",
            is_quick_reference=True,
        ).book
    return made


def _section(book, slug):
    return Section.objects.get(book=book, slug=slug)


def _url(book, section_slug):
    return reverse("rules:section", args=[book.slug, section_slug])


# --- index --------------------------------------------------------------------------------


def test_index_lists_books_by_game(client, books):
    html = client.get(reverse("rules:index")).content.decode()
    assert 'id="game-tmg"' in html
    assert all(reverse("rules:book", args=[b.slug]) in html for b in books.values())


def test_index_says_so_when_no_book_is_imported(client):
    response = client.get(reverse("rules:index"))
    assert response.status_code == 200
    assert "No rulebook has been imported yet." in response.content.decode()


def test_site_navigation_links_to_the_rules(client):
    assert f'href="{reverse("rules:index")}"' in client.get("/").content.decode()


# --- book -----------------------------------------------------------------------------------


def test_book_page_shows_a_collapsible_table_of_contents(client, books):
    html = client.get(reverse("rules:book", args=["test-game-en"])).content.decode()
    assert "<details" in html and "<summary>" in html
    assert _url(books["en"], "decks") in html


def test_book_page_of_an_unknown_book_is_404(client, books):
    assert client.get(reverse("rules:book", args=["no-such-book"])).status_code == 404


# --- section --------------------------------------------------------------------------------


def test_section_page_gives_each_heading_an_anchor(client, books):
    html = client.get(_url(books["en"], "setup")).content.decode()
    assert 'id="setup"' in html and 'id="decks"' in html  # the section and its subsection


def test_section_page_has_a_permalink_and_a_copy_link_button(client, books):
    html = client.get(_url(books["en"], "setup")).content.decode()
    assert f'class="permalink" href="{_url(books["en"], "setup")}"' in html
    assert 'class="copy-link' in html and "navigator.clipboard" in html


def test_section_page_links_previous_and_next(client, books):
    html = client.get(_url(books["en"], "decks")).content.decode()
    assert re.search(rf'rel="prev" href="{_url(books["en"], "setup")}"', html)
    assert re.search(rf'rel="next" href="{_url(books["en"], "victory")}"', html)


def test_section_page_of_the_first_section_has_no_previous_link(client, books):
    html = client.get(_url(books["en"], "front-matter")).content.decode()
    assert 'rel="prev"' not in html


def test_section_page_links_the_same_rule_in_other_languages(client, books):
    html = client.get(_url(books["en"], "setup")).content.decode()
    assert _url(books["fr"], "mise-en-place") in html
    fa = _section(books["fa"], "چیدمان")
    assert _url(books["fa"], fa.slug) in html


def test_persian_section_is_rendered_right_to_left(client, books):
    fa = _section(books["fa"], "چیدمان")
    html = client.get(_url(books["fa"], fa.slug)).content.decode()
    assert re.search(r'<article[^>]*lang="fa"[^>]*dir="rtl"', html)


def test_french_section_is_marked_as_french_left_to_right(client, books):
    html = client.get(_url(books["fr"], "mise-en-place")).content.decode()
    assert re.search(r'<article[^>]*lang="fr"', html)
    assert not re.search(r'<article[^>]*dir="rtl"', html)


def test_section_page_of_an_unknown_section_is_404(client, books):
    assert client.get(_url(books["en"], "no-such-section")).status_code == 404


def test_section_page_of_an_unknown_book_is_404(client, books):
    assert client.get(reverse("rules:section", args=["nope", "setup"])).status_code == 404


def test_section_page_renders_a_table(client):
    text = "## Sizes {#sizes}\n\n| Players | Cards |\n|---|---|\n| 2 | 5 |\n"
    book = import_rulebook_text(text=text, fmt="markdown", slug="t-en", lang="en", game="tmg").book
    html = client.get(_url(book, "sizes")).content.decode()
    assert '<th scope="col">Players</th>' in html and "<td>5</td>" in html


def test_section_page_escapes_the_book_text(client):
    text = "## Danger {#danger}\n\nA <script>alert(1)</script> in the text stays text.\n"
    book = import_rulebook_text(text=text, fmt="markdown", slug="t-en", lang="en", game="tmg").book
    html = client.get(_url(book, "danger")).content.decode()
    assert "<script>alert(1)" not in html and "&lt;script&gt;" in html


def test_section_page_is_translated_to_french(client, books):
    html = client.get(_url(books["en"], "setup"), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Copier le lien" in html


# --- search ---------------------------------------------------------------------------------


def test_search_page_without_a_query_shows_the_form(client, books):
    response = client.get(reverse("rules:search"))
    assert response.status_code == 200
    assert 'name="q"' in response.content.decode()


def test_search_page_shows_snippets_with_highlights(client, books):
    html = client.get(reverse("rules:search"), {"q": "shuffles"}).content.decode()
    assert _url(books["en"], "setup") in html
    assert "<mark>" in html


def test_search_page_filters_by_language(client, books):
    html = client.get(reverse("rules:search"), {"q": "cartes", "lang": "fr"}).content.decode()
    assert _url(books["fr"], "mise-en-place") in html
    assert _url(books["en"], "setup") not in html


@pytest.mark.parametrize(
    "params",
    [
        {"q": "x" * 5000},
        {"q": "cards", "lang": "zz", "game": "../../etc", "book": "\x00"},
        {"q": '"unclosed AND OR ( * '},
        {"q": "   "},
    ],
)
def test_search_page_never_fails_on_odd_input(client, books, params):
    assert client.get(reverse("rules:search"), params).status_code == 200


def _noted_hotk_section():
    """A section the shipped notes describe (rules/data/section_notes/hotk.fr.json)."""
    book = Rulebook.objects.create(slug="hotk-fr", lang="fr", game="hotk", title="La Main du Roi")
    return Section.objects.create(
        book=book,
        slug="deroulement-d-une-partie",
        position=0,
        heading="DÉROULEMENT D’UNE PARTIE",
        body="Les joueurs jouent à tour de rôle.",
    )


def test_section_page_gives_an_english_reader_the_key_words_of_a_french_section(client):
    section = _noted_hotk_section()
    html = client.get(_url(section.book, section.slug), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'class="key-words"' in html and "no diagonal movement" in html


def test_section_page_gives_no_key_words_to_a_reader_of_the_book_language(client):
    section = _noted_hotk_section()
    html = client.get(_url(section.book, section.slug), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert 'class="key-words"' not in html
