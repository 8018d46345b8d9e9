"""A clone with no ../shared beside it (issue 16, defect 5): the tests that read the shared
rulebooks or community data skip, saying why in one line, instead of failing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO_DIR = Path(__file__).resolve().parents[2]
# Test modules that read ../shared, also outside fixtures (module-level helpers).
READS_SHARED = ("tests/rules/test_cleaning.py", "tests/rules/test_splitting.py")


def test_suite_without_shared_dir_skips_what_needs_it(tmp_path):
    dropped = {"CI", "CITADEL_REQUIRE_SERVICES", "DATABASE_URL", "REDIS_URL"}
    env = {k: v for k, v in os.environ.items() if k not in dropped}
    env["CITADEL_SHARED_DIR"] = str(tmp_path / "no-shared")
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rs", "-q", *READS_SHARED],
        cwd=REPO_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stdout[-3000:]
    assert "failed" not in run.stdout
    assert "no-shared" in run.stdout  # the skip reason names the missing folder
