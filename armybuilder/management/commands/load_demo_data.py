"""Load everything the demo needs without ../shared: the shipped card data and scenarios,
the example Tactics set (made-up costs, clearly labelled), the rules quick references, and
the rulebooks in CITADEL_RULEBOOK_DIR (if set)."""

from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import BaseCommand, call_command

SHIPPED_CARD_FILES = (
    "tmg-cards-snapshot.json",
    "tmg-game-modes.json",
    "tactics-trident.json",
)
DEMO_ADMIN = ("admin", "citadel-demo")


class Command(BaseCommand):
    help = "Load the shipped card snapshot, Tactics cards and scenarios (idempotent)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--no-admin",
            action="store_true",
            help="Do not create the demo superuser (created only when DEBUG is on).",
        )

    def handle(self, *args, no_admin: bool = False, **options):
        data_dir = Path(settings.BASE_DIR) / "cards" / "data"
        files = [str(data_dir / name) for name in SHIPPED_CARD_FILES]
        call_command(
            "import_cards", "--source", "citadel-json", *files, "--no-progress", stdout=self.stdout
        )
        call_command("load_example_set", stdout=self.stdout)
        self._load_rules()
        if settings.DEBUG and not no_admin:
            self._ensure_demo_admin()

    def _load_rules(self) -> None:
        from rules.services import import_quick_references, import_rulebook_dir

        results, problems = import_quick_references(), []
        if settings.CITADEL_RULEBOOK_DIR and Path(settings.CITADEL_RULEBOOK_DIR).is_dir():
            found, problems = import_rulebook_dir(settings.CITADEL_RULEBOOK_DIR)
            results += found
        for result in results:
            warnings = len(result.book.report.get("warnings", []))
            self.stdout.write(f"rules: {result.book.slug} ({warnings} warnings)")
        for problem in problems:
            self.stderr.write(f"rules: {problem}")

    def _ensure_demo_admin(self) -> None:
        username, password = DEMO_ADMIN
        user_model = get_user_model()
        if not user_model.objects.filter(username=username).exists():
            user_model.objects.create_superuser(username=username, password=password, email="")
        self.stdout.write(f"Demo admin: {username} / {password} at /admin/")
