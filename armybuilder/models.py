"""Models of the armybuilder app: the saved lists live in armybuilder.lists."""

from django.conf import settings
from django.db import models

from armybuilder.lists.models import ArmyList, EntryRole, ListEntry, ListGame, Visibility
from cards.models import Card

__all__ = ["ArmyList", "Collection", "EntryRole", "ListEntry", "ListGame", "Visibility"]


class Collection(models.Model):
    """The Tactics cards a player owns. When a player has one, the "spend as much gold and
    silver as possible" rule (TW-06) only counts cards from it as still buyable."""

    owner = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="collection"
    )
    cards = models.ManyToManyField(Card, blank=True, related_name="collections")
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"collection of {self.owner}"
