"""The Tactics warband reader: one test per way players write warbands, in English and in
French, on the shipped Trident card set (cards/data/tactics-trident.json, read as plain
values: no database), plus the property that every input line is accounted for.

The warbands below are made up for these tests.
"""

import json
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from armybuilder.listtext.reading import LineKind
from armybuilder.listtext.resolve import CardIndex, name_key
from armybuilder.pool import TacticsPool
from armybuilder.serializers import result_json
from armybuilder.tactics.check import check_text
from armybuilder.tactics.draft import Coins, TacticsCard

TRIDENT = Path(__file__).resolve().parents[2] / "cards" / "data" / "tactics-trident.json"


def _card(data: dict) -> TacticsCard:
    cost = data["cost"]
    known = None not in (cost.get("gold"), cost.get("silver"), cost.get("copper"))
    title = data.get("title") or {}
    return TacticsCard(
        id=data["id"],
        kind=data["kind"],
        name_en=data["name"]["en"],
        name_fr=data["name"].get("fr", ""),
        title_en=title.get("en", ""),
        title_fr=title.get("fr", ""),
        faction=data.get("faction"),
        characters=tuple(data.get("characters", ())),
        mounted=bool(data.get("mounted")),
        cost=Coins(cost["gold"], cost["silver"], cost["copper"]) if known else None,
        carriers=tuple(data.get("carriers") or ("hero", "champion", "soldier")),
        unique=bool(data.get("unique")),
        infantry_only=bool(data.get("infantry_only")),
    )


def make_pool(extra: tuple[TacticsCard, ...] = ()) -> TacticsPool:
    document = json.loads(TRIDENT.read_text(encoding="utf-8"))
    cards = [_card(card) for card in document["cards"]] + list(extra)
    scenarios: dict[str, Coins | None] = {}
    labels: dict[str, str] = {}
    for scenario in document["scenarios"]:
        budget = scenario.get("budget") or {}
        coins = Coins(**budget) if budget and None not in budget.values() else None
        for label in (scenario["id"], scenario["name"]["en"], scenario["name"]["fr"]):
            scenarios[name_key(label)] = coins
        if coins:
            labels[coins.label()] = scenario["name"]["en"]
    factions = {f["id"]: (f["name"]["en"], f["name"]["fr"]) for f in document["factions"]}
    return TacticsPool(
        cards=tuple(cards),
        index=CardIndex(cards),
        faction_aliases=factions,
        faction_names=factions,
        scenarios=scenarios,
        scenario_labels=labels,
    )


POOL = make_pool()


def read(text: str, pool: TacticsPool = POOL, lang: str = "en"):
    return check_text(text, pool=pool, lang=lang)


def kinds(result) -> list[str]:
    return [str(line.kind) for line in result.lines]


def codes(result) -> list[str]:
    return [finding.code for finding in result.findings]


def ids(result) -> list[str]:
    return [entry.card.id for entry in result.entries]


def entry(result, ref: str):
    return next(e for e in result.entries if e.ref == ref)


def holders(result) -> dict[str, str | None]:
    return {e.card.id: e.host for e in result.entries if e.role == "equipment"}


HEADER_EN = "Game: Tactics\nScenario: Standard\nFaction: Baratheon\n"
HEADER_FR = "Jeu : Tactics\nTaille : Standard\nFaction : Baratheon\n"


# --- section headings ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        HEADER_EN + "Heroes:\n• Robert Baratheon\nChampions:\n• Lyn Corbray\nSoldiers:\n"
        "• Baratheon Guardians\nEquipment:\n• Lucky Charm",
        HEADER_FR + "Héros :\n• Robert Baratheon\nChampions :\n• Lyn Corbray\nSoldats :\n"
        "• Gardiens Baratheon\nÉquipement :\n• Porte-bonheur",
    ],
    ids=["en", "fr"],
)
def test_section_headings_are_sections(text):
    result = read(text)
    assert kinds(result)[3::2] == ["section"] * 4
    assert [e.role for e in result.entries] == ["hero", "champion", "soldier", "equipment"]


@pytest.mark.parametrize(
    "text",
    [HEADER_EN + "Lyn Corbray\nRobert Baratheon", HEADER_FR + "Lyn Corbray\nRobert Baratheon"],
    ids=["en", "fr"],
)
def test_without_headings_the_role_is_the_card_kind(text):
    result = read(text)
    assert [e.role for e in result.entries] == ["champion", "hero"]


# --- equipment ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "line",
    ["Lyn Corbray (Valyrian Steel)", "Lyn Corbray (Acier valyrien)"],
    ids=["en", "fr"],
)
def test_equipment_in_parentheses_is_carried_by_its_figure(line):
    result = read(HEADER_EN + line)
    assert holders(result) == {"tac-valyrian-steel": "figure-1"}
    assert result.lines[3].refs == ("figure-1", "equipment-1")


