"""Read access to cards. Views, the API and the validators' loaders read through here."""

from django.db.models import Count, QuerySet

from .models import Card, Faction, Scenario


def card_counts_by_game() -> dict[str, int]:
    rows = Card.objects.values("game").annotate(n=Count("id")).order_by()
    return {row["game"]: row["n"] for row in rows}


def cards_with_relations() -> QuerySet[Card]:
    return Card.objects.select_related("faction", "sigil", "commander_card").prefetch_related(
        "characters", "card_abilities__ability"
    )


def factions(*, game: str | None = None) -> QuerySet[Faction]:
    qs = Faction.objects.all()
    return qs.filter(game=game) if game else qs


def scenarios(*, game: str | None = None) -> QuerySet[Scenario]:
    qs = Scenario.objects.all()
    return qs.filter(game=game) if game else qs
