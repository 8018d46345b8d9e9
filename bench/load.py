"""Load against a running Citadel (scripts/production on localhost): N concurrent clients
mixing card search, rules search, list checks and PDF exports for a bounded time.

    CITADEL_HTTPS=0 CITADEL_LOAD_DEMO=1 CITADEL_EXPORT_RATE=100000/hour scripts/production &
    .venv/bin/python bench/load.py --url http://127.0.0.1:8000 --clients 20 --seconds 60

Prints, per kind of request and in total: requests, throughput, p50/p99 latency, errors
(any answer other than the expected status, or no answer); then how the exports started
during the run ended. The baseline, measured in the same run before the load, is one
client fetching a static file: each kind's p50 is also given as a multiple of it.

Bounded: stops after --seconds or --max-requests, whichever comes first, and only talks to
the --url it is given (refuses anything but a loopback address). Needs nothing but the
standard library, so it can run from any Python.
"""

from __future__ import annotations

import argparse
import http.client
import ipaddress
import json
import random
import socket
import sys
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from urllib.parse import quote, urlsplit

CARD_QUERIES = [
    "jaime",
    "faction:stark",
    "faction:lannister kind:attachment",
    "type:cavalry cost<=5 sort:cost dir:desc",
    "commander:yes faction:targaryen",
    "ability:vicious -faction:lannister",
    "(faction:stark or faction:bolton) speed>=6",
    "régicide",
    "kind:ncu",
    "sworn swords",
]
RULES_QUERIES = [
    "movement",
    "charge",
    "morale",
    "corbeau messager",
    "messenger raven",
    "tactics cards",
    "attaque",
    "game modes",
    "army construction",
    "retreat",
]
LISTS = [
    "Faction: Stark\nCommander: Robb Stark\nStark Sworn Swords\nUmber Berserkers\n"
    "Greyjoy Reavers\nCatelyn Stark",
    "Faction: Lannister\nTywin Lannister\nLannister Guardsmen\nLannister Halberdiers\n"
    "Tyrion Lannister",
    "Stark Sworn Swords with Greatjon Umber\nStark Outriders\nBran Stark",
]
# How often each kind is picked. Exports are rare: each is seconds of CPU for a worker, and
# a user may start 30 an hour (CITADEL_EXPORT_RATE), so 20 busy users start at most about
# one in 500 requests at ~150 requests/s.
MIX = [("card_search", 40), ("rules_search", 40), ("list_check", 19.8), ("export", 0.2)]


@dataclass
class Tally:
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    exports: list[tuple[dict, str]] = field(default_factory=list)  # (cookies, job id)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, kind: str, seconds: float, error: str | None) -> None:
        with self.lock:
            self.latencies[kind].append(seconds)
            if error:
                self.errors[kind].append(error)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


