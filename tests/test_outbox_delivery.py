"""How the outbox talks to its SMTP server and what it reports, build-free: services.mail on a fresh
migrated SQLite database and real aiosmtpd servers on loopback, each set up as a relay can be.

- the configured credentials are given to a relay that requires a login (and none is attempted
  when none is configured); STARTTLS is used when SMTP_STARTTLS says so, with the server's
  certificate verified, and not otherwise; a server silent at one step for longer than
  SMTP_TIMEOUT_SECONDS is given up at that step;
- a refusal at RCPT is permanent only when every recipient got a 5xx answer;
- a booking invitation leaves as calendar clients expect it: the text, the invitation as its
  alternative (text/calendar with the METHOD, quoted-printable), and an .ics attachment;
- each attempt counts once under the outcome the alerts read (deploy/prometheus/site-alerts.yml:
  `outcome="failed"`), and the log lines name the message and what happened to it;
- the worker loop sends what is due when woken, and at its poll otherwise, and outlives a pass
  that fails.
"""

from __future__ import annotations

import asyncio
import email
import logging
import os
import re
import sqlite3
import ssl
import time
from datetime import UTC, datetime, timedelta, timezone
from email.policy import default as default_policy

import pytest
from aiosmtpd.smtp import AuthResult, LoginPassword
from lead_payloads import outbox_row, queue_outbox_message
from prometheus_client import REGISTRY
from servers import SmtpSink, _SinkController, migrated_sqlite_copy, run_in_own_loop, self_signed_certificate

# SMTP_TIMEOUT_SECONDS: generous, so that a loaded machine never times out a step of a loopback
# relay; the step-timeout test sets its own.
TIMEOUT_SECONDS = 10
MAX_ATTEMPTS = 2
LOGGER = "marketing_site.mail"


class ConfigurableSink(SmtpSink):
    """An SmtpSink started with aiosmtpd's own options (a login, STARTTLS), which records the
    logins it was given and whether each accepted message came over TLS; `rcpt_replies` answers
    RCPT TO per address, `data_delay` makes DATA wait."""

    def __init__(self, host: str = "127.0.0.1", requires_login: bool = False, **smtp_options):
        super().__init__()
        self.host = host
        self.smtp_options = smtp_options
        if requires_login:  # over plain text: the loopback relay has no certificate
            self.smtp_options |= {"auth_required": True, "auth_require_tls": False, "authenticator": self.authenticate}
        self.logins: list[tuple[bytes, bytes]] = []
        self.over_tls: list[bool] = []
        self.rcpt_replies: dict[str, str] = {}
        self.data_delay = 0.0

    def start(self) -> ConfigurableSink:
        self._controller = _SinkController(self, hostname=self.host, port=self.port, **self.smtp_options)
        self._controller.start()
        return self

    def authenticate(self, server, session, envelope, mechanism, auth_data) -> AuthResult:
        assert isinstance(auth_data, LoginPassword)
        self.logins.append((auth_data.login, auth_data.password))
        return AuthResult(success=(auth_data.login, auth_data.password) == (b"relay-user", b"relay-secret"))

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address in self.rcpt_replies:
            return self.rcpt_replies[address]
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        await asyncio.sleep(self.data_delay)
        self.over_tls.append(session.ssl is not None)
        return await super().handle_DATA(server, session, envelope)


@pytest.fixture
def outbox(tmp_path, monkeypatch):
    """services.mail on a fresh migrated database (no SMTP server yet: `serve`)."""
    from marketing_site import db, settings
    from marketing_site.services import mail

    migrated_sqlite_copy(tmp_path / "outbox.db")
    for name, value in {
        "DATABASE_URL": f"sqlite:///{tmp_path / 'outbox.db'}",
        "OUTBOX_RETRY_BASE_SECONDS": "120",
        "OUTBOX_MAX_ATTEMPTS": str(MAX_ATTEMPTS),
    }.items():
        monkeypatch.setenv(name, value)
    for name in ("SMTP_USERNAME", "SMTP_PASSWORD"):
        monkeypatch.delenv(name, raising=False)
    settings.get_settings.cache_clear()
    db.engine_for.cache_clear()
    yield mail
    db.get_engine().dispose()
    settings.get_settings.cache_clear()
    db.engine_for.cache_clear()


