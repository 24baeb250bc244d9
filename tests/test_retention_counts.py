"""The retention purge over more leads than one of its chunks (500), on a real SQLite database:
every stale lead and its mail goes whatever chunk it falls in, the figures are the totals of every
chunk, the dry run announces exactly what the purge then does, and the audience totals go at the
day (beside test_retention.py, which holds the periods at the second and the day)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

NOW = datetime(2026, 11, 18, 15, 0, tzinfo=UTC)
STALE_PROSPECTS = 1_100  # three chunks of 500
RECENT_PROSPECTS = 3


def _fill(stale: datetime, recent: datetime) -> None:
    """Each stale prospect has one lead and one mail; the first one has a second, older lead; each
    recent prospect has a recent lead and a stale one (kept: the last contact counts)."""
    from marketing_site.db import new_session
    from marketing_site.db.audience import PageViewDay
    from marketing_site.db.leads import Lead, OutboxMessage

    def lead(email: str, at: datetime, number: int) -> Lead:
        return Lead(
            form="ebook",
            lang="fr",
            name="N",
            firstname="F",
            phone="+33 1 23 45 67 89",
            company="C",
            email=email,
            idempotency_key=f"key-{number}",
            created_at=at,
        )

    with new_session() as session, session.begin():
        leads = [lead(f"stale-{n}@example.com", stale, n) for n in range(STALE_PROSPECTS)]
        leads.append(lead("STALE-0@example.com", stale - timedelta(days=40), 10_000))
        for n in range(RECENT_PROSPECTS):
            leads.append(lead(f"recent-{n}@example.com", recent, 20_000 + n))
            leads.append(lead(f"Recent-{n}@example.com", stale, 30_000 + n))
        session.add_all(leads)
        session.flush()
        session.add_all(
            OutboxMessage(
                lead_id=row.id,
                message_id=f"<m{row.id}@example.com>",
                mail_from="a@example.com",
                mail_to="b@example.com",
                reply_to=row.email,
                subject="s",
                body="b",
            )
            for row in leads
        )
        for day, device in (
            (date(2025, 10, 17), "mobile"),
            (date(2025, 10, 17), "desktop"),
            (date(2025, 10, 18), "mobile"),
        ):
            session.add(PageViewDay(day=day, path="/", lang="fr", device=device, views=3))


def _left() -> tuple[int, int, int]:
    from sqlalchemy import func, select

    from marketing_site.db import new_session
    from marketing_site.db.audience import PageViewDay
    from marketing_site.db.leads import Lead, OutboxMessage

    with new_session() as session:
        return tuple(
            session.execute(select(func.count()).select_from(m)).scalar_one()
            for m in (Lead, OutboxMessage, PageViewDay)
        )


def figures(result) -> tuple:
    return (result.prospects, result.leads, result.mails, result.bookings, result.view_days, result.views_cutoff)


def test_a_purge_of_several_chunks_takes_every_stale_lead_and_counts_them_all(service):
    from marketing_site.services.retention import months_before, purge_leads

    _fill(stale=months_before(NOW, 36) - timedelta(days=1), recent=NOW - timedelta(days=1))
    stale_leads = STALE_PROSPECTS + 1
    announced = purge_leads(36, now=NOW, dry_run=True)
    # Audience totals: 13 months back from 18 November 2026 is 18 October 2025; the day before goes.
    expected = (STALE_PROSPECTS, stale_leads, stale_leads, 0, 2, date(2025, 10, 18))
    assert figures(announced) == expected
    assert _left() == (
        stale_leads + 2 * RECENT_PROSPECTS,
        stale_leads + 2 * RECENT_PROSPECTS,
        3,
    )  # the dry run deletes nothing
    done = purge_leads(36, now=NOW)
    assert figures(done) == expected and done.cutoff == announced.cutoff
    assert _left() == (2 * RECENT_PROSPECTS, 2 * RECENT_PROSPECTS, 1)
    assert figures(purge_leads(36, now=NOW))[:4] == (0, 0, 0, 0)
