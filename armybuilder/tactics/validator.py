"""The Tactics warband validator: one pure function per warband rule (rules notes §a).

Rule ids (TW-xx) number the rules of the Tactics rulebook notes §a: budget 3-5, spend as
much as possible 6, figure cap 7, type from cost 10, uniqueness 12-13, factions 14,
neutrals 15, equipment 16-20.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass

from armybuilder.findings import Finding, Report
from common.i18n import Bilingual, _, pgettext_lazy

from .draft import COIN_TYPES, Coins, TacticsCard, WarbandContext, WarbandDraft, kind_for_cost

COIN_NAMES = {"gold": _("gold"), "silver": _("silver"), "copper": _("copper")}

Rule = Callable[[WarbandDraft, WarbandContext], list[Finding]]


def _names(entries) -> Bilingual:
    """The entries' card labels, comma-separated, for a message's params."""
    return Bilingual.of(lambda lang: ", ".join(e.card.label(lang) for e in entries))


def _label(card: TacticsCard) -> Bilingual:
    return Bilingual.of(card.label)


def _priced(cards: list[TacticsCard]) -> Bilingual:
    """Cards with their cost, "Stag Knight [0-1-1], …", for a message's params."""
    return Bilingual.of(
        lambda lang: ", ".join(
            f"{card.label(lang)} [{(card.cost or Coins()).label()}]" for card in cards
        )
    )


def tw03_scenario_budget(draft: WarbandDraft, context: WarbandContext) -> list[Finding]:
    if draft.budget is not None:
        return []
    return [
        Finding(
            code="SCENARIO_UNKNOWN",
            rule="TW-03",
            message=_(
                "no budget: name a scenario or a game size (small 2-4-12, standard 3-6-18, "
                "large 4-8-24, or G-S-C)"
            ),
        )
    ]


def tw04_coin_budgets(draft: WarbandDraft, context: WarbandContext) -> list[Finding]:
    if draft.budget is None:
        return []
    spent = draft.spent()
    findings = []
    for coin in COIN_TYPES:
        used, budget = getattr(spent, coin), getattr(draft.budget, coin)
        if used <= budget:
            continue
        payers = [e for e in draft.entries() if e.card.cost and getattr(e.card.cost, coin)]
        findings.append(
            Finding(
                code="COIN_OVER_BUDGET",
                rule="TW-05",
                message=_(
                    "{coin} {spent}/{budget}: {over} over budget; coins never convert",
                    coin=COIN_NAMES[coin],
                    spent=used,
                    budget=budget,
                    over=used - budget,
                ),
                entries=tuple(e.ref for e in payers),
                fix=_(
                    "remove something that costs {coin}, e.g. {card}",
                    coin=COIN_NAMES[coin],
                    card=_label(payers[-1].card),
                )
                if payers
                else None,
                data={"coin": coin, "spent": used, "budget": budget},
            )
        )
    return findings


def tw07_figure_cap(draft: WarbandDraft, context: WarbandContext) -> list[Finding]:
    if draft.budget is None or len(draft.figures) <= draft.budget.copper:
        return []
    count, cap = len(draft.figures), draft.budget.copper
    return [
        Finding(
            code="FIGURE_CAP_EXCEEDED",
            rule="TW-07",
            message=_(
                "figures {count}/{cap}: a warband has at most as many figures as copper coins",
                count=count,
                cap=cap,
            ),
            entries=tuple(e.ref for e in draft.figures[cap:]),
            fix=_("remove {count} figure(s)", count=count - cap),
        )
    ]


def tw10_type_from_cost(draft: WarbandDraft, context: WarbandContext) -> list[Finding]:
    findings = []
    for entry in draft.figures:
        if entry.card.cost is None:
            findings.append(
                Finding(
                    code="CARD_COST_UNKNOWN",
                    rule="TW-04",
                    message=_(
                        "{card} has no known cost yet and cannot be recruited",
                        card=_label(entry.card),
                    ),
                    entries=(entry.ref,),
                )
            )
            continue
        expected = kind_for_cost(entry.card.cost)
        if expected and expected != entry.card.kind:
            findings.append(
                Finding(
                    code="FIGURE_TYPE_MISMATCH",
                    rule="TW-10",
                    message=_(
                        "{card} is a {kind} but costs {cost}, which makes a {expected}",
                        card=_label(entry.card),
                        kind=entry.card.kind,
                        cost=entry.card.cost.label(),
                        expected=expected,
                    ),
                    entries=(entry.ref,),
                )
            )
    return findings


