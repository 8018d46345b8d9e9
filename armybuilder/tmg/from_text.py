"""From a read TMG list (`listtext.tmg`) to an ArmyDraft: names resolved to cards with the
hints a person uses, attachments on their hosts, and every line accounted for.

For each card line the reading whose names are cards wins (`_best_reading`). Each name is
then narrowed (`_narrow`) by what is known around it: the kind of card the line's shape
asks for, a commander mark, the army's faction (given, or inferred from the cards only
one faction has), the host's unit type, the army's own printing over a neutral reprint,
and last the printed cost. A name whose exact card cannot be meant there (another kind,
another faction) gets a second look by the loose ways. What chose the card is kept on
the entry (`how`), with the other cards the name could be (`alternatives`); a choice made
on a preference rather than a rule is a `CARD_CHOSEN` warning. Where several cards
remain, none is picked: `CARD_AMBIGUOUS`, with the candidates.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from armybuilder.findings import Finding, Severity
from armybuilder.listtext.reading import LineKind, LineReading, reading_finding
from armybuilder.listtext.resolve import CardIndex, How, Match, name_key
from armybuilder.listtext.tmg import Mention, ParsedTmgList, Reading, TmgLine, faction_from_key
from common.i18n import Bilingual, Localizable, Message, _

from .draft import ArmyDraft, CardFacts, Entry, UnitEntry
from .rulesets import Ruleset

LIST_KINDS = frozenset({"unit", "attachment", "ncu"})
STANDARD_SIZES = (30, 40, 50)
WEAK = frozenset({How.CORE, How.FIRST_NAME, How.TITLE, How.TYPO, How.NICKNAME})

HOW_TEXT: dict[How, Message] = {
    How.EXACT: _("its name and title"),
    How.NAME: _("its name"),
    How.TITLE_WORDS: _("its name and words of its title"),
    How.NICKNAME: _("a nickname players use for it"),
    How.CORE: _("its name without House or faction words, or the end of its name"),
    How.FIRST_NAME: _("a character's first name"),
    How.TITLE: _("its title alone"),
    How.TYPO: _("a name one or two letters away"),
}


@dataclass(frozen=True)
class ResolvedEntry:
    ref: str
    line: int | None  # None: not read from text (a saved list)
    card: CardFacts
    role: str  # unit | attachment | ncu
    host: str | None = None
    corrected_from: str | None = None
    how: Localizable | None = None
    alternatives: tuple[str, ...] = ()
    printed_cost: str | None = None


@dataclass(frozen=True)
class TmgListBuild:
    draft: ArmyDraft | None
    findings: tuple[Finding, ...]
    entries: tuple[ResolvedEntry, ...] = ()
    points_assumed: bool = False
    lines: tuple[LineReading, ...] = ()


@dataclass(frozen=True)
class Choice:
    """What narrowing a name gave: one card (`card`), or none with the cards left."""

    card: CardFacts | None
    left: tuple[CardFacts, ...]
    matched: tuple[CardFacts, ...]
    how: How | None
    reasons: tuple[Message, ...] = ()
    preferred: bool = False  # a preference, not a rule, made the choice
    suggestions: tuple[str, ...] = ()
    corrected_to: str | None = None


@dataclass
class _Context:
    faction: str | None
    host: CardFacts | None = None
    attachments_marked: bool = False


def _faction_label(slug: str, factions: Mapping[str, tuple[str, ...]]) -> Bilingual:
    """A faction's printed name in both languages (its slug when the pool has no name)."""
    names = [name for name in factions.get(slug, ()) if name] or [slug]
    return Bilingual(names[0], names[-1])


def resolve_faction(text: str | None, factions: Mapping[str, tuple[str, ...]]) -> str | None:
    """Faction slug from 'Stark', 'House Stark', 'Maison Stark', 'Peuple Libre', …"""
    if not text:
        return None
    key = name_key(text)
    for prefix in ("house ", "maison ", "the ", "faction "):
        if key.startswith(prefix):
            key = key[len(prefix) :]
    return faction_from_key(key, factions)


