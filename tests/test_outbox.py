"""Each transition of the mail outbox on a real database (SQLite, or PostgreSQL when
TEST_DATABASE_URL is set: the engines lane) and a real SMTP server on loopback: the claim, sent, a temporary and a
permanent failure, a message that cannot be composed, a stale worker, a last attempt never
reported, retry; and what operators see of messages stuck or failing (health, console, ops)."""

from __future__ import annotations

import base64
import email
import logging
import os
import time
import unicodedata
import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import idna
import pytest
from lead_payloads import UNBOUNDED_INTAKE, outbox_row, person_values, queue_outbox_message
from servers import SmtpSink, drop_test_database, migrated_database, run_in_own_loop

# As every test site: PostgreSQL when TEST_DATABASE_URL is set (the engines lane), else SQLite.
ENGINE = "postgresql" if os.environ.get("TEST_DATABASE_URL") else "sqlite"


@pytest.fixture(scope="module")
def sink():
    server = SmtpSink().start()
    yield server
    server.stop()


@pytest.fixture
def outbox(tmp_path, monkeypatch, sink, workdir):
    """services.mail bound to a fresh migrated database and the SMTP sink (replies reset).
    (`workdir` first: on PostgreSQL it drops an earlier run's databases, the template too.)"""
    from marketing_site import db
    from marketing_site.services import mail

    url, database = migrated_database(tmp_path, "outbox")
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.setenv("SMTP_HOST", "127.0.0.1")
    monkeypatch.setenv("SMTP_PORT", str(sink.port))
    monkeypatch.setenv("SMTP_STARTTLS", "false")
    monkeypatch.setenv("SMTP_TIMEOUT_SECONDS", "3")
    monkeypatch.setenv("OUTBOX_RETRY_BASE_SECONDS", "30")
    monkeypatch.setenv("OUTBOX_MAX_ATTEMPTS", "3")
    # The pipeline's property test stores a lead and a booking per example, from one address.
    for name, value in UNBOUNDED_INTAKE.items():
        monkeypatch.setenv(name, value)
    _clear_caches()
    sink.reply = None
    with sink._lock:
        sink.messages.clear()
        sink.envelopes.clear()
    yield mail
    db.get_engine().dispose()
    _clear_caches()
    if database:
        drop_test_database(database)


def _clear_caches() -> None:
    from marketing_site import db, settings
    from marketing_site.services import booking, leads

    for cached in (settings.get_settings, db.engine_for, leads._limiters, booking._limiter):
        cached.cache_clear()
    booking._busy_feed.clear()


def _aware(moment):
    from datetime import UTC

    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment


# ----------------------------------------------------------------------------- claim


def test_a_claim_takes_a_due_message_once_and_moves_its_next_attempt_past_the_lease(outbox):
    from marketing_site.db.leads import utcnow

    now = utcnow()
    first, second = (
        queue_outbox_message(next_attempt_at=now - timedelta(seconds=2)),
        queue_outbox_message(next_attempt_at=now),
    )
    later = queue_outbox_message(next_attempt_at=now + timedelta(seconds=60))  # backing off: not due
    [claim] = outbox.claim_due(now, limit=1)
    assert claim.message.id == first and claim.token
    row = outbox_row(first)
    lease_end = now + timedelta(seconds=outbox.lease_seconds())
    assert (row.status, row.attempts, row.claim_token) == ("sending", 1, claim.token)
    assert _aware(row.locked_until) == _aware(row.next_attempt_at) == lease_end
    # The next claim takes the other due message, never the claimed one nor the one backing off.
    assert [c.message.id for c in outbox.claim_due(now)] == [second]
    assert outbox.claim_due(now) == []
    # The claim's own UPDATE repeats the due test: a message selected while due, then given a
    # backoff (or claimed) by another worker before this one's UPDATE, is not taken.
    assert outbox.claim(later, now) is None
    assert outbox.claim(first, now) is None
    assert outbox_row(later).status == "pending" and outbox_row(later).attempts == 0