@pytest.fixture
def serve(outbox, monkeypatch):
    """`serve(sink, **env)` starts the sink and points the outbox at it (more settings in env)."""
    from marketing_site import settings

    sinks: list[SmtpSink] = []

    def start(sink: ConfigurableSink, **env: str) -> ConfigurableSink:
        sinks.append(sink.start())
        for name, value in {
            "SMTP_HOST": sink.host,
            "SMTP_PORT": str(sink.port),
            "SMTP_STARTTLS": "false",
            "SMTP_TIMEOUT_SECONDS": str(TIMEOUT_SECONDS),
            **env,
        }.items():
            monkeypatch.setenv(name, value)
        settings.get_settings.cache_clear()
        return sink

    yield start
    for sink in sinks:
        sink.stop()


def _send(outbox, **overrides) -> tuple[int, str]:
    """Queue one message due now, claim it and send it: its id and the status send_one reports."""
    message_id = queue_outbox_message(next_attempt_at=datetime.now(UTC), **overrides)
    [claim] = outbox.claim_due(datetime.now(UTC))
    assert claim.message.id == message_id
    return message_id, run_in_own_loop(outbox.send_one(claim))


# ----------------------------------------------------------------------------- the relay's options


@pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")
def test_the_configured_credentials_log_in_to_a_relay_that_requires_them(outbox, serve):
    sink = ConfigurableSink(requires_login=True)
    serve(sink, SMTP_USERNAME="relay-user", SMTP_PASSWORD="relay-secret")
    message_id, status = _send(outbox)
    assert status == "sent" and outbox_row(message_id).status == "sent"
    assert sink.logins == [(b"relay-user", b"relay-secret")] and len(sink.envelopes) == 1


@pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")
def test_without_credentials_no_login_is_tried_and_the_relays_refusal_is_kept(outbox, serve):
    sink = ConfigurableSink(requires_login=True)
    serve(sink)
    message_id, status = _send(outbox)
    # 530 (authentication required) is a 5xx answer: the message fails for good, with the reason.
    assert status == "failed" and sink.logins == [] and sink.envelopes == []
    assert outbox_row(message_id).last_error.startswith("530 ")


def _tls_sink(tmp_path, monkeypatch, trusted: bool) -> ConfigurableSink:
    certificate, key = self_signed_certificate(tmp_path)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(certificate, key)
    if trusted:
        # The client verifies the server with the default trust store, which OpenSSL reads from
        # SSL_CERT_FILE when it is set.
        monkeypatch.setenv("SSL_CERT_FILE", str(certificate))
    return ConfigurableSink(tls_context=context)


def test_with_smtp_starttls_the_message_travels_encrypted_to_a_trusted_server(outbox, serve, tmp_path, monkeypatch):
    sink = serve(_tls_sink(tmp_path, monkeypatch, trusted=True), SMTP_STARTTLS="true")
    _message_id, status = _send(outbox)
    assert status == "sent" and sink.over_tls == [True]


def test_a_server_whose_certificate_is_not_trusted_gets_no_message(outbox, serve, tmp_path, monkeypatch):
    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    sink = serve(_tls_sink(tmp_path, monkeypatch, trusted=False), SMTP_STARTTLS="true")
    message_id, status = _send(outbox)
    assert status == "pending" and sink.envelopes == []
    assert "certificate" in outbox_row(message_id).last_error.lower()


