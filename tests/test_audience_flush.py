"""Page views through the moments that lost them (issue 33, finding 1 and 2): two workers
writing their batches at the same moment, a database that refuses a batch, a worker stopped by
SIGTERM while it holds views. On PostgreSQL when TEST_DATABASE_URL is set (the engines lane),
else on SQLite; each view is counted exactly once.
"""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx2
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from servers import (
    BIN,
    MACHINE_ENVIRONMENT,
    PG_PREFIX,
    ROOT,
    SiteServer,
    create_test_database,
    drop_test_database,
    free_port,
    migrated_postgresql_copy,
    migrated_sqlite_copy,
    run_in_own_loop,
)

ENGINE = "postgresql" if os.environ.get("TEST_DATABASE_URL") else "sqlite"
BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36"

# One worker process: adds its share of the views, `rounds` times, and flushes each round at the
# same planned moment as the other worker (a shared clock, not a message: both batches reach
# the database together). Prints the views each flush reported written.
WORKER = """
import json, random, sys, time
from sqlalchemy import text
from marketing_site import routes
from marketing_site.db import new_session
from marketing_site.services import audience

seed, rounds, per_round, every = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
paths = sorted(p for p in routes.public_paths() if p.count("/") == 1)[:10]
views = [
    audience.View(path=path, lang=lang, referrer="", utm_source="drill", utm_medium="", utm_campaign=f"c{c}",
                  utm_content="", utm_term="", device=device)
    for path in paths for lang in ("fr", "en") for device in ("mobile", "desktop") for c in range(50)
]
rng = random.Random(seed)
buffer = audience.ViewBuffer()
written = []
with new_session() as session:  # connected, the routes' table read: ready to write at once
    session.execute(text("SELECT 1"))
    audience._measured_paths()
print("ready", flush=True)
start = float(sys.stdin.readline())
for n in range(rounds):
    for _ in range(per_round):
        buffer.add(rng.choice(views))
    time.sleep(max(0.0, start + n * every - time.time()))
    written.append(buffer.flush())
written.append(buffer.flush())  # what a failed round kept
print(json.dumps({"written": written, "pending": buffer.pending()}))
"""


@pytest.fixture
def database_url(tmp_path):
    if ENGINE == "postgresql":
        name = f"{PG_PREFIX}views_{time.time_ns()}"
        url = create_test_database(name)
        migrated_postgresql_copy(name)
        yield url
        drop_test_database(name)
    else:
        migrated_sqlite_copy(tmp_path / "views.db")
        yield f"sqlite:///{tmp_path / 'views.db'}"


def _sum(database_url: str, table: str) -> int:
    from sqlalchemy import create_engine, text
    from sqlalchemy.pool import NullPool

    engine = create_engine(database_url, poolclass=NullPool)
    try:
        with engine.connect() as connection:
            return int(connection.execute(text(f"SELECT COALESCE(SUM(views), 0) FROM {table}")).scalar_one())
    finally:
        engine.dispose()


def test_two_workers_flushing_at_once_lose_no_view(database_url):
    """4,000 views over 2,000 combinations, two workers each adding 1,000 a round in its own
    random order and writing them at the same moment, two rounds: every view is in the daily totals
    and in each daily sum, once. (Before: batches upserted in arrival order and a refused one
    was dropped.)"""
    rounds, per_round = 2, 1000
    env = {name: os.environ[name] for name in MACHINE_ENVIRONMENT if name in os.environ}
    env.update(
        PATH=f"{BIN}:/usr/local/bin:/usr/bin:/bin",
        PYTHONPATH=str(ROOT),
        DATABASE_URL=database_url,
        ENV_FILE="",
        AUDIENCE_FLUSH_SECONDS="3600",  # no timer: each flush is the planned one
        LOG_LEVEL="WARNING",
    )
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, str(seed), str(rounds), str(per_round), "0.5"],
            cwd=ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for seed in (1, 2)
    ]
    for worker in workers:  # both imported and connected: then one planned moment for both
        assert worker.stdout is not None and worker.stdout.readline().strip() == "ready"
    start = time.time() + 0.3
    for worker in workers:
        assert worker.stdin is not None
        worker.stdin.write(f"{start}\n")
        worker.stdin.flush()
    reports = []
    for worker in workers:
        out, err = worker.communicate(timeout=60)
        assert worker.returncode == 0, err[-3000:]
        reports.append(json.loads(out.strip().splitlines()[-1]))
    total = 2 * rounds * per_round
    assert [report["pending"] for report in reports] == [0, 0]
    assert sum(sum(report["written"]) for report in reports) == total
    assert _sum(database_url, "page_view_day") == total
    assert _sum(database_url, "page_path_day") == total
    assert _sum(database_url, "visit_source_day") == total


