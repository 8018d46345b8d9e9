"""Construction abilities as data: every construction wording of the community card text is
in cards/data/construction_abilities.json, handled or documented (issue 12).

The scan reads the text the importer reads (ability definitions, NCU abilities, the
printed restrictions on card backs and in the War Council columns, the rules cards), splits
it into sentences and keeps those with army-construction wording. Each one must be
accounted for by an entry of the table: by ability key, or by card and pattern. Tests
marked `shared_data` need ../shared (they skip without it, and fail in CI).
"""

from __future__ import annotations

import copy
import csv
import json
import re
from collections import defaultdict
from pathlib import Path

import pytest

from cards.faction_rules import load_faction_rules
from cards.importers.asoiaf_tmg_data import build_document
from cards.normalise import fold, slug_key
from cards.requirements import describe
from cards.requirements.construction import (
    CLASSES,
    ConstructionTableError,
    apply_construction_records,
    load_construction_table,
    validate_construction_table,
)
from tests.conftest import REPO_DIR

SNAPSHOT = REPO_DIR / "cards" / "data" / "tmg-cards-snapshot.json"

#: Army-construction wording (the issue's list: cost, attach, Commander, counts as,
#: Neutral, Limited, may include, ignore, free, 0 points; plus fielding and loyalty).
#: "counts as rolling / Controlling / already used" are dice and zone effects.
CONSTRUCTION_WORDING = re.compile(
    r"when building|your army|\bfielded\b|\bcosts?\b|\bfree\b(?! folk)|\b0 points\b|"
    r"\battachment (?:limit|restriction)s?\b|\bbe attached\b|\battached to (?:his|her) unit\b|"
    r"\bcounts? as (?!rolling|controlling|already)|\bcommander\b|\bneutral\b|\blimited\b|"
    r"\bmay (?:only )?(?:include|contain)\b|\bignor(?:e|es|ing) the usual\b|"
    r"\bloyalt(?:y|ies)\b|\bonly utili[sz]ed\b",
    re.IGNORECASE,
)
_SENTENCE_BREAK = re.compile(r"\n+|(?<=[.!?*])\s+(?=[A-Z*•])|•")
_TEXT_COLUMNS = {
    "units.csv": "Requirement Text",
    "attachments.csv": "Requirement Text",
    "ncus.csv": "Restrictions",
    "special.csv": "Requirement",
}


def sentences(text: str) -> list[str]:
    found = []
    for part in _SENTENCE_BREAK.split(text or ""):
        part = " ".join(part.replace("*", " ").split())
        if part:
            found.append(part)
    return found


def construction_sentences(text: str) -> list[str]:
    return [s for s in sentences(text) if CONSTRUCTION_WORDING.search(s)]


class Scan:
    """What the community text says: construction sentences by item, and ability carriers.

    Items are `ability:<key>` (an ability definition), `card:<id>` (a card's printed
    restrictions) and `rules:<id>` (a rules card).
    """

    def __init__(self) -> None:
        self.items: dict[str, list[str]] = defaultdict(list)
        self.carriers: dict[str, set[str]] = defaultdict(set)
        self.all_text: list[str] = []

    def add(self, key: str, text: str) -> None:
        self.all_text.append(text or "")
        for sentence in construction_sentences(text):
            if sentence not in self.items[key]:
                self.items[key].append(sentence)

    @classmethod
    def of(cls, root: Path) -> Scan:
        scan = cls()
        data = root / "data"
        for path in sorted((data / "en").glob("*.json")):
            document = json.loads(path.read_text(encoding="utf-8"))
            if path.name == "abilities.json":
                for name, body in document.items():
                    text = "\n".join([*(body.get("effect") or []), body.get("trigger") or ""])
                    scan.add(f"ability:{slug_key(name)}", text)
                continue
            for name, body in (document.get("abilities") or {}).items():
                scan.add(f"ability:{slug_key(name)}", "\n".join(body.get("effect") or []))
            for role in ("unit", "attachment", "ncu"):
                for card in document.get(role) or []:
                    scan._card(card)
            for card in document.get("special") or []:
                for side in ("front", "back"):
                    face = card.get(side) or {}
                    lines = [*(face.get("text") or []), *(face.get("effect") or [])]
                    lines += (face.get("data") or {}).get("tactics") or []
                    scan.add(f"rules:{card['id']}", "\n".join(lines))
        council = data / "warcouncil"
        for row in _csv(council / "newskills.csv"):
            scan.add(f"ability:{slug_key(row['Name'])}", row.get("Description") or "")
        for name, column in _TEXT_COLUMNS.items():
            for row in _csv(council / name):
                scan.add(f"card:{row['Id']}", row.get(column) or "")
        for row in _csv(council / "rules.csv"):
            scan.add(f"rules:{row['Id']}", row.get("Text") or "")
        scan.items = defaultdict(list, {k: v for k, v in scan.items.items() if v})
        return scan

    def _card(self, card: dict) -> None:
        for ability in card.get("abilities") or []:
            if isinstance(ability, dict):  # an NCU's ability, defined on the card
                key = slug_key(ability["name"])
                self.carriers[key].add(card["id"])
                self.add(f"ability:{key}", "\n".join(ability.get("effect") or []))
            else:
                self.carriers[slug_key(ability)].add(card["id"])
        for back in card.get("back_text") or []:
            self.add(f"card:{card['id']}", back.get("text") or "")


