"""The built-in demo scheduler: the offer of slots, booking, cancellation.

Slots are computed in UTC from the consultant's working hours (settings, in BOOKING_TIMEZONE):
working days minus public holidays, each working range cut into meetings of
BOOKING_MEETING_MINUTES spaced by the buffer (BOOKING_BUFFER_MINUTES), from now + the minimum notice to BOOKING_DAYS_AHEAD days ahead, minus confirmed
bookings and the busy periods of the optional `.ics` feed. A slot's id is its UTC start
(`2026-11-24T08:00Z`); the server re-checks every id it receives against the same rules.

A booking, its lead and both mails (visitor and sales, each with an invitation) are written in
one transaction; the partial unique index `uq_booking_active_slot` (one confirmed booking per
start) is what makes a slot bookable once across workers and machines. A cancellation marks the
booking cancelled, which frees the slot, and queues the METHOD:CANCEL mails.
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import hmac
import logging
import math
import re
import threading
import time
import uuid
from collections.abc import Callable, Mapping
from datetime import UTC, date, datetime, timedelta
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, available_timezones

import holidays
import httpx2
import recurring_ical_events
from icalendar import Calendar, Event, Timezone, vCalAddress, vText
from sqlalchemy import Select, delete, false, func, orm, update
from sqlalchemy import select as sql_select
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from marketing_site import metrics, routes
from marketing_site.content.demo import CONSULTANT
from marketing_site.content.lead_forms import DEMO_FORM
from marketing_site.content.words import words
from marketing_site.db import new_session, rows_changed
from marketing_site.db.booking import BY_TEAM, BY_VISITOR, CANCELLED, CONFIRMED, Booking
from marketing_site.db.leads import ATTRIBUTION, Lead, OutboxMessage, utcnow
from marketing_site.services import leads, mail
from marketing_site.services.audience import clean_attribution
from marketing_site.services.rate_limit import RateLimiter, RedisRateLimiter, make_rate_limiter
from marketing_site.settings import Settings, get_settings

log = logging.getLogger("marketing_site.booking")

# ASCII digits only: `int` reads other scripts' digits too, and one slot has one id.
SLOT_ID = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2})Z")
BUSY_FEED_TIMEOUT_SECONDS = 5
# After a failed read of the busy feed, wait this long before trying again (the offer goes on).
BUSY_FEED_RETRY_SECONDS = 60
CANCEL_PATH = "/api/v1/booking/cancel"
# A token is `<cancel key>.<expiry>.<signature>` (about 80 characters); anything much longer is not one.
MAX_CANCEL_TOKEN_LENGTH = 200
_CANCEL_PAYLOAD = re.compile(r"(?P<key>[A-Za-z0-9_-]{24})\.(?P<expiry>[1-9][0-9]{0,11})", re.ASCII)
# The links mailed before migration 0015 named the booking's row id, which SQLite handed out
# again after an erasure: a link of that form reaches nothing, and the page says why.
_RETIRED_PAYLOAD = re.compile(r"[1-9][0-9]{0,18}\.[1-9][0-9]{0,11}", re.ASCII)
TIMEZONES = frozenset(available_timezones())


# ----------------------------------------------------------------------------- the offer


def slot_id(start: datetime) -> str:
    return start.astimezone(UTC).strftime("%Y-%m-%dT%H:%MZ")


def parse_slot_id(value: Any) -> datetime | None:
    """The UTC start a slot id names, or None when it is not a well-formed id."""
    match = SLOT_ID.fullmatch(value) if isinstance(value, str) else None
    if match is None:
        return None
    try:
        year, month, day, hour, minute = map(int, match.groups())
        return datetime(year, month, day, hour, minute, tzinfo=UTC)
    except ValueError:
        return None


def _as_utc(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes; every stored moment is UTC."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


@dataclasses.dataclass(frozen=True)
class Schedule:
    """The consultant's working rules, from the settings."""

    zone: ZoneInfo
    days: tuple[int, ...]
    hours: tuple[tuple[int, int], ...]
    notice: timedelta
    days_ahead: int
    # A meeting's length and the free time kept around it.
    length: timedelta
    buffer: timedelta
    holiday_country: str

    @classmethod
    def from_settings(cls, settings: Settings | None = None) -> Schedule:
        settings = settings or get_settings()
        return cls(
            zone=ZoneInfo(settings.booking_timezone),
            days=settings.booking_working_days,
            hours=settings.booking_working_hours,
            notice=timedelta(minutes=settings.booking_min_notice_minutes),
            days_ahead=settings.booking_days_ahead,
            length=timedelta(minutes=settings.booking_meeting_minutes),
            buffer=timedelta(minutes=settings.booking_buffer_minutes),
            holiday_country=settings.booking_holidays,
        )

    def is_working_day(self, day: date) -> bool:
        if day.isoweekday() not in self.days:
            return False
        return not (self.holiday_country and day in _holidays(self.holiday_country, day.year))

    def day_starts(self, day: date) -> list[datetime]:
        """UTC starts of the day's meetings: each working range cut into meetings + buffer."""
        if not self.is_working_day(day):
            return []
        length = self.minutes(self.length)
        step = length + self.minutes(self.buffer)
        starts = []
        for first, end in self.hours:
            for minute in range(first, end - length + 1, step):
                local = datetime(day.year, day.month, day.day, minute // 60, minute % 60, tzinfo=self.zone)
                moment = local.astimezone(UTC)
                if moment.astimezone(self.zone).replace(tzinfo=None) == local.replace(tzinfo=None):
                    starts.append(moment)  # a time skipped by a DST change does not exist
        return starts

    @staticmethod
    def minutes(span: timedelta) -> int:
        return int(span.total_seconds() // 60)

    def overlaps(self, start: datetime, periods: list[tuple[datetime, datetime]]) -> bool:
        """Whether a meeting from `start`, with the buffer either side, meets a busy period."""
        end, margin = start + self.length, self.buffer
        return any(busy_start < end + margin and busy_end > start - margin for busy_start, busy_end in periods)

    def horizon(self, now: datetime) -> tuple[date, date]:
        today = now.astimezone(self.zone).date()
        return today, today + timedelta(days=self.days_ahead)


@lru_cache(maxsize=8)
def _holidays(country: str, year: int) -> holidays.HolidayBase:
    return holidays.country_holidays(country, years=[year])


def _booked_periods(since: datetime) -> list[tuple[datetime, datetime]]:
    with new_session() as session:
        rows = session.exec(
            select(Booking.starts_at, Booking.ends_at)
            .where(Booking.status == CONFIRMED)
            .where(Booking.ends_at >= since)
        ).all()
    return [(_as_utc(start), _as_utc(end)) for start, end in rows]


def available_slots(now: datetime | None = None) -> list[datetime]:
    """UTC starts of every slot a visitor can book now."""
    now = now or utcnow()
    schedule = Schedule.from_settings()
    first_day, last_day = schedule.horizon(now)
    earliest = now + schedule.notice
    taken = _booked_periods(now) + busy_periods(now)
    offer = []
    day = first_day
    while day <= last_day:
        for start in schedule.day_starts(day):
            if start >= earliest and not schedule.overlaps(start, taken):
                offer.append(start)
        day += timedelta(days=1)
    return offer


def refusal(start: datetime | None, now: datetime | None = None) -> str | None:
    """Why `start` cannot be booked now (an error code of content/<lang>/booking.yaml), or None."""
    now = now or utcnow()
    if start is None:
        return "slot_invalid"
    if start <= now:
        return "slot_past"
    schedule = Schedule.from_settings()
    day = start.astimezone(schedule.zone).date()
    first_day, last_day = schedule.horizon(now)
    if not first_day <= day <= last_day or not schedule.is_working_day(day):
        return "slot_outside_hours"
    if start not in schedule.day_starts(day):
        local = start.astimezone(schedule.zone)
        minute = local.hour * 60 + local.minute
        length = schedule.minutes(schedule.length)
        within = any(first <= minute and minute + length <= end for first, end in schedule.hours)
        # Inside working hours but off the grid: not an id the site ever offered.
        return "slot_invalid" if within else "slot_outside_hours"
    if start < now + schedule.notice:
        return "slot_too_soon"
    if schedule.overlaps(start, _booked_periods(now) + busy_periods(now)):
        return "slot_taken"
    return None


# ----------------------------------------------------------------------------- busy feed


class _BusyFeed:
    """The busy periods of BOOKING_BUSY_ICS_URL, read on the server and cached per process."""

    def __init__(self):
        self.lock = threading.Lock()
        self.url = ""
        self.periods: list[tuple[datetime, datetime]] = []
        self.fresh_until = 0.0

    def get(self, now: datetime) -> list[tuple[datetime, datetime]]:
        settings = get_settings()
        url = settings.booking_busy_ics_url.get_secret_value()
        if not url:
            return []
        with self.lock:
            if url == self.url and time.monotonic() < self.fresh_until:
                return self.periods
            try:
                response = httpx2.get(url, timeout=BUSY_FEED_TIMEOUT_SECONDS, follow_redirects=True)
                response.raise_for_status()
                # The offer's span (and a day either side); the cache lasts far less than a day.
                periods = parse_busy(
                    response.content,
                    ZoneInfo(settings.booking_timezone),
                    now - timedelta(days=1),
                    now + timedelta(days=settings.booking_days_ahead + 2),
                )
            except Exception as error:  # noqa: BLE001 — any failure: keep offering slots
                log.warning("busy-times feed unreachable, slots offered without it: %s", _feed_failure(error))
                if url != self.url:
                    self.periods = []
                self.url = url
                self.fresh_until = time.monotonic() + min(BUSY_FEED_RETRY_SECONDS, settings.booking_busy_cache_seconds)
                return self.periods
            self.url, self.periods = url, periods
            self.fresh_until = time.monotonic() + settings.booking_busy_cache_seconds
            return periods

    def clear(self) -> None:
        with self.lock:
            self.url, self.periods, self.fresh_until = "", [], 0.0


def _feed_failure(error: Exception) -> str:
    """What failed, for the log, without the feed's address (a secret: an HTTP status error's text
    names the URL) or its content (a parse error's text quotes the calendar's lines)."""
    if isinstance(error, httpx2.HTTPStatusError):
        return f"{type(error).__name__}: HTTP {error.response.status_code}"
    if isinstance(error, httpx2.TransportError):  # connection refused, timed out: no URL in the text
        return f"{type(error).__name__}: {error}"
    return type(error).__name__


_busy_feed = _BusyFeed()


def busy_periods(now: datetime) -> list[tuple[datetime, datetime]]:
    return _busy_feed.get(now)


def _moment(value: date | datetime, zone: ZoneInfo) -> datetime:
    if not isinstance(value, datetime):  # an all-day event: from the day's midnight, local time
        value = datetime(value.year, value.month, value.day, tzinfo=zone)
    elif value.tzinfo is None:  # floating time: the consultant's
        value = value.replace(tzinfo=zone)
    return value.astimezone(UTC)


def parse_busy(feed: bytes, zone: ZoneInfo, since: datetime, until: datetime) -> list[tuple[datetime, datetime]]:
    """Busy periods of an iCalendar feed between two moments: the occurrences of opaque, not
    cancelled events (recurrences expanded by `recurring_ical_events`) and VFREEBUSY periods."""
    calendar = Calendar.from_ical(feed)
    periods = []
    for event in recurring_ical_events.of(calendar).between(since, until):
        if str(event.get("TRANSP", "OPAQUE")).upper() == "TRANSPARENT":
            continue
        if str(event.get("STATUS", "")).upper() == "CANCELLED":
            continue
        start = event.decoded("DTSTART")
        if "DTEND" in event:
            end = event.decoded("DTEND")
        elif "DURATION" in event:
            end = start + event.decoded("DURATION")
        else:
            end = start + (timedelta(days=1) if not isinstance(start, datetime) else timedelta(0))
        periods.append((_moment(start, zone), _moment(end, zone)))
    for freebusy in calendar.walk("VFREEBUSY"):
        values = freebusy.get("FREEBUSY", [])
        for period in values if isinstance(values, list) else [values]:
            start, end = period.dt  # (start, end) or (start, duration)
            end = start + end if isinstance(end, timedelta) else end
            periods.append((_moment(start, zone), _moment(end, zone)))
    return periods


# ----------------------------------------------------------------------------- cancel links


def _cancel_key() -> bytes:
    from marketing_site.services.sessions import session_secret

    return hashlib.sha256(b"nereo-booking-cancel:" + session_secret().encode()).digest()


def _cancel_signature(payload: str) -> str:
    digest = hmac.new(_cancel_key(), payload.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def cancel_token(cancel_key: str, expires: datetime) -> str:
    """`<cancel key>.<expiry>.<HMAC>`: names the booking by its random key, valid until its start.

    Never the row id: a key is made once with its booking and deleted with it, so a link of an
    erased or purged booking reaches nothing, whatever row comes next."""
    payload = f"{cancel_key}.{int(expires.timestamp())}"
    return payload + "." + _cancel_signature(payload)


def read_cancel_token(token: str, now: datetime | None = None) -> tuple[str | None, str | None]:
    """(cancel key, None) for a valid token, else (None, "invalid" | "expired" | "retired").

    The signature is checked over the token's text exactly as received, before anything is
    parsed: only the text this site signed passes (not `07` for `7`, nor other scripts'
    digits that `int` would read alike), and no number of a hostile token is ever converted.
    A token of the retired form (a row id, signed by this site before migration 0015) is
    "retired": it names nothing any more.
    """
    # A token this site wrote is short ASCII (base64url, digits, dots).
    if not isinstance(token, str) or len(token) > MAX_CANCEL_TOKEN_LENGTH or not token.isascii():
        return None, "invalid"
    payload, _, signature = token.rpartition(".")
    if not hmac.compare_digest(_cancel_signature(payload), signature):
        return None, "invalid"
    if _RETIRED_PAYLOAD.fullmatch(payload):
        return None, "retired"
    match = _CANCEL_PAYLOAD.fullmatch(payload)
    if match is None:  # signed here, so never; checked all the same
        return None, "invalid"
    if int(match["expiry"]) <= (now or utcnow()).timestamp():
        return None, "expired"
    return match["key"], None


def cancel_url(booking: Booking) -> str:
    """The link of the visitor's mail (`lang` only words the page when the token is refused)."""
    token = cancel_token(booking.cancel_key, _as_utc(booking.starts_at))
    return get_settings().absolute(f"{CANCEL_PATH}?token={token}&lang={booking.lang}")


# ----------------------------------------------------------------------------- words and invitations


def format_slot(start: datetime, zone: ZoneInfo, lang: str) -> str:
    """E.g. "mardi 24 novembre 2026 à 10:00" in `zone`."""
    text = words(lang, "booking.mail")
    local = start.astimezone(zone)
    return text["date"].format(
        weekday=text["weekdays"][local.weekday()],
        day=local.day,
        month=text["months"][local.month - 1],
        year=local.year,
        time=local.strftime("%H:%M"),
    )


def invitation(booking: Booking, lead: Lead | None, method: str) -> str:
    """The iCalendar text of the demo: METHOD:REQUEST when booked, METHOD:CANCEL when cancelled."""
    settings = get_settings()
    zone = ZoneInfo(settings.booking_timezone)
    text = words(booking.lang, "booking.mail")
    calendar = Calendar()
    calendar.add("prodid", "-//Nereo//Demo scheduler//FR")
    calendar.add("version", "2.0")
    calendar.add("method", method)
    event = Event()
    event.add("uid", booking.uid)
    event.add("dtstamp", utcnow())
    event.add("dtstart", _as_utc(booking.starts_at).astimezone(zone))
    event.add("dtend", _as_utc(booking.ends_at).astimezone(zone))
    event.add("sequence", 1 if method == "CANCEL" else 0)
    event.add("status", "CANCELLED" if method == "CANCEL" else "CONFIRMED")
    event.add("summary", text["event_summary"])
    event.add("description", text["event_description"].format(video=settings.booking_video_url))
    event.add("location", settings.booking_video_url)
    event.add("url", settings.booking_video_url)
    organizer = vCalAddress(f"mailto:{settings.booking_organizer_email}")
    organizer.params["cn"] = vText(CONSULTANT)
    event.add("organizer", organizer)
    if lead is not None:  # None: the cancellation of an erased person's demo names no one
        attendee = vCalAddress(f"mailto:{leads.email_for_headers(lead.email)}")
        attendee.params["cn"] = vText(f"{lead.firstname} {lead.name}")
        attendee.params["role"] = vText("REQ-PARTICIPANT")
        attendee.params["partstat"] = vText("NEEDS-ACTION")
        attendee.params["rsvp"] = vText("TRUE")
        event.add("attendee", attendee)
    # The zone's rules for the meeting's year and the next (the library's default spans 1970–2038).
    year = _as_utc(booking.starts_at).astimezone(zone).year
    calendar.add_component(
        Timezone.from_tzid(settings.booking_timezone, first_date=date(year, 1, 1), last_date=date(year + 1, 12, 31))
    )
    calendar.add_component(event)
    return calendar.to_ical().decode()


def _mails(booking: Booking, lead: Lead, cancelled: bool, team_member: str = "") -> list[OutboxMessage]:
    """The visitor's mail and the sales notification, each carrying the invitation; a
    cancellation by `team_member` (the console's operator) tells the visitor the team cancelled."""
    settings = get_settings()
    text = words(booking.lang, "booking.mail")
    consultant_zone = ZoneInfo(settings.booking_timezone)
    visitor_zone = ZoneInfo(booking.visitor_timezone)
    start = _as_utc(booking.starts_at)
    visitor_slot = format_slot(start, visitor_zone, booking.lang)
    sales_slot = format_slot(start, consultant_zone, "fr")
    ics = invitation(booking, lead, "CANCEL" if cancelled else "REQUEST")
    contact = leads.LeadInput.model_construct(
        form=lead.form,
        lang=lead.lang,
        attribution={key: getattr(lead, key) for key in ATTRIBUTION},
        **{name: getattr(lead, name) for name in leads.FIELD_NAMES},
    )
    fields = {
        "firstname": lead.firstname,
        "name": lead.name,
        "company": lead.company,
        "zone": booking.visitor_timezone,
        "video": settings.booking_video_url,
        "consultant_zone": settings.booking_timezone,
        "lang": booking.lang,
        "summary": leads.summary_text(contact),
    }
    if cancelled:
        by = "team_cancel" if team_member else "cancel"
        visitor_subject = text["cancel_subject"].format(slot=visitor_slot)
        visitor_body = text[f"{by}_body"].format(
            slot=visitor_slot, rebook=settings.absolute(routes.DEMO.path(booking.lang)), **fields
        )
        sales_subject = words("fr", f"booking_sales.{by}_subject").format(slot=sales_slot, **fields)
        sales_body = words("fr", f"booking_sales.{by}_body").format(slot=sales_slot, operator=team_member, **fields)
    else:
        visitor_subject = text["visitor_subject"].format(slot=visitor_slot)
        visitor_body = text["visitor_body"].format(slot=visitor_slot, cancel=cancel_url(booking), **fields)
        sales_subject = words("fr", "booking_sales.subject").format(slot=sales_slot, **fields)
        sales_body = words("fr", "booking_sales.body").format(slot=sales_slot, visitor_slot=visitor_slot, **fields)
    common: dict[str, Any] = {
        "lead_id": lead.id,
        "mail_from": settings.mail_from,
        "calendar_ics": ics,
        "next_attempt_at": utcnow(),
    }
    return [
        OutboxMessage(
            message_id=mail.new_message_id(),
            mail_to=leads.email_for_headers(lead.email),
            reply_to=settings.booking_organizer_email,
            subject=visitor_subject,
            body=visitor_body,
            **common,
        ),
        OutboxMessage(
            message_id=mail.new_message_id(),
            mail_to=settings.lead_mail_to,
            reply_to=leads.email_for_headers(lead.email),
            subject=sales_subject,
            body=sales_body,
            **common,
        ),
    ]


# ----------------------------------------------------------------------------- booking


@dataclasses.dataclass(frozen=True)
class BookResult:
    status: str  # booked | invalid | taken | rate_limited
    errors: dict[str, str] = dataclasses.field(default_factory=dict)
    booking_id: int | None = None
    start: datetime | None = None
    retry_after: int = 0
    duplicate: bool = False


@lru_cache(maxsize=1)
def _limiter() -> RateLimiter | RedisRateLimiter:
    settings = get_settings()
    return make_rate_limiter(settings.booking_rate_limit_per_ip, settings.rate_limit_window_seconds)


BUDGET_WINDOW_SECONDS = 24 * 3600
# Any constant of the site's own: the key of PostgreSQL's transaction lock on the budgets.
_BUDGETS_LOCK = 0x6E6572656F5F6264  # "nereo_bd"


class BudgetSpent(Exception):
    """A client's budget is spent (`reason`: budget_email or budget_address); the booking is not
    stored, and it can try again after `retry_after` seconds."""

    def __init__(self, reason: str, retry_after: int):
        super().__init__(reason)
        self.reason, self.retry_after = reason, retry_after


def address_budget_key(client_ip: str) -> str:
    """What a booking keeps of the address it came from, for its budget: a keyed hash of the
    rate limits' key (an IPv4 address, an IPv6 /64: services.client_address), never the address."""
    from marketing_site.services.sessions import id_hash

    return id_hash("booking-client:" + client_ip)[:32]


def _check_budgets(session: Session, email: str, client: str, now: datetime) -> None:
    """Within the transaction that stores a booking, before anything is written: the client's
    budgets (BudgetSpent) and the site's daily figure (an alert, never a refusal).

    A budget counts the confirmed bookings made in the last 24 hours by one client: its email,
    in any spelling (BOOKING_BUDGET_PER_EMAIL), and its address (BOOKING_BUDGET_PER_IP). A
    booking refused or lost never counts (nothing is stored), and a cancelled one gives its
    unit back (it is no longer confirmed). The count runs holding a lock every worker and
    machine takes in turn, so that two bookings at the same instant cannot both pass."""
    if session.get_bind().dialect.name == "postgresql":
        session.execute(sql_select(func.pg_advisory_xact_lock(_BUDGETS_LOCK)))
    else:  # SQLite: a write first takes the database's write lock for the whole transaction
        session.execute(update(Booking).where(false()).values(status=Booking.status))
    settings = get_settings()
    since = now - timedelta(seconds=BUDGET_WINDOW_SECONDS)
    recent = (
        select(Booking.created_at)
        .join(Lead, col(Lead.id) == col(Booking.lead_id))
        .where(col(Booking.status) == CONFIRMED)
        .where(col(Booking.created_at) > since)
    )
    for reason, condition, budget in (
        (
            "budget_email",
            func.lower(col(Lead.email)).in_(leads.email_lookup_forms(email)),
            settings.booking_budget_per_email,
        ),
        ("budget_address", col(Booking.client_key) == client, settings.booking_budget_per_ip),
    ):
        made = [_as_utc(moment) for moment in session.exec(recent.where(condition)).all()]
        if len(made) >= budget:
            # The unit that comes back first: the oldest booking leaving the window.
            raise BudgetSpent(reason, max(1, math.ceil((min(made) - since).total_seconds())))
    site_wide = len(session.exec(recent).all())
    if site_wide >= settings.booking_alert_per_day:
        # A day like no other: an operator looks (BookingsAboveDailyFigure), visitors still book.
        metrics.BOOKINGS_ABOVE_DAILY_FIGURE.inc()
        log.warning(
            "booking: %d bookings in 24 hours, BOOKING_ALERT_PER_DAY is %d",
            site_wide + 1,
            settings.booking_alert_per_day,
        )


def _refused(reason: str, retry_after: int, messages: Mapping[str, str]) -> BookResult:
    """429 with the words the widget shows. An address's budget has the site's words: online
    booking is closed to it for now, and it is given the address to write to."""
    words_key = "budget_email" if reason == "budget_email" else "budget_site"
    log.warning("booking refused: %s spent", reason)
    form = messages[words_key].format(contact=get_settings().contact_email)
    return BookResult("rate_limited", {"form": form}, retry_after=retry_after)


def _lang(payload: Mapping[str, Any]) -> str:
    return payload.get("lang") if payload.get("lang") in routes.LANGS else "fr"  # type: ignore[return-value]  # the membership test makes it a str


def book(payload: Mapping[str, Any], client_ip: str, client_key: str | None = None) -> BookResult:
    """Validate and store a booking with its lead and its two mails, in one transaction."""
    lang = _lang(payload)
    messages = words(lang, "booking.errors")
    wait = _limiter().hit(f"booking-ip:{client_ip}")
    if wait is not None:
        metrics.BOOKINGS.labels(outcome="rate_limited").inc()
        return BookResult("rate_limited", {"form": messages["rate_limited"]}, retry_after=math.ceil(wait))
    if client_key:  # the same visitor's same request again finds its booking, nobody else's
        parts = ("booking", *(payload.get(name) for name in (*leads.FIELD_NAMES, "slot", "timezone", "lang")))
        key = leads.scoped_idempotency_key(client_ip, client_key, parts)
    else:
        key = hashlib.sha256(f"booking:{uuid.uuid4()}".encode()).hexdigest()
    twin = _booking_of_lead_key(key) if client_key else None
    if twin is not None:  # the same visitor's request again (double click, retry)
        metrics.BOOKINGS.labels(outcome="duplicate").inc()
        return BookResult("booked", booking_id=twin.id, start=_as_utc(twin.starts_at), duplicate=True)
    # The demo form's fields, with the lead forms' rules and messages (services.leads), in the visitor's language.
    contact = leads.validate_fields(DEMO_FORM, payload, lang)
    errors = dict(contact.errors)
    if payload.get("lang") not in routes.LANGS:
        errors["lang"] = messages["lang"]
    zone_name = payload.get("timezone")
    if not isinstance(zone_name, str) or zone_name not in TIMEZONES:
        errors["timezone"] = messages["timezone"]
    start = parse_slot_id(payload.get("slot"))
    reason = refusal(start)
    if reason is not None:
        errors["slot"] = messages[reason]
    # Like the lead form: a filled trap field (some autofill tools fill hidden fields) marks
    # the lead for review instead of refusing the visitor.
    flags = "honeypot" if payload.get(leads.HONEYPOT_FIELD) else ""
    if errors:
        # The slot may be taken by this very request's twin (sent twice at once with the same key),
        # stored between the look-up above and this check: that is the visitor's booking, not a refusal.
        twin = _booking_of_lead_key(key) if client_key and reason == "slot_taken" else None
        if twin is not None:
            metrics.BOOKINGS.labels(outcome="duplicate").inc()
            return BookResult("booked", booking_id=twin.id, start=_as_utc(twin.starts_at), duplicate=True)
        metrics.BOOKINGS.labels(outcome="taken" if reason == "slot_taken" and len(errors) == 1 else "invalid").inc()
        return BookResult("taken" if reason == "slot_taken" and len(errors) == 1 else "invalid", errors)
    # Both checked above (their errors returned): this tells the type checker.
    assert start is not None
    assert isinstance(zone_name, str)
    try:
        attribution = clean_attribution(payload.get("attribution"))
        booking_id = _store(
            contact.values, lang, zone_name, start, key, flags, attribution, address_budget_key(client_ip)
        )
    except (IntegrityError, BudgetSpent) as error:
        twin = _booking_of_lead_key(key) if client_key or isinstance(error, IntegrityError) else None
        if twin is not None:  # a concurrent twin of this request won: its booking is this one's
            metrics.BOOKINGS.labels(outcome="duplicate").inc()
            return BookResult("booked", booking_id=twin.id, start=_as_utc(twin.starts_at), duplicate=True)
        if isinstance(error, BudgetSpent):
            metrics.BOOKINGS.labels(outcome="over_budget").inc()
            return _refused(error.reason, error.retry_after, messages)
        metrics.BOOKINGS.labels(outcome="taken").inc()  # nothing stored: it costs no budget
        return BookResult("taken", {"slot": messages["slot_taken"]})
    mail.wake_worker()
    log.info("booking %s stored", booking_id)
    metrics.BOOKINGS.labels(outcome="booked").inc()
    return BookResult("booked", booking_id=booking_id, start=start)


def _booking_of_lead_key(key: str) -> Booking | None:
    with new_session() as session:
        return session.exec(
            select(Booking).join(Lead, col(Lead.id) == col(Booking.lead_id)).where(col(Lead.idempotency_key) == key)
        ).first()


def _store(
    contact: dict[str, str],
    lang: str,
    zone_name: str,
    start: datetime,
    key: str,
    flags: str,
    attribution: dict[str, Any],
    client: str,
) -> int:
    with new_session() as session, session.begin():
        _check_budgets(session, contact["email"], client, utcnow())
        fields: dict[str, Any] = {**contact, **attribution}
        lead = Lead(form=DEMO_FORM, lang=lang, idempotency_key=key, flags=flags, **fields)
        session.add(lead)
        session.flush()
        booking = Booking(
            lead_id=lead.id,  # type: ignore[arg-type]  # the flush above gave the lead its id
            starts_at=start,
            ends_at=start + Schedule.from_settings().length,
            visitor_timezone=zone_name,
            lang=lang,
            status=CONFIRMED,
            client_key=client,
            **attribution,
            uid=f"{uuid.uuid4()}@{urlsplit(get_settings().site_url).hostname or 'localhost'}",
        )
        session.add(booking)
        session.flush()  # the unique index speaks here when the slot was just taken
        for message in _mails(booking, lead, cancelled=False):
            session.add(message)
        return booking.id  # type: ignore[return-value]  # the flush above gave the booking its id


@dataclasses.dataclass(frozen=True)
class CancelResult:
    status: str  # confirmed (the page asks) | cancelled | already | started | invalid | expired | retired
    booking: Booking | None = None


def booking_for_token(token: str) -> CancelResult:
    """The booking a cancel link names, without changing anything (the confirmation page)."""
    cancel_key, problem = read_cancel_token(token)
    if problem is not None or cancel_key is None:
        return CancelResult(problem or "invalid")
    with new_session() as session:
        booking = session.exec(select(Booking).where(col(Booking.cancel_key) == cancel_key)).first()
    if booking is None:
        return CancelResult("invalid")
    return CancelResult("already" if booking.status == CANCELLED else "confirmed", booking)


def _cancel_in(
    session: Session, which: Any, team_member: str = "", not_started_at: datetime | None = None
) -> tuple[CancelResult, Lead | None]:
    """Within the caller's transaction: cancel the confirmed booking `which` (a condition naming
    one) and queue its METHOD:CANCEL mails; with `not_started_at`, only if it starts later. The
    booking's lead comes back when it was cancelled."""
    # A conditional update: of two clicks at once, exactly one cancels (and mails).
    confirmed = update(Booking).where(which).where(col(Booking.status) == CONFIRMED)
    if not_started_at is not None:
        confirmed = confirmed.where(col(Booking.starts_at) > not_started_at)
    by = BY_TEAM if team_member else BY_VISITOR
    changed = rows_changed(session.execute(confirmed.values(status=CANCELLED, cancelled_at=utcnow(), cancelled_by=by)))
    booking = session.exec(select(Booking).where(which).execution_options(populate_existing=True)).first()
    if booking is None:
        return CancelResult("invalid"), None
    if changed != 1:
        return CancelResult("already" if booking.status == CANCELLED else "started", booking), None
    lead = session.get(Lead, booking.lead_id)
    assert lead is not None  # a booking's lead exists (foreign key)
    for message in _mails(booking, lead, cancelled=True, team_member=team_member):
        session.add(message)
    return CancelResult("cancelled", booking), lead


def cancel(token: str) -> CancelResult:
    """Cancel the booking of a valid link: free the slot and queue the METHOD:CANCEL mails."""
    cancel_key, problem = read_cancel_token(token)
    if problem is not None or cancel_key is None:
        return CancelResult(problem or "invalid")
    with new_session() as session, session.begin():
        result, _lead = _cancel_in(session, col(Booking.cancel_key) == cancel_key)
    if result.status == "cancelled":
        mail.wake_worker()
        log.info("booking %s cancelled", result.booking.id)  # type: ignore[union-attr]  # a cancelled result carries its booking
        metrics.BOOKING_CANCELLATIONS.inc()
    return result


def cancel_for_person(
    booking_id: int, team_member: str, record: Callable[[Session, Lead], None], now: datetime | None = None
) -> CancelResult:
    """The team cancels a demo on the person's behalf (the console): a confirmed booking that has
    not started. The slot frees, the person and sales get the METHOD:CANCEL mails (the person's
    says the team cancelled; sales' names `team_member`), and `record(session, lead)` writes in
    the same transaction (the audit entry). Status: cancelled | already | started | invalid."""
    with new_session() as session, session.begin():
        result, lead = _cancel_in(session, col(Booking.id) == booking_id, team_member, now or utcnow())
        if lead is not None:
            record(session, lead)
    if result.status == "cancelled":
        mail.wake_worker()
        log.info("booking %s cancelled by the team", booking_id)
    return result


def _erasure_notice(booking: Booking) -> OutboxMessage:
    """The sales notice of a demo cancelled by an erasure: the slot and a METHOD:CANCEL of the
    same event, no detail of the person (the mail outlives their lead: `lead_id` is None)."""
    settings = get_settings()
    start = _as_utc(booking.starts_at)
    slot = format_slot(start, ZoneInfo(settings.booking_timezone), "fr")
    fields = {"slot": slot, "consultant_zone": settings.booking_timezone}
    return OutboxMessage(
        lead_id=None,
        message_id=mail.new_message_id(),
        mail_from=settings.mail_from,
        mail_to=settings.lead_mail_to,
        reply_to=settings.booking_organizer_email,
        subject=words("fr", "booking_sales.erased_subject").format(**fields),
        body=words("fr", "booking_sales.erased_body").format(**fields),
        calendar_ics=invitation(booking, None, "CANCEL"),
        next_attempt_at=utcnow(),
    )


def erase_bookings(session: orm.Session, lead_ids: Select, now: datetime | None = None) -> int:
    """Within the caller's transaction: delete the bookings of these leads; each confirmed one
    still to come is cancelled first (its slot frees with the row) and sales get the notice."""
    bookings = session.execute(select(Booking).where(col(Booking.lead_id).in_(lead_ids))).scalars().all()
    moment = now or utcnow()
    for booking in bookings:
        if booking.status == CONFIRMED and _as_utc(booking.ends_at) > moment:
            session.add(_erasure_notice(booking))
            log.info("booking %s cancelled by a data-subject erasure", booking.id)
    if not bookings:
        return 0
    ids = [booking.id for booking in bookings]
    return rows_changed(session.execute(delete(Booking).where(col(Booking.id).in_(ids))))


def upcoming(now: datetime | None = None) -> list[tuple[Booking, Lead]]:
    """Confirmed bookings that have not ended, soonest first (operator command)."""
    with new_session() as session:
        rows = session.exec(
            select(Booking, Lead)
            .join(Lead, col(Lead.id) == col(Booking.lead_id))
            .where(col(Booking.status) == CONFIRMED)
            .where(col(Booking.ends_at) > (now or utcnow()))
            .order_by(col(Booking.starts_at))
        ).all()
    return [(booking, lead) for booking, lead in rows]
