"""The scheduler's cancellations and time bounds at their exact edges, on a real migrated database
(the `store` fixture, no mock): the confirmation page's reading of a link (each status, the
booking it names, nothing changed), who cancelled and when, a demo that starts or ends at the
very moment named, the outbox worker woken by a cancellation only, the erasure's notice to
sales, and the budgets' 24-hour window at its second. Build-free."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from lead_payloads import booking_payload, stored_rows
from prometheus_client import REGISTRY
from servers import run_in_own_loop
from sqlmodel import select

OPERATOR = "ops@example.test"


@pytest.fixture
def scheduler(store):
    from marketing_site.services import booking

    return booking


def _book(scheduler, index: int = 0, email: str = "camille.durand@example.test"):
    """A booking made through the scheduler (its lead, its mails); returns the stored row."""
    from marketing_site.db.booking import Booking

    slot = scheduler.available_slots()[index]
    result = scheduler.book(booking_payload(scheduler.slot_id(slot), email=email), "10.0.0.1")
    assert result.status == "booked"
    return next(row for row in stored_rows(Booking) if row.id == result.booking_id)


def _link(scheduler, row) -> str:
    return scheduler.cancel_token(row.cancel_key, scheduler._as_utc(row.starts_at))


def _cancellations() -> float:
    return REGISTRY.get_sample_value("site_booking_cancellations_total") or 0.0


def test_the_confirmation_page_names_the_booking_of_each_link_and_changes_nothing(scheduler):
    from marketing_site.db.booking import CONFIRMED, Booking, new_cancel_key

    row = _book(scheduler)
    link = _link(scheduler, row)
    shown = scheduler.booking_for_token(link)
    assert (shown.status, shown.booking.id) == ("confirmed", row.id)
    assert [stored.status for stored in stored_rows(Booking)] == [CONFIRMED]  # asking is not cancelling
    assert scheduler.cancel(link).status == "cancelled"
    shown = scheduler.booking_for_token(link)
    assert (shown.status, shown.booking.id) == ("already", row.id)

    # Refused links say why, on the page and when cancelling, and name no booking.
    start = scheduler._as_utc(row.starts_at)
    retired = f"7.{int(start.timestamp())}"
    refused = {
        "expired": scheduler.cancel_token(row.cancel_key, datetime.now(UTC) - timedelta(seconds=1)),
        "retired": f"{retired}.{scheduler._cancel_signature(retired)}",
        "invalid": link[:-1] + ("A" if link[-1] != "A" else "B"),
    }
    for status, token in refused.items():
        assert scheduler.booking_for_token(token) == scheduler.CancelResult(status), status
        assert scheduler.cancel(token) == scheduler.CancelResult(status), status
    # A well-signed link whose booking is gone (erased, purged) reaches nothing.
    gone = scheduler.cancel_token(new_cancel_key(), start)
    assert scheduler.booking_for_token(gone) == scheduler.CancelResult("invalid")
    assert scheduler.cancel(gone) == scheduler.CancelResult("invalid")


def test_a_link_mailed_by_an_earlier_release_still_reads(scheduler, monkeypatch):
    """Links wait in mailboxes across releases: with the same SESSION_SECRET, the key, expiry and
    signature of a link are written as they always were (a changed salt or encoding of the
    signature would refuse every link already mailed)."""
    from marketing_site import settings

    monkeypatch.setenv("SESSION_SECRET", "a-fixed-secret-for-the-known-answer")
    settings.get_settings.cache_clear()
    key, start = "A" * 24, datetime(2026, 12, 22, 8, 0, tzinfo=UTC)
    mailed = "AAAAAAAAAAAAAAAAAAAAAAAA.1797926400.QwdjUqg4bAUBj0YPZGSg4z4KM7tsYC2aho9oHUK3jVU"
    assert scheduler.cancel_token(key, start) == mailed
    assert scheduler.read_cancel_token(mailed, start - timedelta(seconds=1)) == (key, None)


def test_a_visitors_cancellation_records_who_and_when_and_is_counted_once(scheduler):
    from marketing_site.db.booking import BY_VISITOR, CANCELLED, Booking

    row = _book(scheduler)
    counted = _cancellations()
    before = datetime.now(UTC)
    assert scheduler.cancel(_link(scheduler, row)).status == "cancelled"
    after = datetime.now(UTC)
    assert _cancellations() == counted + 1
    [stored] = stored_rows(Booking)
    assert (stored.status, stored.cancelled_by) == (CANCELLED, BY_VISITOR)
    assert before <= scheduler._as_utc(stored.cancelled_at) <= after
    # A second click, and a link that names nothing, count no cancellation.
    assert scheduler.cancel(_link(scheduler, row)).status == "already"
    assert scheduler.cancel("garbage").status == "invalid"
    assert _cancellations() == counted + 1


def test_the_team_cannot_cancel_a_demo_at_the_second_it_starts(scheduler):
    from marketing_site.db.booking import BY_TEAM, CANCELLED, CONFIRMED, Booking

    row = _book(scheduler)
    start = scheduler._as_utc(row.starts_at)
    recorded = []

    def record(session, lead):
        recorded.append(lead.email)

    started = scheduler.cancel_for_person(row.id, OPERATOR, record, now=start)
    assert (started.status, started.booking.id, recorded) == ("started", row.id, [])
    assert [stored.status for stored in stored_rows(Booking)] == [CONFIRMED]
    cancelled = scheduler.cancel_for_person(row.id, OPERATOR, record, now=start - timedelta(microseconds=1))
    assert (cancelled.status, cancelled.booking.id, recorded) == ("cancelled", row.id, [row_email(row)])
    [stored] = stored_rows(Booking)
    assert (stored.status, stored.cancelled_by) == (CANCELLED, BY_TEAM)
    again = scheduler.cancel_for_person(row.id, OPERATOR, record, now=start - timedelta(microseconds=1))
    assert (again.status, again.booking.id, recorded) == ("already", row.id, [row_email(row)])


def row_email(row) -> str:
    from marketing_site.db import new_session
    from marketing_site.db.leads import Lead

    with new_session() as session:
        return session.get(Lead, row.lead_id).email


def test_only_a_cancellation_or_a_booking_wakes_the_outbox_worker(scheduler, monkeypatch):
    """The worker sleeps until its next poll unless woken: a cancellation's mails go at once,
    and a refused cancellation wakes nothing (deterministic: the wake-up is a callback the
    worker's loop runs on its next turn, looked at after one turn)."""
    from marketing_site.services import mail

    monkeypatch.setattr(mail, "_wakeup", mail._Wakeup())

    async def woken(action) -> bool:
        event = mail._wakeup.bind()
        action()
        await asyncio.sleep(0)
        return event.is_set()

    def run(action) -> bool:
        return run_in_own_loop(woken(action))

    row = _book(scheduler)
    other = _book(scheduler, 1, email="other@example.test")
    assert run(lambda: scheduler.cancel("garbage")) is False
    assert run(lambda: scheduler.cancel(_link(scheduler, row))) is True
    assert run(lambda: scheduler.cancel(_link(scheduler, row))) is False  # already: no mail
    start = scheduler._as_utc(other.starts_at)
    assert run(lambda: scheduler.cancel_for_person(other.id, OPERATOR, lambda s, lead: None, now=start)) is False
    assert run(lambda: scheduler.cancel_for_person(other.id, OPERATOR, lambda s, lead: None)) is True
    assert run(lambda: scheduler.cancel_for_person(other.id, OPERATOR, lambda s, lead: None)) is False
    assert run(lambda: _book(scheduler, 2)) is True


def test_an_erasure_at_the_second_a_demo_ends_sends_no_notice_and_before_it_names_the_slot(scheduler):
    from marketing_site.db import new_session
    from marketing_site.db.booking import Booking
    from marketing_site.db.leads import Lead, OutboxMessage

    row = _book(scheduler)
    end = scheduler._as_utc(row.ends_at)
    lead_ids = select(Lead.id).where(Lead.id == row.lead_id)
    notices = select(OutboxMessage).where(OutboxMessage.lead_id.is_(None))
    with new_session() as session, session.begin():
        assert scheduler.erase_bookings(session, lead_ids, now=end) == 1
        assert session.exec(notices).all() == []  # looked at within the erasure's transaction
        session.rollback()
    with new_session() as session, session.begin():
        assert scheduler.erase_bookings(session, lead_ids, now=end - timedelta(microseconds=1)) == 1
    with new_session() as session:
        [notice] = session.exec(notices).all()
    slot = scheduler.format_slot(scheduler._as_utc(row.starts_at), ZoneInfo("Europe/Paris"), "fr")
    assert slot in notice.subject and slot in notice.body
    assert stored_rows(Booking) == []


def test_the_operators_list_leaves_out_a_demo_at_the_second_it_ends(scheduler):
    row = _book(scheduler)
    end = scheduler._as_utc(row.ends_at)
    assert [booking.id for booking, _lead in scheduler.upcoming(end - timedelta(microseconds=1))] == [row.id]
    assert scheduler.upcoming(end) == []


def test_a_booking_leaves_the_budgets_24_hours_after_it_was_made_to_the_second(scheduler, monkeypatch):
    """BOOKING_BUDGET_PER_EMAIL and _PER_IP of 1: the booking counts until 24 hours after it was
    stored, not at that second; each budget says which it is."""
    from marketing_site import settings
    from marketing_site.db import new_session

    monkeypatch.setenv("BOOKING_BUDGET_PER_EMAIL", "1")
    monkeypatch.setenv("BOOKING_BUDGET_PER_IP", "1")
    settings.get_settings.cache_clear()
    row = _book(scheduler)
    made = scheduler._as_utc(row.created_at)
    window = timedelta(seconds=scheduler.BUDGET_WINDOW_SECONDS)
    client = scheduler.address_budget_key("10.0.0.1")
    assert row.client_key == client and len(client) == 32  # the column's length (VARCHAR(32) on PostgreSQL)
    for email, address, reason in (
        ("CAMILLE.DURAND@example.test", scheduler.address_budget_key("10.9.9.9"), "budget_email"),
        ("new@example.test", client, "budget_address"),
    ):
        with new_session() as session, session.begin():
            with pytest.raises(scheduler.BudgetSpent) as spent:
                scheduler._check_budgets(session, email, address, made + window - timedelta(microseconds=1))
            assert (spent.value.reason, str(spent.value), spent.value.retry_after) == (reason, reason, 1)
            scheduler._check_budgets(session, email, address, made + window)  # the unit is back
