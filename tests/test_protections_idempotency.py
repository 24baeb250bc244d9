"""An `Idempotency-Key` finds the first result of the same request only: the same key sent again
with another document (lead forms) or another slot (the scheduler), from another address, or
with other details is a request of its own, which neither returns nor swallows the first one's
lead or booking. Build-free: the services on a real migrated SQLite database."""

from __future__ import annotations

import pytest
from lead_payloads import lead_payload, person_values

pytestmark = pytest.mark.usefixtures("store")

KEY = "one-key-for-everything"


def _download(form: str, **overrides):
    from marketing_site.content.lead_forms import DOWNLOAD_FORMS

    return {**lead_payload(form), **person_values(), "subject": DOWNLOAD_FORMS[form]["subject"], **overrides}


def _leads() -> list[tuple[str, str]]:
    from sqlmodel import select

    from marketing_site.db import new_session
    from marketing_site.db.leads import Lead

    with new_session() as session:
        return [(lead.form, lead.email) for lead in session.exec(select(Lead).order_by(Lead.id)).all()]


def test_a_key_reused_for_another_document_stores_a_lead_of_its_own():
    from marketing_site.services.leads import submit_lead

    first = submit_lead(_download("ebook"), "203.0.113.7", KEY)
    again = submit_lead(_download("ebook"), "203.0.113.7", KEY)
    assert first.status == again.status == "accepted" and again.duplicate and again.lead_id == first.lead_id
    other = submit_lead(_download("white_paper"), "203.0.113.7", KEY)
    assert other.status == "accepted" and not other.duplicate and other.lead_id != first.lead_id
    assert [form for form, _ in _leads()] == ["ebook", "white_paper"]


def test_a_key_reused_from_another_address_or_with_other_details_stores_a_lead_of_its_own():
    from marketing_site.services.leads import submit_lead

    first = submit_lead(_download("ebook"), "203.0.113.7", KEY)
    elsewhere = submit_lead(_download("ebook"), "198.51.100.9", KEY)
    other_person = submit_lead(_download("ebook", email="autre@example.com"), "203.0.113.7", KEY)
    ids = {first.lead_id, elsewhere.lead_id, other_person.lead_id}
    assert len(ids) == 3 and not elsewhere.duplicate and not other_person.duplicate
    assert [email for _, email in _leads()].count("autre@example.com") == 1


def test_a_key_reused_for_another_slot_books_that_slot_too():
    from sqlmodel import select

    from marketing_site.db import new_session
    from marketing_site.db.booking import Booking
    from marketing_site.services import booking

    first_slot, second_slot, *_ = booking.available_slots()
    payload = {**person_values(), "lang": "fr", "timezone": "Europe/Paris"}
    first = booking.book({**payload, "slot": booking.slot_id(first_slot)}, "203.0.113.7", KEY)
    again = booking.book({**payload, "slot": booking.slot_id(first_slot)}, "203.0.113.7", KEY)
    assert first.status == again.status == "booked" and again.duplicate and again.booking_id == first.booking_id
    other = booking.book({**payload, "slot": booking.slot_id(second_slot)}, "203.0.113.7", KEY)
    assert other.status == "booked" and not other.duplicate and other.booking_id != first.booking_id
    elsewhere = booking.book(
        {**payload, "email": "autre@example.com", "slot": booking.slot_id(first_slot)}, "198.51.100.9", KEY
    )
    assert elsewhere.status == "taken"  # a request of its own, refused for the slot, not "booked" as a duplicate
    with new_session() as session:
        starts = sorted(b.starts_at for b in session.exec(select(Booking)).all())
    assert len(starts) == 2 and second_slot not in booking.available_slots()


def test_without_a_key_the_same_details_are_one_lead_within_ten_minutes_only(monkeypatch):
    """No Idempotency-Key: a double click (the same details within the window) stores one lead;
    the same person asking again after the window is a lead of its own."""
    from marketing_site.services import leads

    now = 1_800_000_000.0  # the start of a 10-minute window
    monkeypatch.setattr(leads.time, "time", lambda: now)
    first = leads.submit_lead(_download("ebook"), "203.0.113.7")
    now += 599
    again = leads.submit_lead(_download("ebook"), "203.0.113.7")
    assert again.duplicate and again.lead_id == first.lead_id
    now += 601
    later = leads.submit_lead(_download("ebook"), "203.0.113.7")
    assert not later.duplicate and later.lead_id != first.lead_id
