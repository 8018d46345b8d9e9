"""Findings: what a validator says about a list, with the fixed codes of contracts §1.

A finding is plain data (no ORM, no request). Its message and fix are gettext messages
(`common.i18n._`), translated by the catalogue in locale/: the caller picks the language
when turning a finding into JSON or HTML, with `finding.message.in_language(lang)`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from common.i18n import Localizable


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True)
class Finding:
    code: str
    message: Localizable
    rule: str
    severity: Severity = Severity.ERROR
    entries: tuple[str, ...] = ()
    fix: Localizable | None = None
    data: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)


#: An empty army or warband: not legal, "empty" (each game's validator states it with its own
#: rule, written out so that scripts/finding_index.py finds it).
LIST_EMPTY = "LIST_EMPTY"


def is_legal(findings: list[Finding] | tuple[Finding, ...]) -> bool:
    return not any(finding.severity is Severity.ERROR for finding in findings)


@dataclass(frozen=True)
class Report:
    """What a validator returns, whatever the game: its findings, and the totals a game
    adds in a subclass. The list is legal when no finding is an error."""

    findings: tuple[Finding, ...]

    @property
    def legal(self) -> bool:
        return is_legal(self.findings)


# Every code of contracts §1, with the game it belongs to. Codes are public API: never
# rename one; add new ones here.
TMG_CODES = frozenset(
    {
        "LIST_UNPARSEABLE",
        "CARD_UNKNOWN",
        "CARD_AMBIGUOUS",
        "POINTS_OVER_LIMIT",
        "FACTION_MISMATCH",
        "NEUTRAL_CAP_EXCEEDED",
        "NEUTRALS_FORBIDDEN",
        "COMMANDER_MISSING",
        "COMMANDER_MULTIPLE",
        "ATTACHMENT_NO_HOST",
        "ATTACHMENT_LIMIT",
        "ATTACHMENT_TYPE_MISMATCH",
        "ATTACHMENT_ON_SOLO",
        "CHARACTER_DUPLICATE",
        "REQUIREMENT_UNMET",
        "REQUIREMENT_CONFLICT",
        "COPY_LIMIT",
        "TEAM_CHARACTER_DUPLICATE",
        # Added by Citadel: warnings of the list reader (every assumption it makes is said).
        "FACTION_INFERRED",  # no Faction line: the faction of the cards
        "POINTS_ASSUMED",  # no Points line: a size from the printed total, else 40
        "COST_DIFFERS",  # a printed cost is not the card's current cost
        "NAME_CORRECTED",  # a typo read as the closest card name
        "CARD_CHOSEN",  # several cards fit the name; a printed cost chose one
        "LINES_IGNORED",  # lines read as remarks, not cards
        "LIST_SEVERAL",  # a second list in the same text, not checked with this one
        "EVENT_SIZE_APPLIED",  # an event's game size replaced the one the list said
        # Added by Citadel (issue 14): a list with no card is "empty", not legal.
        "LIST_EMPTY",
    }
)
TACTICS_CODES = frozenset(
    {
        "LIST_UNPARSEABLE",
        "CARD_UNKNOWN",
        "CARD_AMBIGUOUS",
        "SCENARIO_UNKNOWN",
        "COIN_OVER_BUDGET",
        "FIGURE_CAP_EXCEEDED",
        "COIN_UNSPENT",
        "FACTION_MISMATCH",
        "SIGIL_CONFLICT",
        "NEUTRAL_LIMIT",
        "UNIQUE_DUPLICATE",
        "EQUIPMENT_NO_HOLDER",
        "EQUIPMENT_LIMIT",
        "EQUIPMENT_NOT_ALLOWED",
        "EQUIPMENT_UNIQUE",
        # Added by Citadel (contracts allow additions): data problems a hand-made card shows.
        "FIGURE_TYPE_MISMATCH",
        "CARD_COST_UNKNOWN",
        # Added by Citadel for reading pasted warbands (issue 12), all warnings: the reader
        # says every assumption it made. The same names are used for TMG lists.
        "COST_DIFFERS",  # a printed cost is not the card's current cost (the card's counts)
        "FACTION_INFERRED",  # no (known) Faction line: the faction of the figures was taken
        "NAME_CORRECTED",  # a misspelt name was read as the closest card
        "LINES_IGNORED",  # lines read as prose, or a second warband, left out
        "CARD_CHOSEN",  # a name matched several cards and a hint chose one (says which, why)
        "EVENT_SIZE_APPLIED",  # an event's budget replaced the one the warband said
        # Added by Citadel (issue 14): a warband with no card is "empty", not legal.
        "LIST_EMPTY",
    }
)
ALL_CODES = TMG_CODES | TACTICS_CODES
