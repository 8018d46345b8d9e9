"""The OpenAPI schema and the server agree (issue 16, defect 4): what the schema calls
invalid is refused, its limits are stated, every answer is described, and an answer
validates against the schema it is documented with."""

from __future__ import annotations

import pytest
from jsonschema import Draft202012Validator

pytestmark = pytest.mark.django_db

CHECK = "/api/v1/lists/check/"
BATCH = "/api/v1/lists/check-batch/"


@pytest.fixture
def schema(client) -> dict:
    return client.get("/api/schema/", HTTP_ACCEPT="application/json").json()


def _json_schema(openapi: dict, component: str) -> dict:
    """The component as JSON Schema: OpenAPI 3.0's `nullable` becomes a null type."""

    def convert(node):
        if isinstance(node, dict):
            node = {key: convert(value) for key, value in node.items()}
            if node.pop("nullable", False):
                node = {"anyOf": [node, {"type": "null"}]}
            return node
        if isinstance(node, list):
            return [convert(item) for item in node]
        return node

    components = convert(openapi["components"])
    return {"$ref": f"#/components/schemas/{component}", "components": components}


@pytest.mark.parametrize("text", [0, True, 1.5, ["Stark"], {"a": 1}])
def test_check_text_that_is_not_a_string_answers_400(client, text):
    answer = client.post(CHECK, {"text": text}, content_type="application/json")
    assert (answer.status_code, answer.json()["field"]) == (400, "text")


@pytest.mark.parametrize("list_id", [7, None, ["a"]])
def test_check_batch_id_that_is_not_a_string_answers_400(client, list_id):
    body = {"lists": [{"id": list_id, "text": "Faction: Stark"}]}
    answer = client.post(BATCH, body, content_type="application/json")
    assert (answer.status_code, answer.json()["field"]) == (400, "lists.0.id")


def test_check_form_encoded_body_answers_415(client):
    assert client.post(CHECK, {"text": "Faction: Stark"}).status_code == 415


def test_schema_states_the_length_limits(schema, settings):
    components = schema["components"]["schemas"]
    assert components["CheckRequest"]["properties"]["text"]["maxLength"] == 20_000
    assert components["CheckBatchRequest"]["properties"]["lists"]["maxItems"] == 2_000
    [q] = [
        p for p in schema["paths"]["/api/v1/rules/search/"]["get"]["parameters"] if p["name"] == "q"
    ]
    assert q["schema"]["maxLength"] == settings.CITADEL_MAX_QUERY_CHARS == 500


@pytest.mark.parametrize("path", ["/api/v1/cards/", "/api/v1/factions/", "/api/v1/scenarios/"])
def test_schema_documents_the_404_past_the_last_page(schema, path):
    assert "404" in schema["paths"][path]["get"]["responses"]


def test_card_list_page_size_of_the_wrong_type_answers_400(client):
    assert client.get("/api/v1/cards/", {"page_size": "many"}).status_code == 400


@pytest.mark.parametrize(
    "body",
    [
        {"game": "tactics", "text": ""},
        {"game": "tmg", "text": ""},
        {"text": "Faction: Stark\nRobb Stark\nStark Sworn Swords"},
    ],
)
def test_check_answer_validates_against_its_schema(client, schema, body):
    answer = client.post(CHECK, body, content_type="application/json")
    assert answer.status_code == 200
    validator = Draft202012Validator(_json_schema(schema, "CheckResultSchema"))
    assert [error.message for error in validator.iter_errors(answer.json())] == []


def test_check_batch_id_over_its_length_with_a_control_character_answers_400(client):
    # U+001D is white space to Python: DRF's trimming would bring 201 characters to 200.
    body = {"lists": [{"id": "\u001d" + "x" * 200, "text": "g"}]}
    answer = client.post(BATCH, body, content_type="application/json")
    assert answer.status_code == 400
    assert answer.json()["field"] == "lists.0.id"
