"""How a pasted list was read, shown line by line: the reading rows, the table every page
includes (templates/lists/_reading.html), the paste form, the import, the CLI and the API."""

import io
import re

import pytest
from django.core.management import call_command
from django.template.loader import render_to_string
from django.utils import translation

from armybuilder.findings import Finding
from armybuilder.lists.models import ArmyList
from armybuilder.lists.selectors import LINE_KIND_LABELS, reading_of
from armybuilder.listtext.reading import LineKind, LineReading
from armybuilder.result import CheckResult, ResultEntry
from armybuilder.tmg.draft import CardFacts
from common.i18n import Bilingual
from tests.armybuilder.test_check_api import LEGAL_TMG

SWORDS = CardFacts(id="10201", kind="unit", faction="stark", name_en="Stark Sworn Swords")
OUTRIDERS = CardFacts(id="10203", kind="unit", faction="stark", name_en="Stark Outriders")
ROBB = CardFacts(
    id="20201", kind="attachment", faction="stark", name_en="Robb Stark", title_en="The Wolf Lord"
)


class Pool:
    """What `reading_of` reads of a pool: its cards."""

    cards = (SWORDS, OUTRIDERS, ROBB)


def handmade_result() -> CheckResult:
    """A result as a reader returns it: a header, two blank lines, a card line, an unknown
    line with candidates, one more blank line."""
    lines = (
        LineReading(1, "Faction: Stark", LineKind.HEADER, note=Bilingual("faction", "faction")),
        LineReading(2, "", LineKind.BLANK),
        LineReading(3, "  ", LineKind.BLANK),
        LineReading(4, "• Stark Sworn Swords (5)", LineKind.CARD, refs=("unit-0",)),
        LineReading(5, "• Stark Sworrds", LineKind.UNKNOWN, candidates=("10201", "10203")),
        LineReading(6, "", LineKind.BLANK),
    )
    entry = ResultEntry(
        ref="unit-0",
        card=SWORDS,
        role="unit",
        line=4,
        how=Bilingual("the name and its cost", "le nom et son coût"),
        alternatives=("10203",),
        printed_cost="5",
    )
    unknown = Finding(
        code="CARD_UNKNOWN",
        rule="list-format",
        message=Bilingual("no card named 'Stark Sworrds'", "aucune carte 'Stark Sworrds'"),
        entries=("line-5",),
        fix=Bilingual("did you mean Stark Sworn Swords?", "vouliez-vous dire Stark Sworn Swords ?"),
    )
    several = Finding(
        code="LINES_IGNORED",
        rule="list-format",
        message=Bilingual("lines 1, 4 ignored", "lignes 1, 4 ignorées"),
        entries=("line-1", "line-4"),
    )
    return CheckResult(
        game="tmg", lang="en", entries=(entry,), findings=(unknown, several), lines=lines
    )


def rows_of(html: str) -> list[tuple[int, int, str]]:
    """(first line, last line, kind) of each row of the reading table."""
    found = re.findall(
        r'class="reading-row [^"]*" data-kind="(\w+)" data-line="(\d+)" data-last="(\d+)"', html
    )
    return [(int(first), int(last), kind) for kind, first, last in found]


def covered(rows: list[tuple[int, int, str]]) -> list[int]:
    return [number for first, last, _ in rows for number in range(first, last + 1)]


# --- the rows ------------------------------------------------------------------------------------


def test_reading_folds_a_run_of_blank_lines_into_one_counted_row():
    reading = reading_of(handmade_result(), pool=Pool())
    assert [(row.number, row.last, row.kind) for row in reading.rows] == [
        (1, 1, "header"),
        (2, 3, "blank"),
        (4, 4, "card"),
        (5, 5, "unknown"),
        (6, 6, "blank"),
    ]
    assert reading.rows[1].count == 2


def test_reading_counts_lines_cards_and_unread_lines():
    reading = reading_of(handmade_result(), pool=Pool())
    assert (reading.lines, reading.cards, reading.unread) == (6, 1, 1)


def test_reading_names_candidates_and_alternatives_from_the_pool():
    rows = reading_of(handmade_result(), pool=Pool()).rows
    assert rows[3].candidates == ("Stark Sworn Swords", "Stark Outriders")
    assert rows[2].cards[0].alternatives == ("Stark Outriders",)


def test_every_line_kind_has_a_label_in_both_languages():
    for lang in ("en", "fr"):
        with translation.override(lang):
            assert all(str(LINE_KIND_LABELS[kind]) for kind in LineKind)
    with translation.override("fr"):
        assert str(LINE_KIND_LABELS[LineKind.UNKNOWN]) == "inconnue"


def test_reading_puts_a_finding_about_one_line_on_its_row():
    rows = reading_of(handmade_result(), pool=Pool()).rows
    assert [f.code for f in rows[3].findings] == ["CARD_UNKNOWN"]
    assert rows[3].findings[0].fix == "did you mean Stark Sworn Swords?"


