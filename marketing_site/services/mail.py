"""The mail outbox worker: claims due messages with a lease, sends them, records the result.

Delivery is at least once, with one Message-ID per message (`new_message_id`: random, made once,
stored with the message), so the one re-send a lost acknowledgement forces is recognisable.

- **The claim** is a conditional UPDATE that repeats the due test (`next_attempt_at <= now`, the
  lease over): of several workers exactly one takes a message. It stores a fresh fencing token,
  counts the attempt and moves `next_attempt_at` forward by the lease, so a message whose worker
  dies (or whose attempt kills the process) goes behind the others instead of staying first in
  line. A message whose worker never reported on its last allowed attempt ends `failed`.
- **Every result** is an UPDATE conditional on that token (`_record`): a worker that stalled past
  its lease (a VM pause, SIGSTOP, a long GC) while another took the message over changes nothing
  when it wakes; that is logged.
- **No message stops the others.** One that cannot be composed (a header `mail_headers` refuses)
  ends `failed` with the reason at once; timeouts, refused connections, 4xx and unexpected errors
  are retried with exponential backoff and jitter until OUTBOX_MAX_ATTEMPTS; 5xx answers fail
  for good. An error while recording is logged and the worker goes on to the next message.
- **Headers** are written by `mail_headers` (addresses by the site itself, every folded header
  verified); the message leaves as the bytes the site flattened, to the envelope recipients the
  site names (never re-read from the headers). `check_startup` refuses to start the site on an
  interpreter where that verification does not hold.

Without SMTP settings, mail goes to `.eml` files in MAIL_SINK_DIR (one file per Message-ID:
a retry cannot duplicate it).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import os
import random
import re
import secrets
import threading
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path

import aiosmtplib
from icalendar import Calendar
from sqlalchemy import and_, or_, update
from sqlmodel import col, select

from marketing_site import metrics
from marketing_site.db import new_session, rows_changed
from marketing_site.db.leads import OutboxMessage, utcnow
from marketing_site.services import mail_headers
from marketing_site.settings import get_settings

log = logging.getLogger("marketing_site.mail")

MAX_BACKOFF_SECONDS = 3600
BATCH = 20
# Time left in a lease after the attempt's own deadline: to record its result.
RECORD_MARGIN_SECONDS = 10
MAX_ERROR = 500  # characters of a failure reason kept (the column's length)


class TemporaryFailure(Exception):
    """Worth trying again later."""


class PermanentFailure(Exception):
    """The server refused the message for good."""


@dataclasses.dataclass(frozen=True)
class Claim:
    """A message this worker holds, and the fencing token its results must name."""

    message: OutboxMessage
    token: str


@dataclasses.dataclass(frozen=True)
class ComposedMail:
    """What leaves: the envelope the site names and the bytes it flattened and verified."""

    sender: str
    recipients: tuple[str, ...]
    data: bytes
    message_id: str


def _message_id_domain() -> str:
    try:
        return mail_headers.parse_mailboxes(get_settings().mail_from)[0].domain
    except mail_headers.HeaderRefused:
        return "localhost"  # the start-up check refuses such a MAIL_FROM; never a crash here


def new_message_id() -> str:
    """A Message-ID unique for all time and across databases (RFC 5322 §3.6.4): 144 random bits
    at the sender's domain, never a row id (ids come back after a delete). Made once, when the
    message is stored: every attempt sends the same one."""
    return f"<{secrets.token_urlsafe(18)}@{_message_id_domain()}>"


def attempt_seconds() -> float:
    """How long one delivery attempt may take in all (connect, TLS, every SMTP step)."""
    return get_settings().smtp_timeout_seconds * 2


def lease_seconds() -> float:
    """How long a claim holds a message: one attempt and the time to record its result."""
    return attempt_seconds() + RECORD_MARGIN_SECONDS


def compose(message: OutboxMessage) -> ComposedMail:
    """The message as it will travel; HeaderRefused (a ValueError) when a header cannot be
    written safely (mail_headers), ValueError or LookupError when the content cannot."""
    policy = mail_headers.SITE_POLICY
    sender = mail_headers.parse_mailboxes(message.mail_from)
    recipients = mail_headers.parse_mailboxes(message.mail_to)
    mail = EmailMessage(policy=policy)
    mail["From"] = sender
    mail["To"] = recipients
    mail["Reply-To"] = mail_headers.parse_mailboxes(message.reply_to)
    mail["Subject"] = message.subject
    mail["Message-ID"] = message.message_id
    created = message.created_at
    # SQLite hands back naive datetimes; every stored moment is UTC (a naive one's timestamp()
    # would be read in the server's local time).
    mail["Date"] = format_datetime((created if created.tzinfo else created.replace(tzinfo=UTC)).astimezone(UTC))
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
    data = mail.as_bytes(policy=policy)
    mail_headers.check_written(mail, data)
    return ComposedMail(
        sender=sender[0].addr_spec,
        recipients=tuple(box.addr_spec for box in recipients),
        data=data,
        message_id=message.message_id,
    )


async def deliver(mail: ComposedMail) -> None:
    """Hand one message to the SMTP server, or to the file sink when none is configured."""
    settings = get_settings()
    if not settings.smtp_host:
        await asyncio.to_thread(_write_to_sink, mail, Path(settings.mail_sink_dir))
        return
    try:
        await aiosmtplib.send(
            mail.data,
            sender=mail.sender,
            recipients=list(mail.recipients),
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


def _write_to_sink(mail: ComposedMail, folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    name = re.sub(r"[^A-Za-z0-9@._-]", "", mail.message_id) + ".eml"
    tmp = folder / f".{name}.tmp"
    tmp.write_bytes(mail.data)
    os.replace(tmp, folder / name)


def backoff_seconds(attempts: int, base: float) -> float:
    """Exponential backoff with jitter: base, 2×base, 4×base… capped, ±50 %."""
    delay = min(base * 2 ** max(attempts - 1, 0), MAX_BACKOFF_SECONDS)
    return delay * random.uniform(0.5, 1.5)


def _claimable(now: datetime):
    """Due, and held by no live claim: the test the claim's own UPDATE repeats."""
    return and_(
        col(OutboxMessage.status).in_(("pending", "sending")),
        col(OutboxMessage.next_attempt_at) <= now,
        or_(col(OutboxMessage.locked_until).is_(None), col(OutboxMessage.locked_until) < now),
    )


