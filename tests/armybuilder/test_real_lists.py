"""Real lists built from the shipped card snapshot (the whole TMG pool, all factions).

Every list in real_lists/ must be legal; each variant below breaks exactly one rule of a
real list and must be flagged with exactly the expected code. The snapshot is the
repository's own file, so these tests need nothing from ../shared.
"""

from pathlib import Path

import pytest

from armybuilder.checking import check_tmg_text
from armybuilder.serializers import result_json

LISTS_DIR = Path(__file__).parent / "real_lists"
LIST_NAMES = sorted(path.stem for path in LISTS_DIR.glob("*.txt"))

# The mark makes pytest-django create the test database even when this module runs alone.
pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def pool(snapshot_pool):
    return snapshot_pool


def real_list(name: str) -> str:
    return (LISTS_DIR / f"{name}.txt").read_text(encoding="utf-8")


def test_real_lists_cover_every_faction():
    factions = {name.rsplit("-", 1)[0] for name in LIST_NAMES}
    assert len(LIST_NAMES) >= 20
    assert factions == {
        "baratheon",
        "bolton",
        "brotherhood",
        "freefolk",
        "greyjoy",
        "lannister",
        "martell",
        "neutral",
        "nightswatch",
        "stark",
        "targaryen",
    }


@pytest.mark.parametrize("name", LIST_NAMES)
def test_real_list_is_legal(pool, name):
    result = result_json(check_tmg_text(real_list(name), pool=pool))
    assert result["findings"] == []
    assert result["legal"] and result["points"]["spent"] <= result["points"]["limit"]


@pytest.mark.parametrize("name", LIST_NAMES)
def test_real_list_round_trips_through_the_canonical_text(pool, name):
    first = result_json(check_tmg_text(real_list(name), pool=pool))
    again = result_json(check_tmg_text(first["text"], pool=pool))
    assert [e["id"] for e in again["entries"]] == [e["id"] for e in first["entries"]]
    assert again["legal"]


def _replace(old: str, new: str):
    def edit(text: str) -> str:
        assert old in text, f"variant expects {old!r} in the list"
        return text.replace(old, new, 1)

    return edit


def _chain(*edits):
    def edit(text: str) -> str:
        for step in edits:
            text = step(text)
        return text

    return edit


VARIANTS = [
    ("stark-40", "POINTS_OVER_LIMIT", _replace("Points: 40", "Points: 39")),
    ("stark-40", "COMMANDER_MISSING", _replace("  • Robb Stark - The Wolf Lord (C)\n", "")),
    (
        "stark-40",
        "COMMANDER_MULTIPLE",
        _replace("  • Sworn Sword Captain (1)", "  • Eddard Stark - Lord of Winterfell (C)"),
    ),
    (
        "stark-40",
        "ATTACHMENT_LIMIT",
        _chain(
            _replace("  • Umber Champion (1)\n", ""),
            _replace("(C)\n", "(C)\n  • Umber Champion (1)\n"),
        ),
    ),
    (
        "stark-40",
        "ATTACHMENT_TYPE_MISMATCH",
        _chain(
            _replace("  • Umber Champion (1)\n", ""),
            _replace(
                "• Stark Outriders (6)\n  • Winterfell Guardian (1)",
                "• Stark Outriders (6)\n  • Umber Champion (1)",
            ),
        ),
    ),
    (
        "stark-40",
        "ATTACHMENT_ON_SOLO",
        _replace("• Crannogman Trackers (5)", "• Grey Wind (3)"),
    ),
    (
        "stark-40",
        "ATTACHMENT_NO_HOST",
        _chain(
            _replace("Points: 40", "Points: 41"),
            _replace("Non-Combat Units:\n", "Non-Combat Units:\n• Sworn Sword Captain (1)\n"),
        ),
    ),
    (
        "stark-40",
        "CHARACTER_DUPLICATE",
        _chain(
            _replace("Points: 40", "Points: 41"),
            _replace("  • Sworn Sword Captain (1)", "  • Robb Stark - The Young Wolf (2)"),
        ),
    ),
    (
        "stark-40",
        "FACTION_MISMATCH",
        _replace("• House Karstark Spearmen (5)", "• Lannister Halberdiers (5)"),
    ),
    (
        "stark-40",
        "NEUTRAL_CAP_EXCEEDED",
        _chain(
            _replace(
                "• House Umber Ravagers (7)\n  • Winterfell Guardian (1)\n"
                "• Stark Outriders (6)\n  • Winterfell Guardian (1)",
                "• Hedge Knights (7)\n  • Glory Seeker (1)\n"
                "• Stormcrow Archers (6)\n  • Stormcrow Lieutenant (1)",
            ),
            _replace(
                "• Crannogman Trackers (5)\n  • Sworn Sword Captain (1)",
                "• Stormcrow Mercenaries (5)\n  • Vargo Hoat - The Crippler (2)",
            ),
        ),
    ),
    (
        "stark-40",
        "REQUIREMENT_UNMET",
        _chain(
            _replace("Points: 40", "Points: 43"),
            _replace(
                "  • Robb Stark - The Wolf Lord (C)", "  • Eddard Stark - Lord of Winterfell (C)"
            ),
            _replace("Non-Combat Units:", "• Grey Wind (3)\nNon-Combat Units:"),
        ),
    ),
    (
        "stark-40",
        "CARD_UNKNOWN",
        _replace(
            "• Arya Stark - The Wolf Girl (4)", "• Aria Stork the Wolf Grrrl Extraordinaire (4)"
        ),
    ),
    ("freefolk-40", "NEUTRALS_FORBIDDEN", _replace("• Harma's Vanguard (5)", "• Stone Crows (5)")),
    (
        "baratheon-40",
        "REQUIREMENT_CONFLICT",
        _replace("  • Red Priestess (1)", "  • Pikemen Captain (1)"),
    ),
    (
        "baratheon-40",
        "COPY_LIMIT",
        _replace(
            "• Stag Knights (7)\n• Baratheon Sentinels (5)",
            "• Dragonstone Noble (4)\n• Dragonstone Noble (4)\n• Dragonstone Noble (4)",
        ),
    ),
]


@pytest.mark.parametrize(
    ("name", "code", "edit"), VARIANTS, ids=[f"{n}-{c}" for n, c, _ in VARIANTS]
)
def test_real_list_variant_breaks_exactly_one_rule(pool, name, code, edit):
    result = result_json(check_tmg_text(edit(real_list(name)), pool=pool))
    errors = [f["code"] for f in result["findings"] if f["severity"] == "error"]
    assert errors == [code]
    assert result["legal"] is False
