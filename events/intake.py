"""What an organiser brings to a bulk intake, cut into one text per player.

Organisers collect lists by e-mail, forms and chat, then paste or upload them all at once.
Three shapes are read (`read_intake` tells them apart when the caller does not say):

- **text**: lists one after the other, separated by
  - a line of three or more `-`, `=`, `_`, `*` or `~` (`---`), or
  - a heading line that names the player: `Player: Alice` / `Joueur : Alice` (also
    `Participant`, `Coach`), or a heading — markdown `# Alice`, `== Alice ==`, a line wholly
    in bold — whose text is not part of a list (not a faction, a section, a points line…;
    the caller's `is_list_line` decides with the game's reader).
  `Team: Wolves` / `Équipe : Loups` names the team of the lists that follow it.
  A piece that still holds two lists (no separator between them) is split later, by the
  service, where the game's reader sees a second list begin.
- **CSV** (a spreadsheet or form export): a header row naming the list column (`list`,
  `liste`, `army`, `text`…) and, when there is one, the player and team columns; or exactly
  two columns, player then list, with no header. Cells may hold line breaks (quoted).
- **JSON**: `[{"player", "text", "team"?}, …]` or `{"lists": [...]}`, as the API takes it.

Every piece says where it came from (`origin`: the line, row or item), so a report can
point the organiser back to it. Malformed input raises `IntakeError` naming the row or item.

Pure: importable without Django.
"""

from __future__ import annotations

import csv
import io
import json
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from armybuilder.listtext.lines import split_lines
from common.i18n import Message, _

FORMATS = ("text", "csv", "json")

_SEPARATOR = re.compile(r"^\s*(?:[-=_*~]\s*){3,}$")
_PLAYER = re.compile(
    r"^\s*(?:player|joueur|joueuse|participant|participante|coach)\s*(?:name|nom)?\s*[:=-]\s*(?P<name>\S.*?)\s*$",
    re.IGNORECASE,
)
_TEAM = re.compile(r"^\s*(?:team|[ée]quipe)\s*[:=-]\s*(?P<name>\S.*?)\s*$", re.IGNORECASE)
_SETEXT = re.compile(r"^\s*={2,}\s*(?P<name>[^=].*?)\s*={2,}\s*$")
_MAX_NAME = 120

# CSV header names, folded (no accents, no case, no spaces or punctuation).
_PLAYER_COLUMNS = frozenset(
    {
        "player",
        "playername",
        "name",
        "joueur",
        "joueuse",
        "nom",
        "nomdujoueur",
        "pseudo",
        "nickname",
        "participant",
        "coach",
        "username",
    }
)
_LIST_COLUMNS = frozenset(
    {
        "list",
        "liste",
        "armylist",
        "army",
        "armee",
        "listedarmee",
        "text",
        "texte",
        "warband",
        "bande",
        "roster",
        "sharecode",
        "code",
    }
)
_TEAM_COLUMNS = frozenset({"team", "equipe", "teamname", "nomdelequipe"})


class IntakeError(ValueError):
    """The input cannot be read as lists at all; `message` says where and why."""

    def __init__(self, message: Message):
        super().__init__(message.in_language("en"))
        self.message = message


_ORIGINS = {
    "line": lambda n: _("line {number}", number=n),
    "row": lambda n: _("row {number}", number=n),
    "item": lambda n: _("item {number}", number=n),
}


@dataclass(frozen=True)
class SubmittedText:
    """One player's list as the organiser brought it, and where it starts in the input
    (`origin`: ("line", 12), ("row", 3), ("item", 2))."""

    player: str  # "" when the input names no player
    text: str
    team: str = ""
    origin: tuple[str, int] = ("item", 0)

    def where(self, lang: str | None) -> str:
        kind, number = self.origin
        return _ORIGINS[kind](number).in_language(lang)


@dataclass(frozen=True)
class IntakeFile:
    format: str
    pieces: tuple[SubmittedText, ...]


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if c.isalnum())


