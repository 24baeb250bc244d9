"""Worker drill (not a test): leads keep coming while a worker, then the whole site, is killed.

The production topology on loopback: one site with two backend workers on PostgreSQL and a
private Redis (scripts/lead_drill.py). Leads come from 20 client addresses (127.0.0.2-21), each
retried with its Idempotency-Key from the same address after a refused connection or a 5xx,
as the form does. A third of the way in, one backend worker is SIGKILLed (an out-of-memory
kill): Granian replaces it and the other worker keeps answering. Two thirds in, the whole
process group is SIGKILLed and started again one second later, as the systemd unit
(deploy/nereo-site.service, Restart=always, RestartSec=1) does. Then the outbox drains and it
prints "submitted, stored, mailed, duplicates, lost", the failures the clients retried and how
long the site was away; exit status 1 unless every lead was acknowledged, stored once and mailed.
A mail whose sending was cut by the SIGKILL is sent again (same Message-ID): it is counted apart.

    .venv/bin/python scripts/worker_drill.py [--count 1000] [--concurrency 20] [--seconds 300]

Needs the production frontend built (`make build` once).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import time
import uuid
from collections import Counter
from pathlib import Path

import httpx2
import lead_drill

ADDRESSES = [f"127.0.0.{n}" for n in range(2, 22)]


def backend_workers(site: lead_drill.SiteServer) -> list[int]:
    """Granian's workers: the children of the site's main process."""
    if site.proc is None:
        return []
    pid = site.proc.pid
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except FileNotFoundError:
        return []


async def answers_again(url: str, since: float) -> float:
    """Seconds from `since` until the site answers its liveness path."""
    async with httpx2.AsyncClient(timeout=2) as client:
        while True:
            try:
                if (await client.get(url + "/api/v1/health/live")).status_code == 200:
                    return time.monotonic() - since
            except httpx2.HTTPError:
                pass
            await asyncio.sleep(0.1)


async def drill_run(drill: lead_drill.Drill, count: int, concurrency: int, deadline: float) -> tuple:
    site = drill.sites[0]
    run = uuid.uuid4().hex[:8]
    acknowledged: dict[int, int] = {}
    failures: Counter = Counter()
    events: list[str] = []
    began = time.monotonic()
    queue: asyncio.Queue[int] = asyncio.Queue()
    for n in range(count):
        queue.put_nowait(n)
    done = 0
    clients = {
        address: httpx2.AsyncClient(timeout=15, transport=httpx2.AsyncHTTPTransport(local_address=address))
        for address in ADDRESSES
    }

    def note(text: str) -> None:
        events.append(f"{time.monotonic() - began:6.1f} s  {text}")

    async def faults() -> None:
        while done < count // 3:
            await asyncio.sleep(0.05)
        workers = backend_workers(site)
        os.kill(workers[0], signal.SIGKILL)
        killed = time.monotonic()
        note(f"after {done} leads: backend worker {workers[0]} killed (SIGKILL; workers {workers})")
        while len(backend_workers(site)) < 2 or workers[0] in backend_workers(site):
            await asyncio.sleep(0.1)
        note(f"worker replaced after {time.monotonic() - killed:.1f} s: workers {backend_workers(site)}")
        while done < 2 * count // 3:
            await asyncio.sleep(0.05)
        note(f"after {done} leads: the whole process group killed (SIGKILL)")
        killed = time.monotonic()
        site.stop(signal.SIGKILL)
        await asyncio.sleep(1)  # RestartSec=1
        restart = asyncio.create_task(asyncio.to_thread(site.start))
        away = await answers_again(site.url, killed)
        await restart
        note(f"site answers again {away:.1f} s after the kill (restarted 1 s after it)")

    async def client_task() -> None:
        nonlocal done
        while time.monotonic() < deadline:
            try:
                n = queue.get_nowait()
            except asyncio.QueueEmpty:
                return
            client = clients[ADDRESSES[n % len(ADDRESSES)]]
            key = f"{run}-{n}"
            while time.monotonic() < deadline:
                try:
                    response = await client.post(
                        site.url + "/api/v1/mail/send",
                        json=lead_drill.payload(n, run),
                        headers={"Idempotency-Key": key},
                    )
                except httpx2.HTTPError as error:
                    failures[type(error).__name__] += 1
                    await asyncio.sleep(0.3)
                    continue
                if response.status_code == 200:
                    acknowledged[n] = acknowledged.get(n, 0) + 1
                    break
                failures[f"HTTP {response.status_code}"] += 1
                await asyncio.sleep(0.3)
            done += 1

    fault_task = asyncio.create_task(faults())
    try:
        await asyncio.gather(*(client_task() for _ in range(concurrency)))
        await asyncio.wait_for(fault_task, timeout=max(1.0, deadline - time.monotonic()))
    finally:
        fault_task.cancel()
        for client in clients.values():
            await client.aclose()
    return run, acknowledged, failures, events, time.monotonic() - began


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--concurrency", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=300)
    args = parser.parse_args()
    drill = lead_drill.start(sites=1, workers=2)
    try:
        run, acknowledged, failures, events, elapsed = asyncio.run(
            drill_run(drill, args.count, args.concurrency, time.monotonic() + args.seconds)
        )
        result = lead_drill.count(drill, run, acknowledged, drain_seconds=90)
        missing = args.count - len(acknowledged)
        extra = "\n".join(
            [
                (
                    f"({args.count} leads from {len(ADDRESSES)} addresses, {args.concurrency} concurrent clients,"
                    f" one site x 2 workers, {elapsed:.1f} s; PostgreSQL + Redis; not acknowledged: {missing};"
                    f" failures retried: {dict(failures) or 'none'})"
                ),
                *events,
            ]
        )
        print(", ".join(f"{k} {v}" for k, v in result.items()))
        print(extra)
        [(twice,)] = drill.sites[0].query(
            "SELECT COUNT(*) FROM (SELECT email FROM lead WHERE email LIKE ? GROUP BY email HAVING COUNT(*) > 1) d",
            f"load-{run}-%@example.com",
        )
        # A SIGKILL between the SMTP server's "250 OK" and the row's "sent" sends that mail again
        # (the outbox is at-least-once); it carries the same Message-ID, so a mail client shows one.
        print(f"leads stored twice: {twice}; mails sent twice (same Message-ID): {result['duplicates'] - twice}")
        ok = missing == 0 and twice == 0 and result["lost"] == 0 and result["submitted"] == args.count
        print("OK" if ok else "FAILED")
        return 0 if ok else 1
    finally:
        lead_drill.stop(drill)


if __name__ == "__main__":
    raise SystemExit(main())