def fail_unreported(now: datetime) -> int:
    """Messages whose worker never reported on their last allowed attempt (it died or stalled
    past its lease, every time) end `failed` with that reason instead of being tried for ever."""
    most = get_settings().outbox_max_attempts
    with new_session() as session, session.begin():
        return rows_changed(
            session.execute(
                update(OutboxMessage)
                .where(col(OutboxMessage.status) == "sending")
                .where(_claimable(now))
                .where(col(OutboxMessage.attempts) >= most)
                .values(
                    status="failed",
                    claim_token=None,
                    locked_until=None,
                    failed_at=now,
                    last_failure_at=now,
                    last_error=(
                        f"no worker reported the outcome of attempt {most}: its process stopped or stalled"
                        " past its lease (a resend may be a duplicate)"
                    ),
                )
            )
        )


def claim_due(now: datetime, limit: int = BATCH) -> list[Claim]:
    """Claim up to `limit` due messages, the longest due first; a message is claimed by exactly
    one worker."""
    if fail_unreported(now):
        log.error("outbox: messages failed after their last attempt was never reported")
    with new_session() as session:
        candidates = session.exec(
            select(OutboxMessage.id)
            .where(_claimable(now))
            .order_by(col(OutboxMessage.next_attempt_at), col(OutboxMessage.id))
            .limit(limit)
        ).all()
    claimed = (claim(message_id, now) for message_id in candidates if message_id is not None)
    return [c for c in claimed if c is not None]


def claim(message_id: int, now: datetime) -> Claim | None:
    """Take one message if it is still claimable: the conditional UPDATE repeats the due test
    (another worker may have claimed it, or recorded a backoff, since it was selected), stores
    a fresh fencing token, counts the attempt and moves its next attempt past the lease."""
    token = secrets.token_urlsafe(16)
    lease_end = now + timedelta(seconds=lease_seconds())
    with new_session() as session, session.begin():
        result = session.execute(
            update(OutboxMessage)
            .where(col(OutboxMessage.id) == message_id)
            .where(_claimable(now))
            .values(
                status="sending",
                claim_token=token,
                locked_until=lease_end,
                next_attempt_at=lease_end,
                attempts=OutboxMessage.attempts + 1,
            )
        )
        if rows_changed(result) != 1:
            return None
        message = session.get(OutboxMessage, message_id, populate_existing=True)
    return Claim(message, token) if message is not None else None


def retry(ids: Sequence[int], all_failed: bool, now: datetime | None = None) -> int:
    """Put failed (or chosen) messages back in the queue, due now.

    A chosen message may be failed, waiting (pending) or stuck (claimed, its lease over); one
    being sent under a live claim is left to its worker, and a sent one is never sent again.
    The claim's token goes: a stale worker's result changes nothing after this either.
    """
    now = now or utcnow()
    with new_session() as session, session.begin():
        statement = update(OutboxMessage).values(
            status="pending", next_attempt_at=now, locked_until=None, claim_token=None
        )
        if all_failed:
            statement = statement.where(col(OutboxMessage.status) == "failed")
        else:
            lease_over = and_(
                col(OutboxMessage.status) == "sending",
                or_(col(OutboxMessage.locked_until).is_(None), col(OutboxMessage.locked_until) < now),
            )
            statement = statement.where(col(OutboxMessage.id).in_(ids)).where(
                or_(col(OutboxMessage.status).in_(("failed", "pending")), lease_over)
            )
        return rows_changed(session.execute(statement))


