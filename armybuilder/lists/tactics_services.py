"""Writes to saved Tactics warbands. Keyword-only, one transaction each, `ValidationError`
(message in the active language, stable `code`) for input of the wrong shape.

Like the TMG services, shape is checked (a Tactics card of the right kind, a holder from
the same warband, a recruitable cost, …), never legality: the validator says what is wrong
every time the warband is shown. Sharing, claiming, duplicating, deleting and removing an
entry are the shared list services (`services.set_visibility`, `claim_list`,
`duplicate_list`, `delete_list`, `remove_entry`): a warband is an ArmyList.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from armybuilder.listtext.resolve import name_key
from armybuilder.models import Collection
from armybuilder.pool import TacticsPool, tactics_pool_with_sets
from armybuilder.tactics.draft import Coins
from armybuilder.tactics.text import build_warband, parse_warband_text
from cards.card_sets.selectors import cost_override_for, usable_sets
from cards.models import Card, CardKind, CardSet, Faction, Game, Scenario

from .import_findings import unknown_tactics_card
from .models import ArmyList, EntryRole, ListEntry, ListGame
from .services import (
    MAX_NAME,
    ImportResult,
    ReadEntry,
    add_entry,
    check_entry,
    check_kind,
    check_name,
    check_pasted_text,
    check_room,
    move_to,
    owner_or_none,
    remove_entry,
    store_read_entries,
    touch,
)

SIZES = {
    "small": Coins(2, 4, 12),
    "standard": Coins(3, 6, 18),
    "large": Coins(4, 8, 24),
}
MAX_COINS = 99
MAX_COPIES = 24
FIGURE_KINDS = (CardKind.HERO, CardKind.CHAMPION, CardKind.SOLDIER)

__all__ = [
    "SIZES",
    "add_figure",
    "assign_equipment",
    "create_warband",
    "import_warband_text",
    "move_equipment",
    "remove_entry",
    "set_card_sets",
    "set_collection",
    "switch_version",
    "update_warband",
]


# --- input checks ------------------------------------------------------------------------------


def _check_tactics(army_list: ArmyList) -> None:
    if army_list.game != ListGame.TACTICS:
        raise ValidationError(_("Only Tactics warbands can be edited here."), "game")


def _check_faction(faction: Faction | None) -> None:
    if faction is None or faction.game != Game.TACTICS:
        raise ValidationError(_("Choose a faction of ASOIAF Tactics."), "faction")


def parse_budget(budget: Coins | str | None) -> Coins:
    """A size word (small, standard, large) or a literal G-S-C budget such as 3-6-18."""
    coins = budget if isinstance(budget, Coins) else None
    if isinstance(budget, str):
        text = budget.strip().casefold()
        coins = SIZES.get(text) or Coins.parse(text)
    if coins is None or not all(0 <= n <= MAX_COINS for n in coins.as_dict().values()):
        raise ValidationError(
            _(
                "A budget is gold-silver-copper, such as 3-6-18, each from 0 to %(max)d; "
                "or a size: small, standard or large."
            )
            % {"max": MAX_COINS},
            "budget",
        )
    return coins


def _budget(
    scenario: Scenario | None, budget: Coins | str | None, side: str = "a"
) -> tuple[Scenario | None, Coins | None]:
    if scenario is not None:
        if scenario.game != Game.TACTICS:
            raise ValidationError(_("Choose a Tactics scenario or game size."), "scenario")
        if side not in ("a", "b"):
            raise ValidationError(_("A scenario side is a or b."), "side")
        chosen = scenario.budget_for(side)
        return scenario, Coins(**chosen) if chosen else None
    if budget is None:
        raise ValidationError(_("Choose a scenario or a game size."), "budget")
    return None, parse_budget(budget)


def _set_budget(army_list: ArmyList, scenario: Scenario | None, coins: Coins | None) -> None:
    army_list.scenario = scenario
    army_list.gold = coins.gold if coins else None
    army_list.silver = coins.silver if coins else None
    army_list.copper = coins.copper if coins else None


def _check_card(
    card: Card | None, kinds: tuple[str, ...], role: str, army_list: ArmyList | None = None
) -> Card:
    check_kind(card, game=Game.TACTICS, kinds=kinds, role=role)
    if card.card_set_id is not None and (
        army_list is None or not army_list.card_sets.filter(pk=card.card_set_id).exists()
    ):
        raise ValidationError(
            _("%(card)s belongs to a card set this warband does not draw from.")
            % {"card": card.full_name()},
            "card_set",
        )
    overridden = army_list is not None and cost_override_for(
        card, [s.pk for s in army_list.card_sets.all()]
    )
    if not card.has_known_cost and not overridden:
        raise ValidationError(
            _("%(card)s has no known cost yet and cannot be recruited.")
            % {"card": card.full_name()},
            "cost_unknown",
        )
    return card


def _check_holder(army_list: ArmyList, holder: ListEntry | None) -> ListEntry:
    if holder is None:
        raise ValidationError(_("Choose the figure that carries it."), "holder_missing")
    check_entry(army_list, holder, EntryRole.FIGURE)
    return holder


# --- warbands ----------------------------------------------------------------------------------


@transaction.atomic
def create_warband(
    *,
    faction: Faction,
    scenario: Scenario | None = None,
    budget: Coins | str | None = None,
    name: str = "",
    owner: AbstractBaseUser | None = None,
    side: str = "a",
    card_sets: Sequence[CardSet] = (),
) -> ArmyList:
    """A new warband: a scenario (its budget, possibly unknown; `side`: which side of an
    asymmetric one) or a size / G-S-C budget. `card_sets`: the players' sets it draws from
    besides the shipped cards (sets the owner may see)."""
    _check_faction(faction)
    chosen, coins = _budget(scenario, budget, side)
    army_list = ArmyList(
        owner=owner_or_none(owner), game=ListGame.TACTICS, faction=faction, name=check_name(name)
    )
    _set_budget(army_list, chosen, coins)
    army_list.scenario_side = side if chosen is not None else "a"
    army_list.save()
    set_card_sets(army_list=army_list, card_sets=card_sets)
    return army_list


def set_card_sets(*, army_list: ArmyList, card_sets: Sequence[CardSet]) -> ArmyList:
    """Choose the players' sets a warband draws from. Cards already taken stay (pinned)."""
    _check_tactics(army_list)
    allowed = set(
        usable_sets(army_list.owner)
        .filter(pk__in=[s.pk for s in card_sets])
        .values_list("pk", flat=True)
    )
    if any(s.pk not in allowed for s in card_sets):
        raise ValidationError(_("Choose card sets you may see."), "card_sets")
    army_list.card_sets.set(list(card_sets))
    touch(army_list)
    return army_list


