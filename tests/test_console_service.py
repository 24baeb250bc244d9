"""The console's rules on a real migrated database: the role check, search/filter/sort/paging,
the CSV export, the weekly chart and funnel, mail retry, and data-subject access and erasure
with their audit entries (the browser side is tests/test_console.py)."""

from __future__ import annotations

import csv
import io
import json
import time
from datetime import UTC, datetime, timedelta

import pytest
from sqlmodel import select

NOW = datetime(2026, 11, 18, 15, 0, tzinfo=UTC)  # a Wednesday


def _lead(
    email: str,
    *,
    form: str = "ebook",
    lang: str = "fr",
    name: str = "Martin",
    firstname: str = "Jeanne",
    company: str = "Banque Alpha",
    at: datetime = NOW,
    mail: str | None = "sent",
    reply_to: str | None = None,
):
    from marketing_site.db import new_session
    from marketing_site.db.leads import Lead, OutboxMessage

    with new_session() as session, session.begin():
        lead = Lead(
            form=form,
            lang=lang,
            name=name,
            firstname=firstname,
            phone="+33 1 23 45 67 89",
            company=company,
            email=email,
            idempotency_key=f"k-{time.time_ns()}",
            created_at=at,
        )
        session.add(lead)
        session.flush()
        if mail:
            session.add(
                OutboxMessage(
                    lead_id=lead.id,
                    message_id=f"<{time.time_ns()}@test>",
                    mail_from="site@example.test",
                    mail_to="leads@example.test",
                    reply_to=reply_to or email,
                    subject="Lead",
                    body="…",
                    status=mail,
                    last_error="550 refused" if mail == "failed" else None,
                    # Failed just now: a recent failure (the health check's "degraded").
                    failed_at=datetime.now(UTC) if mail == "failed" else None,
                )
            )
        return lead.id


def _filter(**values):
    from marketing_site.services.console import LeadFilter

    return LeadFilter.parse(values)


def _session(claims: dict) -> str:
    from marketing_site.services import sessions

    return sessions.create_session(claims, sessions.Tokens("id", "access", None, time.time() + 3600))


def _operator():
    from marketing_site.services.console import Operator

    return Operator(sub="ops@example.test", email="ops@example.test")


def test_access_needs_a_live_session_with_the_console_role(service):
    from marketing_site.services import sessions
    from marketing_site.services.console import access_of
    from marketing_site.settings import get_settings

    claim = get_settings().oidc_roles_claim
    admin = _session({"sub": "a", "email": "a@example.test", claim: ["ADVISOR", "SITE_ADMIN"]})
    advisor = _session({"sub": "b", "email": "b@example.test", claim: ["ADVISOR"]})
    assert access_of(None) == ("anonymous", None)
    assert access_of(f"{sessions.SESSION_COOKIE}=not-a-session") == ("anonymous", None)
    assert access_of(f"{sessions.SESSION_COOKIE}={advisor}") == ("forbidden", None)
    # A role claim written elsewhere (not the configured claim) does not count.
    other = _session({"sub": "c", "email": "c@example.test", "https://elsewhere.example/roles": ["SITE_ADMIN"]})
    assert access_of(f"{sessions.SESSION_COOKIE}={other}") == ("forbidden", None)
    access, operator = access_of(f"{sessions.SESSION_COOKIE}={admin}")
    assert access == "granted" and operator.sub == "a" and operator.email == "a@example.test"


