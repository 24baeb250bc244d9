"""The demo scheduler's rules on a real SQLite database: the offer (hours, buffer, notice,
horizon, holidays, DST), each refusal, the busy-times feed over real HTTP on loopback, the
cancel links, retention and the operator command."""

from __future__ import annotations

import http.server
import logging
import threading
from datetime import UTC, datetime, timedelta

import pytest
from lead_payloads import form_values
from servers import free_port, migrated_sqlite_copy, run_in_own_loop
from sqlmodel import select

# Monday 21 December 2026, 08:00 in Paris (UTC+1); Friday the 25th is Christmas.
NOW = datetime(2026, 12, 21, 7, 0, tzinfo=UTC)
# The demo form's fields (from their specs), the page's language and the visitor's zone.
CONTACT = form_values("demo", lang="fr", timezone="Europe/Paris")


def utc(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


@pytest.fixture
def scheduler(tmp_path, monkeypatch):
    """services.booking bound to a fresh migrated database and known working hours."""
    from marketing_site import db, settings
    from marketing_site.services import booking

    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'booking.db'}")
    monkeypatch.setenv("MAIL_SINK_DIR", str(tmp_path / "mail"))
    monkeypatch.setenv("BOOKING_TIMEZONE", "Europe/Paris")
    monkeypatch.setenv("BOOKING_WORKING_DAYS", "1,2,3,4,5")
    monkeypatch.setenv("BOOKING_WORKING_HOURS", "09:00-12:00,14:00-18:00")
    monkeypatch.setenv("BOOKING_MIN_NOTICE_MINUTES", "240")
    monkeypatch.setenv("BOOKING_DAYS_AHEAD", "7")
    monkeypatch.setenv("BOOKING_MEETING_MINUTES", "30")
    monkeypatch.setenv("BOOKING_BUFFER_MINUTES", "15")
    monkeypatch.setenv("BOOKING_HOLIDAYS", "FR")
    monkeypatch.setenv("BOOKING_BUSY_ICS_URL", "")
    monkeypatch.setenv("BOOKING_RATE_LIMIT_PER_IP", "1000")
    monkeypatch.setenv("BOOKING_BUDGET_PER_EMAIL", "1000")
    monkeypatch.setenv("BOOKING_BUDGET_PER_IP", "1000")
    monkeypatch.setenv("BOOKING_ALERT_PER_DAY", "1000")
    monkeypatch.delenv("SMTP_HOST", raising=False)
    caches = (settings.get_settings, db.engine_for, booking._limiter)
    for cached in caches:
        cached.cache_clear()
    booking._busy_feed.clear()
    migrated_sqlite_copy(tmp_path / "booking.db")
    yield booking
    for cached in caches:
        cached.cache_clear()
    booking._busy_feed.clear()


def _day(slots, day: str) -> list[str]:
    return [s.strftime("%H:%M") for s in slots if s.strftime("%Y-%m-%d") == day]


def test_offer_follows_hours_buffer_notice_and_holidays(scheduler):
    slots = scheduler.available_slots(NOW)
    # Today: 08:00 in Paris + 4 h notice -> from 12:00 Paris; afternoon every 30 + 15 minutes (UTC).
    assert _day(slots, "2026-12-21") == ["13:00", "13:45", "14:30", "15:15", "16:00"]
    assert _day(slots, "2026-12-22") == [
        "08:00",
        "08:45",
        "09:30",
        "10:15",
        "13:00",
        "13:45",
        "14:30",
        "15:15",
        "16:00",
    ]
    assert _day(slots, "2026-12-25") == []  # Christmas
    assert _day(slots, "2026-12-26") == _day(slots, "2026-12-27") == []  # weekend
    assert max(slots).date() == datetime(2026, 12, 28).date()  # 7 days ahead
    assert all(s.tzinfo == UTC for s in slots)


def test_holidays_can_be_worked_and_summer_time_is_followed(scheduler, monkeypatch):
    from marketing_site import settings

    monkeypatch.setenv("BOOKING_HOLIDAYS", "")
    settings.get_settings.cache_clear()
    assert _day(scheduler.available_slots(NOW), "2026-12-25")[0] == "08:00"
    summer = scheduler.available_slots(datetime(2026, 6, 1, 4, 0, tzinfo=UTC))  # Whit Monday is not a holiday here
    assert _day(summer, "2026-06-02")[0] == "07:00"  # 09:00 in Paris, UTC+2


