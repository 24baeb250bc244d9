"""Retention of prospects' personal data (CNIL practice: 3 years after the last contact).

A prospect's last contact is their latest lead (any form, same email, case-insensitive).
`purge_leads` deletes every lead of a prospect whose last contact is older than the
retention period, with the outbox mail and the demo bookings of those leads, and the
audience's daily totals older than AUDIENCE_RETENTION_MONTHS (13: the CNIL's exemption).
"""

from __future__ import annotations

import calendar
import dataclasses
from datetime import date, datetime

from sqlalchemy import delete, func
from sqlmodel import col, select

from marketing_site.db import new_session, rows_changed
from marketing_site.db.audience import ROLLUPS, PageViewDay
from marketing_site.db.booking import Booking
from marketing_site.db.leads import Lead, OutboxMessage, utcnow
from marketing_site.services import booking
from marketing_site.settings import get_settings


def months_before(moment: datetime, months: int) -> datetime:
    """The same day and time `months` calendar months earlier (clamped to the month's end)."""
    index = moment.year * 12 + moment.month - 1 - months
    year, month = divmod(index, 12)
    day = min(moment.day, calendar.monthrange(year, month + 1)[1])
    return moment.replace(year=year, month=month + 1, day=day)


@dataclasses.dataclass(frozen=True)
class PurgeResult:
    cutoff: datetime
    prospects: int
    leads: int
    mails: int
    bookings: int = 0
    view_days: int = 0  # daily audience totals deleted (or to delete)
    views_cutoff: date | None = None


def purge_leads(months: int, now: datetime | None = None, dry_run: bool = False) -> PurgeResult:
    """Delete the leads (and their mail) of prospects with no contact in the last `months`.

    The figures are what this run deleted, counted from its own DELETE statements: two purges
    that overlap (cron on two machines) report each row once between them, never twice. The
    run's first statement is a write, so on SQLite it waits for the other run's write lock and
    then reads what that run left; on PostgreSQL it locks the stale leads (FOR UPDATE) before
    touching their mail and bookings, so the second run waits and finds them gone.
    """
    if months < 1:
        raise ValueError("the retention period is at least one month")
    now = now or utcnow()
    cutoff = months_before(now, months)
    views_cutoff = months_before(now, get_settings().audience_retention_months).date()
    email = func.lower(Lead.email)
    stale = select(email).group_by(email).having(func.max(Lead.created_at) < cutoff)
    lead_ids = select(Lead.id).where(email.in_(stale))
    if dry_run:
        with new_session() as session:
            return PurgeResult(
                cutoff=cutoff,
                prospects=session.exec(select(func.count()).select_from(stale.subquery())).one(),
                leads=session.exec(select(func.count()).select_from(lead_ids.subquery())).one(),
                mails=session.exec(
                    select(func.count()).select_from(OutboxMessage).where(col(OutboxMessage.lead_id).in_(lead_ids))
                ).one(),
                bookings=session.exec(
                    select(func.count()).select_from(Booking).where(col(Booking.lead_id).in_(lead_ids))
                ).one(),
                view_days=session.exec(
                    select(func.count()).select_from(PageViewDay).where(PageViewDay.day < views_cutoff)
                ).one(),
                views_cutoff=views_cutoff,
            )
    leads = mails = bookings = 0
    prospects: set[str] = set()
    with new_session() as session, session.begin():
        view_days = rows_changed(session.execute(delete(PageViewDay).where(col(PageViewDay.day) < views_cutoff)))
        for rollup, _ in ROLLUPS:
            session.execute(delete(rollup).where(col(rollup.day) < views_cutoff))
        rows = session.execute(select(Lead.id, email).where(email.in_(stale)).with_for_update()).all()
        ids = [lead_id for lead_id, _ in rows]
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            # A demo still to come is cancelled first (sales told): the same rule as an erasure.
            bookings += booking.erase_bookings(session, select(Lead.id).where(col(Lead.id).in_(chunk)))
            mails += rows_changed(session.execute(delete(OutboxMessage).where(col(OutboxMessage.lead_id).in_(chunk))))
            deleted = session.execute(delete(Lead).where(col(Lead.id).in_(chunk)).returning(email)).scalars().all()
            leads += len(deleted)
            prospects.update(deleted)
    return PurgeResult(
        cutoff=cutoff,
        prospects=len(prospects),
        leads=leads,
        mails=mails,
        bookings=bookings,
        view_days=view_days,
        views_cutoff=views_cutoff,
    )