def test_a_batch_the_database_refuses_is_kept_and_written_by_the_next_flush(service, monkeypatch, tmp_path):
    """The daily totals' table gone for a moment (as a database that refuses writes): the flush
    writes nothing and keeps the batch; once the table is back, the next flush writes it with
    what arrived meanwhile, each view once."""
    from marketing_site import settings
    from marketing_site.services import audience

    monkeypatch.setenv("AUDIENCE_FLUSH_SECONDS", "3600")
    settings.get_settings.cache_clear()
    buffer = audience.ViewBuffer()
    path = min(p for p in audience._measured_paths() if p.count("/") == 1)
    view = audience.parse_beacon({"path": path, "lang": "fr", "device": "desktop", "utm_campaign": "kept"})
    assert view is not None
    for _ in range(30):
        buffer.add(view)
    database = tmp_path / "leads.db"
    with sqlite3.connect(database) as db:
        db.execute("ALTER TABLE page_view_day RENAME TO page_view_day_away")
    assert buffer.flush() == 0
    assert buffer.pending() == 30
    buffer.add(view)
    with sqlite3.connect(database) as db:
        db.execute("ALTER TABLE page_view_day_away RENAME TO page_view_day")
    assert buffer.flush() == 31
    assert buffer.pending() == 0
    buffer.cancel_timer()
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT SUM(views) FROM page_view_day").fetchone() == (31,)
        assert db.execute("SELECT SUM(views) FROM page_path_day").fetchone() == (31,)


@settings(max_examples=20, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    steps=st.lists(
        st.tuples(st.lists(st.integers(0, 5), max_size=15), st.booleans()),  # views added, database up
        min_size=1,
        max_size=5,
    )
)
def test_through_any_run_of_outages_each_view_is_written_once(service, monkeypatch, tmp_path, steps):
    """Views added between flushes, each flush with the database up or refusing (the table away):
    once it is back, the totals have grown by exactly the views added, none twice, none lost."""
    from marketing_site import settings as site_settings
    from marketing_site.services import audience

    monkeypatch.setenv("AUDIENCE_FLUSH_SECONDS", "3600")
    site_settings.get_settings.cache_clear()
    path = min(p for p in audience._measured_paths() if p.count("/") == 1)
    views = [
        audience.parse_beacon({"path": path, "lang": "fr", "device": "desktop", "utm_campaign": f"o{n}"})
        for n in range(6)
    ]
    database = tmp_path / "leads.db"

    def total() -> int:
        with sqlite3.connect(database) as db:
            return db.execute("SELECT COALESCE(SUM(views), 0) FROM page_path_day").fetchone()[0]

    def table_up(up: bool) -> None:
        with sqlite3.connect(database) as db:
            names = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if up and "page_view_day_away" in names:
                db.execute("ALTER TABLE page_view_day_away RENAME TO page_view_day")
            elif not up and "page_view_day" in names:
                db.execute("ALTER TABLE page_view_day RENAME TO page_view_day_away")

    table_up(True)
    before = total()
    buffer = audience.ViewBuffer()
    added = 0
    for picks, up in steps:
        for n in picks:
            buffer.add(views[n])
        added += len(picks)
        table_up(up)
        buffer.flush()
    table_up(True)
    buffer.flush()
    buffer.cancel_timer()
    assert buffer.pending() == 0
    assert total() - before == added


