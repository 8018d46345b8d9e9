"""The army list / warband document: the printed sheet players exchange, then a reference
part with every card's stats and abilities, the tactics deck, and the rules sections the
cards' keywords cite.

Saved lists and pasted text go through the same typed `CheckResult`
(the game adapter's `report`, `check_list_text`), so the PDF shows exactly the legality the builder
and the API show.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils import translation
from django.utils.text import slugify
from django.utils.translation import gettext as _

from armybuilder.checking import GAMES, CheckError, CheckOptions, check_list_text
from armybuilder.lists import sharing
from armybuilder.lists.games import for_game
from armybuilder.result import CheckResult
from armybuilder.serializers import result_json
from armybuilder.tmg.rulesets import UnknownRuleset, get_ruleset
from cards.models import Card, Game
from cards.presentation import attack_rows
from common.i18n import localized, pick
from common.qr import qr_svg
from rules.selectors import sections_for_terms

from . import selectors
from .base import DocumentError, Progress, RenderedDocument, render_html, write_pdf

LIST_LANGUAGES = ("en", "fr")  # the languages cards are written in


@dataclass
class SheetRow:
    """One line of the printed sheet: a unit, NCU or figure, with what it carries."""

    ref: str
    external_id: str
    name: str
    points: int | None = None  # TMG
    coins: dict | None = None  # Tactics: {"gold", "silver", "copper"}
    commander: bool = False
    flagged: bool = False  # named by an error finding
    example: bool = False  # from the demo's example set (made-up costs, not official)
    cost_from: str = ""  # the player's set whose cost override it takes
    attached: list[SheetRow] = field(default_factory=list)


@dataclass
class ReferenceCard:
    card: Card
    copies: int
    attacks: list[dict]
    abilities: list[dict]  # {"name", "trigger", "text"}


@dataclass
class CitedRule:
    section: object  # rules.models.Section
    terms: list[str]
    # When `section` is a quick reference (no rulebook in the reader's language): the
    # rulebook's own section, named and linked below the summary.
    original: object | None = None


def _result_for(params: dict, language: str) -> CheckResult:
    """The checking result, for a saved list or a pasted one."""
    if params.get("list_id") is not None:
        army_list = selectors.army_list_by_id(params["list_id"])
        if army_list is None:
            raise DocumentError(_("No saved list has this number."))
        return for_game(army_list.game).report(army_list, lang=language)
    text = params.get("text")
    if not isinstance(text, str) or not text.strip():
        raise DocumentError(_("Give a saved list or the text of a list to export."))
    try:
        return check_list_text(text, CheckOptions(game=params.get("game"), lang=language))
    except CheckError as exc:
        raise DocumentError(str(exc)) from exc


def _sheet_rows(report: dict) -> tuple[list[SheetRow], list[SheetRow]]:
    """(The carriers — units, figures — with what they carry, then what nobody carries),
    and the entries that carry nothing (NCUs), from a result's JSON (`result_json`): a list
    judged now and a list stored when it was judged print alike."""
    game = GAMES[report["game"]]
    flagged = {
        ref
        for finding in report.get("findings", [])
        if finding.get("severity") == "error"
        for ref in finding.get("entries", [])
    }

    def role(entry: dict) -> str:
        return entry.get("role") or entry.get("kind") or ""

    def row(entry: dict) -> SheetRow:
        return SheetRow(
            ref=entry["ref"],
            external_id=entry["id"],
            name=entry["name"],
            points=entry.get("points"),
            coins=entry.get("cost"),
            commander=bool(entry.get("commander")),
            flagged=entry["ref"] in flagged,
            example=bool(entry.get("example")),
            cost_from=entry.get("cost_from") or "",
        )

    entries = report.get("entries", [])
    carriers = {e["ref"]: row(e) for e in entries if role(e) in game.carrier_roles}
    loose, apart = [], []
    for entry in entries:
        if role(entry) in game.carrier_roles:
            continue
        if role(entry) in game.carried_roles:
            carrier = carriers.get(entry.get("host") or entry.get("holder") or "")
            (carrier.attached if carrier else loose).append(row(entry))
        else:
            apart.append(row(entry))
    return [*carriers.values(), *loose], apart


def _abilities(card: Card, language: str) -> list[dict]:
    return [
        {part: localized(link.ability, part, language) for part in ("name", "trigger", "text")}
        for link in card.card_abilities.all()
    ]


def _has_text(card: Card) -> bool:
    return any((card.text_en, card.text_fr, card.trigger_en, card.trigger_fr))


def _reference_cards(ids: list[str], cards: dict[str, Card], language: str):
    copies: dict[str, int] = {}
    for external_id in ids:
        copies[external_id] = copies.get(external_id, 0) + 1
    return [
        ReferenceCard(
            card=cards[external_id],
            copies=count,
            attacks=attack_rows(cards[external_id], language),
            abilities=_abilities(cards[external_id], language),
        )
        for external_id, count in copies.items()
        if external_id in cards
    ]


def _cited_rules(reference: list[ReferenceCard], *, language: str, game: str) -> list[CitedRule]:
    """The sections defining the cards' abilities and keywords, once each, in book order;
    a quick reference in the reader's language with the rulebook section it summarises."""
    terms = [ability["name"] for ref in reference for ability in ref.abilities]
    cited: dict[int, CitedRule] = {}
    found = sections_for_terms(terms, language=language, game=game)
    summarised = [term for term, section in found.items() if section.book.is_quick_reference]
    originals = sections_for_terms(summarised, language=language, game=game, full_rulebook=True)
    for term, section in found.items():
        rule = cited.setdefault(section.id, CitedRule(section=section, terms=[]))
        rule.terms.append(term)
        if rule.original is None:
            rule.original = originals.get(term)
    return sorted(
        cited.values(),
        key=lambda rule: (rule.section.book.is_quick_reference, rule.section.book.slug,
                          rule.section.position),
    )  # fmt: skip