def _record(claim: Claim, **values) -> bool:
    """Change the message if this claim still holds it; False (and a log line) when another
    worker took it over meanwhile: this worker's result then changes nothing."""
    with new_session() as session, session.begin():
        changed = rows_changed(
            session.execute(
                update(OutboxMessage)
                .where(col(OutboxMessage.id) == claim.message.id)
                .where(col(OutboxMessage.claim_token) == claim.token)
                .where(col(OutboxMessage.status) == "sending")
                .values(claim_token=None, locked_until=None, **values)
            )
        )
    if changed != 1:
        log.warning(
            "outbox message %s: attempt %s outlived its claim (another worker took the message over);"
            " its result (%s) is not recorded",
            claim.message.id,
            claim.message.attempts,
            values.get("status"),
        )
    return changed == 1


def _reason(error: BaseException) -> str:
    return str(error)[:MAX_ERROR] or type(error).__name__


async def send_one(claim: Claim) -> str:
    """Deliver a claimed message and record the outcome; returns the new status ("stale" when
    the claim was lost meanwhile and nothing was recorded)."""
    settings = get_settings()
    message = claim.message
    try:
        composed = compose(message)
    except Exception as error:  # noqa: BLE001 - whatever it is, this message cannot be written
        reason = f"could not compose: {type(error).__name__}: {error}"
        log.error("outbox message %s %s", message.id, reason)
        metrics.OUTBOX_SEND_ATTEMPTS.labels(outcome="failed").inc()
        now = utcnow()
        recorded = await asyncio.to_thread(
            _record, claim, status="failed", failed_at=now, last_failure_at=now, last_error=reason[:MAX_ERROR]
        )
        return "failed" if recorded else "stale"
    try:
        try:
            await asyncio.wait_for(deliver(composed), timeout=attempt_seconds())
        except TimeoutError as error:
            raise TemporaryFailure(f"the attempt took longer than {attempt_seconds():.0f} s") from error
        except (PermanentFailure, TemporaryFailure):
            raise
        except Exception as error:
            log.exception("outbox message %s: unexpected error while sending", message.id)
            raise TemporaryFailure(f"{type(error).__name__}: {error}") from error
    except PermanentFailure as error:
        log.error("outbox message %s refused permanently: %s", message.id, error)
        metrics.OUTBOX_SEND_ATTEMPTS.labels(outcome="failed").inc()
        now = utcnow()
        recorded = await asyncio.to_thread(
            _record, claim, status="failed", failed_at=now, last_failure_at=now, last_error=_reason(error)
        )
        return "failed" if recorded else "stale"
    except TemporaryFailure as error:
        now = utcnow()
        if message.attempts >= settings.outbox_max_attempts:
            status, next_at, final = "failed", now, {"failed_at": now}
        else:
            status, final = "pending", {}
            next_at = now + timedelta(seconds=backoff_seconds(message.attempts, settings.outbox_retry_base_seconds))
        log.warning("outbox message %s attempt %s failed: %s", message.id, message.attempts, error)
        metrics.OUTBOX_SEND_ATTEMPTS.labels(outcome="retry" if status == "pending" else "failed").inc()
        recorded = await asyncio.to_thread(
            _record,
            claim,
            status=status,
            next_attempt_at=next_at,
            last_failure_at=now,
            last_error=_reason(error),
            **final,
        )
        return status if recorded else "stale"
    recorded = await asyncio.to_thread(_record, claim, status="sent", sent_at=utcnow(), last_error=None)
    log.info("outbox message %s sent", message.id)
    metrics.OUTBOX_SEND_ATTEMPTS.labels(outcome="sent").inc()
    return "sent" if recorded else "stale"


async def process_due() -> int:
    """Send every message due now, one claim at a time (so no lease outlives its attempt);
    returns how many were attempted. A failure around one message never ends the pass."""
    attempted = 0
    while attempted < BATCH:
        claimed = await asyncio.to_thread(claim_due, utcnow(), 1)
        if not claimed:
            break
        try:
            await send_one(claimed[0])
        except Exception:  # recording failed (database away): the claim's lease will free it
            log.exception("outbox message %s: its result could not be recorded", claimed[0].message.id)
        attempted += 1
    return attempted


def check_startup() -> None:
    """Lifespan task: refuse to start where the site could write an unsafe mail header (an
    interpreter whose mail policy the verification does not catch) or cannot write a
    configured address (mail_headers.problems)."""
    settings = get_settings()
    problems = mail_headers.problems(
        [
            ("MAIL_FROM", settings.mail_from),
            ("LEAD_MAIL_TO", settings.lead_mail_to),
            ("BOOKING_ORGANIZER_EMAIL", settings.booking_organizer_email),
        ]
    )
    if problems:
        raise RuntimeError("Refusing to start: mail headers would not be safe: " + "; ".join(problems))


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
        except Exception:  # the database is away: keep the worker alive; the messages stay in the outbox
            log.exception("outbox worker pass failed")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), timeout=poll)
        event.clear()
