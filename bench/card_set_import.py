"""Importing a 200-card citadel-json document into a player's card set. Prints numbers;
asserts nothing (the issue's bar: under 2 s).

    .venv/bin/python bench/card_set_import.py [--cards 200] [--repeat 3]

Uses a scratch SQLite database unless DATABASE_URL is set (then give it an empty
database: the baseline must create its cards, not find them). Loads the Tactics factions
(tactics-trident.json), then times, best of --repeat, in the same run:

- baseline: the same cards imported as shipped cards by the project's importer
  (`import_card_records`, what `manage.py import_cards --source citadel-json` runs);
- set, new: the document into an empty set (`import_set_document`: every row checked,
  then cards, characters and versions written in bulk, one transaction);
- set, again: the same document again (every card unchanged);
- set, edited: every cost changed (every card updated, a new version each).

The ratio is each set import's time over the baseline's.
"""

import argparse
import copy
import io
import time

from harness import ROOT, scratch_folder, start_django

TACTICS = ROOT / "cards" / "data" / "tactics-trident.json"
FACTIONS = ("baratheon", "targaryen", "neutral")


def document(cards: int, *, copper: int = 1) -> dict:
    rows = []
    for number in range(cards):
        faction = FACTIONS[number % len(FACTIONS)]
        if number % 10 == 0:
            rows.append({"id": f"item-{number}", "kind": "equipment", "faction": None,
                         "name": {"en": f"Bench Item {number}"},
                         "cost": {"gold": 0, "silver": 0, "copper": copper},
                         "carriers": ["hero", "champion"], "unique": number % 20 == 0})  # fmt: skip
            continue
        rows.append({
            "id": f"figure-{number}", "kind": "soldier", "faction": faction,
            "name": {"en": f"Bench Figure {number}", "fr": f"Figurine {number}"},
            "character": f"bench-figure-{number}",
            "cost": {"gold": 0, "silver": 0, "copper": copper},
            "attacks": [{"name": "Spear", "range": "melee", "ap": 0, "dice": 2, "to_hit": 5}],
            "abilities": [{"name": "Steady", "text": "Holds its ground."}],
        })  # fmt: skip
    return {"format": "citadel-cards/1", "game": "tactics", "cards": rows}


def best(times: list[float]) -> float:
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    scratch_folder()
    start_django()
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.db import connection

    from cards.card_sets.document import import_set_document
    from cards.card_sets.services import create_card_set
    from cards.importers.citadel_json import records_from_document
    from cards.models import Card
    from cards.services import import_card_records

    call_command("migrate", verbosity=0)
    call_command(
        "import_cards", "--source", "citadel-json", str(TACTICS), "--no-progress",
        stdout=io.StringIO(),
    )  # fmt: skip
    owner, _created = User.objects.get_or_create(username="bench")
    print(f"database: {connection.vendor}; {args.cards} cards; best of {args.repeat}")

    baseline, new, again, edited = [], [], [], []
    for run in range(args.repeat):
        shipped = copy.deepcopy(document(args.cards))
        for row in shipped["cards"]:
            row["id"] = f"run{run}-{row['id']}"
        started = time.perf_counter()
        import_card_records(records=records_from_document(shipped, file="bench"), source="bench")
        baseline.append(time.perf_counter() - started)

        card_set = create_card_set(owner=owner, name=f"Bench {run}")
        for times, doc in ((new, document(args.cards)), (again, document(args.cards)),
                           (edited, document(args.cards, copper=2))):  # fmt: skip
            started = time.perf_counter()
            import_set_document(card_set=card_set, document=doc)
            times.append(time.perf_counter() - started)
        assert Card.objects.filter(card_set=card_set).count() == args.cards

    base = best(baseline)
    print(f"{'what':<44} {'seconds':>8} {'ratio':>6}")
    print(f"{'baseline: shipped-card importer':<44} {base:>8.3f} {1.0:>6.2f}")
    for label, times in (
        ("set import, new cards", new),
        ("set import, same document again", again),
        ("set import, every cost edited", edited),
    ):
        print(f"{label:<44} {best(times):>8.3f} {best(times) / base:>6.2f}")
    verdict = "under" if best(new) < 2 else "OVER"
    print(f"{args.cards}-card set import: {best(new):.3f} s ({verdict} the 2 s bar)")


if __name__ == "__main__":
    main()
