"""What a booking and its cancellation mail, on a real migrated database (the `store` fixture):
the visitor's mail in their language and zone with a cancel link that cancels, the sales
notification in French and the consultant's zone, both addressed and answered to the right
people, and the invitation each carries read back by an iCalendar parser (method, sequence,
status, UID, times in the consultant's zone with that zone's rules, organizer, attendee and
their reply parameters). A visitor far west of the consultant (Montréal, Paris) tells the two
zones apart. Build-free."""

from __future__ import annotations

import calendar
import re
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from icalendar import Calendar
from lead_payloads import booking_payload, stored_rows
from sqlmodel import select

VISITOR_ZONE = "America/Montreal"
EMAIL = "Camille.Durand@bücher.example"
EMAIL_IN_HEADERS = "Camille.Durand@xn--bcher-kva.example"
ORGANIZER = "demo@nereo-wealth.fr"
SALES = "leads@nereo-wealth.fr"
VIDEO = "https://meet.nereo-wealth.fr/demo"


@pytest.fixture
def booked(store):
    """A booking in English from Montréal: (the booking service, the row, its two mails)."""
    from marketing_site.db.booking import Booking
    from marketing_site.services import booking

    slot = booking.available_slots()[0]
    payload = booking_payload(booking.slot_id(slot), lang="en", timezone=VISITOR_ZONE, email=EMAIL)
    result = booking.book(payload, "10.0.0.1")
    assert result.status == "booked" and result.start == slot
    [row] = stored_rows(Booking)
    return booking, row, _mails()


def _mails(after: int = 0) -> list:
    """The outbox's messages after id `after`: (visitor's, sales') of each booking or cancellation."""
    from marketing_site.db import new_session
    from marketing_site.db.leads import OutboxMessage

    with new_session() as session:
        return session.exec(select(OutboxMessage).where(OutboxMessage.id > after).order_by(OutboxMessage.id)).all()


def _english_slot(start: datetime, zone: str) -> str:
    """The English words of a slot, from the standard library's names (not the site's)."""
    local = start.astimezone(ZoneInfo(zone))
    weekday, month = calendar.day_name[local.weekday()], calendar.month_name[local.month]
    return f"{weekday} {local.day} {month} {local.year} at {local:%H:%M}"


def _event(ics: str):
    [event] = Calendar.from_ical(ics).walk("VEVENT")
    return event


def test_the_visitors_mail_is_in_their_language_and_zone_and_its_link_cancels(booked):
    booking, row, (visitor, _sales) = booked
    start = booking._as_utc(row.starts_at)
    slot = _english_slot(start, VISITOR_ZONE)
    assert (visitor.mail_to, visitor.reply_to, visitor.lead_id) == (EMAIL_IN_HEADERS, ORGANIZER, row.lead_id)
    assert slot in visitor.subject and f"{slot} ({VISITOR_ZONE})" in visitor.body and VIDEO in visitor.body
    assert visitor.next_attempt_at is not None and booking._as_utc(visitor.next_attempt_at) <= datetime.now(UTC)
    site = booking.get_settings().site_url
    [link] = re.findall(r"\S*/api/v1/booking/cancel\?\S+", visitor.body)
    assert link.startswith(f"{site}/api/v1/booking/cancel?token=") and link.endswith("&lang=en")
    token = link.split("token=", 1)[1].removesuffix("&lang=en")
    assert booking.read_cancel_token(token, start - timedelta(seconds=1)) == (row.cancel_key, None)
    assert booking.read_cancel_token(token, start) == (None, "expired")  # valid until the start
    assert booking.cancel(token).status == "cancelled"


def test_sales_are_told_in_french_in_the_consultants_zone_and_answer_the_visitor(booked):
    booking, row, (visitor, sales) = booked
    start = booking._as_utc(row.starts_at)
    paris = booking.format_slot(start, ZoneInfo("Europe/Paris"), "fr")
    assert (sales.mail_to, sales.reply_to, sales.lead_id) == (SALES, EMAIL_IN_HEADERS, row.lead_id)
    assert sales.subject == f"Démonstration réservée : {paris}"
    assert f"Créneau : {paris} (heure de Europe/Paris)" in sales.body
    assert f"chez le visiteur : {_english_slot(start, VISITOR_ZONE)} ({VISITOR_ZONE})" in sales.body
    assert "Langue : en" in sales.body and f"Visioconférence : {VIDEO}" in sales.body
    assert "Camille" in sales.body  # the lead's summary
    assert sales.calendar_ics == visitor.calendar_ics