@pytest.mark.parametrize(
    "second",
    ["  • Valyrian Steel", "with Valyrian Steel", "avec Acier valyrien", "+ Valyrian Steel"],
    ids=["indented", "with", "avec", "plus"],
)
def test_equipment_on_the_next_line_is_carried_by_the_figure_above(second):
    result = read(HEADER_EN + "• Lyn Corbray\n" + second)
    assert holders(result) == {"tac-valyrian-steel": "figure-1"}


def test_equipment_on_the_next_line_without_indent_or_with_is_not_carried():
    result = read(HEADER_EN + "• Lyn Corbray\n• Valyrian Steel")
    assert holders(result) == {"tac-valyrian-steel": None}
    assert "EQUIPMENT_NO_HOLDER" in codes(result)


@pytest.mark.parametrize(
    "line",
    [
        "Lyn Corbray + Valyrian Steel",
        "Lyn Corbray with Valyrian Steel",
        "Lyn Corbray avec Acier valyrien",
        "Lyn Corbray w/ Valyrian Steel",
    ],
    ids=["plus", "with", "avec", "w/"],
)
def test_inline_equipment_is_carried_by_the_figure_before_it(line):
    result = read(HEADER_EN + line)
    assert holders(result) == {"tac-valyrian-steel": "figure-1"}


@pytest.mark.parametrize(
    "line",
    ["• Valyrian Steel (Lyn Corbray)", "• Acier valyrien sur Lyn Corbray"],
    ids=["en", "fr"],
)
def test_equipment_section_item_names_its_holder(line):
    result = read(HEADER_EN + "• Lyn Corbray\nEquipment:\n" + line)
    assert holders(result) == {"tac-valyrian-steel": "figure-1"}


# --- costs -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "cost",
    ["[3G 1S]", "3G 1S", "3-1-0", "(3 or / 1 argent)", "3 gold 1 silver", "- 3G1S"],
)
def test_printed_cost_in_any_form_chooses_the_card(cost):
    result = read(HEADER_EN + f"Robert Baratheon {cost}")
    assert ids(result) == ["tac-robert-baratheon-mounted"]
    chosen = entry(result, "figure-1")
    assert chosen.printed_cost and chosen.alternatives == ("tac-robert-baratheon",)
    assert "printed cost" in chosen.how.in_language("en")
    assert "COST_DIFFERS" not in codes(result)


@pytest.mark.parametrize(
    "line", ["Valyrian Steel (2C)", "Valyrian Steel [2C]", "Acier valyrien 2 cuivres"]
)
def test_copper_cost_of_equipment_matches(line):
    result = read(HEADER_EN + "Lyn Corbray\n" + line)
    assert entry(result, "equipment-1").printed_cost is not None
    assert "COST_DIFFERS" not in codes(result)


@pytest.mark.parametrize("line", ["Valyrian Steel [1C]", "Acier valyrien (1 cuivre)"])
def test_printed_cost_other_than_the_card_is_a_warning(line):
    result = read(HEADER_EN + "Lyn Corbray\n" + line)
    differs = [f for f in result.findings if f.code == "COST_DIFFERS"]
    assert len(differs) == 1 and differs[0].severity == "warning"
    assert differs[0].entries == ("equipment-1",)
    assert "2C" in differs[0].message.in_language("en")


def test_cost_each_is_per_copy():
    result = read(HEADER_EN + "Lucky Charm x2 [1C each]")
    assert "COST_DIFFERS" not in codes(result)


# --- copies ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        "Baratheon Guardians x4",
        "4x Baratheon Guardians",
        "4 × Baratheon Guardians",
        "4 Gardiens Baratheon",
        "Gardiens Baratheon (x4)",
    ],
)
def test_copies_make_one_figure_each(line):
    result = read(HEADER_EN + line)
    assert ids(result) == ["tac-baratheon-guardians"] * 4
    assert result.lines[3].refs == ("figure-1", "figure-2", "figure-3", "figure-4")


# --- headers, footers, prose, markup -----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "budget"),
    [
        ("Game: Tactics\nScenario: Standard (3-6-18)\nFaction: Baratheon\nName: Stags", "3-6-18"),
        ("Jeu : Tactics\nTaille : Petite\nFaction : Baratheon\nNom : Les Cerfs", "2-4-12"),
        ("Budget: 4-8-24\nFaction: Baratheon", "4-8-24"),
        ("Size: large\nFaction: Baratheon", "4-8-24"),
        ("Baratheon\n3-6-18", "3-6-18"),
    ],
    ids=["en", "fr", "budget", "size-word", "bare"],
)
def test_headers_give_the_budget_and_faction(text, budget):
    result = read(text + "\nLyn Corbray")
    assert result.draft.budget.label() == budget and result.faction == "baratheon"
    assert set(kinds(result)[:-1]) == {"header"}
    assert "FACTION_INFERRED" not in codes(result)


