"""On PostgreSQL (TEST_DATABASE_URL), the budgets are counted holding the site's transaction lock
(`pg_advisory_xact_lock`), which every worker and machine takes in turn: two bookings of one
client at the same instant cannot both find the budget unspent. The test holds that lock itself,
sends two bookings of one email (budget 1) from two threads, sees both wait for it, then lets
them go: one is booked, the other refused. On a real database, no mock; skipped on SQLite (whose
write lock is the database's own, tests/test_booking_budgets.py)."""

from __future__ import annotations

import os
import threading
import time

import pytest
from lead_payloads import booking_payload

pytestmark = pytest.mark.skipif(not os.environ.get("TEST_DATABASE_URL"), reason="PostgreSQL only (TEST_DATABASE_URL)")


@pytest.fixture
def scheduler(store, monkeypatch):
    from marketing_site import settings
    from marketing_site.services import booking

    monkeypatch.setenv("BOOKING_BUDGET_PER_EMAIL", "1")
    settings.get_settings.cache_clear()
    return booking


def _waiting_for_advisory_locks(connection) -> int:
    from sqlalchemy import text

    return connection.execute(
        text(
            "SELECT count(*) FROM pg_locks JOIN pg_database ON pg_database.oid = pg_locks.database"
            " WHERE locktype = 'advisory' AND NOT granted AND datname = current_database()"
        )
    ).scalar_one()


def test_two_bookings_of_one_email_at_once_wait_for_the_budgets_lock_and_only_one_is_made(scheduler):
    from sqlalchemy import create_engine, func, select
    from sqlalchemy.pool import NullPool

    from marketing_site.db import get_engine

    slots = scheduler.available_slots()
    payloads = [booking_payload(scheduler.slot_id(slot), email="same.client@example.test") for slot in slots[:2]]
    results: list = []
    holder = create_engine(get_engine().url, poolclass=NullPool)
    watcher = create_engine(get_engine().url, poolclass=NullPool, isolation_level="AUTOCOMMIT")
    with holder.connect() as held, watcher.connect() as watch:
        transaction = held.begin()
        held.execute(select(func.pg_advisory_xact_lock(scheduler._BUDGETS_LOCK)))
        threads = [
            threading.Thread(target=lambda p=payload, n=n: results.append(scheduler.book(p, f"10.0.3.{n}")))
            for n, payload in enumerate(payloads)
        ]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 30
        while _waiting_for_advisory_locks(watch) < 2 and not results and time.monotonic() < deadline:
            time.sleep(0.05)
        waiting, finished_early = _waiting_for_advisory_locks(watch), list(results)
        transaction.commit()  # the lock goes with the transaction
        for thread in threads:
            thread.join(timeout=30)
    holder.dispose()
    watcher.dispose()
    assert finished_early == [], "a booking counted the budgets without the lock"
    assert waiting == 2
    assert sorted(result.status for result in results) == ["booked", "rate_limited"]
