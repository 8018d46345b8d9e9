"""The army list / warband PDF, read back: the sheet (faction, commander, units with their
attachments, points or coins, legality stamp), the card reference and the rules it cites.

Cards are the shipped data (`load_demo_data`: the TMG snapshot, the Tactics figures, the
quick references); lists are real lists from tests/armybuilder/real_lists."""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import call_command
from django.test import override_settings

from armybuilder.lists.services import import_list_text
from armybuilder.lists.tactics_services import add_figure, create_warband, import_warband_text
from cards.models import Ability, Card, CardSet, CardVersion, Character, Faction, Scenario
from exports.documents import DocumentError, render_pdf
from rules.models import Rulebook
from rules.services import import_rulebook
from tests.armybuilder.test_real_lists import real_list
from tests.exports.pdf_reading import embedded_fonts, pdf_text

pytestmark = pytest.mark.django_db

STARK_40 = real_list("stark-40")
WARBAND = """Game: Tactics
Scenario: Standard (3-6-18)
Faction: Baratheon
Heroes:
• Robert Baratheon - Mounted Rebel King
  • Valyrian Steel
"""


@pytest.fixture(scope="module")
def demo_data(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock(), override_settings(CITADEL_RULEBOOK_DIR=""):
        call_command("load_demo_data", "--no-admin", stdout=io.StringIO(), stderr=io.StringIO())
    yield
    with django_db_blocker.unblock():
        Rulebook.objects.all().delete()
        for model in (CardSet, CardVersion, Card, Ability, Character, Scenario, Faction):
            model.objects.all().delete()


def flat(text: str) -> str:
    """Extracted text on one line: table cells and wrapped names read as written."""
    return re.sub(r"\s+", " ", text)


def render_list(params: dict, language: str = "en") -> str:
    document = render_pdf(kind="army-list", params=params, language=language)
    return flat(pdf_text(document.content))


@pytest.fixture
def saved_stark(demo_data):
    return import_list_text(text=STARK_40).army_list


def test_army_list_pdf_shows_faction_commander_units_attachments_and_points(saved_stark):
    from armybuilder.lists.selectors import list_report
    from armybuilder.serializers import result_json

    report = result_json(list_report(saved_stark, lang="en"))
    text = render_list({"list_id": saved_stark.pk})
    assert "Faction: Stark" in text
    assert "Commander: Robb Stark - The Wolf Lord" in text
    for entry in report["entries"]:
        shown = "C" if entry["commander"] and not entry["points"] else entry["points"]
        assert re.search(rf"{re.escape(entry['name'])}( Commander)? {shown}\b", text), entry
    assert "Total 40 / 40" in text


def test_army_list_pdf_stamps_an_illegal_list_with_its_finding(demo_data):
    over = STARK_40.replace("Points: 40", "Points: 30")
    text = render_list({"text": over, "game": "tmg"})
    assert "× ILLEGAL" in text.upper()
    assert "POINTS_OVER_LIMIT" in text
    assert "Total 40 / 30" in text


def test_army_list_pdf_stamps_a_legal_list_legal(saved_stark):
    text = render_list({"list_id": saved_stark.pk})
    assert "✓ LEGAL" in text.upper()
    assert "No problem found" in text


def test_army_list_pdf_in_french_prints_the_french_names(saved_stark):
    sworn_swords = Card.objects.get(game="tmg", name_en="Stark Sworn Swords")
    text = render_list({"list_id": saved_stark.pk}, language="fr")
    assert sworn_swords.name_fr and sworn_swords.name_fr != sworn_swords.name_en
    assert sworn_swords.name_fr in text
    assert "Taille : 40 points" in text and "Paquet Tactique" in text


def test_army_list_pdf_has_a_reference_part_with_each_card_stats(saved_stark):
    text = render_list({"list_id": saved_stark.pk})
    reference = text[text.index("Card reference") :]
    assert "Stark Sworn Swords" in reference
    assert re.search(r"Speed \d+ Defense \d\+ Morale \d\+", reference)
    assert "Order: Tactical Reposition" in reference  # an ability name of the snapshot


@pytest.mark.shared_data
def test_army_list_pdf_prints_the_rules_sections_its_keywords_cite(saved_stark, shared_dir):
    import_rulebook(
        path=shared_dir / "rulebooks" / "asoiaf-tmg-rules-1.5.fr.txt",
        slug="asoiaf-tmg-rules-1-5-fr",
        lang="fr",
        game="tmg",
    )
    text = render_list({"list_id": saved_stark.pk}, language="fr")
    cited = text[text.index("Règles citées") :]
    assert "Ordres" in cited and "Ordre : Repositionnement Tactique" in cited


def test_warband_pdf_shows_the_coins_of_each_figure_and_the_budget(demo_data):
    warband = import_warband_text(text=WARBAND).army_list
    text = render_list({"list_id": warband.pk})
    assert "Game size: Standard (3-6-18) Figures: 1" in text
    assert "Gold Silver Copper" in text
    assert "Robert Baratheon - Mounted Rebel King 3 1 0" in text
    assert "Valyrian Steel 0 0 2" in text
    assert "Spent 3 1 2" in text and "Budget 3 6 18" in text


def test_warband_pdf_of_example_cards_says_they_are_made_up(demo_data):
    example = CardSet.objects.get(is_example=True)
    warband = create_warband(
        faction=Faction.objects.get(game="tactics", slug="targaryen"),
        budget="small",
        card_sets=[example],
    )
    card = Card.objects.get(card_set=example, name_en="Example Ember Lord")
    add_figure(army_list=warband, card=card)
    text = render_list({"list_id": warband.pk})
    assert "Example set — made-up costs for trying the builder, not official." in text
    assert "Example Ember Lord (example)" in text


def test_pasted_warband_pdf_matches_the_saved_one(demo_data):
    text = render_list({"text": WARBAND, "game": "tactics"})
    assert "Robert Baratheon - Mounted Rebel King 3 1 0" in text


def test_army_list_pdf_embeds_only_the_shipped_latin_font(saved_stark):
    document = render_pdf(kind="army-list", params={"list_id": saved_stark.pk}, language="en")
    fonts = embedded_fonts(document.content)
    assert {"Source-Serif", "Source-Serif-Bold"} <= fonts
    assert fonts <= {"Source-Serif", "Source-Serif-Bold", "Source-Serif-Italic"}


def test_army_list_pdf_reports_progress_up_to_100(saved_stark):
    seen: list[int] = []
    render_pdf(
        kind="army-list", params={"list_id": saved_stark.pk}, language="en", on_progress=seen.append
    )
    assert seen[0] == 0 and seen[-1] == 100 and seen == sorted(set(seen))


def test_army_list_pdf_is_named_after_the_list(saved_stark):
    document = render_pdf(kind="army-list", params={"list_id": saved_stark.pk}, language="en")
    assert document.filename.endswith("-army-list.pdf") and document.pages >= 2


def test_army_list_pdf_refuses_persian(saved_stark):
    with pytest.raises(DocumentError, match="English or French"):
        render_pdf(kind="army-list", params={"list_id": saved_stark.pk}, language="fa")


@pytest.mark.parametrize("params", [{"list_id": 999_999}, {"list_id": "x"}, {"text": "  "}, {}])
def test_army_list_pdf_refuses_a_missing_list(demo_data, params):
    with pytest.raises(DocumentError):
        render_pdf(kind="army-list", params=params, language="en")


def test_army_list_pdf_refuses_an_unknown_game(demo_data):
    with pytest.raises(DocumentError):
        render_pdf(kind="army-list", params={"text": STARK_40, "game": "chess"}, language="en")


@pytest.mark.shared_data
def test_english_army_list_pdf_cites_the_quick_reference_and_names_the_original_rule(
    saved_stark, shared_dir
):
    import_rulebook(
        path=shared_dir / "rulebooks" / "asoiaf-tmg-rules-1.5.fr.txt",
        slug="asoiaf-tmg-rules-1-5-fr",
        lang="fr",
        game="tmg",
    )
    text = render_list({"list_id": saved_stark.pk}, language="en")
    cited = text[text.index("Rules cited") :]
    # "Orders" is summarised in the English quick reference; the French rule is named too.
    assert "Key terms" in cited
    assert "Original rule:" in cited and "Règles v1.5 — Ordres, p. 24" in cited
