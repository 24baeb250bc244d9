"""The figures the console shows the team, on a real database: the weekly chart and the funnel
summed over every day, form, language and booking of a week (and none outside the window), the
traffic view's period and rows, the mail that needs an operator, and the audit log's entries.
The team decides on these numbers: a week's figure that keeps the last row instead of the sum,
or an audit entry shown out of order, misleads them (mutation testing found these free)."""

from __future__ import annotations

import json
import time
from datetime import UTC, date, datetime, timedelta

import pytest
from sqlmodel import select

NOW = datetime(2026, 11, 18, 15, 0, tzinfo=UTC)  # a Wednesday
START = datetime(2026, 5, 25, tzinfo=UTC)  # the Monday 25 weeks before NOW's
THIS_MONDAY = datetime(2026, 11, 16, tzinfo=UTC)


def _leads(*rows: tuple[str, str, datetime]) -> list[int]:
    """Leads of (form, lang, created_at); their ids."""
    from marketing_site.db import new_session
    from marketing_site.db.leads import Lead

    ids = []
    with new_session() as session, session.begin():
        for form, lang, at in rows:
            lead = Lead(
                form=form,
                lang=lang,
                name="Martin",
                firstname="Jeanne",
                phone="+33 1 23 45 67 89",
                company="Alpha",
                email=f"{len(ids)}.{at.timestamp()}@figures.test",
                idempotency_key=f"figures-{form}-{lang}-{at.isoformat()}-{len(ids)}",
                created_at=at,
            )
            session.add(lead)
            session.flush()
            ids.append(lead.id)
    return ids


def _bookings(*made: datetime) -> None:
    """Demo bookings made at these instants (each with its own demo lead and slot)."""
    from marketing_site.db import new_session
    from marketing_site.db.booking import Booking

    lead_ids = _leads(*(("demo", "fr", at) for at in made))
    with new_session() as session, session.begin():
        for number, (lead_id, at) in enumerate(zip(lead_ids, made, strict=True)):
            slot = NOW + timedelta(days=30, hours=number)
            session.add(
                Booking(
                    lead_id=lead_id,
                    starts_at=slot,
                    ends_at=slot + timedelta(minutes=30),
                    visitor_timezone="Europe/Paris",
                    lang="fr",
                    uid=f"figures-{number}@test",
                    created_at=at,
                )
            )


def _view(path: str, lang: str = "fr"):
    from marketing_site.services import audience

    return audience.View(path, lang, "", "", "", "", "", "", "desktop")


# ------------------------------------------------------------------ chart and funnel


def test_a_weeks_figures_are_the_sums_of_its_days_forms_and_languages(store):
    from marketing_site.services.console import chart_and_funnel

    _leads(
        ("ebook", "fr", THIS_MONDAY),  # the week's first instant
        ("ebook", "en", THIS_MONDAY + timedelta(days=1)),  # another language, another day
        ("ebook", "fr", THIS_MONDAY + timedelta(days=2, hours=1)),
        ("white_paper", "fr", THIS_MONDAY + timedelta(days=2)),
        ("demo", "fr", THIS_MONDAY + timedelta(days=2)),  # a booking's lead: a lead, not a download
        ("kyc_documentation", "en", THIS_MONDAY - timedelta(microseconds=1)),  # Sunday: the week before
    )
    _bookings(THIS_MONDAY + timedelta(hours=2), THIS_MONDAY + timedelta(days=1), THIS_MONDAY - timedelta(days=1))
    weeks, funnel = chart_and_funnel(NOW)
    last, before = weeks[-1], weeks[-2]
    assert (last["week"], before["week"]) == ("2026-11-16", "2026-11-09")
    assert (last["ebook"], last["white_paper"], last["kyc_documentation"]) == (3, 1, 0)
    # Two bookings this week on two days (their demo leads are not a download), one the week before.
    assert (last["demo"], before["demo"], before["kyc_documentation"]) == (2, 1, 1)
    # Every lead of the week, the demo ones too: the five above and the two bookings' leads.
    assert (last["leads"], before["leads"]) == (7, 2)
    assert all(w[key] == 0 for w in weeks[:-2] for key in w if key != "week")
    assert funnel == [
        {"step": "downloads", "value": 5},
        {"step": "thank_you", "value": 0},
        {"step": "bookings", "value": 3},
    ]


