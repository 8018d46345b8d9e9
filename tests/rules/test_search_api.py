"""GET /api/v1/rules/search/ and /api/v1/rules/sections/{id}/ (contracts §4)."""

import pytest

from rules.models import Rulebook, Section
from rules.search import index_book
from rules.search.vocabulary import recheck_soon

pytestmark = pytest.mark.django_db

SEARCH = "/api/v1/rules/search/"


def make_book(slug, lang, game="agot", edition_key="agot-2e", sections=()):
    """A book of (heading, body, rule_key[, kind]) sections, indexed."""
    book = Rulebook.objects.create(
        slug=slug, lang=lang, game=game, title=slug.upper(), edition_key=edition_key
    )
    for position, (heading, body, rule_key, *kind) in enumerate(sections):
        Section.objects.create(
            book=book,
            slug=f"section-{position}",
            position=position,
            heading=heading,
            body=body,
            rule_key=rule_key,
            page_start=position + 2,
            **({"kind": kind[0]} if kind else {}),
        )
    index_book(book)
    return book


@pytest.fixture
def books():
    fr = make_book(
        "agot-fr",
        "fr",
        sections=[
            ("Le Pion Corbeau Messager", "Son détenteur peut <changer> un ordre.", "raven"),
            ("Ravitaillement", "La piste indique la taille des armées.", "supply"),
            ("Sans traduction", "Un texte seul.", ""),
        ],
    )
    fa = make_book(
        "agot-fa",
        "fa",
        sections=[
            ("توکن کلاغ پیام رسان", "دارنده این توکن می تواند یک دستور را عوض کند.", "raven"),
            ("موجودی", "جدول موجودی اندازه ارتش ها را نشان می دهد.", "supply"),
        ],
    )
    # The other game's book is more than one section: a one-section book would make any
    # word it holds look typical of its game (the game likelihood is per section).
    other_game = make_book(
        "tmg-fr",
        "fr",
        game="tmg",
        edition_key="",
        sections=[
            ("Corbeau", "Autre jeu.", "raven"),
            ("Unités", "Une unité se déplace sur le champ de bataille.", ""),
            ("Moral", "Une unité teste son moral après des pertes.", ""),
        ],
    )
    return {"fr": fr, "fa": fa, "tmg": other_game}


def test_rules_search_returns_results_best_first(client, books):
    response = client.get(SEARCH, {"q": "corbeau messager"})
    assert response.status_code == 200
    data = response.json()
    assert data["query"] == "corbeau messager"
    first = data["results"][0]
    section = Section.objects.get(book=books["fr"], slug="section-0")
    assert first["section"] == section.id
    assert first["book"] == "agot-fr"
    assert first["lang"] == "fr"
    assert first["game"] == "agot"
    assert first["heading"] == "Le Pion Corbeau Messager"
    assert "<mark>Corbeau</mark>" in first["heading_html"]
    assert first["url"] == "/rules/agot-fr/section-0/"
    assert first["page"] == 2
    scores = [result["score"] for result in data["results"]]
    assert scores == sorted(scores, reverse=True)


def test_rules_search_snippet_is_escaped(client, books):
    result = client.get(SEARCH, {"q": "ordre", "book": "agot-fr"}).json()["results"][0]
    assert "&lt;changer&gt;" in result["snippet"]
    assert "<mark>ordre</mark>" in result["snippet"]


def test_rules_search_cross_language_with_lang_filter(client, books):
    results = client.get(SEARCH, {"q": "messenger raven", "lang": "fa"}).json()["results"]
    assert results[0]["heading"] == "توکن کلاغ پیام رسان"
    assert {result["lang"] for result in results} == {"fa"}


def test_rules_search_filters_by_book_and_game(client, books):
    results = client.get(SEARCH, {"q": "corbeau", "game": "tmg"}).json()["results"]
    assert [result["book"] for result in results] == ["tmg-fr"]
    results = client.get(SEARCH, {"q": "corbeau", "book": "agot-fr"}).json()["results"]
    assert {result["book"] for result in results} == {"agot-fr"}


def test_rules_search_limit(client, books):
    results = client.get(SEARCH, {"q": "corbeau", "limit": "1"}).json()["results"]
    assert len(results) == 1


