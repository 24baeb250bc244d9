"""A booking request's parts that no other fast test pins, on a real migrated database (the
`store` fixture): an Idempotency-Key sent again with another zone or language is a request of
its own; a retry of a booked request answers its booking even once the slot has closed; a
filled trap field marks the lead for review; the event's UID names the site's host; slot ids
are UTC whatever the server's own zone. Build-free."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

import pytest
from lead_payloads import booking_payload, stored_rows

KEY = "one-key-for-everything"


@pytest.fixture
def scheduler(store):
    from marketing_site.services import booking

    return booking


@pytest.mark.parametrize("changed", [{"timezone": "America/Montreal"}, {"lang": "en"}])
def test_a_key_sent_again_with_another_zone_or_language_is_a_request_of_its_own(scheduler, changed):
    slot = scheduler.slot_id(scheduler.available_slots()[0])
    first = scheduler.book(booking_payload(slot), "203.0.113.7", KEY)
    again = scheduler.book(booking_payload(slot, **changed), "203.0.113.7", KEY)
    assert first.status == "booked"
    assert (again.status, again.duplicate) == ("taken", False)  # refused for the slot, not the first's answer


def test_a_retry_of_a_booked_request_answers_its_booking_after_the_slot_has_closed(scheduler, monkeypatch):
    """The answer was lost, the visitor retries later: by then the slot is within the notice
    (here: the notice made a week long). The retry still finds its booking, not a refusal."""
    from marketing_site import settings

    slot = scheduler.slot_id(scheduler.available_slots()[0])
    first = scheduler.book(booking_payload(slot), "203.0.113.7", KEY)
    monkeypatch.setenv("BOOKING_MIN_NOTICE_MINUTES", str(7 * 24 * 60))
    settings.get_settings.cache_clear()
    assert scheduler.refusal(scheduler.parse_slot_id(slot)) == "slot_too_soon"
    retry = scheduler.book(booking_payload(slot), "203.0.113.7", KEY)
    assert (retry.status, retry.duplicate, retry.booking_id) == ("booked", True, first.booking_id)
    assert retry.start == first.start == scheduler.parse_slot_id(slot)  # the answer names its slot


def test_a_filled_trap_field_marks_the_lead_for_review_and_still_books(scheduler):
    from marketing_site.db.leads import Lead
    from marketing_site.services.leads import HONEYPOT_FIELD

    first, second, *_ = scheduler.available_slots()
    trapped = scheduler.book(booking_payload(scheduler.slot_id(first), **{HONEYPOT_FIELD: "x"}), "10.0.0.1")
    plain = scheduler.book(booking_payload(scheduler.slot_id(second), email="b@example.test"), "10.0.0.1")
    assert trapped.status == plain.status == "booked"
    assert [lead.flags for lead in sorted(stored_rows(Lead), key=lambda lead: lead.id)] == ["honeypot", ""]


def test_the_events_uid_names_the_sites_host(scheduler):
    from marketing_site.db.booking import Booking

    slot = scheduler.slot_id(scheduler.available_slots()[0])
    assert scheduler.book(booking_payload(slot), "10.0.0.1").status == "booked"
    [row] = stored_rows(Booking)
    unique, _, host = row.uid.partition("@")
    assert host == urlsplit(scheduler.get_settings().site_url).hostname and len(unique) == 36


@pytest.fixture
def server_in_kolkata(monkeypatch):
    """The process's own zone set far from UTC (UTC+5:30), as on a server configured locally."""
    monkeypatch.setenv("TZ", "Asia/Kolkata")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def test_slot_ids_are_utc_whatever_the_servers_zone(scheduler, server_in_kolkata):
    start = datetime(2026, 12, 22, 8, 0, tzinfo=UTC)
    assert scheduler.slot_id(start) == "2026-12-22T08:00Z"
    assert scheduler.parse_slot_id(scheduler.slot_id(start)) == start
    offered = scheduler.available_slots()
    assert all(scheduler.parse_slot_id(scheduler.slot_id(slot)) == slot for slot in offered)


def test_stored_moments_read_back_as_utc_whatever_the_servers_zone(scheduler, server_in_kolkata):
    """SQLite gives the stored moments back without a zone, PostgreSQL in its session's zone:
    either way they are the UTC moments booked (the slot stays taken, the link expires at the
    start), not the server's local time."""
    from marketing_site.db.booking import Booking

    slot = scheduler.available_slots()[0]
    assert scheduler.book(booking_payload(scheduler.slot_id(slot)), "10.0.0.1").status == "booked"
    [row] = stored_rows(Booking)
    assert scheduler._as_utc(row.starts_at) == slot and slot not in scheduler.available_slots()
    link = scheduler.cancel_token(row.cancel_key, scheduler._as_utc(row.starts_at))
    assert scheduler.read_cancel_token(link, slot - timedelta(seconds=1)) == (row.cancel_key, None)
    assert scheduler.read_cancel_token(link, slot) == (None, "expired")
    in_paris = slot.astimezone(ZoneInfo("Europe/Paris"))  # as a PostgreSQL session in Paris gives it
    assert scheduler._as_utc(in_paris) == slot and scheduler._as_utc(in_paris).tzinfo is UTC


def test_a_refused_request_names_each_wrong_field_in_the_visitors_language(scheduler):
    from marketing_site.content.words import words
    from marketing_site.services.leads import validate_fields

    slot = scheduler.slot_id(scheduler.available_slots()[0])
    english = scheduler.book(booking_payload(slot, lang="en", email="nope", timezone="Mars/Olympus"), "10.0.0.1")
    assert (english.status, set(english.errors)) == ("invalid", {"email", "timezone"})
    assert english.errors["email"] == validate_fields("demo", {"email": "nope"}, "en").errors["email"]
    assert english.errors["timezone"] == words("en", "booking.errors")["timezone"]
    unknown = scheduler.book(booking_payload(slot, lang="xx"), "10.0.0.1")
    assert (unknown.status, unknown.errors) == ("invalid", {"lang": words("fr", "booking.errors")["lang"]})