@transaction.atomic
def update_warband(
    *,
    army_list: ArmyList,
    faction: Faction | None = None,
    scenario: Scenario | None = None,
    budget: Coins | str | None = None,
    name: str | None = None,
    side: str = "a",
    card_sets: Sequence[CardSet] | None = None,
) -> ArmyList:
    """Change only the settings given; a scenario or a budget replaces the current one."""
    _check_tactics(army_list)
    if faction is not None:
        _check_faction(faction)
        army_list.faction = faction
    if scenario is not None or budget is not None:
        _set_budget(army_list, *_budget(scenario, budget, side))
        army_list.scenario_side = side if scenario is not None else "a"
    if name is not None:
        army_list.name = check_name(name)
    army_list.save()
    if card_sets is not None:
        set_card_sets(army_list=army_list, card_sets=card_sets)
    return army_list


# --- figures and equipment ---------------------------------------------------------------------


@transaction.atomic
def add_figure(*, army_list: ArmyList, card: Card, copies: int = 1) -> list[ListEntry]:
    """Recruit a figure; soldiers may come in several copies (one entry each)."""
    _check_tactics(army_list)
    _check_card(card, FIGURE_KINDS, EntryRole.FIGURE, army_list)
    if not isinstance(copies, int) or not 1 <= copies <= MAX_COPIES:
        raise ValidationError(
            _("Recruit from 1 to %(max)d copies at a time.") % {"max": MAX_COPIES}, "copies"
        )
    check_room(army_list, copies)
    entries = [add_entry(army_list, card, EntryRole.FIGURE) for _copy in range(copies)]
    touch(army_list)
    return entries


@transaction.atomic
def assign_equipment(*, army_list: ArmyList, card: Card, holder: ListEntry | None) -> ListEntry:
    """Buy an equipment item for a figure of the warband (legal or not: the report says)."""
    _check_tactics(army_list)
    _check_card(card, (CardKind.EQUIPMENT,), EntryRole.EQUIPMENT, army_list)
    _check_holder(army_list, holder)
    check_room(army_list)
    entry = add_entry(army_list, card, EntryRole.EQUIPMENT, parent=holder)
    touch(army_list)
    return entry


@transaction.atomic
def move_equipment(*, army_list: ArmyList, entry: ListEntry, holder: ListEntry | None) -> ListEntry:
    _check_tactics(army_list)
    check_entry(army_list, entry, EntryRole.EQUIPMENT)
    return move_to(army_list, entry, _check_holder(army_list, holder))


def _may_carry(figure: Card, item: Card) -> bool:
    kinds = item.carriers or list(FIGURE_KINDS)
    return figure.kind in kinds and not (item.extra.get("infantry_only") and figure.mounted)