def test_rules_search_no_match_is_an_empty_list(client, books):
    response = client.get(SEARCH, {"q": "zzzzqqq"})
    assert response.status_code == 200
    assert response.json()["results"] == []


@pytest.mark.parametrize(
    ("params", "code"),
    [
        ({}, "empty"),
        ({"q": ""}, "empty"),
        ({"q": "   "}, "empty"),
        ({"q": "x" * 501}, "too_long"),
        ({"q": "corbeau", "lang": "de"}, "invalid_lang"),
        ({"q": "corbeau", "game": "chess"}, "invalid_game"),
        ({"q": "corbeau", "book": "no-such-book"}, "invalid_book"),
        ({"q": "corbeau", "limit": "0"}, "invalid_limit"),
        ({"q": "corbeau", "limit": "many"}, "invalid_limit"),
        ({"q": "corbeau", "limit": "51"}, "invalid_limit"),
    ],
)
def test_rules_search_bad_params_give_400_with_a_message(client, books, params, code):
    response = client.get(SEARCH, params)
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == code
    assert body["detail"]


def test_rules_search_query_of_500_characters_is_accepted(client, books):
    assert client.get(SEARCH, {"q": "corbeau " + "x" * 492}).status_code == 200


@pytest.mark.parametrize("q", ['"', "(", "NEAR(a b", "a & | b", "\u200c", "'; --", "*"])
def test_rules_search_odd_queries_never_give_500(client, books, q):
    assert client.get(SEARCH, {"q": q}).status_code == 200


def test_rules_section_detail_with_translations(client, books):
    section = Section.objects.get(book=books["fr"], slug="section-0")
    response = client.get(f"/api/v1/rules/sections/{section.id}/")
    assert response.status_code == 200
    data = response.json()
    assert data["id"] == section.id
    assert data["book"] == "agot-fr"
    assert data["book_title"] == "AGOT-FR"
    assert data["heading"] == "Le Pion Corbeau Messager"
    assert data["body"] == section.body
    assert data["url"] == "/rules/agot-fr/section-0/"
    translation = Section.objects.get(book=books["fa"], slug="section-0")
    # Same rule_key in the same edition; the TMG book's "raven" key is another game.
    assert data["translations"] == [
        {
            "section": translation.id,
            "book": "agot-fa",
            "lang": "fa",
            "heading": "توکن کلاغ پیام رسان",
            "url": "/rules/agot-fa/section-0/",
        }
    ]


def test_rules_section_without_rule_key_has_no_translations(client, books):
    section = Section.objects.get(book=books["fr"], slug="section-2")
    data = client.get(f"/api/v1/rules/sections/{section.id}/").json()
    assert data["translations"] == []


