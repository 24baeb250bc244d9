"""Audience measurement and lead attribution, on a real SQLite database: beacons are counted
into daily totals (no per-view row, no address or user agent kept), robots and floods are left
out, old totals are purged with the leads, and leads carry where their visit came from into the
mail, the export and the traffic figures (services, the operator command, the HTTP route)."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from datetime import UTC, datetime, timedelta

import pytest
from lead_payloads import lead_payload, stored_rows

BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36"
HOME = "/"
FEATURE = "/prospect-wealth-management"
KYC = "/kyc-finance-en-ligne"
CAMPAIGN = {"utm_source": "newsletter", "utm_medium": "email", "utm_campaign": "kyc-2026"}


def beacon(path=HOME, **overrides):
    return {"path": path, "lang": "fr", "referrer": "", "device": "desktop", **overrides}


@pytest.fixture
def audience(service, monkeypatch):
    """services.audience on the fresh database, writing each view at once, limits reset."""
    from marketing_site import settings
    from marketing_site.services import audience

    monkeypatch.setenv("AUDIENCE_FLUSH_SECONDS", "0")
    monkeypatch.setenv("AUDIENCE_RATE_LIMIT_PER_MINUTE", "50")
    settings.get_settings.cache_clear()
    audience._limiter.cache_clear()
    yield audience
    audience._limiter.cache_clear()


def _totals():
    from marketing_site.db.audience import PageViewDay

    return stored_rows(PageViewDay)


def test_views_are_added_to_one_daily_total_per_combination(audience):
    for _ in range(3):
        assert audience.record(beacon(**CAMPAIGN), "10.0.0.1", BROWSER).status == "counted"
    assert audience.record(beacon(device="mobile"), "10.0.0.2", BROWSER).status == "counted"
    from marketing_site.db.audience import PagePathDay

    (page,) = stored_rows(PagePathDay)  # the per-page sums: one page, one language, one day
    assert (page.path, page.lang, page.views) == (HOME, "fr", 4)
    rows = sorted(_totals(), key=lambda row: row.views)
    assert [(row.device, row.utm_campaign, row.views) for row in rows] == [
        ("mobile", "", 1),
        ("desktop", "kyc-2026", 3),
    ]
    assert rows[1].day == datetime.now(UTC).date()


def test_the_buffer_writes_a_burst_as_one_upsert_after_its_delay(audience, monkeypatch):
    from marketing_site import settings

    monkeypatch.setenv("AUDIENCE_FLUSH_SECONDS", "3600")
    settings.get_settings.cache_clear()
    buffer = audience.ViewBuffer()
    view = audience.parse_beacon(beacon(FEATURE, lang="fr", referrer="www.linkedin.com"))
    for _ in range(1000):
        buffer.add(view)
    assert buffer.pending() == 1000
    assert _totals() == []  # nothing written before the flush: no per-view row at any time
    assert buffer.flush() == 1000
    buffer.flush()  # the timer's flush finds nothing more
    buffer.add(view)
    assert buffer.flush() == 1
    (row,) = _totals()
    assert (row.path, row.referrer, row.views) == (FEATURE, "www.linkedin.com", 1001)


def test_robots_unknown_pages_and_foreign_fields_are_left_out(audience):
    for agent in (
        "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0 Safari/537.36",
        "Mozilla/5.0 (Linux; Android 11) Chrome-Lighthouse",
        "python-httpx/0.28",
        "",
        None,
    ):
        assert audience.record(beacon(), "10.0.0.1", agent).status == "ignored"
    for payload in (
        beacon("/nope"),
        beacon("/console"),  # operators are not the audience
        beacon(lang="de"),
        beacon(device="watch"),
        "not an object",
        None,
    ):
        assert audience.record(payload, "10.0.0.1", BROWSER).status == "ignored"
    assert _totals() == []
    # Fields a beacon should not carry are not stored; a referrer is a host or nothing.
    audience.record(
        beacon(
            "/portail-client-priv%C3%A9e",
            referrer="https://evil.example/path?q=1",
            email="x@example.com",
            utm_campaign="a\x00b",
            utm_source="c" * 101,
            utm_medium="\u202eliame",
            utm_content="\tspring\t",
        ),
        "10.0.0.1",
        BROWSER,
    )
    (row,) = _totals()
    assert row.path == "/portail-client-privée"  # percent-encoded as in location.pathname
    assert row.referrer == ""
    # A tag breaking the contact fields' character rule, or too long, is dropped, not repaired.
    assert (row.utm_campaign, row.utm_source, row.utm_medium) == ("", "", "")
    assert row.utm_content == "spring"
    assert audience.clean_host("127.0.0.1") == ""  # the site's own host (SITE_URL) is no referrer
    assert audience.clean_host("News.Example.COM.") == "news.example.com"


def test_an_address_sending_too_many_beacons_is_refused_for_a_while(audience, monkeypatch):
    from marketing_site import settings

    monkeypatch.setenv("AUDIENCE_RATE_LIMIT_PER_MINUTE", "3")
    settings.get_settings.cache_clear()
    audience._limiter.cache_clear()
    assert [audience.record(beacon(), "10.0.0.9", BROWSER).status for _ in range(4)] == [
        "counted",
        "counted",
        "counted",
        "rate_limited",
    ]
    assert audience.record(beacon(), "10.0.0.8", BROWSER).status == "counted"
    assert sum(row.views for row in _totals()) == 4


def test_no_address_or_user_agent_reaches_the_database(audience, tmp_path):
    from marketing_site import db

    agent = BROWSER + " UniqueAgentMarker/9.9"
    audience.record(beacon(**CAMPAIGN), "203.0.113.77", agent)
    db.get_engine().dispose()  # the WAL checkpointed into the file
    data = b"".join(path.read_bytes() for path in tmp_path.glob("leads.db*"))
    assert b"kyc-2026" in data  # the file is readable: the check below can fail
    assert b"203.0.113.77" not in data
    assert b"UniqueAgentMarker" not in data


def test_purge_deletes_totals_older_than_thirteen_months_with_the_leads(audience, capsys):
    from marketing_site import ops
    from marketing_site.services.retention import months_before

    view = audience.parse_beacon(beacon())
    today = datetime.now(UTC)
    old = (months_before(today, 13) - timedelta(days=1)).date()
    kept = (months_before(today, 13) + timedelta(days=1)).date()
    audience.add_views({(old, view): 5, (kept, view): 7})
    assert ops.main(["purge", "--dry-run"]) == 0
    assert "would delete 1 daily audience total(s)" in capsys.readouterr().out
    assert len(_totals()) == 2
    assert ops.main(["purge"]) == 0
    assert "deleted 1 daily audience total(s)" in capsys.readouterr().out
    assert [(row.day, row.views) for row in _totals()] == [(kept, 7)]
    from marketing_site.db.audience import ROLLUPS

    for rollup, _ in ROLLUPS:
        assert [(row.day, row.views) for row in stored_rows(rollup)] == [(kept, 7)], rollup.__tablename__


def test_each_daily_sum_agrees_with_the_totals_it_sums(audience):
    """The traffic view reads the sums (ROLLUPS), the totals are the record: written together by
    add_views, they must say what summing the totals again says."""
    from marketing_site import db
    from marketing_site.db.audience import ROLLUPS

    today = datetime.now(UTC).date()
    views = [
        audience.parse_beacon(beacon(**CAMPAIGN)),
        audience.parse_beacon(beacon(**CAMPAIGN, device="mobile")),
        audience.parse_beacon(beacon(KYC, referrer="www.google.com")),
        audience.parse_beacon(beacon("/en/", lang="en", referrer="www.google.com", device="tablet")),
    ]
    audience.add_views({(today - timedelta(days=n % 2), view): 3 + n for n, view in enumerate(views)})
    audience.add_views({(today, views[0]): 5})  # added to existing rows

    def sums():
        return {
            rollup.__tablename__: sorted(
                (tuple(str(getattr(row, key)) for key in keys), row.views) for row in stored_rows(rollup)
            )
            for rollup, keys in ROLLUPS
        }

    written = sums()
    assert written["visit_source_day"] == [
        ((str(today - timedelta(days=1)), "", "newsletter", "kyc-2026"), 4),
        ((str(today - timedelta(days=1)), "www.google.com", "", ""), 6),
        ((str(today), "", "newsletter", "kyc-2026"), 8),
        ((str(today), "www.google.com", "", ""), 5),
    ]
    with db.get_engine().begin() as connection:
        audience.rebuild_rollups(connection)
    assert sums() == written


def test_a_lead_keeps_its_visit_attribution_in_the_row_the_mail_and_the_export(audience):
    from marketing_site import ops
    from marketing_site.db.leads import Lead, OutboxMessage

    attribution = {"landing_page": "/kyc-finance-en-ligne", "referrer": "www.google.com", **CAMPAIGN}
    result = audience_lead(audience, attribution)
    assert result.status == "accepted"
    (lead,) = stored_rows(Lead)
    assert (lead.landing_page, lead.referrer, lead.utm_source, lead.utm_medium, lead.utm_campaign) == (
        KYC,
        "www.google.com",
        "newsletter",
        "email",
        "kyc-2026",
    )
    (mail,) = stored_rows(OutboxMessage)
    assert "Page d'arrivée : /kyc-finance-en-ligne" in mail.body
    assert "Campagne (utm_campaign) : kyc-2026" in mail.body
    assert "Site référent : www.google.com" in mail.body
    out = io.StringIO()
    ops.export_leads(out)
    (row,) = csv.DictReader(io.StringIO(out.getvalue().removeprefix("\ufeff")), delimiter=";")
    assert {k: row[k] for k in ("landing_page", "referrer", "utm_source", "utm_medium", "utm_campaign")} == {
        "landing_page": KYC,
        "referrer": "www.google.com",
        **CAMPAIGN,
    }


def audience_lead(audience, attribution, email="helene.lefevre@example.com", ip="10.1.0.1"):
    from marketing_site.services import leads

    return leads.submit_lead(lead_payload(email=email, attribution=attribution), ip)


def test_attribution_that_does_not_fit_is_dropped_and_the_lead_kept(audience):
    from marketing_site.db.leads import Lead, OutboxMessage

    bad = {"landing_page": "https://evil.example/", "referrer": "not a host", "utm_source": 42}
    assert audience_lead(audience, bad).status == "accepted"
    assert audience_lead(audience, "nonsense", email="b@example.com").status == "accepted"
    leads = stored_rows(Lead)
    assert {(lead.landing_page, lead.referrer, lead.utm_source) for lead in leads} == {("", "", "")}
    assert all("Page d'arrivée" not in m.body for m in stored_rows(OutboxMessage))


def test_traffic_per_page_campaign_source_and_language_with_leads(audience, capsys):
    from marketing_site import ops

    today = datetime.now(UTC).date()
    home = audience.parse_beacon(beacon(**CAMPAIGN))
    kyc = audience.parse_beacon(beacon(KYC, referrer="www.google.com"))
    english = audience.parse_beacon(beacon("/en/", lang="en"))
    audience.add_views(
        {(today, home): 40, (today, kyc): 10, (today, english): 5, (today - timedelta(days=40), kyc): 99}
    )
    audience_lead(audience, {"landing_page": HOME, **CAMPAIGN}, email="a@example.com", ip="10.1.0.1")
    audience_lead(audience, {"landing_page": HOME, **CAMPAIGN}, email="b@example.com", ip="10.1.0.2")
    audience_lead(audience, {"landing_page": KYC, "referrer": "www.google.com"}, email="c@example.com", ip="10.1.0.3")

    by_page = {row.key: (row.views, row.leads, row.conversion) for row in audience.traffic("page", today, today)}
    assert by_page == {HOME: (40, 2, 5.0), KYC: (10, 1, 10.0), "/en/": (5, 0, 0.0)}
    by_source = {row.key: (row.views, row.leads) for row in audience.traffic("source", today, today)}
    assert by_source == {"newsletter": (40, 2), "www.google.com": (10, 1), "": (5, 0)}
    by_language = {row.key: row.views for row in audience.traffic("language", today, today)}
    assert by_language == {"fr": 50, "en": 5}
    month = audience.traffic("page", today - timedelta(days=45), today)
    assert next(row for row in month if row.key == KYC).views == 109

    assert ops.main(["traffic", "--by", "campaign", "--days", "7"]) == 0
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert rows == [["campaign", "views", "leads"], ["kyc-2026", "40", "2"], ["", "15", "1"]]


def test_the_traffic_command_runs_from_a_shell(audience, tmp_path):
    today = datetime.now(UTC).date()
    audience.add_views({(today, audience.parse_beacon(beacon(KYC))): 3})
    result = subprocess.run(
        [sys.executable, "-m", "marketing_site.ops", "traffic", "--by", "page", "--days", "1"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.splitlines() == ["page,views,leads", f"{KYC},3,0"]


def test_the_beacon_route_answers_204_and_counts(audience):
    from starlette.testclient import TestClient

    from marketing_site.api import api_app

    client = TestClient(api_app())
    headers = {"User-Agent": BROWSER, "Content-Type": "text/plain;charset=UTF-8"}

    response = client.post("/api/v1/audience", content=json.dumps(beacon(KYC, **CAMPAIGN)), headers=headers)
    assert response.status_code == 204
    assert "set-cookie" not in response.headers
    bot = client.post(
        "/api/v1/audience", content=json.dumps(beacon(KYC)), headers={**headers, "User-Agent": "Googlebot/2.1"}
    )
    assert bot.status_code == 204
    assert client.post("/api/v1/audience", content="x" * 5000, headers=headers).status_code == 413
    assert (
        client.post("/api/v1/audience", content="{}", headers={**headers, "Content-Type": "image/png"}).status_code
        == 415
    )
    (row,) = _totals()
    assert (row.path, row.utm_campaign, row.views) == (KYC, "kyc-2026", 1)
