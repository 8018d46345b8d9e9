"""Every parser of outside input, fed by hypothesis: only its own documented error may come
out, never another exception (issue 16). One test per parser:

    list text           armybuilder.checking.check_list_text (read, resolve, validate)
    share codes         armybuilder.listtext.warcouncil.decode_share_code, and through
                        check_list_text
    card query language cards.query.search_cards, run against the database
    rulebook cleaner    rules.importing.parse.parse_rulebook (cleaning and splitting)
    citadel-json        cards.importers.citadel_json.reader (documents and files)
    intake files        issue 13 (events) adds its reader here: one more test below

Examples per test: CITADEL_PARSER_EXAMPLES (default 200, for CI); the proof run is
`CITADEL_PARSER_EXAMPLES=10000 .venv/bin/python -m pytest tests/reliability/test_parsers_fuzz.py
--hypothesis-show-statistics` (docs/reliability.md has its numbers).
"""

from __future__ import annotations

import base64
import contextlib
import io
import json
import os
import string

import pytest
from django.core.management import call_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from armybuilder.checking import CheckError, CheckOptions, check_list_text
from armybuilder.listtext.warcouncil import ShareCodeError, decode_share_code
from cards.importers.citadel_json.reader import read_citadel_json, records_from_document
from cards.importers.records import CardImportError
from cards.models import Card
from cards.query import QuerySyntaxError, search_cards
from rules.importing.parse import parse_rulebook
from rules.importing.reading import RulebookImportError

pytestmark = pytest.mark.reliability

EXAMPLES = int(os.environ.get("CITADEL_PARSER_EXAMPLES", "200"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.function_scoped_fixture,
        HealthCheck.data_too_large,
    ],
    database=None,  # the same examples on every machine: no example database
    derandomize=EXAMPLES < 1000,  # CI: a fixed sample; the proof run: a fresh one
)

# --- building blocks: the pieces real input is made of, mixed with arbitrary text ----------

NAMES = [
    "Stark Sworn Swords",
    "Robb Stark",
    "Greatjon Umber",
    "Lannister Guardsmen",
    "Tywin Lannister",
    "Épées Liges Stark",
    "Jaime",
    "Sworn Swords",
    "Umber Berserkers",
    "Catelyn",
]
LIST_PIECES = st.one_of(
    st.sampled_from(NAMES),
    st.sampled_from(
        [
            "Faction: Stark",
            "Faction: Lannister (40 pts)",
            "Game: Tactics",
            "Commander:",
            "with",
            "avec",
            "(",
            ")",
            "-",
            " x2",
            "3x ",
            "[5]",
            "**",
            "_",
            "```",
            "• ",
            "Points: 40/40",
            "NCUs:",
            "Units:",
            "Tactics cards:",
            "\t",
            "—",
            "Gold 2 Silver 1",
        ]
    ),
    st.integers(-5, 200).map(str),
    st.text(max_size=12),
)
LIST_TEXT = st.one_of(
    st.text(max_size=400),
    st.lists(st.lists(LIST_PIECES, max_size=8).map(" ".join), max_size=30).map("\n".join),
)
QUERY_PIECES = st.one_of(
    st.sampled_from(
        [
            "faction:",
            "kind:",
            "cost",
            "speed",
            "<=",
            ">=",
            "<",
            ">",
            "=",
            ":",
            "-",
            "or",
            "and",
            "not",
            "(",
            ")",
            '"',
            "sort:",
            "dir:",
            "game:",
            "commander:",
            "ability:",
            "character:",
            "version:",
            "stark",
            "yes",
            "desc",
            "tactics",
            "99999999999999999999",
            "-1",
            "1.5",
        ]
    ),
    st.text(max_size=8),
)
QUERY = st.one_of(st.text(max_size=120), st.lists(QUERY_PIECES, max_size=14).map(" ".join))


@pytest.fixture
def card_pool(db):
    """The shipped card snapshot and Tactics cards, in this test's transaction."""
    call_command("load_demo_data", stdout=io.StringIO())
    assert Card.objects.exists()


# --- list text -----------------------------------------------------------------------------


@FUZZ
@given(text=LIST_TEXT, game=st.sampled_from([None, "tmg", "tactics"]))
def test_list_text_reader_only_reports_findings(card_pool, text, game):
    try:
        result = check_list_text(text, CheckOptions(game=game))
    except CheckError:
        return  # a usage error the API turns into a 400
    assert result.game in ("tmg", "tactics")


# --- share codes ---------------------------------------------------------------------------

SHARE_CODES = st.one_of(
    st.text(alphabet=string.ascii_letters + string.digits + "+/=_-", min_size=8, max_size=300),
    st.binary(min_size=1, max_size=200).map(lambda data: base64.b64encode(data).decode()),
    st.binary(min_size=1, max_size=200).map(lambda data: base64.urlsafe_b64encode(data).decode()),
)


@FUZZ
@given(code=SHARE_CODES)
def test_share_code_decoder_only_raises_share_code_error(code):
    with contextlib.suppress(ShareCodeError):
        decode_share_code(code)


@FUZZ
@given(code=SHARE_CODES)
def test_share_code_through_the_checker_only_reports_findings(card_pool, code):
    check_list_text(code, CheckOptions(game="tmg"))


# --- card query language -------------------------------------------------------------------


@FUZZ
@given(q=QUERY)
def test_card_query_language_only_raises_syntax_errors(card_pool, q):
    try:
        list(search_cards(q)[:3])
    except QuerySyntaxError as exc:
        assert exc.message_in("en") and exc.message_in("fr")


# --- rulebook cleaner ----------------------------------------------------------------------