class Client:
    """One keep-alive connection; reconnects after an error."""

    def __init__(self, host: str, port: int):
        self.host, self.port = host, port
        self.connection: http.client.HTTPConnection | None = None
        self.cookies: dict[str, str] = {}  # the session follows this visitor's exports

    def request(self, method: str, path: str, body: dict | None = None):
        if self.connection is None:
            self.connection = http.client.HTTPConnection(self.host, self.port, timeout=30)
        headers = {"Accept": "application/json"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        payload = None
        if body is not None:
            payload = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        try:
            self.connection.request(method, path, body=payload, headers=headers)
            response = self.connection.getresponse()
            data = response.read()
            for header, value in response.getheaders():
                if header.lower() == "set-cookie":
                    name, _, rest = value.partition("=")
                    self.cookies[name] = rest.split(";", 1)[0]
        except (OSError, http.client.HTTPException):
            self.connection.close()
            self.connection = None
            raise
        return response.status, data


NO_CACHE = False  # --no-cache: every read a new address, so no answer comes from the cache


def one_request(client: Client, kind: str, rng: random.Random, tally: Tally) -> None:
    if kind == "card_search":
        method, path, body, expected = (
            "GET",
            f"/api/v1/cards/?q={quote(rng.choice(CARD_QUERIES))}",
            None,
            200,
        )
    elif kind == "rules_search":
        method, path, body, expected = (
            "GET",
            f"/api/v1/rules/search/?q={quote(rng.choice(RULES_QUERIES))}",
            None,
            200,
        )
    elif kind == "list_check":
        method, path, body, expected = (
            "POST",
            "/api/v1/lists/check/",
            {"text": rng.choice(LISTS)},
            200,
        )
    else:
        method, path, body, expected = (
            "POST",
            "/api/v1/exports/",
            {"kind": "army-list", "text": rng.choice(LISTS), "game": "tmg"},
            202,
        )
    if NO_CACHE and method == "GET":
        path += f"&nocache={rng.getrandbits(48)}"
    started = time.perf_counter()
    error = None
    try:
        status, data = client.request(method, path, body)
        if status != expected:
            error = f"{status}: {data[:120]!r}"
        elif kind == "export":
            with tally.lock:
                tally.exports.append((client.cookies.copy(), json.loads(data)["id"]))
    except (OSError, http.client.HTTPException, ValueError) as exc:
        error = f"{type(exc).__name__}: {exc}"
    tally.add(kind, time.perf_counter() - started, error)


def run_client(host, port, deadline, budget, tally, seed) -> None:
    rng = random.Random(seed)
    kinds, weights = zip(*MIX, strict=True)
    client = Client(host, port)
    while time.monotonic() < deadline and budget.acquire(blocking=False):
        one_request(client, rng.choices(kinds, weights)[0], rng, tally)


def baseline(host: str, port: int, count: int = 200) -> float:
    client = Client(host, port)
    times = []
    for _ in range(count):
        started = time.perf_counter()
        client.request("GET", "/static/css/citadel.css")
        times.append(time.perf_counter() - started)
    return percentile(times, 0.5)


def follow_exports(host: str, port: int, ids: list[tuple], wait: float) -> dict[str, int]:
    """Wait (at most `wait` seconds) for the exports to finish; count how they ended."""
    client = Client(host, port)
    deadline = time.monotonic() + wait
    ended: dict[str, str] = {}
    while time.monotonic() < deadline and len(ended) < len(ids):
        for cookies, job in ids:
            if job in ended:
                continue
            client.cookies = dict(cookies)
            status, data = client.request("GET", f"/api/v1/exports/{job}/")
            state = json.loads(data)["status"] if status == 200 else f"http {status}"
            if state not in ("queued", "running"):
                ended[job] = state
        time.sleep(0.5)
    counts: dict[str, int] = defaultdict(int)
    for _cookies, job in ids:
        counts[ended.get(job, "unfinished")] += 1
    return dict(counts)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--max-requests", type=int, default=100_000)
    parser.add_argument("--only", choices=[kind for kind, _ in MIX], help="one kind only")
    parser.add_argument("--export-wait", type=float, default=120)
    parser.add_argument("--no-cache", action="store_true", help="no answer from the cache")
    args = parser.parse_args()
    global NO_CACHE
    NO_CACHE = args.no_cache
    parts = urlsplit(args.url)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    if not ipaddress.ip_address(socket.gethostbyname(host)).is_loopback:
        sys.exit(f"{host} is not a loopback address: this script only loads a local server")
    if args.only:
        MIX[:] = [(args.only, 1)]

    base = baseline(host, port)
    tally = Tally()
    budget = threading.Semaphore(args.max_requests)
    started = time.monotonic()
    deadline = started + args.seconds
    threads = [
        threading.Thread(target=run_client, args=(host, port, deadline, budget, tally, n))
        for n in range(args.clients)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - started

    print(f"{args.clients} clients, {elapsed:.1f} s, against {args.url}")
    print(f"baseline (one client, a static file): p50 {base * 1000:.1f} ms")
    print(
        f"{'kind':<14}{'requests':>9}{'req/s':>8}{'p50 ms':>9}{'p99 ms':>9}"
        f"{'x base':>8}{'errors':>8}"
    )
    everything: list[float] = []
    for kind, _weight in MIX:
        times = tally.latencies.get(kind, [])
        if not times:
            continue
        everything += times
        p50 = percentile(times, 0.5)
        print(
            f"{kind:<14}{len(times):>9}{len(times) / elapsed:>8.1f}{p50 * 1000:>9.1f}"
            f"{percentile(times, 0.99) * 1000:>9.1f}{p50 / base:>8.1f}{len(tally.errors[kind]):>8}"
        )
    errors = sum(len(found) for found in tally.errors.values())
    print(
        f"{'total':<14}{len(everything):>9}{len(everything) / elapsed:>8.1f}"
        f"{percentile(everything, 0.5) * 1000:>9.1f}{percentile(everything, 0.99) * 1000:>9.1f}"
        f"{'':>8}{errors:>8}"
    )
    for kind, found in tally.errors.items():
        for error in found[:3]:
            print(f"  {kind} error: {error}")
    if tally.exports:
        print(
            f"exports started: {len(tally.exports)}, ended: "
            f"{follow_exports(host, port, tally.exports, args.export_wait)}"
        )
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
