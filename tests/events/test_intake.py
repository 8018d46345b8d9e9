"""Cutting a bulk intake into one list per player (events.intake): text, CSV and JSON."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from events.intake import IntakeError, decode, detect_format, read_intake, split_text


def is_list_line(line: str) -> bool:
    return line.casefold() in {"stark", "combat units", "ncus"}


def test_text_lists_separated_by_dashes_are_cut_there():
    pieces = split_text("Stark\nSworn Swords\n---\nLannister\nGuardsmen\n")
    assert [p.text for p in pieces] == ["Stark\nSworn Swords", "Lannister\nGuardsmen"]


def test_text_heading_names_the_player_of_the_list_below():
    pieces = split_text(
        "# Alice\nStark\nSworn Swords\n## Bob\nLannister\n", is_list_line=is_list_line
    )
    assert [(p.player, p.text) for p in pieces] == [
        ("Alice", "Stark\nSworn Swords"),
        ("Bob", "Lannister"),
    ]


def test_text_heading_that_belongs_to_a_list_stays_in_it():
    pieces = split_text(
        "# Alice\n## Stark\n## Combat Units\nSworn Swords\n", is_list_line=is_list_line
    )
    assert [(p.player, p.text) for p in pieces] == [
        ("Alice", "## Stark\n## Combat Units\nSworn Swords")
    ]


def test_text_bold_and_framed_headings_name_players():
    pieces = split_text("**Alice**\nSworn Swords\n== Bob ==\nGuardsmen\n")
    assert [p.player for p in pieces] == ["Alice", "Bob"]


def test_text_player_line_in_french_names_the_player():
    [piece] = split_text("Joueuse : Brienne\nStark\n")
    assert piece.player == "Brienne"


def test_text_team_line_names_the_team_of_the_lists_after_it():
    pieces = split_text("Équipe : Loups\nPlayer: A\nx\nPlayer: B\ny\nTeam: Lions\nPlayer: C\nz\n")
    assert [(p.player, p.team) for p in pieces] == [("A", "Loups"), ("B", "Loups"), ("C", "Lions")]


def test_text_piece_remembers_the_line_it_starts_at():
    pieces = split_text("\n\nPlayer: A\nx\n---\n\ny\n")
    assert [p.origin for p in pieces] == [("line", 3), ("line", 7)]


def test_text_separators_with_nothing_between_make_no_empty_list():
    assert [p.text for p in split_text("---\n---\nx\n---\n   \n---\n")] == ["x"]


GOOGLE_FORM = (
    "Timestamp,Email Address,Player name,Army list\n"
    '2026/11/01,a@example.org,Alice,"Faction: Stark\nSworn Swords"\n'
    "2026/11/02,b@example.org,Bob,Lannister Guardsmen\n"
)


def test_csv_header_finds_the_player_and_list_columns_among_others():
    pieces = read_intake(GOOGLE_FORM).pieces
    assert [(p.player, p.text, p.origin) for p in pieces] == [
        ("Alice", "Faction: Stark\nSworn Swords", ("row", 2)),
        ("Bob", "Lannister Guardsmen", ("row", 3)),
    ]


def test_csv_with_semicolons_and_french_headers_is_read():
    pieces = read_intake("Joueur;Équipe;Liste\nAlice;Loups;Stark\n", format="csv").pieces
    assert [(p.player, p.team, p.text) for p in pieces] == [("Alice", "Loups", "Stark")]


def test_csv_of_two_columns_without_header_is_player_then_list():
    pieces = read_intake("Alice,Stark list\nBob,Lannister list\n", format="csv").pieces
    assert [(p.player, p.text) for p in pieces] == [
        ("Alice", "Stark list"),
        ("Bob", "Lannister list"),
    ]


def test_csv_without_a_list_column_is_refused_naming_the_header_row():
    with pytest.raises(IntakeError) as refused:
        read_intake("a,b,c\n1,2,3\n", format="csv")
    assert refused.value.message.in_language("en").startswith("row 1:")


def test_json_items_are_read_with_their_aliases():
    pieces = read_intake(
        '[{"player": "A", "text": "x"}, {"name": "B", "list": "y", "team": "T"}]'
    ).pieces
    assert [(p.player, p.text, p.team) for p in pieces] == [("A", "x", ""), ("B", "y", "T")]


def test_json_object_with_lists_is_read():
    assert len(read_intake('{"lists": [{"player": "A", "text": "x"}]}').pieces) == 1


def test_json_item_without_text_is_refused_naming_the_item():
    with pytest.raises(IntakeError) as refused:
        read_intake('[{"player": "A", "text": "x"}, {"player": "B"}]')
    assert refused.value.message.in_language("fr") == "élément 2 : « text » manque"


def test_json_item_with_a_number_for_text_is_refused():
    with pytest.raises(IntakeError):
        read_intake('[{"player": "A", "text": 0}]')


def test_json_nested_too_deep_is_refused_not_crashed():
    with pytest.raises(IntakeError):
        read_intake("[" * 100_000 + "]" * 100_000)


def test_format_is_told_by_the_file_name_first():
    assert detect_format("Alice,list", "lists.txt") == "text"
    assert detect_format("anything", "lists.csv") == "csv"


def test_format_is_told_by_the_content_without_a_name():
    assert detect_format('[{"player": "A"}]') == "json"
    assert detect_format("Player,List\nA,x") == "csv"
    assert detect_format("Faction: Stark\nSworn Swords, with Robb") == "text"


def test_upload_in_windows_1252_is_decoded():
    assert decode("Joueur : Hélène".encode("cp1252")) == "Joueur : Hélène"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list('ab #*-=:\n,;"[]{}éP')), max_size=200))
def test_read_intake_never_raises_anything_but_an_intake_error(text):
    try:
        pieces = read_intake(text).pieces
    except IntakeError:
        return
    assert all(isinstance(piece.text, str) for piece in pieces)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet="abc -#\n", max_size=30), max_size=8))
def test_split_text_keeps_every_list_line_and_invents_none(chunks):
    text = "\n---\n".join(chunks)
    kept = [line for piece in split_text(text) for line in piece.text.splitlines()]
    assert set(kept) <= set(text.splitlines())


def test_csv_with_a_cell_too_large_to_read_is_refused_naming_the_row():
    with pytest.raises(IntakeError) as refused:
        read_intake('Player,List\nA,"' + "x" * 200_000 + '"\n', format="csv")
    assert refused.value.message.in_language("en").startswith("row ")


def test_csv_with_nul_bytes_is_read():
    assert read_intake("Player,List\nA,St\0ark\n", format="csv").pieces[0].text == "Stark"
