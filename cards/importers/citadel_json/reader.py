"""Reading a `citadel-cards/1` document: validate every field, produce `ImportRecords`.

Every failure is a `CardImportError` naming the file and the JSON path (or, for a
document the community-data importer built, the source file and row).
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
    UNIT_STAT_FIELDS,
    CardKind,
    Game,
    ScenarioKind,
    Tray,
    UnitType,
)
from cards.normalise import slug_key
from cards.requirements import (
    FACTION_RULE_TYPES,
    RECORD_CLASSES,
    RequirementSyntaxError,
    UnknownRecordType,
    parse_requirements,
)

from ..records import (
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
from .schema import EXTRA_CARD_FIELDS, FORMAT

_Implied = TypeVar("_Implied", CharacterRecord, AbilityRecord)

GAMES = frozenset(Game.values)
CARD_KINDS = frozenset(CardKind.values)
UNIT_TYPES = frozenset(UnitType.values)
TRAYS = frozenset(Tray.values)
SCENARIO_KINDS = frozenset(ScenarioKind.values)
TMG_RANGES = frozenset({"melee", "short", "long"})
TACTICS_RANGES = frozenset({"melee", "ranged"})

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
        *UNIT_STAT_FIELDS,
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
    except RecursionError as exc:
        raise CardImportError(path.name, None, "invalid JSON: nested too deeply") from exc
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
    if default_game is not None and (
        not isinstance(default_game, str) or default_game not in GAMES
    ):
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
    rules' types (`cards.requirements.FACTION_RULE_TYPES`).
    """
    return {**dict.fromkeys(RECORD_CLASSES, frozenset()), **FACTION_RULE_TYPES}


_REQUIREMENT_TYPES = known_requirement_types()