def test_without_smtp_starttls_the_site_does_not_upgrade_even_when_offered(outbox, serve, tmp_path, monkeypatch):
    """SMTP_STARTTLS=false is obeyed: a relay on a private network may offer STARTTLS with a
    certificate no public authority signed, which the site would fail to verify. (Here it is
    trusted: only the setting keeps the session in plain text.)"""
    sink = serve(_tls_sink(tmp_path, monkeypatch, trusted=True), SMTP_STARTTLS="false")
    _message_id, status = _send(outbox)
    assert status == "sent" and sink.over_tls == [False]


def test_a_step_silent_past_smtp_timeout_seconds_is_given_up_at_that_step(outbox, serve):
    """One step's own timeout (SMTP_TIMEOUT_SECONDS), not the attempt's deadline (twice it)."""
    sink = ConfigurableSink()
    step_seconds = 3  # a margin of 3 s before the deadline, for the steps before DATA
    sink.data_delay = step_seconds + 2
    serve(sink, SMTP_TIMEOUT_SECONDS=str(step_seconds))
    started = time.monotonic()
    message_id, status = _send(outbox)
    took = time.monotonic() - started
    assert status == "pending" and took < outbox.attempt_seconds()
    # aiosmtplib's own timeout error (SMTPReadTimeoutError and the like), not the deadline's text.
    assert re.match(r"SMTP\w*TimeoutError: ", outbox_row(message_id).last_error)


def test_the_message_goes_to_the_configured_host_and_no_other(outbox, serve):
    """A relay on another loopback address than the default host's (nothing listens on
    127.0.0.1 at that port)."""
    sink = serve(ConfigurableSink(host="127.0.0.2"))
    _message_id, status = _send(outbox)
    assert status == "sent" and len(sink.envelopes) == 1
    assert sink.envelopes[0][1] == ("leads@nereo-wealth.fr",)


def test_an_answer_above_the_5xx_range_at_data_is_not_a_permanent_refusal(outbox, serve):
    sink = serve(ConfigurableSink())
    sink.reply = "600 6.0.0 Not an SMTP answer"
    message_id, status = _send(outbox)
    assert status == outbox_row(message_id).status == "pending"
    assert outbox_row(message_id).last_error == sink.reply


# ----------------------------------------------------------------------------- refusals at RCPT


@pytest.mark.parametrize(
    ("replies", "status"),
    [
        (("550 5.1.1 No such user",), "failed"),
        (("500 5.5.2 Syntax",), "failed"),
        (("599 5.9.9 No",), "failed"),
        (("550 5.1.1 No such user", "554 5.7.1 Rejected"), "failed"),
        (("450 4.2.1 Mailbox busy",), "pending"),
        (("499 4.9.9 Later",), "pending"),
        (("600 6.0.0 Not an SMTP answer",), "pending"),
        # One recipient may yet take it: the whole message is tried again.
        (("550 5.1.1 No such user", "451 4.3.0 Later"), "pending"),
    ],
)
def test_a_refusal_at_rcpt_is_permanent_only_when_every_recipient_got_a_5xx(outbox, serve, replies, status):
    sink = serve(ConfigurableSink())
    recipients = [f"sales{i}@nereo-wealth.fr" for i in range(len(replies))]
    sink.rcpt_replies = dict(zip(recipients, replies, strict=True))
    message_id, sent = _send(outbox, mail_to=", ".join(recipients))
    row = outbox_row(message_id)
    assert sent == row.status == status and sink.envelopes == []
    # The reason names the refused recipients and the server's answers.
    for recipient, reply in zip(recipients, replies, strict=True):
        assert recipient in row.last_error and reply[:3] in row.last_error


# ----------------------------------------------------------------------------- compose


