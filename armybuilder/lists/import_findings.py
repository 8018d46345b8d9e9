"""What importing a list into the builder reports beyond what reading its text finds:
cards dropped past the size cap, card ids (War Council, Tactics) the pool does not know.
Pure findings, with gettext messages like the validators'."""

from __future__ import annotations

from armybuilder.findings import Finding, Severity
from armybuilder.listtext.reading import reading_finding
from common.i18n import _


def too_many(count: int, *, kept: int) -> list[Finding]:
    """The finding an import reports when it kept only the first `kept` cards."""
    if count <= kept:
        return []
    return [
        reading_finding(
            "LIST_UNPARSEABLE",
            severity=Severity.ERROR,
            message=_("only the first {kept} of {count} cards were kept", kept=kept, count=count),
        )
    ]


def unknown_war_council_id(card_id: str) -> Finding:
    return reading_finding(
        "CARD_UNKNOWN",
        severity=Severity.ERROR,
        message=_("no card with the War Council id {card}", card=card_id),
        entries=(f"id-{card_id}",),
    )


def unknown_tactics_card(card_id: str) -> Finding:
    return reading_finding(
        "CARD_UNKNOWN",
        severity=Severity.ERROR,
        message=_("no Tactics card {card}", card=card_id),
    )
