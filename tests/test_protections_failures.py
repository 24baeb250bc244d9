"""What holds when something fails (issue 39, point 15), build-free:

- the outbox's own deadline against its lease: an SMTP server that answers every step, each
  within SMTP_TIMEOUT_SECONDS but all of them slower than the attempt's deadline (two step
  timeouts), ends the attempt at that deadline, well inside the lease (the deadline plus 10 s to
  record the result), as a temporary failure that is tried again (the server may still take the
  message it was given: at least once, deploy/README.md);
- the page views a worker keeps while the database refuses them: at most KEPT_COMBINATIONS_MAX
  combinations (the oldest kept, the rest counted as lost and logged), and written by a later try
  that nobody has to call (the timer of the next flush, or RETRY_FLUSH_SECONDS when every view is
  written at once);
- error reports: a visitor's address, phone number or email in a dictionary's key (a form field
  named by what the visitor typed, a header's name) is masked as it is in a value, at any depth.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st
from lead_payloads import outbox_row, queue_outbox_message
from servers import SmtpSink, migrated_sqlite_copy, run_in_own_loop

from marketing_site import error_reports

# ----------------------------------------------------------------------------- the outbox

STEP_SECONDS = 2  # SMTP_TIMEOUT_SECONDS: the attempt's deadline is 4 s, the lease 14 s
STEP_DELAY = 1.3  # each step under its own timeout; four of them past the attempt's deadline


class SlowSink(SmtpSink):
    """Answers EHLO, MAIL, RCPT and DATA, each after STEP_DELAY seconds."""

    async def _slow(self) -> None:
        await asyncio.sleep(STEP_DELAY)

    async def handle_EHLO(self, server, session, envelope, hostname, responses):
        await self._slow()
        session.host_name = hostname
        return responses

    async def handle_MAIL(self, server, session, envelope, address, mail_options):
        await self._slow()
        envelope.mail_from = address
        return "250 OK"

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        await self._slow()
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        await self._slow()
        return await super().handle_DATA(server, session, envelope)


@pytest.fixture
def slow_outbox(tmp_path, monkeypatch):
    from marketing_site import db, settings
    from marketing_site.services import mail

    sink = SlowSink().start()
    migrated_sqlite_copy(tmp_path / "outbox.db")
    for name, value in {
        "DATABASE_URL": f"sqlite:///{tmp_path / 'outbox.db'}",
        "SMTP_HOST": "127.0.0.1",
        "SMTP_PORT": str(sink.port),
        "SMTP_STARTTLS": "false",
        "SMTP_TIMEOUT_SECONDS": str(STEP_SECONDS),
        "OUTBOX_RETRY_BASE_SECONDS": "120",
        "OUTBOX_MAX_ATTEMPTS": "3",
    }.items():
        monkeypatch.setenv(name, value)
    settings.get_settings.cache_clear()
    db.engine_for.cache_clear()
    yield mail, sink
    sink.stop()
    db.get_engine().dispose()
    settings.get_settings.cache_clear()
    db.engine_for.cache_clear()


def test_an_attempt_ends_at_its_own_deadline_inside_the_lease(slow_outbox):
    outbox, _sink = slow_outbox
    assert (outbox.attempt_seconds(), outbox.lease_seconds()) == (2 * STEP_SECONDS, 2 * STEP_SECONDS + 10)
    message_id = queue_outbox_message(next_attempt_at=datetime.now(UTC))
    [claim] = outbox.claim_due(datetime.now(UTC))
    started = time.monotonic()
    status = run_in_own_loop(outbox.send_one(claim))
    took = time.monotonic() - started
    assert status == "pending"  # a temporary failure: tried again after its back-off
    assert outbox.attempt_seconds() <= took < outbox.lease_seconds()
    row = outbox_row(message_id)
    assert row.last_error == f"the attempt took longer than {2 * STEP_SECONDS} s"


# ----------------------------------------------------------------------------- page views kept


@pytest.fixture
def views(service, monkeypatch, tmp_path):
    """A buffer of page views on the `service` database, and a switch for its daily totals'
    table (away: the database refuses every batch)."""
    from marketing_site import settings
    from marketing_site.services import audience

    database = tmp_path / "leads.db"
    path = min(p for p in audience._measured_paths() if p.count("/") == 1)

    def view(campaign: str):
        return audience.parse_beacon({"path": path, "lang": "fr", "device": "desktop", "utm_campaign": campaign})

    def table(present: bool) -> None:
        names = ("page_view_day_away", "page_view_day") if present else ("page_view_day", "page_view_day_away")
        with sqlite3.connect(database) as db:
            db.execute(f"ALTER TABLE {names[0]} RENAME TO {names[1]}")

    def written() -> dict[str, int]:
        with sqlite3.connect(database) as db:
            return dict(db.execute("SELECT utm_campaign, SUM(views) FROM page_view_day GROUP BY utm_campaign"))

    def configure(flush_seconds: str) -> None:
        monkeypatch.setenv("AUDIENCE_FLUSH_SECONDS", flush_seconds)
        settings.get_settings.cache_clear()

    buffers = []

    def new_buffer():
        buffers.append(audience.ViewBuffer())
        return buffers[-1]

    yield audience, new_buffer, view, table, written, configure
    for buffer in buffers:
        buffer.cancel_timer()


def _lost(reason: str) -> float:
    from prometheus_client import REGISTRY

    return REGISTRY.get_sample_value("site_audience_views_lost_total", {"reason": reason}) or 0.0


@pytest.mark.parametrize("combinations", [5, 6])
def test_a_worker_keeps_at_most_its_bound_of_combinations_the_oldest_first(views, monkeypatch, caplog, combinations):
    audience, new_buffer, view, table, written, configure = views
    configure("3600")
    monkeypatch.setattr(audience, "KEPT_COMBINATIONS_MAX", 5)
    buffer = new_buffer()
    lost = _lost("outage")
    table(False)
    for n in range(combinations):
        for _ in range(n + 1):  # campaign c<n> has n + 1 views
            buffer.add(view(f"c{n}"))
    with caplog.at_level("ERROR", logger="marketing_site.services.audience"):
        assert buffer.flush() == 0
    assert buffer.pending() == sum(range(1, 6))  # c0 to c4, the oldest five
    dropped = combinations * (combinations + 1) // 2 - sum(range(1, 6))
    assert _lost("outage") - lost == dropped
    assert any("views dropped" in r.getMessage() for r in caplog.records) is bool(dropped)
    table(True)
    assert buffer.flush() == sum(range(1, 6))
    assert written() == {f"c{n}": n + 1 for n in range(5)}


@pytest.mark.parametrize("flush_seconds", ["0", "0.3"])
def test_views_refused_are_written_by_a_later_try_nobody_calls(views, monkeypatch, flush_seconds):
    """Every view written at once (0): the refused one is tried again RETRY_FLUSH_SECONDS later;
    in batches: at the next flush's timer. Here both a fraction of a second."""
    audience, new_buffer, view, table, written, configure = views
    configure(flush_seconds)
    monkeypatch.setattr(audience, "RETRY_FLUSH_SECONDS", 0.3)
    buffer = new_buffer()
    table(False)
    buffer.add(view("kept"))
    if flush_seconds != "0":
        buffer.flush()  # the batch's own timer, fired early: refused
    assert buffer.pending() == 1
    table(True)
    deadline = time.monotonic() + 10
    while written() != {"kept": 1} and time.monotonic() < deadline:
        time.sleep(0.05)  # a flush takes the views out of the buffer, then writes them
    assert written() == {"kept": 1} and buffer.pending() == 0


