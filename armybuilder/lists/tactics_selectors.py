"""Reads of saved Tactics warbands: the draft the validator reads, the report, the builder rows.

`warband_report` returns the same typed `CheckResult` that `checking.check_tactics_text`
returns for the warband's canonical text: both go through `tactics.check.check_draft`.
Figures are numbered heroes first, then champions, then soldiers, and equipment under its
holder, as the canonical text lists them, so a saved warband and its text give equal drafts
and the same findings.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import OuterRef, Q, QuerySet, Subquery

from armybuilder.checking import check_tactics_draft
from armybuilder.findings import Finding
from armybuilder.models import Collection
from armybuilder.pool import (
    TacticsPool,
    tactics_card,
    tactics_card_at,
    tactics_pool,
    tactics_pool_with_sets,
)
from armybuilder.result import CheckResult
from armybuilder.tactics.check import scenario_label
from armybuilder.tactics.draft import (
    COIN_TYPES,
    Coins,
    EquipmentEntry,
    FigureEntry,
    TacticsCard,
    WarbandContext,
    WarbandDraft,
)
from armybuilder.tactics.text import write_warband_text
from cards.models import Card, CardKind, CostOverride, Game

from .models import ArmyList, ListEntry
from .selectors import (
    CheckedState,
    PlacementOption,
    missing_card,
    pinned,
    placement_options,
    saved_entries,
)
from .tactics_holders import check_holders, counterpart

KIND_ORDER = {"hero": 0, "champion": 1, "soldier": 2}
FIGURE_KINDS = (CardKind.HERO, CardKind.CHAMPION, CardKind.SOLDIER)


def list_budget(army_list: ArmyList) -> Coins | None:
    coins = (army_list.gold, army_list.silver, army_list.copper)
    return None if None in coins else Coins(*coins)


def pool_cards(pool: TacticsPool) -> dict[str, TacticsCard]:
    return {card.id: card for card in pool.cards}


def warband_pool(army_list: ArmyList) -> TacticsPool:
    """The shipped cards plus the players' sets the warband draws from (their cards, and
    their costs for shipped cards of unknown cost)."""
    if army_list.pk is None or army_list.game != "tactics":
        return tactics_pool()
    return tactics_pool_with_sets(list(army_list.card_sets.all()))


def _today(entry: ListEntry, by_id: dict[str, TacticsCard]) -> TacticsCard | None:
    """The pool's card of an entry; a card of a set the warband no longer draws from (or
    may no longer see) is still judged from the version the entry pinned."""
    card = by_id.get(entry.card.external_id)
    if card is None and entry.card.card_set_id is not None and entry.card_version_id:
        return tactics_card(entry.card)
    return card


# --- the draft ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class WarbandBuild:
    draft: WarbandDraft
    refs: dict[int, str]  # ListEntry pk -> ref in the draft and the findings
    entries: tuple[ListEntry, ...]  # every entry, in draft order (unknown cards last)
    cards: dict[int, TacticsCard]  # ListEntry pk -> the pool's card
    missing: tuple[Finding, ...] = ()  # entries whose card is not in the Tactics pool


def build_warband_draft(
    army_list: ArmyList, pool: TacticsPool | None = None, *, current_cards: bool = False
) -> WarbandBuild:
    """The draft of a saved warband, its cards at their pinned versions (`current_cards`: at
    today's; see `selectors.pinned`)."""
    pool = pool or warband_pool(army_list)
    by_id = pool_cards(pool)
    entries = saved_entries(army_list)
    cards = {
        e.pk: card
        for e in entries
        if (card := pinned(e, _today(e, by_id), tactics_card_at, current_cards=current_cards))
        is not None
    }
    missing = tuple(missing_card(e, game=army_list.game) for e in entries if e.pk not in cards)
    figures = sorted(
        (e for e in entries if e.pk in cards and cards[e.pk].is_figure),
        key=lambda e: KIND_ORDER.get(cards[e.pk].kind, 3),
    )
    items = [e for e in entries if e.pk in cards and not cards[e.pk].is_figure]
    refs: dict[int, str] = {}
    figure_entries = []
    for number, entry in enumerate(figures, start=1):
        refs[entry.pk] = f"figure-{number}"
        figure_entries.append(FigureEntry(ref=refs[entry.pk], card=cards[entry.pk]))
    held = [i for f in figures for i in items if i.parent_id == f.pk]
    loose = [i for i in items if i.parent_id not in {f.pk for f in figures}]
    equipment = []
    for number, entry in enumerate([*held, *loose], start=1):
        refs[entry.pk] = f"equipment-{number}"
        equipment.append(
            EquipmentEntry(
                ref=refs[entry.pk], card=cards[entry.pk], holder=refs.get(entry.parent_id)
            )
        )
    budget = list_budget(army_list)
    scenario = army_list.scenario.name_en if army_list.scenario_id else ""
    draft = WarbandDraft(
        faction=army_list.faction.slug,
        budget=budget,
        figures=tuple(figure_entries),
        equipment=tuple(equipment),
        # what the canonical text writes, so that reading it back gives an equal draft
        scenario=scenario_label(WarbandDraft(None, budget, scenario=scenario), pool),
        name=army_list.name,
    )
    ordered = [*figures, *held, *loose, *(e for e in entries if e.pk not in cards)]
    return WarbandBuild(
        draft=draft, refs=refs, entries=tuple(ordered), cards=cards, missing=missing
    )


def warband_draft(army_list: ArmyList, pool: TacticsPool | None = None) -> WarbandDraft:
    return build_warband_draft(army_list, pool).draft


# --- what the player could still buy (TW-06) ---------------------------------------------------


def collection_of(user: AbstractBaseUser | AnonymousUser | None) -> Collection | None:
    if user is None or not user.is_authenticated:
        return None
    return Collection.objects.filter(owner=user).first()


def collection_card_ids(user: AbstractBaseUser | AnonymousUser | None) -> set[int]:
    collection = collection_of(user)
    return set(collection.cards.values_list("pk", flat=True)) if collection else set()


def collection_cards() -> QuerySet[Card]:
    """Every Tactics card a player may tick as owned."""
    return (
        Card.objects.select_related("faction")
        .filter(game=Game.TACTICS)
        .order_by("faction__name_en", "kind", "name_en", "title_en")
    )


def warband_context(army_list: ArmyList, pool: TacticsPool | None = None) -> WarbandContext:
    """The owner's collection when they keep one, else the faction's cards and neutrals."""
    pool = pool or warband_pool(army_list)
    collection = (
        Collection.objects.filter(owner_id=army_list.owner_id).first()
        if army_list.owner_id is not None
        else None
    )
    if collection is None:
        return pool.context_for(army_list.faction.slug)
    owned = set(collection.cards.filter(game=Game.TACTICS).values_list("external_id", flat=True))
    return WarbandContext(available=tuple(c for c in pool.cards if c.id in owned))


def uses_collection(army_list: ArmyList) -> bool:
    return (
        army_list.owner_id is not None
        and Collection.objects.filter(owner_id=army_list.owner_id).exists()
    )


# --- the report and the text -------------------------------------------------------------------


def warband_report(
    army_list: ArmyList,
    *,
    lang: str = "en",
    pool: TacticsPool | None = None,
    current_cards: bool = False,
) -> CheckResult:
    """Legality recomputed now with the pinned card versions (`current_cards`: with today's),
    as `checking.check_tactics_text` finds it."""
    pool = pool or warband_pool(army_list)
    built = build_warband_draft(army_list, pool, current_cards=current_cards)
    return _checked(army_list, built, pool=pool, lang=lang)


def _checked(army_list: ArmyList, built: WarbandBuild, *, pool: TacticsPool, lang: str):
    return check_tactics_draft(
        built.draft,
        pool=pool,
        lang=lang,
        findings=built.missing,
        context=warband_context(army_list, pool),
    )


def warband_text(army_list: ArmyList, *, lang: str = "en", pool: TacticsPool | None = None) -> str:
    """The canonical warband text (contracts §2)."""
    pool = pool or warband_pool(army_list)
    draft = warband_draft(army_list, pool)
    return write_warband_text(
        draft,
        faction_names=pool.faction_names,
        scenario_label=scenario_label(draft, pool),
        lang=lang,
    )


# --- what the builder shows --------------------------------------------------------------------


@dataclass
class ItemRow:
    entry: ListEntry
    ref: str
    flagged: bool
    card: TacticsCard | None = None  # the pool's card (None: not in the pool)


@dataclass
class FigureRow:
    entry: ListEntry
    ref: str
    card: TacticsCard | None
    flagged: bool
    switch_to: TacticsCard | None = None  # the other (mounted / foot) version
    equipment: list[ItemRow] = field(default_factory=list)


@dataclass(frozen=True)
class Gauge:
    key: str  # gold | silver | copper | figures
    spent: int
    budget: int | None

    @property
    def over(self) -> bool:
        return self.budget is not None and self.spent > self.budget

    @property
    def percent(self) -> int:
        if not self.budget:
            return 100 if self.spent else 0
        return min(100, round(100 * self.spent / self.budget))


@dataclass(frozen=True)
class WarbandState(CheckedState):
    figures: tuple[FigureRow, ...] = ()
    loose: tuple[ItemRow, ...] = ()  # equipment nobody carries, and unknown cards
    gauges: tuple[Gauge, ...] = ()
    uses_collection: bool = False

    @property
    def budget(self) -> Coins | None:
        return list_budget(self.army_list)


def warband_state(
    army_list: ArmyList, *, lang: str = "en", pool: TacticsPool | None = None
) -> WarbandState:
    pool = pool or warband_pool(army_list)
    built = build_warband_draft(army_list, pool)
    result = _checked(army_list, built, pool=pool, lang=lang)
    flagged = result.flagged_refs
    figures: dict[int, FigureRow] = {}
    loose: list[ItemRow] = []
    for entry in built.entries:
        ref = built.refs.get(entry.pk, f"entry-{entry.pk}")
        card = built.cards.get(entry.pk)
        if card is not None and card.is_figure:
            figures[entry.pk] = FigureRow(
                entry=entry,
                ref=ref,
                card=card,
                flagged=ref in flagged,
                switch_to=counterpart(card, pool.cards),
            )
        elif entry.parent_id in figures:
            figures[entry.parent_id].equipment.append(ItemRow(entry, ref, ref in flagged, card))
        else:
            loose.append(ItemRow(entry, ref, ref in flagged, card))
    spent = built.draft.spent()
    budget = built.draft.budget
    gauges = [
        Gauge(coin, getattr(spent, coin), getattr(budget, coin) if budget else None)
        for coin in COIN_TYPES
    ]
    gauges.append(Gauge("figures", len(built.draft.figures), budget.copper if budget else None))
    return WarbandState(
        army_list=army_list,
        result=result,
        figures=tuple(figures.values()),
        loose=tuple(loose),
        gauges=tuple(gauges),
        uses_collection=uses_collection(army_list),
    )


# --- picking cards, choosing holders -----------------------------------------------------------


def pickable_tactics_cards(army_list: ArmyList) -> QuerySet[Card]:
    """What the Tactics picker searches: figures of the warband's faction and Neutral, and
    equipment (which belongs to no faction), shipped or from the sets it draws from; each
    with the override cost one of those sets gives it (`override_gold`…, `override_set`)."""
    set_ids = list(army_list.card_sets.values_list("pk", flat=True))
    overrides = CostOverride.objects.filter(card=OuterRef("pk"), card_set_id__in=set_ids).order_by(
        "card_set__name", "pk"
    )
    return (
        Card.objects.select_related("faction", "card_set")
        .filter(
            Q(kind__in=FIGURE_KINDS, faction__slug__in={army_list.faction.slug, "neutral"})
            | Q(kind=CardKind.EQUIPMENT),
            Q(card_set__isnull=True) | Q(card_set_id__in=set_ids),
            game=Game.TACTICS,
        )
        .annotate(
            override_set=Subquery(overrides.values("card_set__name")[:1]),
            override_gold=Subquery(overrides.values("gold")[:1]),
            override_silver=Subquery(overrides.values("silver")[:1]),
            override_copper=Subquery(overrides.values("copper")[:1]),
        )
    )


def holder_options(
    army_list: ArmyList,
    item_card: Card,
    *,
    moving: ListEntry | None = None,
    lang: str = "en",
    pool: TacticsPool | None = None,
) -> list[PlacementOption]:
    """For each figure: may it carry `item_card`, and if not, why not. Found by running the
    validator with the item given to that figure (see lists.tactics_holders)."""
    pool = pool or warband_pool(army_list)
    item = pool_cards(pool).get(item_card.external_id)
    if item is None or item.kind != "equipment":
        return []
    built = build_warband_draft(army_list, pool)
    draft = built.draft
    if moving is not None and moving.pk in built.refs:
        ref = built.refs[moving.pk]
        draft = replace(draft, equipment=tuple(e for e in draft.equipment if e.ref != ref))
    checks = check_holders(draft, warband_context(army_list, pool), item)
    return placement_options(built.entries, built.refs, checks, moving=moving, lang=lang)
