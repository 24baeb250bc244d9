"""Every place the site keeps a person's data is reached by a data-subject erasure, each by every
way it can point at the person, through the public services only (leads, bookings, login
sessions, the console's lookup and erasure).

The places and the ways (services.console.HOLDERS; tests/test_subject_data.py checks that the
list names every table of the models):

- lead: its email, in any letter case;
- booking: its lead;
- outbox_message: its lead, its Reply-To (the sales mail about the person), its To (the mail to
  the person), each alone;
- auth_session: the email claim of the login, or a subject (`sub`) that is the address itself.

Then, whatever the code's list says: no text column of any table holds the person's address,
name, phone or company after the erasure (the console's audit log keeps a keyed hash only),
while another person keeps every row.
"""

from __future__ import annotations

import json
import time

import pytest
from lead_payloads import booking_payload, lead_payload
from sqlalchemy import String, func, or_, select

SUBJECT = "Camille.Durand@Example.test"
OTHER = "paul.martin@example.test"
# What the person typed besides the address: found nowhere after the erasure.
TRACES = {
    SUBJECT: ("camille", "durand", "banque delta", "11 22 33 44"),
    OTHER: ("paul", "martin", "crédit sud", "55 66 77 88"),
}
DETAILS = {
    SUBJECT: {"firstname": "Camille", "name": "Durand", "company": "Banque Delta", "phone": "+33 1 11 22 33 44"},
    OTHER: {"firstname": "Paul", "name": "Martin", "company": "Crédit Sud", "phone": "+33 1 55 66 77 88"},
}


def _operator():
    from marketing_site.services.console import Operator

    return Operator(sub="ops@example.test", email="ops@example.test")


@pytest.fixture
def people(store):
    """Two people, each with a document lead, a demo to come (its lead and two mails) and a
    login; the subject also has a login whose subject is the address, and two mails that name
    them only by To or only by Reply-To."""
    from marketing_site.db import new_session
    from marketing_site.db.leads import Lead, OutboxMessage
    from marketing_site.services import booking, mail, sessions
    from marketing_site.services import leads as service

    slots = booking.available_slots()
    for number, email in enumerate((SUBJECT, OTHER)):
        details = DETAILS[email]
        lead = service.submit_lead(lead_payload(email=email, **details), f"10.0.4.{number}")
        assert lead.status == "accepted"
        booked = booking.book(
            booking_payload(booking.slot_id(slots[number]), email=email, **details), f"10.0.5.{number}"
        )
        assert booked.status == "booked", booked
        sessions.create_session(
            {"sub": f"subject-{number}", "email": email, "name": details["firstname"]},
            sessions.Tokens("id", "access", None, time.time() + 3600),
        )
    # A login whose provider names the person by the address itself, without an email claim.
    sessions.create_session({"sub": SUBJECT}, sessions.Tokens("id", "access", None, time.time() + 3600))
    with new_session() as session, session.begin():
        # A mail about the person's lead that names them neither in To nor in Reply-To.
        lead_id = session.scalars(
            select(Lead.id).where(func.lower(Lead.email) == SUBJECT.lower()).order_by(Lead.id)
        ).first()
        session.add(
            OutboxMessage(
                lead_id=lead_id,
                message_id=mail.new_message_id(),
                mail_from="Nereo <noreply@nereo-wealth.fr>",
                mail_to="sales@nereo-wealth.fr",
                reply_to="sales@nereo-wealth.fr",
                subject="Lead",
                body="-",
            )
        )
        for mail_to, reply_to in (
            (SUBJECT.upper(), "sales@nereo-wealth.fr"),
            ("sales@nereo-wealth.fr", SUBJECT.lower()),
        ):
            session.add(
                OutboxMessage(
                    message_id=mail.new_message_id(),
                    mail_from="Nereo <noreply@nereo-wealth.fr>",
                    mail_to=mail_to,
                    reply_to=reply_to,
                    subject="Demo",
                    body="Camille Durand, Banque Delta",
                )
            )
    yield
    for cached in (booking._limiter,):
        cached.cache_clear()
    booking._busy_feed.clear()


def _rows_by_way(email: str) -> dict[str, int]:
    """Rows of `email` per holder and per way it points at them, read from the models directly
    (not through the console's own conditions)."""
    import json

    from marketing_site.db import new_session
    from marketing_site.db.auth import AuthSession
    from marketing_site.db.booking import Booking
    from marketing_site.db.leads import Lead, OutboxMessage

    address = email.lower()
    leads = select(Lead.id).where(func.lower(Lead.email) == address)

    def count(model, condition) -> int:
        with new_session() as session:
            return session.execute(select(func.count()).select_from(model).where(condition)).scalar_one()

    with new_session() as session:
        logins = [json.loads(r.user_json) | {"_sub": r.sub} for r in session.scalars(select(AuthSession))]
    return {
        "lead by email": count(Lead, func.lower(Lead.email) == address),
        "booking by lead": count(Booking, Booking.lead_id.in_(leads)),
        "outbox_message by lead": count(OutboxMessage, OutboxMessage.lead_id.in_(leads)),
        "outbox_message by To alone": count(
            OutboxMessage, (func.lower(OutboxMessage.mail_to) == address) & OutboxMessage.lead_id.is_(None)
        ),
        "outbox_message by Reply-To alone": count(
            OutboxMessage, (func.lower(OutboxMessage.reply_to) == address) & OutboxMessage.lead_id.is_(None)
        ),
        "auth_session by email claim": sum(str(c.get("email", "")).lower() == address for c in logins),
        "auth_session by subject": sum(c["_sub"].lower() == address and "email" not in c for c in logins),
    }