def _kinds_for(
    mention: Mention, line: TmgLine, attachments_marked: bool = False
) -> tuple[str, ...]:
    """The card kinds the line's shape asks for, preferred first. `attachments_marked`:
    the list writes its attachments indented, after "with" or inline, so a plain line of
    it is a unit."""
    if mention.carrier is not None or mention.role_word == "attachment":
        return ("attachment",)
    if mention.role_word == "ncu" or line.section == "ncus":
        return ("ncu",)
    if mention.attached or line.nested:
        return ("attachment", "unit")
    if line.section == "units" or (attachments_marked and line.section is None):
        return ("unit", "attachment")
    return ()


def _narrow(match: Match[CardFacts], mention: Mention, line: TmgLine, ctx: _Context) -> Choice:
    cards = [c for c in match.cards if c.kind in LIST_KINDS]
    matched = tuple(cards)
    if not cards:
        return Choice(None, (), matched, match.how, suggestions=match.suggestions)
    if len(cards) == 1:
        return Choice(cards[0], matched, matched, match.how, corrected_to=match.corrected_to)
    reasons: list[Message] = []
    preferred = False

    def keep(test: Callable[[CardFacts], bool], reason: Message, *, soft: bool = False) -> None:
        nonlocal cards, preferred
        narrowed = [c for c in cards if test(c)]
        if narrowed and len(narrowed) < len(cards):
            cards = narrowed
            reasons.append(reason)
            preferred = preferred or soft

    kinds = _kinds_for(mention, line, ctx.attachments_marked)
    if kinds:
        keep(lambda c: c.kind == kinds[0], _("the line's place in the list"))
    if mention.commander:
        keep(lambda c: c.is_commander, _("the commander mark"))
    if ctx.faction:
        faction = ctx.faction
        keep(lambda c: c.faction in (faction, "neutral"), _("the army's faction"))
    if ctx.host is not None and ctx.host.unit_type:
        unit_type = ctx.host.unit_type
        keep(lambda c: c.unit_type in ("", unit_type), _("its unit's type"))
    if ctx.faction:
        own = ctx.faction
        keep(lambda c: c.faction == own, _("the army's own version"))
    if mention.cost is not None:
        printed = int(mention.cost)
        keep(lambda c: c.points == printed, _("the printed cost"), soft=True)
    if len(cards) > 1 and len({_same_card(c) for c in cards}) == 1:
        cards = cards[:1]
    if len(cards) == 1:
        return Choice(
            cards[0],
            tuple(cards),
            matched,
            match.how,
            tuple(reasons),
            preferred and len(matched) > 1,
            corrected_to=match.corrected_to,
        )
    return Choice(None, tuple(cards), matched, match.how, tuple(reasons))


def _same_card(card: CardFacts) -> tuple:
    """Two printings a list cannot tell apart and that judge alike."""
    return (card.name_en, card.title_en, card.faction, card.kind, card.points, card.unit_type)


def _score(reading: Reading, line: TmgLine, index: CardIndex[CardFacts], fuzzy: bool) -> tuple:
    """How well a reading's names are cards: all of them, then fewest loose matches."""
    found = weak = 0
    for mention in reading:
        match = index.find(mention.name, fuzzy=fuzzy)
        kinds = {c.kind for c in match.cards} & LIST_KINDS
        if mention.carrier is not None:
            kinds &= {"attachment"}
        if kinds:
            found += 1
            weak += match.how in WEAK
    if found == len(reading):
        return (True, -weak, found, -len(reading))
    return (False, found, -weak, -len(reading))


def _best_reading(line: TmgLine, index: CardIndex[CardFacts], fuzzy: bool = True) -> Reading:
    if len(line.options) == 1:
        return line.options[0]
    # Without typo search first (cheap); with it only when no reading's names all exist.
    for typos in (False, True) if fuzzy else (False,):
        score, _position, reading = max(
            (_score(option, line, index, typos), -position, option)
            for position, option in enumerate(line.options)
        )
        if score[0]:
            break
    return reading


def _title_zone(parsed: ParsedTmgList) -> frozenset[int]:
    """Unmarked card-text lines before the list starts (before a section heading or a
    bulleted or priced card line): titles, the player, the event. No typo search there."""
    zone = set()
    for line in parsed.lines:
        if line.kind is LineKind.SECTION or (line.kind is None and (line.marked or line.nested)):
            break
        if line.kind is None:
            zone.add(line.number)
    return frozenset(zone)


