"""Schemathesis over every operation of the OpenAPI schema, all phases (examples, coverage,
fuzzing, stateful), all checks, authenticated as a user (HTTP basic), against the real HTTP
server of the test run: no server error, no answer that the schema does not describe, no
schema-valid request refused and no invalid one accepted (issue 16).

Operations come from /api/schema/, so an operation added later is fuzzed too. Bounded for
CI by CITADEL_FUZZ_EXAMPLES examples per operation and phase (default 8: about two
minutes here); scripts/fuzz-api runs a longer one (docs/reliability.md has the numbers).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from armybuilder.celery import app

pytestmark = [pytest.mark.reliability, pytest.mark.django_db(transaction=True)]

CONFIG = Path(__file__).with_name("schemathesis.toml")
EXAMPLES = int(os.environ.get("CITADEL_FUZZ_EXAMPLES", "8"))
USER, PASSWORD = "fuzzer", "fuzz-pass-123"


@pytest.fixture
def exports_queued_not_run(settings):
    """Exports are accepted and queued on an in-memory broker that no worker reads: the
    fuzzer tests the API, not the PDF renderer (tests/exports does)."""
    conf = app.conf
    saved = {key: conf[key] for key in ("broker_url", "task_always_eager")}
    conf.update(broker_url="memory://", task_always_eager=False)
    app._pool = None
    app.amqp._producer_pool = None
    settings.CITADEL_EXPORT_RATE = "1000/hour"
    yield
    conf.update(saved)
    app._pool = None
    app.amqp._producer_pool = None


def test_api_fuzz_every_operation_answers_as_its_schema_says(
    live_server, exports_queued_not_run, tmp_path
):
    st = shutil.which("st", path=str(Path(sys.executable).parent))
    assert st, "schemathesis is not installed (pip install -e '.[dev]')"
    call_command("load_demo_data", stdout=open(os.devnull, "w"))  # noqa: SIM115
    User.objects.create_user(USER, password=PASSWORD)
    run = subprocess.run(
        [
            st,
            "--config-file",
            str(CONFIG),
            "run",
            f"{live_server.url}/api/schema/",
            "--phases=examples,coverage,fuzzing,stateful",
            "--checks=all",
            f"--max-examples={EXAMPLES}",
            f"--auth={USER}:{PASSWORD}",
            "--seed=16",
            "--workers=1",
            "--request-timeout=30",
            f"--report-dir={tmp_path}",
        ],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
        cwd=tmp_path,
        env={**os.environ, "NO_COLOR": "1"},
    )
    summary = run.stdout[run.stdout.rfind("SUMMARY") :]
    print(summary)  # the counts, in the test's output
    assert run.returncode == 0, run.stdout[-6000:]