def _invitation(method: str | None) -> str:
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Nereo//Demo scheduler//FR"]
    lines += [f"METHOD:{method}"] if method else []
    lines += [
        "BEGIN:VEVENT",
        "UID:demo-1@nereo-wealth.fr",
        "DTSTAMP:20260301T090000Z",
        "DTSTART:20260302T090000Z",
        "DTEND:20260302T093000Z",
        "SUMMARY:Démonstration Nereo",
        # Mostly outside ASCII (a visitor's name in Cyrillic): left to itself, the email package
        # would encode this part in base64, which no one reads in a mail's source.
        "DESCRIPTION:Демонстрация для Елены Дмитриевны",
        "END:VEVENT",
        "END:VCALENDAR",
    ]
    return "\r\n".join(lines) + "\r\n"


def _composed(outbox, **fields):
    from marketing_site.db.leads import OutboxMessage, utcnow

    values = {
        "message_id": "<invitation-1@nereo-wealth.fr>",
        "mail_from": "Nereo <noreply@nereo-wealth.fr>",
        "mail_to": "Hélène <helene@example.com>, sales@nereo-wealth.fr",
        "reply_to": "sales@nereo-wealth.fr",
        "subject": "Votre démonstration",
        "body": "Bonjour Hélène,\n",
        "created_at": utcnow(),
        **fields,
    }
    composed = outbox.compose(OutboxMessage(**values))
    return composed, email.message_from_bytes(composed.data, policy=default_policy)


@pytest.mark.parametrize(("method", "expected"), [("REQUEST", "REQUEST"), ("CANCEL", "CANCEL"), (None, "PUBLISH")])
def test_a_booking_invitation_is_the_texts_alternative_and_an_ics_attachment(outbox, method, expected):
    ics = _invitation(method)
    composed, parsed = _composed(outbox, calendar_ics=ics)
    assert parsed.get_content_type() == "multipart/mixed"
    alternative, attachment = parsed.get_payload()
    text, calendar = alternative.get_payload()
    assert alternative.get_content_type() == "multipart/alternative"
    assert text.get_content_type() == "text/plain" and text.get_content().splitlines() == ["Bonjour Hélène,"]
    # Shown as an invitation by calendar clients: text/calendar with the calendar's METHOD.
    assert calendar.get_content_type() == "text/calendar"
    assert calendar.get_param("method") == expected
    assert calendar["Content-Transfer-Encoding"] == "quoted-printable"
    assert calendar.get_content() == ics  # CRLF line ends kept, as RFC 5545 wants
    # And as an attachment for the others.
    assert attachment.get_content_type() == "application/ics"
    assert attachment.get_filename() == "invitation.ics" and attachment.is_attachment()
    assert attachment.get_content() == ics.encode()
    assert composed.sender == "noreply@nereo-wealth.fr"
    assert composed.recipients == ("helene@example.com", "sales@nereo-wealth.fr")


def test_a_message_without_invitation_is_its_text_alone(outbox):
    _composed_mail, parsed = _composed(outbox, calendar_ics=None)
    assert parsed.get_content_type() == "text/plain" and not parsed.is_multipart()
    assert parsed["Reply-To"] == "sales@nereo-wealth.fr"
    assert parsed["From"] == "Nereo <noreply@nereo-wealth.fr>"
    assert parsed["To"] == "Hélène <helene@example.com>, sales@nereo-wealth.fr"
    assert parsed["Subject"] == "Votre démonstration"


@pytest.mark.parametrize(
    ("created_at", "date"),
    [
        # SQLite hands back naive moments: UTC, whatever the server's own zone.
        (datetime(2026, 3, 1, 23, 30, 5), "Sun, 01 Mar 2026 23:30:05 +0000"),
        (datetime(2026, 3, 2, 1, 30, 5, tzinfo=timezone(timedelta(hours=2))), "Sun, 01 Mar 2026 23:30:05 +0000"),
    ],
)
def test_the_date_header_is_the_moment_the_message_was_stored_in_utc(outbox, monkeypatch, created_at, date):
    # A server in another zone than UTC: a naive moment must not be read in its local time.
    previous = os.environ.get("TZ")
    monkeypatch.setenv("TZ", "Europe/Paris")
    time.tzset()
    try:
        _composed_mail, parsed = _composed(outbox, created_at=created_at)
    finally:
        if previous is None:
            monkeypatch.delenv("TZ")
        else:
            monkeypatch.setenv("TZ", previous)
        time.tzset()
    assert parsed["Date"] == date


