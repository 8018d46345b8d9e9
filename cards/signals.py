"""What the card database tells the layers above it.

`card_versions_changed` is sent by `cards.services.import_card_records` once its
transaction has committed, when the import moved at least one card to another
`CardVersion` (a new card, changed stats, or data set back to an older printing). Its
`changes` argument is a tuple of `VersionChange`; `source` is the import's source label.
Importing the same data again changes no version and sends nothing.

The saved lists' errata-impact report (`armybuilder.errata`) listens to it; the cards app
knows nothing of who listens.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.dispatch import Signal


@dataclass(frozen=True)
class VersionChange:
    """One card whose current version an import moved."""

    card_id: int  # Card pk
    old_version_id: int | None  # CardVersion pk before the import; None for a new card
    new_version_id: int  # CardVersion pk the card's columns hold now


#: send(sender=CardVersion, changes=tuple[VersionChange, ...], source=str)
card_versions_changed = Signal()
