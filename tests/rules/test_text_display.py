"""How a section's text is shown: pipe tables as tables on pages and in PDFs, as plain rows
in search snippets (never `| … |`), with no Markdown markup left."""

from __future__ import annotations

from pathlib import Path

from rules.search.normalise import tokens
from rules.search.snippets import highlight, plain_text, snippet
from rules.templatetags.rules_text import rules_body

QUICKREF = Path(__file__).resolve().parents[2] / "rules" / "data" / "quickref"


def _game_modes_table() -> str:
    """The game-modes table of our TMG quick reference, as the importer keeps it."""
    text = (QUICKREF / "tmg.en.md").read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line.startswith("|")]
    return "Pick a mode together.\n\n" + "\n".join(rows)


def test_rules_body_renders_a_pipe_table_as_a_table():
    html = rules_body(_game_modes_table())
    assert "<table>" in html and '<th scope="col">Mode</th>' in html
    assert "|" not in html and "---" not in html


def test_rules_body_renders_a_table_that_follows_text_without_a_blank_line():
    html = rules_body("The modes:\n| Mode | VP |\n|---|---|\n| Feu et Sang | 2 |")
    assert html.startswith("<p>The modes:</p>")
    assert "<td>Feu et Sang</td>" in html and "|" not in html


def test_plain_text_reads_table_rows_as_cells_and_rows():
    assert plain_text("| a | b |\n|:--|--:|\n| 1 | 2 |") == "a · b / 1 · 2"


def test_plain_text_leaves_text_without_tables_alone():
    assert plain_text("Une phrase | avec une barre.") == "Une phrase | avec une barre."


def test_snippet_of_a_table_shows_no_pipes_or_rule_lines():
    shown = snippet(_game_modes_table(), "en", {"clash"})
    assert "<mark>Clash</mark> of Kings · 3 tokens" in shown
    assert "|" not in shown and "---" not in shown


def test_highlight_marks_a_word_written_with_an_accent_beyond_latin_1():
    assert highlight("La Mārche forcée", "fr", set(tokens("marche", "fr"))) == (
        "La <mark>Mārche</mark> forcée"
    )


def test_highlight_marks_a_persian_word_written_with_an_arabic_letter():
    raven = "\u0643\u0644\u0627\u063a"  # كلاغ with the Arabic kaf
    shown = highlight(f"توکن {raven} پیام رسان", "fa", set(tokens("کلاغ", "fa")))
    assert shown == f"توکن <mark>{raven}</mark> پیام رسان"


def test_snippet_shows_each_run_of_whitespace_as_one_space():
    shown = snippet("Une  charge\n\n\tdéclarée\u00a0ici.", "fr", set(tokens("charge", "fr")))
    assert shown == "Une <mark>charge</mark> déclarée ici."
