"""A valid lead-form payload and the rows stored, for the lead tests (a helper module, not a test module)."""

from __future__ import annotations

from sqlmodel import select

EBOOK_SUBJECT = "Ebook download - Wealth manager new generation"

# Settings under which one address can store a lead and a booking per example of a property test,
# at any hour of any day: no rate limit or booking budget in the way, no holiday, no busy calendar.
UNBOUNDED_INTAKE = {
    "RATE_LIMIT_PER_IP": "1000000",
    "RATE_LIMIT_PER_EMAIL": "1000000",
    "BOOKING_RATE_LIMIT_PER_IP": "1000000",
    "BOOKING_BUDGET_PER_EMAIL": "1000000",
    "BOOKING_BUDGET_PER_IP": "1000000",
    "BOOKING_TIMEZONE": "Europe/Paris",
    "BOOKING_WORKING_DAYS": "1,2,3,4,5,6,7",
    "BOOKING_WORKING_HOURS": "00:00-24:00",
    "BOOKING_MIN_NOTICE_MINUTES": "60",
    "BOOKING_HOLIDAYS": "",
    "BOOKING_BUSY_ICS_URL": "",
}


def lead_payload(**overrides):
    payload = {
        "name": "Lefèvre",
        "firstname": "Hélène",
        "phone": "+33 1 23 45 67 89",
        "company": "Banque Exemple",
        "email": "helene.lefevre@example.com",
        "subject": EBOOK_SUBJECT,
        "text": "",
        "mailSent": False,
        "error": False,
        # The form always sends its fill time; without one the lead is flagged as fast.
        "elapsedMs": 9000,
    }
    payload.update(overrides)
    return payload


def stored_rows(model):
    from marketing_site.db import new_session

    with new_session() as session:
        return session.exec(select(model)).all()


def queue_outbox_message(**overrides) -> int:
    """One outbox message as the lead service stores it (to sales, the visitor's Reply-To, due
    now); returns its id."""
    from marketing_site.db import new_session
    from marketing_site.db.leads import OutboxMessage, utcnow
    from marketing_site.services import mail

    values = {
        "message_id": mail.new_message_id(),
        "mail_from": "Nereo <noreply@nereo-wealth.fr>",
        "mail_to": "leads@nereo-wealth.fr",
        "reply_to": "visitor@example.com",
        "subject": EBOOK_SUBJECT,
        "body": "Prénom : Hélène\n",
        "next_attempt_at": utcnow(),
        **overrides,
    }
    with new_session() as session, session.begin():
        message = OutboxMessage(**values)
        session.add(message)
        session.flush()
        return message.id


def outbox_row(message_id: int):
    """The outbox message as stored now."""
    from marketing_site.db import new_session
    from marketing_site.db.leads import OutboxMessage

    with new_session() as session:
        return session.get(OutboxMessage, message_id)