def test_a_cancellation_mails_both_in_their_words_with_the_way_to_book_again(booked):
    from marketing_site import routes

    booking, row, (visitor, _sales) = booked
    start = booking._as_utc(row.starts_at)
    last = max(m.id for m in booked[2])
    assert booking.cancel(booking.cancel_token(row.cancel_key, start)).status == "cancelled"
    to_visitor, to_sales = _mails(last)
    slot = _english_slot(start, VISITOR_ZONE)
    assert (to_visitor.mail_to, to_sales.mail_to) == (EMAIL_IN_HEADERS, SALES)
    assert to_visitor.subject.startswith("Cancelled: ") and slot in to_visitor.subject
    rebook = booking.get_settings().absolute(routes.DEMO.path("en"))
    assert f"{slot} ({VISITOR_ZONE}) is cancelled" in to_visitor.body and rebook in to_visitor.body
    paris = booking.format_slot(start, ZoneInfo("Europe/Paris"), "fr")
    assert to_sales.subject == f"Démonstration annulée : {paris}"
    assert to_sales.body.startswith("Le visiteur a annulé") and "Camille" in to_sales.body
    assert f"Créneau libéré : {paris} (heure de Europe/Paris)" in to_sales.body
    assert _event(to_visitor.calendar_ics)["UID"] == _event(visitor.calendar_ics)["UID"]


def test_a_team_cancellation_tells_the_person_the_team_cancelled_and_sales_who_did(booked):
    booking, row, mails = booked
    last = max(m.id for m in mails)
    assert booking.cancel_for_person(row.id, "ops@example.test", lambda session, lead: None).status == "cancelled"
    to_person, to_sales = _mails(last)
    slot = _english_slot(booking._as_utc(row.starts_at), VISITOR_ZONE)
    assert f"We are sorry to have to cancel your Nereo demo on {slot}" in to_person.body
    paris = booking.format_slot(booking._as_utc(row.starts_at), ZoneInfo("Europe/Paris"), "fr")
    assert to_sales.subject == f"Démonstration annulée par l'équipe : {paris}"
    assert to_sales.body.startswith("ops@example.test a annulé cette démonstration")
    assert f"Créneau libéré : {paris} (heure de Europe/Paris)" in to_sales.body


def test_the_invitation_reads_back_as_the_meeting_with_its_people(booked):
    from marketing_site.content.demo import CONSULTANT

    booking, row, (visitor, _sales) = booked
    parsed = Calendar.from_ical(visitor.calendar_ics)
    assert (str(parsed["METHOD"]), str(parsed["VERSION"])) == ("REQUEST", "2.0")
    assert "Nereo" in str(parsed["PRODID"])
    event = _event(visitor.calendar_ics)
    start, end = booking._as_utc(row.starts_at), booking._as_utc(row.ends_at)
    assert (str(event["UID"]), event.decoded("SEQUENCE"), str(event["STATUS"])) == (row.uid, 0, "CONFIRMED")
    assert event["DTSTART"].params["TZID"] == event["DTEND"].params["TZID"] == "Europe/Paris"
    assert (event.decoded("DTSTART"), event.decoded("DTEND")) == (start, end)
    assert end - start == timedelta(minutes=30)
    assert abs(event.decoded("DTSTAMP") - datetime.now(UTC)) < timedelta(hours=1)
    assert "demo" in str(event["SUMMARY"]) and "30 min" in str(event["SUMMARY"])
    assert VIDEO in str(event["DESCRIPTION"]) and str(event["LOCATION"]) == str(event["URL"]) == VIDEO
    organizer = event["ORGANIZER"]
    assert (str(organizer), str(organizer.params["CN"])) == (f"mailto:{ORGANIZER}", CONSULTANT)
    attendee, lead = event["ATTENDEE"], _lead(row)
    assert str(attendee) == f"mailto:{EMAIL_IN_HEADERS}"
    assert {name: str(attendee.params[name]) for name in ("CN", "ROLE", "PARTSTAT", "RSVP")} == {
        "CN": f"{lead.firstname} {lead.name}",
        "ROLE": "REQ-PARTICIPANT",
        "PARTSTAT": "NEEDS-ACTION",
        "RSVP": "TRUE",
    }
    # The zone's rules for the meeting's year: its own summer-time changes are in the calendar.
    [zone] = parsed.walk("VTIMEZONE")
    assert str(zone["TZID"]) == "Europe/Paris"
    changes = {part.decoded("DTSTART").year for part in zone.subcomponents}
    assert start.astimezone(ZoneInfo("Europe/Paris")).year in changes


def test_a_cancelled_invitation_has_a_higher_sequence_and_the_erased_one_names_no_one(booked):
    from marketing_site.db import new_session
    from marketing_site.db.leads import Lead

    booking, row, _mails_of_booking = booked
    last = max(m.id for m in booked[2])
    assert booking.cancel(booking.cancel_token(row.cancel_key, booking._as_utc(row.starts_at))).status == "cancelled"
    cancelled = _event(_mails(last)[0].calendar_ics)
    assert str(Calendar.from_ical(_mails(last)[0].calendar_ics)["METHOD"]) == "CANCEL"
    assert (cancelled.decoded("SEQUENCE"), str(cancelled["STATUS"])) == (1, "CANCELLED")
    with new_session() as session:
        fresh = session.get(booking.Booking, row.id)
        anonymous = _event(booking.invitation(fresh, None, "CANCEL"))
        assert "ATTENDEE" not in anonymous and str(anonymous["UID"]) == row.uid
        assert session.get(Lead, row.lead_id) is not None


def _lead(row):
    from marketing_site.db import new_session
    from marketing_site.db.leads import Lead

    with new_session() as session:
        return session.get(Lead, row.lead_id)
