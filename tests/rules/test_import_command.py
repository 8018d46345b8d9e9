"""`manage.py import_rulebook`: text, Markdown and PDF files of our own; idempotent
re-imports that keep section ids; bad input that changes nothing and exits with 2."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from common.progress import StageBar
from rules.importing.naming import options_from_filename, quick_reference_options
from rules.importing.parse import parse_rulebook
from rules.models import Rulebook, Section
from rules.services import QUICKREF_DIR, STAGES
from tests.conftest import REPO_DIR
from tests.rules.pdf import make_pdf

pytestmark = pytest.mark.django_db

BOOK = """\
SETUP

Each player takes a deck of twenty cards and shuffles it before the first round starts.

Choosing a Deck
Players pick one of the four colours and take the matching cards from the box lid.

PLAYING A ROUND

In turn, each player draws two cards, plays one of them and discards the other card.

Drawing Cards
When the deck runs out, the discard pile is shuffled to make a new deck for that player.

VICTORY

The first player to hold five cards of one colour in front of them wins the game at once.
"""

MARKDOWN = """\
# Test game quick reference

A short summary of a game that only exists in this test.

## Setup {#setup}

- Each player takes twenty cards.
- The youngest player starts.

### Decks {#decks}

Shuffle your deck before the first round.

## Victory {#victory}