@pytest.mark.parametrize(
    "footer",
    [
        "Made with Citadel",
        "Fait avec Citadel",
        "https://example.org/warband/12",
        "Total: 3G 6S 10C",
        "Dépensé : 3 or 6 argent",
    ],
)
def test_footers_are_footers(footer):
    result = read(HEADER_EN + "Lyn Corbray\n" + footer)
    assert kinds(result)[-1] == "footer"
    assert "CARD_UNKNOWN" not in codes(result)


@pytest.mark.parametrize(
    "sentence",
    [
        "I took Lyn because he hits very hard and the guardians hold the line.",
        "J'ai pris Lyn parce qu'il frappe fort et que les gardiens tiennent la ligne.",
    ],
    ids=["en", "fr"],
)
def test_prose_is_ignored_with_one_warning_naming_the_lines(sentence):
    result = read(HEADER_EN + sentence + "\nLyn Corbray\n" + sentence)
    assert kinds(result)[3] == kinds(result)[5] == "prose"
    ignored = [f for f in result.findings if f.code == "LINES_IGNORED"]
    assert len(ignored) == 1 and ignored[0].entries == ("line-4", "line-6")


def test_markdown_bbcode_and_emoji_are_read_through():
    text = (
        "## **Stags of the Trident** 🦌\n"
        "[b]Faction: Baratheon[/b]\n"
        "### Heroes\n"
        "* **Robert Baratheon** 🗡️ [2G]\n"
        "[list][*]Lyn Corbray[/list]"
    )
    result = read(text)
    assert kinds(result) == ["title", "header", "section", "card", "card"]
    assert ids(result) == ["tac-robert-baratheon", "tac-lyn-corbray"]


def test_first_line_that_names_no_card_is_the_title():
    result = read("The Rebels of the Trident\n" + HEADER_EN + "Lyn Corbray")
    assert result.lines[0].kind == LineKind.TITLE
    assert codes(result) == [c for c in codes(result) if c != "CARD_UNKNOWN"]


@pytest.mark.parametrize("legend", ["Figure (Equipment)", "Figurine (Équipement) [coût]"])
def test_legend_line_is_a_legend(legend):
    result = read(HEADER_EN + legend + "\nLyn Corbray (Lucky Charm)")
    assert kinds(result)[3] == "legend"


# --- one-line lists and two lists in one message -----------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        "Robert Baratheon, Lyn Corbray, 2x Baratheon Guardians",
        "Héros : Robert Baratheon ; Champions : Lyn Corbray ; Soldats : 2x Gardiens Baratheon",
    ],
    ids=["en", "fr"],
)
def test_whole_warband_on_one_line(line):
    result = read(HEADER_EN + line)
    assert ids(result) == [
        "tac-robert-baratheon",
        "tac-lyn-corbray",
        "tac-baratheon-guardians",
        "tac-baratheon-guardians",
    ]
    assert kinds(result)[3] == "card" and len(result.lines) == 4


def test_second_warband_after_a_heading_is_not_checked():
    text = (
        "# Mine\n" + HEADER_EN + "Lyn Corbray\n\n# My friend's\nFaction: Targaryen\nLewyn Martell"
    )
    result = read(text)
    assert kinds(result)[-3:] == ["other_list"] * 3
    assert ids(result) == ["tac-lyn-corbray"]
    assert "LINES_IGNORED" in codes(result)


# --- names ---------------------------------------------------------------------------------------


def test_faction_inferred_from_the_figures_is_a_warning():
    result = read("Lyn Corbray\nDenys Arryn")
    assert result.faction == "baratheon" and "FACTION_INFERRED" in codes(result)


def test_unknown_faction_name_is_a_warning():
    result = read("Faction: Lannister\nLyn Corbray")
    assert result.faction == "baratheon"
    inferred = [f for f in result.findings if f.code == "FACTION_INFERRED"]
    assert "Lannister" in inferred[0].message.in_language("en")


@pytest.mark.parametrize(
    ("line", "card"),
    [("Lyn Corbay", "tac-lyn-corbray"), ("Gardiens Barathon", "tac-baratheon-guardians")],
)
def test_typo_is_corrected_with_a_warning(line, card):
    result = read(HEADER_EN + line)
    assert ids(result) == [card] and "NAME_CORRECTED" in codes(result)
    assert entry(result, "figure-1").corrected_from == line


