"""Writes to the card database. Importers parse; `import_card_records` is the one writer.

Everything is upserted by natural key (Faction: game+slug, Sigil: faction+slug,
Character: key, Ability: game+key, Card: game+external id, Scenario: game+slug) inside one
transaction. Values are compared before writing, so importing the same data twice writes
nothing the second time and reports every row unchanged. Cards are updated in place
(saved lists keep their foreign keys); each printing is kept as a `CardVersion`, never
rewritten: changed stats make a new row (see `_Writer.write_versions`), and once the
transaction commits `cards.signals.card_versions_changed` names the cards that moved.
Cards absent from an import are left alone: an import adds and updates, never deletes.
"""

from __future__ import annotations

import copy
import logging
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import Model
from django.utils import timezone

from cards.importers.records import (
    CARD_VALUE_FIELDS,
    PROSE_FIELDS,
    AbilityRecord,
    CardRecord,
    CharacterRecord,
    FactionRecord,
    ImportRecords,
    ScenarioRecord,
)
from cards.models import (
    TACTICS_FIELDS,
    UNIT_STAT_FIELDS,
    Ability,
    Card,
    CardAbility,
    CardVersion,
    Character,
    Faction,
    Scenario,
    Sigil,
    version_digest,
)
from cards.normalise import fold
from cards.query.text import build_search_text
from cards.requirements import faction_slug
from cards.signals import VersionChange, card_versions_changed

logger = logging.getLogger(__name__)

#: progress(stage, done, total): called after each stage of an import.
ImportProgress = Callable[[str, int, int], None]

SUMMARY_MODELS = ("Faction", "Sigil", "Character", "Ability", "Card", "CardVersion", "Scenario")

# Card values recorded in a CardVersion: stats and structure, never prose.
_VERSION_STAT_FIELDS = (
    "kind",
    "name_en",
    "title_en",
    "points",
    "is_commander",
    "is_character",
    *UNIT_STAT_FIELDS,
    "attacks",
    *TACTICS_FIELDS,
    "requirements",
)
_FACTION_FIELDS = ("name_en", "name_fr", "is_neutral", "warcouncil_code", "sort_order")
_ABILITY_FIELDS = ("name_en", "name_fr", *PROSE_FIELDS, "icons", "version")
_SCENARIO_FIELDS = (
    "kind",
    "name_en",
    "name_fr",
    "summary_en",
    "summary_fr",
    "tournament_legal",
    "deployment",
    "objectives",
    "scoring",
    "special_components",
    "gold",
    "silver",
    "copper",
    "rounds",
    "extra",
    "sort_order",
)
_STAGES = (
    "factions",
    "characters",
    "abilities",
    "cards",
    "links",
    "search text",
    "versions",
    "scenarios",
)


@dataclass
class ModelCounts:
    created: int = 0
    updated: int = 0
    unchanged: int = 0

    @property
    def total(self) -> int:
        return self.created + self.updated + self.unchanged


@dataclass
class ImportSummary:
    source: str
    counts: dict[str, ModelCounts] = field(
        default_factory=lambda: {name: ModelCounts() for name in SUMMARY_MODELS}
    )
    seconds: float = 0.0
    # The cards whose current version the import moved (new cards included).
    version_changes: tuple[VersionChange, ...] = ()

    @property
    def changed(self) -> bool:
        return any(c.created or c.updated for c in self.counts.values())

    def rows(self) -> list[tuple[str, int, int, int]]:
        return [(name, c.created, c.updated, c.unchanged) for name, c in self.counts.items()]


def import_card_records(
    *, records: ImportRecords, source: str, progress: ImportProgress | None = None
) -> ImportSummary:
    """Upsert every row of `records` in one transaction and count what changed.

    Raises `CardImportError` (and rolls everything back) when a card names a faction,
    sigil, ability, commander or requirement target that neither the records nor the
    database hold.
    """
    started = time.perf_counter()
    writer = _Writer(records=records, source=source, progress=progress)
    with transaction.atomic():
        writer.run()
        changes = tuple(writer.version_changes)
        if changes:
            # Listeners (the errata-impact report) read committed data, never a rollback.
            transaction.on_commit(lambda: _announce(changes, source=writer.source))
    writer.summary.version_changes = changes
    writer.summary.seconds = time.perf_counter() - started
    return writer.summary


