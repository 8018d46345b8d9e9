"""Checks on the `citadel-cards/1` files shipped in cards/data/ (pure JSON, no database).

The Tactics file holds the rulebook's 'La Bataille du Trident' roster, equipment, game sizes and
the first scenario; the TMG file holds the 8 game modes. Costs the rulebook does not print are
null, never guessed. The last test makes sure no summary or note was lifted from a rulebook.
"""

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from cards.models import FIGURE_KINDS, TACTICS_KINDS, TMG_KINDS, ScenarioKind
from cards.normalise import fold

DATA_DIR = Path(__file__).resolve().parents[2] / "cards" / "data"
TACTICS_FILE = DATA_DIR / "tactics-trident.json"
TMG_MODES_FILE = DATA_DIR / "tmg-game-modes.json"
SHIPPED_FILES = (TACTICS_FILE, TMG_MODES_FILE)

KINDS_BY_GAME = {"tmg": TMG_KINDS, "tactics": TACTICS_KINDS}
SCENARIO_KINDS_BY_GAME = {
    "tmg": {ScenarioKind.GAME_MODE.value},
    "tactics": {ScenarioKind.SCENARIO.value, ScenarioKind.GAME_SIZE.value},
}
COINS = ("gold", "silver", "copper")
WINDOW = 40
RULEBOOK_NAMES = (
    "agot-board-game-2e.fa.txt",
    "agot-board-game-2e.fr.txt",
    "asoiaf-tactics-wip.fr.txt",
    "asoiaf-tmg-rules-1.5.fr.txt",
    "hand-of-the-king.fr.txt",
)


def _load(path: Path) -> dict:
    with path.open(encoding="utf-8") as handle:
        return json.load(handle)


@pytest.fixture(scope="module")
def documents() -> dict[str, dict]:
    return {path.name: _load(path) for path in SHIPPED_FILES}


@pytest.fixture(scope="module")
def tactics() -> dict:
    return _load(TACTICS_FILE)


@pytest.fixture(scope="module")
def tmg_modes() -> dict:
    return _load(TMG_MODES_FILE)


def _cards(documents: dict[str, dict]):
    for name, doc in documents.items():
        for card in doc.get("cards", []):
            yield name, card.get("game", doc["game"]), card


def _scenarios(documents: dict[str, dict]):
    for name, doc in documents.items():
        for scenario in doc.get("scenarios", []):
            yield name, scenario.get("game", doc["game"]), scenario


def _figures(tactics: dict) -> list[dict]:
    return [card for card in tactics["cards"] if card["kind"] in FIGURE_KINDS]


def _kind_from_cost(cost: dict) -> str | None:
    if cost["gold"] > 0:
        return "hero"
    if cost["silver"] > 0:
        return "champion"
    if cost["copper"] > 0:
        return "soldier"
    return None


def _bilingual_fields(documents: dict[str, dict]):
    """(where, value) for every name/title/summary object in both files."""
    for name, doc in documents.items():
        for faction in doc.get("factions", []):
            yield f"{name}: faction {faction['id']} name", faction["name"]
        for character in doc.get("characters", []):
            yield f"{name}: character {character['key']} name", character["name"]
        for ability in doc.get("abilities", []):
            yield f"{name}: ability {ability['key']} name", ability["name"]
        for card in doc.get("cards", []):
            for field in ("name", "title", "summary"):
                if field in card:
                    yield f"{name}: card {card['id']} {field}", card[field]
            for ability in card.get("abilities", []):
                if isinstance(ability, dict):
                    yield f"{name}: card {card['id']} ability {ability['key']}", ability["name"]
        for scenario in doc.get("scenarios", []):
            for field in ("name", "summary"):
                yield f"{name}: scenario {scenario['id']} {field}", scenario.get(field)


def _prose(documents: dict[str, dict]):
    """(where, text) for every summary (both languages) and every note in both files."""
    for name, doc in documents.items():
        if doc.get("notes"):
            yield f"{name}: notes", doc["notes"]
        for record in [*doc.get("cards", []), *doc.get("scenarios", [])]:
            for lang, text in (record.get("summary") or {}).items():
                yield f"{name}: {record['id']} summary.{lang}", text
            if record.get("notes"):
                yield f"{name}: {record['id']} notes", record["notes"]


def _squash(text: str) -> str:
    """Folded text with every run of punctuation/space turned into one space."""
    return re.sub(r"[\W_]+", " ", fold(text)).strip()


def _rulebook_texts(rulebook_dir: Path) -> dict[str, tuple[str, ...]]:
    """Each rulebook squashed twice: line by line, and with end-of-line hyphens glued back
    (extracted PDFs split words such as 'mis-/sions' across lines)."""
    texts = {}
    for name in RULEBOOK_NAMES:
        raw = (rulebook_dir / name).read_text(encoding="utf-8")
        by_line = " ".join(_squash(line) for line in raw.splitlines())
        dehyphenated = _squash(re.sub(r"-[ \t]*\n[ \t]*", "", raw))
        texts[name] = (by_line, dehyphenated)
    return texts


