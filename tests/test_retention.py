"""Retention periods at their boundaries: a prospect is kept 36 months after the last contact
(not 35, not 37), audience totals 13 months, both counted in calendar months, on a real
migrated database."""

from __future__ import annotations

import calendar
import time
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

NOW = datetime(2026, 11, 18, 15, 0, tzinfo=UTC)


def _lead(email: str, at: datetime) -> int:
    from marketing_site.db import new_session
    from marketing_site.db.leads import Lead

    with new_session() as session, session.begin():
        lead = Lead(
            form="ebook",
            lang="fr",
            name="Martin",
            firstname="Jeanne",
            phone="+33 1 23 45 67 89",
            company="Banque Alpha",
            email=email,
            idempotency_key=f"k-{email}-{time.time_ns()}",
            created_at=at,
        )
        session.add(lead)
        session.flush()
        assert lead.id is not None
        return lead.id


def _emails() -> list[str]:
    from lead_payloads import stored_rows

    from marketing_site.db.leads import Lead

    return sorted(lead.email for lead in stored_rows(Lead))


def test_the_default_period_is_36_months(service, monkeypatch, capsys):
    """`ops purge` without --months: the setting's default, 36 months to the day."""
    from marketing_site import ops
    from marketing_site.services.retention import months_before
    from marketing_site.settings import get_settings

    monkeypatch.delenv("LEAD_RETENTION_MONTHS", raising=False)
    get_settings.cache_clear()
    assert get_settings().lead_retention_months == 36
    now = datetime.now(UTC)
    _lead("past-36-months@example.com", months_before(now, 36) - timedelta(days=1))
    _lead("inside-36-months@example.com", months_before(now, 36) + timedelta(days=1))
    _lead("inside-35-months@example.com", months_before(now, 35) - timedelta(days=1))
    assert ops.main(["purge"]) == 0
    assert "(36 months)" in capsys.readouterr().out
    assert _emails() == ["inside-35-months@example.com", "inside-36-months@example.com"]


def test_a_prospect_is_purged_the_second_after_the_period_not_before(service):
    from marketing_site.services.retention import months_before, purge_leads

    cutoff = months_before(NOW, 36)
    assert cutoff == datetime(2023, 11, 18, 15, 0, tzinfo=UTC)
    _lead("at-the-cutoff@example.com", cutoff)
    _lead("a-second-older@example.com", cutoff - timedelta(seconds=1))
    result = purge_leads(36, now=NOW, dry_run=True)
    assert (result.cutoff, result.prospects, result.leads) == (cutoff, 1, 1)
    assert purge_leads(36, now=NOW).leads == 1
    assert _emails() == ["at-the-cutoff@example.com"]
    # One month later in the same purge: 37 months would still keep it, 36 does not.
    assert purge_leads(36, now=NOW + timedelta(days=31)).leads == 1
    assert _emails() == []


def test_the_last_contact_counts_whatever_the_letter_case(service):
    from marketing_site.services.retention import purge_leads

    _lead("Jeanne@Example.com", NOW - timedelta(days=4 * 365))
    _lead("jeanne@example.com", NOW - timedelta(days=30))
    _lead("other@example.com", NOW - timedelta(days=4 * 365))
    result = purge_leads(36, now=NOW)
    assert (result.prospects, result.leads) == (1, 1)
    assert _emails() == ["Jeanne@Example.com", "jeanne@example.com"]


def test_audience_totals_are_kept_13_months_to_the_day(service, monkeypatch):
    from lead_payloads import stored_rows

    from marketing_site.db.audience import ROLLUPS, PageViewDay
    from marketing_site.services import audience
    from marketing_site.services.retention import months_before, purge_leads
    from marketing_site.settings import get_settings

    monkeypatch.delenv("AUDIENCE_RETENTION_MONTHS", raising=False)
    get_settings.cache_clear()
    assert get_settings().audience_retention_months == 13
    view = audience.parse_beacon({"path": "/", "lang": "fr", "device": "desktop"})
    assert view is not None
    cutoff = months_before(NOW, 13).date()
    assert str(cutoff) == "2025-10-18"
    audience.add_views({(cutoff - timedelta(days=1), view): 5, (cutoff, view): 7})
    result = purge_leads(36, now=NOW)
    assert (result.views_cutoff, result.view_days) == (cutoff, 1)
    # The day at the cutoff is kept, in the totals and in each of their sums.
    for table in (PageViewDay, *(rollup for rollup, _ in ROLLUPS)):
        assert [(row.day, row.views) for row in stored_rows(table)] == [(cutoff, 7)], table.__tablename__


@pytest.mark.parametrize("months", [0, -1, -36])
def test_a_period_under_one_month_is_refused(service, months):
    from marketing_site.services.retention import purge_leads

    with pytest.raises(ValueError, match="at least one month"):
        purge_leads(months, now=NOW)


@pytest.mark.parametrize(
    ("moment", "months", "expected"),
    [
        (datetime(2026, 3, 31, 12, tzinfo=UTC), 1, datetime(2026, 2, 28, 12, tzinfo=UTC)),
        (datetime(2028, 2, 29, 8, tzinfo=UTC), 36, datetime(2025, 2, 28, 8, tzinfo=UTC)),
        (datetime(2028, 3, 31, tzinfo=UTC), 1, datetime(2028, 2, 29, tzinfo=UTC)),
        (datetime(2026, 1, 15, tzinfo=UTC), 1, datetime(2025, 12, 15, tzinfo=UTC)),
        (datetime(2026, 12, 31, tzinfo=UTC), 12, datetime(2025, 12, 31, tzinfo=UTC)),
        (datetime(2026, 11, 18, tzinfo=UTC), 13, datetime(2025, 10, 18, tzinfo=UTC)),
    ],
)
def test_months_are_calendar_months_clamped_to_the_end_of_the_month(moment, months, expected):
    from marketing_site.services.retention import months_before

    assert months_before(moment, months) == expected


@given(
    st.datetimes(min_value=datetime(2001, 1, 1), max_value=datetime(2100, 12, 31), timezones=st.just(UTC)),
    st.integers(min_value=0, max_value=600),
)
def test_months_before_goes_back_whole_months_and_keeps_the_time(moment, months):
    from marketing_site.services.retention import months_before

    earlier = months_before(moment, months)
    assert (moment.year * 12 + moment.month) - (earlier.year * 12 + earlier.month) == months
    assert earlier.day == min(moment.day, calendar.monthrange(earlier.year, earlier.month)[1])
    assert (earlier.time(), earlier.tzinfo) == (moment.time(), moment.tzinfo)
    assert earlier <= moment


def test_a_period_of_one_month_is_allowed(service):
    from marketing_site.services.retention import purge_leads

    _lead("two-months@example.com", NOW - timedelta(days=62))
    _lead("two-weeks@example.com", NOW - timedelta(days=14))
    assert purge_leads(1, now=NOW).leads == 1
    assert _emails() == ["two-weeks@example.com"]
