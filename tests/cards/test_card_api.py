"""The read-only card API under /api/v1/: cards, factions, scenarios, and the schema."""

import pytest

from cards.models import Ability, Card, CardVersion, Character, Faction, Scenario
from cards.selectors import forget_card_data_version
from tests.carddata import make_card

pytestmark = pytest.mark.django_db

CARDS = "/api/v1/cards/"


@pytest.fixture
def data():
    stark = Faction.objects.create(
        game="tmg", slug="stark", name_en="House Stark", name_fr="Maison Stark"
    )
    tactics_stark = Faction.objects.create(game="tactics", slug="stark", name_en="Stark")
    tactics_stark.sigils.create(slug="direwolf", name_en="Direwolf", name_fr="Loup-garou")
    Faction.objects.create(game="tactics", slug="baratheon", name_en="Baratheon")
    robb = Character.objects.create(key="robb-stark", name_en="Robb Stark")
    sundering = Ability.objects.create(
        key="sundering", name_en="Sundering", name_fr="Fracasser", text_en="-1 Defense."
    )
    swords = make_card(
        game="tmg",
        kind="unit",
        external_id="10101",
        faction=stark,
        name_en="Stark Sworn Swords",
        name_fr="Épées Liges Stark",
        points=5,
        attacks=[{"name_en": "Longsword", "range": "melee", "to_hit": 4, "dice": [7, 5, 4]}],
        abilities=[sundering],
        requirements=[{"type": "copy_limit", "max": 2}],
    )
    CardVersion.objects.create(card=swords, version="2021", stats={"points": 5})
    robb_card = make_card(
        game="tmg",
        kind="attachment",
        external_id="20101",
        faction=stark,
        name_en="Robb Stark",
        title_en="The Young Wolf",
        title_fr="Le Jeune Loup",
        points=0,
        is_commander=True,
        characters=[robb],
    )
    hero = make_card(
        game="tactics",
        kind="hero",
        external_id="tac-robb",
        faction=tactics_stark,
        name_en="Robb Stark",
        gold=2,
        silver=0,
        copper=0,
        characters=[robb],
    )
    Scenario.objects.create(
        game="tmg", slug="a-game-of-thrones", kind="game_mode", name_en="A Game of Thrones"
    )
    Scenario.objects.create(
        game="tactics",
        slug="standard",
        kind="game_size",
        name_en="Standard",
        name_fr="Standard",
        gold=3,
        silver=6,
        copper=18,
    )
    return {"swords": swords, "robb": robb_card, "hero": hero}


# --- GET /api/v1/cards/ ------------------------------------------------------------------


def test_card_list_returns_paginated_cards(client, data):
    body = client.get(CARDS).json()
    assert body["count"] == 3
    assert {"next", "previous", "results"} <= body.keys()


def test_card_list_query_filters(client, data):
    body = client.get(CARDS, {"q": "kind:attachment"}).json()
    assert [row["external_id"] for row in body["results"]] == ["20101"]


def test_card_list_row_has_both_languages(client, data):
    row = client.get(CARDS, {"q": "sworn"}).json()["results"][0]
    assert row["name"] == {"en": "Stark Sworn Swords", "fr": "Épées Liges Stark"}
    assert row["faction"] == "stark"
    assert row["url"] == f"/api/v1/cards/{data['swords'].pk}/"


def test_card_list_tactics_row_has_coin_cost(client, data):
    row = client.get(CARDS, {"q": "game:tactics"}).json()["results"][0]
    assert row["cost"] == {"gold": 2, "silver": 0, "copper": 0}


def test_card_list_sort_directive_orders_results(client, data):
    body = client.get(CARDS, {"q": "game:tmg sort:cost dir:desc"}).json()
    assert [row["external_id"] for row in body["results"]] == ["10101", "20101"]


def test_card_list_page_size_is_capped(client, data):
    for n in range(205):
        Card.objects.create(game="tmg", kind="unit", external_id=f"x{n}", name_en=f"Filler {n}")
    body = client.get(CARDS, {"page_size": "1000"}).json()
    assert len(body["results"]) == 200


