"""The outbox's lease, attempts, back-off and fencing, without a site: services.mail on a fresh
migrated SQLite database and a real SMTP server on loopback (tests/servers.py SmtpSink).

tests/test_outbox.py checks the same transitions on PostgreSQL too, but needs the build's
`workdir` (slow lanes only); these run in `make test-fast`, at the exact boundaries:

- the lease is SMTP_TIMEOUT_SECONDS × 2 + 10 seconds (seconds, not milliseconds): a message being
  sent is not claimed again inside it, and is claimable again only once it is over;
- every claim counts one attempt; a message whose worker never reports ends `failed` after
  OUTBOX_MAX_ATTEMPTS claims, not one sooner nor later;
- a message backing off is not due, and a claim's own UPDATE repeats that test (a message selected
  while due, then given a back-off, is not taken); the back-off doubles per attempt, capped, ±50 %;
- the result of a worker whose claim was taken over (fencing token) changes nothing.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from lead_payloads import outbox_row, queue_outbox_message
from servers import SmtpSink, migrated_sqlite_copy, run_in_own_loop

TIMEOUT_SECONDS = 3  # SMTP_TIMEOUT_SECONDS below
LEASE_SECONDS = TIMEOUT_SECONDS * 2 + 10  # one attempt's deadline, and 10 s to record its result
MAX_ATTEMPTS = 3
RETRY_BASE_SECONDS = 120  # its back-off, 60-180 s, never the 16 s lease


@pytest.fixture(scope="module")
def sink():
    server = SmtpSink().start()
    yield server
    server.stop()


@pytest.fixture
def outbox(tmp_path, monkeypatch, sink):
    from marketing_site import db, settings
    from marketing_site.services import mail

    migrated_sqlite_copy(tmp_path / "outbox.db")
    for name, value in {
        "DATABASE_URL": f"sqlite:///{tmp_path / 'outbox.db'}",
        "SMTP_HOST": "127.0.0.1",
        "SMTP_PORT": str(sink.port),
        "SMTP_STARTTLS": "false",
        "SMTP_TIMEOUT_SECONDS": str(TIMEOUT_SECONDS),
        "OUTBOX_RETRY_BASE_SECONDS": str(RETRY_BASE_SECONDS),
        "OUTBOX_MAX_ATTEMPTS": str(MAX_ATTEMPTS),
    }.items():
        monkeypatch.setenv(name, value)
    settings.get_settings.cache_clear()
    db.engine_for.cache_clear()
    sink.reply = None
    with sink._lock:
        sink.messages.clear()
        sink.envelopes.clear()
    yield mail
    db.get_engine().dispose()
    settings.get_settings.cache_clear()
    db.engine_for.cache_clear()


def _now() -> datetime:
    # Whole seconds: the boundaries below compare stored moments for equality.
    return datetime.now(UTC).replace(microsecond=0)


def _queue(**overrides) -> int:
    return queue_outbox_message(**{"next_attempt_at": _now(), **overrides})


def _aware(moment: datetime | None) -> datetime | None:
    # SQLite hands back naive datetimes; every stored moment is UTC.
    return moment.replace(tzinfo=UTC) if moment is not None and moment.tzinfo is None else moment


def _claimed(outbox, moment: datetime) -> list[int]:
    return [claim.message.id for claim in outbox.claim_due(moment)]


# ------------------------------------------------------------------ the lease


def test_the_lease_is_two_attempt_timeouts_and_ten_seconds(outbox):
    assert outbox.attempt_seconds() == TIMEOUT_SECONDS * 2
    assert outbox.lease_seconds() == LEASE_SECONDS


def test_a_message_being_sent_is_not_claimed_again_inside_its_lease(outbox):
    """Measured in seconds: a lease of milliseconds would hand the message to another worker
    while the first is still talking to the SMTP server (every message sent twice)."""
    message_id = _queue()
    now = _now()
    [claim] = outbox.claim_due(now)
    lease_end = now + timedelta(seconds=LEASE_SECONDS)
    row = outbox_row(message_id)
    assert (row.status, row.claim_token) == ("sending", claim.token)
    assert _aware(row.locked_until) == _aware(row.next_attempt_at) == lease_end
    for later in (timedelta(milliseconds=1), timedelta(seconds=1), timedelta(seconds=LEASE_SECONDS - 1)):
        assert _claimed(outbox, now + later) == [], later
        assert outbox.claim(message_id, now + later) is None, later
    # At the lease's last instant it is still held; just after, another worker may take it.
    assert _claimed(outbox, lease_end) == []
    assert _claimed(outbox, lease_end + timedelta(milliseconds=1)) == [message_id]


# ------------------------------------------------------------------ attempts


def test_each_claim_counts_one_attempt_and_the_last_unreported_one_fails_the_message(outbox):
    message_id = _queue()
    moment = _now()
    for attempt in range(1, MAX_ATTEMPTS + 1):
        assert _claimed(outbox, moment) == [message_id], attempt
        row = outbox_row(message_id)
        assert (row.status, row.attempts) == ("sending", attempt)
        moment += timedelta(seconds=LEASE_SECONDS + 1)  # its worker died: the lease runs out
    # The third attempt was never reported either: failed with the reason, never claimed again.
    assert _claimed(outbox, moment) == []
    row = outbox_row(message_id)
    assert (row.status, row.attempts, row.claim_token, row.locked_until) == ("failed", MAX_ATTEMPTS, None, None)
    assert "no worker reported the outcome of attempt 3" in row.last_error
    assert _aware(row.failed_at) == _aware(row.last_failure_at) == moment


def test_a_message_under_its_last_attempt_is_not_failed_while_the_attempt_runs(outbox):
    message_id = _queue(
        status="sending", attempts=MAX_ATTEMPTS, claim_token="live", locked_until=_now() + timedelta(hours=1)
    )
    assert _claimed(outbox, _now()) == []
    assert (outbox_row(message_id).status, outbox_row(message_id).claim_token) == ("sending", "live")
    # A message with attempts left is claimed again, not failed, once its lease is over.
    other = _queue(
        status="sending", attempts=MAX_ATTEMPTS - 1, claim_token="dead", locked_until=_now() - timedelta(seconds=1)
    )
    assert _claimed(outbox, _now()) == [other]
    assert (outbox_row(other).status, outbox_row(other).attempts) == ("sending", MAX_ATTEMPTS)


def test_sent_and_failed_messages_are_never_claimed(outbox):
    now = _now()
    _queue(status="sent", attempts=1, sent_at=now, next_attempt_at=now - timedelta(hours=1))
    _queue(status="failed", attempts=3, failed_at=now, next_attempt_at=now - timedelta(hours=1))
    assert _claimed(outbox, now + timedelta(days=1)) == []


# ------------------------------------------------------------------ back-off


def test_a_message_is_due_at_its_next_attempt_not_a_moment_before(outbox):
    now = _now()
    message_id = _queue(next_attempt_at=now + timedelta(seconds=30))
    assert _claimed(outbox, now + timedelta(seconds=29)) == []
    # The claim's own UPDATE repeats the due test: selected earlier, it is not taken now.
    assert outbox.claim(message_id, now + timedelta(seconds=29)) is None
    assert (outbox_row(message_id).status, outbox_row(message_id).attempts) == ("pending", 0)
    assert _claimed(outbox, now + timedelta(seconds=30)) == [message_id]


def test_the_longest_due_is_claimed_first(outbox):
    now = _now()
    late = _queue(next_attempt_at=now - timedelta(seconds=1))
    earliest = _queue(next_attempt_at=now - timedelta(seconds=9))
    assert [c.message.id for c in outbox.claim_due(now, limit=1)] == [earliest]
    assert [c.message.id for c in outbox.claim_due(now, limit=1)] == [late]


def test_the_back_off_doubles_per_attempt_capped_with_fifty_percent_of_jitter():
    from marketing_site.services import mail

    random.seed(35)
    for attempts, nominal in ((0, 30), (1, 30), (2, 60), (3, 120), (4, 240), (8, 3600), (30, 3600)):
        draws = [mail.backoff_seconds(attempts, 30) for _ in range(400)]
        assert all(nominal * 0.5 <= d <= nominal * 1.5 for d in draws), attempts
        # The jitter spreads over the whole ±50 % (workers retrying together drift apart).
        assert min(draws) < nominal * 0.55 and max(draws) > nominal * 1.45, attempts


def test_a_temporary_failure_backs_off_and_the_message_is_not_due_meanwhile(outbox, sink):
    message_id = _queue()
    sink.reply = "451 4.3.0 Try again later"
    [claim] = outbox.claim_due(_now())
    assert run_in_own_loop(outbox.send_one(claim)) == "pending"
    row = outbox_row(message_id)
    assert (row.status, row.attempts, row.claim_token, row.locked_until) == ("pending", 1, None, None)
    assert "451" in row.last_error and row.last_failure_at is not None and row.failed_at is None
    waited = (_aware(row.next_attempt_at) - _aware(row.last_failure_at)).total_seconds()
    assert RETRY_BASE_SECONDS * 0.5 <= waited <= RETRY_BASE_SECONDS * 1.5
    assert _claimed(outbox, _aware(row.next_attempt_at) - timedelta(seconds=1)) == []
    # The second attempt backs off about twice as long; the third (the last) fails for good.
    [claim] = outbox.claim_due(_aware(row.next_attempt_at))
    assert run_in_own_loop(outbox.send_one(claim)) == "pending"
    row = outbox_row(message_id)
    waited = (_aware(row.next_attempt_at) - _aware(row.last_failure_at)).total_seconds()
    assert RETRY_BASE_SECONDS * 2 * 0.5 <= waited <= RETRY_BASE_SECONDS * 2 * 1.5
    [claim] = outbox.claim_due(_aware(row.next_attempt_at))
    assert run_in_own_loop(outbox.send_one(claim)) == "failed"
    row = outbox_row(message_id)
    assert (row.status, row.attempts, row.claim_token) == ("failed", MAX_ATTEMPTS, None)
    assert row.failed_at is not None and sink.envelopes == []


def test_a_permanent_refusal_fails_at_once_and_a_success_is_sent_once(outbox, sink):
    refused, accepted = _queue(), _queue(reply_to="other@example.com")
    sink.reply = "550 5.1.1 Mailbox unavailable"
    [claim] = outbox.claim_due(_now(), limit=1)
    assert claim.message.id == refused and run_in_own_loop(outbox.send_one(claim)) == "failed"
    assert (outbox_row(refused).status, outbox_row(refused).attempts) == ("failed", 1) and "550" in outbox_row(
        refused
    ).last_error
    sink.reply = None
    [claim] = outbox.claim_due(_now())
    assert claim.message.id == accepted and run_in_own_loop(outbox.send_one(claim)) == "sent"
    row = outbox_row(accepted)
    assert (row.status, row.claim_token, row.locked_until, row.last_error) == ("sent", None, None, None)
    assert row.sent_at is not None and len(sink.envelopes) == 1 and sink.messages[0]["Message-ID"] == row.message_id
    assert _claimed(outbox, _now() + timedelta(days=1)) == []


# ------------------------------------------------------------------ fencing


def test_a_stale_workers_results_change_nothing(outbox, sink):
    """Worker A stalls past its lease; B takes the message over. Whatever A reports later
    (sent, a retry, a failure), through send_one or directly, the row stays B's."""
    message_id = _queue()
    now = _now()
    [stale] = outbox.claim_due(now)
    [fresh] = outbox.claim_due(now + timedelta(seconds=LEASE_SECONDS + 1))
    assert fresh.message.id == stale.message.id == message_id and fresh.token != stale.token
    before = outbox_row(message_id)
    for status in ("sent", "pending", "failed"):
        assert outbox._record(stale, status=status, last_error="stale") is False
    assert run_in_own_loop(outbox.send_one(stale)) == "stale"  # A's late delivery is not recorded
    after = outbox_row(message_id)
    assert (after.status, after.claim_token, after.attempts, after.last_error) == ("sending", fresh.token, 2, None)
    assert after.locked_until == before.locked_until and after.next_attempt_at == before.next_attempt_at
    # B's own result is recorded.
    assert run_in_own_loop(outbox.send_one(fresh)) == "sent"
    assert (outbox_row(message_id).status, outbox_row(message_id).claim_token) == ("sent", None)