def test_reading_leaves_a_finding_about_several_lines_off_the_rows():
    rows = reading_of(handmade_result(), pool=Pool()).rows
    assert all(f.code != "LINES_IGNORED" for row in rows for f in row.findings)


def test_reading_of_a_result_without_lines_is_empty():
    assert not reading_of(CheckResult(game="tmg", lang="en"))


# --- the table -----------------------------------------------------------------------------------


def render(result: CheckResult, lang: str = "en") -> str:
    with translation.override(lang):
        reading = reading_of(result, lang=lang, pool=Pool())
        return render_to_string("lists/_reading.html", {"reading": reading})


def test_table_covers_every_input_line_once():
    rows = rows_of(render(handmade_result()))
    assert covered(rows) == [1, 2, 3, 4, 5, 6]


def test_table_marks_an_unknown_line_with_text_and_suggestions():
    html = render(handmade_result())
    row = re.search(
        r'<tr class="reading-row reading-kind-unknown reading-problem".*?</tr>', html, re.S
    )
    assert row is not None
    assert "unknown" in row.group(0) and "Did you mean:" in row.group(0)
    assert "Stark Sworn Swords, Stark Outriders" in row.group(0)
    assert 'data-code="CARD_UNKNOWN"' in row.group(0)


def test_table_shows_how_a_card_was_chosen_and_its_printed_cost():
    html = render(handmade_result())
    assert "the name and its cost" in html and "(5)" in html and "Could also be:" in html


def test_table_speaks_french():
    html = render(handmade_result(), "fr")
    assert "Comment nous avons lu votre liste" in html and "inconnue" in html
    assert "le nom et son coût" in html and "2 lignes vides" in html


def test_table_has_column_headers_and_row_headers():
    html = render(handmade_result())
    assert html.count('<th scope="col">') == 3 and html.count('<th scope="row"') == 5


# --- every door reads alike (the reader fills `lines`) ----------------------------------------

PASTED = "Faction: Stark\nPoints: 30\n\n• Stark Sworn Swords\n• Nobody Special\n"


@pytest.mark.django_db
def test_paste_form_check_shows_one_row_per_input_line(client, small_pool):
    response = client.post("/lists/import/", {"text": PASTED, "action": "check"})
    rows = rows_of(response.content.decode())
    assert response.status_code == 200 and covered(rows) == [1, 2, 3, 4, 5]
    assert not ArmyList.objects.exists()


@pytest.mark.django_db
def test_paste_form_check_marks_the_unknown_line(client, small_pool):
    rows = rows_of(
        client.post("/lists/import/", {"text": PASTED, "action": "check"}).content.decode()
    )
    assert (5, 5, "unknown") in rows and (4, 4, "card") in rows


@pytest.mark.django_db
def test_paste_form_check_shows_the_verdict_and_findings(client, small_pool):
    html = client.post("/lists/import/", {"text": PASTED, "action": "check"}).content.decode()
    assert 'data-testid="verdict"' in html and 'data-code="CARD_UNKNOWN"' in html


@pytest.mark.django_db
def test_import_shows_the_reading_on_the_builder_once(client, small_pool):
    response = client.post("/lists/import/", {"text": PASTED}, follow=True)
    assert covered(rows_of(response.content.decode())) == [1, 2, 3, 4, 5]
    again = client.get(response.redirect_chain[-1][0]).content.decode()
    assert rows_of(again) == []


@pytest.mark.django_db
def test_import_that_fails_shows_what_was_read(client, small_pool):
    response = client.post("/lists/import/", {"text": "just some words"})
    assert response.status_code == 400
    assert covered(rows_of(response.content.decode())) == [1]


@pytest.mark.django_db
def test_checklist_text_format_prints_one_reading_line_per_input_line(tmp_path, small_pool):
    path = tmp_path / "list.txt"
    path.write_text(PASTED, encoding="utf-8")
    out = io.StringIO()
    with pytest.raises(SystemExit):
        call_command("checklist", str(path), stdout=out)
    reading = out.getvalue().split("  reading:\n", 1)[1].splitlines()
    assert [line.split()[0] for line in reading] == ["1", "2", "3", "4", "5"]
    assert reading[4].split()[1] == "unknown" and reading[2].split()[1] == "blank"


@pytest.mark.django_db
def test_check_batch_returns_the_lines_of_each_result(client, small_pool):
    body = {"lists": [{"id": "a", "text": LEGAL_TMG}, {"id": "b", "text": PASTED}]}
    data = client.post("/api/v1/lists/check-batch/", body, content_type="application/json").json()
    expected = [len(LEGAL_TMG.splitlines()), len(PASTED.splitlines())]
    assert [len(result["lines"]) for result in data["results"]] == expected
    assert [line["line"] for line in data["results"][1]["lines"]] == [1, 2, 3, 4, 5]