def _announce(changes: tuple[VersionChange, ...], *, source: str) -> None:
    """Send `card_versions_changed`; a failing listener is logged, never undoes the import
    (it has committed) nor hides the other listeners."""
    for receiver, outcome in card_versions_changed.send_robust(
        sender=CardVersion, changes=changes, source=source
    ):
        if isinstance(outcome, Exception):
            logger.error("card_versions_changed: %r failed", receiver, exc_info=outcome)


# --------------------------------------------------------------------------- helpers


def _values(record: Any, names: Iterable[str]) -> dict[str, Any]:
    """The record's values of these fields, by field name."""
    return {name: getattr(record, name) for name in names}


def _apply(instance: Model, values: dict[str, Any]) -> list[str]:
    """Set the values that differ on the instance (unsaved); their names, [] when none do."""
    changed = [name for name, value in values.items() if getattr(instance, name) != value]
    for name in changed:
        setattr(instance, name, values[name])
    return changed


def _given(values: dict[str, Any]) -> dict[str, Any]:
    """The values without prose the source left out (None): stored text stays as it is."""
    return {
        name: value
        for name, value in values.items()
        if not (name in PROSE_FIELDS and value is None)
    }


def _name_refs(value: Any) -> Iterator[dict[str, Any]]:
    """Every name ref inside a requirement record (dicts with `name`, no `type`/`card`)."""
    if isinstance(value, dict):
        if "name" in value and not {"type", "card", "faction"} & value.keys():
            yield value
        for child in value.values():
            yield from _name_refs(child)
    elif isinstance(value, list):
        for child in value:
            yield from _name_refs(child)


@dataclass
class _IndexedCard:
    game: str
    external_id: str
    name: str
    title: str
    aliases: list[str]
    characters: list[str]


class _RefResolver:
    """Finds the cards (and characters) a requirement name ref means, in the final pool."""

    def __init__(self, cards: Iterable[_IndexedCard], characters: dict[str, str]) -> None:
        self.by_full: dict[tuple[str, str], set[str]] = defaultdict(set)
        self.by_name: dict[tuple[str, str], set[str]] = defaultdict(set)
        self.by_character: dict[tuple[str, str], set[str]] = defaultdict(set)
        self.names: dict[str, list[tuple[str, str]]] = defaultdict(list)
        self.character_keys: dict[str, set[str]] = defaultdict(set)
        for key, name in characters.items():
            self.character_keys[fold(name)].add(key)
            self.character_keys[fold(key.replace("-", " "))].add(key)
        for card in cards:
            full = f"{card.name}, {card.title}" if card.title else card.name
            for spelling in (full, *card.aliases):
                self.by_full[(card.game, fold(spelling))].add(card.external_id)
            for spelling in (card.name, *(a.split(",")[0] for a in card.aliases)):
                self.by_name[(card.game, fold(spelling))].add(card.external_id)
            for key in card.characters:
                self.by_character[(card.game, key)].add(card.external_id)
            self.names[card.game].append((fold(card.name), card.external_id))

    def resolve(self, game: str, ref: dict[str, Any]) -> bool:
        """Write `cards` (and `characters`) into the ref; False when nothing matches."""
        for stale in ("cards", "characters"):
            ref.pop(stale, None)
        name = fold(ref.get("name") or "")
        title = fold(ref.get("title") or "")
        if title:
            cards = set(self.by_full.get((game, f"{name}, {title}"), ()))
            characters: set[str] = set()
        else:
            cards = set(self.by_full.get((game, name), ())) | self.by_name.get((game, name), set())
            characters = set(self.character_keys.get(name, ()))
            for key in characters:
                cards |= self.by_character.get((game, key), set())
        if not cards and not title:
            # A group named by its common prefix, e.g. 'Golden Company' (infantry units).
            cards = {cid for card_name, cid in self.names[game] if card_name.startswith(name + " ")}
        if not cards:
            return False
        ref["cards"] = sorted(cards)
        if characters:
            ref["characters"] = sorted(characters)
        return True


# --------------------------------------------------------------------------- writer


