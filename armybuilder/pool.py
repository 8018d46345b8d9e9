"""Selectors that load the card pool once and hand the validators plain values.

The pool is rebuilt only when the card table changes (count or newest `updated_at`), so
checking a thousand lists costs one cheap query plus pure Python.
"""

from __future__ import annotations

import threading
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Generic, TypeVar

from django.db.models import Count, Max

from armybuilder.listtext.resolve import CardIndex, name_key
from armybuilder.tactics.draft import Coins, TacticsCard, WarbandContext
from armybuilder.tmg.draft import ArmyContext, CardFacts
from cards.faction_rules import army_rules_for_faction
from cards.models import Card, CardSet, CostOverride, Faction, Game, Scenario

CardT = TypeVar("CardT", CardFacts, TacticsCard)


@dataclass(frozen=True)
class Pool(Generic[CardT]):
    """What both games read lists with: the cards, indexed by the names players type, and
    the factions by any of their names (aliases) and by their display names (en, fr)."""

    cards: tuple[CardT, ...]
    index: CardIndex[CardT]
    faction_aliases: dict[str, tuple[str, ...]]
    faction_names: dict[str, tuple[str, str]]


@dataclass(frozen=True)
class TmgPool(Pool[CardFacts]):
    tactics_cards: dict[str, CardFacts]
    basic_decks: dict[str, tuple[str, ...]]
    replaces: dict[str, tuple[str, ...]]
    faction_characters: dict[str, frozenset[str]]
    by_id: dict[str, CardFacts] = field(default_factory=dict)
    # One context per faction, built on first use: the validator only reads it (the
    # faction rule records are copied once, not for every list of a batch).
    _contexts: dict[str, ArmyContext] = field(default_factory=dict, compare=False, repr=False)

    def context_for(self, faction: str) -> ArmyContext:
        context = self._contexts.get(faction)
        if context is None:
            context = self._contexts[faction] = self._context(faction)
        return context

    def _context(self, faction: str) -> ArmyContext:
        return ArmyContext(
            faction_rules=tuple(army_rules_for_faction(faction)),
            faction_characters=self.faction_characters.get(faction, frozenset()),
            tactics_cards=self.tactics_cards,
            basic_deck=self.basic_decks.get(faction, ()),
            replaces=self.replaces,
            faction_names=self.faction_names,
        )


@dataclass(frozen=True)
class TacticsPool(Pool[TacticsCard]):
    scenarios: dict[str, Coins | None]
    scenario_labels: dict[str, str]

    def context_for(self, faction: str | None) -> WarbandContext:
        available = tuple(
            card
            for card in self.cards
            if card.kind == "equipment" or card.faction in (faction, "neutral") or faction is None
        )
        return WarbandContext(available=available)


def _pool_fields(game: str, cards: list) -> dict:
    """The `Pool` fields, built alike in both games: the cards, their name index, and the
    game's factions by their names."""
    aliases, names = {}, {}
    for faction in Faction.objects.filter(game=game):
        aliases[faction.slug] = tuple(n for n in (faction.name_en, faction.name_fr) if n)
        names[faction.slug] = (faction.name_en, faction.name_fr or faction.name_en)
    return {
        "cards": tuple(cards),
        "index": CardIndex(cards),
        "faction_aliases": aliases,
        "faction_names": names,
    }


def _card_rows(game: str, card_sets: list[int] | None = None):
    """The shipped cards of a game (`card_sets`: the cards of those players' sets instead)."""
    rows = (
        Card.objects.filter(game=game, card_set__in=card_sets)
        if card_sets
        else Card.objects.filter(game=game, card_set__isnull=True)
    )
    return (
        rows.select_related("faction", "sigil", "commander_card", "replaces")
        .prefetch_related("characters", "card_abilities__ability")
        .order_by("external_id")
    )


def _names(card: Card) -> dict[str, str]:
    """What both games' plain card values copy from the row as it is: the card's id and
    kind, and the names and titles `CardIndex` finds it by."""
    return {
        "id": card.external_id,
        "kind": card.kind,
        "name_en": card.name_en,
        "name_fr": card.name_fr,
        "title_en": card.title_en,
        "title_fr": card.title_fr,
    }