def _name(text: str) -> str:
    return " ".join(text.split())[:_MAX_NAME]


# --- text -------------------------------------------------------------------------------------


def _heading(text: str) -> str | None:
    """The text of a line that is a heading by its look: `# Alice`, `== Alice ==`, `**Alice**`."""
    setext = _SETEXT.match(text)
    if setext:
        return setext.group("name")
    line = next(iter(split_lines(text)), None)
    return line.body if line is not None and line.heading and line.body else None


def split_text(
    text: str, *, is_list_line: Callable[[str], bool] = lambda line: False
) -> list[SubmittedText]:
    """Lists separated by `---` lines or by headings naming their player (module docstring)."""
    pieces: list[SubmittedText] = []
    lines: list[str] = []
    player, team, start = "", "", 1

    def has_content() -> bool:
        return any(line.strip() for line in lines)

    def close() -> None:
        nonlocal lines, player
        if has_content():
            pieces.append(
                SubmittedText(
                    player=_name(player),
                    text="\n".join(lines).strip("\n"),
                    team=_name(team),
                    origin=("line", start),
                )
            )
        lines, player = [], ""

    for number, raw in enumerate(text.splitlines(), start=1):
        if _SEPARATOR.match(raw):
            close()
            start = number + 1
            continue
        team_line = _TEAM.match(raw)
        if team_line:
            if has_content():
                close()
                start = number
            team = team_line.group("name")
            continue
        named = _PLAYER.match(raw)
        heading = None if named else _heading(raw)
        if heading and is_list_line(heading):
            heading = None
        if named or (heading and (has_content() or not player)):
            # `Player: X` always names the next list; a heading does unless the list it
            # would name has a player already and nothing else yet (then it is its title).
            close()
            player, start = (named.group("name") if named else heading or ""), number
            continue
        if not has_content() and not raw.strip():
            if not player:
                start = number + 1
            continue
        lines.append(raw)
    close()
    return pieces


# --- CSV --------------------------------------------------------------------------------------


def _sniff(text: str) -> csv.Dialect | type[csv.Dialect]:
    sample = text[:8192]
    try:
        return csv.Sniffer().sniff(sample, delimiters=",;\t|")
    except csv.Error:
        return csv.excel


def _columns(header: Sequence[str]) -> tuple[int | None, int | None, int | None]:
    folded = [_fold(cell) for cell in header]

    def find(names: frozenset[str]) -> int | None:
        return next((i for i, name in enumerate(folded) if name in names), None)

    return find(_PLAYER_COLUMNS), find(_LIST_COLUMNS), find(_TEAM_COLUMNS)


def _rows(text: str) -> list[list[str]]:
    reader = csv.reader(io.StringIO(text.replace("\0", "")), _sniff(text))
    rows = []
    try:
        for row in reader:
            if any(cell.strip() for cell in row):
                rows.append(row)
    except csv.Error as exc:  # a cell past the csv module's size limit, a stray quote…
        raise IntakeError(
            _("row {row}: the CSV cannot be read ({error})", row=reader.line_num, error=str(exc))
        ) from None
    return rows


def read_csv(text: str) -> list[SubmittedText]:
    rows = _rows(text)
    if not rows:
        return []
    player_col, list_col, team_col = _columns(rows[0])
    first = 2  # the row number of the first list (1-based, the header is row 1)
    if list_col is None:
        if len(rows[0]) != 2:
            raise IntakeError(
                _(
                    "row 1: the CSV needs a header row naming the list column (list, liste, "
                    "army, text…) and the player column, or exactly two columns: player, list"
                )
            )
        player_col, list_col, team_col, first = 0, 1, None, 1
        rows = [[], *rows]  # no header: every row is a list
    pieces = []
    for number, row in enumerate(rows[1:], start=first):
        if list_col >= len(row):
            raise IntakeError(_("row {row}: there is no list column in this row", row=number))
        pieces.append(
            SubmittedText(
                player=_name(row[player_col])
                if player_col is not None and player_col < len(row)
                else "",
                text=row[list_col].strip("\n"),
                team=_name(row[team_col]) if team_col is not None and team_col < len(row) else "",
                origin=("row", number),
            )
        )
    return pieces