def test_an_unexpected_error_while_sending_is_logged_with_its_trace_and_retried(outbox, monkeypatch, tmp_path, caplog):
    """Without SMTP settings, a sink folder that cannot be made (a file is in the way): no SMTP
    error, yet the message is tried again and the log says what happened."""
    from marketing_site import settings

    (tmp_path / "in-the-way").write_text("")
    monkeypatch.delenv("SMTP_HOST", raising=False)
    monkeypatch.setenv("MAIL_SINK_DIR", str(tmp_path / "in-the-way" / "mail"))
    settings.get_settings.cache_clear()
    caplog.set_level(logging.INFO, logger=LOGGER)
    message_id, status = _send(outbox)
    row = outbox_row(message_id)
    assert status == row.status == "pending" and row.last_error.startswith("NotADirectoryError: ")
    [record] = [r for r in caplog.records if r.name == LOGGER and r.levelno == logging.ERROR]
    assert record.getMessage() == f"outbox message {message_id}: unexpected error while sending"
    assert isinstance(record.exc_info[1], NotADirectoryError)


@pytest.mark.parametrize("reply", ["550 5.1.1 Refused", "451 4.3.0 Later"])
def test_a_refusal_reported_by_a_stale_claim_changes_nothing(outbox, serve, reply):
    """Worker A stalls past its lease, B takes the message over; A's refusal (permanent or not)
    is reported as stale and leaves the row to B."""
    sink = serve(ConfigurableSink())
    sink.reply = reply
    message_id = queue_outbox_message(next_attempt_at=datetime.now(UTC))
    [stale] = outbox.claim_due(datetime.now(UTC))
    [fresh] = outbox.claim_due(datetime.now(UTC) + timedelta(seconds=outbox.lease_seconds() + 1))
    assert run_in_own_loop(outbox.send_one(stale)) == "stale"
    row = outbox_row(message_id)
    assert (row.status, row.claim_token, row.last_error, row.failed_at) == ("sending", fresh.token, None, None)


def test_a_message_sent_after_a_failure_keeps_no_error(outbox, serve):
    sink = serve(ConfigurableSink())
    sink.reply = "451 4.3.0 Later"
    message_id, status = _send(outbox)
    assert status == "pending" and outbox_row(message_id).last_error == sink.reply
    sink.reply = None
    [claim] = outbox.claim_due(datetime.now(UTC) + timedelta(hours=1))
    assert run_in_own_loop(outbox.send_one(claim)) == "sent"
    row = outbox_row(message_id)
    assert (row.status, row.last_error) == ("sent", None) and row.last_failure_at is not None


def test_a_claims_fencing_token_is_unguessable_and_fits_its_column(outbox):
    """At least 128 random bits, and no longer than `claim_token` holds (PostgreSQL refuses a
    longer value: every claim would fail)."""
    from marketing_site.db.leads import OutboxMessage

    column = OutboxMessage.__table__.c.claim_token.type.length
    queue_outbox_message(next_attempt_at=datetime.now(UTC))
    [claim] = outbox.claim_due(datetime.now(UTC))
    assert 22 <= len(claim.token) <= column  # base64url: 22 characters carry 128 bits


# ----------------------------------------------------------------------------- retry by id


