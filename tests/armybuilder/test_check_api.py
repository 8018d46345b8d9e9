"""POST /api/v1/lists/check/ and /check-batch/ (contracts §4), on a small ORM-made pool."""

import pytest

LEGAL_TMG = """Faction: Stark
Points: 30
Combat Units:
• Stark Sworn Swords (5)
  • Robb Stark - The Wolf Lord (C)
• Stark Outriders (6)
Non-Combat Units:
• Catelyn Stark - Lady of Winterfell (4)
"""
OVER_TMG = LEGAL_TMG.replace("Points: 30", "Points: 10")
WARBAND = """Game: Tactics
Scenario: Standard (3-6-18)
Faction: Baratheon
Heroes:
• Robert Baratheon - Mounted [3G 1S]
  • Valyrian Steel [2C]
Soldiers:
• Baratheon Guardians x4 [1C each]
"""

pytestmark = pytest.mark.usefixtures("small_pool")


def check(client, **body):
    return client.post("/api/v1/lists/check/", body, content_type="application/json")


def test_check_legal_tmg_list_returns_contract_fields(client):
    data = check(client, text=LEGAL_TMG).json()
    assert data["legal"] is True and data["game"] == "tmg" and data["faction"] == "stark"
    assert data["points"] == {
        "spent": 15,
        "limit": 30,
        "neutral": 0,
        "neutral_cap": 15,
        "limit_assumed": False,
    }
    assert [e["id"] for e in data["entries"]] == ["10201", "20201", "10203", "30201"]
    assert data["findings"] == []


def test_check_lists_the_tactics_deck(client):
    deck = check(client, text=LEGAL_TMG).json()["deck"]
    assert sum(card["copies"] for card in deck) == 20


def test_check_illegal_list_reports_points_over_limit(client):
    data = check(client, text=OVER_TMG).json()
    assert data["legal"] is False
    assert [f["code"] for f in data["findings"]] == ["POINTS_OVER_LIMIT"]
    assert data["findings"][0]["rule"] == "AB-01"


def test_check_answers_in_french_when_asked(client):
    data = check(client, text=OVER_TMG, lang="fr").json()
    assert data["findings"][0]["message"].startswith("points 15/10 :")


def test_check_detects_a_tactics_warband(client):
    data = check(client, text=WARBAND).json()
    assert data["game"] == "tactics" and data["legal"] is True
    assert data["coins"]["spent"] == {"gold": 3, "silver": 1, "copper": 6}
    assert data["figures"] == 5


def test_check_unknown_card_suggests_names(client):
    data = check(client, text="Faction: Stark\n• Stark Sword Guys (5)").json()
    assert data["findings"][0]["code"] == "CARD_UNKNOWN"


def test_check_rejects_missing_text_with_400(client):
    response = check(client)
    assert response.status_code == 400 and response.json()["field"] == "text"


def test_check_rejects_unknown_ruleset_with_400(client):
    response = check(client, text=LEGAL_TMG, ruleset="rules-9.9")
    assert response.status_code == 400 and response.json()["field"] == "ruleset"
    assert "rules-9.9" in response.json()["detail"]


def test_check_rejects_unknown_game_with_400(client):
    assert check(client, text=LEGAL_TMG, game="chess").status_code == 400


def test_check_batch_returns_results_and_summary(client):
    body = {"lists": [{"id": "a", "text": LEGAL_TMG}, {"id": "b", "text": OVER_TMG}]}
    data = client.post("/api/v1/lists/check-batch/", body, content_type="application/json").json()
    assert [(r["id"], r["legal"]) for r in data["results"]] == [("a", True), ("b", False)]
    assert data["summary"]["legal"] == 1 and data["summary"]["illegal"] == 1
    assert data["summary"]["findings_by_code"] == {"POINTS_OVER_LIMIT": 1}


def test_check_batch_rejects_an_empty_batch(client):
    response = client.post(
        "/api/v1/lists/check-batch/", {"lists": []}, content_type="application/json"
    )
    assert response.status_code == 400


def test_check_batch_rejects_malformed_json(client):
    response = client.post(
        "/api/v1/lists/check-batch/", "{not json", content_type="application/json"
    )
    assert response.status_code == 400