def _infer_faction(
    lines: Sequence[tuple[TmgLine, Reading]],
    index: CardIndex[CardFacts],
    title_zone: frozenset[int] = frozenset(),
) -> str | None:
    """The faction of the cards only one faction prints, by count."""
    seen: Counter[str] = Counter()
    for _line, reading in lines:
        for mention in reading:
            found = index.find(mention.name, fuzzy=_line.number not in title_zone)
            cards = [c for c in found.cards if c.kind in LIST_KINDS]
            factions = {c.faction for c in cards}
            if len(factions) == 1 and "neutral" not in factions:
                seen[factions.pop()] += mention.quantity
    return seen.most_common(1)[0][0] if seen else None


def _repeat_groups(reading: Reading) -> Reading:
    """`2 x Reavers with Reaver Captain`: two units, each with its attachment."""
    copies = reading[0].quantity if reading else 1
    if copies <= 1 or len(reading) == 1 or any(m.quantity != copies for m in reading):
        return reading
    single = tuple(replace(m, quantity=1) for m in reading)
    repeated: list[Mention] = []
    for copy in range(copies):
        offset = copy * len(single)
        repeated.extend(
            replace(m, carrier=m.carrier + offset) if m.carrier is not None else m for m in single
        )
    return tuple(repeated)


