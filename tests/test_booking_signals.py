"""What the scheduler tells operators: `site_bookings_total` by outcome and the log lines they act
on, on a real migrated database (the `store` fixture, no mock). The dashboard's "Leads and
bookings" panel sums the counter by `outcome` (deploy/grafana/site-dashboard.json) and the
metrics module declares each outcome's series up front: an outcome counted under another name
leaves its panel line at zero and draws an unknown one, so each request's outcome is pinned here,
and only that one moves. The log lines name the booking, the budget or the figure, and never
the visitor: no email, no name (they are kept and shipped beyond the retention of leads).
Build-free."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest
from lead_payloads import SAMPLE_VALUES, booking_payload, stored_rows
from prometheus_client import REGISTRY
from sqlmodel import select

ROOT = Path(__file__).resolve().parent.parent
EMAIL = "solene.marchetti@example.test"
NAME = SAMPLE_VALUES["name"]
FIRSTNAME = SAMPLE_VALUES["firstname"]
LOGGER = "marketing_site.booking"


@pytest.fixture
def scheduler(store):
    from marketing_site.services import booking

    return booking


def _outcomes() -> dict[str, float]:
    """Every series of `site_bookings_total` the registry holds, by its outcome label."""
    return {
        sample.labels["outcome"]: sample.value
        for family in REGISTRY.collect()
        if family.name == "site_bookings"
        for sample in family.samples
        if sample.name == "site_bookings_total"
    }


def _counted(outcome: str) -> float:
    return REGISTRY.get_sample_value("site_bookings_total", {"outcome": outcome}) or 0.0


def _moved(before: dict[str, float]) -> dict[str, float]:
    after = _outcomes()
    return {
        outcome: value - before.get(outcome, 0.0) for outcome, value in after.items() if value != before.get(outcome)
    }


def _set(monkeypatch, **values: str) -> None:
    from marketing_site import settings

    for name, value in values.items():
        monkeypatch.setenv(name, value)
    settings.get_settings.cache_clear()


def _booking_lines(caplog) -> list[logging.LogRecord]:
    return [record for record in caplog.records if record.name == LOGGER]


def _assert_no_visitor(records: list[logging.LogRecord]) -> None:
    for record in records:
        text = record.getMessage()
        for detail in (EMAIL, EMAIL.split("@")[0], NAME, FIRSTNAME):
            assert detail.casefold() not in text.casefold(), (detail, text)


def test_the_dashboard_reads_the_counter_by_the_outcomes_the_scheduler_counts():
    from marketing_site import metrics

    dashboard = json.loads((ROOT / "deploy" / "grafana" / "site-dashboard.json").read_text())
    expressions = json.dumps(dashboard)
    assert "sum by (outcome) (increase(site_bookings_total[1h]))" in expressions
    assert set(metrics.BOOKING_OUTCOMES) == {"booked", "duplicate", "invalid", "taken", "rate_limited", "over_budget"}
    # Declared up front: every outcome has its series (at zero) before the first request.
    assert set(metrics.BOOKING_OUTCOMES) <= set(_outcomes())


def test_a_booking_is_counted_booked_and_logged_by_its_id_without_the_visitor(scheduler, caplog):
    slot = scheduler.slot_id(scheduler.available_slots()[0])
    before = _outcomes()
    with caplog.at_level(logging.INFO, logger=LOGGER):
        result = scheduler.book(booking_payload(slot, email=EMAIL), "10.0.0.1")
    assert result.status == "booked"
    assert _moved(before) == {"booked": 1}
    lines = _booking_lines(caplog)
    assert [(r.levelno, r.getMessage()) for r in lines] == [(logging.INFO, f"booking {result.booking_id} stored")]
    _assert_no_visitor(lines)


def test_the_same_request_again_is_counted_a_duplicate(scheduler):
    slot = scheduler.slot_id(scheduler.available_slots()[0])
    payload = booking_payload(slot, email=EMAIL)
    first = scheduler.book(payload, "10.0.0.1", client_key="key-1")
    before = _outcomes()
    again = scheduler.book(payload, "10.0.0.1", client_key="key-1")
    assert (again.status, again.booking_id, again.duplicate) == ("booked", first.booking_id, True)
    assert _moved(before) == {"duplicate": 1}


def test_a_taken_slot_is_counted_taken_and_a_taken_slot_with_another_error_invalid(scheduler):
    slot = scheduler.slot_id(scheduler.available_slots()[0])
    assert scheduler.book(booking_payload(slot), "10.0.0.1").status == "booked"
    before = _outcomes()
    assert scheduler.book(booking_payload(slot, email=EMAIL), "10.0.0.2").status == "taken"
    assert _moved(before) == {"taken": 1}
    before = _outcomes()
    assert scheduler.book(booking_payload(slot, email="not an address"), "10.0.0.2").status == "invalid"
    assert _moved(before) == {"invalid": 1}
    before = _outcomes()
    assert scheduler.book(booking_payload("tomorrow at nine", email=EMAIL), "10.0.0.2").status == "invalid"
    assert _moved(before) == {"invalid": 1}


def test_a_slot_lost_to_another_visitor_at_the_last_moment_is_counted_taken(scheduler, monkeypatch):
    """Both requests found the slot free (the offer's check passed): the database's unique index
    refuses the second, which is told the slot is taken and counted so."""
    slot = scheduler.slot_id(scheduler.available_slots()[0])
    assert scheduler.book(booking_payload(slot), "10.0.0.1").status == "booked"
    monkeypatch.setattr(scheduler, "refusal", lambda start, now=None: None)  # as if checked before the first stored
    before = _outcomes()
    lost = scheduler.book(booking_payload(slot, email=EMAIL), "10.0.0.2")
    assert lost.status == "taken"
    assert _moved(before) == {"taken": 1}


def test_an_address_over_its_rate_limit_is_counted_rate_limited(scheduler, monkeypatch):
    _set(monkeypatch, BOOKING_RATE_LIMIT_PER_IP="1")
    scheduler._limiter.cache_clear()
    slots = scheduler.available_slots()
    assert scheduler.book(booking_payload(scheduler.slot_id(slots[0])), "10.0.0.9").status == "booked"
    before = _outcomes()
    assert scheduler.book(booking_payload(scheduler.slot_id(slots[1]), email=EMAIL), "10.0.0.9").status == (
        "rate_limited"
    )
    assert _moved(before) == {"rate_limited": 1}


@pytest.mark.parametrize(
    ("budgets", "reason"),
    [
        ({"BOOKING_BUDGET_PER_EMAIL": "1"}, "budget_email"),
        ({"BOOKING_BUDGET_PER_IP": "1"}, "budget_address"),
    ],
)
def test_a_spent_budget_is_counted_over_budget_and_logged_by_its_name_without_the_visitor(
    scheduler, monkeypatch, caplog, budgets, reason
):
    _set(monkeypatch, **budgets)
    slots = scheduler.available_slots()
    address = "2001:db8:5::/64"
    assert scheduler.book(booking_payload(scheduler.slot_id(slots[0]), email=EMAIL), address).status == "booked"
    other = "other.person@example.test" if reason == "budget_address" else EMAIL
    before = _outcomes()
    caplog.clear()
    with caplog.at_level(logging.INFO, logger=LOGGER):
        refused = scheduler.book(booking_payload(scheduler.slot_id(slots[1]), email=other), address)
    assert refused.status == "rate_limited"
    assert _moved(before) == {"over_budget": 1}
    lines = _booking_lines(caplog)
    assert [(r.levelno, r.getMessage()) for r in lines] == [(logging.WARNING, f"booking refused: {reason} spent")]
    _assert_no_visitor(lines)
    assert "other.person" not in lines[0].getMessage()


def test_a_day_beyond_the_sites_figure_is_logged_with_the_count_and_the_setting(scheduler, monkeypatch, caplog):
    """BookingsAboveDailyFigure's runbook sends the operator to the bookings: the line says how
    many there are in 24 hours (this one included) against BOOKING_ALERT_PER_DAY."""
    _set(monkeypatch, BOOKING_ALERT_PER_DAY="2")
    slots = scheduler.available_slots()
    for n in range(2):
        assert scheduler.book(booking_payload(scheduler.slot_id(slots[n])), f"10.0.1.{n}").status == "booked"
    caplog.clear()
    with caplog.at_level(logging.INFO, logger=LOGGER):
        result = scheduler.book(booking_payload(scheduler.slot_id(slots[2]), email=EMAIL), "10.0.1.9")
    assert result.status == "booked"
    lines = _booking_lines(caplog)
    assert [(r.levelno, r.getMessage()) for r in lines] == [
        (logging.WARNING, "booking: 3 bookings in 24 hours, BOOKING_ALERT_PER_DAY is 2"),
        (logging.INFO, f"booking {result.booking_id} stored"),
    ]
    _assert_no_visitor(lines)


def test_each_cancellation_is_logged_by_the_booking_and_who_cancelled_without_the_visitor(scheduler, caplog):
    from marketing_site.db import new_session
    from marketing_site.db.booking import Booking
    from marketing_site.db.leads import Lead

    slots = scheduler.available_slots()
    ids = [
        scheduler.book(booking_payload(scheduler.slot_id(slot), email=EMAIL), f"10.0.2.{n}").booking_id
        for n, slot in enumerate(slots[:3])
    ]
    rows = {row.id: row for row in stored_rows(Booking)}
    by_link, by_team, by_erasure = ids
    caplog.clear()
    with caplog.at_level(logging.INFO, logger=LOGGER):
        link = scheduler.cancel_token(rows[by_link].cancel_key, scheduler._as_utc(rows[by_link].starts_at))
        assert scheduler.cancel(link).status == "cancelled"
        assert scheduler.cancel(link).status == "already"  # logged once
        assert scheduler.cancel_for_person(by_team, "ops@example.test", lambda session, lead: None).status == (
            "cancelled"
        )
        assert scheduler.cancel_for_person(by_team, "ops@example.test", lambda session, lead: None).status == (
            "already"
        )
        with new_session() as session, session.begin():
            lead_ids = select(Lead.id).where(Lead.id == rows[by_erasure].lead_id)
            assert scheduler.erase_bookings(session, lead_ids) == 1
    lines = _booking_lines(caplog)
    assert [(r.levelno, r.getMessage()) for r in lines] == [
        (logging.INFO, f"booking {by_link} cancelled"),
        (logging.INFO, f"booking {by_team} cancelled by the team"),
        (logging.INFO, f"booking {by_erasure} cancelled by a data-subject erasure"),
    ]
    _assert_no_visitor(lines)


def test_an_erasure_of_leads_without_a_booking_reports_none_erased(scheduler):
    """The count erase_bookings returns is what the retention report and the console's audit
    entry say was erased: leads that never booked (a download form's) count no booking."""
    from marketing_site.db import new_session
    from marketing_site.db.booking import Booking
    from marketing_site.db.leads import Lead

    slot = scheduler.slot_id(scheduler.available_slots()[0])
    booked = scheduler.book(booking_payload(slot, email=EMAIL), "10.0.4.1")
    lead_id = next(row.lead_id for row in stored_rows(Booking) if row.id == booked.booking_id)
    with new_session() as session, session.begin():
        assert scheduler.erase_bookings(session, select(Lead.id).where(Lead.id == lead_id + 1000)) == 0
        assert scheduler.erase_bookings(session, select(Lead.id).where(Lead.id == lead_id)) == 1
    assert stored_rows(Booking) == []