def test_search_filters_sorting_and_paging_happen_in_the_database(service):
    from marketing_site.services.console import lead_page

    _lead("jeanne@alpha.test", name="Martin", company="Banque Alpha", at=NOW - timedelta(days=1))
    _lead(
        "paul@beta.test",
        name="Durand",
        company="Beta Gestion",
        lang="en",
        form="white_paper",
        at=NOW - timedelta(days=10),
        mail="failed",
    )
    _lead("lea@gamma.test", name="Petit", company="Gamma 100%_Family", at=NOW - timedelta(days=40), mail=None)
    for i in range(30):
        _lead(
            f"bulk{i:02d}@delta.test",
            name=f"Bulk{i:02d}",
            company="Delta",
            form="kyc_documentation",
            at=NOW - timedelta(hours=i),
        )

    assert lead_page(_filter()).total == 33
    # Search: name, email or company, case-insensitive; LIKE wildcards are literal.
    assert [r["email"] for r in lead_page(_filter(search="MARTIN")).rows] == ["jeanne@alpha.test"]
    assert [r["email"] for r in lead_page(_filter(search="beta.test")).rows] == ["paul@beta.test"]
    assert [r["email"] for r in lead_page(_filter(search="100%_")).rows] == ["lea@gamma.test"]
    assert lead_page(_filter(search="%")).total == 1
    # Filters.
    assert [r["email"] for r in lead_page(_filter(form="white_paper")).rows] == ["paul@beta.test"]
    assert [r["email"] for r in lead_page(_filter(lang="en")).rows] == ["paul@beta.test"]
    assert [r["email"] for r in lead_page(_filter(mail_status="failed")).rows] == ["paul@beta.test"]
    assert [r["email"] for r in lead_page(_filter(mail_status="none")).rows] == ["lea@gamma.test"]
    day = (NOW - timedelta(days=10)).date().isoformat()
    assert [r["email"] for r in lead_page(_filter(date_from=day, date_to=day)).rows] == ["paul@beta.test"]
    assert lead_page(_filter(date_to=(NOW - timedelta(days=2)).date().isoformat())).total == 2
    # Sorting and paging (25 a page), with the mail status of each row.
    first = lead_page(_filter(sort="name", descending="0"))
    assert (first.total, first.pages, len(first.rows)) == (33, 2, 25)
    names = [r["name"] for r in first.rows] + [
        r["name"] for r in lead_page(_filter(sort="name", descending="0", page=2)).rows
    ]
    assert names == sorted(names) and len(set(names)) == 33
    newest = lead_page(_filter()).rows
    assert [r["email"] for r in newest[:2]] == ["bulk00@delta.test", "bulk01@delta.test"]
    assert lead_page(_filter(page=99)).page == 2  # past the end: the last page
    assert {r["mail_status"] for r in lead_page(_filter(search="gamma")).rows} == {"none"}


@pytest.mark.parametrize(
    ("values", "field"),
    [
        ({"form": "nope"}, "form"),
        ({"lang": "de"}, "lang"),
        ({"mail_status": "lost"}, "mail_status"),
        ({"sort": "phone"}, "sort"),
        ({"date_from": "2026-13-01"}, "date_from"),
        ({"date_from": "2026-05-02", "date_to": "2026-05-01"}, "date_to"),
        ({"search": "x" * 201}, "search"),
        ({"search": "a\x00b"}, "search"),
        ({"page": "two"}, "page"),
    ],
)
def test_bad_filters_are_refused_with_the_field_named(service, values, field):
    from marketing_site.services.console import FilterError

    with pytest.raises(FilterError) as error:
        _filter(**values)
    assert error.value.field == field


def test_flagged_filter_selects_leads_by_their_anti_bot_flags(service):
    from marketing_site.db import new_session
    from marketing_site.db.leads import Lead
    from marketing_site.services.console import FilterError, lead_page

    fast = _lead("fast@one.test")
    _lead("calm@two.test")
    with new_session() as session, session.begin():
        session.get(Lead, fast).flags = "fast"
    flagged = lead_page(_filter(flagged="yes"))
    assert [row["email"] for row in flagged.rows] == ["fast@one.test"]
    assert flagged.rows[0]["flagged"] == "fast"
    assert [row["email"] for row in lead_page(_filter(flagged="no")).rows] == ["calm@two.test"]
    assert lead_page(_filter()).total == 2
    with pytest.raises(FilterError):
        _filter(flagged="maybe")


