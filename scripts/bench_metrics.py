"""What the metrics cost: a scrape with N series, and what counting adds to each request.

    .venv/bin/python scripts/bench_metrics.py [--workers 2] [--series 1500 6000 24000]

1. Scrape: WORKERS processes each write their share of the HTTP metrics (request counter and
   latency histogram, one route label per series) to one process-group folder, as Granian's
   workers do (multiprocess mode); the scrape (`metrics.exposition`, what GET /metrics runs,
   without the outbox query) is then timed. The site itself exports about 1,500 samples once
   every page and API route has been requested (the histogram's buckets are most of them).
2. Per request: the HTTP middleware (`metrics.HttpMetrics`) around a trivial ASGI app, against
   the bare app, in memory (one process, METRICS_TOKEN empty) and in files (several workers).

A benchmark: it prints, never fails. Figures in docs/performance.md.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def write_series(count: int, worker: int, workers: int) -> None:
    """In a worker process: its share of `count` samples of the HTTP metrics."""
    from marketing_site import metrics

    # A route's samples: one counter sample and the histogram's buckets, sum and count.
    per_route = 1 + len(metrics.HTTP_DURATION._upper_bounds) + 2
    for index in range(worker, max(count // per_route, 1), workers):
        route = f"/bench/{index}"
        metrics.HTTP_REQUESTS.labels(route=route, method="GET", status="200").inc()
        metrics.HTTP_DURATION.labels(route=route, method="GET").observe(0.01)


def time_scrape(repeats: int) -> tuple[float, int, int]:
    """(median seconds of a scrape, samples in it, bytes) from this process (files mode)."""
    from marketing_site import metrics

    durations, body = [], b""
    for _ in range(repeats):
        began = time.perf_counter()
        body = metrics.exposition()
        durations.append(time.perf_counter() - began)
    samples = sum(1 for line in body.splitlines() if line and not line.startswith(b"#"))
    return statistics.median(durations), samples, len(body)


def time_requests(count: int) -> tuple[float, float]:
    """(microseconds per request without, with the middleware) around a trivial ASGI app."""
    from marketing_site import metrics

    async def app(scope, receive, send):
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    async def receive():
        return {"type": "http.request", "body": b""}

    async def send(_message):
        return None

    wrapped = metrics.HttpMetrics(app)
    scope = {"type": "http", "method": "GET", "path": "/api/v1/health", "headers": []}

    async def run(target) -> float:
        began = time.perf_counter()
        for _ in range(count):
            await target(dict(scope), receive, send)
        return (time.perf_counter() - began) / count * 1e6

    async def both() -> tuple[float, float]:
        await run(wrapped)  # warm up
        bare = min([await run(app) for _ in range(3)])
        counted = min([await run(wrapped) for _ in range(3)])
        return bare, counted

    return asyncio.run(both())


def child(args: list[str], environment: dict[str, str]) -> str:
    done = subprocess.run(
        [sys.executable, __file__, *args], env=environment, capture_output=True, text=True, check=True, cwd=ROOT
    )
    return done.stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--series", type=int, nargs="+", default=[1500, 6000, 24000])
    parser.add_argument("--requests", type=int, default=20000)
    parser.add_argument("--role", help=argparse.SUPPRESS)
    parser.add_argument("--count", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--worker", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.role == "write":
        write_series(args.count, args.worker, args.workers)
        return
    if args.role == "scrape":
        seconds, samples, size = time_scrape(20)
        print(f"{seconds} {samples} {size}")
        return
    if args.role == "requests":
        bare, counted = time_requests(args.requests)
        print(f"{bare} {counted}")
        return

    base = {**os.environ, "ENV_FILE": "", "METRICS_TOKEN": ""}
    base.pop("PROMETHEUS_MULTIPROC_DIR", None)
    print(f"Scrape of the process group's files, {args.workers} workers (median of 20)")
    print(f"{'samples':>8} {'bytes':>9} {'scrape ms':>10} {'µs/sample':>10}")
    for count in args.series:
        with tempfile.TemporaryDirectory(prefix="bench-metrics-") as folder:
            files = {**base, "METRICS_TOKEN": "bench", "PROMETHEUS_MULTIPROC_DIR": folder}
            for worker in range(args.workers):
                child(
                    ["--role", "write", "--count", str(count), "--worker", str(worker), "--workers", str(args.workers)],
                    files,
                )
            seconds, samples, size = (float(x) for x in child(["--role", "scrape"], files).split())
            print(f"{int(samples):>8} {int(size):>9} {seconds * 1000:>10.1f} {seconds * 1e6 / samples:>10.2f}")

    print(f"\nOne request through metrics.HttpMetrics (best of 3 × {args.requests})")
    print(f"{'storage':<28} {'bare µs':>8} {'counted µs':>11} {'added µs':>9}")
    with tempfile.TemporaryDirectory(prefix="bench-metrics-") as folder:
        for name, environment in (
            ("memory (one process)", base),
            ("files (several workers)", {**base, "METRICS_TOKEN": "bench", "PROMETHEUS_MULTIPROC_DIR": folder}),
        ):
            bare, counted = (
                float(x) for x in child(["--role", "requests", "--requests", str(args.requests)], environment).split()
            )
            print(f"{name:<28} {bare:>8.1f} {counted:>11.1f} {counted - bare:>9.1f}")


if __name__ == "__main__":
    main()
