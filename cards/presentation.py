"""What card pages and printed army lists show of a card: attacks, recorded stats, requirements.

The card views render these, and the PDF army list (exports) prints the same attack rows:
they live here, outside the views, because no app imports another app's views.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext_lazy as _

from common.i18n import localized

from . import selectors
from .models import Card, CardKind
from .requirements import describe
from .versions import stat_changes

RANGE_LABELS = {
    "melee": _("Melee"),
    "short": _("Short range"),
    "long": _("Long range"),
    "ranged": _("Ranged"),
}
# Attack dice by remaining ranks, coloured as printed: green, yellow, red.
RANK_CLASSES = ("rank-full", "rank-one-lost", "rank-two-lost")
STAT_LABELS = {
    "points": _("Points"),
    "speed": _("Speed"),
    "defense": _("Defense"),
    "morale": _("Morale"),
    "wounds": _("Wounds"),
    "will": _("Will"),
    "gold": _("Gold"),
    "silver": _("Silver"),
    "copper": _("Copper"),
    "unit_type": _("Unit type"),
    "tray": _("Tray"),
    "attacks": _("Attacks"),
}


def _dice_cells(dice: Any) -> list[dict]:
    if isinstance(dice, list):
        return [
            {"value": value, "rank": RANK_CLASSES[i] if i < len(RANK_CLASSES) else ""}
            for i, value in enumerate(dice)
        ]
    return [{"value": dice, "rank": ""}] if dice is not None else []


def attack_rows(card: Card, lang: str) -> list[dict]:
    """The card's attacks, ready to print: name, range, to-hit, dice per rank, Tactics extras."""
    rows = []
    for attack in card.attacks or []:
        if not isinstance(attack, dict):
            continue
        upgrades = [
            {"cost": upgrade.get("cost"), "effect": localized(upgrade, "effect", lang)}
            for upgrade in attack.get("upgrades") or []
            if isinstance(upgrade, dict)
        ]
        range_key = str(attack.get("range") or "")
        rows.append(
            {
                "name": localized(attack, "name", lang) or attack.get("name") or "",
                "range": RANGE_LABELS.get(range_key, range_key),
                "range_key": range_key,
                "to_hit": attack.get("to_hit"),
                "dice": _dice_cells(attack.get("dice")),
                "ap": attack.get("ap"),
                "spend": attack.get("spend"),
                "upgrades": upgrades,
            }
        )
    return rows


def _attack_summary(attack: dict) -> str:
    dice = attack.get("dice")
    dice_text = "/".join(str(d) for d in dice) if isinstance(dice, list) else str(dice or "")
    to_hit = f"{attack['to_hit']}+" if attack.get("to_hit") is not None else ""
    parts = " ".join(p for p in (str(attack.get("range") or ""), to_hit, dice_text) if p)
    return f"{attack.get('name_en') or attack.get('name') or '?'} ({parts})"


def _stat_value(key: str, value) -> str:
    if key == "attacks" and isinstance(value, list):
        return "; ".join(_attack_summary(a) for a in value if isinstance(a, dict))
    if key == "requirements" and isinstance(value, list):
        return ", ".join(str(r.get("type")) for r in value if isinstance(r, dict))
    if isinstance(value, list | dict):
        text = json.dumps(value, ensure_ascii=False)
        return text if len(text) <= 80 else text[:77] + "…"
    return str(value)


def stats_rows(stats: dict) -> list[dict]:
    """A recorded version's stats snapshot as (label, value) rows, in the order of
    `STAT_LABELS`; stats the card does not have (the other game's fields) and fields that
    are no stat (names, flags, keys) are left out."""
    if not isinstance(stats, dict):
        return []
    return [
        {"label": label, "value": _stat_value(key, stats[key])}
        for key, label in STAT_LABELS.items()
        if stats.get(key) not in (None, "", [], {})
    ]


def version_history(card: Card, lang: str) -> list[dict]:
    """The card's recorded versions, oldest first, each with what changed since the one
    before it in words ("points 6 → 7", "abilities: + Vicious"), in `lang`; the first with
    its main stats. Never a raw field name or key."""
    versions = list(card.versions.all())
    if not versions:
        return []
    kinds = {value: str(label) for value, label in CardKind.choices}
    names = {**kinds, **selectors.faction_names(lang), **selectors.ability_names(lang)}
    history = []
    previous = None
    for version in versions:
        changes = stat_changes(previous.stats, version.stats) if previous is not None else ()
        history.append(
            {
                "version": version,
                "current": version.pk == card.current_version_id,
                "stats": stats_rows(version.stats) if previous is None else [],
                "changes": [change.describe(lang, names) for change in changes],
            }
        )
        previous = version
    return history


def requirement_text(
    record: Any, lang: str, *, card_name: Callable[[str], str] | None = None
) -> str:
    """One structured requirement in words (`cards.requirements.describe`), or its record
    type when it cannot be described (an unknown type or a malformed record)."""
    try:
        text = describe(record, lang, card_name=card_name)
    except (AttributeError, KeyError, TypeError, ValueError):
        text = ""
    if text:
        return text
    return str(record.get("type", record)) if isinstance(record, dict) else str(record)


def requirement_lines(card: Card, lang: str) -> list[str]:
    """Each of the card's requirements in words, naming the cards it points at."""

    def card_name(external_id: str) -> str:
        return selectors.card_display_name(card.game, external_id, lang)

    return [
        requirement_text(record, lang, card_name=card_name) for record in card.requirements or []
    ]
