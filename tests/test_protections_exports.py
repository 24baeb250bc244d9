"""Every column of the CSV exports, the campaign tags included (issue 39, point 15): the header is
the documented list (docs/console.md lists both), and each column holds its own row's value, in its place.
A test that compares the header with the code's own tuple, or reads a few columns, lets a column
dropped, repeated or filled from another pass. Build-free: the writers and the console's
bookings export on a real migrated database."""

from __future__ import annotations

import csv
import io
import uuid
from datetime import UTC, datetime, timedelta

import pytest
from lead_payloads import form_values

LEAD_HEADER = [
    "id",
    "created_at",
    "form",
    "lang",
    "name",
    "firstname",
    "phone",
    "company",
    "email",
    "flags",
    "landing_page",
    "referrer",
    "utm_source",
    "utm_medium",
    "utm_campaign",
]
BOOKING_HEADER = [
    "id",
    "status",
    "starts_at",
    "ends_at",
    "team_timezone",
    "visitor_starts_at",
    "visitor_timezone",
    "lang",
    "name",
    "firstname",
    "phone",
    "company",
    "email",
    "cancelled_at",
    "created_at",
    "landing_page",
    "referrer",
    "utm_source",
    "utm_medium",
    "utm_campaign",
    "utm_content",
    "utm_term",
]
# A value of its own for every text column: a column filled from another shows the other's value.
ATTRIBUTION = {
    "landing_page": "/offres/portail-client",
    "referrer": "news.example",
    "utm_source": "newsletter",
    "utm_medium": "email",
    "utm_campaign": "printemps-2027",
    "utm_content": "bouton-bleu",
    "utm_term": "portail client",
}
PERSON = {
    "name": "Durand",
    "firstname": "Camille",
    "phone": "+33 1 23 45 67 89",
    "company": "Banque Delta",
    "email": "camille.durand@example.com",
}


def _rows(text: str) -> list[dict[str, str]]:
    from marketing_site.services.lead_export import BOM, DELIMITER

    assert text.startswith(BOM)
    reader = csv.reader(io.StringIO(text.removeprefix(BOM), newline=""), delimiter=DELIMITER)
    header, *rows = list(reader)
    return [header, *(dict(zip(header, row, strict=True)) for row in rows)]


def test_every_column_of_the_lead_export_holds_its_own_value():
    from marketing_site.db.leads import Lead
    from marketing_site.services.lead_export import write_leads_csv

    lead = Lead(
        id=41,
        created_at=datetime(2026, 11, 27, 9, 5, tzinfo=UTC),
        form="white_paper",
        lang="en",
        flags="fast,no_js",
        idempotency_key="k",
        **PERSON,
        **ATTRIBUTION,
    )
    out = io.StringIO()
    assert write_leads_csv(out, [lead]) == 1
    header, row = _rows(out.getvalue())
    assert header == LEAD_HEADER
    expected = {
        "id": "41",
        "created_at": str(lead.created_at),
        "form": "white_paper",
        "lang": "en",
        "flags": "fast,no_js",
        **PERSON,
        **{key: value for key, value in ATTRIBUTION.items() if key in LEAD_HEADER},
    }
    assert row == expected


@pytest.fixture
def bookings(store):
    from marketing_site.services import booking

    return booking


def test_every_column_of_the_bookings_export_holds_its_own_value(bookings):
    from marketing_site.db import new_session
    from marketing_site.db.booking import Booking
    from marketing_site.db.leads import Lead
    from marketing_site.services.console import Operator
    from marketing_site.services.console_bookings import export_bookings_csv

    start = datetime(2026, 11, 25, 9, 0, tzinfo=UTC)
    with new_session() as session, session.begin():
        lead = Lead(form="demo", lang="en", idempotency_key=uuid.uuid4().hex, **form_values("demo", **PERSON))
        session.add(lead)
        session.flush()
        row = Booking(
            lead_id=lead.id,
            starts_at=start,
            ends_at=start + timedelta(minutes=30),
            visitor_timezone="America/New_York",
            lang="en",
            uid=f"{uuid.uuid4().hex}@example.test",
            created_at=datetime(2026, 11, 20, 16, 45, tzinfo=UTC),
            status="cancelled",
            cancelled_by="visitor",
            cancelled_at=datetime(2026, 11, 21, 7, 15, tzinfo=UTC),
            **ATTRIBUTION,
        )
        session.add(row)
        session.flush()
        booking_id = row.id
    text, count = export_bookings_csv(Operator(sub="s", email="sales@example.test"))
    header, exported = _rows(text)
    assert count == 1 and header == BOOKING_HEADER
    assert exported == {
        "id": str(booking_id),
        "status": "cancelled_visitor",
        "starts_at": "2026-11-25 10:00",
        "ends_at": "2026-11-25 10:30",
        "team_timezone": "Europe/Paris",
        "visitor_starts_at": "2026-11-25 04:00",
        "visitor_timezone": "America/New_York",
        "lang": "en",
        **PERSON,
        "cancelled_at": "2026-11-21 08:15",
        "created_at": "2026-11-20 17:45",
        **ATTRIBUTION,
    }