def test_card_list_page_size_is_honoured(client, data):
    body = client.get(CARDS, {"page_size": "2"}).json()
    assert len(body["results"]) == 2 and body["next"]


@pytest.mark.parametrize("size", ["lots", "0", "-3", ""])
def test_card_list_bad_page_size_is_400(client, data, size):
    response = client.get(CARDS, {"page_size": size})
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_page_size"


@pytest.mark.parametrize("lang", ["de", ""])
def test_card_list_unknown_lang_is_400(client, data, lang):
    response = client.get(CARDS, {"lang": lang})
    assert (response.status_code, response.json()["code"]) == (400, "invalid_lang")


def test_faction_list_empty_game_is_400(client, data):
    assert client.get("/api/v1/factions/", {"game": ""}).status_code == 400


def test_card_list_sees_a_card_added_after_the_same_search(client, data):
    before = client.get(CARDS, {"q": "zzfresh"}).json()["count"]
    make_card(game="tmg", kind="unit", external_id="19999", name_en="Zzfresh Spearmen")
    forget_card_data_version()  # the few seconds a process trusts its version are over
    assert client.get(CARDS, {"q": "zzfresh"}).json()["count"] == before + 1


def test_card_list_page_out_of_range_is_404(client, data):
    response = client.get(CARDS, {"page": "99"})
    assert response.status_code == 404
    assert "detail" in response.json()


def test_card_list_syntax_error_is_400_with_position(client, data):
    response = client.get(CARDS, {"q": "stark colour:red"})
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "query_syntax"
    assert body["position"] == 6
    assert "Unknown field" in body["detail"]


def test_card_list_syntax_error_in_french_by_lang_param(client, data):
    body = client.get(CARDS, {"q": "cost<=abc", "lang": "fr"}).json()
    assert body["detail"].startswith("Nombre attendu")


def test_card_list_syntax_error_in_french_by_accept_language(client, data):
    response = client.get(CARDS, {"q": "cost<=abc"}, headers={"Accept-Language": "fr"})
    assert response.json()["detail"].startswith("Nombre attendu")


def test_card_list_has_no_n_plus_one(client, data, django_assert_max_num_queries):
    for n in range(30):
        make_card(game="tmg", kind="unit", external_id=f"y{n}", name_en=f"More {n}")
    with django_assert_max_num_queries(4):
        assert client.get(CARDS).status_code == 200


# --- GET /api/v1/cards/{id}/ -------------------------------------------------------------


def test_card_detail_by_id_has_all_languages(client, data):
    body = client.get(f"{CARDS}{data['robb'].pk}/").json()
    assert body["title"] == {"en": "The Young Wolf", "fr": "Le Jeune Loup"}
    assert body["is_commander"] is True
    assert body["characters"] == [{"key": "robb-stark", "name": {"en": "Robb Stark", "fr": ""}}]


def test_card_detail_has_abilities_requirements_versions(client, data):
    body = client.get(f"{CARDS}{data['swords'].pk}/").json()
    assert body["abilities"][0]["name"] == {"en": "Sundering", "fr": "Fracasser"}
    assert body["requirements"][0]["record"] == {"type": "copy_limit", "max": 2}
    assert body["requirements"][0]["description"]["en"] == "At most 2 copies per army."
    assert [v["version"] for v in body["versions"]] == ["2021"]
    assert body["attacks"][0]["dice"] == [7, 5, 4]


def test_card_detail_by_game_and_external_id(client, data):
    body = client.get(f"{CARDS}tactics/tac-robb/").json()
    assert body["id"] == data["hero"].pk
    assert body["cost"] == {"gold": 2, "silver": 0, "copper": 0}


def test_card_detail_unknown_id_is_404(client, data):
    response = client.get(f"{CARDS}999999/")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_card_detail_unknown_external_id_is_404(client, data):
    assert client.get(f"{CARDS}tmg/nope/").status_code == 404