def test_csv_export_holds_the_filtered_leads_with_formulas_neutralised(service):
    from marketing_site.services.console import export_leads_csv

    _lead("a@one.test", name='=HYPERLINK("http://x")', company="One", form="ebook")
    _lead("b@two.test", name="Bernard", company="+Two", form="white_paper")
    _lead("c@three.test", name="Claude", company="@Three", form="ebook", lang="en")
    _lead("d@four.test", name="=1+1", firstname="-2+3+cmd|' /C calc'!A0", company="\uff1d1+1", form="ebook")
    body, count = export_leads_csv(_filter(form="ebook", sort="email", descending="0"))
    # The writer of `ops export` (services.lead_export): a byte-order mark, `;` between cells.
    assert body.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(body.removeprefix("\ufeff")), delimiter=";"))
    assert count == 3
    assert rows[0] == [
        "id",
        "created_at",
        "form",
        "lang",
        "name",
        "firstname",
        "phone",
        "company",
        "email",
        "flags",
        "landing_page",
        "referrer",
        "utm_source",
        "utm_medium",
        "utm_campaign",
    ]
    assert [r[8] for r in rows[1:]] == ["a@one.test", "c@three.test", "d@four.test"]
    assert rows[1][4] == '\'=HYPERLINK("http://x")' and rows[2][7] == "'@Three"
    assert rows[3][4:8] == ["'=1+1", "'-2+3+cmd|' /C calc'!A0", "+33 1 23 45 67 89", "'\uff1d1+1"]
    assert rows[1][6] == "+33 1 23 45 67 89"  # a phone number stays readable


def test_chart_counts_leads_per_week_and_document_over_six_months(service):
    from marketing_site.services.console import CHART_WEEKS, chart_and_funnel, chart_start

    monday = datetime(2026, 11, 16, tzinfo=UTC)
    _lead("w1@x.test", form="ebook", at=monday + timedelta(hours=1))
    _lead("w2@x.test", form="ebook", at=NOW)
    _lead("w3@x.test", form="white_paper", at=monday - timedelta(minutes=1))  # Sunday: the week before
    _lead("w4@x.test", form="kyc_documentation", lang="en", at=monday - timedelta(weeks=25))
    _lead("old@x.test", form="ebook", at=monday - timedelta(weeks=26, minutes=1))  # before the window
    weeks, funnel = chart_and_funnel(NOW)
    assert len(weeks) == CHART_WEEKS
    assert weeks[-1]["week"] == "2026-11-16" and weeks[0]["week"] == chart_start(NOW).date().isoformat()
    assert weeks[0]["week"] == "2026-05-25"
    assert (weeks[-1]["ebook"], weeks[-1]["white_paper"]) == (2, 0)
    assert (weeks[-2]["white_paper"], weeks[-2]["ebook"]) == (1, 0)
    assert weeks[0]["kyc_documentation"] == 1
    assert sum(sum(v for k, v in w.items() if k not in ("week", "views", "leads")) for w in weeks) == 4
    # Funnel: 4 downloads in the window; no page view measured yet, so no thank-you view; no
    # demo booked.
    assert funnel == [
        {"step": "downloads", "value": 4},
        {"step": "thank_you", "value": 0},
        {"step": "bookings", "value": 0},
    ]
    assert weeks[-1]["leads"] == 2 and weeks[-1]["views"] == 0


def test_views_per_week_and_the_funnel_use_the_measured_page_views(service):
    from marketing_site.services import audience
    from marketing_site.services.console import chart_and_funnel

    def view(path):
        return audience.View(path, "fr", "", "", "", "", "", "", "desktop")

    monday = NOW.date() - timedelta(days=2)
    audience.add_views(
        {
            (NOW.date(), view("/remerciement-ebook")): 3,
            (monday, view("/remerciements-telechargement")): 1,
            (monday, view("/")): 10,
            (monday - timedelta(days=1), view("/")): 7,  # Sunday: the week before
            (monday - timedelta(weeks=26), view("/remerciement-ebook")): 50,  # before the window
        }
    )
    _lead("v1@x.test", form="ebook", at=NOW)
    weeks, funnel = chart_and_funnel(NOW)
    assert (weeks[-1]["views"], weeks[-1]["leads"]) == (14, 1)
    assert (weeks[-2]["views"], weeks[-2]["leads"]) == (7, 0)
    assert funnel[1] == {"step": "thank_you", "value": 4}