def test_each_refusal_has_its_reason(scheduler):
    assert scheduler.refusal(None, NOW) == "slot_invalid"
    assert scheduler.refusal(utc("2026-12-21T06:00"), NOW) == "slot_past"
    assert scheduler.refusal(utc("2026-12-21T08:45"), NOW) == "slot_too_soon"  # 09:45 Paris, within notice
    assert scheduler.refusal(utc("2026-12-22T08:07"), NOW) == "slot_invalid"  # off the grid: tampered
    assert scheduler.refusal(utc("2026-12-22T19:00"), NOW) == "slot_outside_hours"
    assert scheduler.refusal(utc("2026-12-22T11:00"), NOW) == "slot_outside_hours"  # lunch
    assert scheduler.refusal(utc("2026-12-25T08:00"), NOW) == "slot_outside_hours"  # holiday
    assert scheduler.refusal(utc("2026-12-26T08:00"), NOW) == "slot_outside_hours"  # Saturday
    assert scheduler.refusal(utc("2027-01-05T08:00"), NOW) == "slot_outside_hours"  # beyond the horizon
    assert scheduler.refusal(utc("2026-12-22T08:00"), NOW) is None
    assert scheduler.parse_slot_id("2026-12-22T08:00Z") == utc("2026-12-22T08:00")
    for tampered in ("2026-12-22T08:00", "2026-13-22T08:00Z", "2026-12-22 08:00Z", 1766390400, None):
        assert scheduler.parse_slot_id(tampered) is None


def test_a_booking_is_stored_with_its_lead_and_two_mails_and_a_cancel_frees_it(scheduler):
    from prometheus_client import REGISTRY

    from marketing_site.db import new_session
    from marketing_site.db.booking import Booking
    from marketing_site.db.leads import Lead, OutboxMessage

    def counted(name: str, **labels: str) -> float:
        return REGISTRY.get_sample_value(name, labels) or 0.0

    before = {o: counted("site_bookings_total", outcome=o) for o in ("booked", "taken")}
    cancellations = counted("site_booking_cancellations_total")
    [first, *_] = scheduler.available_slots()
    result = scheduler.book({**CONTACT, "slot": scheduler.slot_id(first)}, "10.0.0.1")
    assert result.status == "booked"
    with new_session() as session:
        [booking] = session.exec(select(Booking)).all()
        [lead] = session.exec(select(Lead)).all()
        mails = session.exec(select(OutboxMessage)).all()
    assert (lead.form, lead.email, booking.lead_id) == ("demo", CONTACT["email"], lead.id)
    assert sorted(m.mail_to for m in mails) == sorted([CONTACT["email"], "leads@nereo-wealth.fr"])
    assert all("METHOD:REQUEST" in m.calendar_ics for m in mails)
    assert first not in scheduler.available_slots()

    again = scheduler.book({**CONTACT, "email": "other@example.com", "slot": scheduler.slot_id(first)}, "10.0.0.2")
    assert again.status == "taken" and "vient d'être réservé" in again.errors["slot"]

    token = scheduler.cancel_token(booking.cancel_key, first)
    assert scheduler.cancel(token).status == "cancelled"
    assert scheduler.cancel(token).status == "already"  # a second click mails nothing more
    with new_session() as session:
        assert len(session.exec(select(OutboxMessage)).all()) == 4
    assert first in scheduler.available_slots()
    rebooked = scheduler.book({**CONTACT, "email": "other@example.com", "slot": scheduler.slot_id(first)}, "10.0.0.2")
    assert rebooked.status == "booked"
    # Counted where they happen (metrics.py): two bookings, one refusal, one cancellation.
    assert {o: counted("site_bookings_total", outcome=o) - n for o, n in before.items()} == {"booked": 2, "taken": 1}
    assert counted("site_booking_cancellations_total") - cancellations == 1


