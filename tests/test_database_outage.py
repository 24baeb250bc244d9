"""Issue 39, finding 8: while the database refused connections, the lead API answered 500 (206
of 900 leads), which neither nginx nor the form retries. Every route that needs the database
now answers 503 with Retry-After (api/unavailable.py), on a real database that cannot be
reached: a PostgreSQL address whose port refuses connections, and a SQLite file in a folder
that does not exist. Liveness stays 200, readiness says `down`; the page-view beacon is still
taken (its buffer keeps the views). Once the database is back, the same request goes through."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest
from lead_payloads import lead_payload
from servers import free_port, migrated_sqlite_copy
from starlette.testclient import TestClient

BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36"


def _settings_cleared():
    from marketing_site import db, settings
    from marketing_site.services import audience, booking, leads

    for cached in (
        settings.get_settings,
        db.engine_for,
        leads._limiters,
        booking._limiter,
        audience._limiter,
        audience._quotas,
    ):
        cached.cache_clear()


@pytest.fixture(params=["postgresql", "sqlite"])
def unreachable(request, tmp_path, monkeypatch):
    """The API app over a database that cannot be reached; `back()` points it at a working one."""
    if request.param == "postgresql":
        url = f"postgresql+psycopg://site@127.0.0.1:{free_port()}/site"  # nothing listens: refused
    else:
        url = f"sqlite:///{tmp_path / 'gone' / 'site.db'}"  # the folder does not exist
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.setenv("MAIL_SINK_DIR", str(tmp_path / "mail"))
    monkeypatch.setenv("AUDIENCE_FLUSH_SECONDS", "0")
    for name in ("BOOKING_WORKING_DAYS", "BOOKING_WORKING_HOURS", "BOOKING_HOLIDAYS", "BOOKING_MIN_NOTICE_MINUTES"):
        monkeypatch.setenv(
            name, {"BOOKING_WORKING_DAYS": "1,2,3,4,5,6,7", "BOOKING_WORKING_HOURS": "00:00-24:00"}.get(name, "")
        )
    monkeypatch.setenv("BOOKING_BUSY_ICS_URL", "")
    monkeypatch.delenv("SMTP_HOST", raising=False)
    monkeypatch.delenv("REFLEX_REDIS_URL", raising=False)
    _settings_cleared()
    from marketing_site.api import api_app

    def back() -> None:
        monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'site.db'}")
        migrated_sqlite_copy(tmp_path / "site.db")
        _settings_cleared()

    yield SimpleNamespace(client=TestClient(api_app(), raise_server_exceptions=False), back=back)
    from marketing_site.services import audience

    audience.BUFFER.cancel_timer()
    with audience.BUFFER._lock:
        audience.BUFFER._counts.clear()
    _settings_cleared()


def _slot() -> str:
    from marketing_site.services import booking

    day = (datetime.now(UTC) + timedelta(days=2)).date()
    return booking.slot_id(booking.Schedule.from_settings().day_starts(day)[20])  # every day works, all day


def _assert_retry_later(response) -> None:
    assert response.status_code == 503, response.text
    assert int(response.headers["retry-after"]) > 0
    assert response.headers["cache-control"] == "no-store"


def test_every_write_answers_503_with_retry_after_and_a_retry_goes_through_once_it_is_back(unreachable):
    site = unreachable.client
    from marketing_site.services import booking

    lead = site.post("/api/v1/mail/send", json=lead_payload(), headers={"Idempotency-Key": "k-1"})
    _assert_retry_later(lead)
    assert lead.json()["retry_after"] == int(lead.headers["retry-after"])
    contact = {k: v for k, v in lead_payload().items() if k in ("name", "firstname", "phone", "company", "email")}
    demo = {**contact, "slot": _slot(), "lang": "fr", "timezone": "Europe/Paris"}
    _assert_retry_later(site.post("/api/v1/booking", json=demo, headers={"Idempotency-Key": "k-2"}))
    _assert_retry_later(site.get("/api/v1/booking/slots"))
    token = booking.cancel_token("A" * 24, datetime.now(UTC) + timedelta(days=1))
    _assert_retry_later(site.post(booking.CANCEL_PATH, data={"token": token}))
    # What needs no database still answers: the beacon (kept in memory), liveness, a readiness
    # that says why it is not ready.
    beacon = {"path": "/", "lang": "fr", "device": "desktop"}
    assert site.post("/api/v1/audience", json=beacon, headers={"User-Agent": BROWSER}).status_code == 204
    assert site.get("/api/v1/health/live").json() == {"status": "alive"}
    ready = site.get("/api/v1/health")
    assert (ready.status_code, ready.json()) == (503, {"status": "down"})

    unreachable.back()
    assert site.post("/api/v1/mail/send", json=lead_payload(), headers={"Idempotency-Key": "k-1"}).status_code == 200
    again = site.post("/api/v1/mail/send", json=lead_payload(), headers={"Idempotency-Key": "k-1"})
    assert again.status_code == 200  # the visitor's retry: the same lead, not a second one
    booked = site.post("/api/v1/booking", json=demo, headers={"Idempotency-Key": "k-2"})
    assert booked.status_code == 201, booked.text
    from lead_payloads import stored_rows

    from marketing_site.db.leads import Lead

    assert len(stored_rows(Lead)) == 2  # the lead and the demo's lead


def test_a_database_error_that_is_no_outage_is_still_a_500_with_a_reference(tmp_path, monkeypatch):
    """A broken schema (a table missing) is the site's fault, not an outage: it must not hide
    behind a 503 that clients retry for ever."""
    import sqlite3

    path = tmp_path / "empty.db"
    sqlite3.connect(path).close()  # a database without the site's tables
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{path}")
    monkeypatch.setenv("MAIL_SINK_DIR", str(tmp_path / "mail"))
    _settings_cleared()
    try:
        from marketing_site.api import api_app

        answer = TestClient(api_app(), raise_server_exceptions=False).post("/api/v1/mail/send", json=lead_payload())
        assert answer.status_code == 500 and "reference" in answer.text
        assert "retry-after" not in answer.headers
    finally:
        _settings_cleared()


def test_readiness_says_down_when_the_database_never_answers_instead_of_hanging(tmp_path, monkeypatch):
    """A machine cut off from its database: a PostgreSQL address that accepts the connection
    and never says a word (as a link that drops every packet after the handshake). libpq has
    no connect timeout of its own; the site's (db.CONNECT_TIMEOUT_SECONDS) makes readiness
    answer `down` while the connection would still hang, and liveness answers all along."""
    import socket
    import threading
    from concurrent.futures import ThreadPoolExecutor

    silent = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []

    def accept() -> None:
        while True:
            try:
                held.append(silent.accept()[0])
            except OSError:
                return

    threading.Thread(target=accept, daemon=True).start()
    monkeypatch.setenv("DATABASE_URL", f"postgresql+psycopg://site@127.0.0.1:{silent.getsockname()[1]}/site")
    _settings_cleared()
    try:
        from marketing_site.api import api_app

        client = TestClient(api_app(), raise_server_exceptions=False)
        with ThreadPoolExecutor(1) as pool:
            ready = pool.submit(client.get, "/api/v1/health")
            assert client.get("/api/v1/health/live").json() == {"status": "alive"}
            # Far beyond the timeout; without one the answer never comes.
            answer = ready.result(timeout=60)
        assert (answer.status_code, answer.json()) == (503, {"status": "down"})
        assert held  # the connection was made, and the database never answered it
    finally:
        silent.close()
        for connection in held:
            connection.close()
        _settings_cleared()


def test_a_refused_batch_of_views_is_tried_again_after_the_flush_delay_never_at_once(unreachable, monkeypatch):
    """Views the database refused are kept, and tried again after AUDIENCE_FLUSH_SECONDS, or
    RETRY_FLUSH_SECONDS when each view is written at once (0): never at once, which would turn
    an outage into a loop against the database."""
    from marketing_site import settings
    from marketing_site.services import audience

    view = audience.parse_beacon({"path": "/", "lang": "fr", "referrer": "", "device": "desktop"})
    for delay, retry in (("0", audience.RETRY_FLUSH_SECONDS), ("0.5", 0.5)):
        monkeypatch.setenv("AUDIENCE_FLUSH_SECONDS", delay)
        settings.get_settings.cache_clear()
        audience.BUFFER.cancel_timer()
        audience.BUFFER.add(view)  # written at once when the delay is 0: refused, kept
        if delay != "0":
            audience.BUFFER.flush()  # the planned flush, refused
        timer = audience.BUFFER._timer
        assert timer is not None and timer.interval == retry, delay
        assert audience.BUFFER.pending() >= 1
    audience.BUFFER.cancel_timer()
