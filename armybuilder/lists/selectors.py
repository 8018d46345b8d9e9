"""Reads of saved lists: who may see a list, the draft the validator reads, the report.

`list_report` returns the same typed `CheckResult` that `checking.check_tmg_text` returns
for the list's canonical text (tactics deck included): both go through
`armybuilder.tmg.check.check_draft`.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TypeVar

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Count, QuerySet
from django.utils.translation import pgettext_lazy

from armybuilder.checking import check_tmg_draft
from armybuilder.findings import Finding, Severity
from armybuilder.listtext.reading import LineKind, reading_finding
from armybuilder.pool import TmgPool, tmg_facts_at, tmg_pool
from armybuilder.result import CheckResult
from armybuilder.serializers import findings_json, result_json
from armybuilder.tmg.draft import ArmyDraft, Entry, UnitEntry
from armybuilder.tmg.rulesets import UnknownRuleset, get_ruleset
from armybuilder.tmg.to_text import write_tmg_text
from cards.models import Card, CardKind, Game
from common.i18n import Bilingual, Message, _

from .hosts import check_hosts, may_be_chosen_commander
from .models import ArmyList, EntryRole, ListEntry, Visibility
from .placements import PlacementCheck

# --- access ------------------------------------------------------------------------------------


def lists_for_user(user: AbstractBaseUser | AnonymousUser | None) -> QuerySet[ArmyList]:
    if user is None or not user.is_authenticated:
        return ArmyList.objects.none()
    return (
        ArmyList.objects.filter(owner=user)
        .select_related("faction")
        .annotate(entry_count=Count("entries"))
        .order_by("-updated_at", "-id")
    )


def lists_for_session(list_ids: Collection[int]) -> QuerySet[ArmyList]:
    """Anonymous lists this browser session created and nobody has saved yet."""
    return (
        ArmyList.objects.filter(pk__in=list(list_ids), owner__isnull=True)
        .select_related("faction")
        .annotate(entry_count=Count("entries"))
        .order_by("-updated_at", "-id")
    )


def can_edit(
    army_list: ArmyList,
    *,
    user: AbstractBaseUser | AnonymousUser | None,
    session_list_ids: Collection[int] = (),
) -> bool:
    """The owner edits an owned list; the creating session edits an anonymous one."""
    if army_list.owner_id is not None:
        return user is not None and user.is_authenticated and user.pk == army_list.owner_id
    return army_list.pk in set(session_list_ids)


def as_token(value) -> uuid.UUID | None:
    """A share or join token from a URL or a form: the UUID, or None for anything else."""
    if isinstance(value, uuid.UUID):
        return value
    try:
        return uuid.UUID(str(value))
    except (TypeError, ValueError, AttributeError):
        return None


def get_list_for_viewer(
    *,
    list_id: int | None = None,
    token: str | uuid.UUID | None = None,
    user: AbstractBaseUser | AnonymousUser | None = None,
    session_list_ids: Collection[int] = (),
) -> ArmyList | None:
    """The list if this viewer may read it: its owner, the anonymous session that created it,
    or anyone holding the share token of a list shared by link. None otherwise (a 404)."""
    lists = ArmyList.objects.select_related("faction", "owner")
    if list_id is not None:
        army_list = lists.filter(pk=list_id).first()
        if army_list is None:
            return None
        if can_edit(army_list, user=user, session_list_ids=session_list_ids):
            return army_list
        shared = as_token(token)
        if (
            shared is not None
            and army_list.visibility == Visibility.LINK
            and army_list.share_token == shared
        ):
            return army_list
        return None
    shared = as_token(token)
    if shared is None:
        return None
    return lists.filter(share_token=shared, visibility=Visibility.LINK).first()


def get_list_for_editor(
    *,
    list_id: int,
    user: AbstractBaseUser | AnonymousUser | None,
    session_list_ids: Collection[int] = (),
) -> ArmyList | None:
    army_list = ArmyList.objects.select_related("faction", "owner").filter(pk=list_id).first()
    if army_list is None or not can_edit(army_list, user=user, session_list_ids=session_list_ids):
        return None
    return army_list


def pickable_cards(army_list: ArmyList) -> QuerySet[Card]:
    """What the builder's card picker searches: TMG units, attachments and NCUs of the
    list's faction and Neutral (a Neutral army: neutral cards only)."""
    return Card.objects.select_related("faction").filter(
        game=Game.TMG,
        kind__in=(CardKind.UNIT, CardKind.ATTACHMENT, CardKind.NCU),
        faction__slug__in={army_list.faction.slug, "neutral"},
    )


