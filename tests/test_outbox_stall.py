"""The outbox across real site processes: a worker frozen mid-send past its lease (SIGSTOP while
the SMTP server holds its acknowledgement), another site on the same database taking the message
over, the frozen one woken (SIGCONT): the mail is delivered at most twice (the one re-send a lost
acknowledgement forces), with one Message-ID. And a site that cannot write safe mail headers
refuses to start. On PostgreSQL and Redis (two workers a site) in the engines lane."""

from __future__ import annotations

import asyncio
import email
import os
import signal
import threading
import time
import uuid

import httpx2
import pytest
from lead_payloads import lead_payload
from servers import ARTIFACTS, SiteServer, SmtpSink, free_port

# Short SMTP steps, so the lease (2 × 3 s + 10 s) ends within the test.
SMTP_TIMEOUT = "3"


class AcknowledgementHoldingSink(SmtpSink):
    """Takes the first message (it is delivered: counted in `envelopes`) and holds its
    acknowledgement until released: the sender never learns it was delivered."""

    def __init__(self):
        super().__init__()
        self.holding = True
        self.held = threading.Event()
        self.release = threading.Event()

    async def handle_DATA(self, server, session, envelope):
        with self._lock:
            self.messages.append(email.message_from_bytes(envelope.content))
            self.envelopes.append((envelope.mail_from, tuple(envelope.rcpt_tos), bytes(envelope.content)))
            hold, self.holding = self.holding, False
        if hold:
            self.held.set()
            while not self.release.is_set():
                await asyncio.sleep(0.05)
        return "250 OK"


def _wait(condition, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = condition()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def _log(server: SiteServer) -> str:
    return (ARTIFACTS / f"site-{server.port}.log").read_text(errors="replace")


def test_a_worker_frozen_mid_send_past_its_lease_changes_nothing_when_it_wakes(workdir):
    sink = AcknowledgementHoldingSink().start()
    first = SiteServer(free_port(), workdir, sink, SMTP_TIMEOUT_SECONDS=SMTP_TIMEOUT, OUTBOX_POLL_SECONDS="0.5")
    second = None
    stopped = False
    try:
        first.migrate()
        first.start()
        email_address = f"frozen-{uuid.uuid4().hex[:8]}@example.com"
        response = httpx2.post(first.url + "/api/v1/mail/send", json=lead_payload(email=email_address), timeout=20)
        assert response.status_code == 200
        # The first site's worker has handed the message over; the acknowledgement is held. Freeze
        # the whole site (every worker) well within its 3 s wait for that acknowledgement.
        assert sink.held.wait(30), "the first site never sent the message"
        os.killpg(first.proc.pid, signal.SIGSTOP)
        stopped = True
        [(message_id, attempts)] = first.query("SELECT message_id, attempts FROM outbox_message")
        assert attempts == 1
        # A second site on the same database takes the message over once the lease has ended.
        second = SiteServer(
            free_port(),
            workdir,
            sink,
            SMTP_TIMEOUT_SECONDS=SMTP_TIMEOUT,
            OUTBOX_POLL_SECONDS="0.5",
            DATABASE_URL=first.database_url,
        )
        second.start()
        _wait(lambda: len(sink.envelopes) >= 2, 90, "the second site's delivery")
        _wait(lambda: first.query("SELECT status FROM outbox_message") == [("sent",)], 30, "the message sent")
        # The frozen site wakes: its wait for the acknowledgement is long over (a timeout).
        os.killpg(first.proc.pid, signal.SIGCONT)
        stopped = False
        _wait(lambda: "attempt 1 failed" in _log(first), 30, "the woken worker's timeout")
        # Then it records that timeout: ignored and logged, or (without the fencing token) the
        # message back in the queue and sent a third time.
        _wait(lambda: "outlived its claim" in _log(first) or len(sink.envelopes) > 2, 30, "the timeout recorded")
        sink.release.set()
        # Its result changed nothing: the message stays sent, so no worker can claim it again.
        assert first.query("SELECT status, attempts FROM outbox_message") == [("sent", 2)]
        assert "outlived its claim" in _log(first)
        deliveries = [email.message_from_bytes(data)["Message-ID"] for _, _, data in sink.envelopes]
        assert deliveries == [message_id, message_id]  # the one re-send the lost acknowledgement forced
    finally:
        sink.release.set()
        if stopped:
            os.killpg(first.proc.pid, signal.SIGCONT)
        first.stop()
        if second is not None:
            second.stop()
        sink.stop()


def test_a_site_that_cannot_write_a_configured_address_refuses_to_start(workdir):
    site = SiteServer(free_port(), workdir, LEAD_MAIL_TO="sales@intranet local")
    site.migrate()
    try:
        with pytest.raises(RuntimeError, match="the site exited"):
            site.start(timeout=90)
        assert "Refusing to start: mail headers would not be safe" in _log(site)
        assert "LEAD_MAIL_TO" in _log(site)
    finally:
        site.stop()
