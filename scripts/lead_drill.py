"""Shared by scripts/load_leads.py and scripts/fault_leads.py (not a test; loopback only).

Starts what a two-worker deployment needs on loopback: a fresh PostgreSQL database (next to
TEST_DATABASE_URL, default the CI's 127.0.0.1:5432), a private Redis on a free port (so it
can be restarted without touching anybody else's), an SMTP sink, and one or more production
sites. Then sends concurrent lead submissions, each with its own Idempotency-Key, retrying a
failed request (connection refused, 5xx) with the same key, on the next site, as a browser
retry or a load balancer would. Finally it waits for the outbox to drain and counts:

    submitted  leads the API acknowledged (200), each counted once
    stored     of those, leads found in the database
    mailed     of those, leads whose mail the SMTP server received
    duplicates extra lead rows for one submission + extra mails for one lead
    lost       acknowledged but not stored, or stored but never mailed
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path

import httpx2

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from servers import PrivateRedis, SiteServer, SmtpSink, free_port

SUBJECT = "Ebook download - Wealth manager new generation"
os.environ.setdefault("TEST_DATABASE_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres")


@dataclasses.dataclass
class Drill:
    sites: list[SiteServer]
    smtp: SmtpSink
    redis: PrivateRedis
    workdir: Path


def start(sites: int, workers: int) -> Drill:
    workdir = Path(tempfile.mkdtemp(prefix="lead-drill-"))
    redis = PrivateRedis().start()
    os.environ["TEST_REDIS_URL"] = redis.url
    smtp = SmtpSink().start()
    settings = {
        "RATE_LIMIT_PER_IP": "100000000",
        "RATE_LIMIT_PER_EMAIL": "100000000",
        "LEAD_MIN_FILL_SECONDS": "0",
        "OUTBOX_POLL_SECONDS": "0.5",
        "SMTP_TIMEOUT_SECONDS": "3",
        "LOG_LEVEL": "WARNING",
    }
    first = SiteServer(free_port(), workdir, smtp, workers=workers, **settings)
    servers = [first]
    for _ in range(sites - 1):  # the other "machines" share the first one's database and Redis
        other = SiteServer(free_port(), workdir, smtp, workers=workers, **settings)
        other.database_url = first.database_url
        other.env.update(DATABASE_URL=first.database_url, REDIS_KEY_PREFIX=first.env["REDIS_KEY_PREFIX"])
        servers.append(other)
    first.migrate()
    for server in servers:
        server.start()
    return Drill(servers, smtp, redis, workdir)


def stop(drill: Drill) -> None:
    for server in drill.sites:
        server.stop()
    drill.smtp.stop()
    drill.redis.kill()


def payload(n: int, run: str) -> dict:
    return {
        "name": "Charge",
        "firstname": "Léa",
        "phone": "+33 1 23 45 67 89",
        "company": f"Load {run}",
        "email": f"load-{run}-{n}@example.com",
        "subject": SUBJECT,
        "text": "",
        "mailSent": False,
        "error": False,
    }


async def send_all(
    drill: Drill,
    count: int,
    concurrency: int,
    deadline: float,
    on_progress: Callable[[int], Awaitable[None]] | None = None,
) -> tuple[str, dict[int, int], Counter]:
    """Submit `count` leads; returns the run id, {lead n: 200 answers} and the failures seen."""
    run = uuid.uuid4().hex[:8]
    acknowledged: dict[int, int] = {}
    failures: Counter = Counter()
    queue: asyncio.Queue[int] = asyncio.Queue()
    for n in range(count):
        queue.put_nowait(n)
    done = 0
    limits = httpx2.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx2.AsyncClient(timeout=15, limits=limits) as client:

        async def worker(w: int) -> None:
            nonlocal done
            while time.monotonic() < deadline:
                try:
                    n = queue.get_nowait()
                except asyncio.QueueEmpty:
                    return
                key = f"{run}-{n}"
                for attempt in range(20):
                    site = drill.sites[(n + attempt) % len(drill.sites)]
                    try:
                        response = await client.post(
                            site.url + "/api/v1/mail/send", json=payload(n, run), headers={"Idempotency-Key": key}
                        )
                    except httpx2.HTTPError as error:
                        failures[type(error).__name__] += 1
                        await asyncio.sleep(0.2)
                        continue
                    if response.status_code == 200:
                        acknowledged[n] = acknowledged.get(n, 0) + 1
                        # One lead in ten is sent twice (a double click): still one lead, one mail.
                        if n % 10 == 0 and acknowledged[n] == 1:
                            continue
                        break
                    failures[f"HTTP {response.status_code}"] += 1
                    await asyncio.sleep(0.2)
                done += 1
                if on_progress is not None:
                    await on_progress(done)

        await asyncio.gather(*(worker(w) for w in range(concurrency)))
    return run, acknowledged, failures


def count(drill: Drill, run: str, acknowledged: dict[int, int], drain_seconds: float) -> dict[str, int]:
    site = drill.sites[0]
    pattern = f"load-{run}-%@example.com"
    deadline = time.monotonic() + drain_seconds
    while time.monotonic() < deadline:
        [(waiting,)] = site.query(
            "SELECT COUNT(*) FROM outbox_message o JOIN lead l ON l.id = o.lead_id "
            "WHERE l.email LIKE ? AND o.status <> 'sent'",
            pattern,
        )
        if waiting == 0:
            break
        time.sleep(0.5)
    time.sleep(2)  # let a late second delivery show up if there is one
    rows = site.query("SELECT id, email FROM lead WHERE email LIKE ?", pattern)
    per_email = Counter(email for _, email in rows)
    # Message-IDs are random (services.mail.new_message_id): the outbox says whose each one is.
    lead_of = dict(
        site.query(
            "SELECT o.message_id, o.lead_id FROM outbox_message o JOIN lead l ON l.id = o.lead_id WHERE l.email LIKE ?",
            pattern,
        )
    )
    mails = Counter()
    for message in drill.smtp.received(subject=SUBJECT):
        lead_id = lead_of.get(message["Message-ID"] or "")
        if lead_id is not None:
            mails[lead_id] += 1
    submitted = {f"load-{run}-{n}@example.com" for n in acknowledged}
    stored = {email for email in per_email if email in submitted}
    mailed_emails = {email for lead_id, email in rows if mails[lead_id] > 0}
    return {
        "submitted": len(submitted),
        "stored": len(stored),
        "mailed": len(mailed_emails & submitted),
        "duplicates": sum(c - 1 for c in per_email.values()) + sum(c - 1 for c in mails.values()),
        "lost": len(submitted - stored) + len(stored - mailed_emails),
    }


def report(result: dict[str, int], extra: str) -> int:
    print(", ".join(f"{k} {v}" for k, v in result.items()))
    print(extra)
    ok = result["lost"] == 0 and result["duplicates"] == 0 and result["submitted"] > 0
    print("OK" if ok else "FAILED")
    return 0 if ok else 1


def worker_pids(server: SiteServer) -> list[int]:
    """Process ids in the site's process group (supervisor and backend workers)."""
    if server.proc is None:
        return []
    out = subprocess.run(
        ["ps", "-o", "pid=", "-g", str(server.proc.pid)], capture_output=True, text=True, check=False
    ).stdout
    return [int(p) for p in out.split()]