def _ruleset_name(ruleset_id: str | None, language: str) -> str:
    try:
        ruleset = get_ruleset(ruleset_id)
    except UnknownRuleset:
        return ruleset_id or ""
    return localized(ruleset, "name", language)


def _game_size_label(report: dict) -> str:
    """ "Standard (3-6-18)", or the bare budget when the scenario does not name it."""
    scenario = report.get("scenario") or ""
    budget = (report.get("coins") or {}).get("budget")
    if not budget:
        return scenario
    coins = f"{budget['gold']}-{budget['silver']}-{budget['copper']}"
    if coins in scenario:
        return scenario
    return f"{scenario} ({coins})" if scenario else coins


def _filename(report: dict, faction_name: str) -> str:
    stem = slugify(report.get("name", "")) or slugify(faction_name) or "list"
    suffix = "warband" if report["game"] == Game.TACTICS else "army-list"
    return f"{stem}-{suffix}.pdf"


def sheet_context(report: dict, language: str) -> dict:
    """What the printed sheet shows (templates/pdf/_sheet.html), from a result's JSON in
    `language`: faction, size, commander, the rows, totals, the verdict and its findings."""
    game = report["game"]
    faction = selectors.faction_by_slug(game, report.get("faction"))
    faction_name = faction.name(language) if faction else (report.get("faction") or "")
    carriers, apart = _sheet_rows(report)
    findings = report.get("findings", [])
    context = {
        "game": game,
        "legal": report.get("legal", False),
        "status": report.get("status", ""),
        "has_example": any(e.get("example") for e in report.get("entries", [])),
        "errors": [f for f in findings if f.get("severity") == "error"],
        "warnings": [f for f in findings if f.get("severity") != "error"],
        "faction_name": faction_name,
        "list_name": report.get("name", ""),
        "filename": _filename(report, faction_name),
    }
    if report.get("points") is not None:
        context.update(
            units=carriers,
            ncus=apart,
            points=report["points"],
            ruleset_name=_ruleset_name(report.get("ruleset"), language),
            commanders=[e["name"] for e in report.get("entries", []) if e.get("commander")],
            deck=report.get("deck", []),
        )
    if report.get("coins") is not None:
        context.update(
            figures=carriers,
            coins=report["coins"],
            figure_count=report.get("figures", 0),
            size_label=_game_size_label(report),
        )
    return context


def army_list_context(result: CheckResult, language: str) -> dict:
    sheet = sheet_context(result_json(result, lang=language), language)
    context = {
        "sheet": sheet,
        # the document's title
        **{key: sheet[key] for key in ("game", "list_name", "faction_name", "filename")},
    }
    game = result.game
    ids = [entry.card.id for entry in result.entries]
    deck_ids = [card.card_id for card in result.deck]
    cards = selectors.cards_by_external_id(game, [*ids, *deck_ids])
    deck = [
        {"name": pick(language, card.name_en, card.name_fr), "copies": card.copies,
         "source": card.source, "card": cards.get(card.card_id)}
        for card in result.deck
    ]  # fmt: skip
    context["reference"] = _reference_cards(ids, cards, language)
    # The shipped snapshot has names and stats only: say so rather than print empty boxes.
    context["deck_texts"] = [item for item in deck if item["card"] and _has_text(item["card"])]
    context["texts_missing"] = any(
        not ability["text"] for ref in context["reference"] for ability in ref.abilities
    ) or len(context["deck_texts"]) < len(deck)
    context["cited_rules"] = _cited_rules(context["reference"], language=language, game=game)
    return context


def share_block(params: dict) -> dict | None:
    """The QR code and short link of a saved list its owner shares (`site`: the address the
    export was asked from), and the fingerprint of its latest event submission; None for a
    private or pasted list."""
    if params.get("list_id") is None or not params.get("site"):
        return None
    army_list = selectors.army_list_by_id(params["list_id"])
    if army_list is None or not sharing.is_shared(army_list):
        return None
    url = params["site"] + sharing.short_path(army_list)
    stored = selectors.latest_event_list(army_list)
    return {
        "url": url,
        "qr": qr_svg(url, title=_("QR code of this list's share link")),
        "event": stored.player.event.name if stored else "",
        "fingerprint": stored.fingerprint if stored else "",
    }


def render_army_list(*, params: dict, language: str, progress: Progress) -> RenderedDocument:
    if language not in LIST_LANGUAGES:
        raise DocumentError(_("Army lists and warbands are printed in English or French."))
    result = _result_for(params, language)
    progress(20)
    context = army_list_context(result, language)
    with translation.override(language):
        context["sheet"]["share"] = share_block(params)
    progress(40)
    html = render_html("pdf/army_list.html", {**context, "lang": language}, language=language)
    progress(50)
    content, pages = write_pdf(html, language=language, progress=progress, start=50, end=100)
    return RenderedDocument(filename=context["filename"], content=content, pages=pages)
