"""The mail outbox worker: claims due messages with a lease, sends them, records the result.

Delivery is at-least-once: a message is marked sent only after the SMTP server accepted it,
and a message whose worker died mid-way is claimed again once its lease expires. Each
message has a stable Message-ID so a rare resend after a crash can be recognised.
Temporary failures (timeouts, refused connections, 4xx) are retried with exponential
backoff and jitter; 5xx answers are permanent failures. Without SMTP settings, mail goes
to `.eml` files in MAIL_SINK_DIR (one file per message: a retry cannot duplicate it).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import re
import threading
from collections.abc import Sequence
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.utils import formatdate
from pathlib import Path

import aiosmtplib
from icalendar import Calendar
from sqlalchemy import or_, update
from sqlmodel import col, select

from marketing_site import metrics
from marketing_site.db import new_session, rows_changed
from marketing_site.db.leads import OutboxMessage, utcnow
from marketing_site.settings import get_settings

log = logging.getLogger("marketing_site.mail")

MAX_BACKOFF_SECONDS = 3600
BATCH = 20


class TemporaryFailure(Exception):
    """Worth trying again later."""


class PermanentFailure(Exception):
    """The server refused the message for good."""


def make_message_id(outbox_key: int | str) -> str:
    domain = get_settings().mail_from.rsplit("@", 1)[-1].strip("> ") or "localhost"
    return f"<lead-{outbox_key}@{domain}>"


def compose(message: OutboxMessage) -> EmailMessage:
    mail = EmailMessage()
    mail["From"] = message.mail_from
    mail["To"] = message.mail_to
    mail["Reply-To"] = message.reply_to
    mail["Subject"] = message.subject
    mail["Message-ID"] = message.message_id
    mail["Date"] = formatdate(message.created_at.timestamp(), localtime=False)
    mail.set_content(message.body)
    if message.calendar_ics:
        # As calendar clients expect: the invitation as an alternative of the text (shown as
        # an invitation, with its METHOD) and as an .ics attachment (for the others).
        method = str(Calendar.from_ical(message.calendar_ics).get("METHOD", "PUBLISH"))
        # Quoted-printable keeps the text readable; lines travel with CRLF as RFC 5545 wants.
        mail.add_alternative(
            message.calendar_ics, subtype="calendar", cte="quoted-printable", params={"method": method}
        )
        mail.add_attachment(
            message.calendar_ics.encode(), maintype="application", subtype="ics", filename="invitation.ics"
        )
    return mail


async def deliver(mail: EmailMessage) -> None:
    """Hand one message to the SMTP server, or to the file sink when none is configured."""
    settings = get_settings()
    if not settings.smtp_host:
        await asyncio.to_thread(_write_to_sink, mail, Path(settings.mail_sink_dir))
        return
    try:
        await aiosmtplib.send(
            mail,
            hostname=settings.smtp_host,
            port=settings.smtp_port,
            username=settings.smtp_username or None,
            password=settings.smtp_password.get_secret_value() or None,
            start_tls=settings.smtp_starttls,
            timeout=settings.smtp_timeout_seconds,
        )
    except aiosmtplib.SMTPRecipientsRefused as error:
        codes = [r.code for r in error.recipients]
        if codes and all(500 <= c < 600 for c in codes):
            raise PermanentFailure(str(error)) from error
        raise TemporaryFailure(str(error)) from error
    except aiosmtplib.SMTPResponseException as error:
        if 500 <= error.code < 600:
            raise PermanentFailure(f"{error.code} {error.message}") from error
        raise TemporaryFailure(f"{error.code} {error.message}") from error
    except (TimeoutError, aiosmtplib.SMTPException, OSError) as error:
        raise TemporaryFailure(f"{type(error).__name__}: {error}") from error


def _write_to_sink(mail: EmailMessage, folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    name = re.sub(r"[^A-Za-z0-9@._-]", "", mail["Message-ID"]) + ".eml"
    tmp = folder / f".{name}.tmp"
    tmp.write_bytes(bytes(mail))
    os.replace(tmp, folder / name)


def backoff_seconds(attempts: int, base: float) -> float:
    """Exponential backoff with jitter: base, 2×base, 4×base… capped, ±50 %."""
    delay = min(base * 2 ** max(attempts - 1, 0), MAX_BACKOFF_SECONDS)
    return delay * random.uniform(0.5, 1.5)


def claim_due(now: datetime, limit: int = BATCH) -> list[OutboxMessage]:
    """Claim up to `limit` due messages; a message is claimed by exactly one worker."""
    claimed = []
    # Long enough for one delivery attempt; a worker that died mid-way frees it when it ends.
    lease = timedelta(seconds=get_settings().smtp_timeout_seconds * 2 + 10)
    free = or_(col(OutboxMessage.locked_until).is_(None), col(OutboxMessage.locked_until) < now)
    with new_session() as session:
        candidates = session.exec(
            select(OutboxMessage.id)
            .where(col(OutboxMessage.status).in_(("pending", "sending")))
            .where(OutboxMessage.next_attempt_at <= now)
            .where(free)
            .order_by(col(OutboxMessage.next_attempt_at))
            .limit(limit)
        ).all()
    for message_id in candidates:
        # A conditional update is the claim: of several workers, exactly one changes the row.
        with new_session() as session, session.begin():
            result = session.execute(
                update(OutboxMessage)
                .where(col(OutboxMessage.id) == message_id)
                .where(col(OutboxMessage.status).in_(("pending", "sending")))
                .where(free)
                .values(status="sending", locked_until=now + lease, attempts=OutboxMessage.attempts + 1)
            )
            if rows_changed(result) == 1:
                message = session.get(OutboxMessage, message_id, populate_existing=True)
                if message is not None:  # claimed in this transaction: it exists
                    claimed.append(message)
    return claimed


def retry(ids: Sequence[int], all_failed: bool) -> int:
    """Put failed (or chosen) messages back in the queue, due now."""
    with new_session() as session, session.begin():
        statement = update(OutboxMessage).values(status="pending", next_attempt_at=utcnow(), locked_until=None)
        if all_failed:
            statement = statement.where(col(OutboxMessage.status) == "failed")
        else:
            statement = statement.where(col(OutboxMessage.id).in_(ids)).where(col(OutboxMessage.status) != "sent")
        return rows_changed(session.execute(statement))


def _record(message_id: int, **values) -> None:
    with new_session() as session, session.begin():
        session.execute(update(OutboxMessage).where(col(OutboxMessage.id) == message_id).values(**values))


async def send_one(message: OutboxMessage) -> str:
    """Deliver a claimed message and record the outcome; returns the new status."""
    settings = get_settings()
    message_id = message.id
    assert message_id is not None  # a claimed message is a stored row
    try:
        await deliver(compose(message))
    except PermanentFailure as error:
        log.error("outbox message %s refused permanently: %s", message.id, error)
        metrics.OUTBOX_SEND_ATTEMPTS.labels(outcome="failed").inc()
        await asyncio.to_thread(
            _record, message_id, status="failed", locked_until=None, failed_at=utcnow(), last_error=str(error)[:500]
        )
        return "failed"
    except TemporaryFailure as error:
        if message.attempts >= settings.outbox_max_attempts:
            status, next_at = "failed", utcnow()
        else:
            status = "pending"
            next_at = utcnow() + timedelta(
                seconds=backoff_seconds(message.attempts, settings.outbox_retry_base_seconds)
            )
        log.warning("outbox message %s attempt %s failed: %s", message.id, message.attempts, error)
        metrics.OUTBOX_SEND_ATTEMPTS.labels(outcome="retry" if status == "pending" else "failed").inc()
        failed_at = {"failed_at": next_at} if status == "failed" else {}
        await asyncio.to_thread(
            _record,
            message_id,
            status=status,
            locked_until=None,
            next_attempt_at=next_at,
            last_error=str(error)[:500],
            **failed_at,
        )
        return status
    await asyncio.to_thread(_record, message_id, status="sent", locked_until=None, sent_at=utcnow(), last_error=None)
    log.info("outbox message %s sent", message.id)
    metrics.OUTBOX_SEND_ATTEMPTS.labels(outcome="sent").inc()
    return "sent"


async def process_due() -> int:
    """Send every message due now, one claim at a time (so no lease outlives its attempt);
    returns how many were attempted."""
    attempted = 0
    while attempted < BATCH:
        claimed = await asyncio.to_thread(claim_due, utcnow(), 1)
        if not claimed:
            break
        await send_one(claimed[0])
        attempted += 1
    return attempted


class _Wakeup:
    """Lets a request thread wake the worker's event loop as soon as a lead is stored."""

    def __init__(self):
        self.loop: asyncio.AbstractEventLoop | None = None
        self.event: asyncio.Event | None = None
        self.lock = threading.Lock()

    def bind(self) -> asyncio.Event:
        with self.lock:
            self.loop = asyncio.get_running_loop()
            self.event = asyncio.Event()
            return self.event

    def set(self) -> None:
        with self.lock:
            if self.loop is not None and self.event is not None and not self.loop.is_closed():
                self.loop.call_soon_threadsafe(self.event.set)


_wakeup = _Wakeup()


def wake_worker() -> None:
    _wakeup.set()


async def run_outbox_worker() -> None:
    """Lifespan task of the backend: send due mail now and whenever a lead arrives."""
    event = _wakeup.bind()
    poll = get_settings().outbox_poll_seconds
    while True:
        try:
            while await process_due():
                pass
        except Exception:  # keep the worker alive; the messages stay in the outbox
            log.exception("outbox worker pass failed")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), timeout=poll)
        event.clear()