def test_bad_contact_details_use_the_lead_rules_and_change_nothing(scheduler):
    from marketing_site.db import new_session
    from marketing_site.db.leads import Lead

    [first, *_] = scheduler.available_slots()
    result = scheduler.book(
        {
            **CONTACT,
            "email": "not-an-email",
            "phone": "call me",
            "company": " ",
            "timezone": "Mars/Olympus",
            "slot": scheduler.slot_id(first),
        },
        "10.0.0.1",
    )
    assert result.status == "invalid"
    assert set(result.errors) == {"email", "phone", "company", "timezone"}
    # The lead form's own rules and messages, in the page's language (French by default).
    from marketing_site.services.leads import validate_fields

    assert result.errors["company"] == validate_fields("demo", {"company": " "}, "fr").errors["company"]
    assert result.errors["phone"] == validate_fields("demo", {"phone": "call me"}, "fr").errors["phone"]
    with new_session() as session:
        assert session.exec(select(Lead)).all() == []


def test_cancel_tokens_refuse_forgery_tampering_and_expiry(scheduler):
    from marketing_site.db.booking import new_cancel_key

    start = utc("2026-12-22T08:00")
    key, other_key = new_cancel_key(), new_cancel_key()
    token = scheduler.cancel_token(key, start)
    assert scheduler.read_cancel_token(token, NOW) == (key, None)
    _key, expiry, signature = token.split(".")
    assert scheduler.read_cancel_token(f"{other_key}.{expiry}.{signature}", NOW) == (None, "invalid")
    assert scheduler.read_cancel_token(f"{key}.{int(expiry) + 3600}.{signature}", NOW) == (None, "invalid")
    assert scheduler.read_cancel_token(f"{key}.{expiry}.{'A' * len(signature)}", NOW) == (None, "invalid")
    assert scheduler.read_cancel_token("garbage", NOW) == (None, "invalid")
    assert scheduler.read_cancel_token(token, start + timedelta(seconds=1)) == (None, "expired")
    # Only the text this site signed: no alias of the key or expiry, no number converted first.
    arabic = "".join(chr(0x0660 + int(d)) for d in expiry[:3]) + expiry[3:]
    for alias in (f"{key.lower()}.{expiry}.{signature}", f"{key}.0{expiry}.{signature}", f"{key}.{arabic}.{signature}"):
        assert scheduler.read_cancel_token(alias, NOW) == (None, "invalid"), alias
    for hostile in (
        f"{key}.{'9' * 400}.{signature}",
        f"{key}.{expiry}.{'é' * 43}",
        "7.\ud800.x",
        None,
        7,
        "x" * 10_000,
    ):
        assert scheduler.read_cancel_token(hostile, NOW) == (None, "invalid"), repr(hostile)[:40]
    # A link of the form mailed before migration 0015 (`<row id>.<expiry>`, signed by this site)
    # names a row id that SQLite handed out again: it reaches nothing, and says why.
    retired = f"7.{expiry}"
    assert scheduler.read_cancel_token(f"{retired}.{scheduler._cancel_signature(retired)}", NOW) == (None, "retired")
    # A slot id is ASCII digits only too.
    assert scheduler.parse_slot_id("2026-12-22T0\u0668:00Z") is None
    assert scheduler.parse_slot_id("2026-12-22T08:00Z\n") is None


class _Feed(http.server.BaseHTTPRequestHandler):
    body = b""
    hits = 0

    def do_GET(self):
        type(self).hits += 1
        self.send_response(200)
        self.send_header("Content-Type", "text/calendar")
        self.end_headers()
        self.wfile.write(self.body)

    def log_message(self, *args):
        pass


