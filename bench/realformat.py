"""Army lists written as players really write them, generated from a card pool.

    .venv/bin/python bench/realformat.py --write DIR [--count 40] [--seed 2025]

`generate(cards, count, seed)` builds plausible TMG armies from the pool's `CardFacts`
(a faction, 3–7 combat units, attachments on some of them, 0–3 NCUs, one commander;
faction or neutral cards, attachments on units of their type) and writes each one the
way players paste lists, mixing the conventions of list-conventions.md at random: app
exports with indented attachments, `with` lines, inline `with` / `in` / parentheses,
`(C)` marks and `Commander:` headers, five ways of printing a cost, names without their
"House" prefix or title, curly apostrophes, en dashes, headers, footers, prose, markdown,
emoji, multipliers and one-line NCU lists.

Each list comes with its War Council share code (the same army, for the share-code
baseline) and its expected reading, taken from the army that was built, never from a
reader. Pure: no Django; the same seed gives the same lists. With `--write`, the module
loads the shipped snapshot through the bench harness and writes DIR/NNN.txt and
DIR/NNN.json (the fixed sample of tests/armybuilder/realformat/).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script from bench/
    sys.path.insert(0, str(ROOT))

from armybuilder.listtext.warcouncil import (  # noqa: E402
    WarCouncilList,
    WarCouncilUnit,
    encode_share_code,
)
from armybuilder.tmg.draft import CardFacts  # noqa: E402

# Cards whose use hangs on something the generator does not model (another card's
# ability, a pet's master, a rules card, a host named by the card): never picked.
AWKWARD_REQUIREMENTS = frozenset(
    {
        "fielded_by_ability",
        "pet_of",
        "must_attach_to",
        "rules_card",
        "controlled_by",
        "controls",
        "host_faction",
        "host_class",
        "requires",
        "adds",
        "acts_as_commander",
        "copy_limit_per",
    }
)
LIST_KINDS = ("unit", "attachment", "ncu")

# Titles and prose are drawn from parts, so that nearly every list's noise is new to the
# reader (as in a real batch): a reader that caches what it failed to read gains nothing.
TITLE_PARTS = (
    (
        "Winter Is Coming",
        "Hammer and Anvil",
        "Casual night list",
        "Grand Melee prep",
        "Testing the new season",
        "My Store Championship list",
        "Tournament list",
    ),
    ("", " – round {n}", " v{n}", " ({n} games)", " – {player}", " by {player}"),
)
PROSE_PARTS = (
    (
        "I like how aggressive this is,",
        "Feedback welcome,",
        "Went {n}-1 with this,",
        "Not sure about the {thing},",
        "First time on this faction,",
        "Played it at {event},",
    ),
    (
        "but the {thing} might be too much",
        "thinking of swapping the {thing}",
        "the {thing} carried every game",
        "and the {thing} did nothing",
        "happy to hear what you would change",
        "it wants to hold the centre",
    ),
    (".", "!", "...", " :)", "?"),
)
PLAYERS = ("Tom", "Anya", "Marek", "Lucie", "Dave", "Sofia", "Kenji", "Pål", "Rhiannon")
EVENTS = ("Winter Clash", "the local league", "Lords of the Trident", "the store GT")
THINGS = ("last unit", "NCUs", "cavalry", "commander pick", "second attachment", "monster")
FOOTERS = (
    "Made with War Council",
    "Made with ASOIAF War Council",
    "Made with the ASOIAF Army Builder",
    "https://asoiaf-stats.com/army-builder",
)
EMOJI = ("🐺", "🦁", "⚔️", "🛡️", "🔥", "🐙", "☀️", "🏰")


@dataclass(frozen=True)
class BuiltUnit:
    card: CardFacts
    attachments: tuple[CardFacts, ...] = ()


@dataclass(frozen=True)
class Army:
    faction: str
    points: int
    units: tuple[BuiltUnit, ...]
    ncus: tuple[CardFacts, ...]
    commander: CardFacts | None

    def cards(self) -> Iterable[CardFacts]:
        for unit in self.units:
            yield unit.card
            yield from unit.attachments
        yield from self.ncus


@dataclass(frozen=True)
class RealFormatList:
    """One generated list: the text as pasted, the same army as a share code, and the
    reading a perfect reader would make of the text."""

    number: int
    text: str
    share_code: str
    army: Army
    conventions: tuple[str, ...] = ()
    expected: dict[str, Any] = field(default_factory=dict)


# --- the pool, seen by faction ---------------------------------------------------------


def _usable(card: CardFacts) -> bool:
    return (
        card.kind in LIST_KINDS
        and card.id.isdigit()
        and card.points is not None
        and not card.attaches_to_enemy
        and not any(r.get("type") in AWKWARD_REQUIREMENTS for r in card.requirements)
    )


class _FactionPool:
    def __init__(self, cards: Sequence[CardFacts], faction: str):
        own = [c for c in cards if c.faction == faction]
        own_names = {(c.name_en, c.title_en) for c in own}
        # A neutral card the faction reprints is fielded as the faction's copy.
        neutral = [
            c for c in cards if c.faction == "neutral" and (c.name_en, c.title_en) not in own_names
        ]
        self.faction = faction
        self.visible = own + neutral  # what a reader may resolve a name to
        rules = {r.get("type") for c in own if c.kind == "special" for r in c.requirements}
        own_characters = {key for c in own for key in c.characters}
        usable = [
            c
            for c in self.visible
            if _usable(c)
            and not (c.is_neutral and "no_neutrals" in rules)
            and not (
                c.is_neutral
                and "prefer_faction_version" in rules
                and set(c.characters) & own_characters
            )
        ]
        self.units = [c for c in usable if c.kind == "unit" and not c.is_commander]
        self.attachments = [c for c in usable if c.kind == "attachment" and not c.is_commander]
        self.ncus = [c for c in usable if c.kind == "ncu" and not c.is_commander]
        self.commanders = [c for c in usable if c.is_commander and c.faction == faction]
        self.by_name: dict[str, list[CardFacts]] = defaultdict(list)
        self.by_first: dict[str, list[CardFacts]] = defaultdict(list)
        self.by_title: dict[str, list[CardFacts]] = defaultdict(list)
        for card in self.visible:
            self.by_name[card.name_en.casefold()].append(card)
            self.by_first[card.name_en.split()[0].casefold()].append(card)
            if card.title_en:
                self.by_title[card.title_en.casefold()].append(card)


def _factions(cards: Sequence[CardFacts]) -> list[str]:
    return sorted({c.faction for c in cards if c.faction and c.faction != "neutral"})


# --- building an army --------------------------------------------------------------------


def _unique_ok(card: CardFacts, used: set[str]) -> bool:
    """Characters are unique: one card per character in the army (and loyal cards follow
    their lord, whose character key `build_army` keeps under "commander:")."""
    lord = {key[len("commander:") :] for key in used if key.startswith("commander:")}
    if any(record.get("to") not in lord for record in card.records("loyalty")):
        return False
    if {f"refused:{card.id}", *(f"refused:{key}" for key in card.characters)} & used:
        return False  # a card already in the army refuses this one
    for record in card.records("not_with"):
        for ref in record.get("refs") or ():
            if {*ref.get("characters", ()), *(f"id:{i}" for i in ref.get("cards", ()))} & used:
                return False
    return not card.is_character or not (set(card.characters or (card.id,)) & used)


def _use(card: CardFacts, used: set[str]) -> None:
    used.add(f"id:{card.id}")
    if card.is_character:
        used.update(card.characters or (card.id,))
    for record in card.records("not_with"):
        for ref in record.get("refs") or ():
            used.update(f"refused:{i}" for i in ref.get("cards", ()))
            used.update(f"refused:{key}" for key in ref.get("characters", ()))


def _fits(attachment: CardFacts, unit: CardFacts) -> bool:
    wanted = attachment.unit_type
    return not unit.is_solo and (not wanted or wanted == "none" or wanted == unit.unit_type)


def _pick(rng: random.Random, cards: list[CardFacts], neutral_share: float) -> CardFacts | None:
    if not cards:
        return None
    neutral = [c for c in cards if c.is_neutral]
    own = [c for c in cards if not c.is_neutral]
    if neutral and (not own or rng.random() < neutral_share):
        return rng.choice(neutral)
    return rng.choice(own)


def _copies_allowed(card: CardFacts) -> int:
    limits = [r.get("max") for r in card.records("copy_limit") if isinstance(r.get("max"), int)]
    return min([2, *limits])


def build_army(rng: random.Random, pool: _FactionPool) -> Army | None:
    """An army within its points and neutral cap, or None when the draw leads nowhere."""
    points = rng.choice((30, 40, 40, 40, 50, 50))
    neutral_cap = points // 2
    used: set[str] = set()
    copies: Counter[str] = Counter()
    budget = {"spent": 0, "neutral": 0}

    def affordable(card: CardFacts) -> bool:
        cost = card.points or 0
        if budget["spent"] + cost > points:
            return False
        return not card.is_neutral or budget["neutral"] + cost <= neutral_cap

    def take(card: CardFacts) -> None:
        _use(card, used)
        copies[card.id] += 1
        budget["spent"] += card.points or 0
        if card.is_neutral:
            budget["neutral"] += card.points or 0

    commander = rng.choice(pool.commanders) if pool.commanders else None
    units: list[list[Any]] = []  # [unit card, [attachments]]
    ncus: list[CardFacts] = []
    if commander is not None:
        take(commander)
        used.update(f"commander:{key}" for key in commander.characters)
        if commander.kind == "unit":
            units.append([commander, []])
        elif commander.kind == "ncu":
            ncus.append(commander)
    wanted_units = rng.randint(3, 7)
    for _ in range(80):
        if len(units) >= wanted_units:
            break
        card = _pick(rng, pool.units, 0.15)
        if (
            card is None
            or not _unique_ok(card, used)
            or copies[card.id] >= _copies_allowed(card)
            or not affordable(card)
        ):
            continue
        take(card)
        units.append([card, []])
    if len(units) < 3:
        return None
    if commander is not None and commander.kind == "attachment":
        hosts = [u for u in units if _fits(commander, u[0])]
        if not hosts:
            return None
        rng.choice(hosts)[1].append(commander)
    for unit in units:
        if unit[1] or unit[0].is_solo or rng.random() < 0.45:
            continue
        fitting = [
            a
            for a in pool.attachments
            if _fits(a, unit[0]) and _unique_ok(a, used) and affordable(a)
        ]
        card = _pick(rng, fitting, 0.15)
        if card is not None:
            take(card)
            unit[1].append(card)
    for _ in range(rng.choice((0, 1, 1, 2, 2, 3)) - len(ncus)):
        options = [c for c in pool.ncus if _unique_ok(c, used) and affordable(c)]
        card = _pick(rng, options, 0.2)
        if card is None:
            break
        take(card)
        ncus.append(card)
    # Now and then a second copy of a unit without characters, written `2 x …`.
    plain = [
        i
        for i, u in enumerate(units)
        if not u[0].is_character
        and not any(a.is_character for a in u[1])
        and copies[u[0].id] < _copies_allowed(u[0])
        and all(affordable(c) for c in (u[0], *u[1]))
        and sum(c.points or 0 for c in (u[0], *u[1])) + budget["spent"] <= points
    ]
    if plain and rng.random() < 0.4:
        at = rng.choice(plain)
        for card in (units[at][0], *units[at][1]):
            take(card)
        units.insert(at + 1, [units[at][0], list(units[at][1])])
    return Army(
        faction=pool.faction,
        points=points,
        units=tuple(BuiltUnit(u[0], tuple(u[1])) for u in units),
        ncus=tuple(ncus),
        commander=commander,
    )


def share_code(army: Army) -> str:
    return encode_share_code(
        WarCouncilList(
            faction=army.faction,
            points=army.points,
            units=tuple(
                WarCouncilUnit(u.card.id, tuple(a.id for a in u.attachments)) for u in army.units
            ),
            ncu_ids=tuple(n.id for n in army.ncus),
        )
    )


def expected_reading(army: Army) -> list[dict[str, Any]]:
    """The entries a perfect reader returns, in army order: a unit then its attachments
    (`host`: the index of their unit in this list), then the NCUs."""
    entries: list[dict[str, Any]] = []
    for unit in army.units:
        host = len(entries)
        entries.append(_entry(unit.card, "unit", None))
        entries.extend(_entry(a, "attachment", host) for a in unit.attachments)
    entries.extend(_entry(n, "ncu", None) for n in army.ncus)
    return entries


def _entry(card: CardFacts, role: str, host: int | None) -> dict[str, Any]:
    return {
        "id": card.id,
        "name": card.label("en"),
        "role": role,
        "host": host,
        "commander": card.is_commander,
    }


# --- writing it as a player would --------------------------------------------------------


NOT_FIRST_NAMES = frozenset(
    {"lord", "lady", "ser", "the", "maester", "king", "queen", "prince", "princess", "old"}
)


def _first_name(card: CardFacts) -> bool:
    """The card's name opens with its character's first name ("Aeron Greyjoy")."""
    first = card.name_en.split()[0].casefold()
    return (
        card.is_character
        and first not in NOT_FIRST_NAMES
        and any(key.split("-")[0] == first for key in card.characters)
    )


class _Writer:
    """One list's conventions, drawn once: players are mostly consistent within a list."""

    def __init__(self, rng: random.Random, pool: _FactionPool, army: Army):
        self.rng, self.pool, self.army = rng, pool, army
        self.used: list[str] = []
        self.layout = rng.choice(("app", "app", "with", "inline", "inline"))
        self.bullet = rng.choice(("• ", "- ", "* ", "")) if self.layout != "app" else "• "
        self.cost = rng.choice(("(5)", "(5)", "(5 pts)", "[5]", "5pts", "- 5", ""))
        self.drop_house = rng.random() < 0.4
        self.curly = rng.random() < 0.3
        self.dash = "–" if rng.random() < 0.4 else "-"
        self.short_names = rng.random() < 0.5
        commander_styles = ["mark", "mark", "header", "header+mark"]
        if self.layout == "inline":
            commander_styles.append("paren")
        self.commander_style = rng.choice(commander_styles)
        self.multiplier = rng.random() < 0.7
        self.ncu_one_line = rng.random() < 0.35

    def note(self, convention: str) -> None:
        if convention not in self.used:
            self.used.append(convention)

    # names ---------------------------------------------------------------------------

    def _fits_alone(self, card: CardFacts, matches: list[CardFacts], cost: bool, mark: bool):
        """No other card a reader could take this name for, given the cost and (C) mark
        printed beside it (the army's own copy of a reprinted card wins)."""
        rivals = [c for c in matches if c.id != card.id and c.kind == card.kind]
        if cost:
            rivals = [c for c in rivals if c.points == card.points]
        if mark:
            rivals = [c for c in rivals if c.is_commander]
        if not card.is_neutral:
            rivals = [c for c in rivals if not c.is_neutral]
        return not rivals

    def name(self, card: CardFacts, *, cost: bool, mark: bool, short: bool = False) -> str:
        pool = self.pool
        name = card.name_en
        title = card.title_en
        first = name.split()[0]
        if (
            short
            and _first_name(card)
            and self.rng.random() < 0.6
            and self._fits_alone(card, pool.by_first[first.casefold()], cost, mark)
        ):
            self.note("first name only")
            return self._polish(first)
        if (
            title
            and self.short_names
            and self._fits_alone(card, pool.by_name[name.casefold()], cost, mark)
        ):
            self.note("name without title")
            title = ""
        if name.startswith("House ") and self.drop_house and not card.is_character:
            self.note('no "House" prefix')
            name = name[len("House ") :]
        if title:
            if self.dash == "–":
                self.note("en dash before title")
            name = f"{name} {self.dash} {title}"
        return self._polish(name)

    def _polish(self, text: str) -> str:
        if self.curly and "'" in text:
            self.note("curly apostrophe")
            return text.replace("'", "’")
        return text

    def cost_text(self, card: CardFacts) -> str:
        if not self.cost:
            return ""
        self.note(f"cost {self.cost}")
        return " " + self.cost.replace("5", str(card.points))

    def card_text(self, card: CardFacts, *, commander_mark: bool = True) -> str:
        mark = commander_mark and card.is_commander and "mark" in self.commander_style
        costed = bool(self.cost) and not (mark and card.points == 0)
        text = self.name(card, cost=costed, mark=mark)
        if mark:
            self.note("(C) mark")
            text += " (C)"
        if costed:
            text += self.cost_text(card)
        return text

    # lines ---------------------------------------------------------------------------

    def headers(self) -> list[str]:
        rng, army = self.rng, self.army
        lines: list[str] = []
        if rng.random() < 0.3:
            self.note("title line")
            title = self.fill("".join(rng.choice(part) for part in TITLE_PARTS))
            if rng.random() < 0.4:
                self.note("emoji")
                title = f"{rng.choice(EMOJI)} {title}"
            lines.append(title)
        faction_name = self.pool_faction_name()
        style = rng.choice(("Faction: {}", "House {}", "**House {}**", "{}", "Faction: {}"))
        if style != "{}" or faction_name != "Neutral":
            self.note(f"faction as {style.format('X')}")
            lines.append(style.format(faction_name))
        spent = sum(c.points or 0 for c in army.cards())
        neutral = sum(c.points or 0 for c in army.cards() if c.is_neutral)
        points = rng.choice(("Points: {p}", "Points: {p} ({n} Neutral)", "{s}/{p} Points", ""))
        if points:
            self.note(f"points as {points}")
            lines.append(points.format(p=army.points, n=neutral, s=min(spent, army.points)))
        if rng.random() < 0.3:
            self.note("activations line")
            lines.append(f"Activations: {len(army.units) + len(army.ncus)}")
        if army.commander is not None and "header" in self.commander_style:
            self.note("Commander: header")
            short = self.name(army.commander, cost=False, mark=True)
            lines.append(f"Commander: {short}")
        return lines

    def pool_faction_name(self) -> str:
        return FACTION_NAMES.get(self.army.faction, self.army.faction.title())

    def units(self) -> list[str]:
        rng, lines = self.rng, []
        heading = rng.choice(("Combat Units:", "**Combat Units**", "Units:", "", "COMBAT UNITS"))
        if self.layout == "inline" and rng.random() < 0.5:
            heading = "Units (Attachments)"
            self.note("legend line")
        if heading:
            lines.append(heading)
        index = 0
        units = self.army.units
        while index < len(units):
            unit = units[index]
            copies = 1
            while self.multiplier and index + copies < len(units) and units[index + copies] == unit:
                copies += 1
            lines.extend(self.unit_lines(unit, copies))
            index += copies
        return lines

    def unit_lines(self, unit: BuiltUnit, copies: int) -> list[str]:
        prefix = ""
        if copies > 1:
            self.note("multiplier")
            prefix = self.rng.choice(("{} x ", "{}x ", "{} × ")).format(copies)
        head = self.bullet + prefix + self.card_text(unit.card)
        if not unit.attachments:
            return [head]
        if self.layout == "app":
            self.note("indented attachments")
            indent = self.rng.choice(("  ", "    ", "\t"))
            return [head, *(f"{indent}• {self.card_text(a)}" for a in unit.attachments)]
        if self.layout == "with":
            self.note("with lines")
            return [head, *(f"with {self.card_text(a)}" for a in unit.attachments)]
        return [self.bullet + prefix + self.inline(unit)]

    def inline(self, unit: BuiltUnit) -> str:
        attachments = unit.attachments
        has_commander = any(a.is_commander for a in attachments)
        forms = ["with", "paren"]
        if len(attachments) == 1:
            forms.append("in")
        if has_commander and self.commander_style == "paren":
            form = "paren-commander"
        else:
            form = self.rng.choice(forms)
        if form == "in":
            self.note("Att in Unit")
            return f"{self.card_text(attachments[0])} in {self.card_text(unit.card)}"
        if form == "with":
            self.note("Unit with Att")
            names = [self.card_text(a) for a in attachments]
            joined = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
            return f"{self.card_text(unit.card)} with {joined}"
        inside = []
        for attachment in attachments:
            if attachment.is_commander:
                self.note("(Att, Commander)")
                name = self.name(attachment, cost=False, mark=True)
                inside.append(f"{name}, Commander")
            else:
                self.note("Unit (Att)")
                inside.append(self.name(attachment, cost=False, mark=False))
        cost = self.cost_text(unit.card) if self.cost in ("[5]", "5pts", "- 5") else ""
        unit_name = self.name(unit.card, cost=bool(cost), mark=False)
        return f"{unit_name} ({', '.join(inside)}){cost}"

    def ncus(self) -> list[str]:
        ncus = self.army.ncus
        if not ncus:
            return []
        if self.ncu_one_line and len(ncus) > 1:
            self.note("NCUs on one line")
            names = [
                self.name(n, cost=False, mark=n.is_commander, short=True)
                + (" (C)" if n.is_commander else "")
                for n in ncus
            ]
            joiner = self.rng.choice((" and ", " & "))
            joined = ", ".join(names[:-1]) + joiner + names[-1]
            label = self.rng.choice(("NCUs: {}", "NCU's: {}", "NCUs - {}"))
            return [label.format(joined)]
        heading = self.rng.choice(("Non-Combat Units:", "NCUs:", "**NCUs**", "NCU"))
        return [heading, *(self.bullet + self.card_text(n) for n in ncus)]

    def fill(self, text: str) -> str:
        rng = self.rng
        return text.format(
            n=rng.randint(2, 9),
            player=rng.choice(PLAYERS),
            event=rng.choice(EVENTS),
            thing=rng.choice(THINGS),
        )

    def footer(self) -> list[str]:
        lines = []
        if self.rng.random() < 0.3:
            self.note("prose line")
            parts = [self.rng.choice(part) for part in PROSE_PARTS]
            lines.append(self.fill(f"{parts[0]} {parts[1]}{parts[2]}"))
        if self.rng.random() < 0.4:
            self.note("footer")
            lines.append(self.rng.choice(FOOTERS))
        return lines

    def write(self) -> str:
        blank = self.rng.random() < 0.5
        blocks = [self.headers(), self.units(), self.ncus(), self.footer()]
        lines: list[str] = []
        for block in blocks:
            if not block:
                continue
            if lines and blank:
                lines.append("")
            lines.extend(block)
        return "\n".join(lines) + "\n"


