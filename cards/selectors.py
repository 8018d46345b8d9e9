"""Read access to cards. Views, the API and the validators' loaders read through here."""

from __future__ import annotations

import threading
import time

from django.db.models import Count, Max, Prefetch, QuerySet

from .card_sets.selectors import User, visible_scenarios
from .faction_rules import army_rules_for_faction
from .models import (
    FIGURE_KINDS,
    Ability,
    Card,
    CardVersion,
    Faction,
    Game,
    Scenario,
    ScenarioKind,
)


def card_counts_by_game() -> dict[str, int]:
    rows = Card.objects.values("game").annotate(n=Count("id")).order_by()
    return {row["game"]: row["n"] for row in rows}


# How often a process re-reads the card data's fingerprint (card_data_version).
VERSION_RECHECK_SECONDS = 5.0
_version_lock = threading.Lock()
_version: dict = {"value": "", "checked": float("-inf")}


def card_data_version() -> str:
    """Changes whenever a card or faction is added, removed or updated (imports and the
    admin touch `updated_at`); read from the database at most every few seconds per
    process. Keys the cached search answers (cards.api.views)."""
    now = time.monotonic()
    with _version_lock:
        if now - _version["checked"] < VERSION_RECHECK_SECONDS:
            return _version["value"]
    cards = Card.objects.aggregate(n=Count("id"), newest=Max("updated_at"), top=Max("id"))
    factions = Faction.objects.aggregate(n=Count("id"), top=Max("id"))
    value = f"{cards['n']}.{cards['top']}.{cards['newest']}.{factions['n']}.{factions['top']}"
    with _version_lock:
        _version.update(value=value, checked=now)
    return value


def forget_card_data_version() -> None:
    """Read the fingerprint again on next use (tests that change cards and search at once)."""
    with _version_lock:
        _version["checked"] = float("-inf")


def cards_with_relations() -> QuerySet[Card]:
    return Card.objects.select_related("faction", "sigil", "commander_card").prefetch_related(
        "characters", "card_abilities__ability"
    )


def cards_for_listing() -> QuerySet[Card]:
    """What a result row shows: the card and its faction, nothing prefetched."""
    return Card.objects.select_related("faction")


def filter_cards(
    queryset: QuerySet[Card],
    *,
    game: str | None = None,
    faction: str | None = None,
    kind: str | None = None,
) -> QuerySet[Card]:
    """Narrow a card queryset by the browser's select boxes (empty values are ignored)."""
    return _narrowed(queryset, game=game, faction__slug=faction, kind=kind)


def _narrowed(queryset: QuerySet, **filters: str | None) -> QuerySet:
    """The queryset filtered by the given values; empty ones (None, "") filter nothing."""
    return queryset.filter(**{lookup: value for lookup, value in filters.items() if value})


def card_detail_queryset() -> QuerySet[Card]:
    """One card with everything its page or API detail shows, in a fixed number of queries."""
    return Card.objects.select_related(
        "faction",
        "sigil",
        "commander_card",
        "commander_card__faction",
        "replaces",
        "card_set",
        "card_set__owner",
    ).prefetch_related(
        "characters",
        "card_abilities__ability",
        Prefetch("versions", queryset=CardVersion.objects.order_by("recorded_at", "version")),
        Prefetch(
            "commander_tactics",
            queryset=Card.objects.select_related("faction").order_by("name_en"),
        ),
    )


def card_by_external_id(game: str, external_id: str) -> Card | None:
    return card_detail_queryset().filter(game=game, external_id=external_id).first()


def card_by_pk(pk: int) -> Card | None:
    return card_detail_queryset().filter(pk=pk).first()


def card_display_name(game: str, external_id: str, lang: str = "en") -> str:
    """ "Name - Title" of the card with this external id, or "" when there is none."""
    card = Card.objects.filter(game=game, external_id=external_id).first()
    return card.full_name(lang) if card else ""


def cards_sharing_characters(card: Card) -> list[Card]:
    """The other cards of the same character(s): every version of that person, both games."""
    character_ids = [character.pk for character in card.characters.all()]
    if not character_ids:
        return []
    return list(
        Card.objects.filter(characters__in=character_ids)
        .exclude(pk=card.pk)
        .select_related("faction")
        .distinct()
        .order_by("game", "name_en", "title_en", "version")
    )


