"""A tqdm bar on stderr for the management commands' import stages, or nothing.

`with StageBar(enabled=..., total=...) as bar:` gives the bar, or None when it is off (no
terminal, or `--no-progress`); the importers take a progress callback or None, so a caller
passes `bar.count if bar else None` (a count reported by the importer) or
`bar.stage if bar else None` (one step a stage, whatever the order they come in).
tqdm is imported only when a bar is shown.
"""

from __future__ import annotations

import sys
from typing import Any


class StageBar:
    def __init__(self, *, enabled: bool, total: int = 1) -> None:
        self.enabled = enabled
        self.total = total
        self.bar: Any = None
        self.done: set[str] = set()

    def __enter__(self) -> StageBar | None:
        if not self.enabled:
            return None
        from tqdm import tqdm

        self.bar = tqdm(total=self.total, unit="stage", file=sys.stderr, leave=False)
        return self

    def count(self, stage: str, done: int, total: int) -> None:
        """`done` of `total` in `stage`."""
        self.bar.total = total
        self.bar.set_description(stage)
        self.bar.update(done - self.bar.n)

    def stage(self, stage: str) -> None:
        """`stage` has begun: one step the first time it is named."""
        self.bar.set_description(stage)
        if stage not in self.done:
            self.done.add(stage)
            self.bar.update(1)

    def __exit__(self, *exc_info: object) -> None:
        if self.bar is not None:
            self.bar.close()
