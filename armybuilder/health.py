"""What /health/ reports: each service the site needs, checked separately.

Each check answers "ok", "down" or "skipped" with a detail. Skipped is not down: a service
this set-up does not use (the demo has no Redis: its cache is in memory and, without a
broker, exports run in the web process) cannot fail. /health/ answers 503 as soon as one
check is down, so a load balancer or `curl -f` sees it.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.db import connection

from armybuilder import broker as probes

OK, DOWN, SKIPPED = "ok", "down", "skipped"


@dataclass(frozen=True, slots=True)
class Check:
    name: str
    status: str
    detail: str = ""


def database() -> Check:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception as exc:  # any driver error means the same to a prober: down
        return Check("database", DOWN, type(exc).__name__)
    return Check("database", OK, connection.vendor)


def cache_service() -> Check:
    backend = settings.CACHES["default"]["BACKEND"]
    if not backend.startswith("django_redis"):
        return Check("cache", SKIPPED, "in-process memory, no server")
    # The site's cache ignores Redis errors (a miss, not a 500); ask the server directly.
    from django_redis import get_redis_connection

    try:
        get_redis_connection("default").ping()
    except Exception as exc:
        return Check("cache", DOWN, type(exc).__name__)
    return Check("cache", OK, "redis")


def broker() -> Check:
    if probes.runs_in_process():
        return Check("broker", SKIPPED, "none configured: exports run in the web process")
    if not probes.broker_reachable():
        return Check("broker", DOWN, "cannot connect")
    return Check("broker", OK, settings.CELERY_BROKER_URL.split(":", 1)[0])


def worker(broker_check: Check) -> Check:
    if broker_check.status == SKIPPED:
        return Check("worker", SKIPPED, "no worker needed")
    if broker_check.status == DOWN:
        return Check("worker", DOWN, "the broker is down")
    if not probes.workers_answering():
        return Check("worker", DOWN, "no worker answered")
    return Check("worker", OK, "answering")


def run_checks() -> list[Check]:
    broker_check = broker()
    return [database(), cache_service(), broker_check, worker(broker_check)]


def healthy(checks: list[Check]) -> bool:
    return all(check.status != DOWN for check in checks)
