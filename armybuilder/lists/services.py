"""Writes to saved lists. Every function is keyword-only, runs in one transaction and raises
`ValidationError` (message in the active language, stable `code`) for input it cannot take.

Inputs are checked for shape (a card of the right game and kind for its role, a host from
the same list, …), never for legality: an illegal list can be saved, and the validator
says what is wrong with it every time it is shown.

What every game does alike is written here once: sharing, claiming, duplicating,
deleting, removing an entry, moving a card to another parent, and the shape checks and
import bookkeeping the games' own services call (`check_room`, `store_read_entries`, …).
The TMG services are here too; Tactics has its own module (`tactics_services`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F, Max, OuterRef, Subquery
from django.utils.translation import gettext as _

from armybuilder.checking import MAX_LIST_CHARS
from armybuilder.findings import Finding
from armybuilder.listtext.reading import LineReading
from armybuilder.listtext.tmg import parse_tmg_text
from armybuilder.listtext.warcouncil import ShareCodeError, decode_share_code
from armybuilder.pool import TmgPool, tmg_pool
from armybuilder.tmg.from_text import build_tmg_draft
from armybuilder.tmg.rulesets import DEFAULT_RULESET, UnknownRuleset, all_rulesets, get_ruleset
from cards.models import Card, Faction, Game

from . import import_findings
from .hosts import may_be_chosen_commander
from .models import ArmyList, EntryRole, ListEntry, ListGame, Visibility

MIN_POINTS = 1
MAX_POINTS = 999
MAX_ENTRIES = settings.CITADEL_MAX_LIST_ENTRIES
MAX_NAME = 120
ROLE_KINDS = {EntryRole.UNIT: "unit", EntryRole.ATTACHMENT: "attachment", EntryRole.NCU: "ncu"}


@dataclass(frozen=True)
class ImportResult:
    army_list: ArmyList
    # What could not be read (unknown or ambiguous cards, …): reported, never dropped silently.
    problems: tuple[Finding, ...] = ()
    # Pasted text: how each line was read (the same account the check shows).
    lines: tuple[LineReading, ...] = ()


@dataclass(frozen=True)
class ReadEntry:
    """A card line an importer resolved, in the game's own terms, ready to be stored."""

    ref: str
    card_id: str  # the card's external id
    role: str
    parent: str | None = None  # the ref of its host (TMG) or holder (Tactics)
    chosen_commander: bool = False


# --- shape checks and small writes every game's services share ----------------------------------


def owner_or_none(owner: AbstractBaseUser | None) -> AbstractBaseUser | None:
    """The owner of a new list: a logged-in user, or nobody (an anonymous session's list)."""
    return owner if owner is not None and owner.is_authenticated else None


def check_name(name: str) -> str:
    name = " ".join((name or "").split())
    if len(name) > MAX_NAME:
        raise ValidationError(
            _("A list name has at most %(max)d characters.") % {"max": MAX_NAME}, "name"
        )
    return name


def check_kind(card: Card | None, *, game: str, kinds: Sequence[str], role: str) -> Card:
    """A card of `game` whose kind may take `role` (a unit as a unit, an item as equipment)."""
    if card is None or card.game != game or card.kind not in kinds:
        raise ValidationError(
            _("%(card)s cannot be added as %(role)s.")
            % {
                "card": card.full_name() if card is not None else "?",
                "role": EntryRole(role).label if role in EntryRole.values else role,
            },
            "wrong_role",
        )
    return card


def check_entry(army_list: ArmyList, entry: ListEntry, role: str | None = None) -> None:
    if entry is None or entry.army_list_id != army_list.pk:
        raise ValidationError(_("That entry is not part of this list."), "foreign_entry")
    if role is not None and entry.role != role:
        raise ValidationError(
            _("%(card)s is not a %(role)s here.")
            % {"card": entry.card.full_name(), "role": EntryRole(role).label},
            "wrong_role",
        )


def check_room(army_list: ArmyList, adding: int = 1) -> None:
    if army_list.entries.count() + adding > MAX_ENTRIES:
        raise ValidationError(
            _("A list holds at most %(max)d cards.") % {"max": MAX_ENTRIES}, "too_many"
        )


def check_pasted_text(text: str) -> None:
    """A pasted list is something, and no longer than the checker reads."""
    if not (text or "").strip():
        raise ValidationError(_("Paste a list first."), "empty")
    if len(text) > MAX_LIST_CHARS:
        raise ValidationError(
            _("The list is too long (at most %(max)d characters).") % {"max": MAX_LIST_CHARS},
            "too_long",
        )


def next_position(army_list: ArmyList) -> int:
    top = army_list.entries.aggregate(top=Max("position"))["top"]
    return 0 if top is None else top + 1


