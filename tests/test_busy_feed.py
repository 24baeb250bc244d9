"""The busy periods read from the consultant's iCalendar feed, moment by moment, in a zone far
from UTC (New York, UTC-5 in winter) so that a moment read in the wrong zone lands elsewhere: an
event's end from DTEND, from DURATION or from neither, all-day and floating times in the
consultant's zone, VFREEBUSY periods as start/end or start/duration, one or several per
component or none. Then the feed's cache over real HTTP on loopback: a redirect followed, an
error answer not read as the feed, the retry after a failure, the last periods kept. Build-free:
`parse_busy` on the feed's bytes, a fresh `_BusyFeed` per test."""

from __future__ import annotations

import http.server
import threading
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from servers import free_port

NEW_YORK = ZoneInfo("America/New_York")
SINCE, UNTIL = datetime(2026, 12, 20, tzinfo=UTC), datetime(2026, 12, 31, tzinfo=UTC)


def _feed(*components: str) -> bytes:
    body = "".join(components)
    return f"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//busy//EN\r\n{body}END:VCALENDAR\r\n".encode()


def _event(uid: str, *lines: str) -> str:
    return (
        f"BEGIN:VEVENT\r\nUID:{uid}\r\nDTSTAMP:20261201T000000Z\r\n"
        + "".join(f"{line}\r\n" for line in lines)
        + "END:VEVENT\r\n"
    )


def _utc(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def _periods(feed: bytes) -> list[tuple[datetime, datetime]]:
    from marketing_site.services.booking import parse_busy

    return sorted(parse_busy(feed, NEW_YORK, SINCE, UNTIL))


def test_an_events_end_comes_from_dtend_duration_or_its_kind():
    feed = _feed(
        # DURATION instead of DTEND: 90 minutes from 09:00 New York (14:00 UTC).
        _event("duration", "DTSTART;TZID=America/New_York:20261222T090000", "DURATION:PT1H30M"),
        # A start alone: a moment (RFC 5545 §3.6.1), busy for no time.
        _event("moment", "DTSTART:20261223T150000Z"),
        # A date alone: that whole day, from midnight in the consultant's zone.
        _event("day", "DTSTART;VALUE=DATE:20261224"),
    )
    assert _periods(feed) == [
        (_utc("2026-12-22T14:00"), _utc("2026-12-22T15:30")),
        (_utc("2026-12-23T15:00"), _utc("2026-12-23T15:00")),
        (_utc("2026-12-24T05:00"), _utc("2026-12-25T05:00")),
    ]


def test_all_day_and_floating_times_are_the_consultants_not_utc():
    feed = _feed(
        _event("days", "DTSTART;VALUE=DATE:20261228", "DTEND;VALUE=DATE:20261230"),
        # No TZID and no Z: floating, the consultant's local time (10:00 New York is 15:00 UTC).
        _event("floating", "DTSTART:20261222T100000", "DTEND:20261222T113000"),
        # The same with a duration, and a start alone.
        _event("floating-duration", "DTSTART:20261223T100000", "DURATION:PT45M"),
        _event("floating-moment", "DTSTART:20261226T100000"),
    )
    assert _periods(feed) == [
        (_utc("2026-12-22T15:00"), _utc("2026-12-22T16:30")),
        (_utc("2026-12-23T15:00"), _utc("2026-12-23T15:45")),
        (_utc("2026-12-26T15:00"), _utc("2026-12-26T15:00")),
        (_utc("2026-12-28T05:00"), _utc("2026-12-30T05:00")),
    ]


def test_free_busy_periods_in_any_of_their_forms():
    feed = _feed(
        # Two FREEBUSY lines in one component: a start/end and a start/duration.
        "BEGIN:VFREEBUSY\r\nUID:two\r\nDTSTAMP:20261201T000000Z\r\n"
        "FREEBUSY:20261222T140000Z/20261222T151500Z\r\nFREEBUSY:20261223T140000Z/PT2H\r\nEND:VFREEBUSY\r\n",
        # One line, a floating start: the consultant's time, like an event's.
        "BEGIN:VFREEBUSY\r\nUID:one\r\nDTSTAMP:20261201T000000Z\r\nFREEBUSY:20261224T090000/PT1H\r\nEND:VFREEBUSY\r\n",
        # A component with no period at all blocks nothing.
        "BEGIN:VFREEBUSY\r\nUID:none\r\nDTSTAMP:20261201T000000Z\r\nEND:VFREEBUSY\r\n",
    )
    assert _periods(feed) == [
        (_utc("2026-12-22T14:00"), _utc("2026-12-22T15:15")),
        (_utc("2026-12-23T14:00"), _utc("2026-12-23T16:00")),
        (_utc("2026-12-24T14:00"), _utc("2026-12-24T15:00")),
    ]


def test_a_fresh_feed_cache_over_an_unreachable_feed_offers_without_it(store, monkeypatch):
    """The cache as the process starts (not cleared by a test first): a refused feed gives no
    busy period, and the cache keeps the failure's URL."""
    from marketing_site import settings
    from marketing_site.services.booking import _BusyFeed

    url = f"http://127.0.0.1:{free_port()}/busy.ics"
    monkeypatch.setenv("BOOKING_BUSY_ICS_URL", url)
    settings.get_settings.cache_clear()
    feed = _BusyFeed()
    assert feed.get(SINCE) == []
    assert (feed.url, feed.periods) == (url, [])


class _Calendar(http.server.BaseHTTPRequestHandler):
    """The consultant's calendar server: `/moved` redirects to `/busy.ics`, which answers
    `status` with `body`."""

    status = 200
    body = b""
    hits = 0

    def do_GET(self):
        type(self).hits += 1
        if self.path == "/moved":
            self.send_response(302)
            self.send_header("Location", "/busy.ics")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_response(self.status)
        self.send_header("Content-Type", "text/calendar")
        self.send_header("Content-Length", str(len(self.body)))
        self.end_headers()
        self.wfile.write(self.body)

    def log_message(self, *args):
        pass


BUSY = _feed(_event("busy", "DTSTART:20261222T140000Z", "DTEND:20261222T150000Z"))
BUSY_PERIODS = [(_utc("2026-12-22T14:00"), _utc("2026-12-22T15:00"))]


@pytest.fixture
def calendar(store, monkeypatch):
    """A fresh feed cache and a calendar server on loopback; `point(path, cache_seconds)` sets
    BOOKING_BUSY_ICS_URL (and the cache's lifetime) to a path of it."""
    from marketing_site import settings
    from marketing_site.services.booking import _BusyFeed

    _Calendar.status, _Calendar.body, _Calendar.hits = 200, BUSY, 0
    server = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), _Calendar)
    threading.Thread(target=server.serve_forever, daemon=True).start()

    def point(path: str, cache_seconds: int = 300) -> str:
        url = f"http://127.0.0.1:{server.server_address[1]}{path}"
        monkeypatch.setenv("BOOKING_BUSY_ICS_URL", url)
        monkeypatch.setenv("BOOKING_BUSY_CACHE_SECONDS", str(cache_seconds))
        settings.get_settings.cache_clear()
        return url

    feed = _BusyFeed()
    feed.point = point
    yield feed
    server.shutdown()
    server.server_close()