BOOK_LINES = st.one_of(
    st.sampled_from(
        [
            "# Movement",
            "## Charge {#charge}",
            "MOUVEMENT",
            "M O U V E M E N T",
            "12",
            "- 12 -",
            "[[page 3]]",
            "\f",
            "Le Trône de Fer",
            "mouve-",
            "ment des unités",
            "l' unité",
            "« Corbeau Messager »",
            "کلاغ پیام رسان",
            "**bold** and _italic_",
            "Exemple : une unité charge",
            "",
            "www.example.org/preview",
        ]
    ),
    st.text(max_size=60),
)
BOOK_TEXT = st.one_of(st.text(max_size=600), st.lists(BOOK_LINES, max_size=60).map("\n".join))


@FUZZ
@given(
    text=BOOK_TEXT,
    fmt=st.sampled_from(["text", "markdown"]),
    lang=st.sampled_from(["en", "fr", "fa"]),
    game=st.sampled_from(["tmg", "tactics", "agot", "hotk"]),
)
def test_rulebook_cleaner_only_raises_import_errors(text, fmt, lang, game):
    with contextlib.suppress(RulebookImportError):
        parse_rulebook(text, fmt=fmt, lang=lang, game=game)


# --- citadel-json --------------------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.floats() | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=12), children, max_size=5)
    ),
    max_leaves=30,
)
CARD_KEYS = st.sampled_from(
    [
        "id",
        "game",
        "kind",
        "faction",
        "name",
        "name_en",
        "name_fr",
        "points",
        "cost",
        "unit_type",
        "requirements",
        "abilities",
        "characters",
        "version",
        "commander",
        "tray",
        "speed",
    ]
)
NEAR_DOCUMENTS = st.fixed_dictionaries(
    {"format": st.sampled_from(["citadel-cards/1", "citadel-cards/2", 1])},
    optional={
        "game": st.sampled_from(["tmg", "tactics", "chess", None]),
        "factions": st.lists(st.dictionaries(CARD_KEYS, JSON_VALUES, max_size=6), max_size=4),
        "cards": st.lists(st.dictionaries(CARD_KEYS, JSON_VALUES, max_size=10), max_size=6),
        "abilities": st.lists(st.dictionaries(CARD_KEYS, JSON_VALUES, max_size=4), max_size=3),
        "scenarios": st.lists(JSON_VALUES, max_size=3),
    },
)


@FUZZ
@given(document=st.one_of(JSON_VALUES, NEAR_DOCUMENTS))
def test_citadel_json_documents_only_raise_import_errors(document):
    with contextlib.suppress(CardImportError):
        records_from_document(document, file="fuzz.json")


@FUZZ
@given(raw=st.one_of(st.binary(max_size=300), NEAR_DOCUMENTS.map(lambda d: json.dumps(d).encode())))
def test_citadel_json_files_only_raise_import_errors(tmp_path_factory, raw):
    path = tmp_path_factory.mktemp("citadel-json") / "cards.json"
    path.write_bytes(raw)
    with contextlib.suppress(CardImportError):
        read_citadel_json(path)


def test_citadel_json_file_nested_too_deeply_is_an_import_error(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    with pytest.raises(CardImportError, match="nested too deeply"):
        read_citadel_json(path)


# --- intake files (issue 13) ---------------------------------------------------------------
# The events app's intake reader (many lists in one file: text, CSV or JSON): generated files,
# only its own error type may come out, and every list it cuts holds only lines of the input.

INTAKE_PIECES = st.one_of(
    LIST_PIECES,
    st.sampled_from(
        [
            "---",
            "===",
            "Player: Alice",
            "Joueur : Bob",
            "Team: Wolves",
            "# Carol",
            "**Dan**",
            "== Erin ==",
            "player,list,team",
            'Alice,"Faction: Stark',
            '"',
            ";",
            ",",
            "[",
            "{",
            '{"lists": [',
            '{"player": "A", "text": ',
            "]}",
            "\x00",
        ]
    ),
)
INTAKE_TEXT = st.one_of(
    st.text(max_size=400),
    st.lists(st.lists(INTAKE_PIECES, max_size=6).map(" ".join), max_size=40).map("\n".join),
)


@FUZZ
@given(text=INTAKE_TEXT, filename=st.sampled_from(["", "lists.txt", "lists.csv", "lists.json"]))
def test_intake_reader_raises_only_intake_errors(text, filename):
    from events.intake import IntakeError, read_intake

    try:
        read = read_intake(text, filename=filename, is_list_line=lambda line: line == "Stark")
    except IntakeError:
        return
    assert read.format in ("text", "csv", "json")
    if read.format == "text":
        given_lines = set(text.replace("\r\n", "\n").replace("\r", "\n").splitlines())
        assert {line for piece in read.pieces for line in piece.text.splitlines()} <= given_lines


@FUZZ
@given(raw=st.binary(max_size=300))
def test_intake_reader_takes_any_uploaded_bytes(raw):
    from events.intake import IntakeError, read_intake

    with contextlib.suppress(IntakeError):
        read_intake(raw, filename="upload.bin")


@pytest.mark.parametrize(
    "document",
    [
        {"format": "citadel-cards/1", "game": ["tmg"], "cards": []},
        {"format": "citadel-cards/1", "cards": [{"id": 0, "game": [None]}]},
        {
            "format": "citadel-cards/1",
            "game": "tmg",
            "cards": [{"id": "1", "kind": "unit", "name": "A", "requirements": [{"type": []}]}],
        },
    ],
)
def test_citadel_json_value_of_the_wrong_type_is_an_import_error(document):
    """Found by the 10,000-example run: a list where a game or a type is expected."""
    with pytest.raises(CardImportError):
        records_from_document(document, file="cards.json")