def touch(army_list: ArmyList) -> None:
    army_list.save(update_fields=["updated_at"])


def add_entry(
    army_list: ArmyList, card: Card, role: str, parent: ListEntry | None = None
) -> ListEntry:
    """A new last entry (the caller checked its shape), pinned to the card's current version."""
    return ListEntry.objects.create(
        army_list=army_list,
        card=card,
        card_version_id=card.current_version_id,
        role=role,
        parent=parent,
        position=next_position(army_list),
    )


def move_to(army_list: ArmyList, entry: ListEntry, parent: ListEntry) -> ListEntry:
    """Put a card that joins another (an attachment, an item) under `parent`, last."""
    if entry.parent_id != parent.pk:
        entry.parent = parent
        entry.position = next_position(army_list)
        entry.save(update_fields=["parent", "position"])
        touch(army_list)
    return entry


def store_read_entries(
    army_list: ArmyList, read: Sequence[ReadEntry], *, unknown: Callable[[str], Finding]
) -> list[Finding]:
    """Store what an importer resolved, parents before their children as they were read.
    A card the table does not have is reported (`unknown`), never dropped silently."""
    ids = {item.card_id for item in read}
    cards = {
        card.external_id: card
        for card in Card.objects.filter(game=army_list.game, external_id__in=ids)
    }
    stored: dict[str, ListEntry] = {}
    problems = []
    for position, item in enumerate(read[:MAX_ENTRIES]):
        card = cards.get(item.card_id)
        if card is None:  # the pool and the table disagree: report, don't drop silently
            problems.append(unknown(item.card_id))
            continue
        stored[item.ref] = ListEntry.objects.create(
            army_list=army_list,
            card=card,
            card_version_id=card.current_version_id,
            role=item.role,
            parent=stored.get(item.parent) if item.parent else None,
            position=position,
            chosen_commander=item.chosen_commander,
        )
    problems.extend(import_findings.too_many(len(read), kept=MAX_ENTRIES))
    return problems


# --- every game: sharing, claiming, copying, deleting, removing -----------------------------


@transaction.atomic
def set_visibility(*, army_list: ArmyList, visibility: str) -> ArmyList:
    if visibility not in Visibility.values:
        raise ValidationError(
            _("Unknown visibility “%(value)s”.") % {"value": visibility}, "visibility"
        )
    army_list.visibility = visibility
    army_list.save(update_fields=["visibility", "updated_at"])
    return army_list


@transaction.atomic
def claim_list(*, army_list: ArmyList, user: AbstractBaseUser) -> ArmyList:
    """An anonymous session's list becomes the logged-in user's (on "Save")."""
    if user is None or not user.is_authenticated:
        raise ValidationError(_("Log in to save a list."), "login_required")
    if army_list.owner_id is not None and army_list.owner_id != user.pk:
        raise ValidationError(_("This list belongs to someone else."), "foreign_list")
    if army_list.owner_id is None:
        army_list.owner = user
        army_list.save(update_fields=["owner", "updated_at"])
    return army_list


@transaction.atomic
def duplicate_list(
    *, army_list: ArmyList, owner: AbstractBaseUser | None = None, name: str | None = None
) -> ArmyList:
    """A private copy (entries, hosts, order, chosen commander, pinned card versions), owned
    by `owner`."""
    if name is None:
        name = _("%(name)s (copy)") % {"name": army_list.name} if army_list.name else ""
    copy = ArmyList.objects.create(
        owner=owner_or_none(owner),
        game=army_list.game,
        name=" ".join(name.split())[:MAX_NAME],
        faction=army_list.faction,
        points_limit=army_list.points_limit,
        ruleset=army_list.ruleset,
        scenario=army_list.scenario,
        gold=army_list.gold,
        silver=army_list.silver,
        copper=army_list.copper,
    )
    copies: dict[int, ListEntry] = {}
    # Parents first (position order keeps them before their children in practice; the
    # two passes make it certain).
    entries = list(army_list.entries.order_by("position", "id"))
    for entry in [e for e in entries if e.parent_id is None] + [
        e for e in entries if e.parent_id is not None
    ]:
        copies[entry.pk] = ListEntry.objects.create(
            army_list=copy,
            card_id=entry.card_id,
            card_version_id=entry.card_version_id,
            role=entry.role,
            parent=copies.get(entry.parent_id),
            position=entry.position,
            chosen_commander=entry.chosen_commander,
        )
    return copy


@transaction.atomic
def update_to_current_cards(*, army_list: ArmyList) -> int:
    """Pin every entry to its card's current version (after errata or new card data; see
    `versions.card_update` for what it changes). Returns how many entries moved."""
    current = Card.objects.filter(pk=OuterRef("card_id")).values("current_version_id")[:1]
    moved = (
        ListEntry.objects.filter(army_list=army_list, card__current_version__isnull=False)
        .exclude(card_version=F("card__current_version"))
        .update(card_version=Subquery(current))
    )
    if moved:
        touch(army_list)
    return moved


