"""Load (or update) the demo's example Tactics set: made-up costs, not official."""

from django.core.management import BaseCommand, CommandError

from cards.card_sets.example import load_example_set
from cards.card_sets.services import CardSetError


class Command(BaseCommand):
    help = "Load the example Tactics card set (made-up costs for trying the builder)."

    def handle(self, *args, **options):
        try:
            card_set, result = load_example_set()
        except CardSetError as exc:
            raise CommandError("; ".join(exc.messages)) from exc
        self.stdout.write(
            f"example set: {card_set.name} ({result.created} created, {result.updated} "
            f"updated, {result.unchanged} unchanged, {result.scenarios} scenarios, "
            f"{result.overrides} cost overrides)"
        )
