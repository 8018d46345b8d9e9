"""The reads the documents make: one list, the cards it names, one section or book."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import QuerySet

from armybuilder.lists.models import ArmyList
from cards.models import Card, Faction
from events.models import EventList
from rules.models import Rulebook, Section


def _as_id(value) -> int | None:
    if isinstance(value, bool):
        return None
    try:
        number = int(value)
    except (TypeError, ValueError):
        return None
    return number if number > 0 else None


def army_list_by_id(list_id) -> ArmyList | None:
    """Any saved list: who may export it was checked when the export was requested."""
    pk = _as_id(list_id)
    if pk is None:
        return None
    return ArmyList.objects.select_related("faction", "scenario").filter(pk=pk).first()


def latest_event_list(army_list: ArmyList) -> EventList | None:
    """The newest event submission of a saved list (its fingerprint goes on the sheet)."""
    return (
        EventList.objects.select_related("player__event")
        .filter(saved_list=army_list)
        .order_by("-submitted_at", "-id")
        .first()
    )


def cards_by_external_id(game: str, external_ids: Iterable[str]) -> dict[str, Card]:
    """The cards a document prints, with everything their reference block shows."""
    cards = (
        Card.objects.filter(game=game, external_id__in=set(external_ids))
        .select_related("faction")
        .prefetch_related("card_abilities__ability")
    )
    return {card.external_id: card for card in cards}


def faction_by_slug(game: str, slug: str | None) -> Faction | None:
    if not slug:
        return None
    return Faction.objects.filter(game=game, slug=slug).first()


def section_by_id(section_id) -> Section | None:
    pk = _as_id(section_id)
    if pk is None:
        return None
    return Section.objects.select_related("book").defer("book__raw_text").filter(pk=pk).first()


def rulebook_by_id(rulebook_id) -> Rulebook | None:
    pk = _as_id(rulebook_id)
    if pk is None:
        return None
    return Rulebook.objects.defer("raw_text").filter(pk=pk).first()


def printed_sections(book: Rulebook) -> QuerySet[Section]:
    """Every section of the book in reading order, with the text a printed book needs."""
    return book.sections.only(
        "id", "slug", "heading", "depth", "kind", "parent_id", "position", "body"
    ).order_by("position")
