"""Reads the community TMG data set (asoiaf-tmg-data) into import records.

Layout (see the data set's README): `data/en/*.json` (new schema: stats, the reference
for which cards exist), `data/fr/*.json` (old schema: French names), and
`data/warcouncil/*.csv` (CMON War Council tables: characters, requirement directives,
boxes, costs of free cards, the three rules cards missing from the JSON) with their
`*.fr.csv` translations. Card ids agree across the three in the supported snapshot, so
`warcouncil-to-asoiaf-stats.json` is deliberately not applied (it is stale and would
scramble the Martell cards).

The reader builds a `citadel-cards/1` document and hands it to
`citadel_json.records_from_document`, so both import sources are validated and written
alike. Text (abilities, tactics cards, rules cards) is read too: the full import stores
it, the stats-only export leaves it out. Lore and quotes are never read. Construction
abilities the War Council directives miss are added from Citadel's own table
(`cards.requirements.construction`), so the shipped snapshot exported from an import
carries them too.
"""

from __future__ import annotations

import csv
import json
import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cards.normalise import fold, slug_key
from cards.requirements import (
    RequirementSyntaxError,
    parse_printed_restrictions,
    parse_requirements,
)
from cards.requirements.construction import apply_construction_records

from .citadel_json import FORMAT, records_from_document
from .records import CardImportError, ImportRecords, Origin

SOURCE = "asoiaf-tmg-data"

#: slug, War Council code (the FF in KFFNN ids), English name, French name.
FACTIONS: tuple[tuple[str, int, str, str], ...] = (
    ("lannister", 1, "Lannister", "Lannister"),
    ("stark", 2, "Stark", "Stark"),
    ("freefolk", 3, "Free Folk", "Peuple Libre"),
    ("neutral", 4, "Neutral", "Neutre"),
    ("nightswatch", 5, "Night's Watch", "Garde de Nuit"),
    ("baratheon", 6, "Baratheon", "Baratheon"),
    ("targaryen", 7, "Targaryen", "Targaryen"),
    ("greyjoy", 8, "Greyjoy", "Greyjoy"),
    ("martell", 9, "Martell", "Martell"),
    ("bolton", 10, "Bolton", "Bolton"),
    ("brotherhood", 11, "Brotherhood Without Banners", "Fraternité sans Bannières"),
)
FACTION_BY_CODE = {code: slug for slug, code, _en, _fr in FACTIONS}

ROLES = ("unit", "ncu", "attachment", "tactics", "special")
FR_ROLES = {"units": "unit", "ncus": "ncu", "attachments": "attachment", "tactics": "tactics"}
FR_ROLES["specials"] = "special"

CSV_UNIT_TYPES = {
    "infantry": "infantry",
    "cavalry": "cavalry",
    "monster": "monster",
    "siege engine": "war_machine",
    "none": "none",
}
JSON_ICONS = {
    "infantry": "infantry",
    "cavalry": "cavalry",
    "monster": "monster",
    "siegeengine": "war_machine",
    "none": "none",
}
JSON_TRAYS = {
    "infantry": "infantry",
    "cavalry": "cavalry",
    "solo": "solo",
    "warmachine": "war_machine",
    "none": "none",
}

#: English War Council tables: file -> (kind, required columns).
CARD_TABLES: dict[str, tuple[str, tuple[str, ...]]] = {
    "units.csv": ("unit", ("Id", "Name", "Character", "Cost", "Type", "Requirements", "Boxes")),
    "attachments.csv": (
        "attachment",
        ("Id", "Name", "Character", "Cost", "Type", "Requirements", "Boxes"),
    ),
    "special.csv": ("attachment", ("Id", "Name", "Character", "Cost", "Type", "Boxes")),
    "ncus.csv": ("ncu", ("Id", "Name", "Character", "Cost", "Requirements", "Boxes")),
    "tactics.csv": ("tactics", ("Id", "Name", "Unit", "Remove")),
    "rules.csv": ("special", ("Id", "Faction", "Name", "Text", "Version")),
}
#: French tables: file -> column holding the translated "Name, Title".
FR_NAME_COLUMNS = {
    "units.fr.csv": "Translated Name",
    "attachments.fr.csv": "Translated Name",
    "ncus.fr.csv": "Name2",
    "tactics.fr.csv": "Name",
    "rules.fr.csv": "Name",
}