BUSY_FEED = (
    b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//busy//EN\r\n"
    # Tuesday 22nd, 14:00-15:00 Paris: the 14:00 and 14:45 slots go (15-minute buffer).
    b"BEGIN:VEVENT\r\nUID:a\r\nDTSTAMP:20261201T000000Z\r\n"
    b"DTSTART;TZID=Europe/Paris:20261222T140000\r\nDTEND;TZID=Europe/Paris:20261222T150000\r\nEND:VEVENT\r\n"
    # Free time (TRANSPARENT) and a cancelled event block nothing.
    b"BEGIN:VEVENT\r\nUID:b\r\nDTSTAMP:20261201T000000Z\r\nTRANSP:TRANSPARENT\r\n"
    b"DTSTART:20261222T080000Z\r\nDTEND:20261222T110000Z\r\nEND:VEVENT\r\n"
    b"BEGIN:VEVENT\r\nUID:c\r\nDTSTAMP:20261201T000000Z\r\nSTATUS:CANCELLED\r\n"
    b"DTSTART:20261223T080000Z\r\nDTEND:20261223T110000Z\r\nEND:VEVENT\r\n"
    # A whole day off (all-day event) on Thursday 24th.
    b"BEGIN:VEVENT\r\nUID:d\r\nDTSTAMP:20261201T000000Z\r\n"
    b"DTSTART;VALUE=DATE:20261224\r\nDTEND;VALUE=DATE:20261225\r\nEND:VEVENT\r\n"
    # Free/busy periods: Wednesday 23rd, 14:00-15:00 UTC.
    b"BEGIN:VFREEBUSY\r\nUID:e\r\nDTSTAMP:20261201T000000Z\r\n"
    b"FREEBUSY:20261223T140000Z/PT1H\r\nEND:VFREEBUSY\r\n"
    # A weekly meeting since Monday 14th, 10:00-10:30 Paris: on Monday 28th too.
    b"BEGIN:VEVENT\r\nUID:f\r\nDTSTAMP:20261201T000000Z\r\nRRULE:FREQ=WEEKLY\r\n"
    b"DTSTART;TZID=Europe/Paris:20261214T100000\r\nDTEND;TZID=Europe/Paris:20261214T103000\r\nEND:VEVENT\r\n"
    b"END:VCALENDAR\r\n"
)


def test_busy_feed_removes_its_periods_and_is_cached(scheduler, monkeypatch):
    from marketing_site import settings

    _Feed.body, _Feed.hits = BUSY_FEED, 0
    server = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), _Feed)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    monkeypatch.setenv("BOOKING_BUSY_ICS_URL", f"http://127.0.0.1:{server.server_address[1]}/busy.ics")
    settings.get_settings.cache_clear()
    try:
        slots = scheduler.available_slots(NOW)
    finally:
        server.shutdown()
        server.server_close()
    assert _day(slots, "2026-12-22") == ["08:00", "08:45", "09:30", "10:15", "14:30", "15:15", "16:00"]
    assert _day(slots, "2026-12-23") == ["08:00", "08:45", "09:30", "10:15", "13:00", "15:15", "16:00"]
    assert _day(slots, "2026-12-24") == []
    assert _day(slots, "2026-12-28")[:2] == ["08:00", "10:15"]
    # The server is gone: the cached periods still apply, without a new request.
    assert scheduler.available_slots(NOW) == slots
    assert _Feed.hits == 1
    assert scheduler.refusal(utc("2026-12-22T13:00"), NOW) == "slot_taken"


def test_unreachable_busy_feed_keeps_the_offer_and_is_logged(scheduler, monkeypatch, caplog):
    from marketing_site import settings

    monkeypatch.setenv("BOOKING_BUSY_ICS_URL", f"http://127.0.0.1:{free_port()}/busy.ics")
    settings.get_settings.cache_clear()
    with caplog.at_level(logging.WARNING, logger="marketing_site.booking"):
        slots = scheduler.available_slots(NOW)
    assert _day(slots, "2026-12-22")[0] == "08:00"
    assert any("busy-times feed unreachable" in r.getMessage() for r in caplog.records)


def test_retention_purges_old_bookings_with_their_lead(scheduler):
    from marketing_site.db import new_session
    from marketing_site.db.booking import Booking
    from marketing_site.db.leads import Lead
    from marketing_site.services.retention import purge_leads

    [first, *_] = scheduler.available_slots()
    assert scheduler.book({**CONTACT, "slot": scheduler.slot_id(first)}, "10.0.0.1").status == "booked"
    kept = purge_leads(36)
    assert (kept.leads, kept.bookings) == (0, 0)
    result = purge_leads(36, now=datetime.now(UTC) + timedelta(days=37 * 31))
    assert (result.leads, result.mails, result.bookings) == (1, 2, 1)
    with new_session() as session:
        assert session.exec(select(Booking)).all() == [] and session.exec(select(Lead)).all() == []