def _windows(text: str) -> set[str]:
    return {text[i : i + WINDOW] for i in range(len(text) - WINDOW + 1)}


def test_shipped_files_have_citadel_format(documents):
    for name, doc in documents.items():
        assert doc["format"] == "citadel-cards/1", name
        assert doc["game"] in KINDS_BY_GAME, name


def test_tmg_modes_file_has_only_scenarios(tmg_modes):
    assert tmg_modes["game"] == "tmg"
    assert tmg_modes["cards"] == []
    assert tmg_modes["factions"] == []


def test_card_ids_are_unique_per_game(documents):
    counts = Counter((game, card["id"]) for _, game, card in _cards(documents))
    assert [key for key, count in counts.items() if count > 1] == []


def test_scenario_ids_are_unique_per_game(documents):
    counts = Counter((game, scenario["id"]) for _, game, scenario in _scenarios(documents))
    assert [key for key, count in counts.items() if count > 1] == []


def test_card_kind_is_valid_for_its_game(documents):
    wrong = [
        (name, card["id"], card["kind"])
        for name, game, card in _cards(documents)
        if card["kind"] not in KINDS_BY_GAME[game]
    ]
    assert wrong == []


def test_scenario_kind_is_valid_for_its_game(documents):
    wrong = [
        (name, scenario["id"], scenario["kind"])
        for name, game, scenario in _scenarios(documents)
        if scenario["kind"] not in SCENARIO_KINDS_BY_GAME[game]
    ]
    assert wrong == []


def test_tactics_roster_has_twenty_figures_and_fifteen_equipment(tactics):
    kinds = Counter(card["kind"] for card in tactics["cards"])
    assert sum(kinds[kind] for kind in FIGURE_KINDS) == 20
    assert kinds["equipment"] == 15


def test_tactics_cost_always_names_three_coins(tactics):
    for card in tactics["cards"]:
        cost = card["cost"]
        assert set(cost) == set(COINS), card["id"]
        for coin in COINS:
            assert cost[coin] is None or (isinstance(cost[coin], int) and cost[coin] >= 0), (
                card["id"],
                coin,
            )


def test_tactics_figure_with_known_cost_has_kind_its_cost_implies(tactics):
    known = [card for card in _figures(tactics) if None not in card["cost"].values()]
    assert known, "no figure has a fully known cost"
    for card in known:
        assert card["kind"] == _kind_from_cost(card["cost"]), card["id"]


def test_tactics_robert_costs_are_the_printed_ones(tactics):
    by_id = {card["id"]: card for card in tactics["cards"]}
    assert by_id["tac-robert-baratheon-mounted"]["cost"] == {"gold": 3, "silver": 1, "copper": 0}
    foot = by_id["tac-robert-baratheon"]
    assert foot["cost"] == {"gold": 2, "silver": 0, "copper": 0}
    assert (foot["will"], foot["defense"], foot["wounds"]) == (5, 5, 4)


def test_tactics_unknown_figure_costs_are_null_not_zero(tactics):
    known = {"tac-robert-baratheon-mounted", "tac-robert-baratheon"}
    for card in _figures(tactics):
        if card["id"] not in known:
            assert card["cost"] == {"gold": None, "silver": None, "copper": None}, card["id"]


def test_mounted_pairs_share_character_and_differ_in_mounted(tactics):
    by_character: dict[str, list[dict]] = {}
    for card in _figures(tactics):
        for key in card.get("characters", []):
            by_character.setdefault(key, []).append(card)
    pairs = {key: cards for key, cards in by_character.items() if len(cards) > 1}
    assert set(pairs) == {"robert-baratheon", "rhaegar-targaryen"}
    for key, cards in pairs.items():
        assert sorted(card["mounted"] for card in cards) == [False, True], key
        assert len({card["faction"] for card in cards}) == 1, key
        assert len({card["kind"] for card in cards}) == 1, key
    for card in _figures(tactics):
        if card["mounted"]:
            assert card["characters"] and card["characters"][0] in pairs, card["id"]


def test_equipment_has_carriers_and_copper_cost(tactics):
    equipment = [card for card in tactics["cards"] if card["kind"] == "equipment"]
    for card in equipment:
        assert card["faction"] is None, card["id"]
        assert card["carriers"], card["id"]
        assert set(card["carriers"]) <= set(FIGURE_KINDS), card["id"]
        assert card["cost"]["gold"] == 0 and card["cost"]["silver"] == 0, card["id"]
        assert card["cost"]["copper"] in (1, 2), card["id"]
        assert isinstance(card["unique"], bool), card["id"]
    infantry_only = sorted(card["id"] for card in equipment if card.get("infantry_only"))
    assert infantry_only == ["tac-glass-candle", "tac-immaculate-boots"]