def test_name_without_title_chooses_the_card_without_title_and_says_so():
    result = read(HEADER_EN + "Robert Baratheon")
    assert ids(result) == ["tac-robert-baratheon"]
    chosen = [f for f in result.findings if f.code == "CARD_CHOSEN"]
    assert len(chosen) == 1 and chosen[0].entries == ("figure-1",)
    assert entry(result, "figure-1").alternatives == ("tac-robert-baratheon-mounted",)


@pytest.mark.parametrize("line", ["Robert Baratheon (Mounted)", "Robert Baratheon monté"])
def test_title_words_choose_the_mounted_card(line):
    result = read(HEADER_EN + line)
    assert ids(result) == ["tac-robert-baratheon-mounted"]
    assert "CARD_CHOSEN" not in codes(result)


def test_name_of_two_cards_with_nothing_to_choose_is_ambiguous():
    knight = next(card for card in POOL.cards if card.id == "tac-stag-knight")
    pool = make_pool((replace(knight, id="tac-stag-knight-t", faction="targaryen"),))
    result = read("Stag Knight", pool)
    assert result.lines[0].kind == LineKind.AMBIGUOUS
    assert set(result.lines[0].candidates) == {"tac-stag-knight", "tac-stag-knight-t"}
    assert "CARD_AMBIGUOUS" in codes(result) and ids(result) == []


def test_faction_line_chooses_between_two_cards_of_one_name():
    knight = next(card for card in POOL.cards if card.id == "tac-stag-knight")
    pool = make_pool((replace(knight, id="tac-stag-knight-t", faction="targaryen"),))
    result = read("Faction: Targaryen\nStag Knight", pool)
    assert ids(result) == ["tac-stag-knight-t"]
    assert "faction" in entry(result, "figure-1").how.in_language("en")


def test_unknown_name_is_an_unknown_line_with_suggestions():
    result = read(HEADER_EN + "• Ser Nobody of Nowhere")
    assert result.lines[-1].kind == LineKind.UNKNOWN
    assert "CARD_UNKNOWN" in codes(result)


def test_reading_is_said_in_french():
    result = read(HEADER_FR + "Robert Baratheon", lang="fr")
    how = entry(result, "figure-1").how.in_language("fr")
    assert how.startswith("le nom de la carte")
    assert result.lines[0].note.in_language("fr") == "le jeu : Tactics"


# --- every line accounted for ------------------------------------------------------------------

LIST_BITS = st.sampled_from(
    [
        "Heroes:",
        "Héros :",
        "• Robert Baratheon [3G 1S]",
        "  • Valyrian Steel",
        "with Lucky Charm",
        "4x Baratheon Guardians (1C each)",
        "Faction: Baratheon",
        "Game: Tactics",
        "# Another list",
        "Made with Citadel",
        "I love this warband.",
        "(((",
        "[b][/b]",
        "x99",
        "3-6-18",
        "",
        "🦌",
    ]
)
LINES = st.lists(st.one_of(LIST_BITS, st.text(max_size=40)), max_size=15)


@settings(max_examples=300, deadline=None)
@given(LINES)
def test_every_input_line_is_read_exactly_once_and_never_raises(lines):
    text = "\n".join(lines)
    result = read(text)
    assert [line.number for line in result.lines] == list(range(1, len(text.splitlines()) + 1))
    result_json(result)  # and it serializes


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_arbitrary_text_never_raises(text):
    result = read(text)
    assert [line.number for line in result.lines] == list(range(1, len(text.splitlines()) + 1))


# --- the API -----------------------------------------------------------------------------------

MESSY = """**Stags** 🦌
Game: Tactics
Scenario: Standard (3-6-18)

Heroes
- Robert Baratheon (Valyrian Steel) 3G 1S
Soldiers
- 4x Baratheon Guardians 1C each
I think this will do well.
Made with Citadel
"""


@pytest.mark.django_db
def test_check_api_returns_every_line_of_a_messy_warband(client, small_pool):
    data = client.post(
        "/api/v1/lists/check/", {"text": MESSY}, content_type="application/json"
    ).json()
    assert [line["kind"] for line in data["lines"]] == [
        "title",
        "header",
        "header",
        "blank",
        "section",
        "card",
        "section",
        "card",
        "prose",
        "footer",
    ]
    assert data["lines"][5]["entries"] == ["figure-1", "equipment-1"]
    robert = data["entries"][0]
    assert robert["id"] == "tac-robert-mounted" and robert["printed_cost"] == "3G 1S"
    assert robert["how"] and robert["alternatives"] == ["tac-robert"]
    assert {f["code"] for f in data["findings"]} >= {"FACTION_INFERRED", "LINES_IGNORED"}
