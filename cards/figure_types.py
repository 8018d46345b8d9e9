"""Tactics: a figure's type follows from its printed cost (Tactics rulebook notes a.3)."""


def figure_kind_from_cost(gold: int | None, silver: int | None, copper: int | None) -> str | None:
    """Any gold: hero. Silver without gold: champion. Copper only: soldier.

    None when a coin is unknown or the card costs nothing (nothing can be inferred).
    """
    if None in (gold, silver, copper):
        return None
    if gold > 0:
        return "hero"
    if silver > 0:
        return "champion"
    if copper > 0:
        return "soldier"
    return None
