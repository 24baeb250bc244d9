"""The console's Bookings view (pages/console/bookings.py): the demos of the built-in scheduler
by day, the team's cancellation on a person's behalf, and their CSV export.

Access is `services.console.access_of`'s: the state (`state.console`) and the export route
(`api.console`) check it on every event and request. A booking's person is its lead (form
`demo`): its fields are the demo form's (`services.leads.fields_of`), so a field asked on the
booking only is shown and exported here too. Erasure (`services.console.HOLDERS`) deletes
bookings with their person: nothing of an erased person stays in this view or its export.

Times are shown in the team's zone (BOOKING_TIMEZONE: the days are the team's) and in the
visitor's (the zone their browser gave when booking); the meeting's end is the booking's own,
so a change of the meeting length shows as booked.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlmodel import col, select

from marketing_site import routes
from marketing_site.content.lead_forms import DEMO_FORM
from marketing_site.content.words import words
from marketing_site.db import new_session
from marketing_site.db.booking import BY_TEAM, CANCELLED, CONFIRMED, Booking
from marketing_site.db.leads import ATTRIBUTION, Lead, utcnow
from marketing_site.services import booking, console, lead_export, leads
from marketing_site.settings import get_settings

# Past demos shown: those of the last PAST_DAYS days (the CSV export has every booking).
PAST_DAYS = 30
# Rows shown per list at most (upcoming ones are bounded by BOOKING_DAYS_AHEAD anyway); the
# page says when some are left out, and the export has them all.
SHOWN_MAX = 300
# Every status a row can have: confirmed, or cancelled by the visitor (their mail's link) or the team.
STATUSES = ("confirmed", "cancelled_visitor", "cancelled_team")
CSV_COLUMNS = (
    "id",
    "status",
    "starts_at",
    "ends_at",
    "team_timezone",
    "visitor_starts_at",
    "visitor_timezone",
    "lang",
    *leads.fields_of(DEMO_FORM),
    "cancelled_at",
    "created_at",
    *ATTRIBUTION,
)


def _zone(name: str) -> ZoneInfo:
    """The zone of that name; UTC for a name this machine's tz database no longer has."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def team_zone_name() -> str:
    """The team's zone (BOOKING_TIMEZONE), as the view's times are written in it."""
    return _zone(get_settings().booking_timezone).key


def day_label(moment: datetime, lang: str) -> str:
    """E.g. "mardi 24 novembre 2026": the day of `moment` (already in its zone) in `lang`."""
    text = words(lang, "booking.mail")
    return words(lang, "console.bookings.day").format(
        weekday=text["weekdays"][moment.weekday()],
        day=moment.day,
        month=text["months"][moment.month - 1],
        year=moment.year,
    )


def status_of(row: Booking) -> str:
    """One of STATUSES."""
    if row.status != CANCELLED:
        return "confirmed"
    return "cancelled_team" if row.cancelled_by == BY_TEAM else "cancelled_visitor"


def _row(row: Booking, lead: Lead, team_zone: ZoneInfo, now: datetime) -> dict[str, str]:
    start, end = booking._as_utc(row.starts_at), booking._as_utc(row.ends_at)
    team_start, team_end = start.astimezone(team_zone), end.astimezone(team_zone)
    visitor_zone = _zone(row.visitor_timezone)
    visitor_start, visitor_end = start.astimezone(visitor_zone), end.astimezone(visitor_zone)
    other_day = visitor_start.date() != team_start.date()
    return {
        "id": str(row.id),
        "day": team_start.date().isoformat(),
        **{f"day_{lang}": day_label(team_start, lang) for lang in routes.LANGS},
        "team_time": f"{team_start:%H:%M}–{team_end:%H:%M}",
        "visitor_time": f"{visitor_start:%H:%M}–{visitor_end:%H:%M}",
        "visitor_zone": row.visitor_timezone,
        # The visitor's date when it is not the team's (a visitor far east or west).
        **{f"visitor_day_{lang}": day_label(visitor_start, lang) if other_day else "" for lang in routes.LANGS},
        "lang": row.lang,
        # The demo form's fields (an optional one left empty is empty).
        **{name: getattr(lead, name) or "" for name in leads.fields_of(DEMO_FORM)},
        "source": row.utm_source or row.referrer,
        "campaign": row.utm_campaign,
        "status": status_of(row),
        # The team cancels a confirmed demo that has not started yet.
        "cancellable": "1" if row.status == CONFIRMED and start > now else "",
    }