def test_retry_by_id_takes_a_stuck_message_with_no_lease_and_leaves_one_whose_lease_ends_now(outbox):
    now = datetime.now(UTC).replace(microsecond=0)
    unleased = queue_outbox_message(status="sending", attempts=1, claim_token="t", locked_until=None)
    held = queue_outbox_message(status="sending", attempts=1, claim_token="u", locked_until=now)
    assert outbox.retry([unleased, held], all_failed=False, now=now) == 1
    assert (outbox_row(unleased).status, outbox_row(unleased).claim_token) == ("pending", None)
    # At its lease's last instant the message is still its worker's.
    assert (outbox_row(held).status, outbox_row(held).claim_token) == ("sending", "u")


# ----------------------------------------------------------------------------- metrics and logs


def _attempts(outcome: str) -> float:
    return REGISTRY.get_sample_value("site_outbox_send_attempts_total", {"outcome": outcome}) or 0.0


def _counted(action) -> dict[str, float]:
    before = {outcome: _attempts(outcome) for outcome in ("sent", "retry", "failed")}
    action()
    return {outcome: _attempts(outcome) - before[outcome] for outcome in before}


def test_each_attempt_counts_once_under_the_outcome_the_alerts_read(outbox, serve):
    sink = serve(ConfigurableSink())
    assert _counted(lambda: _send(outbox)) == {"sent": 1, "retry": 0, "failed": 0}
    assert _counted(lambda: _send(outbox, mail_to="not an address")) == {"sent": 0, "retry": 0, "failed": 1}
    sink.reply = "550 5.1.1 Refused"
    assert _counted(lambda: _send(outbox)) == {"sent": 0, "retry": 0, "failed": 1}
    sink.reply = "451 4.3.0 Later"
    message_id = queue_outbox_message(next_attempt_at=datetime.now(UTC))
    for outcome in ("retry", "failed"):  # MAX_ATTEMPTS = 2: a retry, then the last attempt fails
        [claim] = outbox.claim_due(datetime.now(UTC) + timedelta(hours=1))
        assert claim.message.id == message_id
        counted = _counted(lambda claim=claim: run_in_own_loop(outbox.send_one(claim)))
        assert counted == {"sent": 0, "retry": 0, "failed": 0, outcome: 1}
    assert outbox_row(message_id).status == "failed"


def _logged(caplog) -> list[tuple[int, str]]:
    return [(record.levelno, record.getMessage()) for record in caplog.records if record.name == LOGGER]


def test_each_outcome_is_logged_with_the_message_and_its_reason(outbox, serve, caplog):
    sink = serve(ConfigurableSink())
    caplog.set_level(logging.INFO, logger=LOGGER)
    sent, _ = _send(outbox)
    assert (logging.INFO, f"outbox message {sent} sent") in _logged(caplog)
    sink.reply = "550 5.1.1 Refused"
    refused, _ = _send(outbox)
    assert (logging.ERROR, f"outbox message {refused} refused permanently: 550 5.1.1 Refused") in _logged(caplog)
    sink.reply = "451 4.3.0 Later"
    later, _ = _send(outbox)
    assert (logging.WARNING, f"outbox message {later} attempt 1 failed: 451 4.3.0 Later") in _logged(caplog)
    poisoned, _ = _send(outbox, mail_to="not an address")
    [(level, line)] = [entry for entry in _logged(caplog) if entry[1].startswith(f"outbox message {poisoned} ")]
    assert level == logging.ERROR and line.startswith(f"outbox message {poisoned} could not compose: HeaderRefused: ")


def test_a_stale_claims_result_is_logged_with_the_attempt_and_the_result_dropped(outbox, serve, caplog):
    serve(ConfigurableSink())
    caplog.set_level(logging.INFO, logger=LOGGER)
    message_id = queue_outbox_message(next_attempt_at=datetime.now(UTC))
    [stale] = outbox.claim_due(datetime.now(UTC))
    [fresh] = outbox.claim_due(datetime.now(UTC) + timedelta(seconds=outbox.lease_seconds() + 1))
    assert run_in_own_loop(outbox.send_one(stale)) == "stale"
    # The live claim's result is recorded without a warning.
    assert run_in_own_loop(outbox.send_one(fresh)) == "sent"
    warnings = [line for level, line in _logged(caplog) if level == logging.WARNING]
    expected = (
        f"outbox message {message_id}: attempt 1 outlived its claim (another worker took the message over);"
        " its result (sent) is not recorded"
    )
    assert warnings == [expected]