FACTION_NAMES = {
    "lannister": "Lannister",
    "stark": "Stark",
    "freefolk": "Free Folk",
    "neutral": "Neutral",
    "nightswatch": "Night's Watch",
    "baratheon": "Baratheon",
    "targaryen": "Targaryen",
    "greyjoy": "Greyjoy",
    "martell": "Martell",
    "bolton": "Bolton",
    "brotherhood": "Brotherhood Without Banners",
}


def generate(cards: Sequence[CardFacts], count: int, seed: int = 2025) -> list[RealFormatList]:
    """`count` lists from the pool's cards, the same ones for the same seed and pool."""
    rng = random.Random(seed)
    ordered = sorted(cards, key=lambda c: c.id)
    pools = {f: _FactionPool(ordered, f) for f in _factions(ordered)}
    factions = [f for f, p in pools.items() if p.commanders and len(p.units) >= 3]
    made: list[RealFormatList] = []
    while len(made) < count:
        pool = pools[rng.choice(factions)]
        army = build_army(rng, pool)
        if army is None:
            continue
        writer = _Writer(rng, pool, army)
        text = writer.write()
        made.append(
            RealFormatList(
                number=len(made) + 1,
                text=text,
                share_code=share_code(army),
                army=army,
                conventions=tuple(writer.used),
                expected={
                    "faction": army.faction,
                    "points": army.points,
                    "entries": expected_reading(army),
                },
            )
        )
    return made


