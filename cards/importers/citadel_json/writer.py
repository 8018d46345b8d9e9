"""Writing the card database of one game as a `citadel-cards/1` document, and dumping it.

`document_from_database` builds the document (optionally without any prose: what remains
may be committed and shipped); `dump_document` writes it with a stable key order and one
row per line, so regenerating gives an identical file.
"""

from __future__ import annotations

import json
from typing import Any

from cards.models import TMG_KINDS, Ability, Card, Character, Faction, Scenario

from .schema import EXTRA_CARD_FIELDS, FORMAT, PROSE_KEYS


def document_from_database(*, game: str, stats_only: bool, source: str) -> dict[str, Any]:
    """The whole card pool of one game as a citadel-cards/1 document.

    `stats_only` leaves out every prose field (card and ability text, triggers, scenario
    summaries, attack-upgrade effects): what remains may be committed and shipped.
    """
    # Sorted in Python, not by the database: collations differ between SQLite and PostgreSQL.
    cards = sorted(
        Card.objects.filter(game=game, card_set__isnull=True)  # players' sets: their own export
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
                Scenario.objects.filter(game=game, card_set__isnull=True),
                key=lambda s: (s.sort_order, s.slug),
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