# A War Council cost: points, "C" (commander), or points + "C" (commander that costs points).
_COST = re.compile(r"(?P<points>\d+)?(?P<commander>C)?")

# Lines the French JSON lists among a card's abilities that are requirement prose.
_NOT_ABILITY_PREFIXES = ("must be attached", "may only be fielded", "attached to faction")


def read_asoiaf_tmg_data(path: str | Path) -> ImportRecords:
    """Import records for the data set at `path` (the folder holding `data/`, or `data/`)."""
    data = CommunityData.load(data_dir(path))
    document, origins = _DocumentBuilder(data).build()
    return records_from_document(document, file="asoiaf-tmg-data", origins=origins)


def build_document(path: str | Path) -> dict[str, Any]:
    """The data set as a citadel-cards/1 document (full text included)."""
    return _DocumentBuilder(CommunityData.load(data_dir(path))).build()[0]


def data_dir(path: str | Path) -> Path:
    path = Path(path)
    for candidate in (path / "data", path):
        if (candidate / "en").is_dir() and (candidate / "warcouncil").is_dir():
            return candidate
    raise CardImportError(
        str(path), None, "not an asoiaf-tmg-data folder (expected data/en and data/warcouncil)"
    )


# --------------------------------------------------------------------------- loading


@dataclass
class CsvRow:
    file: str
    row: int  # spreadsheet numbering: the header is row 1
    values: dict[str, str]

    def get(self, column: str) -> str:
        return (self.values.get(column) or "").strip()


@dataclass
class CommunityData:
    """The raw files, parsed, with light indexes; no interpretation yet."""

    en_cards: list[tuple[str, str, int, dict[str, Any]]] = field(default_factory=list)
    en_abilities: dict[str, dict[str, Any]] = field(default_factory=dict)
    bolton_abilities: dict[str, dict[str, Any]] = field(default_factory=dict)
    fr_cards: dict[str, dict[str, Any]] = field(default_factory=dict)
    fr_abilities: dict[str, dict[str, Any]] = field(default_factory=dict)
    csv_rows: dict[str, list[CsvRow]] = field(default_factory=lambda: defaultdict(list))
    fr_names: dict[str, str] = field(default_factory=dict)
    fr_attacks: dict[str, list[str]] = field(default_factory=dict)
    fr_csv_rows: dict[str, dict[str, CsvRow]] = field(default_factory=dict)
    glossary_fr: dict[str, tuple[str, str]] = field(default_factory=dict)
    skill_versions: dict[str, str] = field(default_factory=dict)

    @classmethod
    def load(cls, root: Path) -> CommunityData:
        data = cls()
        for path in sorted((root / "en").glob("*.json")):
            document = _read_json(path, root)
            if path.name == "abilities.json":
                data.en_abilities = _ability_index(document)
                continue
            if path.name == "bolton.json":
                data.bolton_abilities = _ability_index(document.get("abilities") or {})
            for role in ROLES:
                for index, card in enumerate(document.get(role) or []):
                    data.en_cards.append((f"en/{path.name}", role, index, card))
        fr_dir = root / "fr"
        for path in sorted(fr_dir.glob("*.json")) if fr_dir.is_dir() else []:
            document = _read_json(path, root)
            if path.name == "abilities.json":
                data.fr_abilities = _ability_index(document)
                continue
            for section in FR_ROLES:
                for card in document.get(section) or []:
                    if isinstance(card, dict) and card.get("id"):
                        data.fr_cards[str(card["id"])] = card
        wc = root / "warcouncil"
        for name, (_kind, columns) in CARD_TABLES.items():
            for row in _read_csv(wc / name, columns):
                data.csv_rows[row.get("Id")].append(row)
        for name, column in FR_NAME_COLUMNS.items():
            if not (wc / name).exists():
                continue
            for row in _read_csv(wc / name, ("Id", column)):
                data.fr_names.setdefault(row.get("Id"), _one_line(row.get(column)))
                data.fr_csv_rows.setdefault(f"{name}:{row.get('Id')}", row)
                if name == "units.fr.csv":
                    data.fr_attacks[row.get("Id")] = [
                        _one_line(row.get(c)) for c in ("Attack 1", "Attack 2") if row.get(c)
                    ]
        if (wc / "newskills.fr.csv").exists():
            for row in _read_csv(wc / "newskills.fr.csv", ("Original Name", "Translated Name")):
                data.glossary_fr[slug_key(row.get("Original Name"))] = (
                    _one_line(row.get("Translated Name")),
                    row.get("Translated Description"),
                )
        if (wc / "newskills.csv").exists():
            for row in _read_csv(wc / "newskills.csv", ("Name", "Version")):
                data.skill_versions[slug_key(row.get("Name"))] = row.get("Version")
        return data

    def csv_row(self, card_id: str, version: str) -> CsvRow | None:
        """The War Council row for a card; of duplicated ids, the one with the JSON's version."""
        rows = self.csv_rows.get(card_id) or []
        for row in reversed(rows):
            if row.get("Version") == version:
                return row
        return rows[-1] if rows else None