def reading_of(entries: Sequence[Any]) -> dict[str, Any]:
    """What a reading is compared on, whatever order its entries come in: each unit with
    its attachments, the NCUs, the attachments with no unit (card ids, commander flags).
    Takes the expected entries (dicts, `host` an index) or a `CheckResult`'s entries
    (`host` a ref)."""
    rows = [
        {**e, "key": position} if isinstance(e, dict) else _result_row(e)
        for position, e in enumerate(entries)
    ]
    position_of = {row["key"]: position for position, row in enumerate(rows)}
    carried: dict[int, list[list[Any]]] = defaultdict(list)
    loose: list[list[Any]] = []
    for row in rows:
        if row["role"] == "attachment":
            host = position_of.get(row["host"]) if row["host"] is not None else None
            target = carried[host] if host is not None else loose
            target.append([row["id"], row["commander"]])
    units = [
        [row["id"], row["commander"], sorted(carried.get(position, []))]
        for position, row in enumerate(rows)
        if row["role"] == "unit"
    ]
    ncus = [[row["id"], row["commander"]] for row in rows if row["role"] == "ncu"]
    return {"units": sorted(units), "ncus": sorted(ncus), "unattached": sorted(loose)}


def _result_row(entry: Any) -> dict[str, Any]:
    return {
        "key": entry.ref,
        "id": entry.card.id,
        "role": entry.role,
        "host": entry.host,
        "commander": bool(entry.commander),
    }