class _Builder:
    """Walks the card lines in order, placing each card; collects entries and findings."""

    def __init__(self, index: CardIndex[CardFacts], faction: str | None):
        self.index = index
        self.faction = faction
        self.units: list[UnitEntry] = []
        self.ncus: list[Entry] = []
        self.unattached: list[Entry] = []
        self.resolved: list[ResolvedEntry] = []
        self.findings: list[Finding] = []
        self.counters: Counter[str] = Counter()
        self.current_unit: int | None = None  # index in self.units
        self.claims: list[str] = []  # refs claimed as commander
        self.line_refs: dict[int, list[str]] = {}
        self.line_state: dict[int, LineKind] = {}
        self.line_candidates: dict[int, tuple[str, ...]] = {}
        self.line_notes: dict[int, Localizable] = {}
        self.host_unknown = False  # the last unit line named no card
        self.title_zone: frozenset[int] = frozenset()  # lines read without typo search
        self.attachments_marked = False  # attachments written nested, with "with", inline
        self.header_commanders: set[str] = set()  # names a Commander: header gives
        self.last_group: list[int] = []  # the units the last unit line made (2 x Unit)

    def place(self, line: TmgLine, reading: Reading) -> None:
        refs = self.line_refs.setdefault(line.number, [])
        reading = _repeat_groups(reading)
        if not line.nested:
            self.last_group = []
        if line.nested and self.host_unknown:
            # Its unit could not be read: report the line only if it is unknown too, and
            # keep it out of the army rather than hang it on the wrong unit.
            for mention in reading:
                choice = _narrow(self.index.find(mention.name), mention, line, _Context(None))
                if choice.card is None and not choice.left:
                    self.findings.append(self._unknown(line, mention, choice))
            self.line_state[line.number] = LineKind.UNKNOWN
            self.line_notes[line.number] = _("under a unit that could not be read")
            return
        unknown = ambiguous = 0
        units_here: dict[int, int] = {}  # mention index -> unit index
        for position, mention in enumerate(reading):
            host = None
            if mention.carrier is not None:
                host = units_here.get(mention.carrier)
            elif (mention.attached or line.nested) and self.current_unit is not None:
                host = self.current_unit
            host_card = self.units[host].card if host is not None else None
            if self.header_commanders and name_key(mention.name) in self.header_commanders:
                mention = replace(mention, commander=True)
            ctx = _Context(self.faction, host_card, self.attachments_marked)
            fuzzy = line.number not in self.title_zone
            choice = _narrow(self.index.find(mention.name, fuzzy=fuzzy), mention, line, ctx)
            if choice.card is not None and not self._fits(choice.card, mention, line):
                looser = _narrow(self.index.find_looser(mention.name), mention, line, ctx)
                if looser.card is not None and self._fits(looser.card, mention, line):
                    choice = looser
            if choice.card is None:
                if choice.left:
                    ambiguous += 1
                    self.findings.append(self._ambiguous(line, mention, choice))
                    self.line_candidates[line.number] = tuple(c.id for c in choice.left)
                else:
                    unknown += 1
                    self.findings.append(self._unknown(line, mention, choice))
                continue
            card = choice.card
            for _copy in range(mention.quantity):
                added = self._add(line, mention, choice, card, host, units_here, position)
                refs.extend(added)
                if mention.commander:
                    self.claims.extend(added)
            if choice.preferred:
                self.findings.append(self._chosen(line, mention, choice))
            if choice.how is How.TYPO:
                self.findings.append(self._corrected(line, mention, choice))
        if not line.nested:
            self.host_unknown = not refs
            if not refs:
                self.current_unit = None
        if refs:
            self.line_state[line.number] = LineKind.CARD
        elif ambiguous:
            self.line_state[line.number] = LineKind.AMBIGUOUS
        else:
            self.line_state[line.number] = LineKind.UNKNOWN

    def _fits(self, card: CardFacts | None, mention: Mention, line: TmgLine) -> bool:
        """Whether a card can be what the line means: of the kind its place asks for, of
        the army's faction or Neutral."""
        if card is None:
            return False
        kinds = _kinds_for(mention, line, self.attachments_marked)
        if kinds and card.kind not in kinds:
            return False
        return self.faction is None or card.faction in (self.faction, "neutral")

    def _add(
        self,
        line: TmgLine,
        mention: Mention,
        choice: Choice,
        card: CardFacts,
        host: int | None,
        units_here: dict[int, int],
        position: int,
    ) -> list[str]:
        how = _how_message(choice)
        alternatives = tuple(c.id for c in choice.matched if c.id != card.id)
        corrected = mention.name if choice.how is How.TYPO else None

        def entry(ref: str, role: str, host_ref: str | None = None) -> ResolvedEntry:
            return ResolvedEntry(
                ref, line.number, card, role, host_ref, corrected, how, alternatives, mention.cost
            )

        if card.kind == "unit":
            self.counters["unit"] += 1
            ref = f"unit-{self.counters['unit']}"
            self.units.append(UnitEntry(ref=ref, card=card))
            self.current_unit = len(self.units) - 1
            units_here[position] = self.current_unit
            if not line.nested and mention.carrier is None:
                self.last_group.append(self.current_unit)
            self.resolved.append(entry(ref, "unit"))
            return [ref]
        if card.kind == "ncu":
            self.counters["ncu"] += 1
            ref = f"ncu-{self.counters['ncu']}"
            self.ncus.append(Entry(ref=ref, card=card))
            self.current_unit = None
            self.resolved.append(entry(ref, "ncu"))
            return [ref]
        loose = line.section in ("ncus", "attachments", "commander")
        if host is None and not mention.attached and not line.nested and not loose:
            # A plain line right after its unit (no indent, no "with"): the unit it follows.
            host = self.current_unit
        hosts = [host] if host is not None else []
        if host is not None and mention.carrier is None and host in self.last_group:
            # `2 x Ranger Vanguards` then an indented attachment: one on each of them.
            hosts = list(self.last_group)
        if hosts:
            return [self._attach(index, card, entry) for index in hosts]
        self.counters["unattached"] += 1
        ref = f"attachment-{self.counters['unattached']}"
        self.unattached.append(Entry(ref=ref, card=card))
        self.resolved.append(entry(ref, "attachment"))
        return [ref]

    def _attach(self, host: int, card: CardFacts, entry: Callable[..., ResolvedEntry]) -> str:
        unit = self.units[host]
        self.counters[unit.ref] += 1
        ref = f"{unit.ref}.attachment-{self.counters[unit.ref]}"
        self.units[host] = UnitEntry(
            ref=unit.ref, card=unit.card, attachments=(*unit.attachments, Entry(ref, card))
        )
        self.resolved.append(entry(ref, "attachment", unit.ref))
        return ref

    # --- findings about reading ------------------------------------------------------

    @staticmethod
    def _ambiguous(line: TmgLine, mention: Mention, choice: Choice) -> Finding:
        options = Bilingual.of(lambda lang: "; ".join(c.label(lang) for c in choice.left[:6]))
        return reading_finding(
            "CARD_AMBIGUOUS",
            severity=Severity.ERROR,
            message=_(
                "line {line}: '{name}' matches several cards: {cards}",
                line=line.number,
                name=mention.name,
                cards=options,
            ),
            entries=(f"line-{line.number}",),
            fix=_("add the card's title or its cost"),
            data={"candidates": [c.id for c in choice.left], "line": line.number},
        )

    @staticmethod
    def _unknown(line: TmgLine, mention: Mention, choice: Choice) -> Finding:
        hint = "; ".join(choice.suggestions)
        message = _("line {line}: no card named '{name}'", line=line.number, name=mention.name)
        if choice.matched == () and choice.how is not None:
            message = _(
                "line {line}: '{name}' is not a unit, attachment or NCU",
                line=line.number,
                name=mention.name,
            )
        if hint:
            message = _("{message} (closest: {names})", message=message, names=hint)
        return reading_finding(
            "CARD_UNKNOWN",
            severity=Severity.ERROR,
            message=message,
            entries=(f"line-{line.number}",),
            fix=_("did you mean {names}?", names=hint) if hint else None,
            data={"suggestions": list(choice.suggestions), "line": line.number},
        )

    @staticmethod
    def _chosen(line: TmgLine, mention: Mention, choice: Choice) -> Finding:
        card = choice.card
        assert card is not None
        others = [c for c in choice.matched if c.id != card.id]
        return reading_finding(
            "CARD_CHOSEN",
            message=_(
                "line {line}: '{name}' could be {others}; read as {card} ({why})",
                line=line.number,
                name=mention.name,
                others=Bilingual.of(lambda lang: "; ".join(_told(c, lang) for c in others[:5])),
                card=Bilingual.of(lambda lang: _told(card, lang)),
                why=_reasons(choice.reasons),
            ),
            entries=(f"line-{line.number}",),
            fix=_("add the card's title or its cost"),
            data={"chosen": card.id, "candidates": [c.id for c in choice.matched]},
        )

    @staticmethod
    def _corrected(line: TmgLine, mention: Mention, choice: Choice) -> Finding:
        card = choice.card
        assert card is not None
        return reading_finding(
            "NAME_CORRECTED",
            message=_(
                "line {line}: '{name}' read as {card}",
                line=line.number,
                name=mention.name,
                card=Bilingual.of(card.label),
            ),
            entries=(f"line-{line.number}",),
        )