def tw12_unique_figures(draft: WarbandDraft, context: WarbandContext) -> list[Finding]:
    by_key = defaultdict(list)
    for entry in draft.figures:
        if entry.card.kind in ("hero", "champion"):
            by_key[entry.card.unique_key].append(entry)
    findings = []
    for key, entries in by_key.items():
        if len(entries) < 2:
            continue
        mounted_pair = len({e.card.mounted for e in entries}) > 1
        if mounted_pair:
            message = _(
                "{character}: the mounted and foot versions never go together", character=key
            )
        else:
            message = _(
                "{character} appears {count} times; heroes and champions are unique",
                character=key,
                count=len(entries),
            )
        findings.append(
            Finding(
                code="UNIQUE_DUPLICATE",
                rule="TW-13" if mounted_pair else "TW-12",
                message=message,
                entries=tuple(e.ref for e in entries),
                fix=pgettext_lazy("tactics figures", "keep one of {cards}", cards=_names(entries)),
            )
        )
    return findings


def tw14_one_faction(draft: WarbandDraft, context: WarbandContext) -> list[Finding]:
    factions = Counter(e.card.faction for e in draft.figures if not e.card.is_neutral)
    findings = []
    allowed = draft.faction or (factions.most_common(1)[0][0] if factions else None)
    if draft.faction == "neutral":
        allowed = None
    strangers = [e for e in draft.figures if not e.card.is_neutral and e.card.faction != allowed]
    if strangers:
        if allowed:
            message = _(
                "figures of another faction than {faction}: {cards}",
                faction=allowed,
                cards=_names(strangers),
            )
        else:
            message = _("figures of another faction than Neutral: {cards}", cards=_names(strangers))
        findings.append(
            Finding(
                code="FACTION_MISMATCH",
                rule="TW-14",
                message=message,
                entries=tuple(e.ref for e in strangers),
            )
        )
    sigils = defaultdict(list)
    for entry in draft.figures:
        if entry.card.sigil and entry.card.faction == allowed:
            sigils[entry.card.sigil].append(entry)
    if len(sigils) > 1:
        entries = [e for group in sigils.values() for e in group]
        findings.append(
            Finding(
                code="SIGIL_CONFLICT",
                rule="TW-14",
                message=_(
                    "figures with different sigils ({sigils}) never mix",
                    sigils=", ".join(sorted(sigils)),
                ),
                entries=tuple(e.ref for e in entries),
            )
        )
    return findings


def tw15_neutral_limit(draft: WarbandDraft, context: WarbandContext) -> list[Finding]:
    if draft.faction == "neutral" or all(e.card.is_neutral for e in draft.figures):
        return []
    findings = []
    for kind in ("hero", "champion", "soldier"):
        neutrals = [e for e in draft.figures if e.card.is_neutral and e.card.kind == kind]
        if len(neutrals) > 1:
            findings.append(
                Finding(
                    code="NEUTRAL_LIMIT",
                    rule="TW-15",
                    message=_(
                        "{count} neutral {kind}s: a faction warband takes at most 1",
                        count=len(neutrals),
                        kind=kind,
                    ),
                    entries=tuple(e.ref for e in neutrals),
                )
            )
    return findings


def tw17_equipment(draft: WarbandDraft, context: WarbandContext) -> list[Finding]:
    figures = {e.ref: e for e in draft.figures}
    findings = []
    held = defaultdict(list)
    for item in draft.equipment:
        holder = figures.get(item.holder or "")
        if holder is None:
            findings.append(
                Finding(
                    code="EQUIPMENT_NO_HOLDER",
                    rule="TW-17",
                    message=_(
                        "{item} is not assigned to a figure of the warband",
                        item=_label(item.card),
                    ),
                    entries=(item.ref,),
                    fix=_("choose the figure that carries it"),
                )
            )
            continue
        held[holder.ref].append(item)
        allowed = holder.card.kind in item.card.carriers and not (
            item.card.infantry_only and holder.card.mounted
        )
        if not allowed:
            findings.append(
                Finding(
                    code="EQUIPMENT_NOT_ALLOWED",
                    rule="TW-19",
                    message=_(
                        "{figure} ({kind}) may not carry {item}",
                        figure=_label(holder.card),
                        kind=holder.card.kind,
                        item=_label(item.card),
                    ),
                    entries=(holder.ref, item.ref),
                )
            )
    for holder_ref, items in held.items():
        if len(items) > 1:
            findings.append(
                Finding(
                    code="EQUIPMENT_LIMIT",
                    rule="TW-18",
                    message=_(
                        "{figure} carries {count} equipment; at most 1",
                        figure=_label(figures[holder_ref].card),
                        count=len(items),
                    ),
                    entries=(holder_ref, *(i.ref for i in items)),
                )
            )
    by_card = defaultdict(list)
    for item in draft.equipment:
        if item.card.unique:
            by_card[item.card.id].append(item)
    for items in by_card.values():
        if len(items) > 1:
            findings.append(
                Finding(
                    code="EQUIPMENT_UNIQUE",
                    rule="TW-20",
                    message=_("{item} is unique: once per warband", item=_label(items[0].card)),
                    entries=tuple(i.ref for i in items),
                )
            )
    return findings


