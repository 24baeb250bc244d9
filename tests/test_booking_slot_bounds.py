"""The slot rules at their exact edges, on a real migrated database (the `store` fixture, the
consultant's week set here): a slot exactly at the minimum notice is offered and accepted, one
at this very moment is past; a start off the grid that fits the working hours (to the minute
they end) is "invalid", one past them "outside hours"; the days and the horizon are the
consultant's, far from UTC (Auckland, UTC+13 in December), to the last day. Build-free."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

# Monday 21 December 2026, 08:00 in Paris (UTC+1).
NOW = datetime(2026, 12, 21, 7, 0, tzinfo=UTC)


def utc(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


@pytest.fixture
def scheduler(store, monkeypatch):
    """Weekdays 09:00-12:00 and 14:00-18:00 in Paris, meetings of 30 minutes every 45, an hour's
    notice, a week ahead, no holiday."""
    from marketing_site import settings
    from marketing_site.services import booking

    for name, value in {
        "BOOKING_TIMEZONE": "Europe/Paris",
        "BOOKING_WORKING_DAYS": "1,2,3,4,5",
        "BOOKING_WORKING_HOURS": "09:00-12:00,14:00-18:00",
        "BOOKING_MIN_NOTICE_MINUTES": "60",
        "BOOKING_DAYS_AHEAD": "7",
        "BOOKING_MEETING_MINUTES": "30",
        "BOOKING_BUFFER_MINUTES": "15",
        "BOOKING_HOLIDAYS": "",
    }.items():
        monkeypatch.setenv(name, value)
    settings.get_settings.cache_clear()
    return booking


def test_a_slot_exactly_at_the_notice_is_offered_and_accepted(scheduler):
    first = utc("2026-12-21T08:00")  # 09:00 in Paris: now + the hour's notice, to the second
    assert scheduler.available_slots(NOW)[0] == first
    assert scheduler.refusal(first, NOW) is None
    assert scheduler.refusal(first, NOW + timedelta(microseconds=1)) == "slot_too_soon"


def test_a_slot_at_this_very_moment_is_past(scheduler):
    start = utc("2026-12-22T08:00")
    assert scheduler.refusal(start, start) == "slot_past"
    assert scheduler.refusal(start, start - timedelta(hours=1)) is None


@pytest.mark.parametrize(
    ("paris", "reason"),
    [
        ("11:20", "slot_invalid"),  # off the grid, ends 11:50
        ("11:30", "slot_invalid"),  # off the grid, ends at 12:00 exactly: within the hours
        ("11:31", "slot_outside_hours"),  # would end at 12:01
        ("13:45", "slot_outside_hours"),  # lunch
    ],
)
def test_a_start_off_the_grid_is_invalid_within_the_hours_and_outside_past_them(scheduler, paris, reason):
    hour, minute = map(int, paris.split(":"))
    start = datetime(2026, 12, 22, hour - 1, minute, tzinfo=UTC)  # Paris is UTC+1 in December
    assert scheduler.refusal(start, NOW) == reason


def test_the_days_and_the_horizon_are_the_consultants_far_from_utc(scheduler, monkeypatch):
    """In Auckland, Monday 09:00 is Sunday 20:00 in UTC: the day that counts (a working day, the
    week's last) is the consultant's."""
    from marketing_site import settings

    monkeypatch.setenv("BOOKING_TIMEZONE", "Pacific/Auckland")
    settings.get_settings.cache_clear()
    now = utc("2026-12-20T20:00")  # Monday 21 December, 09:00 in Auckland
    monday = utc("2026-12-20T21:30")  # Monday 10:30 in Auckland, Sunday in UTC
    last_day = utc("2026-12-27T20:00")  # Monday 28 December 09:00, the seventh day ahead
    beyond = utc("2026-12-28T20:00")  # Tuesday 29 December 09:00
    assert [scheduler.refusal(start, now) for start in (monday, last_day, beyond)] == [None, None, "slot_outside_hours"]
    offered = scheduler.available_slots(now)
    assert monday in offered and last_day in offered and beyond not in offered


@pytest.mark.parametrize(
    ("hours", "tuesday"),
    [
        ("09:00-11:45", ["08:00", "08:45", "09:30", "10:15"]),  # the last meeting ends as the hours do
        ("09:00-10:14", ["08:00"]),  # a second one would end a minute after them
    ],
)
def test_a_meeting_ends_within_the_working_hours_to_the_minute(scheduler, monkeypatch, hours, tuesday):
    from marketing_site import settings

    monkeypatch.setenv("BOOKING_WORKING_HOURS", hours)
    settings.get_settings.cache_clear()
    offered = [
        f"{start:%H:%M}" for start in scheduler.available_slots(NOW) if start.date() == NOW.date() + timedelta(1)
    ]
    assert offered == tuesday  # in UTC: Paris is an hour ahead
