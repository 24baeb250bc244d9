"""No lead is lost: SMTP down at submit time, and the server killed before sending."""

from __future__ import annotations

import signal
import time

import httpx2
import pytest
from lead_payloads import EBOOK_SUBJECT, lead_payload
from servers import SiteServer, SmtpSink, free_port

API = "/api/v1/mail/send"


@pytest.fixture
def faulty(workdir):
    smtp = SmtpSink()  # not started: the mail server is down
    server = SiteServer(free_port(), workdir / f"faults-{time.time_ns()}", smtp)
    server.db_path.parent.mkdir(parents=True)
    server.migrate()
    server.start()
    yield server, smtp
    server.stop()
    smtp.stop()


def _mails_to(smtp, email, wait=1.5):
    time.sleep(wait)  # leave time for an unwanted second delivery to show up
    return smtp.received(subject=EBOOK_SUBJECT, reply_to=email)


def test_smtp_down_at_submit_then_back_delivers_exactly_once(faulty):
    server, smtp = faulty
    email = "down@example.com"
    response = httpx2.post(server.url + API, json=lead_payload(email=email))
    assert response.status_code == 200  # the visitor sees success
    assert server.query("SELECT COUNT(*) FROM lead WHERE email = ?", email) == [(1,)]
    # The worker tries, fails and puts the message back to wait (a loaded machine takes its time).
    deadline = time.monotonic() + 30
    while (row := server.query("SELECT status, attempts FROM outbox_message")) != [] and time.monotonic() < deadline:
        [(status, attempts)] = row
        if status == "pending" and attempts >= 1:
            break
        time.sleep(0.2)
    [(status, attempts)] = server.query("SELECT status, attempts FROM outbox_message")
    assert status == "pending" and attempts >= 1
    smtp.start()
    smtp.wait_for(1, subject=EBOOK_SUBJECT, timeout=30)
    assert len(_mails_to(smtp, email)) == 1
    assert server.query("SELECT status FROM outbox_message") == [("sent",)]


def test_server_killed_between_storing_and_sending_sends_after_restart_once(faulty):
    server, smtp = faulty
    email = "killed@example.com"
    assert httpx2.post(server.url + API, json=lead_payload(email=email)).status_code == 200
    server.stop(signal.SIGKILL)  # no graceful shutdown: the mail was never sent
    assert server.query("SELECT status FROM outbox_message") in ([("pending",)], [("sending",)])
    smtp.start()
    time.sleep(1)
    assert smtp.received() == []
    server.start()
    smtp.wait_for(1, subject=EBOOK_SUBJECT, timeout=30)
    assert len(_mails_to(smtp, email)) == 1, server.query("SELECT status, attempts, last_error FROM outbox_message")
    assert server.query("SELECT COUNT(*) FROM lead") == [(1,)]