def _could_still_buy(draft: WarbandDraft, card: TacticsCard, left: Coins) -> bool:
    if card.cost is None or not card.cost.fits_in(left):
        return False
    if card.is_figure:
        if draft.budget and len(draft.figures) >= draft.budget.copper:
            return False
        taken = {e.card.unique_key for e in draft.figures if e.card.kind != "soldier"}
        if card.kind != "soldier" and card.unique_key in taken:
            return False
        if card.is_neutral and draft.faction not in (None, "neutral"):
            if any(e.card.is_neutral and e.card.kind == card.kind for e in draft.figures):
                return False
        elif not card.is_neutral and draft.faction not in (None, card.faction):
            return False
        return True
    carriers_free = [
        e for e in draft.figures if not any(i.holder == e.ref for i in draft.equipment)
    ]
    if card.unique and any(i.card.id == card.id for i in draft.equipment):
        return False
    return any(e.card.kind in card.carriers for e in carriers_free)


def tw06_spend_gold_and_silver(draft: WarbandDraft, context: WarbandContext) -> list[Finding]:
    """Leftover gold or silver is an error only while something legal could still use it.

    Reading (rulebook icons missing, notes A1): the coins to maximise are gold and silver;
    "possible" means: some card in the available pool (the faction's cards and its allowed
    neutrals, or the player's collection), not yet taken, whose whole cost fits in what is
    left, that uses the leftover coin, and that the warband could legally add.
    """
    if draft.budget is None:
        return []
    left = draft.budget - draft.spent()
    if min(left.gold, left.silver, left.copper) < 0:
        return []
    findings = []
    for coin in ("gold", "silver"):
        if getattr(left, coin) <= 0:
            continue
        options = [
            card
            for card in context.available
            if card.cost is not None
            and getattr(card.cost, coin) > 0
            and _could_still_buy(draft, card, left)
        ]
        if not options:
            continue
        shown = sorted(options, key=lambda c: (-getattr(c.cost, coin), c.name_en))[:3]
        findings.append(
            Finding(
                code="COIN_UNSPENT",
                rule="TW-06",
                message=_(
                    "{left} {coin} left while it could still buy {cards}",
                    left=getattr(left, coin),
                    coin=COIN_NAMES[coin],
                    cards=_priced(shown),
                ),
                fix=_("add {card}", card=_label(shown[0])),
                data={"coin": coin, "left": getattr(left, coin), "options": [c.id for c in shown]},
            )
        )
    return findings


RULES: tuple[tuple[str, Rule], ...] = (
    ("TW-03", tw03_scenario_budget),
    ("TW-05", tw04_coin_budgets),
    ("TW-06", tw06_spend_gold_and_silver),
    ("TW-07", tw07_figure_cap),
    ("TW-10", tw10_type_from_cost),
    ("TW-12", tw12_unique_figures),
    ("TW-14", tw14_one_faction),
    ("TW-15", tw15_neutral_limit),
    ("TW-17", tw17_equipment),
)


@dataclass(frozen=True)
class WarbandReport(Report):
    spent: Coins
    budget: Coins | None
    figures: int


def tw02_not_empty(draft: WarbandDraft, context: WarbandContext) -> list[Finding]:
    """An empty warband is not legal, it is empty: nothing to judge yet."""
    if next(iter(draft.entries()), None) is not None:
        return []
    return [
        Finding(
            code="LIST_EMPTY",
            rule="TW-02",
            message=_("the warband is empty: recruit figures to build it"),
        )
    ]


def validate_warband(draft: WarbandDraft, context: WarbandContext | None = None) -> WarbandReport:
    context = context or WarbandContext()
    findings: list[Finding] = []
    # An empty warband says so first (LIST_EMPTY: its status is "empty"); the other rules
    # still run, so their findings say what to do next (a budget, gold to spend).
    for _rule_id, rule in (("TW-02", tw02_not_empty), *RULES):
        findings.extend(rule(draft, context))
    return WarbandReport(
        findings=tuple(findings),
        spent=draft.spent(),
        budget=draft.budget,
        figures=len(draft.figures),
    )