def entry_of_list(army_list: ArmyList, entry_id) -> ListEntry | None:
    try:
        entry_id = int(entry_id)
    except (TypeError, ValueError):
        return None
    return (
        ListEntry.objects.select_related("card", "parent")
        .filter(army_list=army_list, pk=entry_id)
        .first()
    )


def card_by_pk(card_id) -> Card | None:
    try:
        card_id = int(card_id)
    except (TypeError, ValueError):
        return None
    return Card.objects.select_related("faction").filter(pk=card_id).first()


# --- the draft ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class ListDraft:
    draft: ArmyDraft
    refs: dict[int, str]  # ListEntry pk -> entry ref in the draft and the findings
    entries: tuple[ListEntry, ...]
    missing: tuple[Finding, ...] = ()  # entries whose card is not in the TMG pool


def saved_entries(army_list: ArmyList) -> list[ListEntry]:
    """A saved list's entries with their cards and pinned versions, in the order the player
    put them."""
    return list(
        army_list.entries.select_related("card", "card__faction", "card_version").order_by(
            "position", "id"
        )
    )


CardT = TypeVar("CardT")


def pinned(
    entry: ListEntry,
    today: CardT | None,
    at: Callable[[CardT, str, Mapping], CardT],
    *,
    current_cards: bool = False,
) -> CardT | None:
    """The card of `entry` as the list judges it: `today` (the pool's card) when the entry is
    pinned to the card's current version (or to none), else the card at its pinned version
    (`at`: `pool.tmg_facts_at` or `pool.tactics_card_at`). `current_cards`: as if the list
    were updated to the current cards (what "update" would change)."""
    version = entry.card_version
    if current_cards or today is None or version is None:
        return today
    if version.pk == entry.card.current_version_id:
        return today
    return at(today, version.version, version.stats)


_NOT_IN_POOL: dict[str, Callable[[Bilingual], Message]] = {
    Game.TMG: lambda card: _(
        "{card} is not a card of the Tabletop Miniatures Game pool", card=card
    ),
    Game.TACTICS: lambda card: _("{card} is not a card of the Tactics pool", card=card),
}


def missing_card(entry: ListEntry, *, game: str) -> Finding:
    """A saved entry whose card left its game's pool (deleted or moved by an import)."""
    card = Bilingual.of(entry.card.full_name)
    return reading_finding(
        "CARD_UNKNOWN",
        severity=Severity.ERROR,
        message=_NOT_IN_POOL[game](card),
        entries=(f"entry-{entry.pk}",),
        fix=_("remove {card}", card=card),
    )