# ----------------------------------------------------------------------------- error reports

KEY_TEXT = st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=12)


@given(
    email=st.emails(),
    address=st.ip_addresses(v=4).filter(lambda ip: not ip.is_loopback and str(ip) != "0.0.0.0").map(str),
    phone=st.from_regex(r"\+33 [1-9]( [0-9]{2}){4}", fullmatch=True),
    prefix=KEY_TEXT,
    depth=st.integers(0, 3),
    where=st.sampled_from(["extra", "tags", "contexts", "breadcrumb data"]),
)
def test_contact_details_in_a_dictionary_key_are_masked_at_any_depth(email, address, phone, prefix, depth, where):
    key = f"{prefix} {email} {phone} {address}"
    nested: object = {key: "value"}
    for level in range(depth):
        nested = {f"level{level}": nested} if level % 2 else {f"level{level}": [nested, (nested,)]}
    event = {
        "extra": nested if where == "extra" else {},
        "tags": nested if where == "tags" else {},
        "contexts": nested if where == "contexts" else {},
        "breadcrumbs": {"values": [{"message": "m", "data": nested if where == "breadcrumb data" else {}}]},
    }
    sent = json.dumps(error_reports.scrubbed(event), ensure_ascii=False)
    assert email not in sent and phone not in sent and address not in sent
    assert "<email>" in sent