def _by_day(rows: list[dict[str, str]]) -> list[dict[str, str]]:
    """The rows with `first_of_day` set on the first of each day (the page heads each day)."""
    return [
        {**row, "first_of_day": "1" if i == 0 or rows[i - 1]["day"] != row["day"] else ""} for i, row in enumerate(rows)
    ]


def booking_lists(now: datetime | None = None) -> tuple[list[dict[str, str]], list[dict[str, str]], bool]:
    """(upcoming, past, cut): the demos that have not ended, soonest first, and those that ended
    in the last PAST_DAYS days, latest first, cancelled ones included, each a row of the page with
    the day's label in each language; `cut` when a list holds more than SHOWN_MAX."""
    now = now or utcnow()
    team_zone = _zone(get_settings().booking_timezone)
    joined = select(Booking, Lead).join(Lead, col(Lead.id) == col(Booking.lead_id))
    with new_session() as session:
        upcoming = session.exec(
            joined.where(col(Booking.ends_at) > now)
            .order_by(col(Booking.starts_at), col(Booking.id))
            .limit(SHOWN_MAX + 1)
        ).all()
        past = session.exec(
            joined.where(col(Booking.ends_at) <= now)
            .where(col(Booking.ends_at) > now - timedelta(days=PAST_DAYS))
            .order_by(col(Booking.starts_at).desc(), col(Booking.id).desc())
            .limit(SHOWN_MAX + 1)
        ).all()
    cut = len(upcoming) > SHOWN_MAX or len(past) > SHOWN_MAX
    return (
        _by_day([_row(b, lead, team_zone, now) for b, lead in upcoming[:SHOWN_MAX]]),
        _by_day([_row(b, lead, team_zone, now) for b, lead in past[:SHOWN_MAX]]),
        cut,
    )


def cancel_for_person(operator: console.Operator, booking_id: int) -> booking.CancelResult:
    """The team cancels a demo on the person's behalf: the person and sales are mailed, the slot
    frees, and the action is in the audit log (`cancel-booking`, the person as a keyed hash of
    their address, like the data-subject actions), all in one transaction."""

    def record(session: Any, lead: Lead) -> None:
        subject = console.subject_key(console.normalise_email(lead.email))
        console.record_audit(session, operator, "cancel-booking", subject, {"booking": 1})

    return booking.cancel_for_person(booking_id, operator.email or operator.sub, record)


def _csv_rows(team_zone: ZoneInfo) -> Iterator[dict[str, Any]]:
    def minute(moment: datetime | None, zone: ZoneInfo) -> str:
        return "" if moment is None else f"{booking._as_utc(moment).astimezone(zone):%Y-%m-%d %H:%M}"

    statement = select(Booking, Lead).join(Lead, col(Lead.id) == col(Booking.lead_id))
    with new_session() as session:
        for row, lead in session.exec(statement.order_by(col(Booking.starts_at), col(Booking.id))):
            yield {
                "id": row.id,
                "status": status_of(row),
                "starts_at": minute(row.starts_at, team_zone),
                "ends_at": minute(row.ends_at, team_zone),
                "team_timezone": team_zone.key,
                "visitor_starts_at": minute(row.starts_at, _zone(row.visitor_timezone)),
                "visitor_timezone": row.visitor_timezone,
                "lang": row.lang,
                **{name: getattr(lead, name) for name in leads.fields_of(DEMO_FORM)},
                "cancelled_at": minute(row.cancelled_at, team_zone),
                "created_at": minute(row.created_at, team_zone),
                **{key: getattr(row, key) for key in ATTRIBUTION},
            }


def export_bookings_csv(operator: console.Operator) -> tuple[str, int]:
    """Every booking as CSV (the leads' writer: formulas neutralised, a French Excel opens it),
    times in the team's zone and the visitor's; the export is audited with its count."""
    out = io.StringIO()
    count = lead_export.write_rows(out, CSV_COLUMNS, _csv_rows(_zone(get_settings().booking_timezone)))
    with new_session() as session, session.begin():
        console.record_audit(session, operator, "export", json.dumps({"view": "bookings"}), {"booking": count})
    return out.getvalue(), count
