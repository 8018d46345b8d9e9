"""The `citadel-cards/1` file format (docs/citadel-json.md): read, validate, write.

`records_from_document` turns a parsed document into `ImportRecords`; the community-data
importer builds a document too and goes through the same function, so both sources are
validated alike and share one writer (`cards.services.import_card_records`).
`document_from_database` is the inverse, used by `export_cards`; `dump_document` writes it
with a stable key order and one row per line, so regenerating gives an identical file.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from cards.figure_types import figure_kind_from_cost
from cards.models import (
    FIGURE_KINDS,
    TACTICS_KINDS,
    TMG_KINDS,
    Ability,
    Card,
    CardKind,
    Character,
    Faction,
    Game,
    Scenario,
    ScenarioKind,
    Tray,
    UnitType,
)
from cards.normalise import slug_key
from cards.requirements import (
    RECORD_CLASSES,
    RequirementSyntaxError,
    UnknownRecordType,
    parse_requirements,
)

from .records import (
    AbilityRecord,
    CardImportError,
    CardRecord,
    CharacterRecord,
    FactionRecord,
    ImportRecords,
    Origin,
    ScenarioRecord,
    SigilRecord,
)

FORMAT = "citadel-cards/1"

_Implied = TypeVar("_Implied", CharacterRecord, AbilityRecord)

GAMES = frozenset(Game.values)
CARD_KINDS = frozenset(CardKind.values)
UNIT_TYPES = frozenset(UnitType.values)
TRAYS = frozenset(Tray.values)
SCENARIO_KINDS = frozenset(ScenarioKind.values)
TMG_RANGES = frozenset({"melee", "short", "long"})
TACTICS_RANGES = frozenset({"melee", "ranged"})

#: Card fields beyond the model columns, kept in `Card.extra` under their own name.
EXTRA_CARD_FIELDS: tuple[str, ...] = (
    "tactics",  # a commander's tactics-card ids
    "rules",  # rules-card ids printed on the card
    "removes",  # tactics card: every basic-deck card id it replaces
    "enemy",  # attachment joins an enemy unit
    "aliases",  # other printed names of the card (War Council spelling)
    "category",  # special card: faction / banners / poison / zone / tactics-board ...
)

_KNOWN_CARD_FIELDS = frozenset(
    [
        "id",
        "kind",
        "game",
        "faction",
        "sigil",
        "name",
        "title",
        "version",
        "characters",
        "character",
        "is_character",
        "abilities",
        "requirements",
        "boxes",
        "text",
        "trigger",
        "points",
        "commander",
        "unit_type",
        "tray",
        "speed",
        "defense",
        "morale",
        "wounds",
        "attacks",
        "commander_card",
        "replaces",
        "cost",
        "mounted",
        "will",
        "carriers",
        "unique",
    ]
) | frozenset(EXTRA_CARD_FIELDS)
_KNOWN_SCENARIO_FIELDS = frozenset(
    [
        "id",
        "kind",
        "game",
        "name",
        "summary",
        "order",
        "tournament_legal",
        "deployment",
        "objectives",
        "scoring",
        "special_components",
        "rounds",
        "budget",
    ]
)

#: Keys whose values are prose; a stats-only document carries none of them.
PROSE_KEYS = frozenset({"text", "trigger", "summary", "effect", "lore", "quote", "fluff"})


# --------------------------------------------------------------------------- reading


def read_citadel_json(path: str | Path) -> ImportRecords:
    """Records for one citadel-cards/1 file; raises `CardImportError` when malformed."""
    path = Path(path)
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise CardImportError(path.name, None, "file not found") from exc
    except UnicodeDecodeError as exc:
        raise CardImportError(path.name, None, f"not UTF-8 text ({exc.reason})") from exc
    except json.JSONDecodeError as exc:
        raise CardImportError(path.name, exc.lineno, f"invalid JSON: {exc.msg}") from exc
    return records_from_document(document, file=path.name)


def read_citadel_json_files(paths: Iterable[str | Path]) -> ImportRecords:
    """Several files as one import; a row repeated in a later file wins."""
    merged: ImportRecords | None = None
    for path in paths:
        records = read_citadel_json(path)
        merged = records if merged is None else merged.merged_with(records)
    if merged is None:
        raise CardImportError("citadel-json", None, "no file given")
    return merged


def records_from_document(
    document: Any,
    *,
    file: str,
    origins: Mapping[str, Origin] | None = None,
) -> ImportRecords:
    """Validate a parsed document and turn it into records.

    `origins` maps card ids to where the importer read them, so a later error (an
    unresolvable requirement) can name the source file and row instead of the document.
    """
    if not isinstance(document, dict):
        raise CardImportError(file, None, "the document is not a JSON object")
    if document.get("format") != FORMAT:
        raise CardImportError(
            file, None, f"'format' must be {FORMAT!r}, got {document.get('format')!r}"
        )
    default_game = document.get("game")
    if default_game is not None and default_game not in GAMES:
        raise CardImportError(file, None, f"unknown game {default_game!r}")
    reader = _DocumentReader(file=file, default_game=default_game, origins=origins or {})
    records = ImportRecords(source=str(document.get("source") or "citadel-json"))
    records.factions = [
        reader.faction(item, f"factions[{i}]")
        for i, item in enumerate(_list(document, "factions", file))
    ]
    records.characters = [
        reader.character(item, f"characters[{i}]")
        for i, item in enumerate(_list(document, "characters", file))
    ]
    records.abilities = [
        reader.ability(item, f"abilities[{i}]")
        for i, item in enumerate(_list(document, "abilities", file))
    ]
    records.cards = [reader.card(item, i) for i, item in enumerate(_list(document, "cards", file))]
    records.scenarios = [
        reader.scenario(item, f"scenarios[{i}]")
        for i, item in enumerate(_list(document, "scenarios", file))
    ]
    _check_unique(file, "cards", [(c.game, c.external_id) for c in records.cards])
    _check_unique(file, "factions", [(f.game, f.slug) for f in records.factions])
    _check_unique(file, "characters", [c.key for c in records.characters])
    _check_unique(file, "abilities", [(a.game, a.key) for a in records.abilities])
    _check_unique(file, "scenarios", [(s.game, s.slug) for s in records.scenarios])
    records.characters += reader.implied_characters(records)
    records.abilities += reader.implied_abilities(records)
    return records


def _list(document: dict, key: str, file: str) -> list:
    value = document.get(key) or []
    if not isinstance(value, list):
        raise CardImportError(file, key, "must be a list")
    return value


def _check_unique(file: str, what: str, keys: list) -> None:
    seen: set = set()
    for key in keys:
        if key in seen:
            shown = key[-1] if isinstance(key, tuple) else key
            raise CardImportError(file, what, f"{shown!r} appears twice")
        seen.add(key)


def known_requirement_types() -> dict[str, frozenset[str]]:
    """Record types a `requirements` list may hold -> fields a record of it must carry.

    The requirement parser's types (checked by their own `from_record`) and the faction
    rules' types (`cards.faction_rules.FACTION_RULE_TYPES`).
    """
    from cards.faction_rules import FACTION_RULE_TYPES

    types: dict[str, frozenset[str]] = dict.fromkeys(RECORD_CLASSES, frozenset())
    types.update(FACTION_RULE_TYPES)
    return types


class _DocumentReader:
    """Field-by-field validation; every failure names the file and the JSON path."""

    def __init__(self, *, file: str, default_game: str | None, origins: Mapping[str, Origin]):
        self.file = file
        self.default_game = default_game
        self.origins = origins
        self._requirement_types: dict[str, frozenset[str]] | None = None
        self._ability_names: dict[tuple[str, str], tuple[str, str]] = {}
        self._character_names: dict[str, tuple[str, str]] = {}

    def fail(self, where: str, reason: str) -> CardImportError:
        return CardImportError(self.file, where, reason)

    # ---- small typed getters

    def obj(self, item: Any, where: str) -> dict:
        if not isinstance(item, dict):
            raise self.fail(where, "must be a JSON object")
        return item

    def text(self, item: dict, key: str, where: str, *, required: bool = False) -> str:
        value = item.get(key)
        if value is None or value == "":
            if required:
                raise self.fail(where, f"missing field {key!r}")
            return ""
        if isinstance(value, int | float) and not isinstance(value, bool):
            return str(value)
        if not isinstance(value, str):
            raise self.fail(where, f"{key!r} must be a string")
        return value.strip()

    def i18n(self, item: dict, key: str, where: str, *, required: bool = False) -> tuple[str, str]:
        """An `{"en": …, "fr": …}` field (a plain string is English)."""
        value = item.get(key)
        if isinstance(value, str):
            value = {"en": value}
        if value is None:
            value = {}
        if not isinstance(value, dict):
            raise self.fail(where, f"{key!r} must be a string or an {{'en', 'fr'}} object")
        en, fr = value.get("en") or "", value.get("fr") or ""
        if not isinstance(en, str) or not isinstance(fr, str):
            raise self.fail(where, f"{key!r} translations must be strings")
        if required and not en.strip():
            raise self.fail(where, f"missing field {key!r} (English)")
        return en.strip(), fr.strip()

    def prose(self, item: dict, key: str, where: str) -> tuple[str | None, str | None]:
        """Like `i18n`, but an absent key (a stats-only file) is None: keep stored text."""
        if key not in item:
            return None, None
        return self.i18n(item, key, where)

    def count(self, item: dict, key: str, where: str, *, label: str | None = None) -> int | None:
        """A non-negative integer or null."""
        value = item.get(key)
        if value is None:
            return None
        label = label or key
        if isinstance(value, bool) or not isinstance(value, int):
            if isinstance(value, float) and value.is_integer() and value >= 0:
                return int(value)
            raise self.fail(where, f"non-numeric {label} {value!r}")
        if value < 0:
            raise self.fail(where, f"negative {label} {value}")
        return value

    def flag(self, item: dict, key: str, where: str) -> bool:
        value = item.get(key, False)
        if value is None:
            return False
        if not isinstance(value, bool):
            raise self.fail(where, f"{key!r} must be true or false")
        return value

    def choice(self, item: dict, key: str, where: str, choices: frozenset[str]) -> str:
        value = self.text(item, key, where)
        if value and value not in choices:
            raise self.fail(where, f"unknown {key} {value!r}")
        return value

    def strings(self, item: dict, key: str, where: str) -> list[str]:
        value = item.get(key)
        if value is None:
            return []
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, str | int) for v in value):
            raise self.fail(where, f"{key!r} must be a list of strings")
        return [str(v).strip() for v in value if str(v).strip()]

    def game_of(self, item: dict, where: str) -> str:
        game = item.get("game") or self.default_game
        if game is None:
            raise self.fail(where, "missing field 'game' (no file-level game either)")
        if game not in GAMES:
            raise self.fail(where, f"unknown game {game!r}")
        return game

    # ---- sections

    def faction(self, item: Any, where: str) -> FactionRecord:
        item = self.obj(item, where)
        slug = self.text(item, "id", where, required=True)
        name_en, name_fr = self.i18n(item, "name", where, required=True)
        sigils = []
        for j, sigil in enumerate(item.get("sigils") or []):
            if isinstance(sigil, str):
                sigils.append(SigilRecord(slug=sigil, name_en=sigil.replace("-", " ").title()))
                continue
            sigil = self.obj(sigil, f"{where}.sigils[{j}]")
            s_en, s_fr = self.i18n(sigil, "name", where)
            s_slug = self.text(sigil, "id", where, required=True)
            sigils.append(SigilRecord(slug=s_slug, name_en=s_en or s_slug, name_fr=s_fr))
        neutral = item.get("neutral")
        return FactionRecord(
            game=self.game_of(item, where),
            slug=slug,
            name_en=name_en,
            name_fr=name_fr,
            is_neutral=slug == "neutral" if neutral is None else self.flag(item, "neutral", where),
            warcouncil_code=self.count(item, "warcouncil_code", where),
            sort_order=_or_default(self.count(item, "order", where), 100),
            sigils=sigils,
        )

    def character(self, item: Any, where: str) -> CharacterRecord:
        item = self.obj(item, where)
        name_en, name_fr = self.i18n(item, "name", where, required=True)
        key = self.text(item, "key", where) or slug_key(name_en)
        return CharacterRecord(key=key, name_en=name_en, name_fr=name_fr)

    def ability(self, item: Any, where: str) -> AbilityRecord:
        item = self.obj(item, where)
        name_en, name_fr = self.i18n(item, "name", where, required=True)
        text_en, text_fr = self.prose(item, "text", where)
        trigger_en, trigger_fr = self.prose(item, "trigger", where)
        return AbilityRecord(
            game=self.game_of(item, where),
            key=self.text(item, "key", where) or slug_key(name_en),
            name_en=name_en,
            name_fr=name_fr,
            text_en=text_en,
            text_fr=text_fr,
            trigger_en=trigger_en,
            trigger_fr=trigger_fr,
            icons=self.strings(item, "icons", where),
            version=self.text(item, "version", where),
        )

    def card(self, item: Any, index: int) -> CardRecord:
        where = f"cards[{index}]"
        item = self.obj(item, where)
        external_id = self.text(item, "id", where, required=True)
        where = f"cards[{index}] ({external_id})"
        origin = self.origins.get(external_id) or Origin(self.file, where)
        try:
            return self._card(item, external_id, where, origin)
        except CardImportError as exc:
            if origin.file == self.file:
                raise
            # The document was built from another source: name that file and row.
            raise CardImportError(origin.file, origin.row, exc.reason) from exc

    def _card(self, item: dict, external_id: str, where: str, origin: Origin) -> CardRecord:
        game = self.game_of(item, where)
        kind = self.text(item, "kind", where, required=True)
        if kind not in CARD_KINDS:
            raise self.fail(where, f"unknown kind {kind!r}")
        game_kinds = TMG_KINDS if game == Game.TMG else TACTICS_KINDS
        if game in (Game.TMG, Game.TACTICS) and kind not in game_kinds:
            raise self.fail(where, f"kind {kind!r} is not a {game} card kind")
        name_en, name_fr = self.i18n(item, "name", where, required=True)
        title_en, title_fr = self.i18n(item, "title", where)
        text_en, text_fr = self.prose(item, "text", where)
        trigger_en, trigger_fr = self.prose(item, "trigger", where)
        faction = item.get("faction")
        if faction is not None and not isinstance(faction, str):
            raise self.fail(where, "'faction' must be a slug or null")
        characters = self.strings(item, "characters", where)
        if item.get("character"):
            characters += [c for c in self.strings(item, "character", where) if c not in characters]
        for key in characters:
            self._character_names.setdefault(key, (name_en, name_fr))
        record = CardRecord(
            game=game,
            external_id=external_id,
            kind=kind,
            faction=faction or None,
            sigil=self.text(item, "sigil", where) or None,
            name_en=name_en,
            name_fr=name_fr,
            title_en=title_en,
            title_fr=title_fr,
            version=self.text(item, "version", where),
            characters=characters,
            is_character=self.flag(item, "is_character", where) or bool(characters),
            abilities=self._card_abilities(item, game, where),
            requirements=self._requirements(item, external_id, where),
            boxes=self.strings(item, "boxes", where),
            text_en=text_en,
            text_fr=text_fr,
            trigger_en=trigger_en,
            trigger_fr=trigger_fr,
            origin=origin,
        )
        if kind in TMG_KINDS:
            self._tmg_fields(item, record, where)
        else:
            self._tactics_fields(item, record, where)
        extra = {key: item[key] for key in EXTRA_CARD_FIELDS if item.get(key) not in (None, "", [])}
        unknown = {key: value for key, value in item.items() if key not in _KNOWN_CARD_FIELDS}
        if unknown:
            extra["unknown"] = unknown
        record.extra = extra
        return record

    def _tmg_fields(self, item: dict, record: CardRecord, where: str) -> None:
        record.points = self.count(item, "points", where, label="points cost")
        if "cost" in item and "points" not in item:
            # TMG cards printed with a plain number as "cost" are read as points.
            record.points = self.count(item, "cost", where, label="cost")
        record.is_commander = self.flag(item, "commander", where)
        record.unit_type = self.choice(item, "unit_type", where, UNIT_TYPES)
        record.tray = self.choice(item, "tray", where, TRAYS)
        for stat in ("speed", "defense", "morale", "wounds"):
            setattr(record, stat, self.count(item, stat, where))
        record.attacks = [
            self._tmg_attack(attack, f"{where}.attacks[{j}]")
            for j, attack in enumerate(item.get("attacks") or [])
        ]
        record.commander_card = self.text(item, "commander_card", where) or None
        record.replaces = self.text(item, "replaces", where) or None
        for key in ("tactics", "rules", "removes", "aliases"):
            if key in item:
                self.strings(item, key, where)

    def _tmg_attack(self, attack: Any, where: str) -> dict[str, Any]:
        attack = self.obj(attack, where)
        name_en, name_fr = self.i18n(attack, "name", where)
        attack_range = self.text(attack, "range", where, required=True)
        if attack_range not in TMG_RANGES:
            raise self.fail(where, f"unknown attack range {attack_range!r}")
        dice = attack.get("dice") or []
        if isinstance(dice, int) and not isinstance(dice, bool):
            dice = [dice]
        if not isinstance(dice, list) or not all(
            isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in dice
        ):
            raise self.fail(where, "'dice' must be a list of non-negative integers")
        return {
            "name_en": name_en,
            "name_fr": name_fr,
            "range": attack_range,
            "to_hit": self.count(attack, "to_hit", where),
            "dice": dice,
        }

    def _tactics_fields(self, item: dict, record: CardRecord, where: str) -> None:
        cost = item.get("cost")
        if cost is not None:
            cost = self.obj(cost, f"{where}.cost")
            for coin in ("gold", "silver", "copper"):
                setattr(record, coin, self.count(cost, coin, where, label=f"{coin} cost"))
        implied = figure_kind_from_cost(record.gold, record.silver, record.copper)
        if record.kind in FIGURE_KINDS and implied and implied != record.kind:
            raise self.fail(
                where,
                f"a {record.kind} cannot cost {record.gold}-{record.silver}-{record.copper}: "
                f"that cost makes a {implied}",
            )
        record.mounted = self.flag(item, "mounted", where)
        record.will = self.count(item, "will", where)
        record.defense = self.count(item, "defense", where)
        record.wounds = self.count(item, "wounds", where)
        record.carriers = self.strings(item, "carriers", where)
        record.is_unique = self.flag(item, "unique", where)
        record.attacks = [
            self._tactics_attack(attack, f"{where}.attacks[{j}]")
            for j, attack in enumerate(item.get("attacks") or [])
        ]

    def _tactics_attack(self, attack: Any, where: str) -> dict[str, Any]:
        attack = self.obj(attack, where)
        name_en, name_fr = self.i18n(attack, "name", where)
        attack_range = self.text(attack, "range", where, required=True)
        if attack_range not in TACTICS_RANGES:
            raise self.fail(where, f"unknown attack range {attack_range!r}")
        upgrades = []
        for j, upgrade in enumerate(attack.get("upgrades") or []):
            upgrade = self.obj(upgrade, f"{where}.upgrades[{j}]")
            effect_en, effect_fr = self.i18n(upgrade, "effect", where)
            upgrades.append(
                {
                    "cost": self.count(upgrade, "cost", where),
                    "effect_en": effect_en,
                    "effect_fr": effect_fr,
                }
            )
        return {
            "name_en": name_en,
            "name_fr": name_fr,
            "range": attack_range,
            "ap": self.count(attack, "ap", where),
            "dice": self.count(attack, "dice", where),
            "to_hit": self.count(attack, "to_hit", where),
            "spend": self.count(attack, "spend", where),
            "upgrades": upgrades,
        }

    def _card_abilities(self, item: dict, game: str, where: str) -> list[str]:
        keys = []
        for j, ability in enumerate(item.get("abilities") or []):
            if isinstance(ability, str):
                keys.append(ability)
                continue
            ability = self.obj(ability, f"{where}.abilities[{j}]")
            name_en, name_fr = self.i18n(ability, "name", where)
            key = self.text(ability, "key", where) or slug_key(name_en)
            if not key:
                raise self.fail(where, f"abilities[{j}] needs a 'key' or a 'name'")
            self._ability_names.setdefault((game, key), (name_en or key, name_fr))
            keys.append(key)
        return keys

    def _requirements(self, item: dict, external_id: str, where: str) -> list[dict[str, Any]]:
        value = item.get("requirements")
        if value is None or value == "":
            return []
        if isinstance(value, str):
            try:
                return parse_requirements(value, card_id=external_id)
            except RequirementSyntaxError as exc:
                raise self.fail(where, f"{exc.message} {exc.text!r}") from exc
        if not isinstance(value, list):
            raise self.fail(where, "'requirements' must be a list of records or a string")
        if self._requirement_types is None:
            self._requirement_types = known_requirement_types()
        for j, record in enumerate(value):
            record = self.obj(record, f"{where}.requirements[{j}]")
            kind = record.get("type")
            if kind not in self._requirement_types:
                raise self.fail(where, f"unknown requirement type {kind!r}")
            if kind in RECORD_CLASSES:
                try:
                    RECORD_CLASSES[kind].from_record(record)
                except (KeyError, TypeError, ValueError, UnknownRecordType) as exc:
                    raise self.fail(where, f"malformed {kind!r} requirement: {exc}") from exc
            missing = self._requirement_types[kind] - record.keys()
            if missing:
                raise self.fail(where, f"{kind!r} requirement lacks {sorted(missing)}")
        return value

    def scenario(self, item: Any, where: str) -> ScenarioRecord:
        item = self.obj(item, where)
        game = self.game_of(item, where)
        slug = self.text(item, "id", where, required=True)
        default_kind = ScenarioKind.GAME_MODE if game == Game.TMG else ScenarioKind.SCENARIO
        kind = self.choice(item, "kind", where, SCENARIO_KINDS) or default_kind
        name_en, name_fr = self.i18n(item, "name", where, required=True)
        summary_en, summary_fr = self.i18n(item, "summary", where)
        budget = item.get("budget")
        coins: dict[str, int | None] = {"gold": None, "silver": None, "copper": None}
        if budget is not None:
            budget = self.obj(budget, f"{where}.budget")
            coins = {c: self.count(budget, c, where, label=f"{c} budget") for c in coins}
        legal = item.get("tournament_legal")
        if legal is not None and not isinstance(legal, bool):
            raise self.fail(where, "'tournament_legal' must be true, false or null")
        unknown = {k: v for k, v in item.items() if k not in _KNOWN_SCENARIO_FIELDS}
        return ScenarioRecord(
            game=game,
            slug=slug,
            kind=kind,
            name_en=name_en,
            name_fr=name_fr,
            summary_en=summary_en,
            summary_fr=summary_fr,
            tournament_legal=legal,
            deployment=self._json_object(item, "deployment", where),
            objectives=self._json_object(item, "objectives", where),
            scoring=self._json_object(item, "scoring", where),
            special_components=list(item.get("special_components") or []),
            rounds=self.count(item, "rounds", where),
            extra={"unknown": unknown} if unknown else {},
            sort_order=_or_default(self.count(item, "order", where), 100),
            **coins,
        )

    def _json_object(self, item: dict, key: str, where: str) -> dict:
        value = item.get(key) or {}
        if not isinstance(value, dict):
            raise self.fail(where, f"{key!r} must be an object")
        return value

    # ---- rows a card names without defining them

    def implied_characters(self, records: ImportRecords) -> list[CharacterRecord]:
        defined = {c.key for c in records.characters}
        return [
            _implied(CharacterRecord(key=key, name_en=names[0], name_fr=names[1]))
            for key, names in self._character_names.items()
            if key not in defined
        ]

    def implied_abilities(self, records: ImportRecords) -> list[AbilityRecord]:
        defined = {(a.game, a.key) for a in records.abilities}
        return [
            _implied(AbilityRecord(game=game, key=key, name_en=names[0], name_fr=names[1]))
            for (game, key), names in self._ability_names.items()
            if (game, key) not in defined
        ]


def _implied(record: _Implied) -> _Implied:
    """Mark a row the writer may create but must never overwrite (a name guessed from a card)."""
    record.implied = True
    return record


def _or_default(value: int | None, default: int) -> int:
    return default if value is None else value


# --------------------------------------------------------------------------- writing


def document_from_database(*, game: str, stats_only: bool, source: str) -> dict[str, Any]:
    """The whole card pool of one game as a citadel-cards/1 document.

    `stats_only` leaves out every prose field (card and ability text, triggers, scenario
    summaries, attack-upgrade effects): what remains may be committed and shipped.
    """
    # Sorted in Python, not by the database: collations differ between SQLite and PostgreSQL.
    cards = sorted(
        Card.objects.filter(game=game)
        .select_related("faction", "sigil", "commander_card", "replaces")
        .prefetch_related("characters", "card_abilities__ability"),
        key=lambda card: card.external_id,
    )
    character_keys = {c.key for card in cards for c in card.characters.all()}
    factions = sorted(
        Faction.objects.filter(game=game).prefetch_related("sigils"),
        key=lambda f: (f.sort_order, f.slug),
    )
    document: dict[str, Any] = {
        "format": FORMAT,
        "game": game,
        "source": source,
        "factions": [_faction_out(f) for f in factions],
        "characters": [
            _character_out(c)
            for c in sorted(Character.objects.filter(key__in=character_keys), key=_by_key)
        ],
        "abilities": [
            _ability_out(a, stats_only)
            for a in sorted(Ability.objects.filter(game=game), key=_by_key)
        ],
        "cards": [_card_out(card, stats_only) for card in cards],
        "scenarios": [
            _scenario_out(s, stats_only)
            for s in sorted(
                Scenario.objects.filter(game=game), key=lambda s: (s.sort_order, s.slug)
            )
        ],
    }
    if stats_only:
        assert_no_prose(document)
    return document


def _by_key(row: Character | Ability) -> str:
    return row.key


_LEADING_KEYS = {"type": 0, "name": 1, "title": 2}


def _canonical(value: Any) -> Any:
    """JSON-field content with a fixed key order (type, name, title, then sorted): PostgreSQL's
    jsonb does not keep the order a dict was written in, SQLite does."""
    if isinstance(value, dict):
        keys = sorted(value, key=lambda k: (_LEADING_KEYS.get(k, len(_LEADING_KEYS)), k))
        return {key: _canonical(value[key]) for key in keys}
    if isinstance(value, list):
        return [_canonical(item) for item in value]
    return value


def assert_no_prose(document: dict[str, Any]) -> None:
    """Raise `ValueError` if a stats-only document carries any prose value."""

    def walk(value: Any, path: str) -> None:
        if isinstance(value, dict):
            for key, child in value.items():
                if key in PROSE_KEYS and child not in (None, "", [], {}):
                    raise ValueError(f"prose field {path}.{key} in a stats-only export")
                walk(child, f"{path}.{key}")
        elif isinstance(value, list):
            for i, child in enumerate(value):
                walk(child, f"{path}[{i}]")

    for section in ("factions", "characters", "abilities", "cards", "scenarios"):
        walk(document.get(section, []), section)


def _i18n(en: str, fr: str) -> dict[str, str]:
    return {"en": en, "fr": fr}


def _faction_out(faction: Faction) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": faction.slug,
        "name": _i18n(faction.name_en, faction.name_fr),
        "neutral": faction.is_neutral,
        "warcouncil_code": faction.warcouncil_code,
        "order": faction.sort_order,
    }
    sigils = [
        {"id": s.slug, "name": _i18n(s.name_en, s.name_fr)}
        for s in sorted(faction.sigils.all(), key=lambda s: s.slug)
    ]
    if sigils:
        out["sigils"] = sigils
    return out


def _character_out(character: Character) -> dict[str, Any]:
    return {"key": character.key, "name": _i18n(character.name_en, character.name_fr)}


def _ability_out(ability: Ability, stats_only: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"key": ability.key, "name": _i18n(ability.name_en, ability.name_fr)}
    if ability.icons:
        out["icons"] = ability.icons
    if ability.version:
        out["version"] = ability.version
    if not stats_only:
        out["text"] = _i18n(ability.text_en, ability.text_fr)
        out["trigger"] = _i18n(ability.trigger_en, ability.trigger_fr)
    return out


def _card_out(card: Card, stats_only: bool) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": card.external_id,
        "kind": card.kind,
        "faction": card.faction.slug if card.faction else None,
    }
    if card.sigil:
        out["sigil"] = card.sigil.slug
    out["name"] = _i18n(card.name_en, card.name_fr)
    if card.title_en or card.title_fr:
        out["title"] = _i18n(card.title_en, card.title_fr)
    if card.version:
        out["version"] = card.version
    characters = sorted(c.key for c in card.characters.all())
    if characters:
        out["characters"] = characters
    if card.is_character:
        out["is_character"] = True
    if card.kind in TMG_KINDS:
        _tmg_out(card, out)
    else:
        _tactics_out(card, out, stats_only)
    abilities = [link.ability.key for link in card.card_abilities.all()]
    if abilities:
        out["abilities"] = abilities
    if card.requirements:
        out["requirements"] = _canonical(card.requirements)
    if card.boxes:
        out["boxes"] = card.boxes
    for key in EXTRA_CARD_FIELDS:
        if card.extra.get(key) not in (None, "", []):
            out[key] = _canonical(card.extra[key])
    if not stats_only and (card.text_en or card.text_fr or card.trigger_en or card.trigger_fr):
        out["text"] = _i18n(card.text_en, card.text_fr)
        out["trigger"] = _i18n(card.trigger_en, card.trigger_fr)
    return out


def _tmg_out(card: Card, out: dict[str, Any]) -> None:
    if card.is_commander:
        out["commander"] = True
    if card.points is not None:
        out["points"] = card.points
    for key in ("unit_type", "tray"):
        if getattr(card, key):
            out[key] = getattr(card, key)
    for key in ("speed", "defense", "morale", "wounds"):
        if getattr(card, key) is not None:
            out[key] = getattr(card, key)
    if card.attacks:
        out["attacks"] = [
            {
                "name": _i18n(a.get("name_en", ""), a.get("name_fr", "")),
                "range": a["range"],
                "to_hit": a.get("to_hit"),
                "dice": a.get("dice", []),
            }
            for a in card.attacks
        ]
    if card.commander_card:
        out["commander_card"] = card.commander_card.external_id
    if card.replaces:
        out["replaces"] = card.replaces.external_id


def _tactics_out(card: Card, out: dict[str, Any], stats_only: bool) -> None:
    out["cost"] = card.coins()
    if card.mounted:
        out["mounted"] = True
    for key in ("will", "defense", "wounds"):
        if getattr(card, key) is not None:
            out[key] = getattr(card, key)
    if card.attacks:
        out["attacks"] = [_tactics_attack_out(a, stats_only) for a in card.attacks]
    if card.carriers:
        out["carriers"] = card.carriers
    if card.is_unique:
        out["unique"] = True


def _tactics_attack_out(attack: dict[str, Any], stats_only: bool) -> dict[str, Any]:
    out = {
        "name": _i18n(attack.get("name_en", ""), attack.get("name_fr", "")),
        "range": attack["range"],
    }
    for key in ("ap", "dice", "to_hit", "spend"):
        out[key] = attack.get(key)
    upgrades = []
    for upgrade in attack.get("upgrades") or []:
        item: dict[str, Any] = {"cost": upgrade.get("cost")}
        if not stats_only:
            item["effect"] = _i18n(upgrade.get("effect_en", ""), upgrade.get("effect_fr", ""))
        upgrades.append(item)
    if upgrades:
        out["upgrades"] = upgrades
    return out


def _scenario_out(scenario: Scenario, stats_only: bool) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": scenario.slug,
        "kind": scenario.kind,
        "name": _i18n(scenario.name_en, scenario.name_fr),
        "order": scenario.sort_order,
    }
    if not stats_only:
        out["summary"] = _i18n(scenario.summary_en, scenario.summary_fr)
    for key in ("tournament_legal", "rounds"):
        if getattr(scenario, key) is not None:
            out[key] = getattr(scenario, key)
    for key in ("deployment", "objectives", "scoring", "special_components"):
        if getattr(scenario, key):
            out[key] = _canonical(getattr(scenario, key))
    if scenario.budget is not None:
        out["budget"] = scenario.budget
    return out


def dump_document(document: dict[str, Any]) -> str:
    """JSON text with one row per line: small, stable and readable in a diff."""
    lines = ["{"]
    items = list(document.items())
    for i, (key, value) in enumerate(items):
        comma = "," if i < len(items) - 1 else ""
        if isinstance(value, list) and value:
            lines.append(f"  {json.dumps(key)}: [")
            rows = [_compact(row) for row in value]
            lines.extend(f"    {row}," for row in rows[:-1])
            lines.append(f"    {rows[-1]}")
            lines.append(f"  ]{comma}")
        else:
            lines.append(f"  {json.dumps(key)}: {_compact(value)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