def test_the_shutdown_hook_writes_what_the_worker_holds_or_says_what_is_lost(service, monkeypatch, tmp_path, caplog):
    """The lifespan hook in-process: with the database up, the held views are written and
    counted in the log; with it refusing them to the end, the loss is logged as an error."""
    import logging

    from marketing_site import settings as site_settings
    from marketing_site.services import audience

    monkeypatch.setenv("AUDIENCE_FLUSH_SECONDS", "3600")
    site_settings.get_settings.cache_clear()
    path = min(p for p in audience._measured_paths() if p.count("/") == 1)
    view = audience.parse_beacon({"path": path, "lang": "en", "device": "mobile"})
    buffer = audience.ViewBuffer()
    monkeypatch.setattr(audience, "BUFFER", buffer)

    async def run_the_lifespan() -> None:
        async with audience.written_at_shutdown():
            for _ in range(7):
                buffer.add(view)

    with caplog.at_level(logging.INFO, logger="marketing_site.services.audience"):
        run_in_own_loop(run_the_lifespan())
        with sqlite3.connect(tmp_path / "leads.db") as db:
            assert db.execute("SELECT SUM(views) FROM page_view_day").fetchone() == (7,)
            db.execute("ALTER TABLE page_view_day RENAME TO page_view_day_away")
        run_in_own_loop(run_the_lifespan())
    messages = [record.getMessage() for record in caplog.records if record.name == audience.__name__]
    assert "audience.written_at_shutdown views=7" in messages
    assert "audience.written_at_shutdown views=0" in messages
    assert any(m.startswith("audience.lost_at_shutdown views=7") for m in messages)
    assert buffer._timer is None  # no later try left behind


def test_only_refusals_that_pass_on_a_second_try_are_retried():
    """Deadlock, serialisation failure, lock not available (PostgreSQL) and SQLite's locked
    database are tried again; anything else (a missing table, a constraint) is not."""
    from sqlalchemy.exc import IntegrityError, OperationalError

    from marketing_site.services import audience

    class PgError(Exception):
        def __init__(self, sqlstate: str):
            self.sqlstate = sqlstate

    for sqlstate in ("40P01", "40001", "55P03"):
        assert audience.is_transient(OperationalError("UPSERT", {}, PgError(sqlstate)))
    assert audience.is_transient(OperationalError("UPSERT", {}, sqlite3.OperationalError("database is locked")))
    assert not audience.is_transient(OperationalError("UPSERT", {}, sqlite3.OperationalError("no such table: x")))
    assert not audience.is_transient(IntegrityError("UPSERT", {}, PgError("23505")))


def test_a_site_stopped_by_sigterm_writes_the_views_its_workers_hold(workdir):
    """A served site gathering views for an hour (AUDIENCE_FLUSH_SECONDS) gets 120 beacons over
    its two workers, then SIGTERM (what systemd and a rolling restart send): all 120 are in the
    database after the stop, and the workers logged what they wrote. (Before: atexit never ran in
    Granian's workers, and every one was lost.)"""
    beacons = 120
    server = SiteServer(free_port(), workdir, workers=2, AUDIENCE_FLUSH_SECONDS="3600")
    server.migrate()
    server.start()
    campaign = f"stop-{uuid.uuid4().hex[:8]}"
    try:
        body = json.dumps(
            {"path": "/compare", "lang": "fr", "referrer": "", "device": "desktop", "utm_campaign": campaign}
        )

        # Eight kept-alive connections, as eight visitors' browsers: the workers share them out.
        with httpx2.Client(timeout=20, limits=httpx2.Limits(max_connections=8)) as client:

            def send(_: int) -> int:
                return client.post(
                    server.url + "/api/v1/audience",
                    content=body,
                    headers={"User-Agent": BROWSER, "Content-Type": "text/plain;charset=UTF-8"},
                ).status_code

            with ThreadPoolExecutor(max_workers=8) as pool:
                assert list(pool.map(send, range(beacons))) == [204] * beacons
        held = server.query("SELECT COALESCE(SUM(views), 0) FROM page_view_day WHERE utm_campaign = ?", campaign)
        assert held == [(0,)]  # all in the workers' memory
    finally:
        server.stop(signal.SIGTERM)
    written = server.query("SELECT COALESCE(SUM(views), 0) FROM page_view_day WHERE utm_campaign = ?", campaign)
    assert written == [(beacons,)]
    log = (Path(ROOT) / "test-artifacts" / f"site-{server.port}.log").read_text(errors="replace")
    reported = [int(n) for n in re.findall(r"audience\.written_at_shutdown views=(\d+)", log)]
    assert sum(reported) == beacons, reported
    assert "audience.lost_at_shutdown" not in log
