"""The console's Bookings view on a real migrated database, SQLite or PostgreSQL (the engines lane
runs tests/test_console*.py; issue 40, point 4): demos by day with
the person, the slot in the team's and the visitor's zone, source, campaign and status; the
team's cancellation on a person's behalf (their mail, the slot freed, the audit entry); the CSV
export's neutralisation and its role gate; erasure. The browser side is in tests/test_console.py.
"""

from __future__ import annotations

import csv
import io
import json
import time
import uuid
from datetime import UTC, datetime, timedelta

import pytest
from lead_payloads import booking_payload, form_values
from servers import run_in_own_loop
from sqlmodel import select

# Tuesday 24 November 2026, 12:00 UTC (13:00 in Paris).
NOW = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)
OPERATOR_EMAIL = "sales.lead@example.test"


def _operator():
    from marketing_site.services.console import Operator

    return Operator(sub="sales-lead", email=OPERATOR_EMAIL)


@pytest.fixture
def bookings(store):
    """The booking service on a fresh migrated database (PostgreSQL in the engines lane, else
    SQLite), the team in Paris, every hour bookable and no limit in the way."""
    from marketing_site.services import booking

    return booking


def _seed(start: datetime, minutes: int = 30, zone: str = "Europe/Paris", **values) -> int:
    """A booking row and its lead (form `demo`) as the scheduler stores them; returns its id."""
    from marketing_site.db import new_session
    from marketing_site.db.booking import Booking
    from marketing_site.db.leads import Lead

    booking_values = {
        k: values.pop(k) for k in ("status", "cancelled_by", "utm_source", "utm_campaign", "referrer") if k in values
    }
    with new_session() as session, session.begin():
        lead = Lead(form="demo", lang="fr", idempotency_key=uuid.uuid4().hex, **form_values("demo", **values))
        session.add(lead)
        session.flush()
        row = Booking(
            lead_id=lead.id,
            starts_at=start,
            ends_at=start + timedelta(minutes=minutes),
            visitor_timezone=zone,
            lang="fr",
            uid=f"{uuid.uuid4().hex}@example.test",
            **booking_values,
        )
        session.add(row)
        session.flush()
        return row.id