def test_of_several_workers_exactly_one_claims_each_message(outbox):
    from marketing_site.db.leads import utcnow

    ids = {queue_outbox_message() for _ in range(8)}
    now = utcnow()
    with ThreadPoolExecutor(4) as pool:
        claims = list(pool.map(lambda _: [c.message.id for c in outbox.claim_due(now)], range(4)))
    claimed = [i for batch in claims for i in batch]
    assert sorted(claimed) == sorted(ids)


def test_a_message_whose_worker_died_goes_behind_the_others(outbox):
    """A claim whose worker never reports (the process died, or the message kills it) frees the
    message after the lease, behind every message due meanwhile: never first in line for ever."""
    from marketing_site.db.leads import utcnow

    now = utcnow()
    poisoned = queue_outbox_message(next_attempt_at=now - timedelta(minutes=5))
    [claim] = outbox.claim_due(now, limit=1)
    assert claim.message.id == poisoned
    others = [queue_outbox_message(next_attempt_at=now + timedelta(seconds=s)) for s in (1, 2, 3)]
    after_lease = now + timedelta(seconds=outbox.lease_seconds() + 1)
    order = [c.message.id for c in outbox.claim_due(after_lease)]
    assert order == [*others, poisoned]


def test_a_last_attempt_never_reported_ends_failed_with_its_reason(outbox):
    from marketing_site.db.leads import utcnow

    message_id = queue_outbox_message()
    now = utcnow()
    for attempt in range(3):  # OUTBOX_MAX_ATTEMPTS: each worker dies mid-attempt
        moment = now + timedelta(seconds=attempt * (outbox.lease_seconds() + 1))
        assert [c.message.id for c in outbox.claim_due(moment)] == [message_id]
    assert outbox.claim_due(now + timedelta(seconds=3 * (outbox.lease_seconds() + 1))) == []
    row = outbox_row(message_id)
    assert (row.status, row.attempts, row.claim_token) == ("failed", 3, None)
    assert "no worker reported" in row.last_error and row.failed_at and row.last_failure_at


# ----------------------------------------------------------------------------- results


def test_sent_is_recorded_with_the_stored_message_id(outbox, sink, monkeypatch):
    from email.utils import parsedate_to_datetime

    from marketing_site.db.leads import utcnow

    monkeypatch.setenv("TZ", "America/New_York")  # the server's zone changes nothing in the mail
    time.tzset()
    message_id = queue_outbox_message()
    stored = outbox_row(message_id).message_id
    [claim] = outbox.claim_due(utcnow())
    assert run_in_own_loop(outbox.send_one(claim)) == "sent"
    row = outbox_row(message_id)
    assert (row.status, row.claim_token, row.locked_until, row.last_error) == ("sent", None, None, None)
    assert row.sent_at is not None
    [(sender, recipients, _data)] = sink.envelopes
    assert (sender, recipients) == ("noreply@nereo-wealth.fr", ("leads@nereo-wealth.fr",))
    assert sink.messages[0]["Message-ID"] == stored
    assert parsedate_to_datetime(sink.messages[0]["Date"]) == _aware(row.created_at).replace(microsecond=0)
    monkeypatch.undo()
    time.tzset()
    assert outbox.claim_due(utcnow() + timedelta(hours=2)) == []  # a sent message is never claimed


def test_a_temporary_failure_backs_off_then_fails_at_the_last_attempt(outbox, sink):
    from marketing_site.db.leads import utcnow

    message_id = queue_outbox_message()
    sink.reply = "451 4.3.0 Try again later"
    now = utcnow()
    [claim] = outbox.claim_due(now)
    assert run_in_own_loop(outbox.send_one(claim)) == "pending"
    row = outbox_row(message_id)
    assert (row.status, row.attempts, row.claim_token, row.locked_until) == ("pending", 1, None, None)
    assert "451" in row.last_error and row.last_failure_at is not None and row.failed_at is None
    assert _aware(row.next_attempt_at) > utcnow() + timedelta(seconds=10)  # 30 s ± 50 %
    # The retry keeps the Message-ID; at the last attempt the failure is final.
    statuses = []
    for _attempt in (2, 3):
        [claim] = outbox.claim_due(_aware(outbox_row(message_id).next_attempt_at))
        statuses.append(run_in_own_loop(outbox.send_one(claim)))
    assert statuses == ["pending", "failed"]
    row = outbox_row(message_id)
    assert (row.status, row.attempts) == ("failed", 3) and row.failed_at is not None
    assert sink.envelopes == []