def test_messages_failed_for_want_of_a_report_are_logged_and_say_a_resend_may_duplicate(outbox, serve, caplog):
    serve(ConfigurableSink())
    caplog.set_level(logging.INFO, logger=LOGGER)
    message_id = queue_outbox_message(
        status="sending",
        attempts=MAX_ATTEMPTS,
        claim_token="dead",
        locked_until=datetime.now(UTC) - timedelta(seconds=1),
    )
    assert outbox.claim_due(datetime.now(UTC)) == []
    assert _logged(caplog) == [(logging.ERROR, "outbox: messages failed after their last attempt was never reported")]
    # What the operator reads (`ops outbox`, the console) before putting it back in the queue.
    assert outbox_row(message_id).last_error == (
        f"no worker reported the outcome of attempt {MAX_ATTEMPTS}: its process stopped or stalled past its lease"
        " (a resend may be a duplicate)"
    )
    caplog.clear()
    assert outbox.claim_due(datetime.now(UTC)) == [] and _logged(caplog) == []


def test_a_result_that_cannot_be_recorded_ends_neither_the_pass_nor_the_other_messages(outbox, serve, tmp_path, caplog):
    """The database refuses one message's result (a trigger on that row, as a full disk or a lost
    connection would): the pass logs it and sends the next one; the claim's lease frees the first."""
    sink = serve(ConfigurableSink())
    caplog.set_level(logging.INFO, logger=LOGGER)
    unrecorded = queue_outbox_message(next_attempt_at=datetime.now(UTC) - timedelta(seconds=5))
    recorded = queue_outbox_message(next_attempt_at=datetime.now(UTC))
    with sqlite3.connect(tmp_path / "outbox.db") as db:
        db.execute(
            "CREATE TRIGGER refuse_result BEFORE UPDATE OF status ON outbox_message"
            f" WHEN OLD.id = {unrecorded} AND NEW.status = 'sent' BEGIN SELECT RAISE(ABORT, 'disk full'); END"
        )
    assert run_in_own_loop(outbox.process_due()) == 2
    assert (outbox_row(unrecorded).status, outbox_row(recorded).status) == ("sending", "sent")
    assert len(sink.envelopes) == 2
    [record] = [r for r in caplog.records if r.name == LOGGER and r.levelno == logging.ERROR]
    assert record.getMessage() == f"outbox message {unrecorded}: its result could not be recorded"
    assert record.exc_info is not None and "disk full" in str(record.exc_info[1])


# ----------------------------------------------------------------------------- the worker loop


def _rename_outbox(database, away: bool) -> None:
    names = ("outbox_message", "outbox_message_away") if away else ("outbox_message_away", "outbox_message")
    with sqlite3.connect(database) as db:
        db.execute(f"ALTER TABLE {names[0]} RENAME TO {names[1]}")