def test_a_retried_message_fences_out_its_old_claim(outbox):
    now = _now()
    message_id = _queue(next_attempt_at=now)
    [claim] = outbox.claim_due(now)
    # Stuck past its lease: an operator puts it back in the queue; the old token goes.
    assert outbox.retry([message_id], all_failed=False, now=now + timedelta(seconds=LEASE_SECONDS + 1)) == 1
    assert (outbox_row(message_id).status, outbox_row(message_id).claim_token) == ("pending", None)
    assert outbox._record(claim, status="failed", last_error="late") is False
    assert outbox_row(message_id).status == "pending"
    # In flight under a live claim, it is left to its worker.
    [live] = outbox.claim_due(now + timedelta(seconds=LEASE_SECONDS + 2))
    assert outbox.retry([message_id], all_failed=False, now=now + timedelta(seconds=LEASE_SECONDS + 3)) == 0
    assert outbox_row(message_id).claim_token == live.token


def test_retry_of_every_failed_message_takes_failed_ones_only(outbox):
    now = _now()
    failed = _queue(status="failed", attempts=3, failed_at=now, last_error="550 refused")
    sent = _queue(status="sent", attempts=1, sent_at=now)
    waiting = _queue(next_attempt_at=now + timedelta(minutes=5))
    in_flight = _queue(next_attempt_at=now - timedelta(seconds=1))
    [claim] = outbox.claim_due(now)
    assert claim.message.id == in_flight
    assert outbox.retry([], all_failed=True, now=now) == 1
    assert [outbox_row(i).status for i in (failed, sent, waiting, in_flight)] == [
        "pending",
        "sent",
        "pending",
        "sending",
    ]
    assert _aware(outbox_row(failed).next_attempt_at) == now and _aware(outbox_row(waiting).next_attempt_at) > now
    # A sent message chosen by id is never sent again.
    assert outbox.retry([sent], all_failed=False, now=now) == 0


