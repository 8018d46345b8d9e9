"""Every Tactics warband rule, legal and illegal, plus the rulebook's own examples (pure)."""

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from armybuilder.tactics.draft import (
    COIN_TYPES,
    Coins,
    EquipmentEntry,
    FigureEntry,
    TacticsCard,
    WarbandContext,
    WarbandDraft,
)
from armybuilder.tactics.validator import validate_warband

SMALL, STANDARD = Coins(2, 4, 12), Coins(3, 6, 18)
ROBERT_MOUNTED = TacticsCard(
    id="tac-robert-mounted",
    kind="hero",
    name_en="Robert Baratheon",
    title_en="Mounted",
    faction="baratheon",
    characters=("robert-baratheon",),
    mounted=True,
    cost=Coins(3, 1, 0),
)
ROBERT_FOOT = replace(
    ROBERT_MOUNTED, id="tac-robert", title_en="", mounted=False, cost=Coins(2, 0, 0)
)
KNIGHT = TacticsCard(
    id="tac-knight",
    kind="champion",
    name_en="Stag Knight",
    faction="baratheon",
    characters=("stag-knight",),
    cost=Coins(0, 2, 1),
)
GUARD = TacticsCard(
    id="tac-guard",
    kind="soldier",
    name_en="Baratheon Guardians",
    faction="baratheon",
    cost=Coins(0, 0, 1),
)
HONOUR_GUARD = replace(
    GUARD, id="tac-honour", name_en="Targaryen Honour Guards", faction="targaryen"
)
FREE_TOKEN = replace(GUARD, id="tac-token", name_en="Token", cost=Coins(0, 0, 0))
SELLSWORD = replace(GUARD, id="tac-sellsword", name_en="Sellsword", faction="neutral")
NEUTRAL_HERO = replace(
    ROBERT_FOOT,
    id="tac-neutral-hero",
    name_en="Wanderer",
    faction="neutral",
    characters=("wanderer",),
)
STEEL = TacticsCard(
    id="tac-steel",
    kind="equipment",
    name_en="Valyrian Steel",
    cost=Coins(0, 0, 2),
    carriers=("hero", "champion"),
    unique=True,
)
BOOTS = TacticsCard(
    id="tac-boots",
    kind="equipment",
    name_en="Immaculate Boots",
    cost=Coins(0, 0, 2),
    infantry_only=True,
)


def warband(*cards, budget=STANDARD, equipment=(), faction="baratheon"):
    figures = tuple(FigureEntry(ref=f"f{i + 1}", card=c) for i, c in enumerate(cards))
    items = tuple(
        EquipmentEntry(ref=f"e{i + 1}", card=card, holder=holder)
        for i, (card, holder) in enumerate(equipment)
    )
    return WarbandDraft(faction=faction, budget=budget, figures=figures, equipment=items)


def codes(draft, available=()):
    return sorted(
        f.code for f in validate_warband(draft, WarbandContext(tuple(available))).findings
    )


def test_rulebook_example_mounted_robert_leaves_0_5_18_of_standard():
    report = validate_warband(warband(ROBERT_MOUNTED))
    assert (report.budget - report.spent).as_dict() == {"gold": 0, "silver": 5, "copper": 18}
    assert report.legal


def test_rulebook_example_mounted_robert_cannot_fit_a_small_game():
    assert codes(warband(ROBERT_MOUNTED, budget=SMALL)) == ["COIN_OVER_BUDGET"]


def test_rulebook_example_robert_on_foot_uses_the_small_games_gold():
    report = validate_warband(warband(ROBERT_FOOT, budget=SMALL))
    assert report.legal and (report.budget - report.spent).gold == 0


def test_missing_budget_is_scenario_unknown():
    assert codes(warband(GUARD, budget=None)) == ["SCENARIO_UNKNOWN"]