def test_operator_lists_upcoming_bookings(scheduler, capsys):
    from marketing_site import ops

    first, second, *_ = scheduler.available_slots()
    assert scheduler.book({**CONTACT, "slot": scheduler.slot_id(second)}, "10.0.0.1").status == "booked"
    assert (
        scheduler.book({**CONTACT, "email": "b@example.com", "slot": scheduler.slot_id(first)}, "10.0.0.1").status
        == "booked"
    )
    assert ops.main(["bookings"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    assert f"{first:%Y-%m-%d %H:%M} UTC" in lines[0] and "<b@example.com>" in lines[0]
    assert f"{second:%Y-%m-%d %H:%M} UTC" in lines[1] and CONTACT["email"] in lines[1]


def test_booking_attempts_are_limited_per_ip(scheduler, monkeypatch):
    from marketing_site import settings

    monkeypatch.setenv("BOOKING_RATE_LIMIT_PER_IP", "2")
    settings.get_settings.cache_clear()
    scheduler._limiter.cache_clear()
    first, second, third, *_ = scheduler.available_slots()
    assert scheduler.book({**CONTACT, "slot": scheduler.slot_id(first)}, "10.0.0.5").status == "booked"
    assert scheduler.book({**CONTACT, "slot": "bad"}, "10.0.0.5").status == "invalid"
    limited = scheduler.book({**CONTACT, "slot": scheduler.slot_id(second)}, "10.0.0.5")
    assert limited.status == "rate_limited" and limited.retry_after > 0
    assert limited.errors == {"form": "Trop de tentatives. Réessayez dans quelques minutes."}
    assert scheduler.book({**CONTACT, "slot": scheduler.slot_id(third)}, "10.0.0.6").status == "booked"


def _budgets(monkeypatch, per_email: int, per_ip: int = 1000, alert: int = 1000) -> None:
    from marketing_site import settings

    monkeypatch.setenv("BOOKING_BUDGET_PER_EMAIL", str(per_email))
    monkeypatch.setenv("BOOKING_BUDGET_PER_IP", str(per_ip))
    monkeypatch.setenv("BOOKING_ALERT_PER_DAY", str(alert))
    settings.get_settings.cache_clear()


def _counted(name: str, **labels: str) -> float:
    from prometheus_client import REGISTRY

    return REGISTRY.get_sample_value(name, labels) or 0.0


def test_an_email_gets_its_budget_of_bookings_whatever_the_address_and_however_it_is_written(scheduler, monkeypatch):
    """Issue 30, finding 7: one client booked every slot, each booking mailing a confirmation to
    any address. Now an email has BOOKING_BUDGET_PER_EMAIL bookings a day, from any address
    (each booking here from another /64), in any spelling of the address; the refusal says
    why and what to do, in the visitor's language."""
    _budgets(monkeypatch, per_email=2)
    slots = scheduler.available_slots()
    spellings = ["ada@bücher.example", "ADA@xn--bcher-kva.example", "Ada@BÜCHER.example"]
    results = [
        scheduler.book({**CONTACT, "email": email, "slot": scheduler.slot_id(slot)}, f"2001:db8:{n}::/64")
        for n, (email, slot) in enumerate(zip(spellings, slots, strict=False))
    ]
    assert [r.status for r in results] == ["booked", "booked", "rate_limited"]
    # The unit comes back when the oldest booking leaves the 24 hours.
    assert 86_000 < results[2].retry_after <= 86_400
    assert results[2].errors["form"].startswith("Cette adresse e-mail a déjà réservé")
    assert "contact@nereo-wealth.fr" in results[2].errors["form"]
    english = scheduler.book({**CONTACT, "email": spellings[0], "lang": "en", "slot": scheduler.slot_id(slots[3])}, "x")
    assert english.errors["form"].startswith("This email address has booked as many demos as it can today")
    # Another email has its own budget; nothing was stored for the refused ones.
    assert scheduler.book({**CONTACT, "email": "bob@example.com", "slot": scheduler.slot_id(slots[4])}, "y").status == (
        "booked"
    )
    from lead_payloads import stored_rows

    from marketing_site.db.booking import Booking

    assert len(stored_rows(Booking)) == 3


def test_an_address_spends_its_own_budget_and_the_sites_figure_alerts_without_closing(scheduler, monkeypatch):
    """Issue 39, finding 2: 24 bookings from 3 addresses closed the scheduler to everyone for a
    day. Now an address (an IPv6 /64, whatever its emails) has BOOKING_BUDGET_PER_IP bookings a
    day; past the site's BOOKING_ALERT_PER_DAY a booking is counted for the alert, and made."""
    _budgets(monkeypatch, per_email=10, per_ip=2, alert=3)
    slots = iter(scheduler.available_slots())
    booked = [
        scheduler.book({**CONTACT, "email": f"{n}@example.com", "slot": scheduler.slot_id(next(slots))}, address)
        for n, address in enumerate(["2001:db8:1:1::/64", "2001:db8:1:1::/64", "203.0.113.9"])
    ]
    assert [result.status for result in booked] == ["booked"] * 3
    refused = scheduler.book(
        {**CONTACT, "email": "new@example.com", "slot": scheduler.slot_id(next(slots))}, "2001:db8:1:1::/64"
    )
    assert refused.status == "rate_limited" and 86_000 < refused.retry_after <= 86_400
    assert refused.errors["form"].startswith("La réservation en ligne est momentanément saturée")
    alerts = _counted("site_bookings_above_daily_figure_total")
    for n, address in enumerate(("2001:db8:1:2::/64", "198.51.100.7")):  # the /64 next door, another: open
        slot = scheduler.slot_id(next(slots))
        assert scheduler.book({**CONTACT, "email": f"late{n}@example.com", "slot": slot}, address).status == "booked"
    assert _counted("site_bookings_above_daily_figure_total") == alerts + 2


def test_a_refused_or_lost_attempt_costs_nothing_and_a_cancellation_gives_its_unit_back(scheduler, monkeypatch):
    from lead_payloads import stored_rows

    from marketing_site.db.booking import Booking

    _budgets(monkeypatch, per_email=1, per_ip=1)
    slots = scheduler.available_slots()
    first = scheduler.book({**CONTACT, "email": "a@example.com", "slot": scheduler.slot_id(slots[0])}, "10.0.0.1")
    assert first.status == "booked"
    # Refused (a bad slot), then confirmed at the same instant as another visitor's (the slot
    # looked free to both): the database refuses it. Neither spends the second client's budgets.
    assert scheduler.book({**CONTACT, "email": "b@example.com", "slot": "nope"}, "10.0.0.2").status == "invalid"
    monkeypatch.setattr(scheduler, "refusal", lambda start, now=None: None)
    for _ in range(3):
        lost = scheduler.book({**CONTACT, "email": "b@example.com", "slot": scheduler.slot_id(slots[0])}, "10.0.0.2")
        assert lost.status == "taken" and "vient d'être réservé" in lost.errors["slot"]  # the visitor is told why
    second = scheduler.book({**CONTACT, "email": "b@example.com", "slot": scheduler.slot_id(slots[1])}, "10.0.0.2")
    assert second.status == "booked"
    again = scheduler.book({**CONTACT, "email": "b@example.com", "slot": scheduler.slot_id(slots[2])}, "10.0.0.3")
    assert again.status == "rate_limited"  # that email's one booking is made
    # Cancelled from the mail's link: the unit comes back to the email and to the address.
    booking = next(row for row in stored_rows(Booking) if row.id == second.booking_id)
    assert scheduler.cancel(scheduler.cancel_token(booking.cancel_key, slots[1])).status == "cancelled"
    rebooked = scheduler.book({**CONTACT, "email": "b@example.com", "slot": scheduler.slot_id(slots[2])}, "10.0.0.2")
    assert rebooked.status == "booked"


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("BOOKING_TIMEZONE", "Europe/Pariss", "IANA time zone"),
        ("BOOKING_HOLIDAYS", "XX", "country code"),
        ("BOOKING_WORKING_HOURS", "9-12", "ranges like 09:00-12:00"),
        ("BOOKING_WORKING_HOURS", "18:00-09:00", "start before it ends"),
        ("BOOKING_WORKING_DAYS", "0,8", "ISO weekdays"),
    ],
)
def test_scheduler_settings_are_checked_at_start(name, value, message, monkeypatch):
    from marketing_site import settings

    monkeypatch.setenv(name, value)
    settings.get_settings.cache_clear()
    try:
        with pytest.raises(ValueError, match=message):
            settings.get_settings()
    finally:
        settings.get_settings.cache_clear()


