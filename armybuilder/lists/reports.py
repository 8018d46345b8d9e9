"""A saved list's check, whatever its game: the one door the PDF export and tournament
code use (each game's selectors build the draft from the saved entries)."""

from __future__ import annotations

from collections.abc import Callable

from armybuilder.result import CheckResult
from cards.models import Game

from . import selectors, tactics_selectors
from .models import ArmyList

_REPORTS: dict[str, Callable[..., CheckResult]] = {
    Game.TMG: selectors.list_report,
    Game.TACTICS: tactics_selectors.warband_report,
}


def saved_list_report(army_list: ArmyList, *, lang: str = "en") -> CheckResult:
    """Legality of a saved list or warband, recomputed now from current card data."""
    return _REPORTS[army_list.game](army_list, lang=lang)
