"""A valid lead-form payload and the rows stored, for the lead tests (a helper module, not a test module)."""

from __future__ import annotations

from sqlmodel import select

EBOOK_SUBJECT = "Ebook download - Wealth manager new generation"


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
