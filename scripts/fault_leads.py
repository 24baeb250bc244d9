"""Fault drill (not a test): leads keep coming while a site is killed and Redis restarts.

Two sites ("machines", two workers each) share one PostgreSQL database and one private
Redis on loopback; the client spreads leads over both and retries a failed request on the
other site with the same Idempotency-Key. A third of the way in, site A is killed (SIGKILL,
no graceful shutdown) and started again; two thirds in, Redis is killed and started again
(empty: no persistence). Then the outbox drains and the script prints
"submitted, stored, mailed, duplicates, lost" (exit status 1 unless lost and duplicates are 0).

    .venv/bin/python scripts/fault_leads.py [--count 1200] [--concurrency 16] [--seconds 150]

Bounded in count and time; needs the production frontend built (`make build` once).
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import time

import lead_drill


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=1200)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=150)
    args = parser.parse_args()
    drill = lead_drill.start(sites=2, workers=2)
    events: list[str] = []
    began = time.monotonic()

    def note(text: str) -> None:
        events.append(f"{time.monotonic() - began:5.1f} s  {text}")

    async def faults(done: int) -> None:
        if done == args.count // 3 and not any("site A" in e for e in events):
            site = drill.sites[0]
            note(f"after {done} leads: site A killed (SIGKILL, {len(lead_drill.worker_pids(site))} processes)")
            site.stop(signal.SIGKILL)
            await asyncio.to_thread(site.start)
            note("site A back")
        if done == 2 * args.count // 3 and not any("Redis" in e for e in events):
            note(f"after {done} leads: Redis killed")
            drill.redis.kill()
            await asyncio.sleep(1)
            drill.redis.start()
            note("Redis back (empty)")

    try:
        run, acknowledged, failures = asyncio.run(
            lead_drill.send_all(drill, args.count, args.concurrency, began + args.seconds, on_progress=faults)
        )
        elapsed = time.monotonic() - began
        result = lead_drill.count(drill, run, acknowledged, drain_seconds=90)
        extra = "\n".join(
            [
                (
                    f"({args.count} leads, 1 in 10 sent twice, {args.concurrency} concurrent clients over 2 sites x 2 workers,"
                    f" {elapsed:.1f} s; PostgreSQL + Redis; failures retried: {dict(failures) or 'none'})"
                ),
                *events,
            ]
        )
        return lead_drill.report(result, extra)
    finally:
        lead_drill.stop(drill)


if __name__ == "__main__":
    raise SystemExit(main())