def test_check_reads_a_war_council_share_code(client):
    from armybuilder.listtext.warcouncil import WarCouncilList, WarCouncilUnit, encode_share_code

    code = encode_share_code(
        WarCouncilList(
            faction="stark",
            points=30,
            units=(WarCouncilUnit("10201", ("20201",)), WarCouncilUnit("10203")),
            ncu_ids=("30201",),
        )
    )
    data = check(client, text=code).json()
    assert data["legal"] is True and data["faction"] == "stark"
    assert [e["id"] for e in data["entries"]] == ["10201", "20201", "10203", "30201"]
    assert "• Stark Sworn Swords (5)" in data["text"]


def test_check_share_code_with_unknown_card_reports_it(client):
    from armybuilder.listtext.warcouncil import WarCouncilList, WarCouncilUnit, encode_share_code

    code = encode_share_code(
        WarCouncilList(faction="stark", points=30, units=(WarCouncilUnit("19999"),))
    )
    codes = [f["code"] for f in check(client, text=code).json()["findings"]]
    assert "CARD_UNKNOWN" in codes


def test_check_batch_flags_a_character_shared_by_allied_lists(client):
    robb_again = LEGAL_TMG.replace("Points: 30", "Points: 20")
    body = {
        "lists": [
            {"id": "a", "text": LEGAL_TMG, "team": "wolves"},
            {"id": "b", "text": robb_again, "team": "wolves"},
            {"id": "c", "text": LEGAL_TMG},
        ]
    }
    data = client.post("/api/v1/lists/check-batch/", body, content_type="application/json").json()
    by_id = {r["id"]: r for r in data["results"]}
    assert "TEAM_CHARACTER_DUPLICATE" in [f["code"] for f in by_id["a"]["findings"]]
    assert by_id["a"]["legal"] is False and by_id["b"]["legal"] is False
    assert by_id["c"]["legal"] is True


def test_check_batch_allies_with_different_characters_stay_legal(client):
    other = "Faction: Stark\nPoints: 20\n• Stark Outriders (6)\n• Stark Sworn Swords (5)\n"
    other += "  • Robb Stark - The Wolf Lord (C)\n"
    body = {
        "lists": [
            {"id": "a", "text": OVER_TMG.replace("Points: 10", "Points: 30"), "team": "t"},
            {"id": "b", "text": other, "team": "u"},
        ]
    }
    data = client.post("/api/v1/lists/check-batch/", body, content_type="application/json").json()
    assert all(r["legal"] for r in data["results"])


def test_schema_documents_the_check_result_and_its_findings(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    result = schema["components"]["schemas"]["CheckResultSchema"]["properties"]
    finding = schema["components"]["schemas"]["FindingSchema"]["properties"]
    assert {"legal", "findings", "points", "coins", "deck"} <= set(result)
    assert {"code", "rule", "fix", "rule_url"} <= set(finding)


# --- limits (issue 16): each a 400 that says which and how many ---------------------------------


def test_check_list_with_more_entries_than_the_limit_answers_400(client, monkeypatch):
    from armybuilder import api

    monkeypatch.setattr(api, "MAX_ENTRIES", 3)
    response = check(client, text=LEGAL_TMG)
    assert (response.status_code, response.json()["code"]) == (400, "too_many_entries")
    assert "4 entries" in response.json()["detail"]


def test_check_batch_naming_the_list_with_too_many_entries(client, monkeypatch):
    from armybuilder import api

    monkeypatch.setattr(api, "MAX_ENTRIES", 3)
    body = {"lists": [{"id": "ok", "text": "Stark Sworn Swords"}, {"id": "big", "text": LEGAL_TMG}]}
    response = client.post("/api/v1/lists/check-batch/", body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["detail"].startswith("list big: ")


def test_check_batch_over_the_list_limit_answers_400(client, settings):
    lists = [{"id": str(n), "text": ""} for n in range(settings.CITADEL_MAX_BATCH_LISTS + 1)]
    response = client.post(
        "/api/v1/lists/check-batch/", {"lists": lists}, content_type="application/json"
    )
    assert (response.status_code, response.json()["field"]) == (400, "lists")