def test_card_detail_has_bounded_queries(client, data, django_assert_max_num_queries):
    with django_assert_max_num_queries(8):
        client.get(f"{CARDS}{data['swords'].pk}/")


# --- factions ----------------------------------------------------------------------------


def test_faction_list_returns_every_faction(client, data):
    assert client.get("/api/v1/factions/").json()["count"] == 3


def test_faction_list_filters_by_game(client, data):
    body = client.get("/api/v1/factions/", {"game": "tactics"}).json()
    assert {row["slug"] for row in body["results"]} == {"stark", "baratheon"}


def test_faction_list_unknown_game_is_400(client, data):
    response = client.get("/api/v1/factions/", {"game": "chess"})
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_game"


def test_faction_detail_by_slug(client, data):
    body = client.get("/api/v1/factions/baratheon/").json()
    assert body["name"] == {"en": "Baratheon", "fr": ""}


def test_faction_detail_ambiguous_slug_is_300_with_each_games_url(client, data):
    response = client.get("/api/v1/factions/stark/")
    assert response.status_code == 300
    assert response.json()["code"] == "ambiguous_slug"
    assert response.json()["choices"] == [
        "/api/v1/factions/tactics/stark/",
        "/api/v1/factions/tmg/stark/",
    ]


def test_faction_detail_slug_with_game_param(client, data):
    body = client.get("/api/v1/factions/stark/", {"game": "tactics"}).json()
    assert body["sigils"] == [{"slug": "direwolf", "name": {"en": "Direwolf", "fr": "Loup-garou"}}]


def test_faction_detail_by_game_and_slug(client, data):
    body = client.get("/api/v1/factions/tmg/stark/").json()
    assert body["name"]["fr"] == "Maison Stark"


def test_faction_detail_unknown_slug_is_404(client, data):
    assert client.get("/api/v1/factions/dornish/").status_code == 404


# --- scenarios ---------------------------------------------------------------------------


def test_scenario_list_returns_every_scenario(client, data):
    assert client.get("/api/v1/scenarios/").json()["count"] == 2


def test_scenario_list_filters_by_game(client, data):
    body = client.get("/api/v1/scenarios/", {"game": "tactics"}).json()
    assert [row["slug"] for row in body["results"]] == ["standard"]
    assert body["results"][0]["budget"] == {"gold": 3, "silver": 6, "copper": 18}


def test_scenario_list_unknown_game_is_400(client, data):
    assert client.get("/api/v1/scenarios/", {"game": "x"}).status_code == 400


def test_scenario_detail_by_slug(client, data):
    body = client.get("/api/v1/scenarios/a-game-of-thrones/").json()
    assert body["kind"] == "game_mode" and body["budget"] is None


def test_scenario_detail_by_game_and_slug(client, data):
    assert client.get("/api/v1/scenarios/tactics/standard/").json()["rounds"] is None


def test_scenario_detail_unknown_slug_is_404(client, data):
    assert client.get("/api/v1/scenarios/nowhere/").status_code == 404


def test_scenario_detail_unknown_game_in_path_is_404(client, data):
    assert client.get("/api/v1/scenarios/chess/standard/").status_code == 404


# --- read-only, schema -------------------------------------------------------------------


def test_card_list_rejects_post(client, data):
    assert client.post(CARDS, {}).status_code == 405


def test_schema_documents_card_search(client):
    response = client.get("/api/schema/")
    assert response.status_code == 200
    text = response.content.decode()
    assert "/api/v1/cards/" in text
    for param in ("name: q", "name: lang", "name: page_size"):
        assert param in text


@pytest.mark.parametrize("external_id", ["10101", "a b", "é-x", "T_2"])
def test_path_field_writes_what_reverse_writes(external_id):
    from types import SimpleNamespace

    from django.urls import reverse

    from cards.api.serializers import PathField

    card = SimpleNamespace(game="tmg", external_id=external_id)
    expected = reverse("cards:detail", args=["tmg", external_id])
    assert PathField("cards:detail", "game", "external_id").to_representation(card) == expected
