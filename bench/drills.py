"""Fault drills against the production stack on this machine (scripts/production), each
printing what it saw. Start the stack with short export limits so the lost-worker drill ends
in seconds, not minutes:

    CITADEL_HTTPS=0 CITADEL_LOAD_DEMO=1 CITADEL_EXPORT_RATE=100000/hour \\
    CITADEL_EXPORT_SOFT_TIME_LIMIT=15 CITADEL_EXPORT_TIME_LIMIT=20 CITADEL_EXPORT_STALE_GRACE=5 \\
    CITADEL_VAR_DIR=/tmp/citadel-prod scripts/production &
    CITADEL_VAR_DIR=/tmp/citadel-prod .venv/bin/python bench/drills.py all

Drills: redis-down, worker-killed, database-restart, reimport-killed, two-workers. They stop
and restart only the stack's own Redis, PostgreSQL and worker processes (found through the
pid files in CITADEL_VAR_DIR/run), and talk only to the stack's loopback address.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
VAR = Path(os.environ.get("CITADEL_VAR_DIR", ROOT / "var" / "production")).resolve()
ADDR = os.environ.get("CITADEL_ADDR", "127.0.0.1:8000")
PG_PORT = int(os.environ.get("CITADEL_PG_PORT", "5440"))
REDIS_PORT = int(os.environ.get("CITADEL_REDIS_PORT", "6390"))
DATABASE_URL = os.environ.get("DATABASE_URL", f"postgres://postgres@127.0.0.1:{PG_PORT}/citadel")
REDIS_URL = os.environ.get("REDIS_URL", f"redis://127.0.0.1:{REDIS_PORT}/0")
LIST = "Faction: Stark\nRobb Stark\nStark Sworn Swords\nUmber Berserkers"
PY = str(ROOT / ".venv" / "bin" / "python")


class Session:
    """One client with its cookies (an anonymous visitor follows its exports by session)."""

    def __init__(self):
        host, port = ADDR.split(":")
        self.host, self.port = host, int(port)
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, body: dict | None = None, timeout: float = 30):
        connection = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        headers = {"Accept": "application/json"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        try:
            connection.request(method, path, body=data, headers=headers)
            response = connection.getresponse()
            payload = response.read()
            for header, value in response.getheaders():
                if header.lower() == "set-cookie":
                    name, _, rest = value.partition("=")
                    self.cookies[name] = rest.split(";", 1)[0]
            return response.status, dict(response.getheaders()), payload
        finally:
            connection.close()

    def json(self, method: str, path: str, body: dict | None = None):
        status, headers, payload = self.request(method, path, body)
        try:
            return status, headers, json.loads(payload)
        except ValueError:
            return status, headers, {"raw": payload[:200].decode(errors="replace")}

    def start_export(self, body: dict | None = None):
        return self.json("POST", "/api/v1/exports/", body or {"kind": "army-list", "text": LIST})

    def wait_export(self, job_id: str, seconds: float = 120) -> dict:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            status, _, body = self.json("GET", f"/api/v1/exports/{job_id}/")
            if status == 200 and body["status"] in ("done", "failed"):
                return body
            time.sleep(0.2)
        return body


def say(*parts) -> None:
    print(*parts, flush=True)


def health() -> tuple[int, dict]:
    status, _, body = Session().json("GET", "/health/")
    return status, {name: check["status"] for name, check in body.get("checks", {}).items()}


def wait_healthy(seconds: float = 60) -> float:
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        try:
            if health()[0] == 200:
                return time.monotonic() - started
        except OSError:
            pass
        time.sleep(0.25)
    raise SystemExit(f"the stack is not healthy after {seconds} s: {health()}")


def pid(name: str) -> int:
    return int((VAR / "run" / f"{name}.pid").read_text().split()[0])


def children(parent: int) -> list[int]:
    found = subprocess.run(["pgrep", "-P", str(parent)], capture_output=True, text=True)
    return [int(p) for p in found.stdout.split()]


# --- Redis down ----------------------------------------------------------------------------


def start_redis() -> None:
    subprocess.run(
        [
            "redis-server",
            "--port",
            str(REDIS_PORT),
            "--bind",
            "127.0.0.1",
            "--dir",
            str(VAR / "redis"),
            "--appendonly",
            "yes",
            "--daemonize",
            "yes",
            "--pidfile",
            str(VAR / "run" / "redis.pid"),
            "--logfile",
            str(VAR / "log" / "redis.log"),
        ],
        check=True,
    )


def drill_redis_down() -> None:
    say("== redis-down: stop the stack's Redis, use the site, start Redis again")
    wait_healthy()
    subprocess.run(["redis-cli", "-p", str(REDIS_PORT), "shutdown", "nosave"], check=False)
    time.sleep(1)
    visitor = Session()
    reads = {
        "home page": ("GET", "/", None),
        "card browser": ("GET", "/cards/?q=stark", None),
        "card search API": ("GET", "/api/v1/cards/?q=faction:stark", None),
        "rules search API": ("GET", "/api/v1/rules/search/?q=charge", None),
        "rules search page": ("GET", "/rules/search/?q=charge", None),
        "list check API": ("POST", "/api/v1/lists/check/", {"text": LIST}),
    }
    for label, (method, path, body) in reads.items():
        started = time.perf_counter()
        status, _, _ = visitor.request(method, path, body)
        say(
            f"  Redis down: {label:<18} {status} in {(time.perf_counter() - started) * 1000:.0f} ms"
        )
    status, headers, body = visitor.start_export()
    say(
        f"  Redis down: start an export    {status}, Retry-After {headers.get('Retry-After')}: "
        f"{body.get('detail')}"
    )
    status, checks = health()
    say(f"  Redis down: /health/ {status} {checks}")
    start_redis()
    recovered = wait_healthy()
    say(f"  Redis back: healthy again after {recovered:.1f} s")
    status, _, body = visitor.start_export()
    ended = visitor.wait_export(body["id"]) if status == 202 else body
    say(f"  Redis back: start an export    {status}, ended {ended.get('status')}")


# --- a worker killed in the middle of an export --------------------------------------------


def drill_worker_killed() -> None:
    say("== worker-killed: SIGKILL the pool process running an export")
    wait_healthy()
    visitor = Session()
    from_db = django_largest_rulebook_id()  # the longest job the data has: a whole book
    status, _, created = visitor.start_export({"kind": "rulebook", "rulebook_id": from_db})
    assert status == 202, created
    started = time.monotonic()
    while True:
        job = visitor.json("GET", f"/api/v1/exports/{created['id']}/")[2]
        if job["status"] == "running":
            break
        if job["status"] in ("done", "failed") or time.monotonic() - started > 30:
            raise SystemExit(f"the export ended before it could be killed: {job}")
        time.sleep(0.01)
    pool = children(pid("worker"))
    for child in pool:
        os.kill(child, signal.SIGKILL)
    killed_at = time.monotonic()
    say(f"  killed {len(pool)} pool processes while the job was running ({job['progress']} %)")
    ended = visitor.wait_export(created["id"], seconds=180)
    attempts = django_job_attempts(created["id"])
    say(
        f"  the job ended {ended['status']} after {time.monotonic() - killed_at:.1f} s, "
        f"attempts {attempts}, pages {ended.get('pages')}"
    )


# --- PostgreSQL restarted under load -------------------------------------------------------


def drill_database_restart() -> None:
    say("== database-restart: restart PostgreSQL while 5 clients search and check")
    wait_healthy()
    statuses: Counter = Counter()
    window: list[float] = []
    stop = threading.Event()
    lock = threading.Lock()
    paths = [
        ("GET", "/api/v1/cards/?q=faction:stark", None),
        ("GET", "/api/v1/rules/search/?q=charge", None),
        ("POST", "/api/v1/lists/check/", {"text": LIST}),
        ("GET", "/cards/?q=stark", None),
    ]

    def client(n: int) -> None:
        visitor = Session()
        i = n
        while not stop.is_set():
            method, path, body = paths[i % len(paths)]
            i += 1
            try:
                status = visitor.request(method, path, body, timeout=10)[0]
            except OSError as exc:
                status = type(exc).__name__
            with lock:
                statuses[status] += 1
                if status != 200:
                    window.append(time.monotonic())

    threads = [threading.Thread(target=client, args=(n,)) for n in range(5)]
    for thread in threads:
        thread.start()
    time.sleep(3)
    pgbin = sorted(Path("/usr/lib/postgresql").glob("*/bin"))[-1]
    restart = [
        str(pgbin / "pg_ctl"),
        "-D",
        str(VAR / "pg"),
        "-m",
        "fast",
        "-w",
        "restart",
        "-l",
        str(VAR / "log" / "postgres.log"),
        "-o",
        f"-p {PG_PORT} -k {VAR / 'run'} -c listen_addresses=127.0.0.1",
    ]
    if os.getuid() == 0:
        restart = ["runuser", "-u", "postgres", "--", *restart]
    started = time.monotonic()
    subprocess.run(restart, check=True, capture_output=True)
    say(f"  PostgreSQL restarted in {time.monotonic() - started:.1f} s")
    time.sleep(5)
    stop.set()
    for thread in threads:
        thread.join()
    say(f"  answers during the drill: {dict(statuses)} (500s: {statuses.get(500, 0)})")
    if window:
        say(
            f"  answers other than 200 from {window[0] - started:+.2f} s to "
            f"{window[-1] - started:+.2f} s after the restart began"
        )
    say(f"  /health/ after: {health()}")


# --- a card re-import killed half-way ------------------------------------------------------


def card_fingerprint() -> tuple:
    setup_django()
    from django.db import connection
    from django.db.models import Count, Sum

    from cards.models import Card

    connection.close()
    stats = Card.objects.aggregate(n=Count("id"), points=Sum("points"))
    return stats["n"], stats["points"]


def import_transaction_open() -> bool:
    """Another connection is inside a transaction that touched the card tables."""
    setup_django()
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND pid <> pg_backend_pid() AND xact_start IS NOT NULL AND query ILIKE %s",
            ["%cards_%"],
        )
        return cursor.fetchone()[0] > 0


def drill_reimport_killed() -> None:
    say("== reimport-killed: SIGKILL `manage.py import_cards` at several moments")
    snapshot = ROOT / "cards" / "data" / "tmg-cards-snapshot.json"
    document = json.loads(snapshot.read_text(encoding="utf-8"))
    for card in document["cards"]:
        if isinstance(card.get("points"), int):
            card["points"] += 1  # every card changes: the import rewrites them all
    changed = Path(tempfile.mkdtemp()) / "snapshot-plus-one.json"
    changed.write_text(json.dumps(document), encoding="utf-8")
    env = {**os.environ, "DATABASE_URL": DATABASE_URL, "REDIS_URL": REDIS_URL}
    command = [
        PY,
        "manage.py",
        "import_cards",
        "--source",
        "citadel-json",
        str(changed),
        "--no-progress",
    ]
    before = card_fingerprint()
    started = time.monotonic()
    subprocess.run(command, cwd=ROOT, env=env, check=True, capture_output=True)
    whole = time.monotonic() - started
    after_full = card_fingerprint()
    subprocess.run(
        [*command[:-2], str(snapshot), "--no-progress"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
    )
    restored = card_fingerprint()
    say(
        f"  a whole import takes {whole:.2f} s and moves (cards, points) {before} -> "
        f"{after_full}; re-importing the snapshot gives back {restored}"
    )
    restore = [*command[:-2], str(snapshot), "--no-progress"]
    for fraction in (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8):
        process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        time.sleep(whole * fraction)
        running = process.poll() is None
        writing = import_transaction_open()
        process.kill()
        process.wait()
        now = card_fingerprint()
        if now == restored:
            verdict = "unchanged"
        elif now == after_full:
            verdict = "complete (its transaction had committed)"
        else:
            verdict = f"HALF-WRITTEN: {now}"
        say(
            f"  killed at {fraction:.0%} of the import time (running: {running}, inside its "
            f"transaction: {writing}): "
            f"cards {verdict}"
        )
        if now != restored:
            subprocess.run(restore, cwd=ROOT, env=env, check=True, capture_output=True)


# --- two workers on one Redis: every export runs once --------------------------------------


def drill_two_workers(jobs: int = 40) -> None:
    say(f"== two-workers: a second worker on the same Redis and queue, {jobs} exports")
    wait_healthy()
    env = {**os.environ, "DATABASE_URL": DATABASE_URL, "REDIS_URL": REDIS_URL}
    log = VAR / "log" / "second-worker.log"
    second = subprocess.Popen(
        [
            str(ROOT / ".venv" / "bin" / "celery"),
            "-A",
            "armybuilder",
            "worker",
            "--pool=prefork",
            "--concurrency=2",
            "--hostname=second@%h",
            "--loglevel=INFO",
            f"--logfile={log}",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        time.sleep(6)  # let it connect
        logs = [VAR / "log" / "worker.log", log]
        offsets = {path: len(path.read_text(errors="replace")) for path in logs}
        visitor = Session()
        ids = []
        for n in range(jobs):
            status, _, body = visitor.start_export(
                {"kind": "army-list", "text": f"{LIST}\nCatelyn Stark\n# {n}"}
            )
            assert status == 202, body
            ids.append(body["id"])
        ended = Counter(visitor.wait_export(job)["status"] for job in ids)
        attempts = Counter(django_job_attempts(job) for job in ids)
        runs = {
            worker_log.name: sum(
                1
                for line in worker_log.read_text(errors="replace")[
                    offsets[worker_log] :
                ].splitlines()
                if "exports.run_export[" in line and "] succeeded" in line
            )
            for worker_log in logs
        }
        say(f"  ended: {dict(ended)}; attempts per job (renders): {dict(attempts)}")
        say(
            f"  tasks run per worker: {runs} (a duplicate delivery would add a run that "
            "claims nothing)"
        )
    finally:
        second.send_signal(signal.SIGTERM)
        second.wait(timeout=60)


# --- Django, for what only the database says ------------------------------------------------

_django_ready = False


def setup_django() -> None:
    global _django_ready
    if _django_ready:
        return
    os.environ.update(DATABASE_URL=DATABASE_URL, REDIS_URL=REDIS_URL)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "armybuilder.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    _django_ready = True


def django_job_attempts(job_id: str) -> int:
    setup_django()
    from exports.models import ExportJob

    return ExportJob.objects.get(pk=job_id).attempts


def django_largest_rulebook_id() -> int:
    setup_django()
    from django.db.models import Count

    from rules.models import Rulebook

    return Rulebook.objects.annotate(n=Count("sections")).order_by("-n").first().pk


DRILLS = {
    "redis-down": drill_redis_down,
    "worker-killed": drill_worker_killed,
    "database-restart": drill_database_restart,
    "reimport-killed": drill_reimport_killed,
    "two-workers": drill_two_workers,
}


def main() -> int:
    host = urlsplit(f"http://{ADDR}").hostname
    if host not in ("127.0.0.1", "localhost", "::1"):
        sys.exit("the drills only run against a stack on this machine")
    names = sys.argv[1:] or ["all"]
    for name in DRILLS if names == ["all"] else names:
        DRILLS[name]()
    return 0


if __name__ == "__main__":
    sys.exit(main())
