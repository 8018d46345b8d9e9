"""common.progress.StageBar: the import commands' progress bar, off or on."""

from __future__ import annotations

from common.progress import StageBar


def test_stage_bar_disabled_gives_nothing():
    with StageBar(enabled=False) as bar:
        assert bar is None


def test_stage_bar_count_follows_the_reported_total():
    with StageBar(enabled=True) as bar:
        bar.count("cards", 2, 5)
        assert (bar.bar.n, bar.bar.total) == (2, 5)


def test_stage_bar_stage_steps_once_per_stage_name():
    with StageBar(enabled=True, total=3) as bar:
        for stage in ("read", "split", "read", "store"):
            bar.stage(stage)
        assert (bar.bar.n, bar.bar.total) == (3, 3)