def test_overspent_silver_names_only_silver():
    report = validate_warband(
        warband(
            KNIGHT,
            replace(KNIGHT, id="k2", characters=("k2",)),
            replace(KNIGHT, id="k3", characters=("k3",)),
            replace(KNIGHT, id="k4", characters=("k4",)),
        )
    )
    assert [(f.code, f.data["coin"]) for f in report.findings] == [("COIN_OVER_BUDGET", "silver")]


def test_figure_cap_allows_as_many_figures_as_copper_coins():
    assert codes(warband(*[FREE_TOKEN] * 12, budget=Coins(0, 0, 12))) == []


def test_figure_cap_exceeded_by_one_figure_is_flagged():
    assert codes(warband(*[FREE_TOKEN] * 13, budget=Coins(0, 0, 12))) == ["FIGURE_CAP_EXCEEDED"]


def test_soldier_copies_each_cost_their_price():
    assert validate_warband(warband(*[GUARD] * 4)).spent == Coins(0, 0, 4)


def test_named_hero_twice_is_a_unique_duplicate():
    assert codes(warband(ROBERT_FOOT, ROBERT_FOOT, budget=Coins(4, 6, 18))) == ["UNIQUE_DUPLICATE"]


def test_mounted_and_foot_versions_together_are_a_unique_duplicate():
    assert codes(warband(ROBERT_FOOT, ROBERT_MOUNTED, budget=Coins(5, 6, 18))) == [
        "UNIQUE_DUPLICATE"
    ]


def test_figures_of_two_factions_mismatch():
    assert codes(warband(ROBERT_FOOT, HONOUR_GUARD, budget=SMALL)) == ["FACTION_MISMATCH"]


def test_different_sigils_conflict():
    a = replace(GUARD, sigil="stag")
    b = replace(GUARD, id="g2", sigil="crown")
    assert codes(warband(a, a, budget=SMALL)) == []
    assert codes(warband(a, b, budget=SMALL)) == ["SIGIL_CONFLICT"]


def test_one_neutral_of_each_type_may_join_a_faction_warband():
    assert codes(warband(ROBERT_FOOT, SELLSWORD, budget=SMALL)) == []
    assert codes(warband(ROBERT_FOOT, SELLSWORD, SELLSWORD, budget=SMALL)) == ["NEUTRAL_LIMIT"]


def test_all_neutral_warband_has_no_neutral_limit():
    assert codes(warband(SELLSWORD, SELLSWORD, NEUTRAL_HERO, budget=SMALL, faction="neutral")) == []


def test_equipment_without_holder_is_flagged():
    assert codes(warband(ROBERT_FOOT, equipment=((STEEL, None),), budget=SMALL)) == [
        "EQUIPMENT_NO_HOLDER"
    ]


def test_equipment_on_a_figure_type_it_does_not_name_is_flagged():
    assert codes(warband(ROBERT_FOOT, equipment=((STEEL, "f1"),), budget=SMALL)) == []
    assert codes(warband(GUARD, equipment=((STEEL, "f1"),), budget=SMALL)) == [
        "EQUIPMENT_NOT_ALLOWED"
    ]


def test_infantry_only_equipment_on_a_mounted_figure_is_flagged():
    assert codes(warband(ROBERT_MOUNTED, equipment=((BOOTS, "f1"),))) == ["EQUIPMENT_NOT_ALLOWED"]


def test_two_items_on_one_figure_exceed_the_equipment_limit():
    other = replace(BOOTS, id="tac-charm", name_en="Lucky Charm", cost=Coins(0, 0, 1))
    assert codes(warband(ROBERT_FOOT, equipment=((BOOTS, "f1"), (other, "f1")), budget=SMALL)) == [
        "EQUIPMENT_LIMIT"
    ]


def test_unique_equipment_taken_twice_is_flagged():
    draft = warband(ROBERT_FOOT, KNIGHT, equipment=((STEEL, "f1"), (STEEL, "f2")), budget=SMALL)
    assert codes(draft) == ["EQUIPMENT_UNIQUE"]