def test_a_feed_behind_a_redirect_is_followed_and_kept_for_the_cache_seconds(calendar):
    calendar.point("/moved")
    assert calendar.get(SINCE) == BUSY_PERIODS
    assert _Calendar.hits == 2
    assert calendar.get(SINCE) == BUSY_PERIODS
    assert _Calendar.hits == 2  # within BOOKING_BUSY_CACHE_SECONDS: not asked again


def test_a_busy_period_later_today_is_read(calendar):
    """The feed is read from the day before the offer's first moment: what is busy later the
    same day blocks its slots."""
    calendar.point("/busy.ics")
    assert calendar.get(_utc("2026-12-22T08:00")) == BUSY_PERIODS


def test_an_error_answer_is_not_read_as_the_feed(calendar):
    _Calendar.status = 503  # a calendar in the body all the same: an error page is not the feed
    calendar.point("/busy.ics")
    assert calendar.get(SINCE) == []


@pytest.mark.parametrize(("cache_seconds", "asked"), [(300, 1), (0, 2)])
def test_after_a_failure_the_feed_is_tried_again_after_the_shorter_of_a_minute_and_the_cache(
    calendar, cache_seconds, asked
):
    """Two offers in a row after a failed read: within the minute the feed is not asked again;
    with a cache of no time it is asked at each offer."""
    _Calendar.status = 503
    calendar.point("/busy.ics", cache_seconds=cache_seconds)
    assert (calendar.get(SINCE), calendar.get(SINCE)) == ([], [])
    assert _Calendar.hits == asked


def test_a_failed_read_keeps_the_last_periods_of_the_same_feed_and_none_of_another(calendar):
    calendar.point("/busy.ics", cache_seconds=0)
    assert calendar.get(SINCE) == BUSY_PERIODS
    _Calendar.status = 503
    assert calendar.get(SINCE) == BUSY_PERIODS
    assert _Calendar.hits == 2
    calendar.point("/other.ics", cache_seconds=0)
    assert calendar.get(SINCE) == []


def test_a_refusal_reads_the_feed_itself_when_nothing_is_cached(calendar):
    """The first request after a start may be a booking, not the offer: the slot the feed says
    is busy is refused all the same."""
    from datetime import date

    from marketing_site.services import booking

    calendar.point("/busy.ics")
    (busy_start, busy_end), *_ = BUSY_PERIODS
    start = next(
        s for s in booking.Schedule.from_settings().day_starts(date(2026, 12, 22)) if busy_start <= s < busy_end
    )
    booking._busy_feed.clear()
    try:
        assert booking.refusal(start, SINCE) == "slot_taken"
    finally:
        booking._busy_feed.clear()


def test_the_feeds_floating_times_are_read_in_the_consultants_zone(calendar):
    """Through the cache as the offer reads it: BOOKING_TIMEZONE (Paris, UTC+1) is the zone of a
    time written without one."""
    _Calendar.body = _feed(_event("floating", "DTSTART:20261222T140000", "DTEND:20261222T150000"))
    calendar.point("/busy.ics")
    assert calendar.get(SINCE) == [(_utc("2026-12-22T13:00"), _utc("2026-12-22T14:00"))]
