"""Findings link to the rulebook section stating their rule (armybuilder.citations): in the
API, the builder, and in the reader's language when a book of that language is imported."""

import pytest

from armybuilder.citations import load_citations, rule_urls
from cards.models import Card
from rules.models import Rulebook
from rules.services import import_quick_references, import_rulebook
from tests.armybuilder.test_check_api import OVER_TMG, WARBAND, check
from tests.armybuilder.test_list_views import add, new_list
from tests.rules.conftest import BOOKS, IMPORTS

pytestmark = pytest.mark.usefixtures("small_pool")


@pytest.fixture
def quick_references(db):
    import_quick_references()


def test_every_validator_rule_has_a_citation():
    rules = set(load_citations())
    assert {f"AB-{n:02d}" for n in range(1, 31)} <= rules
    assert {f"TW-{n:02d}" for n in range(3, 21)} <= rules


def test_rule_urls_are_empty_without_rulebooks():
    assert rule_urls(language="en") == {}


def test_rule_urls_link_to_the_english_quick_reference(quick_references):
    assert rule_urls(language="en")["AB-06"] == (
        "/rules/tmg-quick-reference-en/faction-and-neutral-units/"
    )


def test_rule_urls_follow_the_readers_language(quick_references):
    assert rule_urls(language="fr")["AB-29"] == "/rules/tmg-quick-reference-fr/parties-en-equipe/"


def test_rule_urls_cover_tactics_rules(quick_references):
    assert rule_urls(language="en")["TW-13"] == "/rules/tactics-quick-reference-en/figure-types/"


def test_rule_urls_forget_a_deleted_book(quick_references):
    assert "AB-01" in rule_urls(language="en")
    Rulebook.objects.filter(game="tmg").delete()
    assert "AB-01" not in rule_urls(language="en")


def test_check_api_finding_carries_its_rule_url(client, quick_references):
    finding = check(client, text=OVER_TMG).json()["findings"][0]
    assert finding["rule"] == "AB-01"
    assert finding["rule_url"] == "/rules/tmg-quick-reference-en/game-size/"


def test_check_api_finding_has_no_rule_url_without_rulebooks(client):
    assert "rule_url" not in check(client, text=OVER_TMG).json()["findings"][0]


def test_check_api_tactics_finding_carries_its_rule_url(client, quick_references):
    over = WARBAND.replace("Baratheon Guardians x4", "Baratheon Guardians x20")
    findings = check(client, text=over).json()["findings"]
    assert findings and all(f["rule_url"].startswith("/rules/tactics-") for f in findings)


def test_builder_finding_links_to_its_rule(client, quick_references):
    army_list = new_list(client)
    add(client, army_list, Card.objects.get(game="tmg", external_id="10201"))
    page = client.get(f"/lists/{army_list.pk}/edit/").content.decode()
    assert 'href="/rules/tmg-quick-reference-en/commander/"' in page


@pytest.mark.shared_data
def test_rule_urls_prefer_the_french_rulebook_over_the_french_quick_reference(
    quick_references, shared_dir
):
    slug, lang, game = IMPORTS["001"]
    import_rulebook(path=shared_dir / "rulebooks" / BOOKS["001"], slug=slug, lang=lang, game=game)
    assert rule_urls(language="fr")["AB-06"] == f"/rules/{slug}/unites-neutres/"
    assert rule_urls(language="en")["AB-06"].startswith("/rules/tmg-quick-reference-en/")


def _french_rulebook_of_our_own():
    """A small French TMG rulebook (our own words) stating two army-building rules."""
    from rules.models import Section
    from rules.search import index_book

    book = Rulebook.objects.create(slug="tmg-fr", lang="fr", game="tmg", title="Règles")
    for position, (slug, heading, body) in enumerate(
        [
            ("taille-de-la-partie", "Taille de la Partie", "Les joueurs fixent un total."),
            ("unites-neutres", "Unités Neutres", "Elles rejoignent toute armée, à moitié."),
            ("choix-du-general", "Choix du Général", "Une armée a un seul général."),
        ]
    ):
        Section.objects.create(book=book, slug=slug, position=position, heading=heading, body=body)
    index_book(book)
    return book


def test_rule_links_give_the_quick_reference_and_the_original_rulebook(quick_references):
    from armybuilder.citations import rule_links

    _french_rulebook_of_our_own()
    link = rule_links(language="en")["AB-06"]
    assert link.url.startswith("/rules/tmg-quick-reference-en/")
    assert link.original_url == "/rules/tmg-fr/unites-neutres/"


def test_rule_links_have_no_original_when_the_rulebook_is_in_the_readers_language(
    quick_references,
):
    from armybuilder.citations import rule_links

    _french_rulebook_of_our_own()
    link = rule_links(language="fr")["AB-06"]
    assert (link.url, link.original_url) == ("/rules/tmg-fr/unites-neutres/", None)


def test_check_api_finding_links_the_original_rule_beside_the_quick_reference(
    client, quick_references
):
    _french_rulebook_of_our_own()
    finding = check(client, text=OVER_TMG).json()["findings"][0]
    assert finding["rule"] == "AB-01"
    assert finding["rule_url"] == "/rules/tmg-quick-reference-en/game-size/"
    assert finding["rule_original_url"] == "/rules/tmg-fr/taille-de-la-partie/"


def test_check_api_finding_has_no_original_without_a_rulebook(client, quick_references):
    finding = check(client, text=OVER_TMG).json()["findings"][0]
    assert "rule_url" in finding and "rule_original_url" not in finding


def test_builder_finding_links_the_original_rule(client, quick_references):
    _french_rulebook_of_our_own()
    army_list = new_list(client)
    add(client, army_list, Card.objects.get(game="tmg", external_id="10201"))
    page = client.get(f"/lists/{army_list.pk}/edit/").content.decode()
    assert 'href="/rules/tmg-quick-reference-en/commander/"' in page
    assert 'href="/rules/tmg-fr/choix-du-general/"' in page