def _csv(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8-sig") as handle:
        return list(csv.DictReader(handle))


TABLE = load_construction_table()
ENTRIES = TABLE["entries"]


def _entries(**where) -> list[dict]:
    """Entries whose fields equal `where` (`class_` for the `class` field)."""
    where = {k.rstrip("_"): v for k, v in where.items()}
    return [e for e in ENTRIES if all(e.get(k) == v for k, v in where.items())]


@pytest.fixture(scope="module")
def scan(community_data_dir) -> Scan:
    return Scan.of(community_data_dir)


@pytest.fixture(scope="module")
def document(community_data_dir) -> dict:
    return build_document(community_data_dir)


@pytest.fixture(scope="module")
def cards_by_id(document) -> dict[str, dict]:
    return {card["id"]: card for card in document["cards"]}


def _types(card: dict) -> set[str]:
    return {record["type"] for record in card.get("requirements") or ()}


# --------------------------------------------------------------------------- the table


def test_table_is_valid():
    validate_construction_table(TABLE)


def test_table_uses_every_class():
    assert {entry["class"] for entry in ENTRIES} == set(CLASSES)


def test_table_rejects_an_entry_without_a_note():
    broken = copy.deepcopy(TABLE)
    broken["entries"][0]["note"] = ""
    with pytest.raises(ConstructionTableError, match="note"):
        validate_construction_table(broken)


def test_table_rejects_records_on_an_entry_handled_elsewhere():
    broken = copy.deepcopy(TABLE)
    entry = next(e for e in broken["entries"] if e["handled_by"] == "war_council")
    entry["records"] = [{"type": "solo"}]
    with pytest.raises(ConstructionTableError, match="records"):
        validate_construction_table(broken)


def test_table_rejects_a_handled_game_effect():
    broken = copy.deepcopy(TABLE)
    entry = next(e for e in broken["entries"] if e["class"] == "in_game")
    entry["handled_by"] = "citadel"
    with pytest.raises(ConstructionTableError):
        validate_construction_table(broken)


def test_table_records_describe_in_both_languages():
    records = [r for e in ENTRIES for r in e.get("records") or ()]
    assert records and all(describe(r, "en") and describe(r, "fr") for r in records)


def test_apply_adds_the_records_of_the_card_once():
    adaptive = next(e for e in ENTRIES if e["id"] == "adaptive")
    once = apply_construction_records("10220", [])
    assert once == adaptive["records"]
    assert apply_construction_records("10220", once) == once


def test_apply_drops_the_superseded_printing():
    old = [{"type": "first_free", "group": "bastards-boys"}]
    assert {r["type"] for r in apply_construction_records("21008", old)} == {
        "ignores_attachment_limit",
        "unit_group_limit",
    }


def test_apply_leaves_other_cards_alone():
    records = [{"type": "solo"}]
    assert apply_construction_records("10201", records) is records


def test_shipped_snapshot_carries_the_table_records():
    cards = {c["id"]: c for c in json.loads(SNAPSHOT.read_text(encoding="utf-8"))["cards"]}
    missing = [
        (entry["id"], card_id, record["type"])
        for entry in _entries(handled_by="citadel")
        for card_id in entry["cards"]
        for record in entry["records"]
        if _unresolved(record) not in [_unresolved(r) for r in cards[card_id]["requirements"]]
    ]
    assert missing == []


def test_shipped_snapshot_drops_the_superseded_records():
    cards = {c["id"]: c for c in json.loads(SNAPSHOT.read_text(encoding="utf-8"))["cards"]}
    superseding = [e for e in ENTRIES if e.get("supersedes")]
    kept = [
        (card_id, kind)
        for entry in superseding
        for card_id in entry["cards"]
        for kind in entry["supersedes"]
        if kind in _types(cards[card_id])
    ]
    assert superseding and kept == []


def _unresolved(value):
    """A stored record without the `cards` / `characters` the import resolves refs to."""
    if isinstance(value, dict):
        return {
            k: _unresolved(v)
            for k, v in value.items()
            if not (k in ("cards", "characters") and "name" in value)
        }
    if isinstance(value, list):
        return [_unresolved(v) for v in value]
    return value


# --------------------------------------------------------------------------- the scan


@pytest.mark.shared_data
def test_scan_finds_construction_wording(scan):
    kinds = {key.split(":")[0] for key in scan.items}
    assert kinds == {"ability", "card", "rules"} and len(scan.items) > 100


@pytest.mark.shared_data
def test_every_ability_with_construction_wording_is_in_the_table(scan):
    listed = {key for e in _entries(source="ability") for key in e["abilities"]}
    found = {key.split(":", 1)[1] for key in scan.items if key.startswith("ability:")}
    assert sorted(found - listed) == []


@pytest.mark.shared_data
def test_every_printed_construction_sentence_is_in_the_table(scan):
    patterns: dict[str, list[re.Pattern[str]]] = defaultdict(list)
    for entry in ENTRIES:
        if entry.get("match"):
            for card_id in entry.get("cards", ()):
                patterns[card_id].append(re.compile(entry["match"]))
    uncovered = [
        (key, sentence)
        for key, found in scan.items.items()
        if key.startswith("card:")
        for sentence in found
        if not any(p.search(sentence) for p in patterns[key.split(":", 1)[1]])
    ]
    assert uncovered == []


@pytest.mark.shared_data
def test_every_rules_card_with_construction_wording_is_in_the_table(scan):
    described = {card for e in _entries(source="rules") for card in e["rules_cards"]}
    found = {key.split(":", 1)[1] for key in scan.items if key.startswith("rules:")}
    assert found and sorted(found - described) == []


@pytest.mark.shared_data
def test_no_table_entry_is_stale(scan):
    """Every listed ability still has construction wording, every printed entry still
    matches a sentence of each of its cards."""
    abilities = {key.split(":", 1)[1] for key in scan.items if key.startswith("ability:")}
    stale = [(e["id"], key) for e in _entries(source="ability") for key in e["abilities"]]
    stale = [(name, key) for name, key in stale if key not in abilities]
    for entry in _entries(source="printed"):
        pattern = re.compile(entry["match"])
        for card_id in entry["cards"]:
            if not any(pattern.search(s) for s in scan.items.get(f"card:{card_id}", ())):
                stale.append((entry["id"], card_id))
    assert stale == []


@pytest.mark.shared_data
def test_ability_entries_list_every_carrier(scan):
    missing = [
        (entry["id"], card_id)
        for entry in _entries(source="ability")
        if entry["handled_by"] in ("citadel", "war_council", "printed_tag")
        for key in entry["abilities"]
        for card_id in sorted(scan.carriers.get(key, ()))
        if card_id not in entry["cards"]
    ]
    assert missing == []


@pytest.mark.shared_data
def test_war_council_and_tag_entries_give_the_expected_records(cards_by_id):
    missing = [
        (entry["id"], card_id, kind)
        for entry in ENTRIES
        if entry["handled_by"] in ("war_council", "printed_tag")
        for card_id in entry.get("record_on") or entry["cards"]
        for kind in entry["expects"]
        if kind not in _types(cards_by_id[card_id])
    ]
    assert missing == []


@pytest.mark.shared_data
def test_citadel_records_reach_the_imported_cards(cards_by_id):
    missing = [
        (entry["id"], card_id, record["type"])
        for entry in _entries(handled_by="citadel")
        for card_id in entry["cards"]
        for record in entry["records"]
        if record not in cards_by_id[card_id]["requirements"]
    ]
    assert missing == []


@pytest.mark.shared_data
def test_characters_entries_share_a_character(cards_by_id):
    apart = [
        (entry["id"], card_id, other)
        for entry in _entries(handled_by="characters")
        for card_id in entry["cards"]
        for other in entry["apart_from"]
        if not set(cards_by_id[card_id]["characters"]) & set(cards_by_id[other]["characters"])
    ]
    assert apart == []


@pytest.mark.shared_data
def test_card_flag_entries_are_enemy_attachments(cards_by_id):
    flagged = [c for e in _entries(handled_by="card_flag") for c in e["cards"]]
    assert flagged and all(cards_by_id[c].get("enemy") for c in flagged)


def test_faction_rule_entries_name_an_army_rule():
    rules = load_faction_rules()
    named = [e["rule_card"] for e in _entries(handled_by="faction_rule")]
    assert named and all(any(r["scope"] == "army" for r in rules[card]) for card in named)


def test_rules_entries_that_change_nothing_are_game_effects_only():
    rules = load_faction_rules()
    cards = [c for e in _entries(source="rules", class_="in_game") for c in e["rules_cards"]]
    assert cards and all(r["scope"] != "army" for c in cards for r in rules[c])


@pytest.mark.shared_data
def test_notes_share_no_long_passage_with_card_text(scan):
    card_text = fold(" ".join(scan.all_text))
    window = 40
    copied = [
        note[i : i + window]
        for note in (fold(e["note"]) for e in ENTRIES)
        for i in range(max(0, len(note) - window + 1))
        if note[i : i + window] in card_text
    ]
    assert copied == []