def test_a_message_that_cannot_be_composed_stops_no_other(outbox, sink):
    """One pass meets a message whose To is no address: it fails with its reason, and the message
    behind it is sent in the same pass."""
    poisoned = _queue(mail_to="not an address", next_attempt_at=_now() - timedelta(seconds=5))
    healthy = _queue(reply_to="healthy@example.com")
    assert run_in_own_loop(outbox.process_due()) == 2
    row = outbox_row(poisoned)
    assert (row.status, row.attempts, row.claim_token) == ("failed", 1, None)
    assert row.last_error.startswith("could not compose: ") and row.failed_at is not None
    assert outbox_row(healthy).status == "sent" and len(sink.envelopes) == 1


def test_retry_by_id_puts_failed_and_waiting_mail_back_due_now_without_a_claim(outbox):
    now = _now()
    failed = _queue(status="failed", attempts=3, failed_at=now, last_error="550 refused")
    waiting = _queue(next_attempt_at=now + timedelta(minutes=5))
    stuck = _queue(status="sending", attempts=1, claim_token="t", locked_until=now - timedelta(seconds=1))
    assert outbox.retry([failed, waiting, stuck], all_failed=False, now=now) == 3
    for message_id in (failed, waiting, stuck):
        row = outbox_row(message_id)
        assert (row.status, row.claim_token, row.locked_until) == ("pending", None, None)
        assert _aware(row.next_attempt_at) == now
    assert sorted(_claimed(outbox, now)) == sorted([failed, waiting, stuck])