def build_list_draft(
    army_list: ArmyList, pool: TmgPool | None = None, *, current_cards: bool = False
) -> ListDraft:
    """The draft of a saved list, with refs numbered exactly as the text reader numbers them,
    so a list and its canonical text give equal drafts and the same findings. Cards are
    judged at their pinned versions (`current_cards`: at today's, see `pinned`)."""
    pool = pool or tmg_pool()
    entries = saved_entries(army_list)
    try:
        ruleset = get_ruleset(army_list.ruleset or None)
    except UnknownRuleset:
        ruleset = get_ruleset()
    facts = {
        e.pk: pinned(
            e, pool.by_id.get(e.card.external_id), tmg_facts_at, current_cards=current_cards
        )
        for e in entries
    }
    missing = tuple(missing_card(e, game=army_list.game) for e in entries if facts[e.pk] is None)
    present = [e for e in entries if facts[e.pk] is not None]
    units = [e for e in present if e.role == EntryRole.UNIT]
    unit_pks = {e.pk for e in units}
    refs: dict[int, str] = {}
    unit_entries: list[UnitEntry] = []
    for number, unit in enumerate(units, start=1):
        ref = f"unit-{number}"
        refs[unit.pk] = ref
        attachments = []
        hosted = [e for e in present if e.role == EntryRole.ATTACHMENT and e.parent_id == unit.pk]
        for count, attachment in enumerate(hosted, start=1):
            refs[attachment.pk] = f"{ref}.attachment-{count}"
            attachments.append(Entry(ref=refs[attachment.pk], card=facts[attachment.pk]))
        unit_entries.append(UnitEntry(ref=ref, card=facts[unit.pk], attachments=tuple(attachments)))
    unattached = []
    for count, entry in enumerate(
        [e for e in present if e.role == EntryRole.ATTACHMENT and e.parent_id not in unit_pks],
        start=1,
    ):
        refs[entry.pk] = f"attachment-{count}"
        unattached.append(Entry(ref=refs[entry.pk], card=facts[entry.pk]))
    ncus = []
    for count, entry in enumerate([e for e in present if e.role == EntryRole.NCU], start=1):
        refs[entry.pk] = f"ncu-{count}"
        ncus.append(Entry(ref=refs[entry.pk], card=facts[entry.pk]))
    chosen = next((refs.get(e.pk) for e in present if e.chosen_commander), None)
    draft = ArmyDraft(
        faction=army_list.faction.slug,
        points_limit=army_list.points_limit or 0,
        ruleset=ruleset,
        units=tuple(unit_entries),
        ncus=tuple(ncus),
        unattached=tuple(unattached),
        chosen_commander=chosen,
        name=army_list.name,
    )
    return ListDraft(draft=draft, refs=refs, entries=tuple(entries), missing=missing)


def draft_for_list(army_list: ArmyList, pool: TmgPool | None = None) -> ArmyDraft:
    return build_list_draft(army_list, pool).draft


def list_report(
    army_list: ArmyList,
    *,
    lang: str = "en",
    pool: TmgPool | None = None,
    current_cards: bool = False,
) -> CheckResult:
    """Legality recomputed now with the pinned card versions (`current_cards`: with today's),
    as `checking.check_tmg_text` finds it."""
    pool = pool or tmg_pool()
    built = build_list_draft(army_list, pool, current_cards=current_cards)
    return check_tmg_draft(built.draft, pool=pool, lang=lang, findings=built.missing)


def list_text(army_list: ArmyList, *, lang: str = "en", pool: TmgPool | None = None) -> str:
    """The canonical list text (contracts §2)."""
    pool = pool or tmg_pool()
    return write_tmg_text(
        draft_for_list(army_list, pool), faction_names=pool.faction_names, lang=lang
    )


# --- what the builder shows -----------------------------------------------------------------


@dataclass
class EntryRow:
    entry: ListEntry
    ref: str
    points: int | None
    commander: bool  # a commander card, or the chosen one
    may_choose_commander: bool  # the faction rule allows making it commander
    flagged: bool  # named by an error finding
    attachments: list[EntryRow] = field(default_factory=list)

    def label(self, lang: str = "en") -> str:
        return self.entry.card.full_name(lang)


@dataclass(frozen=True)
class CheckedState:
    """A saved list (of any game) with its check, for the builder and the list pages."""

    army_list: ArmyList
    result: CheckResult

    @cached_property
    def report(self) -> dict:
        """The result as the pages show it: contracts §3 JSON in the result's language."""
        return result_json(self.result)

    @property
    def errors(self) -> list[dict]:
        return [f for f in self.report["findings"] if f["severity"] == Severity.ERROR]

    @property
    def warnings(self) -> list[dict]:
        return [f for f in self.report["findings"] if f["severity"] != Severity.ERROR]

    @property
    def status(self) -> str:
        """legal / illegal / empty / undecided (`CheckResult.status`)."""
        return self.result.status

    @property
    def undecided_cards(self) -> list[str]:
        """The names of the cards whose unknown cost blocks the verdict."""
        refs = set(self.result.undecided_by)
        lang = self.result.lang
        return [e.card.label(lang) for e in self.result.entries if e.ref in refs]