def _tmg_facts(card: Card) -> CardFacts:
    return CardFacts(
        **_names(card),
        faction=card.faction.slug if card.faction else "",
        points=card.points,
        unit_type=card.unit_type,
        tray=card.tray,
        is_character=card.is_character,
        characters=tuple(c.key for c in card.characters.all()),
        is_commander=card.is_commander,
        attaches_to_enemy=bool(card.extra.get("enemy")),
        requirements=tuple(card.requirements or ()),
        abilities=tuple(ca.ability.key for ca in card.card_abilities.all()),
        tactics=tuple(card.extra.get("tactics") or ()),
        version=card.version,
    )


def _build_tmg_pool() -> TmgPool:
    facts: list[CardFacts] = []
    tactics: dict[str, CardFacts] = {}
    basic: dict[str, list[str]] = defaultdict(list)
    replaces: dict[str, tuple[str, ...]] = {}
    commander_cards: dict[str, list[str]] = defaultdict(list)
    faction_characters: dict[str, set[str]] = defaultdict(set)
    for card in _card_rows(Game.TMG):
        fact = _tmg_facts(card)
        if card.kind == "tactics":
            tactics[fact.id] = fact
            if card.commander_card_id is None:
                basic[fact.faction].append(fact.id)
            else:
                commander_cards[card.commander_card.external_id].append(fact.id)
            removed = card.extra.get("removes") or (
                [card.replaces.external_id] if card.replaces_id else []
            )
            if removed:
                replaces[fact.id] = tuple(removed)
            continue
        facts.append(fact)
        if fact.faction and fact.faction != "neutral":
            faction_characters[fact.faction].update(fact.characters)
    # A commander's deck cards: the ids its card lists, else the cards that name it.
    facts = [
        f
        if f.tactics or not f.is_commander
        else replace(f, tactics=tuple(commander_cards.get(f.id, ())))
        for f in facts
    ]
    return TmgPool(
        **_pool_fields(Game.TMG, facts),
        tactics_cards=tactics,
        basic_decks={k: tuple(v) for k, v in basic.items()},
        replaces=replaces,
        faction_characters={k: frozenset(v) for k, v in faction_characters.items()},
        by_id={f.id: f for f in facts},
    )


def tactics_card(card: Card) -> TacticsCard:
    """The plain value of one Tactics card row (also for a card no pool holds any more)."""
    return _tactics_card(card)


def _tactics_card(card: Card) -> TacticsCard:
    known = None not in (card.gold, card.silver, card.copper)
    return TacticsCard(
        **_names(card),
        faction=card.faction.slug if card.faction else None,
        sigil=card.sigil.slug if card.sigil else None,
        characters=tuple(c.key for c in card.characters.all()),
        mounted=card.mounted,
        cost=Coins(card.gold, card.silver, card.copper) if known else None,
        carriers=tuple(card.carriers or ("hero", "champion", "soldier")),
        unique=card.is_unique,
        infantry_only=bool(card.extra.get("infantry_only")),
        example=bool(card.card_set_id and card.card_set.is_example),
    )


# --- a card as a recorded version says it was ---------------------------------------------------
#
# A saved list is judged with the versions its entries are pinned to. A version records a
# card's stats (`cards.services._VERSION_STAT_FIELDS`), not everything the pool holds: what
# it does not record (French names, a commander's deck cards, the enemy-attachment mark)
# is taken from the card as it is today.


def tmg_facts_at(facts: CardFacts, version: str, stats: Mapping[str, Any]) -> CardFacts:
    """`facts` (the card today) with the stats of a recorded version."""
    stat = stats.get
    return replace(
        facts,
        faction=stat("faction") or facts.faction,
        points=stat("points", facts.points),
        unit_type=stat("unit_type", facts.unit_type) or "",
        tray=stat("tray", facts.tray) or "",
        is_character=bool(stat("is_character", facts.is_character)),
        characters=tuple(stat("characters", facts.characters) or ()),
        is_commander=bool(stat("is_commander", facts.is_commander)),
        requirements=tuple(stat("requirements", facts.requirements) or ()),
        abilities=tuple(stat("abilities", facts.abilities) or ()),
        version=version,
    )


