"""What the one list builder needs to know about each game, and nothing more.

The builder pages (`lists.views`) are written once: they read a list, call the game's
selectors and services through its `GameAdapter`, and render the game's templates
(`lists/<game>/…`, each filling the blocks of a shared `lists/…` page). Everything that
really differs between the Tabletop Miniatures Game and Tactics is here or in the game's
own modules (`services` / `tactics_services`, `selectors` / `tactics_selectors`, their
forms and the endpoints only one game has). Adding a game means adding its adapter to
`GAMES`, its pure package and its templates, not copying the builder.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import QuerySet
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from armybuilder.listtext.warcouncil import looks_like_share_code
from armybuilder.result import CheckResult
from armybuilder.tmg.rulesets import get_ruleset
from cards.models import Card, CardKind, CardSet, Game

from . import selectors, services, tactics_selectors, tactics_services
from .forms import GameSettingsForm, ListSettingsForm, TacticsSettingsForm
from .models import ArmyList, EntryRole
from .selectors import PlacementOption
from .services import ImportResult

# The templates each game provides under lists/<game>/.
TEMPLATES = (
    "edit",
    "detail",
    "print",
    "new",
    "_panel",
    "_status",
    "_size",
    "_chooser",
    "_picker_results",
    "_entries",
    "_row",
)


@dataclass(frozen=True)
class Chooser:
    """The chooser of where a card that joins another goes (a TMG attachment's combat
    unit, a Tactics item's figure): every candidate, the illegal ones disabled with the
    validator's reasons (see `lists.placements`)."""

    param: str  # the query parameter that names the card to place (?attach=, ?equip=)
    kind: str  # the kind of card it places
    role: str  # the role of the entry it moves (?move=)
    # (army_list, card, *, moving, lang) -> one `PlacementOption` per candidate
    options: Callable[..., list[PlacementOption]]
    field: str  # the form field that names the chosen candidate
    add_url: str  # where the chosen candidate is posted, for a new card
    move_url: str  # … and for a moved entry
    not_in_list: Promise  # the error for a ?move= that is no such entry of the list
    wrong_card: Promise  # the error for a card it cannot place


@dataclass(frozen=True)
class GameAdapter:
    """One game as the builder sees it: a list of entries with costs, read and written
    through the game's own selectors and services, drawn by the game's templates."""

    slug: str  # the game (a `Game` value), and its templates' folder
    settings_form: type[GameSettingsForm]
    settings_url: str  # the URL name the settings form posts to
    # The game's services: (*, owner, **form.settings()) -> a new list;
    # (*, army_list, **form.settings()) -> its settings changed; (*, text, owner) -> a list
    # read from a pasted text (or code).
    create: Callable[..., ArmyList]
    update: Callable[..., ArmyList]
    import_text: Callable[..., ImportResult]
    # (army_list, *, lang) -> the list's rows and report, as the pages show them
    state: Callable[..., Any]
    # (army_list, *, lang) -> the list's check, recomputed from current card data
    report: Callable[..., CheckResult]
    # (army_list, *, lang) -> the list's canonical text
    text: Callable[..., str]
    # army_list -> the cards the picker searches
    pickable: Callable[[ArmyList], QuerySet[Card]]
    chooser: Chooser
    remove_url: str  # the URL name that removes an entry
    # army_list -> what else the game's templates read
    context: Callable[[ArmyList], dict] = lambda army_list: {}

    @property
    def templates(self) -> Mapping[str, str]:
        """`{"edit": "lists/tmg/edit.html", "row": "lists/tmg/_row.html", …}`"""
        folder = f"lists/{self.slug}"
        return MappingProxyType({name.lstrip("_"): f"{folder}/{name}.html" for name in TEMPLATES})


# --- the Tabletop Miniatures Game --------------------------------------------------------------


def _import_list(
    *, text: str, owner: AbstractBaseUser | None = None, card_sets: Sequence[CardSet] = ()
) -> ImportResult:
    """A pasted TMG list, or a War Council share code (card sets are Tactics')."""
    if looks_like_share_code(text):
        return services.import_share_code(code=text, owner=owner)
    return services.import_list_text(text=text, owner=owner)


def _ruleset_context(army_list: ArmyList) -> dict:
    """The list's ruleset (the default one when it names none we know)."""
    try:
        return {"ruleset": get_ruleset(army_list.ruleset or None)}
    except LookupError:
        return {"ruleset": get_ruleset()}


TMG = GameAdapter(
    slug=Game.TMG,
    settings_form=ListSettingsForm,
    settings_url="lists:settings",
    create=services.create_list,
    update=services.update_settings,
    import_text=_import_list,
    state=selectors.list_state,
    report=selectors.list_report,
    text=selectors.list_text,
    pickable=selectors.pickable_cards,
    chooser=Chooser(
        param="attach",
        kind=CardKind.ATTACHMENT,
        role=EntryRole.ATTACHMENT,
        options=selectors.host_options,
        field="host",
        add_url="lists:add",
        move_url="lists:move",
        not_in_list=_("That attachment is not part of this list."),
        wrong_card=_("That card is not a TMG attachment."),
    ),
    remove_url="lists:remove",
    context=_ruleset_context,
)


# --- Tactics -----------------------------------------------------------------------------------


TACTICS = GameAdapter(
    slug=Game.TACTICS,
    settings_form=TacticsSettingsForm,
    settings_url="lists:tactics_settings",
    create=tactics_services.create_warband,
    update=tactics_services.update_warband,
    import_text=tactics_services.import_warband_text,
    state=tactics_selectors.warband_state,
    report=tactics_selectors.warband_report,
    text=tactics_selectors.warband_text,
    pickable=tactics_selectors.pickable_tactics_cards,
    chooser=Chooser(
        param="equip",
        kind=CardKind.EQUIPMENT,
        role=EntryRole.EQUIPMENT,
        options=tactics_selectors.holder_options,
        field="holder",
        add_url="lists:tactics_equip",
        move_url="lists:tactics_equip",
        not_in_list=_("That equipment is not part of this warband."),
        wrong_card=_("That card is not Tactics equipment."),
    ),
    remove_url="lists:tactics_remove",
)


GAMES: Mapping[str, GameAdapter] = MappingProxyType({TMG.slug: TMG, TACTICS.slug: TACTICS})


def for_game(game: str | None) -> GameAdapter:
    """The adapter of `game`: a list's game, or the one a visitor asked for (`?game=`, a
    pasted text's); TMG's when it names none the builder knows."""
    return GAMES.get(game or "", TMG)