def test_retry_one_and_all_failed_mail(service):
    from marketing_site.db import new_session
    from marketing_site.db.leads import OutboxMessage
    from marketing_site.services.console import mail_overview, retry_mail

    for email in ("f1@x.test", "f2@x.test", "f3@x.test"):
        _lead(email, mail="failed")
    _lead("ok@x.test", mail="sent")
    report, failed = mail_overview()
    assert report["outbox"]["failed"] == 3 and report["status"] == "degraded" and len(failed) == 3
    assert failed[0]["last_error"] == "550 refused"
    assert retry_mail(int(failed[0]["id"])) == 1
    sent = next(m for m in _messages() if m.status == "sent")
    assert retry_mail(sent.id) == 0  # a sent message is never sent again
    assert retry_mail(None) == 2
    with new_session() as session:
        statuses = sorted(m.status for m in session.exec(select(OutboxMessage)))
    assert statuses == ["pending", "pending", "pending", "sent"]
    assert mail_overview()[0]["outbox"]["failed"] == 0


def _messages():
    from marketing_site.db import new_session
    from marketing_site.db.leads import OutboxMessage

    with new_session() as session:
        return list(session.exec(select(OutboxMessage)))


def test_access_and_erasure_of_a_data_subject_with_audit_entries(service):
    from marketing_site.db import new_session
    from marketing_site.db.auth import AuthSession
    from marketing_site.db.console import ConsoleAudit
    from marketing_site.db.leads import Lead, OutboxMessage
    from marketing_site.services.console import audit_entries, erase_subject, subject_data, subject_key

    _lead("Subject@Example.test", form="ebook")
    _lead("subject@example.test", form="white_paper", mail="failed")
    _lead("other@example.test", reply_to="other@example.test")
    _session({"sub": "subject@example.test", "email": "subject@example.test"})
    _session({"sub": "someone", "email": "other@example.test"})

    found = subject_data(_operator(), "  SUBJECT@example.test ", "lookup")
    assert {k: len(v) for k, v in found.items()} == {"booking": 0, "outbox_message": 2, "lead": 2, "auth_session": 1}
    assert {lead["form"] for lead in found["lead"]} == {"ebook", "white_paper"}
    assert "access_token" not in json.dumps(found["auth_session"])  # never the session's tokens
    json.dumps(found)  # the download is plain JSON

    counts = erase_subject(_operator(), "subject@example.test")
    assert counts == {"booking": 0, "outbox_message": 2, "lead": 2, "auth_session": 1}
    with new_session() as session:
        assert [lead.email for lead in session.exec(select(Lead))] == ["other@example.test"]
        assert [m.reply_to for m in session.exec(select(OutboxMessage))] == ["other@example.test"]
        assert len(session.exec(select(AuthSession)).all()) == 1
        audit = session.exec(select(ConsoleAudit).order_by(ConsoleAudit.id)).all()
    assert [(a.action, a.actor_sub) for a in audit] == [("lookup", "ops@example.test"), ("erase", "ops@example.test")]
    assert all(a.subject == subject_key("subject@example.test") for a in audit)
    assert json.loads(audit[1].counts_json) == counts
    # The log never holds the erased data: not the address, not a name.
    text = json.dumps([a.model_dump(mode="json") for a in audit])
    assert "subject@" not in text.lower() and "Jeanne" not in text and "Martin" not in text
    assert audit_entries()[0]["action"] == "erase"
    # Nothing left behind: a second lookup finds nothing.
    assert {k: len(v) for k, v in subject_data(_operator(), "subject@example.test", "lookup").items()} == {
        "booking": 0,
        "outbox_message": 0,
        "lead": 0,
        "auth_session": 0,
    }


@pytest.mark.parametrize("email", ["", "no-at-sign", "a b@example.test", "x" * 321 + "@e.test"])
def test_data_subject_needs_an_email(service, email):
    from marketing_site.services.console import SubjectError, erase_subject

    with pytest.raises(SubjectError):
        erase_subject(_operator(), email)
