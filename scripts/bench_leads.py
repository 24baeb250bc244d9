"""Benchmark (not a test): lead-API requests per second next to a bare Starlette endpoint.

Starts, on loopback, (1) the production site with its real lead API (SQLite, the file
mail sink, rate limits lifted for the run) and (2) a bare Starlette app answering JSON,
both under Granian with one worker, then drives each with the same concurrent client for a
fixed time and prints requests per second and their ratio.

    .venv/bin/python scripts/bench_leads.py [--seconds 10] [--concurrency 16]

Needs the production frontend built (`make build` or `make run` once).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx2

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from servers import BIN, SiteServer, free_port

BARE_APP = """
from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.routing import Route

async def send(request):
    await request.json()
    return JSONResponse({"status": "accepted"})

app = Starlette(routes=[Route("/api/v1/mail/send", send, methods=["POST"])])
"""


def payload(i: int) -> dict:
    return {
        "name": "Bench",
        "firstname": "Mark",
        "phone": "+33 1 23 45 67 89",
        "company": "Bench SA",
        "email": f"bench{i}-{time.time_ns()}@example.com",
        "subject": "Ebook download - Wealth manager new generation",
        "text": "",
        "mailSent": False,
        "error": False,
    }


async def drive(url: str, seconds: float, concurrency: int) -> tuple[int, int]:
    done = errors = 0
    deadline = time.monotonic() + seconds
    async with httpx2.AsyncClient(timeout=30) as client:

        async def worker(n: int) -> None:
            nonlocal done, errors
            i = n
            while time.monotonic() < deadline:
                response = await client.post(url, json=payload(i))
                i += concurrency
                if response.status_code == 200:
                    done += 1
                else:
                    errors += 1

        await asyncio.gather(*(worker(n) for n in range(concurrency)))
    return done, errors


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--concurrency", type=int, default=16)
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="bench-leads-"))

    site = SiteServer(
        free_port(), workdir, RATE_LIMIT_PER_IP="100000000", RATE_LIMIT_PER_EMAIL="100000000", OUTBOX_POLL_SECONDS="1"
    )
    site.migrate()
    site.start()
    bare_port = free_port()
    (workdir / "bare_app.py").write_text(BARE_APP)
    bare = subprocess.Popen(
        [
            str(BIN / "granian"),
            "--interface",
            "asgi",
            "--host",
            "127.0.0.1",
            "--port",
            str(bare_port),
            "--workers",
            "1",
            "--log-level",
            "warning",
            "bare_app:app",
        ],
        cwd=workdir,
        env={**os.environ, "PYTHONPATH": str(workdir)},
    )
    try:
        for _ in range(100):
            try:
                httpx2.post(f"http://127.0.0.1:{bare_port}/api/v1/mail/send", json={})
                break
            except httpx2.HTTPError:
                time.sleep(0.1)
        results = {}
        for name, url in (
            ("bare Starlette JSON", f"http://127.0.0.1:{bare_port}/api/v1/mail/send"),
            ("lead API (store + outbox)", site.url + "/api/v1/mail/send"),
        ):
            asyncio.run(drive(url, 1, args.concurrency))  # warm-up
            done, errors = asyncio.run(drive(url, args.seconds, args.concurrency))
            results[name] = done / args.seconds
            print(f"{name:<28} {done / args.seconds:9.1f} req/s   ({done} ok, {errors} other)")
        bare_rps, lead_rps = results.values()
        print(f"{'ratio lead / bare':<28} {lead_rps / bare_rps:9.2f}")
        print(f"(loopback, {args.concurrency} concurrent clients, {args.seconds:.0f} s each, {os.cpu_count()} cores)")
    finally:
        bare.terminate()
        site.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