@dataclass(frozen=True)
class ListState(CheckedState):
    units: tuple[EntryRow, ...] = ()
    ncus: tuple[EntryRow, ...] = ()
    unattached: tuple[EntryRow, ...] = ()
    refs: dict[int, str] = field(default_factory=dict)
    deck_target: int = 20  # the ruleset's full deck: (faction + commander cards) x copies

    @property
    def entry_count(self) -> int:
        return len(self.refs)

    @property
    def deck_size(self) -> int:
        return self.result.deck_size

    @property
    def points_over(self) -> bool:
        points = self.result.points
        return points is not None and points.spent > points.limit

    @property
    def neutral_over(self) -> bool:
        points = self.result.points
        return (
            points is not None
            and self.army_list.faction.slug != "neutral"
            and points.neutral > points.neutral_cap
        )


def list_state(army_list: ArmyList, *, lang: str = "en", pool: TmgPool | None = None) -> ListState:
    """The report plus rows the builder shows, each tied to its ListEntry."""
    pool = pool or tmg_pool()
    built = build_list_draft(army_list, pool)
    result = check_tmg_draft(built.draft, pool=pool, lang=lang, findings=built.missing)
    by_ref = {entry.ref: entry for entry in result.entries}
    flagged = result.flagged_refs
    rules = pool.context_for(army_list.faction.slug).faction_rules

    def row(entry: ListEntry) -> EntryRow:
        ref = built.refs.get(entry.pk, f"entry-{entry.pk}")
        checked = by_ref.get(ref)
        facts = pool.by_id.get(entry.card.external_id)
        return EntryRow(
            entry=entry,
            ref=ref,
            points=checked.points if checked else None,
            commander=checked.commander if checked else False,
            may_choose_commander=facts is not None and may_be_chosen_commander(facts, rules),
            flagged=ref in flagged,
        )

    units: list[EntryRow] = []
    unit_rows: dict[int, EntryRow] = {}
    for entry in built.entries:
        if entry.role == EntryRole.UNIT:
            unit_rows[entry.pk] = row(entry)
            units.append(unit_rows[entry.pk])
    unattached, ncus = [], []
    for entry in built.entries:
        if entry.role == EntryRole.ATTACHMENT:
            if entry.parent_id in unit_rows:
                unit_rows[entry.parent_id].attachments.append(row(entry))
            else:
                unattached.append(row(entry))
        elif entry.role == EntryRole.NCU:
            ncus.append(row(entry))
        elif entry.role != EntryRole.UNIT:
            unattached.append(row(entry))
    return ListState(
        army_list=army_list,
        result=result,
        units=tuple(units),
        ncus=tuple(ncus),
        unattached=tuple(unattached),
        refs=built.refs,
        deck_target=built.draft.ruleset.deck_copies
        * (built.draft.ruleset.deck_faction_cards + built.draft.ruleset.deck_commander_cards),
    )


# --- where an attachment may go --------------------------------------------------------------


@dataclass(frozen=True)
class PlacementOption:
    """A candidate for a card that joins another (a combat unit for a TMG attachment, a
    figure for a Tactics item): allowed or not, and why."""

    entry: ListEntry  # the candidate
    allowed: bool
    reasons: tuple[dict, ...] = ()  # findings (contract shape) that rule this candidate out
    side_effects: tuple[dict, ...] = ()  # list-wide findings taking the card would cause
    resolves: tuple[str, ...] = ()  # finding codes it would clear
    current: bool = False  # the entry being moved is already here

    @property
    def host(self) -> ListEntry:
        return self.entry

    holder = host


def placement_options(
    entries: Iterable[ListEntry],
    refs: dict[int, str],
    checks: Iterable[PlacementCheck],
    *,
    moving: ListEntry | None,
    lang: str,
) -> list[PlacementOption]:
    """The saved entries the placement checks were run on, with their verdicts."""
    by_ref = {check.ref: check for check in checks}
    options = []
    for entry in entries:
        check = by_ref.get(refs.get(entry.pk, ""))
        if check is None:
            continue
        options.append(
            PlacementOption(
                entry=entry,
                allowed=check.allowed,
                reasons=findings_json(check.reasons, lang=lang),
                side_effects=findings_json(check.side_effects, lang=lang),
                resolves=check.resolves,
                current=moving is not None and moving.parent_id == entry.pk,
            )
        )
    return options