def test_leftover_silver_that_could_buy_a_champion_is_unspent():
    report = validate_warband(warband(ROBERT_FOOT, budget=SMALL), WarbandContext((KNIGHT,)))
    (finding,) = report.findings
    assert finding.code == "COIN_UNSPENT" and "Stag Knight" in finding.message.en


def test_leftover_silver_with_nothing_affordable_is_fine():
    assert codes(warband(ROBERT_FOOT, budget=SMALL), available=(ROBERT_MOUNTED,)) == []


def test_card_with_unknown_cost_cannot_be_recruited():
    unknown = replace(KNIGHT, cost=None)
    assert codes(warband(unknown, budget=SMALL)) == ["CARD_COST_UNKNOWN"]


def test_hand_made_card_whose_type_contradicts_its_cost_is_flagged():
    wrong = replace(GUARD, kind="soldier", cost=Coins(1, 0, 0))
    assert codes(warband(wrong, budget=SMALL)) == ["FIGURE_TYPE_MISMATCH"]


@given(
    amounts=st.lists(st.integers(min_value=1, max_value=4), min_size=1, max_size=8),
    coin=st.sampled_from(COIN_TYPES),
    shortfall=st.integers(min_value=1, max_value=3),
)
def test_overspending_one_coin_reports_that_coin_only(amounts, coin, shortfall):
    cards = [replace(GUARD, id=f"c{i}", cost=Coins(**{coin: a})) for i, a in enumerate(amounts)]
    budget = {c: 1000 for c in COIN_TYPES} | {coin: max(sum(amounts) - shortfall, 0)}
    report = validate_warband(warband(*cards, budget=Coins(**budget)))
    assert [f.data["coin"] for f in report.findings if f.code == "COIN_OVER_BUDGET"] == [coin]


@given(st.integers(min_value=0, max_value=20), st.integers(min_value=0, max_value=5))
def test_adding_a_figure_never_removes_a_figure_cap_finding(count, cap):
    def has_cap(n):
        report = validate_warband(warband(*[GUARD] * n, budget=Coins(0, 0, cap)))
        return any(f.code == "FIGURE_CAP_EXCEEDED" for f in report.findings)

    if has_cap(count):
        assert has_cap(count + 1)


# --- the legal side of each rule that the tests above only break ----------------------------


def test_two_different_heroes_are_not_a_unique_duplicate():
    other = replace(ROBERT_FOOT, id="tac-stannis", name_en="Stannis", characters=("stannis",))
    assert codes(warband(ROBERT_FOOT, other, budget=Coins(4, 6, 18))) == []


def test_figures_of_one_faction_do_not_mismatch():
    assert codes(warband(ROBERT_FOOT, GUARD, budget=SMALL)) == []


def test_equipment_with_a_holder_is_fine():
    assert codes(warband(KNIGHT, equipment=((STEEL, "f1"),), budget=SMALL)) == []


def test_infantry_only_equipment_on_a_foot_figure_is_fine():
    assert codes(warband(ROBERT_FOOT, equipment=((BOOTS, "f1"),), budget=SMALL)) == []


def test_one_item_on_each_of_two_figures_is_within_the_equipment_limit():
    other = replace(BOOTS, id="tac-charm", name_en="Lucky Charm", cost=Coins(0, 0, 1))
    draft = warband(ROBERT_FOOT, KNIGHT, equipment=((BOOTS, "f1"), (other, "f2")), budget=SMALL)
    assert codes(draft) == []


def test_unique_equipment_taken_once_is_fine():
    draft = warband(ROBERT_FOOT, KNIGHT, equipment=((STEEL, "f1"),), budget=SMALL)
    assert codes(draft) == []


def test_card_whose_type_follows_its_cost_is_fine():
    assert codes(warband(KNIGHT, GUARD, budget=SMALL)) == []


def test_spending_within_every_coin_budget_is_fine():
    assert codes(warband(ROBERT_MOUNTED, KNIGHT, GUARD)) == []
