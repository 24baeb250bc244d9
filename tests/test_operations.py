"""Operations: retention purge and its command (two overlapping purges report each deletion
once), logs without personal data, health, shared rate limits in Redis (when TEST_REDIS_URL is set)."""

from __future__ import annotations

import io
import json
import logging
import os
import threading
import time
import uuid
from datetime import UTC, datetime, timedelta

import pytest
from lead_payloads import lead_payload
from sqlalchemy import update


def test_months_before_clamps_to_the_end_of_the_month():
    from marketing_site.services.retention import months_before

    assert months_before(datetime(2026, 3, 31, 12, tzinfo=UTC), 1) == datetime(2026, 2, 28, 12, tzinfo=UTC)
    assert months_before(datetime(2026, 1, 15, tzinfo=UTC), 36) == datetime(2023, 1, 15, tzinfo=UTC)


def _age(service, email: str, days: int) -> None:
    from marketing_site.db import new_session
    from marketing_site.db.leads import Lead

    with new_session() as session, session.begin():
        session.execute(
            update(Lead).where(Lead.email == email).values(created_at=datetime.now(UTC) - timedelta(days=days))
        )


def test_purge_deletes_prospects_whose_last_contact_is_older_than_the_period(service, capsys):
    from lead_payloads import stored_rows

    from marketing_site import ops
    from marketing_site.db.leads import Lead, OutboxMessage

    for email in ("old@example.com", "recent@example.com"):
        assert service.submit_lead(lead_payload(email=email), "10.0.0.1").status == "accepted"
    _age(service, "old@example.com", 4 * 365)
    _age(service, "recent@example.com", 4 * 365)
    # The recent prospect came back last month: their old lead is kept too (last contact).
    assert (
        service.submit_lead(
            lead_payload("white_paper", email="Recent@example.com"),
            "10.0.0.2",
        ).status
        == "accepted"
    )
    assert ops.main(["purge", "--dry-run"]) == 0
    assert "would delete 1 lead(s) and 1 mail(s) of 1 prospect(s)" in capsys.readouterr().out
    assert len(stored_rows(Lead)) == 3
    assert ops.main(["purge", "--months", "36"]) == 0
    assert "deleted 1 lead(s) and 1 mail(s) of 1 prospect(s)" in capsys.readouterr().out
    assert sorted(lead.email.lower() for lead in stored_rows(Lead)) == ["recent@example.com"] * 2
    assert len(stored_rows(OutboxMessage)) == 2


@pytest.fixture(params=["sqlite", "postgresql"])
def purge_database(request, service, monkeypatch):
    """The service modules on a fresh migrated database of each engine (PostgreSQL with
    TEST_DATABASE_URL): its URL."""
    from servers import PG_PREFIX, migrated_postgresql_copy

    from marketing_site import db, settings

    if request.param == "sqlite":
        return os.environ["DATABASE_URL"]
    if not os.environ.get("TEST_DATABASE_URL"):
        pytest.skip("TEST_DATABASE_URL not set")
    name = f"{PG_PREFIX}purge_{time.time_ns()}"
    migrated_postgresql_copy(name)
    url = os.environ["TEST_DATABASE_URL"].rsplit("/", 1)[0] + "/" + name
    monkeypatch.setenv("DATABASE_URL", url)
    for cached in (settings.get_settings, db.engine_for):
        cached.cache_clear()
    return url