@transaction.atomic
def delete_list(*, army_list: ArmyList) -> None:
    army_list.delete()


@transaction.atomic
def remove_entry(*, army_list: ArmyList, entry: ListEntry) -> None:
    """Remove a card; a combat unit or a figure takes what joined it with it."""
    check_entry(army_list, entry)
    entry.delete()  # children (attachments, equipment) cascade
    touch(army_list)


# --- TMG: input checks ------------------------------------------------------------------------


def _check_faction(faction: Faction) -> None:
    if faction is None or faction.game != Game.TMG:
        raise ValidationError(_("Choose a faction of the Tabletop Miniatures Game."), "faction")


def _check_points(points_limit) -> int:
    try:
        points = int(points_limit)
    except (TypeError, ValueError):
        points = -1
    if not MIN_POINTS <= points <= MAX_POINTS:
        raise ValidationError(
            _("The game size must be a whole number from %(min)d to %(max)d points.")
            % {"min": MIN_POINTS, "max": MAX_POINTS},
            "points",
        )
    return points


def _check_ruleset(ruleset: str) -> str:
    if ruleset not in all_rulesets():
        raise ValidationError(_("Unknown ruleset “%(ruleset)s”.") % {"ruleset": ruleset}, "ruleset")
    return ruleset


def _check_tmg(army_list: ArmyList) -> None:
    if army_list.game != ListGame.TMG:
        raise ValidationError(_("Only TMG lists can be edited here."), "game")


def _check_card(card: Card, role: str) -> None:
    check_kind(card, game=Game.TMG, kinds=(ROLE_KINDS.get(role),), role=role)


# --- TMG: lists --------------------------------------------------------------------------------


@transaction.atomic
def create_list(
    *,
    faction: Faction,
    points_limit: int = 40,
    ruleset: str = DEFAULT_RULESET,
    name: str = "",
    owner: AbstractBaseUser | None = None,
) -> ArmyList:
    _check_faction(faction)
    return ArmyList.objects.create(
        owner=owner_or_none(owner),
        game=ListGame.TMG,
        faction=faction,
        points_limit=_check_points(points_limit),
        ruleset=_check_ruleset(ruleset),
        name=check_name(name),
    )


@transaction.atomic
def update_settings(
    *,
    army_list: ArmyList,
    faction: Faction | None = None,
    points_limit: int | None = None,
    ruleset: str | None = None,
    name: str | None = None,
) -> ArmyList:
    """Change only the settings given; the entries stay (a new faction may make them illegal)."""
    _check_tmg(army_list)
    if faction is not None:
        _check_faction(faction)
        army_list.faction = faction
    if points_limit is not None:
        army_list.points_limit = _check_points(points_limit)
    if ruleset is not None:
        army_list.ruleset = _check_ruleset(ruleset)
    if name is not None:
        army_list.name = check_name(name)
    army_list.save()
    return army_list


# --- TMG: entries ------------------------------------------------------------------------------


def _add_checked(
    army_list: ArmyList, card: Card, role: str, host: ListEntry | None = None
) -> ListEntry:
    """Add a TMG card in `role` (an attachment on its `host`) once its shape is checked."""
    _check_tmg(army_list)
    _check_card(card, role)
    if role == EntryRole.ATTACHMENT:
        check_entry(army_list, host, EntryRole.UNIT)
    check_room(army_list)
    entry = add_entry(army_list, card, role, parent=host)
    touch(army_list)
    return entry


@transaction.atomic
def add_unit(*, army_list: ArmyList, card: Card) -> ListEntry:
    return _add_checked(army_list, card, EntryRole.UNIT)


@transaction.atomic
def add_ncu(*, army_list: ArmyList, card: Card) -> ListEntry:
    return _add_checked(army_list, card, EntryRole.NCU)


@transaction.atomic
def add_attachment(*, army_list: ArmyList, card: Card, host: ListEntry) -> ListEntry:
    """Put an attachment on a combat unit of the same list (legal or not: the report says)."""
    return _add_checked(army_list, card, EntryRole.ATTACHMENT, host)


@transaction.atomic
def move_attachment(*, army_list: ArmyList, entry: ListEntry, host: ListEntry) -> ListEntry:
    _check_tmg(army_list)
    check_entry(army_list, entry, EntryRole.ATTACHMENT)
    check_entry(army_list, host, EntryRole.UNIT)
    return move_to(army_list, entry, host)