def test_every_way_a_holder_points_at_the_person_is_found_and_erased(people):
    from marketing_site.services.console import HOLDERS, erase_subject, subject_data

    before = _rows_by_way(SUBJECT)
    assert before == {
        "lead by email": 2,  # the document lead and the demo's lead
        "booking by lead": 1,
        "outbox_message by lead": 4,  # each lead's sales mail, the confirmation, the one above
        "outbox_message by To alone": 1,
        "outbox_message by Reply-To alone": 1,
        "auth_session by email claim": 1,
        "auth_session by subject": 1,
    }, before
    other_before = _rows_by_way(OTHER)
    # The lookup finds every row of every way, whatever the letter case it is given.
    found = subject_data(_operator(), SUBJECT.swapcase(), "lookup")
    expected = {"lead": 2, "booking": 1, "outbox_message": 6, "auth_session": 2}
    assert {name: len(rows) for name, rows in found.items()} == expected
    assert set(found) == {holder.name for holder in HOLDERS}
    # The erasure reaches each of them and says so.
    assert erase_subject(_operator(), SUBJECT.upper()) == expected
    after = _rows_by_way(SUBJECT)
    assert set(after.values()) == {0}, after
    assert _rows_by_way(OTHER) == other_before
    assert {name: len(rows) for name, rows in subject_data(_operator(), SUBJECT, "lookup").items()} == dict.fromkeys(
        expected, 0
    )


def _is_text(column) -> bool:
    # SQLModel's str fields are AutoString, a decorator over String.
    return isinstance(column.type, String) or isinstance(getattr(column.type, "impl", None), String)


def _texts_mentioning(traces: tuple[str, ...]) -> dict[str, int]:
    """Rows of every table of the models with a text column that contains one of `traces`."""
    from marketing_site.db import metadata, new_session

    found = {}
    with new_session() as session:
        for name, table in metadata.tables.items():
            columns = [c for c in table.columns if _is_text(c)]
            if not columns:
                continue
            condition = or_(*(func.lower(c).contains(trace) for c in columns for trace in traces))
            count = session.execute(select(func.count()).select_from(table).where(condition)).scalar_one()
            if count:
                found[name] = count
    return found


def test_after_the_erasure_no_table_holds_the_persons_address_or_details(people):
    from marketing_site.services.console import erase_subject

    subject_traces = (SUBJECT.lower(), *TRACES[SUBJECT])
    assert set(_texts_mentioning(subject_traces)) >= {"lead", "outbox_message", "auth_session"}
    other = _texts_mentioning((OTHER, *TRACES[OTHER]))
    erase_subject(_operator(), SUBJECT)
    # Not even the audit log nor the sales notice of the cancelled demo names the person.
    assert _texts_mentioning(subject_traces) == {}
    assert _texts_mentioning((OTHER, *TRACES[OTHER])) == other


def test_an_address_with_nothing_held_erases_nothing_and_each_request_is_audited(people):
    """The audit log keeps who did what, with what counts (sorted), never the address; an export
    keeps its filter, the search words masked (they may be a name)."""
    from marketing_site.services.console import (
        LeadFilter,
        audit_entries,
        audit_export,
        erase_subject,
        export_leads_csv,
        subject_data,
        subject_key,
    )

    nobody = "nobody@example.test"
    assert erase_subject(_operator(), nobody) == {"booking": 0, "outbox_message": 0, "lead": 0, "auth_session": 0}
    subject_data(_operator(), SUBJECT, "download")
    search = LeadFilter.parse({"search": "Durand", "form": "ebook"})
    body, count = export_leads_csv(search)
    assert count == 1 and "Durand" in body
    audit_export(_operator(), search, count)
    newest, download, erasure = audit_entries()[:3]
    assert (erasure["action"], erasure["subject"]) == ("erase", subject_key(nobody))
    assert erasure["counts"] == "auth_session 0, booking 0, lead 0, outbox_message 0"
    assert erasure["actor"] == "ops@example.test"
    assert (download["action"], download["subject"]) == ("download", subject_key(SUBJECT.lower()))
    assert download["counts"] == "auth_session 2, booking 1, lead 2, outbox_message 6"
    assert newest["action"] == "export" and newest["counts"] == "lead 1"
    assert json.loads(newest["subject"]) == {**search.query(), "search": "…"}
    assert "Durand" not in json.dumps(audit_entries())