def write_sample(lists: Sequence[RealFormatList], folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for item in lists:
        stem = f"{item.number:03d}-{item.army.faction}"
        (folder / f"{stem}.txt").write_text(item.text, encoding="utf-8")
        (folder / f"{stem}.json").write_text(_expectation_json(item), encoding="utf-8")


def _expectation_json(item: RealFormatList) -> str:
    """The expected reading, one entry a line (diffs stay readable)."""

    def dumps(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False)

    entries = ",\n".join(f"  {dumps(entry)}" for entry in item.expected["entries"])
    return (
        "{\n"
        f' "faction": {dumps(item.expected["faction"])},\n'
        f' "points": {dumps(item.expected["points"])},\n'
        f' "conventions": {dumps(list(item.conventions))},\n'
        f' "share_code": {dumps(item.share_code)},\n'
        f' "entries": [\n{entries}\n ]\n'
        "}\n"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", type=Path, required=True, help="folder for the sample")
    parser.add_argument("--count", type=int, default=40)
    parser.add_argument("--seed", type=int, default=2025)
    args = parser.parse_args()
    from harness import migrate_with_cards, scratch_folder, start_django

    scratch_folder()
    start_django()
    migrate_with_cards()
    from armybuilder.pool import tmg_pool

    lists = generate(tmg_pool().cards, args.count, args.seed)
    write_sample(lists, args.write)
    print(f"{len(lists)} lists written to {args.write}")


if __name__ == "__main__":
    main()