# --- JSON -------------------------------------------------------------------------------------


def _string(item: dict[str, Any], key: str, number: int, *, required: bool = False) -> str:
    value = item.get(key)
    if value is None and not required:
        return ""
    if not isinstance(value, str):
        raise IntakeError(
            _("item {item}: “{field}” must be text", item=number, field=key)
            if value is not None
            else _("item {item}: “{field}” is missing", item=number, field=key)
        )
    return value


def read_items(items: Any) -> list[SubmittedText]:
    """`[{"player", "text", "team"?}, …]` (or `{"lists": [...]}`); `list` may stand for `text`
    and `name` for `player`."""
    if isinstance(items, dict) and "lists" in items:
        items = items["lists"]
    if not isinstance(items, list):
        raise IntakeError(_("the JSON must be a list of lists, or an object with “lists”"))
    pieces = []
    for number, item in enumerate(items, start=1):
        if not isinstance(item, dict):
            raise IntakeError(
                _("item {item}: each list is an object with player and text", item=number)
            )
        text_key = "text" if "text" in item or "list" not in item else "list"
        player_key = "player" if "player" in item or "name" not in item else "name"
        pieces.append(
            SubmittedText(
                player=_name(_string(item, player_key, number)),
                text=_string(item, text_key, number, required=True),
                team=_name(_string(item, "team", number)),
                origin=("item", number),
            )
        )
    return pieces


def read_json(text: str) -> list[SubmittedText]:
    try:
        document = json.loads(text)
    except RecursionError:
        raise IntakeError(_("the JSON is nested too deeply")) from None
    except ValueError as exc:
        raise IntakeError(_("the JSON cannot be read: {error}", error=str(exc))) from None
    return read_items(document)


# --- any of them ------------------------------------------------------------------------------


def detect_format(content: str, filename: str = "") -> str:
    suffix = filename.rsplit(".", 1)[-1].casefold() if "." in filename else ""
    if suffix in ("json", "csv"):
        return suffix
    stripped = content.lstrip()
    if stripped[:1] in ("[", "{"):
        return "json"
    if suffix in ("tsv",):
        return "csv"
    first = stripped.split("\n", 1)[0]
    if suffix not in ("txt", "md") and re.search(r"[,;\t|]", first):
        list_col = _columns(next(csv.reader([first], _sniff(content)), []))[1]
        if list_col is not None:
            return "csv"
    return "text"


def decode(content: bytes) -> str:
    """An uploaded file's text: UTF-8 (with or without a BOM), else Windows-1252, the two
    encodings spreadsheets and mail clients write."""
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return content.decode(encoding)
        except UnicodeDecodeError:
            continue
    return content.decode("latin-1")


def read_intake(
    content: str | bytes,
    *,
    filename: str = "",
    format: str | None = None,
    is_list_line: Callable[[str], bool] = lambda line: False,
) -> IntakeFile:
    """Cut `content` into one `SubmittedText` per list (module docstring)."""
    text = decode(content) if isinstance(content, bytes) else content
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    chosen = format or detect_format(text, filename)
    if chosen not in FORMATS:
        raise IntakeError(_("unknown format {format}: use text, csv or json", format=chosen))
    if chosen == "json":
        pieces = read_json(text)
    elif chosen == "csv":
        pieces = read_csv(text)
    else:
        pieces = split_text(text, is_list_line=is_list_line)
    return IntakeFile(format=chosen, pieces=tuple(pieces))


def joined(pieces: Iterable[SubmittedText]) -> str:
    """The pieces written back as one text file (the format `split_text` reads)."""
    return "\n---\n".join((f"Player: {p.player}\n" if p.player else "") + p.text for p in pieces)
