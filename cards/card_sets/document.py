"""A card set as a `citadel-cards/1` document (docs/card-sets.md): import and export.

Import is all or nothing: the document is read and checked row by row first (the first bad
row stops it, with its number and the reason), then written in one transaction. Rows are
numbered from 1 in the order of the `cards` list (then `scenarios`, then `overrides`).
Export writes what import reads, so a set exported and imported again is unchanged.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from cards.importers.citadel_json import FORMAT, records_from_document
from cards.importers.records import CardImportError, CardRecord
from cards.models import Card, CardSet, Game

from .selectors import set_cards, set_overrides
from .services import (
    COINS,
    AbilityText,
    Attack,
    CardSetError,
    RowError,
    ScenarioInput,
    SetCardInput,
    local_id,
    save_set_cards,
    save_set_scenarios,
    set_cost_override,
)

MAX_DOCUMENT_BYTES = 2_000_000


@dataclass(frozen=True)
class ImportResult:
    created: int
    updated: int
    unchanged: int
    scenarios: int
    overrides: int


def parse_document(text: str | bytes) -> Any:
    """The JSON of an uploaded or pasted document; `CardSetError` when it is not JSON."""
    if isinstance(text, bytes):
        if len(text) > MAX_DOCUMENT_BYTES:
            raise CardSetError(_("The file is too large (2 MB at most)."), code="size")
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise CardSetError(_("The file is not UTF-8 text."), code="encoding") from exc
    if len(text) > MAX_DOCUMENT_BYTES:
        raise CardSetError(_("The text is too long (2 MB at most)."), code="size")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise CardSetError(
            _("Line %(line)d: not valid JSON (%(reason)s).")
            % {"line": exc.lineno, "reason": exc.msg},
            rows=[RowError(exc.lineno, exc.msg)],
            code="json",
        ) from exc
    except RecursionError as exc:
        raise CardSetError(_("The JSON is nested too deeply."), code="json") from exc


_ROW = re.compile(r"^(cards|scenarios)\[(\d+)\]")


def _row_error(exc: CardImportError) -> CardSetError:
    where = str(exc.row or "")
    match = _ROW.match(where)
    if match is None:
        return CardSetError(_("The document: %(reason)s") % {"reason": exc.reason}, code="document")
    row = int(match.group(2)) + 1
    label = _("Row %(row)d") if match.group(1) == "cards" else _("Scenario %(row)d")
    return CardSetError(
        f"{label % {'row': row}}: {exc.reason}", rows=[RowError(row, exc.reason)], code="row"
    )


def _abilities(item: Any) -> tuple[AbilityText, ...]:
    found = []
    for ability in (item.get("abilities") or []) if isinstance(item, dict) else []:
        if isinstance(ability, str):
            found.append(AbilityText(name=ability))
        elif isinstance(ability, dict):
            name = ability.get("name")
            name = name.get("en", "") if isinstance(name, dict) else str(name or "")
            text = ability.get("text")
            text = text.get("en", "") if isinstance(text, dict) else str(text or "")
            found.append(AbilityText(name=name or str(ability.get("key") or ""), text=text))
    return tuple(a for a in found if a.name)


def _card_input(record: CardRecord, item: dict) -> SetCardInput:
    return SetCardInput(
        kind=record.kind,
        card_id=record.external_id,
        name_en=record.name_en,
        name_fr=record.name_fr,
        title_en=record.title_en,
        title_fr=record.title_fr,
        faction=record.faction,
        sigil=record.sigil,
        character=record.characters[0] if record.characters else "",
        mounted=record.mounted,
        gold=record.gold,
        silver=record.silver,
        copper=record.copper,
        will=record.will,
        defense=record.defense,
        wounds=record.wounds,
        attacks=tuple(
            Attack(
                name=a.get("name_en") or "",
                range=a["range"],
                ap=a.get("ap"),
                dice=a.get("dice"),
                to_hit=a.get("to_hit"),
            )
            for a in record.attacks
        ),
        abilities=_abilities(item),
        carriers=tuple(record.carriers),
        unique=record.is_unique,
        infantry_only=bool(item.get("infantry_only")),
        version=record.version,
    )


def _coins(value: Any, where: str, row: int) -> tuple[int, int, int] | None:
    if value is None:
        return None
    if not isinstance(value, dict) or not all(
        isinstance(value.get(c, 0), int) and not isinstance(value.get(c, 0), bool) for c in COINS
    ):
        reason = _("%(where)s must be an object of gold, silver and copper numbers") % {
            "where": where
        }
        raise CardSetError(
            _("Scenario %(row)d: %(reason)s") % {"row": row, "reason": reason},
            rows=[RowError(row, reason)],
            code="row",
        )
    return (value.get("gold", 0), value.get("silver", 0), value.get("copper", 0))


def _text(value: Any) -> str:
    if isinstance(value, dict):
        return str(value.get("en") or "")
    return "" if value is None else str(value)


def _text_fr(value: Any) -> str:
    return str(value.get("fr") or "") if isinstance(value, dict) else ""


def _scenario_inputs(document: dict) -> list[ScenarioInput]:
    inputs = []
    for index, item in enumerate(document.get("scenarios") or [], start=1):
        inputs.append(
            ScenarioInput(
                scenario_id=_text(item.get("id")),
                name_en=_text(item.get("name")),
                name_fr=_text_fr(item.get("name")),
                summary_en=_text(item.get("summary")),
                summary_fr=_text_fr(item.get("summary")),
                special_rules_en=_text(item.get("special_rules")),
                special_rules_fr=_text_fr(item.get("special_rules")),
                budget=_coins(item.get("budget"), "budget", index),
                budget_b=_coins(item.get("budget_b"), "budget_b", index),
                side_a=_text(item.get("side_a")),
                side_b=_text(item.get("side_b")),
                rounds=item.get("rounds") if isinstance(item.get("rounds"), int) else None,
            )
        )
    return inputs


def _overrides(document: dict) -> list[tuple[Card, tuple[int, int, int]]]:
    found = []
    items = document.get("overrides") or []
    if not isinstance(items, list):
        raise CardSetError(_("'overrides' must be a list."), code="document")
    for row, item in enumerate(items, start=1):
        card_id = item.get("card") if isinstance(item, dict) else None
        card = Card.objects.filter(
            game=Game.TACTICS, external_id=str(card_id or ""), card_set__isnull=True
        ).first()
        if card is None:
            reason = _("no shipped Tactics card has the id %(id)s") % {"id": card_id}
            raise CardSetError(
                _("Override %(row)d: %(reason)s") % {"row": row, "reason": reason},
                rows=[RowError(row, reason)],
                code="row",
            )
        found.append((card, _coins(item.get("cost"), "cost", row) or (0, 0, 0)))
    return found


def import_set_document(*, card_set: CardSet, document: Any) -> ImportResult:
    """Add (or update, by id) the cards, scenarios and cost overrides of a document to a
    set; all or nothing."""
    if not isinstance(document, dict):
        raise CardSetError(_("The document is not a JSON object."), code="document")
    document = {**document, "format": document.get("format") or FORMAT}
    if document.get("game") not in (None, Game.TACTICS):
        raise CardSetError(_("A card set holds Tactics cards: 'game' must be tactics."))
    document = {**document, "game": Game.TACTICS, "factions": [], "characters": []}
    document.pop("abilities", None)
    items = document.get("cards") or []
    try:
        records = records_from_document({**document, "scenarios": []}, file="document")
    except CardImportError as exc:
        raise _row_error(exc) from exc
    cards = [_card_input(r, item) for r, item in zip(records.cards, items, strict=True)]
    scenarios = _scenario_inputs(document)
    with transaction.atomic():
        summary = save_set_cards(card_set=card_set, values=cards)
        save_set_scenarios(card_set=card_set, values=scenarios)
        overrides = _overrides(document)
        for card, (gold, silver, copper) in overrides:
            set_cost_override(card_set=card_set, card=card, gold=gold, silver=silver, copper=copper)
    return ImportResult(
        created=summary.created,
        updated=summary.updated,
        unchanged=summary.unchanged,
        scenarios=len(scenarios),
        overrides=len(overrides),
    )


# --- export -------------------------------------------------------------------------------------


def _names(en: str, fr: str) -> dict[str, str]:
    return {"en": en, "fr": fr} if fr else {"en": en}


def _card_out(card_set: CardSet, card: Card) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": local_id(card_set, card),
        "kind": card.kind,
        "faction": card.faction.slug if card.faction else None,
        "name": _names(card.name_en, card.name_fr),
    }
    if card.title_en or card.title_fr:
        out["title"] = _names(card.title_en, card.title_fr)
    characters = [c.key for c in card.characters.all()]
    if characters:
        out["character"] = characters[0]
    if card.kind != "equipment":
        out["mounted"] = card.mounted
    if card.has_known_cost:
        out["cost"] = card.coins()
    for key in ("will", "defense", "wounds"):
        if getattr(card, key) is not None:
            out[key] = getattr(card, key)
    if card.attacks:
        out["attacks"] = [
            {
                "name": a.get("name_en") or "",
                "range": a.get("range"),
                **{k: a[k] for k in ("ap", "dice", "to_hit") if a.get(k) is not None},
            }
            for a in card.attacks
        ]
    if card.extra.get("abilities"):
        out["abilities"] = card.extra["abilities"]
    if card.kind == "equipment":
        out["carriers"] = list(card.carriers)
        out["unique"] = card.is_unique
        if card.extra.get("infantry_only"):
            out["infantry_only"] = True
    return out


def _scenario_out(card_set: CardSet, scenario) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": scenario.slug.removeprefix(f"{card_set.slug}."),
        "name": _names(scenario.name_en, scenario.name_fr),
    }
    if scenario.summary_en:
        out["summary"] = _names(scenario.summary_en, scenario.summary_fr)
    if scenario.special_rules_en:
        out["special_rules"] = _names(scenario.special_rules_en, scenario.special_rules_fr)
    if scenario.budget:
        out["budget"] = scenario.budget
    if scenario.is_asymmetric:
        out["budget_b"] = scenario.budget_for("b")
        out["side_a"], out["side_b"] = scenario.side_a_en, scenario.side_b_en
    return out


def export_set_document(card_set: CardSet) -> dict[str, Any]:
    """The set as a citadel-cards/1 document that `import_set_document` reads back."""
    return {
        "format": FORMAT,
        "game": card_set.game,
        "source": f"card-set:{card_set.slug}",
        "set": {
            "name": card_set.name,
            "description": card_set.description,
            "licence_note": card_set.licence_note,
            "factions": sorted(f.slug for f in card_set.factions.all()),
            "example": card_set.is_example,
        },
        "cards": [_card_out(card_set, card) for card in set_cards(card_set)],
        "scenarios": [_scenario_out(card_set, s) for s in card_set.scenarios.order_by("slug")],
        "overrides": [
            {"card": o.card.external_id, "cost": {c: getattr(o, c) for c in COINS}}
            for o in set_overrides(card_set)
        ],
    }