def _read_json(path: Path, root: Path) -> Any:
    name = str(path.relative_to(root))
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise CardImportError(name, exc.lineno, f"invalid JSON: {exc.msg}") from exc
    except UnicodeDecodeError as exc:
        raise CardImportError(name, None, f"not UTF-8 text ({exc.reason})") from exc


def _read_csv(path: Path, required: Iterable[str]) -> list[CsvRow]:
    if not path.exists():
        raise CardImportError(path.name, None, "file not found")
    with path.open(encoding="utf-8-sig", newline="") as handle:
        reader = csv.reader(handle)
        header = next(reader, None)
        if header is None:
            raise CardImportError(path.name, 1, "empty file (no header row)")
        header = [h.strip() for h in header]
        for column in required:
            if column not in header:
                raise CardImportError(path.name, 1, f"missing column {column!r}")
        rows = []
        for number, cells in enumerate(reader, start=2):
            if not any(cell.strip() for cell in cells):
                continue
            values: dict[str, str] = {}
            for column, cell in zip(header, cells, strict=False):
                if column and column not in values:  # blank / repeated headers: first wins
                    values[column] = cell
            row = CsvRow(path.name, number, values)
            if not row.get("Id") and "Id" in required:
                raise CardImportError(path.name, number, "missing value in column 'Id'")
            rows.append(row)
        return rows


def _ability_index(document: Any) -> dict[str, dict[str, Any]]:
    """Ability definitions keyed by slug of the (upper-case) name."""
    if not isinstance(document, dict):
        return {}
    return {slug_key(name): {"name": name, **body} for name, body in document.items()}


def _one_line(text: str | None) -> str:
    return " ".join((text or "").split())


# --------------------------------------------------------------------------- building