def _told(card: CardFacts, lang: str) -> str:
    """A card's label with what tells it from its namesakes: faction and id."""
    return f"{card.label(lang)} [{card.faction}, {card.id}]"


class _Joined:
    """Several messages joined with commas, each in the reader's language."""

    def __init__(self, parts: Sequence[Localizable]):
        self.parts = tuple(parts)

    def in_language(self, lang: str | None) -> str:
        return ", ".join(part.in_language(lang) for part in self.parts)


def _reasons(reasons: Sequence[Message]) -> Localizable:
    return _Joined(reasons)


_READ_BY = {how: _("read by {how}", how=text) for how, text in HOW_TEXT.items()}


def _how_message(choice: Choice) -> Localizable:
    base = HOW_TEXT[choice.how] if choice.how is not None else HOW_TEXT[How.NAME]
    if not choice.reasons:
        return _READ_BY[choice.how or How.NAME]
    return _("read by {how}, chosen by {why}", how=base, why=_reasons(choice.reasons))


# --- line notes -----------------------------------------------------------------------

KIND_NOTES: dict[LineKind, Message] = {
    LineKind.SECTION: _("a section heading"),
    LineKind.LEGEND: _("a legend explaining how the list is written"),
    LineKind.FOOTER: _("a footer (app, link or total)"),
    LineKind.EXTRA: _(
        "not a unit, attachment or NCU of the list (tactics card, terrain, objective)"
    ),
    LineKind.PROSE: _("a sentence about the list, ignored"),
    LineKind.TITLE: _("read as the list's title"),
    LineKind.OTHER_LIST: _("part of another list in the same text, not checked here"),
}
HEADER_NOTES: dict[str, Message] = {
    "faction": _("the army's faction"),
    "points": _("the game size"),
    "activations": _("the number of activations (not checked)"),
    "ruleset": _("the ruleset"),
    "game": _("the game"),
    "neutral": _("the neutral points (recomputed)"),
    "commander": _("names the commander"),
}


