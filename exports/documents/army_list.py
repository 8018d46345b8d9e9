"""The army list / warband document: the printed sheet players exchange, then a reference
part with every card's stats and abilities, the tactics deck, and the rules sections the
cards' keywords cite.

Saved lists and pasted text go through the same checking result (contracts §3 shape:
`list_report`, `warband_report`, `check_list_text`), so the PDF shows exactly the legality
the builder and the API show.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.text import slugify
from django.utils.translation import gettext as _

from armybuilder.checking import CheckError, CheckOptions, check_list_text
from armybuilder.findings import Severity
from armybuilder.lists.selectors import list_report
from armybuilder.lists.tactics_selectors import warband_report
from armybuilder.tmg.rulesets import UnknownRuleset, get_ruleset
from cards.models import FIGURE_KINDS, Card, Game
from cards.views import attack_rows
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


def _result_for(params: dict, language: str) -> tuple[dict, str]:
    """The checking result and the game, for a saved list or a pasted one."""
    if params.get("list_id") is not None:
        army_list = selectors.army_list_by_id(params["list_id"])
        if army_list is None:
            raise DocumentError(_("No saved list has this number."))
        if army_list.game == Game.TACTICS:
            return warband_report(army_list, lang=language), Game.TACTICS
        return list_report(army_list, lang=language), Game.TMG
    text = params.get("text")
    if not isinstance(text, str) or not text.strip():
        raise DocumentError(_("Give a saved list or the text of a list to export."))
    try:
        result = check_list_text(text, CheckOptions(game=params.get("game"), lang=language))
    except CheckError as exc:
        raise DocumentError(str(exc)) from exc
    return result, result["game"]


def _flagged_refs(result: dict) -> set[str]:
    return {
        ref
        for finding in result["findings"]
        if finding["severity"] == Severity.ERROR
        for ref in finding["entries"]
    }


def _tmg_rows(result: dict) -> tuple[list[SheetRow], list[SheetRow]]:
    """(combat units with their attachments, then host-less attachments), and NCUs."""
    flagged = _flagged_refs(result)

    def row(entry: dict) -> SheetRow:
        return SheetRow(
            ref=entry["ref"],
            external_id=entry["id"],
            name=entry["name"],
            points=entry["points"],
            commander=bool(entry.get("commander")),
            flagged=entry["ref"] in flagged,
        )

    units: dict[str, SheetRow] = {}
    loose, ncus = [], []
    for entry in result["entries"]:
        if entry["role"] == "unit":
            units[entry["ref"]] = row(entry)
    for entry in result["entries"]:
        if entry["role"] == "attachment":
            host = units.get(entry.get("host") or "")
            (host.attached if host else loose).append(row(entry))
        elif entry["role"] == "ncu":
            ncus.append(row(entry))
    return [*units.values(), *loose], ncus


def _tactics_rows(result: dict) -> list[SheetRow]:
    """Figures with the equipment they carry, then equipment nobody carries."""
    flagged = _flagged_refs(result)
    figures: dict[str, SheetRow] = {}
    loose = []
    for entry in result["entries"]:
        row = SheetRow(
            ref=entry["ref"],
            external_id=entry["id"],
            name=entry["name"],
            coins=entry.get("cost"),
            flagged=entry["ref"] in flagged,
        )
        if entry["kind"] in FIGURE_KINDS:
            figures[entry["ref"]] = row
        elif entry.get("holder") in figures:
            figures[entry["holder"]].attached.append(row)
        else:
            loose.append(row)
    return [*figures.values(), *loose]


def _abilities(card: Card, language: str) -> list[dict]:
    out = []
    for link in card.card_abilities.all():
        ability = link.ability
        french = language == "fr"
        out.append(
            {
                "name": (ability.name_fr if french else "") or ability.name_en,
                "trigger": (ability.trigger_fr if french else "") or ability.trigger_en,
                "text": (ability.text_fr if french else "") or ability.text_en,
            }
        )
    return out


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
    """The sections defining the cards' abilities and keywords, once each, in book order."""
    terms = [ability["name"] for ref in reference for ability in ref.abilities]
    cited: dict[int, CitedRule] = {}
    for term, section in sections_for_terms(terms, language=language, game=game).items():
        cited.setdefault(section.id, CitedRule(section=section, terms=[])).terms.append(term)
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
    return ruleset.name_fr if language == "fr" else ruleset.name_en


