"""What every benchmark does before it measures: a scratch database, Django, the cards.

The benchmarks are scripts (`.venv/bin/python bench/<name>.py`) that import this module
from beside them; importing it puts the project root on sys.path, so the project imports.
"""

import io
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

CARD_SNAPSHOT = ROOT / "cards" / "data" / "tmg-cards-snapshot.json"


def percentile(values: list[float], fraction: float) -> float:
    """The value `fraction` of the way up the sorted values (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def scratch_folder(prefix: str = "citadel-bench-") -> Path:
    """A new temporary folder, holding the benchmark's SQLite database unless DATABASE_URL
    already names one. Call before start_django: settings read the variable once."""
    scratch = Path(tempfile.mkdtemp(prefix=prefix))
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{scratch}/bench.sqlite3")
    return scratch


def start_django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "armybuilder.settings")
    import django

    django.setup()


def import_card_snapshot(*, quiet: bool = True) -> None:
    """The shipped TMG card snapshot, imported as `manage.py import_cards` would."""
    from django.core.management import call_command

    call_command(
        "import_cards",
        "--source",
        "citadel-json",
        str(CARD_SNAPSHOT),
        "--no-progress",
        **({"stdout": io.StringIO()} if quiet else {}),
    )


def migrate_with_cards() -> None:
    """The scratch database's tables, then the shipped cards in them."""
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    import_card_snapshot()