def test_the_window_starts_at_the_first_mondays_midnight(store):
    from marketing_site.services.console import CHART_WEEKS, chart_and_funnel, chart_start

    assert chart_start(NOW) == START
    _leads(("ebook", "fr", START), ("ebook", "fr", START - timedelta(microseconds=1)))
    _bookings(START, START - timedelta(microseconds=1))
    weeks, funnel = chart_and_funnel(NOW)
    assert [w["week"] for w in weeks] == [(START + timedelta(weeks=i)).date().isoformat() for i in range(CHART_WEEKS)]
    assert (weeks[0]["ebook"], weeks[0]["demo"], weeks[0]["leads"]) == (1, 1, 2)
    assert [step["value"] for step in funnel] == [1, 0, 1]


def test_the_chart_without_a_date_ends_with_this_weeks_monday(store):
    from marketing_site.services.console import CHART_WEEKS, chart_start

    today = datetime.now(UTC).date()
    start = chart_start()
    assert start.tzinfo is UTC and (start.hour, start.minute, start.second, start.microsecond) == (0, 0, 0, 0)
    assert start.weekday() == 0
    assert start.date() + timedelta(weeks=CHART_WEEKS - 1) == today - timedelta(days=today.weekday())


def test_views_are_summed_over_the_seven_days_of_their_week(store):
    from marketing_site.services import audience
    from marketing_site.services.console import chart_and_funnel

    monday = THIS_MONDAY.date()
    audience.add_views(
        {
            (monday, _view("/")): 1,
            (monday + timedelta(days=1), _view("/", "en")): 2,
            (monday + timedelta(days=2), _view("/remerciement-ebook")): 4,
            (monday - timedelta(days=1), _view("/")): 8,  # the week before
            (monday - timedelta(days=7), _view("/remerciement-ebook")): 16,  # its Monday
            (START.date() - timedelta(days=1), _view("/remerciement-ebook")): 32,  # before the window
            (START.date(), _view("/")): 64,
        }
    )
    weeks, funnel = chart_and_funnel(NOW)
    assert [w["views"] for w in weeks[-2:]] == [24, 7]
    assert weeks[0]["views"] == 64
    assert sum(w["views"] for w in weeks) == 95
    assert funnel[1] == {"step": "thank_you", "value": 20}


# ------------------------------------------------------------------ traffic


def test_the_traffic_period_is_the_last_30_days_unless_it_is_given():
    from marketing_site.services.console import TrafficQuery

    today = date(2026, 11, 18)
    assert TrafficQuery.parse({}, today) == TrafficQuery("page", date(2026, 10, 20), today)
    assert TrafficQuery.parse({"by": "", "from": "", "to": None}, today) == TrafficQuery(
        "page", date(2026, 10, 20), today
    )
    assert TrafficQuery.parse({"by": "campaign", "from": "2026-01-01", "to": "2026-01-01"}, today) == TrafficQuery(
        "campaign", date(2026, 1, 1), date(2026, 1, 1)
    )
    assert TrafficQuery.parse({"to": "2026-10-25"}, today).first == date(2026, 10, 20)
    assert TrafficQuery.parse({}).last == datetime.now(UTC).date()


@pytest.mark.parametrize(
    ("values", "field"),
    [
        ({"by": "visitor"}, "by"),
        ({"from": "2026-02-30"}, "traffic_from"),
        ({"to": "soon"}, "traffic_to"),
        ({"from": "2026-11-02", "to": "2026-11-01"}, "traffic_to"),
        ({"from": "2026-11-19"}, "traffic_to"),  # after today, the default end
    ],
)
def test_a_bad_traffic_choice_names_its_field(values, field):
    from marketing_site.services.console import FilterError, TrafficQuery

    with pytest.raises(FilterError) as error:
        TrafficQuery.parse(values, date(2026, 11, 18))
    assert error.value.field == field