def other_version(card: Card) -> Card | None:
    """The mounted version of a foot character, or the foot version of a mounted one."""
    if card.game != Game.TACTICS or card.kind not in (CardKind.HERO, CardKind.CHAMPION):
        return None
    keys = list(card.characters.values_list("key", flat=True))
    if not keys:
        return None
    return (
        Card.objects.filter(
            game=Game.TACTICS,
            kind__in=(CardKind.HERO, CardKind.CHAMPION),
            characters__key__in=keys,
            mounted=not card.mounted,
            card_set_id=card.card_set_id,  # a set pairs its own cards
        )
        .exclude(pk=card.pk)
        .order_by("external_id")
        .distinct()
        .first()
    )


@transaction.atomic
def switch_version(*, army_list: ArmyList, entry: ListEntry) -> ListEntry:
    """Swap a character between its mounted and foot versions (same entry, same place). Its
    equipment stays if the new version may carry it, else it waits for another holder."""
    _check_tactics(army_list)
    check_entry(army_list, entry, EntryRole.FIGURE)
    other = other_version(entry.card)
    if other is None:
        raise ValidationError(
            _("%(card)s has no mounted or foot version to switch to.")
            % {"card": entry.card.full_name()},
            "no_other_version",
        )
    _check_card(other, FIGURE_KINDS, EntryRole.FIGURE, army_list)
    entry.card, entry.card_version_id = other, other.current_version_id
    entry.save(update_fields=["card", "card_version"])
    for item in entry.children.select_related("card"):
        if not _may_carry(other, item.card):
            item.parent = None
            item.save(update_fields=["parent"])
    touch(army_list)
    return entry


# --- import ------------------------------------------------------------------------------------


def _scenario_named(label: str, card_sets: Sequence[CardSet] = ()) -> Scenario | None:
    """The shipped scenario, or one of `card_sets`' (never another set's), named `label`."""
    key = name_key(label or "")
    if not key:
        return None
    readable = Q(card_set__isnull=True) | Q(card_set__in=[s.pk for s in card_sets])
    for scenario in Scenario.objects.filter(readable, game=Game.TACTICS):
        if key in {name_key(n) for n in (scenario.slug, scenario.name_en, scenario.name_fr) if n}:
            return scenario
    return None


def _role(kind: str) -> str:
    return EntryRole.EQUIPMENT if kind == CardKind.EQUIPMENT else EntryRole.FIGURE


@transaction.atomic
def import_warband_text(
    *,
    text: str,
    owner: AbstractBaseUser | None = None,
    card_sets: Sequence[CardSet] = (),
    pool: TacticsPool | None = None,
) -> ImportResult:
    """Read a pasted warband (contracts §2) with the checker's reader and store what it
    resolved: figures, and equipment under the figure it is indented below. `card_sets`:
    the players' sets it is read against besides the shipped cards (sets `owner` may use);
    the new warband draws from them, so their cards and cost overrides stay with it."""
    check_pasted_text(text)
    pool = pool or tactics_pool_with_sets(list(card_sets))
    parsed = parse_warband_text(text)
    draft, findings = build_warband(
        parsed, index=pool.index, scenarios=pool.scenarios, factions=pool.faction_aliases
    )
    if draft is None:
        raise ValidationError(
            _("This text is not a warband: no figure lines were found."), "unparseable"
        )
    faction = Faction.objects.filter(game=Game.TACTICS, slug=draft.faction or "").first()
    if faction is None:
        raise ValidationError(
            _("The warband names no known faction: add a line such as “Faction: Baratheon”."),
            "faction",
        )
    army_list = ArmyList(
        owner=owner_or_none(owner),
        game=ListGame.TACTICS,
        faction=faction,
        name=" ".join(draft.name.split())[:MAX_NAME],
    )
    _set_budget(army_list, _scenario_named(draft.scenario, card_sets), draft.budget)
    army_list.save()
    set_card_sets(army_list=army_list, card_sets=card_sets)
    read = [
        ReadEntry(
            ref=resolved.ref,
            card_id=resolved.card.id,
            role=_role(resolved.card.kind),
            parent=getattr(resolved, "holder", None),  # figures have none
        )
        for resolved in (*draft.figures, *draft.equipment)
    ]
    problems = store_read_entries(army_list, read, unknown=unknown_tactics_card)
    return ImportResult(army_list=army_list, problems=(*findings, *problems))


# --- collections -------------------------------------------------------------------------------


@transaction.atomic
def set_collection(*, owner: AbstractBaseUser, cards: list[Card]) -> Collection | None:
    """The Tactics cards `owner` owns. No card at all: no collection (the faction's whole
    pool counts again for TW-06)."""
    if owner is None or not owner.is_authenticated:
        raise ValidationError(_("Log in to keep a collection."), "login_required")
    if any(card.game != Game.TACTICS for card in cards):
        raise ValidationError(_("A collection holds Tactics cards only."), "wrong_game")
    if not cards:
        Collection.objects.filter(owner=owner).delete()
        return None
    collection, _created = Collection.objects.get_or_create(owner=owner)
    collection.cards.set(cards)
    collection.save(update_fields=["updated_at"])
    return collection