def host_options(
    army_list: ArmyList,
    attachment_card: Card,
    *,
    moving: ListEntry | None = None,
    lang: str = "en",
    pool: TmgPool | None = None,
) -> list[PlacementOption]:
    """For each combat unit: may `attachment_card` go there, and if not, why not. Found by
    running the validator with the attachment added to that unit (see lists.hosts)."""
    pool = pool or tmg_pool()
    facts = pool.by_id.get(attachment_card.external_id)
    if facts is None or facts.kind != "attachment":
        return []
    built = build_list_draft(army_list, pool)
    draft = built.draft
    if moving is not None and moving.pk in built.refs:
        draft = draft.without(built.refs[moving.pk])
    checks = check_hosts(draft, pool.context_for(army_list.faction.slug), facts)
    return placement_options(built.entries, built.refs, checks, moving=moving, lang=lang)


# --- how a pasted list was read ----------------------------------------------------------------

# What the reading table calls each kind of line (a badge of text, never colour alone).
LINE_KIND_LABELS = {
    LineKind.CARD: pgettext_lazy("line kind", "card"),
    LineKind.HEADER: pgettext_lazy("line kind", "header"),
    LineKind.SECTION: pgettext_lazy("line kind", "section"),
    LineKind.LEGEND: pgettext_lazy("line kind", "legend"),
    LineKind.TITLE: pgettext_lazy("line kind", "title"),
    LineKind.FOOTER: pgettext_lazy("line kind", "footer"),
    LineKind.EXTRA: pgettext_lazy("line kind", "extra"),
    LineKind.PROSE: pgettext_lazy("line kind", "prose"),
    LineKind.BLANK: pgettext_lazy("line kind", "blank"),
    LineKind.UNKNOWN: pgettext_lazy("line kind", "unknown"),
    LineKind.AMBIGUOUS: pgettext_lazy("line kind", "ambiguous"),
    LineKind.OTHER_LIST: pgettext_lazy("line kind", "other list"),
}
UNREAD_KINDS = frozenset({LineKind.UNKNOWN, LineKind.AMBIGUOUS})


@dataclass(frozen=True)
class ReadCard:
    """One card read from a line: its name, how it was chosen, what else it could be."""

    ref: str
    name: str
    role: str
    how: str = ""
    alternatives: tuple[str, ...] = ()  # card names, in the reader's language
    printed_cost: str | None = None
    corrected_from: str | None = None
    flagged: bool = False  # an error finding names it
    commander: bool = False
    host: str = ""  # the name of the unit carrying it (an attachment)


@dataclass(frozen=True)
class LineFinding:
    """A finding the reader raised about one line (it names `line-<n>`): unknown or
    ambiguous card, name corrected, card chosen among several, cost differs."""

    code: str
    severity: str
    message: str
    fix: str = ""


def _line_findings(result: CheckResult, lang: str) -> dict[int, list[LineFinding]]:
    """Line number -> the findings about that line alone (a finding about several lines,
    such as the ignored remarks, is said once in the findings, not on each row)."""
    by_line: dict[int, list[LineFinding]] = {}
    for finding in result.findings:
        lines = [ref for ref in finding.entries if ref.startswith("line-")]
        if len(lines) != 1 or not lines[0][5:].isdigit():
            continue
        by_line.setdefault(int(lines[0][5:]), []).append(
            LineFinding(
                code=finding.code,
                severity=str(finding.severity),
                message=finding.message.in_language(lang),
                fix=finding.fix.in_language(lang) if finding.fix else "",
            )
        )
    return by_line


@dataclass(frozen=True)
class ReadingRow:
    """One line of the pasted text, or a run of blank lines (`last` > `number`)."""

    number: int
    last: int
    text: str
    kind: str
    cards: tuple[ReadCard, ...] = ()
    note: str = ""
    candidates: tuple[str, ...] = ()  # card names the line could name, when left unread
    findings: tuple[LineFinding, ...] = ()  # what the reader said of this line alone

    @property
    def label(self) -> str:
        return str(LINE_KIND_LABELS.get(LineKind(self.kind), self.kind))

    @property
    def unread(self) -> bool:
        return self.kind in UNREAD_KINDS

    @property
    def count(self) -> int:
        return self.last - self.number + 1