def mounted_counterparts(card: Card, others: list[Card] | None = None) -> list[Card]:
    """Tactics figures: the mounted (or on-foot) card of the same character."""
    if card.game != Game.TACTICS or card.kind not in FIGURE_KINDS:
        return []
    if others is None:
        others = cards_sharing_characters(card)
    return [
        other
        for other in others
        if other.game == Game.TACTICS
        and other.kind in FIGURE_KINDS
        and other.mounted != card.mounted
    ]


def _faction_forbids_neutrals(slug: str) -> bool:
    """Whether the faction's army rules (cards.faction_rules) hold a "no_neutrals" record."""
    return any(record["type"] == "no_neutrals" for record in army_rules_for_faction(slug))


def factions_that_may_field(card: Card) -> list[Faction]:
    """The factions whose lists may include this card.

    A faction card: its own faction. A neutral card: every faction of its game except those
    whose rules forbid neutrals (TMG Free Folk). A card without faction (Tactics equipment):
    every faction of its game.
    """
    faction = card.faction
    if faction is not None and not faction.is_neutral:
        return [faction]
    candidates = list(Faction.objects.filter(game=card.game))
    if card.game != Game.TMG:
        return candidates
    return [f for f in candidates if f.is_neutral or not _faction_forbids_neutrals(f.slug)]


def factions_with_sigils(*, game: str | None = None, slug: str | None = None) -> QuerySet[Faction]:
    """Factions, of one game and with one slug when given, their sigils prefetched."""
    return _narrowed(Faction.objects.prefetch_related("sigils"), game=game, slug=slug)


def faction_choices() -> list[tuple[str, str, str]]:
    """(slug, English name, French name) of every faction slug, once each, in display order."""
    seen: dict[str, tuple[str, str, str]] = {}
    for faction in Faction.objects.order_by("sort_order", "slug", "game"):
        seen.setdefault(faction.slug, (faction.slug, faction.name_en, faction.name_fr))
    return list(seen.values())


def scenarios(*, game: str | None = None, slug: str | None = None) -> QuerySet[Scenario]:
    """Shipped scenarios, of one game and with one slug when given (a player's set shows
    its own scenarios)."""
    return _narrowed(Scenario.objects.filter(card_set__isnull=True), game=game, slug=slug)


def scenarios_grouped(user: User = None) -> dict[str, list[Scenario]]:
    """Scenarios for the scenarios page: TMG game modes, Tactics sizes, Tactics scenarios,
    and the scenarios of the players' sets `user` may list (published ones, their own)."""
    rows = list(Scenario.objects.filter(card_set__isnull=True))
    from_sets = visible_scenarios(Scenario.objects.filter(card_set__isnull=False), user)
    return {
        "set_scenarios": list(
            from_sets.select_related("card_set").order_by(
                "-card_set__is_example", "card_set__name", "sort_order", "name_en"
            )
        ),
        "tmg_modes": [s for s in rows if s.game == Game.TMG],
        "tactics_sizes": [
            s for s in rows if s.game == Game.TACTICS and s.kind == ScenarioKind.GAME_SIZE
        ],
        "tactics_scenarios": [
            s for s in rows if s.game == Game.TACTICS and s.kind != ScenarioKind.GAME_SIZE
        ],
        "other": [s for s in rows if s.game not in (Game.TMG, Game.TACTICS)],
    }


def ability_names(lang: str) -> dict[str, str]:
    """Ability keys -> names in `lang`, to say "abilities: + Vicious"."""
    return {
        key: (name_fr if lang == "fr" and name_fr else name_en)
        for key, name_en, name_fr in Ability.objects.values_list("key", "name_en", "name_fr")
    }


def faction_names(lang: str) -> dict[str, str]:
    """Faction slugs -> names in `lang` (every game), to say "faction Stark → Neutral"."""
    return {
        slug: (name_fr if lang == "fr" and name_fr else name_en)
        for slug, name_en, name_fr in Faction.objects.values_list("slug", "name_en", "name_fr")
    }