@pytest.mark.parametrize(
    ("reply", "status"),
    [
        ("500 5.5.2 Syntax error", "failed"),
        ("599 5.9.9 No", "failed"),
        ("451 4.3.0 Later", "pending"),
        ("499 4.9.9 Later", "pending"),
    ],
)
def test_a_5xx_answer_fails_for_good_and_a_4xx_one_is_retried(outbox, sink, reply, status):
    message_id = _queue()
    sink.reply = reply
    [claim] = outbox.claim_due(_now())
    assert run_in_own_loop(outbox.send_one(claim)) == status
    row = outbox_row(message_id)
    assert row.status == status and reply[:3] in row.last_error and row.last_failure_at is not None
    assert (row.failed_at is not None) == (status == "failed") and row.claim_token is None


def test_a_refused_connection_is_retried_with_its_reason(outbox, monkeypatch):
    from servers import free_port

    from marketing_site import settings

    monkeypatch.setenv("SMTP_PORT", str(free_port()))  # nothing listens there
    settings.get_settings.cache_clear()
    message_id = _queue()
    [claim] = outbox.claim_due(_now())
    assert run_in_own_loop(outbox.send_one(claim)) == "pending"
    row = outbox_row(message_id)
    assert row.status == "pending" and "Error" in row.last_error and row.last_failure_at is not None


def test_without_smtp_the_mail_is_written_to_the_sink_folder(outbox, monkeypatch, tmp_path):
    """Development without SMTP settings: one .eml per message, its folder made as needed."""
    from marketing_site import settings

    monkeypatch.delenv("SMTP_HOST")
    monkeypatch.setenv("MAIL_SINK_DIR", str(tmp_path / "not" / "yet" / "there"))
    settings.get_settings.cache_clear()
    message_id = _queue()
    [claim] = outbox.claim_due(_now())
    assert run_in_own_loop(outbox.send_one(claim)) == "sent"
    stored = outbox_row(message_id).message_id
    [written] = (tmp_path / "not" / "yet" / "there").iterdir()
    assert written.name == f"{stored[1:-1]}.eml"
    assert f"Message-ID: {stored}".encode() in written.read_bytes()


def test_one_pass_sends_at_most_a_batch(outbox, sink):
    """A pass ends after BATCH messages (the worker then looks again), however many are due."""
    for _ in range(outbox.BATCH + 1):
        _queue(next_attempt_at=_now() - timedelta(seconds=1))
    assert run_in_own_loop(outbox.process_due()) == outbox.BATCH
    assert len(sink.envelopes) == outbox.BATCH


def test_a_message_that_cannot_be_composed_is_failed_by_its_own_claim_only(outbox):
    message_id = _queue(mail_to="not an address")
    now = _now()
    [stale] = outbox.claim_due(now)
    [fresh] = outbox.claim_due(now + timedelta(seconds=LEASE_SECONDS + 1))
    assert run_in_own_loop(outbox.send_one(stale)) == "stale"
    assert (outbox_row(message_id).status, outbox_row(message_id).claim_token) == ("sending", fresh.token)
    assert run_in_own_loop(outbox.send_one(fresh)) == "failed"
    row = outbox_row(message_id)
    assert row.status == "failed" and row.failed_at is not None and row.last_failure_at is not None