@dataclass(frozen=True)
class Reading:
    """The line-by-line reading of a pasted list, as the pages show it: every input line
    once, runs of blank lines folded into one row that counts them."""

    rows: tuple[ReadingRow, ...]
    lines: int  # input lines, blank ones included
    cards: int  # lines read as cards
    unread: int  # unknown or ambiguous lines

    def __bool__(self) -> bool:
        return bool(self.rows)

    def as_dict(self) -> dict:
        """Plain values, to store a reading as it was shown (an event's locked list). Written
        out by hand: `dataclasses.asdict` copies deeply and costs ten times as much."""
        return {
            "rows": [
                {
                    **vars(row),
                    "cards": [
                        {**vars(card), "alternatives": list(card.alternatives)}
                        for card in row.cards
                    ],
                    "candidates": list(row.candidates),
                    "findings": [dict(vars(found)) for found in row.findings],
                }
                for row in self.rows
            ],
            "lines": self.lines,
            "cards": self.cards,
            "unread": self.unread,
        }

    @classmethod
    def from_dict(cls, data: dict) -> Reading:
        """The reading `as_dict` stored."""
        rows = tuple(
            ReadingRow(
                **{
                    **row,
                    "cards": tuple(
                        ReadCard(**{**card, "alternatives": tuple(card["alternatives"])})
                        for card in row["cards"]
                    ),
                    "candidates": tuple(row["candidates"]),
                    "findings": tuple(LineFinding(**found) for found in row["findings"]),
                }
            )
            for row in data.get("rows", ())
        )
        return cls(
            rows=rows,
            lines=data.get("lines", 0),
            cards=data.get("cards", 0),
            unread=data.get("unread", 0),
        )


def reading_card_names(result: CheckResult, *, lang: str = "en", pool=None) -> dict[str, str]:
    """The names of the cards a reading gives only by id (alternatives, candidates), from
    the game's `pool` when given, else the database."""
    wanted = {card_id for reading in result.lines for card_id in reading.candidates}
    wanted.update(card_id for entry in result.entries for card_id in entry.alternatives)
    if not wanted:
        return {}
    if pool is not None:
        return {card.id: card.label(lang) for card in pool.cards if card.id in wanted}
    cards = Card.objects.filter(game=result.game, external_id__in=wanted)
    return {card.external_id: card.full_name(lang) for card in cards}


def reading_of(result: CheckResult, *, lang: str = "en", pool=None) -> Reading:
    """How each line of a checked text was read (empty for a share code or a saved list).
    `pool` (the game's card pool) names the candidate cards; without it, the database."""
    names = reading_card_names(result, lang=lang, pool=pool)
    entries = {entry.ref: entry for entry in result.entries}
    flagged = result.flagged_refs
    said = _line_findings(result, lang) if result.lines else {}

    def card(ref: str) -> ReadCard | None:
        entry = entries.get(ref)
        if entry is None:
            return None
        return ReadCard(
            ref=ref,
            name=entry.card.label(lang),
            role=entry.role,
            how=entry.how.in_language(lang) if entry.how is not None else "",
            alternatives=tuple(names.get(i, i) for i in entry.alternatives),
            printed_cost=entry.printed_cost,
            corrected_from=entry.corrected_from,
            flagged=ref in flagged,
            commander=entry.commander,
            host=entries[entry.host].card.label(lang) if entry.host in entries else "",
        )

    rows: list[ReadingRow] = []
    for line in result.lines:
        if line.kind is LineKind.BLANK and rows and rows[-1].kind == LineKind.BLANK:
            rows[-1] = replace(rows[-1], last=line.number)
            continue
        cards = tuple(c for c in (card(ref) for ref in line.refs) if c is not None)
        rows.append(
            ReadingRow(
                number=line.number,
                last=line.number,
                text=line.text,
                kind=str(line.kind),
                cards=cards,
                note=line.note.in_language(lang) if line.note is not None else "",
                candidates=tuple(names.get(i, i) for i in line.candidates),
                findings=tuple(said.get(line.number, ())),
            )
        )
    return Reading(
        rows=tuple(rows),
        lines=len(result.lines),
        cards=sum(1 for line in result.lines if line.kind is LineKind.CARD),
        unread=sum(1 for line in result.lines if line.kind in UNREAD_KINDS),
    )
