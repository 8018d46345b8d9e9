"""How each line of a pasted list was read: the line-by-line account both games return.

Every line of the input, blank ones included, gets exactly one `LineReading`, in order:
read as cards (the entries it produced, and why those cards), read as a header, section,
legend, title or footer, ignored as prose or as an extra that is not a card of the list,
or not read (no card, or several cards and nothing to choose between them). An organiser
sees at a glance what was understood; nothing is dropped silently.

Pure: importable without Django.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from armybuilder.findings import Finding, Severity
from common.i18n import Localizable


class LineKind(StrEnum):
    CARD = "card"  # one or more cards of the list (`refs`)
    HEADER = "header"  # Faction:, Points:, Commander:, Scenario:, a bare faction name
    SECTION = "section"  # a heading of one part of the list: Combat Units, NCUs, Heroes
    LEGEND = "legend"  # a line explaining the list's own notation: Units (Attachments)
    TITLE = "title"  # the list's name, the player, the event
    FOOTER = "footer"  # Made with …, a link, a total repeated at the end
    EXTRA = "extra"  # named but not a card of the list: terrain, objectives
    PROSE = "prose"  # a sentence about the list, ignored
    BLANK = "blank"
    UNKNOWN = "unknown"  # no card could be read from it (a CARD_UNKNOWN finding)
    AMBIGUOUS = "ambiguous"  # several cards fit and nothing chose (CARD_AMBIGUOUS)
    OTHER_LIST = "other_list"  # part of a second list pasted in the same text, not checked


# Lines that say something about the list but hold none of its cards.
NON_CARD_KINDS = frozenset(
    {
        LineKind.HEADER,
        LineKind.SECTION,
        LineKind.LEGEND,
        LineKind.TITLE,
        LineKind.FOOTER,
        LineKind.EXTRA,
        LineKind.PROSE,
        LineKind.BLANK,
        LineKind.OTHER_LIST,
    }
)


@dataclass(frozen=True)
class LineReading:
    """One input line and what became of it.

    `number` is 1-based, `text` the line as printed. `refs` are the entries read from it
    (a line can hold a unit and its attachments, or several NCUs), each of which says on
    its `ResultEntry` how its card was chosen. `note` says why a line that is not a card
    was read as it was (or, for a card line, anything more to know: a header it repeats).
    `candidates` are card ids the line could have named when it was left unread."""

    number: int
    text: str
    kind: LineKind
    refs: tuple[str, ...] = ()
    note: Localizable | None = None
    candidates: tuple[str, ...] = ()


def reading_finding(
    code: str,
    message: Localizable,
    *,
    severity: Severity = Severity.WARNING,
    entries: tuple[str, ...] = (),
    fix: Localizable | None = None,
    data: dict[str, Any] | None = None,
) -> Finding:
    """A finding about reading the text (rule `list-format`): a warning for an assumption
    the reader made, an error for what it could not read."""
    return Finding(
        code=code,
        rule="list-format",
        severity=severity,
        message=message,
        entries=entries,
        fix=fix,
        data=data or {},
    )