def test_traffic_rows_show_views_leads_and_conversion_as_text(store):
    from marketing_site.services import audience
    from marketing_site.services.console import TrafficQuery, traffic_rows

    today = datetime.now(UTC)
    audience.add_views({(today.date(), _view("/")): 8})
    _leads(("ebook", "fr", today), ("ebook", "en", today))
    rows = traffic_rows(TrafficQuery.parse({"by": "language"}))
    assert rows == [
        {"key": "fr", "other": "", "views": "8", "leads": "1", "conversion": "12.50 %"},
        {"key": "en", "other": "", "views": "0", "leads": "1", "conversion": ""},
    ]


def test_the_traffic_row_of_the_rest_is_marked(store):
    from marketing_site.services import audience
    from marketing_site.services.console import TrafficQuery, traffic_rows

    today = datetime.now(UTC).date()
    audience.add_views({(today, _view(f"/page-{n:02d}")): 100 - n for n in range(audience.TRAFFIC_TOP + 1)})
    rows = traffic_rows(TrafficQuery.parse({"by": "page"}))
    assert [row["other"] for row in rows] == [""] * audience.TRAFFIC_TOP + ["1"]
    assert rows[-1] == {
        "key": audience.OTHER,
        "other": "1",
        "views": str(100 - audience.TRAFFIC_TOP),
        "leads": "0",
        "conversion": "0.00 %",
    }


# ------------------------------------------------------------------ mail


def test_a_message_that_needs_an_operator_is_shown_with_its_minutes_in_utc(store):
    from marketing_site.db import new_session
    from marketing_site.db.leads import OutboxMessage
    from marketing_site.services.console import mail_overview

    lead_id = _leads(("ebook", "fr", NOW))[0]
    with new_session() as session, session.begin():
        for number, (owner, error, failed) in enumerate(
            [(None, None, NOW - timedelta(hours=2)), (lead_id, "550 refused", NOW - timedelta(hours=1))]
        ):
            session.add(
                OutboxMessage(
                    lead_id=owner,
                    message_id=f"<{number}@figures.test>",
                    mail_from="site@example.test",
                    mail_to="leads@example.test",
                    reply_to="leads@example.test",
                    subject=f"Subject {number}",
                    body="…",
                    status="failed",
                    attempts=3 + number,
                    last_error=error,
                    last_failure_at=failed,
                    failed_at=failed,
                    created_at=datetime(2026, 11, 18, 9, 7, 59, tzinfo=UTC),
                )
            )
    _, rows = mail_overview()
    assert [row["subject"] for row in rows] == ["Subject 1", "Subject 0"]  # the latest failure first
    assert rows[0] == {
        "id": rows[0]["id"],
        "lead_id": str(lead_id),
        "subject": "Subject 1",
        "state": "failed",
        "attempts": "4",
        "last_error": "550 refused",
        "last_failure_at": "2026-11-18 14:00",
        "created_at": "2026-11-18 09:07",
    }
    assert (rows[1]["lead_id"], rows[1]["last_error"], rows[1]["attempts"]) == ("", "", "3")
    assert int(rows[1]["id"]) < int(rows[0]["id"])
    assert [row["subject"] for row in mail_overview(limit=1)[1]] == ["Subject 1"]


def test_a_minute_is_written_in_utc_whatever_the_moments_zone():
    from zoneinfo import ZoneInfo

    from marketing_site.services.console import _minute

    assert _minute(None) == ""
    assert _minute(datetime(2026, 11, 18, 9, 7, 59)) == "2026-11-18 09:07"  # naive: already UTC
    assert _minute(datetime(2026, 11, 18, 0, 30, tzinfo=ZoneInfo("Europe/Paris"))) == "2026-11-17 23:30"
    assert _minute(datetime(2026, 11, 18, 9, 7, tzinfo=UTC)) == "2026-11-18 09:07"