@transaction.atomic
def set_chosen_commander(
    *, army_list: ArmyList, entry: ListEntry | None, pool: TmgPool | None = None
) -> ListEntry | None:
    """Make a card commander through its faction's rule (Mag the Mighty, …); None clears it."""
    _check_tmg(army_list)
    if entry is not None:
        check_entry(army_list, entry)
        pool = pool or tmg_pool()
        facts = pool.by_id.get(entry.card.external_id)
        rules = pool.context_for(army_list.faction.slug).faction_rules
        if facts is None or not may_be_chosen_commander(facts, rules):
            raise ValidationError(
                _("%(card)s cannot be chosen as commander in a %(faction)s army.")
                % {"card": entry.card.full_name(), "faction": army_list.faction.name_en},
                "not_a_commander_choice",
            )
    army_list.entries.filter(chosen_commander=True).update(chosen_commander=False)
    if entry is not None:
        entry.chosen_commander = True
        entry.save(update_fields=["chosen_commander"])
    touch(army_list)
    return entry


# --- TMG: import -------------------------------------------------------------------------------


def _tmg_faction(slug: str | None) -> Faction:
    faction = Faction.objects.filter(game=Game.TMG, slug=slug or "").first()
    if faction is None:
        raise ValidationError(
            _("The list names no known faction: add a line such as “Faction: Stark”."),
            "faction",
        )
    return faction


@transaction.atomic
def import_list_text(
    *,
    text: str,
    owner: AbstractBaseUser | None = None,
    ruleset: str | None = None,
    pool: TmgPool | None = None,
) -> ImportResult:
    """Read a pasted TMG list with the checker's reader and store what it resolved."""
    check_pasted_text(text)
    pool = pool or tmg_pool()
    parsed = parse_tmg_text(text, factions=pool.faction_aliases)
    try:
        chosen_ruleset = get_ruleset(ruleset or parsed.ruleset)
    except UnknownRuleset:
        chosen_ruleset = get_ruleset()
    build = build_tmg_draft(
        parsed, index=pool.index, factions=pool.faction_aliases, ruleset=chosen_ruleset
    )
    if build.draft is None:
        raise ValidationError(
            _("This text is not an army list: no card lines were found."), "unparseable"
        )
    draft = build.draft
    army_list = ArmyList.objects.create(
        owner=owner_or_none(owner),
        game=ListGame.TMG,
        faction=_tmg_faction(draft.faction),
        points_limit=min(max(draft.points_limit, MIN_POINTS), MAX_POINTS),
        ruleset=chosen_ruleset.id,
        name=" ".join(draft.name.split())[:MAX_NAME],
    )
    read = [
        ReadEntry(
            ref=resolved.ref,
            card_id=resolved.card.id,
            role=resolved.role,
            parent=resolved.host,
            chosen_commander=resolved.ref == draft.chosen_commander,
        )
        for resolved in build.entries
    ]
    problems = store_read_entries(army_list, read, unknown=import_findings.unknown_war_council_id)
    return ImportResult(
        army_list=army_list, problems=(*build.findings, *problems), lines=build.lines
    )


@transaction.atomic
def import_share_code(
    *, code: str, owner: AbstractBaseUser | None = None, ruleset: str | None = None
) -> ImportResult:
    """A War Council share code: card ids -> entries; unknown ids are reported."""
    try:
        decoded = decode_share_code(code)
    except ShareCodeError as exc:
        raise ValidationError(
            _("This is not a War Council share code (%(reason)s).") % {"reason": exc},
            "bad_share_code",
        ) from exc
    army_list = ArmyList.objects.create(
        owner=owner_or_none(owner),
        game=ListGame.TMG,
        faction=_tmg_faction(decoded.faction),
        points_limit=min(max(decoded.points or 40, MIN_POINTS), MAX_POINTS),
        ruleset=_check_ruleset(ruleset or DEFAULT_RULESET),
        name=" ".join(decoded.name.split())[:MAX_NAME],
    )
    read = []
    for number, unit in enumerate(decoded.units):
        host = f"unit-{number}"
        read.append(ReadEntry(ref=host, card_id=unit.unit_id, role=EntryRole.UNIT))
        read += [
            ReadEntry(ref=f"{host}.{i}", card_id=card_id, role=EntryRole.ATTACHMENT, parent=host)
            for i, card_id in enumerate(unit.attachment_ids)
        ]
    read += [
        ReadEntry(ref=f"ncu-{i}", card_id=c, role=EntryRole.NCU)
        for i, c in enumerate(decoded.ncu_ids)
    ]
    # Enemy attachments (hostages): no host of ours.
    read += [
        ReadEntry(ref=f"extra-{i}", card_id=c, role=EntryRole.ATTACHMENT)
        for i, c in enumerate(decoded.extra_ids)
    ]
    problems = store_read_entries(army_list, read, unknown=import_findings.unknown_war_council_id)
    return ImportResult(army_list=army_list, problems=tuple(problems))