def _game_size_label(result: dict) -> str:
    """ "Standard (3-6-18)", or the bare budget when the scenario does not name it."""
    scenario = result.get("scenario") or ""
    budget = (result.get("coins") or {}).get("budget")
    if not budget:
        return scenario
    coins = f"{budget['gold']}-{budget['silver']}-{budget['copper']}"
    if coins in scenario:
        return scenario
    return f"{scenario} ({coins})" if scenario else coins


def _filename(result: dict, faction_name: str, game: str) -> str:
    stem = slugify(result.get("name") or "") or slugify(faction_name) or "list"
    suffix = "warband" if game == Game.TACTICS else "army-list"
    return f"{stem}-{suffix}.pdf"


def army_list_context(result: dict, game: str, language: str) -> dict:
    faction = selectors.faction_by_slug(game, result.get("faction"))
    faction_name = faction.name(language) if faction else (result.get("faction") or "")
    errors = [f for f in result["findings"] if f["severity"] == Severity.ERROR]
    context = {
        "game": game,
        "result": result,
        "legal": result["legal"],
        "errors": errors,
        "warnings": [f for f in result["findings"] if f["severity"] != Severity.ERROR],
        "faction_name": faction_name,
        "list_name": result.get("name") or "",
    }
    ids = [entry["id"] for entry in result["entries"]]
    if game == Game.TMG:
        units, ncus = _tmg_rows(result)
        deck_ids = [card["id"] for card in result.get("deck", ())]
        cards = selectors.cards_by_external_id(game, [*ids, *deck_ids])
        context.update(
            units=units,
            ncus=ncus,
            points=result.get("points") or {},
            ruleset_name=_ruleset_name(result.get("ruleset"), language),
            commanders=[e["name"] for e in result["entries"] if e.get("commander")],
            deck=[
                {**card, "card": cards.get(card["id"])}
                for card in result.get("deck", ())
            ],
        )  # fmt: skip
    else:
        cards = selectors.cards_by_external_id(game, ids)
        context.update(
            figures=_tactics_rows(result),
            coins=result.get("coins") or {},
            figure_count=result.get("figures") or 0,
            size_label=_game_size_label(result),
        )
    context["reference"] = _reference_cards(ids, cards, language)
    # The shipped snapshot has names and stats only: say so rather than print empty boxes.
    context["deck_texts"] = [
        item for item in context.get("deck", ()) if item["card"] and _has_text(item["card"])
    ]
    context["texts_missing"] = any(
        not ability["text"] for ref in context["reference"] for ability in ref.abilities
    ) or len(context["deck_texts"]) < len(context.get("deck", ()))
    context["cited_rules"] = _cited_rules(context["reference"], language=language, game=game)
    context["filename"] = _filename(result, faction_name, game)
    return context


def render_army_list(*, params: dict, language: str, progress: Progress) -> RenderedDocument:
    if language not in LIST_LANGUAGES:
        raise DocumentError(_("Army lists and warbands are printed in English or French."))
    result, game = _result_for(params, language)
    progress(20)
    context = army_list_context(result, game, language)
    progress(40)
    html = render_html("pdf/army_list.html", {**context, "lang": language}, language=language)
    progress(50)
    content, pages = write_pdf(html, language=language, progress=progress, start=50, end=100)
    return RenderedDocument(filename=context["filename"], content=content, pages=pages)