def build_tmg_draft(
    parsed: ParsedTmgList,
    *,
    index: CardIndex[CardFacts],
    factions: Mapping[str, tuple[str, ...]],
    ruleset: Ruleset,
    default_points: int = 40,
) -> TmgListBuild:
    findings: list[Finding] = []
    faction = resolve_faction(parsed.faction, factions)
    if parsed.faction and faction is None:
        findings.append(
            reading_finding(
                "LIST_UNPARSEABLE",
                severity=Severity.ERROR,
                message=_("unknown faction '{faction}'", faction=parsed.faction),
                fix=_("use one of: {factions}", factions=", ".join(sorted(factions))),
            )
        )
    title_zone = _title_zone(parsed)
    chosen = [
        (line, _best_reading(line, index, line.number not in title_zone))
        for line in parsed.lines
        if line.options
    ]
    card_lines = [(line, reading) for line, reading in chosen if line.kind is None]
    header_commander = next(
        ((line, reading) for line, reading in chosen if line.kind is LineKind.HEADER), None
    )
    faction_inferred = False
    if faction is None:
        faction = _infer_faction(chosen, index, title_zone)
        faction_inferred = faction is not None

    builder = _Builder(index, faction)
    builder.title_zone = title_zone
    builder.attachments_marked = any(
        line.nested or any(m.attached for m in reading) for line, reading in card_lines
    )
    if header_commander is not None:
        builder.header_commanders = {name_key(m.name) for m in header_commander[1]}
    first_card = None
    titles: list[int] = []
    ignored: list[int] = []
    for line, reading in card_lines:
        before = len(builder.findings)
        if line.number in title_zone and not _score(reading, line, index, False)[0]:
            # Before the list, a line whose names are not all cards is its title
            # (`Grand Melee prep - Tom` is not a unit and Tom Sevenstringers).
            builder.line_state[line.number] = LineKind.TITLE
            titles.append(line.number)
            continue
        builder.place(line, reading)
        state = builder.line_state[line.number]
        if state is LineKind.CARD:
            first_card = first_card or line.number
            continue
        if state is LineKind.AMBIGUOUS:
            continue
        # Nothing on the line is a card. Before the list, unmarked: its title or the
        # player. After it, unmarked and like no card name: a remark, ignored. Otherwise
        # a card we do not know: the finding stays.
        unknown = builder.findings[before:]
        close = any(f.data.get("suggestions") for f in unknown)
        if not line.marked and first_card is None and not line.nested:
            del builder.findings[before:]
            builder.line_state[line.number] = LineKind.TITLE
            titles.append(line.number)
        elif not line.marked and not close and len(reading) == 1:
            del builder.findings[before:]
            builder.line_state[line.number] = LineKind.PROSE
            ignored.append(line.number)

    commander_note = None
    commander_line = parsed.header_lines.get("commander")
    if header_commander is not None:
        line, reading = header_commander
        commander_note = _claim_from_header(builder, line, reading)

    read_codes = {f.code for f in builder.findings}
    if not builder.resolved and not read_codes & {"CARD_AMBIGUOUS", "CARD_UNKNOWN"}:
        findings.append(
            reading_finding(
                "LIST_UNPARSEABLE",
                severity=Severity.ERROR,
                message=_("this text is not an army list: no card lines were found"),
            )
        )
        return TmgListBuild(
            draft=None,
            findings=tuple(findings),
            lines=_line_readings(parsed, builder, commander_line, commander_note),
        )
    findings.extend(builder.findings)

    if faction is None:
        faction = "neutral"
    if faction_inferred:
        findings.append(
            reading_finding(
                "FACTION_INFERRED",
                message=_(
                    "no faction given: read as {faction}, the faction of its cards",
                    faction=_faction_label(faction, factions),
                ),
                fix=_("add a line 'Faction: {faction}'", faction=_faction_label(faction, factions)),
            )
        )
    points = parsed.points
    points_assumed = points is None
    if points is None:
        printed = sum(
            int(e.printed_cost)
            for e in builder.resolved
            if e.printed_cost and e.printed_cost.isdigit()
        )
        # The printed total names the size when it nearly fills one (38 of 40); a few
        # printed costs (a fragment) say nothing.
        points = next(
            (size for size in STANDARD_SIZES if printed <= size <= printed / 0.75),
            default_points,
        )
        findings.append(
            reading_finding(
                "POINTS_ASSUMED",
                message=(
                    _(
                        "no game size given: {points} points assumed from the printed costs "
                        "({printed})",
                        points=points,
                        printed=printed,
                    )
                    if (printed and points != default_points) or printed == points
                    else _("no game size given: {points} points assumed", points=points)
                ),
                fix=_("add a line 'Points: {points}'", points=points),
            )
        )
    if ignored:
        findings.append(
            reading_finding(
                "LINES_IGNORED",
                message=_(
                    "lines {lines} read as remarks, not cards, and ignored",
                    lines=", ".join(str(n) for n in ignored),
                ),
                entries=tuple(f"line-{n}" for n in ignored),
            )
        )
    other = [line.number for line in parsed.lines if line.kind is LineKind.OTHER_LIST]
    if other:
        findings.append(
            reading_finding(
                "LIST_SEVERAL",
                message=_(
                    "this text holds more than one list: lines {first}-{last} were not "
                    "checked with this one",
                    first=other[0],
                    last=other[-1],
                ),
                fix=_("check each list on its own, or paste them all in the batch check"),
            )
        )

    chosen_commander = next(
        (
            ref
            for ref in builder.claims
            if not next(e for e in builder.resolved if e.ref == ref).card.is_commander
        ),
        None,
    )
    draft = ArmyDraft(
        faction=faction,
        points_limit=points,
        ruleset=ruleset,
        units=tuple(builder.units),
        ncus=tuple(builder.ncus),
        unattached=tuple(builder.unattached),
        chosen_commander=chosen_commander,
        name=parsed.name
        or " ".join(
            line.raw.body
            for line in parsed.lines
            if line.number in titles or (line.kind is LineKind.TITLE and line.header is None)
        )[:200],
    )
    return TmgListBuild(
        draft=draft,
        findings=tuple(findings),
        entries=tuple(builder.resolved),
        points_assumed=points_assumed,
        lines=_line_readings(parsed, builder, commander_line, commander_note),
    )