async def _until(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if await asyncio.to_thread(condition):
            return True
        await asyncio.sleep(0.05)
    return False


def _run_worker(outbox, scenario) -> None:
    async def run() -> None:
        worker = asyncio.create_task(outbox.run_outbox_worker())
        try:
            await asyncio.sleep(0.3)  # its first pass: nothing is due yet
            await scenario()
        finally:
            worker.cancel()
            with pytest.raises(asyncio.CancelledError):
                await worker

    run_in_own_loop(run())


def test_a_stored_message_wakes_the_worker_long_before_its_poll(outbox, serve):
    sink = serve(ConfigurableSink(), OUTBOX_POLL_SECONDS="60")

    async def scenario() -> None:
        message_id = await asyncio.to_thread(queue_outbox_message, next_attempt_at=datetime.now(UTC))
        await asyncio.to_thread(outbox.wake_worker)  # from another thread, as a request's
        assert await _until(lambda: outbox_row(message_id).status == "sent", 5)
        # Woken once, it waits for the next wake-up again: a message stored without one waits.
        other = await asyncio.to_thread(queue_outbox_message, next_attempt_at=datetime.now(UTC))
        assert not await _until(lambda: outbox_row(other).status == "sent", 1)
        await asyncio.to_thread(outbox.wake_worker)
        assert await _until(lambda: outbox_row(other).status == "sent", 5)

    _run_worker(outbox, scenario)
    assert len(sink.envelopes) == 2


def test_without_a_wake_up_the_worker_sends_at_its_poll(outbox, serve):
    serve(ConfigurableSink(), OUTBOX_POLL_SECONDS="0.5")

    async def scenario() -> None:
        message_id = await asyncio.to_thread(queue_outbox_message, next_attempt_at=datetime.now(UTC))
        assert await _until(lambda: outbox_row(message_id).status == "sent", 5)

    _run_worker(outbox, scenario)


def test_a_failed_pass_leaves_the_worker_running(outbox, serve, tmp_path, caplog):
    serve(ConfigurableSink(), OUTBOX_POLL_SECONDS="0.3")
    caplog.set_level(logging.INFO, logger=LOGGER)
    message_id = queue_outbox_message(next_attempt_at=datetime.now(UTC))
    _rename_outbox(tmp_path / "outbox.db", away=True)

    async def scenario() -> None:
        assert await _until(lambda: (logging.ERROR, "outbox worker pass failed") in _logged(caplog), 5)
        await asyncio.to_thread(_rename_outbox, tmp_path / "outbox.db", False)
        assert await _until(lambda: outbox_row(message_id).status == "sent", 5)

    _run_worker(outbox, scenario)


def test_waking_a_worker_that_never_ran_or_has_stopped_does_nothing(outbox):
    from marketing_site.services.mail import _Wakeup

    wakeup = _Wakeup()
    wakeup.set()  # never bound: no loop to wake
    run_in_own_loop(_bind(wakeup))  # asyncio.run: the loop is closed when it returns
    wakeup.set()  # its loop closed: nothing to wake, and no error


async def _bind(wakeup) -> None:
    event = wakeup.bind()
    wakeup.set()
    await asyncio.wait_for(event.wait(), timeout=1)


# ----------------------------------------------------------------------------- the start-up check


@pytest.mark.parametrize("setting", ["MAIL_FROM", "LEAD_MAIL_TO", "BOOKING_ORGANIZER_EMAIL"])
def test_the_start_up_check_names_each_configured_address_it_cannot_write(outbox, monkeypatch, setting):
    from marketing_site import settings

    monkeypatch.setenv(setting, "sales@intranet local")
    settings.get_settings.cache_clear()
    with pytest.raises(RuntimeError) as refused:
        outbox.check_startup()
    prefix = "Refusing to start: mail headers would not be safe: "
    assert str(refused.value).startswith(f"{prefix}{setting} cannot be written as an address header: ")


def test_the_start_up_check_lists_every_address_it_cannot_write(outbox, monkeypatch):
    from marketing_site import settings

    for setting in ("MAIL_FROM", "BOOKING_ORGANIZER_EMAIL"):
        monkeypatch.setenv(setting, "sales@intranet local")
    settings.get_settings.cache_clear()
    with pytest.raises(RuntimeError) as refused:
        outbox.check_startup()
    problems = str(refused.value).removeprefix("Refusing to start: mail headers would not be safe: ").split("; ")
    assert [problem.split(" ", 1)[0] for problem in problems] == ["MAIL_FROM", "BOOKING_ORGANIZER_EMAIL"]
