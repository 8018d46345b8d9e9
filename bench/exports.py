"""PDF export benchmark: request to downloadable PDF, and jobs per minute. Prints numbers;
asserts nothing.

    .venv/bin/python bench/exports.py [--repeat 20] [--book-repeat 5] [--burst 30]
    .venv/bin/python bench/exports.py --in-process          # no Redis: Celery in-process

Loads the shipped card snapshot and the real rulebooks (../shared/rulebooks, or
CITADEL_SHARED_DIR) into a scratch SQLite database, saves a 50-point army list, then with a
real Redis broker (--redis, default redis://127.0.0.1:6379/13) and ONE worker process
(`celery -A armybuilder worker -c 1`, started and stopped here) measures, through the HTTP
API as a client sees it:
1. an army list: POST /api/v1/exports/ until its download answers the PDF (p50/p95);
2. the largest rulebook (most sections), the same way;
3. throughput: --burst army-list jobs queued at once, jobs per minute until all are done.
"""

import argparse
import contextlib
import io
import os
import statistics
import subprocess
import sys
import time

from harness import ROOT, migrate_with_cards, percentile, scratch_folder, start_django

POLL_SECONDS = 0.02


def summary(label: str, seconds: list[float], pages: int) -> None:
    print(
        f"{label}: {pages} pages, request to downloadable PDF over {len(seconds)} runs: "
        f"p50 {statistics.median(seconds):.2f} s, p95 {percentile(seconds, 0.95):.2f} s, "
        f"max {max(seconds):.2f} s"
    )


def setup_data():
    from django.contrib.auth.models import User

    from rules.models import Rulebook
    from tests.conftest import SHARED_DIR
    from tests.rules.test_search_relevance import import_real_books

    migrate_with_cards()
    with contextlib.redirect_stdout(io.StringIO()):  # the importer's reports
        import_real_books(SHARED_DIR / "rulebooks")
    user = User.objects.create_user("bench", password="bench-password-1")
    text = (ROOT / "tests" / "armybuilder" / "real_lists" / "stark-50.txt").read_text("utf-8")
    army_list = _save_list(user, text)
    books = sorted(Rulebook.objects.all(), key=lambda book: book.sections.count())
    return user, army_list, books[-1]


def _save_list(user, text: str):
    """The list as a player would have it: imported from text into their saved lists."""
    from armybuilder.lists.services import import_list_text

    return import_list_text(text=text, owner=user).army_list


def export_once(client, body: dict) -> tuple[float, int]:
    """Seconds from POST to the downloaded PDF, and its page count."""
    started = time.perf_counter()
    created = client.post("/api/v1/exports/", body, format="json")
    assert created.status_code == 202, created.content
    while True:
        status = client.get(created.json()["url"]).json()
        if status["status"] in ("done", "failed"):
            break
        time.sleep(POLL_SECONDS)
    assert status["status"] == "done", status
    pdf = b"".join(client.get(status["download"]).streaming_content)
    elapsed = time.perf_counter() - started
    assert pdf.startswith(b"%PDF-")
    return elapsed, status["pages"]


def burst(client, body: dict, count: int) -> float:
    """Jobs per minute: `count` jobs queued at once, until the last is done."""
    from exports.models import ExportJob, ExportStatus

    started = time.perf_counter()
    ids = [client.post("/api/v1/exports/", body, format="json").json()["id"] for _ in range(count)]
    while ExportJob.objects.filter(pk__in=ids, status=ExportStatus.DONE).count() < count:
        if ExportJob.objects.filter(pk__in=ids, status=ExportStatus.FAILED).exists():
            raise SystemExit("a burst job failed")
        time.sleep(0.1)
    return count / (time.perf_counter() - started) * 60


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--book-repeat", type=int, default=5)
    parser.add_argument("--burst", type=int, default=30)
    parser.add_argument("--redis", default=os.environ.get("CITADEL_BENCH_REDIS_URL", ""))
    parser.add_argument("--in-process", action="store_true", help="no broker, no worker")
    args = parser.parse_args()

    scratch = scratch_folder("citadel-bench-exports-")
    redis_url = "" if args.in_process else (args.redis or "redis://127.0.0.1:6379/13")
    os.environ["MEDIA_ROOT"] = f"{scratch}/media"
    os.environ["CITADEL_EXPORT_RATE"] = "100000/hour"
    os.environ["REDIS_URL"] = redis_url
    start_django()
    from rest_framework.test import APIClient

    started = time.perf_counter()
    user, army_list, book = setup_data()
    print(
        f"data loaded in {time.perf_counter() - started:.1f} s; largest rulebook: "
        f"{book.slug} ({book.sections.count()} sections)"
    )

    worker = None
    if redis_url:
        import redis

        redis.Redis.from_url(redis_url).flushdb()  # the bench's own database
        worker = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "armybuilder",
                "worker",
                "-c",
                "1",
                "--without-gossip",
                "--without-mingle",
                "-l",
                "warning",
            ],
            cwd=ROOT,
            env=os.environ.copy(),
            stdout=subprocess.DEVNULL,  # the banner
        )
        print(f"broker {redis_url}, one worker process (prefork, concurrency 1)")
    else:
        print("no broker: Celery in-process (CELERY_TASK_ALWAYS_EAGER), as in the demo")
    try:
        client = APIClient()
        client.force_authenticate(user)
        list_body = {"kind": "army-list", "list_id": army_list.pk}
        export_once(client, list_body)  # warm-up: worker start, fonts, templates
        runs = [export_once(client, list_body) for _ in range(args.repeat)]
        summary("army list (stark-50)", [s for s, _ in runs], runs[0][1])
        book_body = {"kind": "rulebook", "rulebook_id": book.pk}
        runs = [export_once(client, book_body) for _ in range(args.book_repeat)]
        summary(f"rulebook {book.slug}", [s for s, _ in runs], runs[0][1])
        print(
            f"throughput, one worker: {burst(client, list_body, args.burst):.0f} army-list "
            f"jobs per minute ({args.burst} queued at once)"
        )
    finally:
        if worker is not None:
            worker.terminate()
            worker.wait(timeout=30)


if __name__ == "__main__":
    main()