def _title_words(parsed: ParsedTmgList, titles: list[int]) -> list[str]:
    return [
        line.raw.body
        for line in parsed.lines
        if line.number in titles or (line.kind is LineKind.TITLE and line.header is None)
    ]


def _claim_from_header(builder: _Builder, line: TmgLine, reading: Reading) -> Localizable | None:
    """`Commander: X`: the entry it repeats becomes the commander claim; a commander only
    in the header is added as an entry of that line."""
    for mention in reading:
        match = builder.index.find(mention.name)
        commanders = Mention(**{**mention.__dict__, "commander": True})
        choice = _narrow(match, commanders, line, _Context(builder.faction))
        cards = {c.id for c in (choice.left or choice.matched)}
        characters = {k for c in (choice.left or choice.matched) for k in c.characters}
        for entry in builder.resolved:
            same = entry.card.id in cards or bool(characters & set(entry.card.characters))
            if same:
                if entry.ref not in builder.claims:
                    builder.claims.append(entry.ref)
                return _("the commander, listed on line {line}", line=entry.line)
        if choice.card is None:
            builder.line_refs[line.number] = []
            builder.place(line, (commanders,))
            return None
        builder.place(line, (Mention(**{**commanders.__dict__, "attached": False}),))
        return _("the commander, not listed elsewhere: read from this line")
    return None


def _line_readings(
    parsed: ParsedTmgList,
    builder: _Builder,
    commander_line: int | None,
    commander_note: Localizable | None,
) -> tuple[LineReading, ...]:
    readings = []
    for line in parsed.lines:
        refs = tuple(builder.line_refs.get(line.number, ()))
        kind = builder.line_state.get(line.number, line.kind)
        note: Localizable | None = None
        if line.kind is LineKind.HEADER and line.header is not None:
            if line.number == commander_line and commander_note is not None and not refs:
                note = commander_note
            elif refs:
                kind = LineKind.CARD
                note = commander_note
            else:
                note = HEADER_NOTES.get(line.header[0])
            if line.header[0] == "commander" and builder.line_state.get(line.number) in (
                LineKind.UNKNOWN,
                LineKind.AMBIGUOUS,
            ):
                kind = builder.line_state[line.number]
            elif kind not in (LineKind.CARD,):
                kind = LineKind.HEADER
        elif kind is None:
            kind = LineKind.UNKNOWN
        note = note or builder.line_notes.get(line.number)
        if note is None and kind in KIND_NOTES:
            note = KIND_NOTES[kind]
        readings.append(
            LineReading(
                number=line.number,
                text=line.raw.text,
                kind=kind,
                refs=refs,
                note=note,
                candidates=builder.line_candidates.get(line.number, ()),
            )
        )
    return tuple(readings)