class _Writer:
    def __init__(
        self, *, records: ImportRecords, source: str, progress: ImportProgress | None
    ) -> None:
        self.records = records
        self.source = source[:32]
        self.progress = progress
        self.summary = ImportSummary(source=source)
        self.now = timezone.now()
        self.faction_ids: dict[tuple[str, str], int] = {}
        self.sigil_ids: dict[tuple[int, str], int] = {}
        self.card_pks: dict[tuple[str, str], int] = {}
        self.created_cards: set[int] = set()
        self.touched_cards: set[int] = set()
        self.version_changes: list[VersionChange] = []

    def count(self, model: str, kind: str, n: int = 1) -> None:
        setattr(self.summary.counts[model], kind, getattr(self.summary.counts[model], kind) + n)

    def step(self, index: int) -> None:
        if self.progress is not None:
            self.progress(_STAGES[index], index + 1, len(_STAGES))

    def run(self) -> None:
        self.write_factions(self.records.factions)
        self.step(0)
        self.write_characters(self.records.characters)
        self.step(1)
        self.write_abilities(self.records.abilities)
        self.step(2)
        cards = self.records.cards
        self.resolve_requirements(cards)
        self.write_cards(cards)
        self.step(3)
        self.write_card_links(cards)
        self.write_ability_links(cards)
        self.write_character_links(cards)
        self.step(4)
        self.write_search_text()
        self.finish_cards(cards)
        self.step(5)
        self.write_versions(cards)
        self.step(6)
        self.write_scenarios(self.records.scenarios)
        self.step(7)

    # ---- factions and sigils (a handful of rows: one save each)

    def write_factions(self, factions: list[FactionRecord]) -> None:
        existing = {(f.game, f.slug): f for f in Faction.objects.all()}
        for record in factions:
            faction = self._upsert(
                Faction,
                existing,
                (record.game, record.slug),
                {"game": record.game, "slug": record.slug},
                _values(record, _FACTION_FIELDS),
            )
            sigils = {s.slug: s for s in faction.sigils.all()}
            for sigil in record.sigils:
                self._upsert(
                    Sigil,
                    sigils,
                    sigil.slug,
                    {"faction": faction, "slug": sigil.slug},
                    _values(sigil, ("name_en", "name_fr")),
                )
        self.faction_ids = {key: faction.pk for key, faction in existing.items()}

    def _upsert(
        self,
        model: type[Model],
        existing: dict[Any, Model],
        key: Any,
        natural: dict[str, Any],
        values: dict[str, Any],
    ) -> Model:
        """Create the row `existing[key]` from its natural key and values, or save the values
        that changed in it; count which it was. For the few rows saved one by one."""
        instance = existing.get(key)
        if instance is None:
            instance = existing[key] = model.objects.create(**natural, **values)
            self.count(model.__name__, "created")
            return instance
        changed = _apply(instance, values)
        if changed:
            instance.save(update_fields=changed)
        self.count(model.__name__, "updated" if changed else "unchanged")
        return instance

    # ---- characters and abilities (bulk)

    def write_characters(self, characters: list[CharacterRecord]) -> None:
        existing = {c.key: c for c in Character.objects.filter(key__in=[r.key for r in characters])}
        self._bulk_upsert(
            Character,
            existing,
            [
                (r.key, {"key": r.key}, {"name_en": r.name_en, "name_fr": r.name_fr}, r.implied)
                for r in characters
            ],
        )

    def write_abilities(self, abilities: list[AbilityRecord]) -> None:
        keys = {(r.game, r.key) for r in abilities}
        existing = {
            (a.game, a.key): a
            for a in Ability.objects.filter(key__in={k for _g, k in keys})
            if (a.game, a.key) in keys
        }
        rows = [
            (
                (r.game, r.key),
                {"game": r.game, "key": r.key},
                _given(_values(r, _ABILITY_FIELDS)),
                r.implied,
            )
            for r in abilities
        ]
        self._bulk_upsert(Ability, existing, rows)

    def _bulk_upsert(
        self,
        model: type[Model],
        existing: dict[Any, Model],
        rows: list[tuple[Any, dict[str, Any], dict[str, Any], bool]],
    ) -> None:
        name = model.__name__
        to_create, to_update, fields = [], [], set()
        for key, natural, values, implied in rows:
            instance = existing.get(key)
            if instance is None:
                to_create.append(model(**natural, **values))
                existing[key] = to_create[-1]
                self.count(name, "created")
                continue
            changed = [] if implied else _apply(instance, values)
            if changed:
                to_update.append(instance)
                fields.update(changed)
            self.count(name, "updated" if changed else "unchanged")
        model.objects.bulk_create(to_create, batch_size=500)
        if to_update:
            model.objects.bulk_update(to_update, sorted(fields), batch_size=500)

    # ---- cards

    def resolve_requirements(self, cards: list[CardRecord]) -> None:
        """Point every requirement name ref at the cards it means, in the final pool."""
        games = {c.game for c in cards}
        if not any(c.requirements for c in cards):
            return
        in_import = {(c.game, c.external_id) for c in cards}
        indexed = [
            _IndexedCard(
                c.game,
                c.external_id,
                c.name_en,
                c.title_en,
                list(c.extra.get("aliases") or []),
                c.characters,
            )
            for c in cards
        ]
        stored = Card.objects.filter(game__in=games).values_list(
            "pk", "game", "external_id", "name_en", "title_en", "extra"
        )
        stored_characters: dict[int, list[str]] = defaultdict(list)
        through = Card.characters.through
        for card_id, key in through.objects.filter(card__game__in=games).values_list(
            "card_id", "character__key"
        ):
            stored_characters[card_id].append(key)
        for pk, game, external_id, name, title, extra in stored:
            if (game, external_id) not in in_import:
                aliases = list((extra or {}).get("aliases") or [])
                indexed.append(
                    _IndexedCard(game, external_id, name, title, aliases, stored_characters[pk])
                )
        characters = dict(Character.objects.values_list("key", "name_en"))
        characters.update({r.key: r.name_en for r in self.records.characters if not r.implied})
        resolver = _RefResolver(indexed, characters)
        for card in cards:
            if not card.requirements:
                continue
            card.requirements = copy.deepcopy(card.requirements)
            for ref in _name_refs(card.requirements):
                if resolver.resolve(card.game, ref):
                    continue
                slug = faction_slug(ref.get("name") or "")
                if slug and not ref.get("title"):
                    ref["faction"] = slug  # a faction named like a card: a faction ref
                    continue
                shown = ref["name"] + (f", {ref['title']}" if ref.get("title") else "")
                raise card.error(
                    f"card {card.external_id}: requirement names {shown!r}, "
                    "which matches no card or character",
                )

    def _card_values(self, record: CardRecord) -> dict[str, Any]:
        values = _given(_values(record, CARD_VALUE_FIELDS))
        faction_id = None
        if record.faction:
            faction_id = self.faction_ids.get((record.game, record.faction))
            if faction_id is None:
                raise record.error(f"unknown faction {record.faction!r}")
        sigil_id = None
        if record.sigil:
            if faction_id is None:
                raise record.error(f"sigil {record.sigil!r} without a faction")
            sigil_id = self.sigil_ids.get((faction_id, record.sigil))
            if sigil_id is None:
                raise record.error(f"unknown sigil {record.sigil!r} of {record.faction!r}")
        values["faction_id"] = faction_id
        values["sigil_id"] = sigil_id
        values["source"] = self.source
        return values

    def write_cards(self, cards: list[CardRecord]) -> None:
        self.sigil_ids = {(s.faction_id, s.slug): s.pk for s in Sigil.objects.all()}
        existing: dict[tuple[str, str], Card] = {}
        for game in {c.game for c in cards}:
            ids = [c.external_id for c in cards if c.game == game]
            for card in Card.objects.filter(game=game, external_id__in=ids):
                existing[(game, card.external_id)] = card
        to_create, to_update, fields = [], [], set()
        for record in cards:
            values = self._card_values(record)
            card = existing.get((record.game, record.external_id))
            if card is None:
                to_create.append(Card(game=record.game, external_id=record.external_id, **values))
                continue
            changed = _apply(card, values)
            if changed:
                to_update.append(card)
                fields.update(changed)
                self.touched_cards.add(card.pk)
        created = Card.objects.bulk_create(to_create, batch_size=500)
        if to_update:
            Card.objects.bulk_update(to_update, sorted(fields), batch_size=500)
        if any(card.pk is None for card in created):  # backends without RETURNING
            keys = {(c.game, c.external_id) for c in created}
            created = [
                c
                for c in Card.objects.filter(external_id__in=[k[1] for k in keys])
                if (c.game, c.external_id) in keys
            ]
        self.created_cards = {card.pk for card in created}
        self.card_pks = {key: card.pk for key, card in existing.items()}
        self.card_pks.update({(c.game, c.external_id): c.pk for c in created})

    def _card_pk(self, record: CardRecord, external_id: str, what: str) -> int:
        key = (record.game, external_id)
        if key not in self.card_pks:
            found = Card.objects.filter(game=record.game, external_id=external_id).first()
            if found is None:
                raise record.error(f"{what} {external_id!r} is not a known card")
            self.card_pks[key] = found.pk
        return self.card_pks[key]

    def write_card_links(self, cards: list[CardRecord]) -> None:
        """Tactics cards -> commander, replaced basic card: once every card exists."""
        pks = [self.card_pks[(c.game, c.external_id)] for c in cards]
        current = {
            pk: (commander, replaces)
            for pk, commander, replaces in Card.objects.filter(pk__in=pks).values_list(
                "pk", "commander_card_id", "replaces_id"
            )
        }
        to_update = []
        for record in cards:
            pk = self.card_pks[(record.game, record.external_id)]
            wanted = (
                self._card_pk(record, record.commander_card, "commander card")
                if record.commander_card
                else None,
                self._card_pk(record, record.replaces, "replaced card")
                if record.replaces
                else None,
            )
            if current.get(pk) != wanted:
                to_update.append(Card(pk=pk, commander_card_id=wanted[0], replaces_id=wanted[1]))
                self.touched_cards.add(pk)
        if to_update:
            Card.objects.bulk_update(to_update, ["commander_card", "replaces"], batch_size=500)

    def write_ability_links(self, cards: list[CardRecord]) -> None:
        wanted_keys = {(c.game, key) for c in cards for key in c.abilities}
        ability_ids = {
            (game, key): pk
            for pk, game, key in Ability.objects.filter(
                key__in={k for _g, k in wanted_keys}
            ).values_list("pk", "game", "key")
        }
        pks = [self.card_pks[(c.game, c.external_id)] for c in cards]
        current: dict[int, list[tuple[int, int]]] = defaultdict(list)
        for card_id, ability_id, position in (
            CardAbility.objects.filter(card_id__in=pks)
            .order_by("card_id", "position", "pk")
            .values_list("card_id", "ability_id", "position")
        ):
            current[card_id].append((ability_id, position))
        replace: list[int] = []
        new_links: list[CardAbility] = []
        for record in cards:
            pk = self.card_pks[(record.game, record.external_id)]
            wanted = []
            for position, key in enumerate(record.abilities):
                ability_id = ability_ids.get((record.game, key))
                if ability_id is None:
                    raise record.error(f"unknown ability {key!r}")
                wanted.append((ability_id, position))
            if current.get(pk, []) != wanted:
                replace.append(pk)
                new_links += [CardAbility(card_id=pk, ability_id=a, position=p) for a, p in wanted]
                self.touched_cards.add(pk)
        if replace:
            CardAbility.objects.filter(card_id__in=replace).delete()
            CardAbility.objects.bulk_create(new_links, batch_size=500)

    def write_character_links(self, cards: list[CardRecord]) -> None:
        keys = {key for c in cards for key in c.characters}
        character_ids = dict(Character.objects.filter(key__in=keys).values_list("key", "pk"))
        through = Card.characters.through
        pks = [self.card_pks[(c.game, c.external_id)] for c in cards]
        current: dict[int, set[int]] = defaultdict(set)
        for card_id, character_id in through.objects.filter(card_id__in=pks).values_list(
            "card_id", "character_id"
        ):
            current[card_id].add(character_id)
        removals: list[tuple[int, int]] = []
        additions = []
        for record in cards:
            pk = self.card_pks[(record.game, record.external_id)]
            wanted = set()
            for key in record.characters:
                if key not in character_ids:
                    raise record.error(f"unknown character {key!r}")
                wanted.add(character_ids[key])
            have = current.get(pk, set())
            if wanted != have:
                removals += [(pk, cid) for cid in have - wanted]
                additions += [through(card_id=pk, character_id=cid) for cid in wanted - have]
                self.touched_cards.add(pk)
        for card_id, character_id in removals:
            through.objects.filter(card_id=card_id, character_id=character_id).delete()
        through.objects.bulk_create(additions, batch_size=500)

    def write_search_text(self) -> None:
        cards = Card.objects.filter(pk__in=list(self.card_pks.values())).prefetch_related(
            "abilities", "characters"
        )
        to_update = []
        for card in cards:
            text = build_search_text(card)
            if card.search_text != text:
                card.search_text = text
                to_update.append(card)
                self.touched_cards.add(card.pk)
        if to_update:
            Card.objects.bulk_update(to_update, ["search_text"], batch_size=500)

    def finish_cards(self, cards: list[CardRecord]) -> None:
        updated = self.touched_cards - self.created_cards
        if updated:
            Card.objects.filter(pk__in=updated).update(updated_at=self.now)
        self.count("Card", "created", len(self.created_cards))
        self.count("Card", "updated", len(updated))
        self.count("Card", "unchanged", len(cards) - len(self.created_cards) - len(updated))

    # ---- versions

    def _version_stats(self, record: CardRecord) -> dict[str, Any]:
        stats = _values(record, _VERSION_STAT_FIELDS)
        stats.update(
            faction=record.faction,
            abilities=list(record.abilities),
            characters=list(record.characters),
            commander_card=record.commander_card,
            replaces=record.replaces,
        )
        return stats

    def write_versions(self, cards: list[CardRecord]) -> None:
        """Record the version each card was imported as and point `Card.current_version` at
        it. A version row is never rewritten: a label and stats the card has not had before
        make a new row; ones it had (the same data again, or back to an older printing)
        find their row. Every card whose current version moved is kept in
        `version_changes`, for the `card_versions_changed` signal."""
        pks = [self.card_pks[(c.game, c.external_id)] for c in cards]
        known: dict[tuple[int, str], int] = {
            (card_id, digest): pk
            for pk, card_id, digest in CardVersion.objects.filter(card_id__in=pks).values_list(
                "pk", "card_id", "digest"
            )
        }
        current = dict(Card.objects.filter(pk__in=pks).values_list("pk", "current_version_id"))
        wanted: dict[int, str] = {}
        to_create: dict[tuple[int, str], CardVersion] = {}
        for record in cards:
            pk = self.card_pks[(record.game, record.external_id)]
            stats = self._version_stats(record)
            digest = version_digest(record.version, stats)
            wanted[pk] = digest
            if (pk, digest) in known or (pk, digest) in to_create:
                self.count("CardVersion", "unchanged")
                continue
            to_create[(pk, digest)] = CardVersion(
                card_id=pk, version=record.version, stats=stats, digest=digest, source=self.source
            )
            self.count("CardVersion", "created")
        created = CardVersion.objects.bulk_create(list(to_create.values()), batch_size=500)
        if any(version.pk is None for version in created):  # backends without RETURNING
            created = list(CardVersion.objects.filter(card_id__in=pks))
        known.update({(v.card_id, v.digest): v.pk for v in created})
        moved = []
        for pk, digest in wanted.items():
            new = known[(pk, digest)]
            if current.get(pk) != new:
                moved.append(Card(pk=pk, current_version_id=new))
                self.version_changes.append(VersionChange(pk, current.get(pk), new))
        if moved:
            Card.objects.bulk_update(moved, ["current_version"], batch_size=500)

    # ---- scenarios

    def write_scenarios(self, scenarios: list[ScenarioRecord]) -> None:
        existing = {(s.game, s.slug): s for s in Scenario.objects.all()}
        for record in scenarios:
            self._upsert(
                Scenario,
                existing,
                (record.game, record.slug),
                {"game": record.game, "slug": record.slug},
                _values(record, _SCENARIO_FIELDS),
            )