def utc(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def test_demos_to_come_and_past_ones_by_day_with_both_zones_source_campaign_and_status(bookings):
    from marketing_site.services.console_bookings import booking_lists

    soon = _seed(
        utc("2026-11-25T09:00"),
        zone="America/New_York",
        email="ny@example.test",
        utm_source="linkedin",
        utm_campaign="q4",
    )
    # Booked when meetings lasted 45 minutes: shown as booked, whatever the length now.
    later = _seed(
        utc("2026-11-25T14:00"), minutes=45, email="tokyo@example.test", zone="Asia/Tokyo", referrer="www.google.com"
    )
    next_day = _seed(utc("2026-11-26T08:00"), email="next@example.test", status="cancelled", cancelled_by="team")
    running = _seed(utc("2026-11-24T11:45"), email="now@example.test")  # ends 12:15: still to come, started
    past = _seed(utc("2026-11-23T09:00"), email="past@example.test", status="cancelled", cancelled_by="visitor")
    older = _seed(utc("2026-11-20T09:00"), email="older@example.test")
    _seed(utc("2026-10-20T09:00"), email="forgotten@example.test")  # more than 30 days ago: not shown
    upcoming, past_rows, cut = booking_lists(NOW)
    assert [row["id"] for row in upcoming] == [str(i) for i in (running, soon, later, next_day)]
    assert [row["id"] for row in past_rows] == [str(past), str(older)]
    assert cut is False
    # One heading per day of the team (Paris), on its first booking.
    assert [row["first_of_day"] for row in upcoming] == ["1", "1", "", "1"]
    assert [upcoming[i]["day_fr"] for i in (0, 1, 3)] == [
        "mardi 24 novembre 2026",
        "mercredi 25 novembre 2026",
        "jeudi 26 novembre 2026",
    ]
    assert upcoming[1]["day_en"] == "Wednesday 25 November 2026"
    by_id = {row["id"]: row for row in upcoming + past_rows}
    ny, tokyo = by_id[str(soon)], by_id[str(later)]
    assert (ny["team_time"], ny["visitor_time"], ny["visitor_zone"]) == (
        "10:00–10:30",
        "04:00–04:30",
        "America/New_York",
    )
    assert ny["visitor_day_fr"] == ""  # the same day as the team's
    assert (tokyo["team_time"], tokyo["visitor_time"]) == ("15:00–15:45", "23:00–23:45")
    assert (ny["source"], ny["campaign"], tokyo["source"], tokyo["campaign"]) == (
        "linkedin",
        "q4",
        "www.google.com",
        "",
    )
    assert (ny["email"], ny["firstname"], ny["name"], ny["company"]) == (
        "ny@example.test",
        "Hélène",
        "Lefèvre",
        "Banque Exemple",
    )
    statuses = {row["id"]: (row["status"], row["cancellable"]) for row in upcoming + past_rows}
    assert statuses == {
        str(running): ("confirmed", ""),  # started: no longer the team's to cancel
        str(soon): ("confirmed", "1"),
        str(later): ("confirmed", "1"),
        str(next_day): ("cancelled_team", ""),
        str(past): ("cancelled_visitor", ""),
        str(older): ("confirmed", ""),
    }


def test_a_visitor_far_east_sees_their_own_date(bookings):
    from marketing_site.services.console_bookings import booking_lists

    _seed(utc("2026-11-25T16:00"), zone="Asia/Tokyo")
    [row], _past, _cut = booking_lists(NOW)
    assert (row["visitor_time"], row["visitor_day_fr"]) == ("01:00–01:30", "jeudi 26 novembre 2026")


def test_a_long_list_is_cut_and_says_so(bookings, monkeypatch):
    from marketing_site.services import console_bookings

    monkeypatch.setattr(console_bookings, "SHOWN_MAX", 2)
    for hour in (9, 10, 11):
        _seed(utc(f"2026-11-25T{hour:02d}:00"))
    upcoming, _past, cut = console_bookings.booking_lists(NOW)
    assert len(upcoming) == 2 and cut is True


def _outbox_since(first_id: int) -> list:
    from marketing_site.db import new_session
    from marketing_site.db.leads import OutboxMessage

    with new_session() as session:
        return session.exec(select(OutboxMessage).where(OutboxMessage.id >= first_id).order_by(OutboxMessage.id)).all()


def _next_outbox_id() -> int:
    from marketing_site.db import new_session
    from marketing_site.db.leads import OutboxMessage

    with new_session() as session:
        return (session.exec(select(OutboxMessage.id).order_by(OutboxMessage.id.desc())).first() or 0) + 1


def test_the_team_cancels_on_the_persons_behalf_mails_them_frees_the_slot_and_logs_it(bookings):
    from marketing_site.db import new_session
    from marketing_site.db.booking import Booking
    from marketing_site.db.console import ConsoleAudit
    from marketing_site.services import console, mail
    from marketing_site.services.console_bookings import cancel_for_person

    slot = bookings.available_slots()[0]
    booked = bookings.book(booking_payload(bookings.slot_id(slot), email="Camille.Durand@Example.test"), "10.0.0.1")
    assert booked.status == "booked" and slot not in bookings.available_slots()
    first_new = _next_outbox_id()
    result = cancel_for_person(_operator(), booked.booking_id)
    assert result.status == "cancelled"
    with new_session() as session:
        row = session.get(Booking, booked.booking_id)
        [entry] = session.exec(select(ConsoleAudit)).all()
    assert (row.status, row.cancelled_by) == ("cancelled", "team")
    assert slot in bookings.available_slots()  # free again
    # The audit log: who, what, the person as a keyed hash of their address, never the address.
    assert (entry.actor_email, entry.action, json.loads(entry.counts_json)) == (
        OPERATOR_EMAIL,
        "cancel-booking",
        {"booking": 1},
    )
    assert entry.subject == console.subject_key("camille.durand@example.test")
    # The person's mail says the team cancelled, and sales are told who did; both cancel the event.
    to_person, to_sales = _outbox_since(first_new)
    assert to_person.mail_to == "Camille.Durand@example.test"
    assert "Nous devons malheureusement annuler votre démonstration" in to_person.body
    assert to_person.body.count("/demo-nereo") == 1  # the way to book again
    assert to_sales.mail_to == "leads@nereo-wealth.fr" and to_sales.subject.startswith(
        "Démonstration annulée par l'équipe"
    )
    assert f"{OPERATOR_EMAIL} a annulé cette démonstration" in to_sales.body and "Prénom : Hélène" in to_sales.body
    assert all(
        "METHOD:CANCEL" in m.calendar_ics and "STATUS:CANCELLED" in m.calendar_ics for m in (to_person, to_sales)
    )
    while run_in_own_loop(mail.process_due()):
        pass
    assert {m.status for m in _outbox_since(first_new)} == {"sent"}

    # Again (a second operator, a double click): nothing more is mailed or logged.
    assert cancel_for_person(_operator(), booked.booking_id).status == "already"
    assert len(_outbox_since(first_new)) == 2
    with new_session() as session:
        assert len(session.exec(select(ConsoleAudit)).all()) == 1


def test_a_started_or_unknown_demo_is_not_cancelled(bookings):
    from marketing_site.db import new_session
    from marketing_site.db.booking import Booking
    from marketing_site.services.console_bookings import cancel_for_person

    started = _seed(datetime.now(UTC) - timedelta(minutes=5))
    first_new = _next_outbox_id()
    assert cancel_for_person(_operator(), started).status == "started"
    assert cancel_for_person(_operator(), started + 1000).status == "invalid"
    with new_session() as session:
        assert session.get(Booking, started).status == "confirmed"
    assert _outbox_since(first_new) == []


def test_the_csv_export_neutralises_formulas_and_gives_both_zones(bookings):
    from marketing_site.db import new_session
    from marketing_site.db.console import ConsoleAudit
    from marketing_site.services import lead_export
    from marketing_site.services.console_bookings import CSV_COLUMNS, export_bookings_csv

    _seed(
        utc("2026-11-25T09:00"),
        zone="America/New_York",
        name='=HYPERLINK("http://evil.example")',
        firstname="+1+cmd|' /C calc'!A0",
        company="@SUM(A1)",
        phone="+33 1 23 45 67 89",
        utm_campaign="-2+3",
    )
    text, count = export_bookings_csv(_operator())
    assert count == 1 and text.startswith(lead_export.BOM)
    header = text[1:].splitlines()[0]
    assert header.split(lead_export.DELIMITER) == list(CSV_COLUMNS)
    [row] = csv.DictReader(io.StringIO(text[1:], newline=""), delimiter=lead_export.DELIMITER)
    assert row["name"] == '\'=HYPERLINK("http://evil.example")' and row["firstname"].startswith("'+1+cmd")
    assert (row["company"], row["utm_campaign"]) == ("'@SUM(A1)", "'-2+3")
    assert row["phone"] == "+33 1 23 45 67 89"  # a phone number stays readable
    assert (row["starts_at"], row["ends_at"], row["team_timezone"]) == (
        "2026-11-25 10:00",
        "2026-11-25 10:30",
        "Europe/Paris",
    )
    assert (row["visitor_starts_at"], row["visitor_timezone"], row["status"]) == (
        "2026-11-25 04:00",
        "America/New_York",
        "confirmed",
    )
    with new_session() as session:
        [entry] = session.exec(select(ConsoleAudit)).all()
    assert (entry.action, json.loads(entry.subject), json.loads(entry.counts_json)) == (
        "export",
        {"view": "bookings"},
        {"booking": 1},
    )


def test_erasure_takes_the_person_out_of_the_view_and_the_export(bookings):
    from marketing_site.services import console
    from marketing_site.services.console_bookings import booking_lists, export_bookings_csv

    _seed(utc("2026-11-25T09:00"), email="erase.me@example.test")
    _seed(utc("2026-11-25T10:00"), email="stays@example.test")
    assert console.erase_subject(_operator(), "ERASE.ME@example.test")["booking"] == 1
    upcoming, _past, _cut = booking_lists(NOW)
    assert [row["email"] for row in upcoming] == ["stays@example.test"]
    text, count = export_bookings_csv(_operator())
    assert count == 1 and "erase.me" not in text


def test_the_export_route_needs_the_console_role(bookings):
    from starlette.applications import Starlette
    from starlette.testclient import TestClient

    from marketing_site import routes
    from marketing_site.api import console as console_api
    from marketing_site.services import sessions
    from marketing_site.settings import get_settings

    _seed(utc("2026-11-25T09:00"), email="routed@example.test")
    client = TestClient(Starlette(routes=console_api.ROUTES))

    def cookie(roles: list[str]) -> dict[str, str]:
        claims = {"sub": "u", "email": "u@example.test", get_settings().oidc_roles_claim: roles}
        session_id = sessions.create_session(claims, sessions.Tokens("id", "access", None, time.time() + 3600))
        return {"cookie": f"{sessions.SESSION_COOKIE}={session_id}"}

    assert client.get(routes.CONSOLE_BOOKINGS_CSV).status_code == 401
    refused = client.get(routes.CONSOLE_BOOKINGS_CSV, headers=cookie(["ADVISOR"]))
    assert refused.status_code == 403 and "routed" not in refused.text
    served = client.get(routes.CONSOLE_BOOKINGS_CSV, headers=cookie([get_settings().console_role]))
    assert served.status_code == 200 and served.headers["content-type"].startswith("text/csv")
    assert served.headers["content-disposition"].startswith('attachment; filename="bookings-')
    assert served.headers["cache-control"] == "no-store" and "routed@example.test" in served.text
