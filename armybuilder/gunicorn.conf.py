"""gunicorn's settings for Citadel (scripts/production, compose.yaml): read from the
environment, with defaults measured on a 2-core machine (docs/reliability.md).

Requests are CPU-bound Python (list reading, query compilation, serialisation), so more
processes than cores only add switching: two sync workers per core keep the cores busy
while one waits on the database.
"""

import multiprocessing
import os

bind = os.environ.get("CITADEL_ADDR", "127.0.0.1:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", str(multiprocessing.cpu_count() * 2)))
worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "sync")
threads = int(os.environ.get("GUNICORN_THREADS", "1"))
# Longer than any request should take, shorter than a client waits; exports run in Celery.
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = 20
keepalive = 5
# Recycle workers now and then (a leak never grows without bound); jitter keeps them from
# restarting all at once.
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "5000"))
max_requests_jitter = 500
accesslog = os.environ.get("GUNICORN_ACCESS_LOG") or None
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "warning").lower()
# Behind a proxy on the same host (or in compose), trust its X-Forwarded-* headers.
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1,::1")


def post_worker_init(worker) -> None:
    """Build the rules search index as the worker starts (a large corpus: in a background
    thread, the database answering meanwhile), so no player waits for it at their first
    search."""
    from django.db import DatabaseError

    from rules.search.vocabulary import warm_up

    try:
        warm_up()
    except DatabaseError:  # not migrated yet: the first search builds it
        worker.log.warning("rules search index not built at start-up")