class _DocumentBuilder:
    def __init__(self, data: CommunityData) -> None:
        self.data = data
        self.origins: dict[str, Origin] = {}
        self.abilities: dict[str, dict[str, Any]] = {}
        self.ability_spellings: dict[str, Counter[str]] = defaultdict(Counter)
        self.characters: dict[str, Counter[str]] = defaultdict(Counter)
        self.character_fr: dict[str, Counter[str]] = defaultdict(Counter)
        self.fr_votes: dict[str, Counter[str]] = defaultdict(Counter)
        self.en_by_id: dict[str, dict[str, Any]] = {}

    def build(self) -> tuple[dict[str, Any], dict[str, Origin]]:
        for file, role, index, card in self.data.en_cards:
            where = f"{role}[{index}]"
            if not isinstance(card, dict):
                raise CardImportError(file, where, "card is not a JSON object")
            for key in ("id", "name", "version"):
                if not card.get(key):
                    raise CardImportError(file, where, f"missing field {key!r}")
            card_id = str(card["id"])
            if card.get("role", role) != role:
                raise CardImportError(file, where, f"unknown kind {card.get('role')!r}")
            if card_id in self.en_by_id:
                raise CardImportError(file, where, f"card id {card_id} appears twice")
            self.en_by_id[card_id] = card
            self.origins[card_id] = Origin(file, f"{where} ({card_id})")
        self._collect_french_ability_names()
        cards = [self._card(file, role, card) for file, role, _i, card in self.data.en_cards]
        cards += self._rules_only_cards()
        cards.sort(key=lambda c: c["id"])
        document = {
            "format": FORMAT,
            "game": "tmg",
            "source": SOURCE,
            "factions": [
                {
                    "id": slug,
                    "name": {"en": en, "fr": fr},
                    "neutral": slug == "neutral",
                    "warcouncil_code": code,
                    "order": code,
                }
                for slug, code, en, fr in FACTIONS
            ],
            "characters": self._character_rows(),
            "abilities": [self._ability_row(key) for key in sorted(self.abilities)],
            "cards": cards,
        }
        return document, self.origins

    # ---- cards

    def _card(self, file: str, role: str, card: dict[str, Any]) -> dict[str, Any]:
        card_id = str(card["id"])
        row = self.data.csv_row(card_id, card["version"])
        if row is not None:
            self.origins[card_id] = Origin(row.file, row.row)
        fr = self.data.fr_cards.get(card_id) or {}
        name_fr, title_fr = self._french_name(card_id, card, fr)
        out: dict[str, Any] = {
            "id": card_id,
            "kind": role,
            "faction": self._faction(card_id, card.get("faction")),
            "name": {"en": _one_line(card["name"]), "fr": name_fr},
            "title": {"en": _one_line(card.get("title")), "fr": title_fr},
            "version": card["version"],
        }
        if role in ("unit", "attachment", "ncu"):
            self._army_card(card, row, fr, out)
        elif role == "tactics":
            self._tactics_card(card, row, fr, out)
        else:
            self._special_card(card, fr, out)
        if row is not None:
            alias = _one_line(row.get("Name"))
            full = out["name"]["en"] + (f", {out['title']['en']}" if out["title"]["en"] else "")
            if alias and fold(alias) != fold(full) and role != "tactics":
                out["aliases"] = [alias]
        return out

    def _army_card(
        self, card: dict[str, Any], row: CsvRow | None, fr: dict[str, Any], out: dict[str, Any]
    ) -> None:
        card_id, role = out["id"], out["kind"]
        points, commander = self._points(card, row)
        out["points"] = points
        out["commander"] = commander
        characters = self._characters(card, row, out)
        out["characters"] = characters
        out["is_character"] = bool(card.get("character")) or bool(characters)
        if role == "unit":
            if row is not None:
                out["unit_type"] = self._csv_unit_type(row)
            else:
                out["unit_type"] = self._json_choice(card, "icon", JSON_ICONS)
            out["tray"] = self._json_choice(card, "tray", JSON_TRAYS)
            for stat in ("speed", "defense", "morale", "wounds"):
                if card.get(stat) is not None:
                    out[stat] = self._int(card, stat)
            out["attacks"] = self._attacks(card, fr)
        elif role == "attachment":
            out["unit_type"] = self._json_choice(card, "icon", JSON_ICONS)
            out["tray"] = self._json_choice(card, "tray", JSON_TRAYS)
        if role == "ncu":
            out["abilities"] = self._ncu_abilities(card, fr)
            ability_names: list[str] = []
        else:
            ability_names = [_one_line(n) for n in card.get("abilities") or []]
            out["abilities"] = [self._named_ability(n, card) for n in ability_names]
        out["requirements"] = self._requirements(card_id, row, ability_names)
        if row is not None and row.get("Boxes"):
            out["boxes"] = [b.strip() for b in row.get("Boxes").split("/") if b.strip()]
        for key in ("tactics", "rules"):
            if card.get(key):
                out[key] = [str(v) for v in card[key]]
        if card.get("enemy"):
            out["enemy"] = True

    def _points(self, card: dict[str, Any], row: CsvRow | None) -> tuple[int, bool]:
        """Points and commander flag: printed "C" (or no cost) on a commander means 0;
        "2C" / "4C" are commanders that also cost points (Varamyr, Doran)."""
        commander = bool(card.get("commander"))
        csv_points: int | None = None
        if row is not None and row.get("Cost"):
            printed = _COST.fullmatch(row.get("Cost").upper())
            if printed is None:
                raise CardImportError(row.file, row.row, f"non-numeric cost {row.get('Cost')!r}")
            commander = commander or bool(printed.group("commander"))
            csv_points = int(printed.group("points")) if printed.group("points") else None
        if card.get("cost") is not None:
            return self._int(card, "cost"), commander
        if commander:
            return 0, True
        return csv_points or 0, commander  # free cards: the CSV's 0, or blank in both

    def _int(self, card: dict[str, Any], key: str) -> int:
        value = card.get(key)
        if isinstance(value, bool) or not isinstance(value, int):
            origin = self.origins.get(str(card["id"]))
            raise CardImportError(
                origin.file if origin else "en",
                origin.row if origin else None,
                f"non-numeric {key} {value!r}",
            )
        return value

    def _json_choice(self, card: dict[str, Any], key: str, choices: dict[str, str]) -> str:
        value = str(card.get(key) or "").strip().lower()
        if not value:
            return ""
        if value not in choices:
            origin = self.origins[str(card["id"])]
            raise CardImportError(origin.file, origin.row, f"unknown {key} {card.get(key)!r}")
        return choices[value]

    def _csv_unit_type(self, row: CsvRow) -> str:
        value = row.get("Type").lower()
        if value not in CSV_UNIT_TYPES:
            raise CardImportError(row.file, row.row, f"unknown unit type {row.get('Type')!r}")
        return CSV_UNIT_TYPES[value]

    def _characters(
        self, card: dict[str, Any], row: CsvRow | None, out: dict[str, Any]
    ) -> list[str]:
        names = [_one_line(n) for n in (row.get("Character") if row else "").split(",")]
        names = [n for n in names if n]
        if not names and card.get("character"):
            names = [out["name"]["en"]]
        keys: list[str] = []
        for name in names:
            key = slug_key(name)
            if key and key not in keys:
                keys.append(key)
                self.characters[key][name] += 1
                if len(names) == 1 and fold(name) == fold(out["name"]["en"]) and out["name"]["fr"]:
                    self.character_fr[key][out["name"]["fr"]] += 1
        return keys

    def _attacks(self, card: dict[str, Any], fr: dict[str, Any]) -> list[dict[str, Any]]:
        fr_attacks = (fr.get("statistics") or {}).get("attacks") or []
        fr_names = [_one_line(a.get("name")) for a in fr_attacks if isinstance(a, dict)]
        if len(fr_names) != len(card.get("attacks") or []):
            fr_names = self.data.fr_attacks.get(str(card["id"])) or []
        attacks = []
        for i, attack in enumerate(card.get("attacks") or []):
            attacks.append(
                {
                    "name": {
                        "en": _one_line(attack.get("name")),
                        "fr": fr_names[i] if i < len(fr_names) else "",
                    },
                    "range": attack.get("type"),
                    "to_hit": attack.get("hit"),
                    "dice": attack.get("dice") or [],
                }
            )
        return attacks

    def _requirements(
        self, card_id: str, row: CsvRow | None, ability_names: list[str]
    ) -> list[dict[str, Any]]:
        records: list[dict[str, Any]] = []
        if row is not None:
            prose = row.get("Requirement Text") or row.get("Restrictions") or row.get("Requirement")
            try:
                records += parse_requirements(
                    row.get("Requirements"), requirement_text=prose, card_id=card_id
                )
            except RequirementSyntaxError as exc:
                reason = exc.message.replace("directive", "requirement directive", 1)
                if exc.message.startswith("unknown directive"):
                    reason = f"unknown requirement directive {exc.text!r}"
                else:
                    reason = f"{reason} in {exc.text!r}"
                raise CardImportError(row.file, row.row, reason) from exc
            records += parse_printed_restrictions(prose)
        for name in ability_names:  # commanders print their loyalty as an ability
            if fold(name).startswith("loyalty:"):
                records += parse_printed_restrictions(name)
        unique: list[dict[str, Any]] = []
        for record in records:
            if record not in unique:
                unique.append(record)
        # Construction abilities the directives miss (cards/data/construction_abilities.json).
        return apply_construction_records(card_id, unique)

    def _tactics_card(
        self, card: dict[str, Any], row: CsvRow | None, fr: dict[str, Any], out: dict[str, Any]
    ) -> None:
        out["trigger"], out["text"] = _tactics_text(card.get("text"), fr)
        commander = (card.get("commander") or {}).get("id")
        out["commander_card"] = self._commander_for(out["id"], commander and str(commander))
        removes = [str(card["remove"])] if card.get("remove") else []
        if not removes and row is not None and row.get("Remove"):
            removes = row.get("Remove").split()
        if len(removes) == 1:
            out["replaces"] = removes[0]
        if removes:
            out["removes"] = removes

    def _commander_for(self, tactics_id: str, named: str | None) -> str | None:
        """The owning commander; when the named card is no commander but a commander lists
        this tactics card in its deck, that commander (an S06B data slip: 41017-41019)."""
        if named and self.en_by_id.get(named, {}).get("commander"):
            return named
        listing = sorted(
            card_id
            for card_id, card in self.en_by_id.items()
            if card.get("commander") and tactics_id in (card.get("tactics") or [])
        )
        if len(listing) == 1:
            return listing[0]
        return named

    def _special_card(self, card: dict[str, Any], fr: dict[str, Any], out: dict[str, Any]) -> None:
        card_id = out["id"]
        out["category"] = card.get("category")
        if card.get("rules"):
            out["rules"] = [str(v) for v in card["rules"]]
        rules_row = self.data.csv_row(card_id, card["version"])
        text_en = _special_text(card.get("front"))
        text_fr = _special_text((fr.get("statistics") or {}).get("front"))
        if rules_row is not None and rules_row.file == "rules.csv":
            text_en = rules_row.get("Text") or text_en
            fr_row = self.data.fr_csv_rows.get(f"rules.fr.csv:{card_id}")
            text_fr = (fr_row.get("Text") if fr_row else "") or text_fr
            out["requirements"] = self._rules_card_records(card_id, rules_row)
        out["text"] = {"en": text_en, "fr": text_fr}

    def _rules_card_records(self, card_id: str, row: CsvRow) -> list[dict[str, Any]]:
        from cards.faction_rules import UnknownRulesCard, rules_for_card

        try:
            return rules_for_card(card_id)
        except UnknownRulesCard as exc:
            raise CardImportError(row.file, row.row, str(exc)) from exc

    def _rules_only_cards(self) -> list[dict[str, Any]]:
        """Rules cards that only rules.csv holds (50300, 51001, 51002 in the snapshot)."""
        cards = []
        for card_id, rows in sorted(self.data.csv_rows.items()):
            row = rows[-1]
            if row.file != "rules.csv" or card_id in self.en_by_id:
                continue
            self.origins[card_id] = Origin(row.file, row.row)
            name_fr, _title = _split_name(self.data.fr_names.get(card_id, ""), has_title=False)
            fr_row = self.data.fr_csv_rows.get(f"rules.fr.csv:{card_id}")
            cards.append(
                {
                    "id": card_id,
                    "kind": "special",
                    "faction": self._faction(card_id, None),
                    "name": {"en": _one_line(row.get("Name")), "fr": name_fr},
                    "version": row.get("Version"),
                    "category": "faction",
                    "requirements": self._rules_card_records(card_id, row),
                    "text": {"en": row.get("Text"), "fr": fr_row.get("Text") if fr_row else ""},
                }
            )
        return cards

    def _faction(self, card_id: str, json_faction: str | None) -> str | None:
        if card_id.isdigit() and len(card_id) == 5:
            slug = FACTION_BY_CODE.get(int(card_id[1:3]))
            if slug is None:
                origin = self.origins[card_id]
                raise CardImportError(origin.file, origin.row, f"unknown faction code in {card_id}")
            return slug
        return json_faction or None

    def _french_name(
        self, card_id: str, card: dict[str, Any], fr: dict[str, Any]
    ) -> tuple[str, str]:
        if fr.get("name"):
            return _one_line(fr["name"]), _one_line(fr.get("subname"))
        return _split_name(self.data.fr_names.get(card_id, ""), has_title=bool(card.get("title")))

    # ---- abilities

    def _named_ability(self, name: str, card: dict[str, Any]) -> str:
        """The key of a unit/attachment ability, registering its definition once."""
        key = slug_key(name)
        definition = self.data.en_abilities.get(key)
        local = self.data.bolton_abilities.get(key) if card.get("faction") == "bolton" else None
        if local is not None and definition is not None and _body(local) != _body(definition):
            # Bolton's own file redefines a few shared names with other text (S06B).
            key, definition = f"{key}-bolton", local
        definition = definition or local or {}
        self.ability_spellings[key][name] += 1
        if key not in self.abilities:
            base = key.removesuffix("-bolton")
            fr_name, fr_text = self.data.glossary_fr.get(base, ("", ""))
            self.abilities[key] = {
                "key": key,
                "base": base,
                "icons": list(definition.get("icons") or []),
                "text_en": "\n".join(definition.get("effect") or []),
                "trigger_en": _one_line(definition.get("trigger")),
                "name_fr": fr_name,
                "text_fr": fr_text or "",
                "trigger_fr": "",
                "version": self.data.skill_versions.get(base, ""),
            }
        return key

    def _ncu_abilities(self, card: dict[str, Any], fr: dict[str, Any]) -> list[str]:
        fr_list = [
            a for a in (fr.get("statistics") or {}).get("abilities") or [] if isinstance(a, dict)
        ]
        en_list = card.get("abilities") or []
        aligned = len(fr_list) == len(en_list)
        keys = []
        for i, ability in enumerate(en_list):
            if not isinstance(ability, dict) or not ability.get("name"):
                origin = self.origins[str(card["id"])]
                raise CardImportError(origin.file, origin.row, "NCU ability without a name")
            name = _one_line(ability["name"])
            key = slug_key(name)
            keys.append(key)
            self.ability_spellings[key][name] += 1
            if key in self.abilities:
                continue
            fr_ability = fr_list[i] if aligned else {}
            self.abilities[key] = {
                "key": key,
                "base": key,
                "icons": [],
                "text_en": "\n".join(ability.get("effect") or []),
                "trigger_en": "",
                "name_fr": _one_line(fr_ability.get("name")),
                "text_fr": "\n".join(fr_ability.get("effect") or []),
                "trigger_fr": "",
                "version": "",
            }
        return keys

    def _collect_french_ability_names(self) -> None:
        """Vote English -> French ability names from cards printed in both languages.

        The French JSON lists a card's abilities in the English order only when both
        describe the same printing, and not always then (it also lists requirement prose
        as abilities). So: only same-version cards; names the glossary already pairs are
        taken out first; the rest is paired by position when both sides are left equal.
        """
        for card_id, card in self.en_by_id.items():
            fr = self.data.fr_cards.get(card_id)
            if card.get("role") not in ("unit", "attachment") or not fr:
                continue
            stats = fr.get("statistics") or {}
            if stats.get("version") != card.get("version"):
                continue
            en_names = [_one_line(n) for n in card.get("abilities") or []]
            fr_names = [
                _one_line(n)
                for n in stats.get("abilities") or []
                if isinstance(n, str) and not fold(n).startswith(_NOT_ABILITY_PREFIXES)
            ]
            left_en = []
            for name in en_names:
                known = self.data.glossary_fr.get(slug_key(name), ("", ""))[0]
                match = next(
                    (f for f in fr_names if known and slug_key(f) == slug_key(known)), None
                )
                if match is None:
                    left_en.append(name)
                else:
                    fr_names.remove(match)
            if left_en and len(left_en) == len(fr_names):
                for en, fr_name in zip(left_en, fr_names, strict=True):
                    self.fr_votes[slug_key(en)][fr_name] += 1

    def _ability_row(self, key: str) -> dict[str, Any]:
        ability = self.abilities[key]
        name_en = _most_common(self.ability_spellings[key])
        name_fr = ability["name_fr"] or _most_common(self.fr_votes.get(ability["base"]))
        text_fr, trigger_fr = ability["text_fr"], ability["trigger_fr"]
        fr_definition = self.data.fr_abilities.get(slug_key(name_fr)) if name_fr else None
        if fr_definition and ability["base"] == key:
            text_fr = "\n".join(fr_definition.get("effect") or []) or text_fr
            trigger_fr = _one_line(fr_definition.get("trigger")) or trigger_fr
        row: dict[str, Any] = {
            "key": key,
            "name": {"en": name_en, "fr": name_fr},
            "text": {"en": ability["text_en"], "fr": text_fr if ability["text_en"] else ""},
            "trigger": {"en": ability["trigger_en"], "fr": trigger_fr},
        }
        if ability["icons"]:
            row["icons"] = ability["icons"]
        if ability["version"]:
            row["version"] = ability["version"]
        return row

    def _character_rows(self) -> list[dict[str, Any]]:
        return [
            {
                "key": key,
                "name": {
                    "en": _most_common(spellings),
                    "fr": _most_common(self.character_fr.get(key)),
                },
            }
            for key, spellings in sorted(self.characters.items())
        ]