# ------------------------------------------------------------------ audit log


def _operator(sub: str = "ops-sub", email: str = "ops@example.test"):
    from marketing_site.services.console import Operator

    return Operator(sub=sub, email=email)


def test_audit_entries_are_the_newest_first_with_their_second_actor_and_sorted_counts(store):
    from marketing_site.db import new_session
    from marketing_site.db.console import ConsoleAudit
    from marketing_site.services.console import audit_entries, record_audit

    with new_session() as session, session.begin():
        record_audit(session, _operator(), "lookup", "k1", {"lead": 2, "booking": 0, "auth_session": 1})
        record_audit(session, _operator(email=""), "erase", "k2", {"outbox_message": 3, "lead": 2})
    with new_session() as session, session.begin():
        first = session.exec(select(ConsoleAudit).order_by(ConsoleAudit.id)).first()
        first.created_at, first_id = datetime(2026, 11, 18, 9, 7, 59, tzinfo=UTC), first.id
    newest, oldest = audit_entries()
    assert newest == {
        "id": str(first_id + 1),
        "created_at": newest["created_at"],
        "actor": "ops-sub",  # no email in the session: the subject
        "action": "erase",
        "subject": "k2",
        "counts": "lead 2, outbox_message 3",
    }
    assert oldest == {
        "id": str(first_id),
        "created_at": "2026-11-18 09:07:59",
        "actor": "ops@example.test",
        "action": "lookup",
        "subject": "k1",
        "counts": "auth_session 1, booking 0, lead 2",
    }
    assert [entry["subject"] for entry in audit_entries(limit=1)] == ["k2"]


def test_an_export_is_audited_with_its_filter_and_count_never_its_search_words(store):
    from marketing_site.db import new_session
    from marketing_site.db.console import ConsoleAudit
    from marketing_site.services.console import LeadFilter, audit_export

    audit_export(_operator(), LeadFilter.parse({"search": "Durand", "form": "ebook", "descending": "0"}), 7)
    audit_export(_operator(), LeadFilter(), 0)
    with new_session() as session:
        entries = session.exec(select(ConsoleAudit).order_by(ConsoleAudit.id)).all()
    assert [(e.action, e.actor_sub, e.actor_email) for e in entries] == [("export", "ops-sub", "ops@example.test")] * 2
    assert entries[0].subject == json.dumps(
        {"descending": "0", "form": "ebook", "search": "…", "sort": "created_at"}, sort_keys=True
    )
    assert entries[1].subject == '{"descending": "1", "sort": "created_at"}'
    assert [json.loads(e.counts_json) for e in entries] == [{"lead": 7}, {"lead": 0}]


def test_an_operator_without_an_email_claim_is_named_by_their_subject_in_the_audit_log(store):
    from marketing_site.services import sessions
    from marketing_site.services.console import LeadFilter, Operator, access_of, audit_entries, audit_export
    from marketing_site.settings import get_settings

    settings = get_settings()
    cookie = sessions.create_session(
        {"sub": "ops-without-email", settings.oidc_roles_claim: [settings.console_role]},
        sessions.Tokens("id", "access", None, time.time() + 3600),
    )
    access, operator = access_of(f"{sessions.SESSION_COOKIE}={cookie}")
    assert (access, operator) == ("granted", Operator(sub="ops-without-email", email=""))
    audit_export(operator, LeadFilter(), 0)
    assert audit_entries()[0]["actor"] == "ops-without-email"


def test_the_audit_key_of_an_address_stays_the_one_the_log_already_holds(store):
    """The team finds a person's past entries by hashing the address again: the key is the
    keyed hash of "data-subject:" and the address, cut to 32 characters, and must not change."""
    from marketing_site.services import sessions
    from marketing_site.services.console import subject_key

    key = subject_key("person@example.test")
    assert key == sessions.id_hash("data-subject:person@example.test")[:32]
    assert len(key) == 32 and key != subject_key("person2@example.test")
