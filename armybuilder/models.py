"""Models of the armybuilder app: the saved lists live in armybuilder.lists."""

from armybuilder.lists.models import ArmyList, EntryRole, ListEntry, ListGame, Visibility

__all__ = ["ArmyList", "EntryRole", "ListEntry", "ListGame", "Visibility"]