def test_a_booking_keeps_its_visit_attribution_on_both_rows_and_in_the_sales_mail(scheduler):
    from marketing_site.db import new_session
    from marketing_site.db.booking import Booking
    from marketing_site.db.leads import Lead, OutboxMessage

    [first, *_] = scheduler.available_slots()
    attribution = {"landing_page": "/", "referrer": "www.linkedin.com", "utm_source": "linkedin", "utm_campaign": "q4"}
    payload = {**CONTACT, "slot": scheduler.slot_id(first), "attribution": attribution}
    assert scheduler.book(payload, "10.0.0.1").status == "booked"
    with new_session() as session:
        (booking,) = session.exec(select(Booking)).all()
        (lead,) = session.exec(select(Lead)).all()
        mails = session.exec(select(OutboxMessage)).all()
    for row in (booking, lead):
        assert (row.landing_page, row.referrer, row.utm_source, row.utm_medium, row.utm_campaign) == (
            "/",
            "www.linkedin.com",
            "linkedin",
            "",
            "q4",
        )
    sales = next(m for m in mails if m.reply_to != scheduler.get_settings().booking_organizer_email)
    assert "Campagne (utm_campaign) : q4" in sales.body and "Page d'arrivée : /" in sales.body


def test_the_meeting_length_setting_makes_the_offer_the_booking_the_invitation_and_the_mails(scheduler, monkeypatch):
    """Issue 40: BOOKING_MEETING_MINUTES, not a constant. At 45 minutes with the 15-minute buffer
    the meetings start every hour, each booking lasts 45 minutes, and the invitation and the
    visitor's mail say so in the visitor's language."""
    import json

    from icalendar import Calendar

    from marketing_site import settings
    from marketing_site.api import booking as booking_api
    from marketing_site.db import new_session
    from marketing_site.db.booking import Booking
    from marketing_site.db.leads import OutboxMessage

    monkeypatch.setenv("BOOKING_MEETING_MINUTES", "45")
    settings.get_settings.cache_clear()
    slots = scheduler.available_slots(NOW)
    assert _day(slots, "2026-12-22") == ["08:00", "09:00", "10:00", "13:00", "14:00", "15:00", "16:00"]
    assert scheduler.refusal(utc("2026-12-22T08:45"), NOW) == "slot_invalid"  # a 30-minute grid's slot
    schedule = scheduler.Schedule.from_settings()
    start = utc("2026-12-22T13:00")
    # Busy from 50 minutes after the start: inside the meeting and its buffer (45 + 15), not after.
    assert schedule.overlaps(start, [(start + timedelta(minutes=50), start + timedelta(minutes=70))])
    assert not schedule.overlaps(start, [(start + timedelta(minutes=60), start + timedelta(minutes=70))])
    assert json.loads(run_in_own_loop(booking_api.slots(None)).body)["duration_minutes"] == 45

    first, second, *_ = scheduler.available_slots()
    for lang, slot in (("en", first), ("fr", second)):
        payload = {**CONTACT, "lang": lang, "email": f"{lang}@example.com", "slot": scheduler.slot_id(slot)}
        assert scheduler.book(payload, "10.0.0.1").status == "booked"
    with new_session() as session:
        bookings = session.exec(select(Booking)).all()
        mails = session.exec(select(OutboxMessage)).all()
    assert {b.ends_at - b.starts_at for b in bookings} == {timedelta(minutes=45)}
    visitor = {m.mail_to: m for m in mails if m.mail_to.endswith("@example.com")}
    assert "Your 45-minute Nereo demo with" in visitor["en@example.com"].body
    assert "démonstration Nereo de 45 minutes avec" in visitor["fr@example.com"].body
    for message, summary in (
        (visitor["en@example.com"], "Nereo demo (45 min)"),
        (visitor["fr@example.com"], "Démonstration Nereo (45 min)"),
    ):
        [event] = Calendar.from_ical(message.calendar_ics).walk("VEVENT")
        assert event.decoded("DTEND") - event.decoded("DTSTART") == timedelta(minutes=45)
        assert str(event["SUMMARY"]) == summary