def test_a_permanent_failure_is_failed_at_once(outbox, sink):
    from marketing_site.db.leads import utcnow

    message_id = queue_outbox_message()
    sink.reply = "550 5.1.1 Mailbox unavailable"
    [claim] = outbox.claim_due(utcnow())
    assert run_in_own_loop(outbox.send_one(claim)) == "failed"
    row = outbox_row(message_id)
    assert (row.status, row.attempts, row.claim_token) == ("failed", 1, None)
    assert "550" in row.last_error and row.failed_at and row.last_failure_at


@pytest.mark.parametrize(
    "poison",
    [
        {"subject": "Démo =?utf-8?q?x=0D=0AX-Injected=3A_yes?="},  # CPython 3.11.7 would write the CR LF
        {"mail_to": "not an address"},
        {"mail_to": "=?utf-8?q?x?=@-not-a-host-.example"},
        {"reply_to": "a@b.example\r\nBcc: c@d.example"},
        {"message_id": "<lead-1@x>\r\nBcc: c@d.example"},
        {"calendar_ics": "not a calendar"},
    ],
)
def test_a_message_that_cannot_be_composed_fails_with_its_reason_and_the_others_go_on(outbox, sink, poison):
    """The pass that meets it goes on: the message behind it is sent in the same pass."""
    from sqlmodel import select

    from marketing_site.db import new_session
    from marketing_site.db.leads import OutboxMessage

    poisoned = queue_outbox_message(**poison)
    healthy = queue_outbox_message(reply_to="healthy@example.com")
    assert run_in_own_loop(outbox.process_due()) == 2
    row = outbox_row(poisoned)
    assert (row.status, row.attempts) == ("failed", 1)
    assert row.last_error.startswith("could not compose: ") and row.failed_at and row.last_failure_at
    assert outbox_row(healthy).status == "sent"
    [(_, _, data)] = sink.envelopes
    assert b"Reply-To: healthy@example.com\r\n" in data and b"X-Injected" not in data
    with new_session() as session:
        assert {m.status for m in session.exec(select(OutboxMessage))} == {"failed", "sent"}


def test_a_stale_worker_changes_nothing(outbox, sink, caplog):
    """Worker A stalls past its lease; B takes the message over and sends it; A's late results
    (a timeout, or even a success) change nothing and are logged."""
    from marketing_site.db.leads import utcnow

    message_id = queue_outbox_message()
    now = utcnow()
    [stale] = outbox.claim_due(now)
    [fresh] = outbox.claim_due(now + timedelta(seconds=outbox.lease_seconds() + 1))
    assert fresh.message.id == stale.message.id == message_id and fresh.token != stale.token
    assert run_in_own_loop(outbox.send_one(fresh)) == "sent"
    with caplog.at_level(logging.WARNING, logger="marketing_site.mail"):
        for status in ("pending", "failed", "sent"):
            assert outbox._record(stale, status=status, last_error="stale") is False
        sink.reply = "451 4.3.0 Try again later"
        assert run_in_own_loop(outbox.send_one(stale)) == "stale"
    row = outbox_row(message_id)
    assert (row.status, row.attempts, row.last_error, row.claim_token) == ("sent", 2, None, None)
    assert "outlived its claim" in caplog.text
    # And while B still holds it: A's timeout neither frees it nor schedules it again.
    other = queue_outbox_message()
    now = utcnow()
    [stale] = outbox.claim_due(now)
    [fresh] = outbox.claim_due(now + timedelta(seconds=outbox.lease_seconds() + 1))
    assert outbox._record(stale, status="pending", next_attempt_at=now) is False
    assert (outbox_row(other).status, outbox_row(other).claim_token) == ("sending", fresh.token)