def tactics_card_at(card: TacticsCard, version: str, stats: Mapping[str, Any]) -> TacticsCard:
    """`card` (today) with the stats of a recorded version: its coins above all."""
    del version  # a Tactics card carries no version label
    coins = tuple(stats.get(coin) for coin in ("gold", "silver", "copper"))
    return replace(
        card,
        faction=stats.get("faction", card.faction),
        characters=tuple(stats.get("characters", card.characters) or ()),
        mounted=bool(stats.get("mounted", card.mounted)),
        # A version that knew no cost leaves the cost a set's override gives today.
        cost=Coins(*coins) if None not in coins else card.cost,
        carriers=tuple(stats.get("carriers") or card.carriers),
        unique=bool(stats.get("is_unique", card.unique)),
    )


def _scenario_budgets(rows, scenarios: dict[str, Coins | None], labels: dict[str, str]) -> None:
    """Each scenario's budget by any of its names, and the name canonical text writes for
    a budget (the last scenario of that budget)."""
    for scenario in rows:
        budget = scenario.budget
        coins = Coins(**budget) if budget else None
        for label in (scenario.slug, scenario.name_en, scenario.name_fr):
            if label:
                scenarios[name_key(label)] = coins
        if coins:
            labels[coins.label()] = scenario.name_en


def _build_tactics_pool() -> TacticsPool:
    cards = [_tactics_card(card) for card in _card_rows(Game.TACTICS)]
    scenarios: dict[str, Coins | None] = {}
    labels: dict[str, str] = {}
    _scenario_budgets(
        Scenario.objects.filter(game=Game.TACTICS, card_set__isnull=True), scenarios, labels
    )
    return TacticsPool(
        **_pool_fields(Game.TACTICS, cards),
        scenarios=scenarios,
        scenario_labels=labels,
    )


_lock = threading.Lock()
_cache: dict[str, tuple[tuple, object]] = {}


def _fingerprint(game: str) -> tuple:
    stats = Card.objects.filter(game=game).aggregate(n=Count("id"), newest=Max("updated_at"))
    scenarios = Scenario.objects.filter(game=game).aggregate(n=Count("id"))
    factions = Faction.objects.filter(game=game).aggregate(n=Count("id"))
    return (stats["n"], stats["newest"], scenarios["n"], factions["n"])


def _cached(game: str, builder):
    fingerprint = _fingerprint(game)
    with _lock:
        hit = _cache.get(game)
        if hit and hit[0] == fingerprint:
            return hit[1]
    pool = builder()
    with _lock:
        _cache[game] = (fingerprint, pool)
    return pool


def tmg_pool() -> TmgPool:
    return _cached(Game.TMG, _build_tmg_pool)


def tactics_pool() -> TacticsPool:
    return _cached(Game.TACTICS, _build_tactics_pool)


def tactics_pool_with_sets(card_sets: list[CardSet]) -> TacticsPool:
    """The shipped pool plus the cards of players' sets a warband draws from, with the
    sets' cost overrides given to shipped cards whose cost is unknown ("cost from <set>";
    the first set by name wins when two give one)."""
    base = tactics_pool()
    if not card_sets:
        return base
    ids = [card_set.pk for card_set in card_sets]
    names = {card_set.pk: card_set.name for card_set in card_sets}
    overrides: dict[str, tuple[Coins, str]] = {}
    rows = CostOverride.objects.filter(card_set_id__in=ids).select_related("card")
    for override in sorted(rows, key=lambda o: (names[o.card_set_id], o.pk)):
        overrides.setdefault(
            override.card.external_id,
            (Coins(override.gold, override.silver, override.copper), names[override.card_set_id]),
        )
    cards = [
        replace(card, cost=overrides[card.id][0], cost_from=overrides[card.id][1])
        if card.cost is None and card.id in overrides
        else card
        for card in base.cards
    ]
    cards += [
        _tactics_card(card) for card in _card_rows(Game.TACTICS, ids).select_related("card_set")
    ]
    scenarios, labels = dict(base.scenarios), {}
    _scenario_budgets(Scenario.objects.filter(card_set_id__in=ids), scenarios, labels)
    labels.update(base.scenario_labels)  # a shipped scenario names its budget first
    return replace(
        base, cards=tuple(cards), index=CardIndex(cards), scenarios=scenarios,
        scenario_labels=labels,
    )  # fmt: skip
