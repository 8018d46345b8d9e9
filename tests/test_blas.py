"""common.blas: numpy's BLAS on one thread in a Django process."""

import subprocess
import sys
from pathlib import Path

from threadpoolctl import threadpool_info, threadpool_limits

from common.blas import one_blas_thread

ROOT = Path(__file__).resolve().parent.parent


def _blas_threads() -> set[int]:
    return {pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"}


def test_one_blas_thread_limits_numpy_blas_to_one_thread():
    # This process is already limited (the rules app is ready): widen it first, so that
    # only the call under test can bring it back to one.
    threadpool_limits(limits=2, user_api="blas")
    assert _blas_threads() == {2}
    one_blas_thread()
    assert _blas_threads() == {1}


def test_a_django_process_starts_with_one_blas_thread():
    # A new process, as a web or Celery worker starts: the rules app limits it when ready.
    script = (
        "import os, django; os.environ['DJANGO_SETTINGS_MODULE'] = 'tests.settings'; "
        "django.setup(); from threadpoolctl import threadpool_info; "
        "print(sorted({p['num_threads'] for p in threadpool_info() if p['user_api'] == 'blas'}))"
    )
    env = {"OPENBLAS_NUM_THREADS": "2", "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        check=True,
    )
    assert done.stdout.strip() == "[1]"