def test_rules_section_unknown_id_is_404(client, books):
    response = client.get("/api/v1/rules/sections/999999/")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_rules_api_is_in_the_openapi_schema(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").content.decode()
    assert "/api/v1/rules/search/" in schema
    assert "/api/v1/rules/sections/{id}/" in schema


def test_rules_search_explain_says_why_a_section_ranked(client, books):
    result = client.get(SEARCH, {"q": "messenger raven", "explain": "1"}).json()["results"][0]
    explained = result["explain"]
    assert result["heading"] == "Le Pion Corbeau Messager"
    assert explained["units"][0]["query"] == "messenger raven"
    assert explained["units"][0]["read_as"] == "term"
    assert explained["units"][0]["where"] == "heading"
    assert explained["defines"] == ["messenger-raven"]
    assert set(explained["boosts"]) >= {"defines", "game", "language", "kind_penalty"}


def test_rules_search_explain_without_the_meaning_model_has_no_meaning(client, books):
    result = client.get(SEARCH, {"q": "messenger raven", "explain": "1"}).json()["results"][0]
    assert result["explain"]["meaning"] is None
    assert result["explain"]["boosts"]["meaning"] == 0.0


def test_rules_search_explain_gives_the_phrase_closest_in_meaning(
    client, books, meaning_model_copy, settings
):
    settings.CITADEL_MEANING_MODEL = str(meaning_model_copy)
    response = client.get(SEARCH, {"q": "who holds the messenger raven", "explain": "1"})
    explained = response.json()["results"][0]["explain"]
    assert explained["meaning"]["phrase"] == "Le Pion Corbeau Messager"
    assert -1.0 <= explained["meaning"]["similarity"] <= 1.0
    assert explained["boosts"]["meaning"] >= 0.0


def test_rules_search_explain_says_what_each_model_read_of_a_persian_question(
    client, books, meaning_model_copy, multilingual_model_copy, settings
):
    settings.CITADEL_MEANING_MODEL = str(meaning_model_copy)
    settings.CITADEL_MULTILINGUAL_MODEL = str(multilingual_model_copy)
    query = "کلاغ پیام رسان"
    response = client.get(SEARCH, {"q": query, "lang": "fa", "explain": "1"})
    assert response.status_code == 200
    meaning = response.json()["results"][0]["explain"]["meaning"]
    assert meaning["read_by"] == {"all-MiniLM-L6-v2": None, "multilingual-e5-small": query}
    assert meaning["question"] == query
    assert meaning["similarity"] <= 1.0


@pytest.mark.parametrize("limit", [1, 2, 20])
def test_rules_search_shows_the_same_snippets_with_the_meaning_model(
    client, books, meaning_model_copy, settings, limit
):
    # The meaning only reorders the sections the words found: what a result shows is made
    # from its words, while the model reads the question for the words' best, after it
    # for the others, and is the same as without the model.
    def shown(query, limit, **params):
        response = client.get(SEARCH, {"q": query, "limit": limit, **params})
        return response.json()["results"]

    queries = ["who holds the messenger raven", "taille des armées", "unité moral pertes"]
    words = {q: {r["section"]: r for r in shown(q, 50)} for q in queries}
    settings.CITADEL_MEANING_MODEL = str(meaning_model_copy)
    recheck_soon()  # the model is part of the index: built again at the next search
    for query in queries:
        results = shown(query, limit, explain="1")
        assert results and all(r["explain"]["meaning"] is not None for r in results)
        for result in results:
            alone = words[query][result["section"]]
            assert (result["snippet"], result["heading_html"]) == (
                alone["snippet"],
                alone["heading_html"],
            )


def test_rules_search_explain_gives_the_best_passage(client, books):
    result = client.get(SEARCH, {"q": "messenger raven", "explain": "1"}).json()["results"][0]
    assert result["explain"]["boosts"]["passage"] > 0
    assert result["explain"]["passage_line"] == 0


def test_rules_search_without_explain_has_no_explain(client, books):
    result = client.get(SEARCH, {"q": "messenger raven"}).json()["results"][0]
    assert "explain" not in result


def test_rules_search_bad_explain_is_400(client, books):
    response = client.get(SEARCH, {"q": "raven", "explain": "maybe"})
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_explain"


def test_rules_search_explain_shows_a_question_asking_for_the_credits(client):
    make_book(
        "hotk-credits",
        "fr",
        game="hotk",
        edition_key="",
        sections=[
            ("Mise en place", "Chaque joueur prend une carte du jeu.", ""),
            ("Crédits", "Conception du jeu : Jeanne Martin.", "", "credits"),
        ],
    )
    results = client.get(SEARCH, {"q": "who designed the game", "explain": "1"}).json()
    first = results["results"][0]
    assert first["heading"] == "Crédits"
    assert first["explain"]["asks_kinds"] == ["credits"]
    assert first["explain"]["boosts"]["kind_penalty"] == 0


def test_rules_search_explain_is_in_the_openapi_schema(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    parameters = schema["paths"]["/api/v1/rules/search/"]["get"]["parameters"]
    assert "explain" in {p["name"] for p in parameters}
    result = schema["components"]["schemas"]["RulesSearchResult"]["properties"]
    assert "explain" in result
    assert "passage_line" in schema["components"]["schemas"]["RulesSearchExplain"]["properties"]


def test_rules_search_explain_shows_the_number_boost(client):
    make_book(
        "tmg-deck",
        "fr",
        game="tmg",
        edition_key="",
        sections=[
            ("Mélange", "Le paquet de cartes tactiques est mélangé.", ""),
            ("Taille", "Le paquet de cartes tactiques en compte vingt.", ""),
        ],
    )
    query = {"q": "how many cards in the tactics deck", "explain": "1"}
    results = client.get(SEARCH, query).json()["results"]
    assert results[0]["heading"] == "Taille"
    assert results[0]["explain"]["asks_number"] is True
    assert results[0]["explain"]["boosts"]["number"] > 0
    assert results[1]["explain"]["boosts"]["number"] == 0
