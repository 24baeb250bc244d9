"""Load drill (not a test): concurrent lead submissions through one site with two workers.

PostgreSQL (a fresh database next to TEST_DATABASE_URL, default 127.0.0.1:5432), a private
Redis, an SMTP sink, all on loopback. Bounded: --count leads, --concurrency clients, at most
--seconds of sending; then it waits for the outbox to drain and prints
"submitted, stored, mailed, duplicates, lost" (exit status 1 unless lost and duplicates are 0).

    .venv/bin/python scripts/load_leads.py [--count 1500] [--concurrency 24] [--seconds 120]

Needs the production frontend built (`make build` once).
"""

from __future__ import annotations

import argparse
import asyncio
import time

import lead_drill


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=1500)
    parser.add_argument("--concurrency", type=int, default=24)
    parser.add_argument("--seconds", type=float, default=120)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    drill = lead_drill.start(sites=1, workers=args.workers)
    try:
        pids = lead_drill.worker_pids(drill.sites[0])
        began = time.monotonic()
        run, acknowledged, failures = asyncio.run(
            lead_drill.send_all(drill, args.count, args.concurrency, began + args.seconds)
        )
        elapsed = time.monotonic() - began
        result = lead_drill.count(drill, run, acknowledged, drain_seconds=60)
        extra = (
            f"({args.count} leads, 1 in 10 sent twice, {args.concurrency} concurrent clients, "
            f"{elapsed:.1f} s, {len(acknowledged) / elapsed:.0f} leads/s; site processes {len(pids)} "
            f"(supervisor + {args.workers} workers); PostgreSQL + Redis; failures retried: {dict(failures) or 'none'})"
        )
        return lead_drill.report(result, extra)
    finally:
        lead_drill.stop(drill)


if __name__ == "__main__":
    raise SystemExit(main())