def _body(definition: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in definition.items() if k != "name"}


def _most_common(counter: Counter[str] | None) -> str:
    """The most frequent spelling; ties go to the alphabetically first (stable output)."""
    if not counter:
        return ""
    return min(counter.items(), key=lambda item: (-item[1], item[0]))[0]


def _split_name(text: str, *, has_title: bool) -> tuple[str, str]:
    """'Name, Title' from the French tables; only split when the card has a title."""
    text = _one_line(text)
    if has_title and ", " in text:
        name, title = text.split(", ", 1)
        return name.strip(), title.strip()
    return text, ""


def _tactics_text(entries: Any, fr: dict[str, Any]) -> tuple[dict[str, str], dict[str, str]]:
    """Trigger and effect text; alternative triggers pair with the effect blocks in order."""

    def split(items: Any) -> tuple[str, str]:
        triggers, effects = [], []
        for item in items or []:
            if not isinstance(item, dict) or "trigger" not in item:
                continue  # the French `{"remove": prose}` entries
            triggers.append(_one_line(item.get("trigger")))
            effects.append("\n".join(item.get("effect") or []))
        return "\n".join(triggers), "\n\n".join(effects)

    trigger_en, text_en = split(entries)
    trigger_fr, text_fr = split((fr.get("statistics") or {}).get("text"))
    return {"en": trigger_en, "fr": trigger_fr}, {"en": text_en, "fr": text_fr}


def _special_text(front: Any) -> str:
    """The printed front of a special card: rules text, tactics-board zones or a zone effect."""
    if not isinstance(front, dict):
        return ""
    if front.get("text"):
        return "\n".join(front["text"])
    if front.get("effect"):
        return "\n".join(front["effect"])
    zones = ("CROWN", "MONEY", "LETTER", "SWORDS", "HORSE")
    return "\n".join(f"[{zone}] {line}" for zone in zones for line in front.get(zone) or [])