class _DocumentReader:
    """Field-by-field validation; every failure names the file and the JSON path."""

    def __init__(self, *, file: str, default_game: str | None, origins: Mapping[str, Origin]):
        self.file = file
        self.default_game = default_game
        self.origins = origins
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

    def texts(self, item: dict, key: str, where: str, *, required: bool = False) -> dict[str, str]:
        """`i18n` as the record fields `<key>_en` and `<key>_fr`."""
        en, fr = self.i18n(item, key, where, required=required)
        return {f"{key}_en": en, f"{key}_fr": fr}

    def prose(self, item: dict, key: str, where: str) -> dict[str, str | None]:
        """Like `texts`, but an absent key (a stats-only file) is None: keep stored text."""
        if key not in item:
            return {f"{key}_en": None, f"{key}_fr": None}
        return self.texts(item, key, where)

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
        if not isinstance(game, str) or game not in GAMES:
            raise self.fail(where, f"unknown game {game!r}")
        return game

    # ---- sections

    def faction(self, item: Any, where: str) -> FactionRecord:
        item = self.obj(item, where)
        slug = self.text(item, "id", where, required=True)
        names = self.texts(item, "name", where, required=True)
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
            **names,
            is_neutral=slug == "neutral" if neutral is None else self.flag(item, "neutral", where),
            warcouncil_code=self.count(item, "warcouncil_code", where),
            sort_order=_or_default(self.count(item, "order", where), 100),
            sigils=sigils,
        )

    def character(self, item: Any, where: str) -> CharacterRecord:
        item = self.obj(item, where)
        names = self.texts(item, "name", where, required=True)
        key = self.text(item, "key", where) or slug_key(names["name_en"])
        return CharacterRecord(key=key, **names)

    def ability(self, item: Any, where: str) -> AbilityRecord:
        item = self.obj(item, where)
        names = self.texts(item, "name", where, required=True)
        text = self.prose(item, "text", where)
        trigger = self.prose(item, "trigger", where)
        return AbilityRecord(
            game=self.game_of(item, where),
            key=self.text(item, "key", where) or slug_key(names["name_en"]),
            **names,
            **text,
            **trigger,
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
        names = self.texts(item, "name", where, required=True)
        titles = self.texts(item, "title", where)
        text = self.prose(item, "text", where)
        trigger = self.prose(item, "trigger", where)
        faction = item.get("faction")
        if faction is not None and not isinstance(faction, str):
            raise self.fail(where, "'faction' must be a slug or null")
        characters = self.strings(item, "characters", where)
        if item.get("character"):
            characters += [c for c in self.strings(item, "character", where) if c not in characters]
        for key in characters:
            self._character_names.setdefault(key, (names["name_en"], names["name_fr"]))
        record = CardRecord(
            game=game,
            external_id=external_id,
            kind=kind,
            faction=faction or None,
            sigil=self.text(item, "sigil", where) or None,
            **names,
            **titles,
            version=self.text(item, "version", where),
            characters=characters,
            is_character=self.flag(item, "is_character", where) or bool(characters),
            abilities=self._card_abilities(item, game, where),
            requirements=self._requirements(item, external_id, where),
            boxes=self.strings(item, "boxes", where),
            **text,
            **trigger,
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

    def _attack_head(
        self, attack: Any, where: str, ranges: frozenset[str]
    ) -> tuple[dict, dict[str, Any]]:
        """The attack object, and its name and range (what both games' attacks carry)."""
        attack = self.obj(attack, where)
        names = self.texts(attack, "name", where)
        attack_range = self.text(attack, "range", where, required=True)
        if attack_range not in ranges:
            raise self.fail(where, f"unknown attack range {attack_range!r}")
        return attack, {**names, "range": attack_range}

    def _tmg_attack(self, attack: Any, where: str) -> dict[str, Any]:
        attack, head = self._attack_head(attack, where, TMG_RANGES)
        dice = attack.get("dice") or []
        if isinstance(dice, int) and not isinstance(dice, bool):
            dice = [dice]
        if not isinstance(dice, list) or not all(
            isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in dice
        ):
            raise self.fail(where, "'dice' must be a list of non-negative integers")
        return {**head, "to_hit": self.count(attack, "to_hit", where), "dice": dice}

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
        attack, head = self._attack_head(attack, where, TACTICS_RANGES)
        upgrades = []
        for j, upgrade in enumerate(attack.get("upgrades") or []):
            upgrade = self.obj(upgrade, f"{where}.upgrades[{j}]")
            effect = self.texts(upgrade, "effect", where)
            upgrades.append({"cost": self.count(upgrade, "cost", where), **effect})
        counts = {key: self.count(attack, key, where) for key in ("ap", "dice", "to_hit", "spend")}
        return {**head, **counts, "upgrades": upgrades}

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
        for j, record in enumerate(value):
            record = self.obj(record, f"{where}.requirements[{j}]")
            kind = record.get("type")
            if not isinstance(kind, str) or kind not in _REQUIREMENT_TYPES:
                raise self.fail(where, f"unknown requirement type {kind!r}")
            if kind in RECORD_CLASSES:
                try:
                    RECORD_CLASSES[kind].from_record(record)
                except (KeyError, TypeError, ValueError, UnknownRecordType) as exc:
                    raise self.fail(where, f"malformed {kind!r} requirement: {exc}") from exc
            missing = _REQUIREMENT_TYPES[kind] - record.keys()
            if missing:
                raise self.fail(where, f"{kind!r} requirement lacks {sorted(missing)}")
        return value

    def scenario(self, item: Any, where: str) -> ScenarioRecord:
        item = self.obj(item, where)
        game = self.game_of(item, where)
        slug = self.text(item, "id", where, required=True)
        default_kind = ScenarioKind.GAME_MODE if game == Game.TMG else ScenarioKind.SCENARIO
        kind = self.choice(item, "kind", where, SCENARIO_KINDS) or default_kind
        names = self.texts(item, "name", where, required=True)
        summary = self.texts(item, "summary", where)
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
            **names,
            **summary,
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