# ----------------------------------------------------------------------------- retry and operators


def test_retry_takes_failed_waiting_and_stuck_mail_but_not_mail_in_flight_nor_sent(outbox, sink):
    from marketing_site.db.leads import utcnow

    in_flight = queue_outbox_message()
    now = utcnow()
    failed = queue_outbox_message(
        status="failed", attempts=3, last_error="550 refused", failed_at=now, last_failure_at=now
    )
    sent = queue_outbox_message(status="sent", attempts=1, sent_at=now)
    [claim] = outbox.claim_due(now)
    assert claim.message.id == in_flight
    stuck = queue_outbox_message(status="sending", attempts=1, claim_token="t", locked_until=now - timedelta(minutes=5))
    assert outbox.retry([failed, sent, in_flight, stuck], all_failed=False, now=now) == 2
    assert [outbox_row(i).status for i in (failed, sent, in_flight, stuck)] == ["pending", "sent", "sending", "pending"]
    assert outbox_row(stuck).claim_token is None
    # The worker that held the stuck one cannot record anything over the retry.
    assert outbox._record(outbox.Claim(outbox_row(stuck), "t"), status="failed") is False
    assert outbox.retry([], all_failed=True, now=now) == 0


def test_operators_see_stuck_late_retrying_and_failed_mail_with_when_it_last_failed(outbox, capsys):
    from marketing_site import ops
    from marketing_site.db.leads import utcnow
    from marketing_site.services.console import mail_overview
    from marketing_site.services.health import LATE_SECONDS, STUCK_SECONDS, health_report

    now = utcnow()
    failed_at = now - timedelta(minutes=3)
    queue_outbox_message(status="sent", attempts=1, sent_at=now)
    failed = queue_outbox_message(
        status="failed", attempts=1, last_error="550 refused", failed_at=failed_at, last_failure_at=failed_at
    )
    retrying = queue_outbox_message(
        attempts=2,
        last_error="451 later",
        last_failure_at=now - timedelta(minutes=1),
        next_attempt_at=now + timedelta(minutes=1),
    )
    stuck = queue_outbox_message(
        status="sending", attempts=1, claim_token="t", locked_until=now - timedelta(seconds=STUCK_SECONDS + 5)
    )
    late = queue_outbox_message(created_at=now - timedelta(seconds=LATE_SECONDS + 60))
    queue_outbox_message()  # pending, just queued: needs nobody
    report = health_report(now)
    outbox_figures = report["outbox"]
    assert report["status"] == "degraded" and outbox_figures["status"] == "failing"
    assert {k: outbox_figures[k] for k in ("pending", "stuck", "retrying", "failed", "sent")} == {
        "pending": 4,
        "stuck": 1,
        "retrying": 1,
        "failed": 1,
        "sent": 1,
    }
    assert outbox_figures["last_failure_at"].startswith(f"{now - timedelta(minutes=1):%Y-%m-%dT%H:%M}")
    _, rows = mail_overview()
    by_id = {int(r["id"]): r for r in rows}
    assert {i: by_id[i]["state"] for i in by_id} == {
        failed: "failed",
        retrying: "retrying",
        stuck: "stuck",
        late: "late",
    }
    assert [int(r["id"]) for r in rows][:2] == [retrying, failed]  # the latest failure first
    assert by_id[failed]["last_failure_at"] == f"{failed_at:%Y-%m-%d %H:%M}"
    assert ops.main(["outbox", "--attention"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("outbox: pending=4  stuck=1  retrying=1  failed=1  sent=1")
    assert "last_failure=" in out[0] and "never" not in out[0]
    states = {int(line.split()[0]): line.split()[3] for line in out[1:]}
    assert states == {failed: "failed", retrying: "retrying", stuck: "stuck", late: "late"}
    assert f"last failed {failed_at:%Y-%m-%d %H:%M} UTC" in next(line for line in out if line.split()[0] == str(failed))


def test_a_stuck_message_alone_makes_the_site_degraded(outbox):
    from marketing_site.db.leads import utcnow
    from marketing_site.services.health import STUCK_SECONDS, health_report

    now = utcnow()
    queue_outbox_message(
        status="sending", attempts=1, claim_token="t", locked_until=now - timedelta(seconds=STUCK_SECONDS - 5)
    )
    assert health_report(now)["status"] == "ok"  # its lease just ended: a worker takes it over
    report = health_report(now + timedelta(seconds=10))
    assert (report["status"], report["outbox"]["status"], report["outbox"]["stuck"]) == ("degraded", "stuck", 1)


# ----------------------------------------------------------------------------- every accepted value

# Encoded words a header parser decodes into CR LF, a second header, another recipient or a body.
HOSTILE_PAYLOADS = (
    "x\r\nBcc: victim@evil.example",
    "x\r\nX-Injected: yes",
    "\r\n\r\n<html><b>click</b></html>",
    "a, b@evil.example",
    "ceo@other.example>",
    "x\nTo: victim@evil.example",
    "\r\nContent-Type: text/html",
)
ATEXT = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+/=?^_`{|}~-"


def _encoded_word(payload: str, charset: str, b_form: bool) -> str:
    data = payload.encode("utf-8" if charset == "utf-8" else "latin-1", "replace")
    if b_form:
        return f"=?{charset}?b?{base64.b64encode(data).decode()}?="
    q = "".join(chr(b) if chr(b).isalnum() and b < 128 else "_" if b == 32 else f"={b:02X}" for b in data)
    return f"=?{charset}?q?{q}?="


def _no_surrogate(text: str) -> bool:
    # The field patterns match a lone surrogate, but the validator refuses it: drawing none keeps
    # the examples for values that are accepted.
    return not any("\ud800" <= c <= "\udfff" for c in text)


def _strategies():
    from hypothesis import strategies as st

    from marketing_site.services import leads

    payload = st.one_of(st.sampled_from(HOSTILE_PAYLOADS), st.text(max_size=30))
    encoded = st.builds(_encoded_word, payload, st.sampled_from(["utf-8", "us-ascii", "iso-8859-1"]), st.booleans())
    # Names and companies: the field's own pattern, and text around encoded words; NFC or NFD.
    words = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")), max_size=40)
    names = st.sampled_from(["Hélène", "Łukasiewicz", "Nguyễn", "王", "O'Brien", "Zoë"])
    text = st.one_of(
        st.from_regex(leads.TEXT_PATTERN, fullmatch=True).filter(_no_surrogate),
        st.lists(st.one_of(encoded, words, names), min_size=1, max_size=5).map(" ".join),
        encoded.map(lambda word: (word * 200)[:200]),  # the longest value: encoded words only
    )
    text = st.tuples(text, st.booleans()).map(lambda t: unicodedata.normalize("NFD", t[0]) if t[1] else t[0])
    # Emails: dot-atoms with encoded words (the longest local part too), IDN domains (NFC or NFD),
    # punycode and Unicode top-level domains, and the field's own pattern.
    atom = st.text(ATEXT, min_size=1, max_size=16)
    local = st.lists(st.one_of(atom, encoded), min_size=1, max_size=3).map(".".join).filter(lambda s: len(s) <= 64)
    label = st.text("abcdefghijklmnopqrstuvwxyz0123456789éèüößçñøåæœ日本語кирилцаαβγ-", min_size=1, max_size=20)
    label = label.filter(lambda text: text[0] != "-" and text[-1] != "-" and text[2:4] != "--")
    top = st.sampled_from(["com", "fr", "example", "XN--P1AI", "рф", "中国", "Ch"])
    domain = st.builds(lambda labels, tld: ".".join([*labels, tld]), st.lists(label, min_size=1, max_size=3), top)
    form = st.sampled_from(["NFC", "NFD"])
    email = st.one_of(
        st.builds(lambda loc, dom, nf: unicodedata.normalize(nf, f"{loc}@{dom}"), local, domain, form),
        local.map(lambda loc: f"{(loc * 64)[:64]}@{'b' * 63}.{'c' * 63}.example"),  # 200 characters
        st.from_regex(leads.EMAIL_PATTERN, fullmatch=True).filter(_no_surrogate),
    )
    return st.fixed_dictionaries({"name": text, "firstname": text, "company": text, "email": email})


def _expected_address(typed: str) -> str:
    """What the visitor typed, as a mail header must carry it: NFC, the domain in IDNA form."""
    value = unicodedata.normalize("NFC", typed.replace("\t", " ").strip(" \u00a0\u202f"))
    local, _, domain = value.rpartition("@")
    return f"{local}@{domain.lower() if domain.isascii() else idna.encode(domain, uts46=True).decode()}"


SINGLE_PART = [
    "From",
    "To",
    "Reply-To",
    "Subject",
    "Message-ID",
    "Date",
    "Content-Type",
    "Content-Transfer-Encoding",
    "MIME-Version",
]
MULTIPART = ["From", "To", "Reply-To", "Subject", "Message-ID", "Date", "MIME-Version", "Content-Type"]


def test_every_value_the_validators_accept_reaches_the_smtp_server_as_the_intended_headers(outbox, sink):
    """A lead and a booking with values drawn from everything services/leads.py accepts, a
    bystander's lead before them: every message is sent (none stuck or failed), each arrives
    with exactly the intended headers and envelope recipients, and no visitor text in a header."""
    from email.header import decode_header, make_header

    from hypothesis import HealthCheck, assume, given, settings
    from sqlalchemy import text as sql
    from sqlmodel import select

    from marketing_site.db import new_session
    from marketing_site.db.leads import OutboxMessage
    from marketing_site.services import booking, leads

    seen_ids: set[str] = set()

    @settings(
        max_examples=60 if ENGINE == "sqlite" else 30,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
    @given(values=_strategies())
    def check(values):
        contact = person_values(**values, phone="+33 1 23 45 67 89")
        assume(leads.validate_fields("ebook", contact).ok)
        address = _expected_address(values["email"])
        with new_session() as session:
            session.execute(sql("DELETE FROM booking"))  # every slot free (an earlier example may have failed)
            session.commit()
            first_new = (session.exec(select(OutboxMessage.id).order_by(OutboxMessage.id.desc())).first() or 0) + 1
        envelopes_before = len(sink.envelopes)
        bystander = leads.submit_lead(
            {**contact, **BYSTANDER, "subject": EBOOK, "elapsedMs": 9000}, "10.9.0.1", uuid.uuid4().hex
        )
        lead = leads.submit_lead({**contact, "subject": EBOOK, "elapsedMs": 9000}, "10.9.0.2", uuid.uuid4().hex)
        [slot, *_] = booking.available_slots()
        booked = booking.book(
            {**contact, "slot": booking.slot_id(slot), "timezone": "Europe/Paris", "lang": "fr"},
            "10.9.0.3",
            uuid.uuid4().hex,
        )
        assert (bystander.status, lead.status, booked.status) == ("accepted", "accepted", "booked"), booked.errors
        while run_in_own_loop(outbox.process_due()):
            pass
        with new_session() as session:
            rows = session.exec(
                select(OutboxMessage).where(OutboxMessage.id >= first_new).order_by(OutboxMessage.id)
            ).all()
        assert len(rows) == 4 and {r.status for r in rows} == {"sent"}, [(r.status, r.last_error) for r in rows]
        arrived = sink.envelopes[envelopes_before:]
        assert len(arrived) == 4
        by_id = {}
        for sender, recipients, data in arrived:
            parsed = email.message_from_bytes(data)  # compat32: no header decoded
            by_id[parsed["Message-ID"]] = (sender, recipients, parsed)
        assert set(by_id) == {r.message_id for r in rows} and not seen_ids & set(by_id)
        seen_ids.update(by_id)
        # The intended mail, independently of the code under test: (To, Reply-To, with the invitation).
        intended = sorted(
            [
                (SALES, BYSTANDER["email"], False),
                (SALES, address, False),
                (address, ORGANIZER, True),
                (SALES, address, True),
            ]
        )
        assert sorted((m["To"], m["Reply-To"], m.is_multipart()) for _, _, m in by_id.values()) == intended
        # As the validator cleans them: tabs as spaces, stripped of spaces, NFC.
        visitor_texts = {
            unicodedata.normalize("NFC", values[k].replace("\t", " ").strip(" \u00a0\u202f"))
            for k in ("name", "firstname", "company")
        }
        for row in rows:
            sender, recipients, parsed = by_id[row.message_id]
            assert sender == "noreply@nereo-wealth.fr" and recipients == (parsed["To"],)
            assert parsed["From"] == "Nereo <noreply@nereo-wealth.fr>"
            assert parsed.keys() == (MULTIPART if parsed.is_multipart() else SINGLE_PART)
            assert parsed.defects == []
            subject = str(make_header(decode_header(parsed["Subject"])))
            assert subject == row.subject
            assert not any(len(t) > 3 and t in subject for t in visitor_texts)
        # What the visitor typed reaches sales in the body, intact.
        [notice] = [r for r in rows if r.reply_to == address and not r.calendar_ics]
        body = by_id[notice.message_id][2].get_payload(decode=True).decode("utf-8")
        assert all(t in body.replace("\r\n", "\n") for t in visitor_texts)

    check()


SALES, ORGANIZER = "leads@nereo-wealth.fr", "demo@nereo-wealth.fr"  # the settings' defaults
BYSTANDER = {"name": "Lefèvre", "firstname": "Hélène", "company": "Banque Exemple", "email": "bystander@example.com"}
EBOOK = "Ebook download - Wealth manager new generation"


def test_erasing_the_next_person_who_gets_a_reused_booking_id_works_and_no_message_id_repeats(outbox, sink):
    """SQLite handed a deleted row's id out again: the erasure notice's Message-ID was built from
    the booking's id, so the second erasure hit the unique index and failed for ever."""
    from sqlmodel import select

    from marketing_site.db import new_session
    from marketing_site.db.booking import Booking
    from marketing_site.db.leads import OutboxMessage
    from marketing_site.services import booking, console

    operator = console.Operator(sub="ops@example.test", email="ops@example.test")
    [slot, *_] = booking.available_slots()
    booking_ids = []
    for person in ("first.person@example.com", "next.person@example.com"):
        contact = person_values(**{**BYSTANDER, "email": person})
        payload = {**contact, "slot": booking.slot_id(slot), "timezone": "Europe/Paris", "lang": "fr"}
        assert booking.book(payload, "10.9.1.1").status == "booked"
        with new_session() as session:
            booking_ids.append(session.exec(select(Booking.id)).one())
        assert console.erase_subject(operator, person)["booking"] == 1
    # No id comes back any more (SQLite AUTOINCREMENT since migration 0015; PostgreSQL's sequences):
    # the erasure notice's Message-ID is random regardless (tests/test_identity.py has the rest).
    assert booking_ids[0] != booking_ids[1]
    while run_in_own_loop(outbox.process_due()):
        pass
    with new_session() as session:
        notices = session.exec(select(OutboxMessage)).all()
    assert len(notices) == 2 and {n.status for n in notices} == {"sent"}
    arrived = [email.message_from_bytes(data)["Message-ID"] for _, _, data in sink.envelopes]
    assert sorted(arrived) == sorted(n.message_id for n in notices) and len(set(arrived)) == 2