| Players | Cards to win |
|---|---|
| 2 | 5 |
| 3 | 4 |
"""


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _import(path: Path, *args: str, slug: str = "test-game-en", lang: str = "en") -> str:
    out = io.StringIO()
    call_command(
        "import_rulebook",
        str(path),
        "--slug",
        slug,
        "--lang",
        lang,
        "--game",
        "tmg",
        "--no-progress",
        *args,
        stdout=out,
    )
    return out.getvalue()


def _ids(slug: str = "test-game-en") -> dict[str, int]:
    return dict(Section.objects.filter(book__slug=slug).values_list("slug", "id"))


# --- a plain text book ---------------------------------------------------------------------


def test_import_rulebook_creates_the_book_and_its_sections(tmp_path):
    _import(_write(tmp_path, "book.txt", BOOK))
    assert list(
        Section.objects.filter(book__slug="test-game-en").values_list("slug", flat=True)
    ) == [
        "setup",
        "choosing-a-deck",
        "playing-a-round",
        "drawing-cards",
        "victory",
    ]


def test_import_rulebook_prints_the_report(tmp_path):
    output = _import(_write(tmp_path, "book.txt", BOOK))
    assert "sections: 5" in output
    assert "warnings: 0" in output


def test_import_rulebook_stores_the_report_on_the_book(tmp_path):
    _import(_write(tmp_path, "book.txt", BOOK))
    report = Rulebook.objects.get(slug="test-game-en").report
    assert (report["sections"], report["format"], report["coverage"]) == (5, "text", 1.0)


def test_import_rulebook_uses_the_title_option(tmp_path):
    _import(_write(tmp_path, "book.txt", BOOK), "--title", "The Test Game")
    assert Rulebook.objects.get(slug="test-game-en").title == "The Test Game"


def test_import_rulebook_twice_changes_nothing(tmp_path):
    path = _write(tmp_path, "book.txt", BOOK)
    _import(path)
    before = _ids()
    output = _import(path)
    assert "nothing changed" in output
    assert _ids() == before


def test_reimport_keeps_the_ids_of_sections_that_remain(tmp_path):
    path = _write(tmp_path, "book.txt", BOOK)
    _import(path)
    before = _ids()
    edited = BOOK.replace("five cards", "six cards").replace(
        "Drawing Cards\nWhen the deck runs out, the discard pile is shuffled to make a new deck "
        "for that player.\n",
        "",
    )
    path.write_text(
        edited + "\nSCORING\n\nCount one point for every card left in your hand "
        "when the game ends, then compare.\n",
        encoding="utf-8",
    )
    output = _import(path)
    after = _ids()
    assert {slug: after[slug] for slug in ("setup", "choosing-a-deck", "victory")} == {
        slug: before[slug] for slug in ("setup", "choosing-a-deck", "victory")
    }
    assert "drawing-cards" not in after and "scoring" in after
    assert "created 1, updated" in output and "deleted 1" in output


def test_reimport_updates_a_changed_body_in_place(tmp_path):
    path = _write(tmp_path, "book.txt", BOOK)
    _import(path)
    before = _ids()["victory"]
    path.write_text(BOOK.replace("five cards", "six cards"), encoding="utf-8")
    _import(path)
    victory = Section.objects.get(book__slug="test-game-en", slug="victory")
    assert (victory.id, "six cards" in victory.body) == (before, True)


def test_reimport_keeps_a_child_whose_chapter_disappeared(tmp_path):
    path = _write(tmp_path, "book.txt", BOOK)
    _import(path)
    child = _ids()["drawing-cards"]
    path.write_text(BOOK.replace("PLAYING A ROUND\n\n", ""), encoding="utf-8")
    _import(path)
    drawing = Section.objects.get(book__slug="test-game-en", slug="drawing-cards")
    assert drawing.id == child
    assert drawing.parent.slug == "setup"


# --- Markdown and PDF ------------------------------------------------------------------------


def test_import_rulebook_reads_markdown_headings_and_keys(tmp_path):
    _import(_write(tmp_path, "quick.md", MARKDOWN))
    book = Rulebook.objects.get(slug="test-game-en")
    decks = book.sections.get(slug="decks")
    assert book.title == "Test game quick reference"
    assert (decks.rule_key, decks.parent.slug, decks.depth) == ("decks", "setup", 1)


def test_import_rulebook_keeps_markdown_tables_as_rows(tmp_path):
    _import(_write(tmp_path, "quick.md", MARKDOWN))
    victory = Section.objects.get(book__slug="test-game-en", slug="victory")
    assert victory.body.splitlines()[0] == "| Players | Cards to win |"


def test_import_rulebook_reads_a_pdf_page_by_page(tmp_path):
    pdf = make_pdf(
        [
            ["SETUP", "", "Each player takes a deck of twenty cards and shuffles it first."],
            ["VICTORY", "", "The first player to hold five cards of one colour wins at once."],
        ]
    )
    path = tmp_path / "book.pdf"
    path.write_bytes(pdf)
    _import(path)
    book = Rulebook.objects.get(slug="test-game-en")
    pages = dict(book.sections.values_list("slug", "page_start"))
    assert pages == {"setup": 1, "victory": 2}
    assert (book.report["format"], book.page_count) == ("pdf", 2)


# --- bad input: one line, exit status 2, nothing stored ------------------------------------


def _fails(path: Path | str, *, slug="test-game-en", lang="en", game="tmg") -> CommandError:
    with pytest.raises(CommandError) as caught:
        call_command(
            "import_rulebook",
            str(path),
            "--slug",
            slug,
            "--lang",
            lang,
            "--game",
            game,
            "--no-progress",
            stdout=io.StringIO(),
        )
    assert caught.value.returncode == 2
    assert "\n" not in str(caught.value)
    return caught.value


def test_import_rulebook_fails_on_a_missing_file(tmp_path):
    assert "no such file" in str(_fails(tmp_path / "nope.txt"))
    assert not Rulebook.objects.exists()


def test_import_rulebook_fails_on_an_empty_file(tmp_path):
    assert "holds no text" in str(_fails(_write(tmp_path, "empty.txt", " \n\n")))
    assert not Rulebook.objects.exists()


def test_import_rulebook_fails_on_a_directory(tmp_path):
    assert "directory" in str(_fails(tmp_path))


def test_import_rulebook_fails_on_binary_data(tmp_path):
    path = tmp_path / "image.txt"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00")
    assert "binary" in str(_fails(path))


def test_import_rulebook_fails_on_text_that_is_not_utf8(tmp_path):
    path = tmp_path / "latin1.txt"
    path.write_bytes("Règles du jeu".encode("latin-1"))
    assert "UTF-8" in str(_fails(path))


def test_import_rulebook_fails_on_a_broken_pdf(tmp_path):
    path = tmp_path / "broken.pdf"
    path.write_bytes(b"%PDF-1.4\nthis is not a pdf at all")
    assert "not a readable PDF" in str(_fails(path))


def test_import_rulebook_fails_on_a_pdf_without_text(tmp_path):
    path = tmp_path / "blank.pdf"
    path.write_bytes(make_pdf([[]]))
    assert "no text layer" in str(_fails(path))


def test_import_rulebook_fails_on_an_unknown_language(tmp_path):
    assert "unknown --lang 'de'" in str(_fails(_write(tmp_path, "b.txt", BOOK), lang="de"))


def test_import_rulebook_fails_on_an_unknown_game(tmp_path):
    assert "unknown --game 'chess'" in str(_fails(_write(tmp_path, "b.txt", BOOK), game="chess"))


@pytest.mark.parametrize("slug", ["Bad Slug", "search", "", "x" * 81])
def test_import_rulebook_fails_on_a_bad_slug(tmp_path, slug):
    assert "--slug" in str(_fails(_write(tmp_path, "b.txt", BOOK), slug=slug))


def test_a_failed_reimport_leaves_the_stored_book_unchanged(tmp_path):
    _import(_write(tmp_path, "book.txt", BOOK))
    before = list(Section.objects.values_list("id", "slug", "body"))
    _fails(_write(tmp_path, "empty.txt", ""))
    assert list(Section.objects.values_list("id", "slug", "body")) == before


def test_import_rulebook_writes_in_one_transaction(tmp_path, monkeypatch):
    def broken_index(book):
        raise RuntimeError("index down")

    monkeypatch.setattr("rules.services._index", broken_index)
    with pytest.raises(RuntimeError):
        _import(_write(tmp_path, "book.txt", BOOK))
    assert not Rulebook.objects.exists() and not Section.objects.exists()


def test_import_rulebook_exits_with_status_2_and_one_line(tmp_path):
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'unused.sqlite3'}"}
    done = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "import_rulebook",
            "nope.txt",
            "--slug",
            "x",
            "--lang",
            "xx",
            "--game",
            "tmg",
        ],
        cwd=REPO_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0
    assert "unknown --lang 'xx'" in done.stderr


# --- progress bar --------------------------------------------------------------------------


def test_progress_bar_names_the_stages(capsys):
    with StageBar(enabled=True, total=len(STAGES)) as bar:
        bar.stage("read")
        bar.stage("clean")
    assert "clean" in capsys.readouterr().err


def test_no_progress_writes_nothing_to_stderr(tmp_path):
    err = io.StringIO()
    call_command(
        "import_rulebook",
        str(_write(tmp_path, "b.txt", BOOK)),
        "--slug",
        "test-game-en",
        "--lang",
        "en",
        "--game",
        "tmg",
        "--no-progress",
        stdout=io.StringIO(),
        stderr=err,
    )
    assert err.getvalue() == ""


# --- file names, quick references and demo data ----------------------------------------------


@pytest.mark.parametrize(
    ("name", "slug", "lang", "game"),
    [
        ("agot-board-game-2e.fr.txt", "agot-board-game-2e-fr", "fr", "agot"),
        ("asoiaf-tmg-rules-1.5.fr.txt", "asoiaf-tmg-rules-1-5-fr", "fr", "tmg"),
        ("asoiaf-tactics-wip.fr.txt", "asoiaf-tactics-wip-fr", "fr", "tactics"),
        ("hand-of-the-king.fr.txt", "hand-of-the-king-fr", "fr", "hotk"),
        ("agot-board-game-2e.fa.pdf", "agot-board-game-2e-fa", "fa", "agot"),
    ],
)
def test_options_from_filename_reads_slug_language_and_game(name, slug, lang, game):
    options = options_from_filename(name)
    assert (options.slug, options.lang, options.game) == (slug, lang, game)


@pytest.mark.parametrize("name", ["notes.txt", "monopoly.fr.txt", "agot-board-game.de.txt"])
def test_options_from_filename_skips_other_files(name):
    assert options_from_filename(name) is None


@pytest.mark.parametrize("game", ["tmg", "tactics", "agot", "hotk"])
def test_shipped_quick_references_exist_in_english_and_french(game):
    assert (QUICKREF_DIR / f"{game}.en.md").is_file()
    assert (QUICKREF_DIR / f"{game}.fr.md").is_file()


@pytest.mark.parametrize("game", ["tmg", "tactics", "agot", "hotk"])
def test_shipped_quick_references_share_their_section_keys(game):
    keys = {}
    for lang in ("en", "fr"):
        text = (QUICKREF_DIR / f"{game}.{lang}.md").read_text(encoding="utf-8")
        parsed = parse_rulebook(text, fmt="markdown", lang=lang, game=game)
        keys[lang] = [s.rule_key for s in parsed.sections if s.rule_key]
    assert keys["en"] == keys["fr"] and len(keys["en"]) >= 4


def test_quick_reference_options_mark_the_book_as_a_quick_reference():
    options = quick_reference_options(QUICKREF_DIR / "tmg.fr.md")
    assert (options.slug, options.edition, options.is_quick_reference) == (
        "tmg-quick-reference-fr",
        "tmg-quick-reference",
        True,
    )


def test_load_demo_data_imports_quick_references_and_the_rulebook_dir(tmp_path, settings):
    (tmp_path / "asoiaf-tmg-test.en.txt").write_text(BOOK, encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not a rulebook", encoding="utf-8")
    settings.CITADEL_RULEBOOK_DIR = str(tmp_path)
    err = io.StringIO()
    call_command("load_demo_data", "--no-admin", stdout=io.StringIO(), stderr=err)
    slugs = set(Rulebook.objects.values_list("slug", flat=True))
    assert {"tmg-quick-reference-en", "agot-quick-reference-fr", "asoiaf-tmg-test-en"} <= slugs
    assert Rulebook.objects.get(slug="tmg-quick-reference-fr").is_quick_reference
    assert "notes.txt: skipped" in err.getvalue()