def test_tactics_factions_and_abilities_are_declared(tactics):
    factions = {faction["id"] for faction in tactics["factions"]}
    assert factions == {"targaryen", "baratheon", "neutral"}
    assert [f["id"] for f in tactics["factions"] if f["neutral"]] == ["neutral"]
    abilities = {ability["key"] for ability in tactics["abilities"]}
    characters = {character["key"] for character in tactics["characters"]}
    for card in tactics["cards"]:
        assert card["faction"] is None or card["faction"] in factions, card["id"]
        for ability in card.get("abilities", []):
            assert ability["key"] in abilities, (card["id"], ability)
        for key in card.get("characters", []):
            assert key in characters, (card["id"], key)


def test_tactics_abilities_carry_no_text(tactics):
    for ability in tactics["abilities"]:
        assert ability["text"] == {"en": "", "fr": ""}, ability["key"]


def test_game_sizes_have_the_three_budgets(tactics):
    sizes = {s["id"]: s["budget"] for s in tactics["scenarios"] if s["kind"] == "game_size"}
    assert sizes == {
        "tac-small": {"gold": 2, "silver": 4, "copper": 12},
        "tac-standard": {"gold": 3, "silver": 6, "copper": 18},
        "tac-large": {"gold": 4, "silver": 8, "copper": 24},
    }


def test_learn_to_play_scenario_budget_is_unknown(tactics):
    scenarios = {s["id"]: s for s in tactics["scenarios"] if s["kind"] == "scenario"}
    assert set(scenarios) == {"tac-learn-to-play"}
    assert scenarios["tac-learn-to-play"]["budget"] == {c: None for c in COINS}


def test_game_modes_are_eight_with_only_storm_of_swords_not_tournament_legal(tmg_modes):
    modes = [s for s in tmg_modes["scenarios"] if s["kind"] == "game_mode"]
    assert len(modes) == 8
    assert sorted(mode["order"] for mode in modes) == list(range(1, 9))
    assert [m["id"] for m in modes if m["tournament_legal"] is not True] == ["a-storm-of-swords"]
    assert all(isinstance(mode["tournament_legal"], bool) for mode in modes)


def test_game_modes_have_structured_setup_and_scoring(tmg_modes):
    for mode in tmg_modes["scenarios"]:
        assert mode["deployment"]["type"] in ("edge_strip", "per_role"), mode["id"]
        assert {"count_initial", "count_max", "cards", "control"} <= set(mode["objectives"])
        assert mode["objectives"]["cards"] in (
            "random_per_token",
            "central_fixed",
            "fixed_abc",
            "none",
        ), mode["id"]
        scoring = mode["scoring"]
        assert scoring["max_rounds"] == 6, mode["id"]
        assert scoring["commander_bonus"] in (0, 1), mode["id"]
        assert scoring["vp_target_modifier"] in (0, 2), mode["id"]
        assert isinstance(scoring["military_victory"], bool), mode["id"]
        assert isinstance(mode["special_components"], list), mode["id"]


def test_names_and_summaries_have_en_and_fr(documents):
    missing = []
    for where, value in _bilingual_fields(documents):
        if not isinstance(value, dict) or not all(
            isinstance(value.get(lang), str) and value[lang].strip() for lang in ("en", "fr")
        ):
            missing.append(where)
    assert missing == []


def test_every_scenario_has_a_summary(documents):
    assert [s["id"] for _, _, s in _scenarios(documents) if not s.get("summary")] == []


@pytest.mark.shared_data
def test_summaries_are_not_verbatim_rulebook_text(documents, shared_dir):
    rulebook_dir = shared_dir / "rulebooks"
    missing = [name for name in RULEBOOK_NAMES if not (rulebook_dir / name).is_file()]
    assert missing == [], f"rulebooks missing from {rulebook_dir}: {missing}"
    texts = _rulebook_texts(rulebook_dir)
    prose = list(_prose(documents))
    assert prose, "no summary found to check"
    copied = []
    for book, variants in texts.items():
        book_windows = set().union(*(_windows(variant) for variant in variants))
        for where, text in prose:
            squashed = _squash(text)
            assert squashed, f"{where} is empty"
            if len(squashed) < WINDOW:
                # Shorter than one window: compared whole, so nothing goes unchecked.
                if any(squashed in variant for variant in variants):
                    copied.append((where, book, squashed))
                continue
            hits = sorted(_windows(squashed) & book_windows)
            if hits:
                copied.append((where, book, hits[0]))
    assert copied == []
