"""Lists written as players really write them, read with the shipped snapshot.

realformat/NNN-faction.txt are 40 lists made by bench/realformat.py (seed 2025, the first
40 of the reading benchmark) from the snapshot's cards, each written with a random mix of
the conventions of list-conventions.md; NNN-faction.json beside each is the army the
generator built (never a reader's output): its faction, card ids, roles, hosts (index of
the unit in `entries`) and commander flags, and the same army as a War Council share code.
Regenerate with `.venv/bin/python bench/realformat.py --write tests/armybuilder/realformat`.

Every list must read exactly as it was built (cards, roles, hosts, commanders, faction);
the share code, which skips reading, must give the same army.
The snapshot is the repository's own file, so these tests need nothing from ../shared.
"""

import json
from pathlib import Path

import pytest

from armybuilder.checking import check_tmg_text

CORPUS_DIR = Path(__file__).parent / "realformat"
LIST_NAMES = sorted(path.stem for path in CORPUS_DIR.glob("*.txt"))

# The mark makes pytest-django create the test database even when this module runs alone.
pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def pool(snapshot_pool):
    return snapshot_pool


def expectation(name: str) -> dict:
    return json.loads((CORPUS_DIR / f"{name}.json").read_text(encoding="utf-8"))


def army_of_expected(entries: list[dict]) -> dict:
    """The expected entries as the army they describe, whatever the order of reading."""
    rows = [{**entry, "key": position} for position, entry in enumerate(entries)]
    return _army(rows)


def army_of_result(result) -> dict:
    rows = [
        {
            "key": entry.ref,
            "id": entry.card.id,
            "role": entry.role,
            "host": entry.host,
            "commander": bool(entry.commander),
        }
        for entry in result.entries
    ]
    return _army(rows)


def _army(rows: list[dict]) -> dict:
    """Each unit with its attachments, the NCUs, and attachments read without a unit
    (card ids and commander flags), sorted."""
    carried: dict = {}
    loose = []
    for row in rows:
        if row["role"] != "attachment":
            continue
        if row["host"] is None:
            loose.append([row["id"], row["commander"]])
        else:
            carried.setdefault(row["host"], []).append([row["id"], row["commander"]])
    units = [
        [row["id"], row["commander"], sorted(carried.get(row["key"], []))]
        for row in rows
        if row["role"] == "unit"
    ]
    ncus = [[row["id"], row["commander"]] for row in rows if row["role"] == "ncu"]
    return {"units": sorted(units), "ncus": sorted(ncus), "unattached": sorted(loose)}


def test_realformat_corpus_has_forty_lists_with_expectations():
    assert len(LIST_NAMES) == 40
    assert all((CORPUS_DIR / f"{name}.json").exists() for name in LIST_NAMES)


@pytest.mark.parametrize("name", LIST_NAMES)
def test_realformat_share_code_gives_the_expected_army(pool, name):
    expected = expectation(name)
    result = check_tmg_text(expected["share_code"], pool=pool)
    assert result.faction == expected["faction"]
    assert army_of_result(result) == army_of_expected(expected["entries"])


@pytest.mark.parametrize("name", LIST_NAMES)
def test_realformat_list_is_read_as_built(pool, name):
    expected = expectation(name)
    text = (CORPUS_DIR / f"{name}.txt").read_text(encoding="utf-8")
    result = check_tmg_text(text, pool=pool)
    assert result.faction == expected["faction"]
    assert army_of_result(result) == army_of_expected(expected["entries"])