def test_two_overlapping_purges_report_each_deletion_once(purge_database, service):
    """Cron on two machines: two purges start while a third transaction holds the stale leads,
    so both are in flight at once. Between them they report each lead, mail and prospect once
    (and the second does not fail)."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.pool import NullPool

    from marketing_site.services.retention import purge_leads

    stale = [f"stale-{n}@example.com" for n in range(5)]
    for email in stale:
        assert service.submit_lead(lead_payload(email=email), "10.0.0.9").status == "accepted"
        _age(service, email, 4 * 365)
    blocker = create_engine(purge_database, poolclass=NullPool).connect()
    postgresql = purge_database.startswith("postgresql")
    # Hold what both purges need: the stale leads' rows (PostgreSQL), the write lock (SQLite).
    if postgresql:
        blocker.execute(text("SELECT id FROM lead FOR UPDATE"))
    else:
        blocker.exec_driver_sql("BEGIN IMMEDIATE")
    results, errors = [], []

    def purge() -> None:
        try:
            results.append(purge_leads(36))
        except Exception as error:  # noqa: BLE001 (reported by the assertion below)
            errors.append(error)

    threads = [threading.Thread(target=purge) for _ in range(2)]
    for thread in threads:
        thread.start()
    try:
        if postgresql:  # both purges wait on a lock (a minute at most on a busy machine)
            # Read outside the blocker's transaction: a transaction sees one snapshot of the view.
            watcher = create_engine(purge_database, poolclass=NullPool, isolation_level="AUTOCOMMIT")
            with watcher.connect() as watching:
                for _ in range(600):
                    waiting = watching.execute(
                        text(
                            "SELECT COUNT(*) FROM pg_stat_activity"
                            " WHERE datname = current_database() AND wait_event_type = 'Lock'"
                        )
                    ).scalar()
                    if waiting == 2:
                        break
                    time.sleep(0.1)
            watcher.dispose()
            assert waiting == 2
        else:  # SQLite says nothing of its waiters: give both a second to reach the lock
            time.sleep(1)
    finally:
        if postgresql:
            blocker.rollback()
        else:
            blocker.exec_driver_sql("ROLLBACK")
        blocker.close()
        for thread in threads:
            thread.join(60)
    assert errors == []
    assert sum(r.leads for r in results) == 5
    assert sum(r.mails for r in results) == 5
    assert sum(r.prospects for r in results) == 5
    assert sorted(r.leads for r in results) == [0, 5]


def test_log_lines_are_json_and_carry_no_contact_details():
    from marketing_site.logs import RedactingFormatter

    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(RedactingFormatter(as_json=True))
    logger = logging.getLogger(f"marketing_site.test.{uuid.uuid4().hex}")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        raise RuntimeError("refused {'jean.dupont@example.com': (550, 'no')} +33 6 12 34 56 78")
    except RuntimeError as error:
        logger.warning("outbox message %s failed: %s (at 2026-01-02 10:00:00)", 12, error, exc_info=True)
    line = stream.getvalue().splitlines()[0]
    entry = json.loads(line)
    text = stream.getvalue()
    assert entry["level"] == "WARNING" and "outbox message 12 failed" in entry["msg"]
    assert "jean.dupont" not in text and "12 34 56 78" not in text
    assert "<email>" in entry["msg"] and "<phone>" in entry["msg"]
    assert "2026-01-02 10:00:00" in entry["msg"]


def test_health_reports_database_and_outbox(service):
    from marketing_site.services.health import check_database

    assert service.submit_lead(lead_payload(email="health@example.com"), "10.0.0.3").status == "accepted"
    database, outbox = check_database()
    assert database == "ok"
    assert outbox["pending"] == 1 and outbox["failed"] == 0 and outbox["status"] == "ok"


@pytest.mark.skipif(not os.environ.get("TEST_REDIS_URL"), reason="TEST_REDIS_URL not set")
def test_redis_rate_limits_are_shared_between_limiters():
    from marketing_site.services.rate_limit import RedisRateLimiter

    prefix = f"mstest:{uuid.uuid4().hex}:"
    first, second = (RedisRateLimiter(3, 60, os.environ["TEST_REDIS_URL"], prefix=prefix) for _ in range(2))
    results = [first.hit("ip:x"), second.hit("ip:x"), first.hit("ip:x"), second.hit("ip:x")]
    assert results[:3] == [None, None, None] and 0 < results[3] <= 60
    assert second.hit("email:y", token="k") is None and first.hit("email:y", token="k") is None


def test_a_hit_given_back_frees_its_place_in_memory_and_in_redis():
    """A booking that lost its slot at the same instant gives its budget back (services.booking)."""
    from marketing_site.services.rate_limit import RateLimiter, RedisRateLimiter

    limiters = [RateLimiter(1, 60)]
    if os.environ.get("TEST_REDIS_URL"):
        limiters.append(RedisRateLimiter(1, 60, os.environ["TEST_REDIS_URL"], prefix=f"mstest:{uuid.uuid4().hex}:"))
    for limiter in limiters:
        assert limiter.hit("budget", token="first") is None
        assert limiter.hit("budget", token="second") is not None
        limiter.release("budget", "first")
        assert limiter.hit("budget", token="second") is None
        assert limiter.hit("budget", token="third") is not None


def test_rate_limiter_falls_back_to_memory_when_redis_is_down(caplog):
    from marketing_site.services.rate_limit import RedisRateLimiter

    limiter = RedisRateLimiter(1, 60, "redis://127.0.0.1:1/0")
    assert limiter.hit("ip:z") is None
    assert limiter.hit("ip:z") is not None
