"""Audience measurement and lead attribution, on a real SQLite database: beacons are counted
into daily totals (no per-view row, no address or user agent kept), robots and floods are left
out, old totals are purged with the leads, and leads carry where their visit came from into the
mail, the export and the traffic figures (services, the operator command, the HTTP route)."""

from __future__ import annotations

import csv
import io
import json
import re
import subprocess
import sys
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
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
    audience._quotas.cache_clear()
    yield audience
    audience._limiter.cache_clear()
    audience._quotas.cache_clear()


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
    from prometheus_client import REGISTRY

    def counted(outcome: str) -> float:
        return REGISTRY.get_sample_value("site_audience_beacons_total", {"outcome": outcome}) or 0.0

    before = {outcome: counted(outcome) for outcome in ("robot", "invalid", "counted")}
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
    # Counted by outcome (metrics.py), as the operators' dashboard shows them.
    assert {outcome: counted(outcome) - before[outcome] for outcome in before} == {
        "robot": 6,
        "invalid": 6,
        "counted": 0,
    }
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


# ------------------------------------------------------------------ growth per client
# Issue 30, must-hold 4: whatever beacons a client sends (every tag the route accepts, any
# referrer, any page, language and device), the daily totals keep AUDIENCE_SOURCES_PER_DAY
# sources a day at most, plus the direct visits and "(other)"; no counted view is lost; every
# stored tag follows the contact fields' character rule; the traffic view lists the top rows
# and "(other)" only.

SOURCES_PER_DAY = 4


def _public_paths():
    from marketing_site import routes

    return sorted(routes.public_paths())


tags = st.one_of(
    st.text(max_size=120),  # anything: bidi and control characters, line breaks, long
    st.sampled_from(["", "newsletter", "kyc-2026", "(other)", "\u202espring", " a\tb ", "x" * 101]),
)
hosts = st.one_of(
    st.sampled_from(["", "www.google.com", "news.example.com", "127.0.0.1", "NEWS.EXAMPLE.COM.", "not a host"]),
    st.from_regex(r"[a-z0-9]{1,10}\.[a-z]{2,5}", fullmatch=True),
    st.text(max_size=40),
)
beacons = st.fixed_dictionaries(
    {
        "path": st.one_of(st.sampled_from(_public_paths()), st.text(max_size=20)),
        "lang": st.sampled_from(["fr", "en", "de"]),
        "device": st.sampled_from(["mobile", "tablet", "desktop", "watch"]),
        "referrer": hosts,
        **dict.fromkeys(("utm_source", "utm_medium", "utm_campaign", "utm_content", "utm_term"), tags),
    },
    optional={"email": st.emails(), "extra": st.text(max_size=30)},
)


@pytest.fixture
def bounded_audience(audience, monkeypatch):
    from marketing_site import settings

    monkeypatch.setenv("AUDIENCE_SOURCES_PER_DAY", str(SOURCES_PER_DAY))
    monkeypatch.setenv("AUDIENCE_RATE_LIMIT_PER_MINUTE", "1000000")
    settings.get_settings.cache_clear()
    audience._limiter.cache_clear()
    return audience


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(batch=st.lists(beacons, max_size=25))
def test_the_rows_a_client_adds_stay_bounded_whatever_its_beacons_carry(bounded_audience, batch):
    from sqlalchemy import func, select
    from starlette.testclient import TestClient

    from marketing_site.api import api_app
    from marketing_site.db import new_session
    from marketing_site.db.audience import PageViewDay, VisitSourceDay
    from marketing_site.services.leads import TEXT_PATTERN

    audience = bounded_audience
    counted_before = sum(row.views for row in _totals())
    client = TestClient(api_app())
    headers = {"User-Agent": BROWSER, "Content-Type": "text/plain;charset=UTF-8"}
    for payload in batch:  # one client: the same address, as many sources as it likes
        assert client.post("/api/v1/audience", content=json.dumps(payload), headers=headers).status_code == 204
    counted = sum(audience.parse_beacon(payload) is not None for payload in batch)

    rows = _totals()
    assert sum(row.views for row in rows) == counted_before + counted  # nothing counted is lost
    sources = {tuple(getattr(row, f) for f in audience.SOURCE_FIELDS) for row in rows}
    named = sources - {("",) * 6, (audience.OTHER,) * 6}
    assert len(named) <= SOURCES_PER_DAY
    with new_session() as session:
        (source_rows,) = session.execute(select(func.count()).select_from(VisitSourceDay)).one()
        (page_rows,) = session.execute(select(func.count()).select_from(PageViewDay)).one()
    assert source_rows <= SOURCES_PER_DAY + 2
    assert page_rows <= (SOURCES_PER_DAY + 2) * len(_public_paths()) * 2 * 3  # paths x languages x devices
    rule = re.compile(TEXT_PATTERN)
    for row in rows:
        for tag in audience.UTM_TAGS:
            value = getattr(row, tag)
            assert value == "" or (rule.fullmatch(value) and len(value) <= 100), (tag, value)
    today = datetime.now(UTC).date()
    for by in audience.GROUPINGS:
        listed = audience.traffic(by, today, today, top=2)
        assert len(listed) <= 3 and all(not row.is_other for row in listed[:-1])
        assert sum(row.views for row in listed) == counted_before + counted


def test_a_day_keeps_its_first_sources_and_counts_later_ones_under_other(bounded_audience):
    """The sources a day already holds keep their rows; of the new ones, the most viewed of a
    flush come first; the rest are one "(other)" row in every table and every traffic view."""
    audience = bounded_audience
    today = datetime.now(UTC).date()
    views = {audience.parse_beacon(beacon(utm_campaign=f"c{n}")): n + 1 for n in range(SOURCES_PER_DAY + 3)}
    audience.add_views({(today, view): n for view, n in views.items()})
    by_campaign = {row.key: row.views for row in audience.traffic("campaign", today, today)}
    # c6, c5, c4, c3 (7, 6, 5, 4 views) have rows; c0, c1, c2 (1 + 2 + 3 views) are "(other)".
    assert by_campaign == {"c6": 7, "c5": 6, "c4": 5, "c3": 4, audience.OTHER: 6}
    audience.add_views({(today, audience.parse_beacon(beacon(utm_campaign="c0"))): 100})  # later, more viewed
    audience.add_views({(today, audience.parse_beacon(beacon(utm_campaign="c6"))): 1})  # known: kept
    audience.add_views({(today, audience.parse_beacon(beacon())): 2})  # direct: always kept
    by_campaign = {row.key: row.views for row in audience.traffic("campaign", today, today)}
    assert by_campaign == {"c6": 8, "c5": 6, "c4": 5, "c3": 4, audience.OTHER: 106, "": 2}
    by_source = {row.key: row.views for row in audience.traffic("source", today, today)}
    assert by_source == {"": 8 + 6 + 5 + 4 + 2, audience.OTHER: 106}  # the campaigns have no source
    # A new day has its own sources.
    audience.add_views({(today + timedelta(days=1), audience.parse_beacon(beacon(utm_campaign="c0"))): 1})
    assert {row.key for row in audience.traffic("campaign", today + timedelta(days=1), today + timedelta(days=1))} == {
        "c0"
    }


def test_another_worker_finds_the_days_sources_in_the_database_not_in_its_memory(bounded_audience):
    """A worker remembers the sources it wrote (`_known_sources`), but another worker, or this
    one after a restart, has written none: it must read the day's rows before it admits a new
    source, or every worker would give the day its own AUDIENCE_SOURCES_PER_DAY."""
    audience = bounded_audience
    today = datetime.now(UTC).date()
    tomorrow = today + timedelta(days=1)
    audience.add_views(
        {(today, audience.parse_beacon(beacon(utm_campaign=f"c{n}"))): 1 for n in range(SOURCES_PER_DAY)}
    )
    audience.add_views({(tomorrow, audience.parse_beacon(beacon(utm_campaign="t0"))): 1})
    audience._known_sources.clear()  # another worker's memory
    late = {
        (today, audience.parse_beacon(beacon(utm_campaign="late"))): 3,
        (tomorrow, audience.parse_beacon(beacon(utm_campaign="t1"))): 2,
    }
    audience.add_views(late)
    assert {row.key: row.views for row in audience.traffic("campaign", today, today)} == {
        **{f"c{n}": 1 for n in range(SOURCES_PER_DAY)},
        audience.OTHER: 3,
    }
    # The other day of the same batch has room: its new source gets its row.
    assert {row.key: row.views for row in audience.traffic("campaign", tomorrow, tomorrow)} == {"t0": 1, "t1": 2}
    audience._known_sources.clear()  # and a batch of that one day only
    audience.add_views({(today, audience.parse_beacon(beacon(utm_campaign="later"))): 4})
    assert {row.key: row.views for row in audience.traffic("campaign", today, today)}[audience.OTHER] == 3 + 4


def test_the_traffic_view_and_command_list_the_top_rows_then_other(bounded_audience, capsys):
    from marketing_site import ops
    from marketing_site.services import console

    audience = bounded_audience
    today = datetime.now(UTC).date()
    pages = _public_paths()[:8]
    audience.add_views({(today, audience.parse_beacon(beacon(path))): 10 + n for n, path in enumerate(pages)})
    listed = audience.traffic("page", today, today, top=3)
    assert [row.key for row in listed] == [*reversed(pages[-3:]), audience.OTHER]
    assert listed[-1].views == sum(10 + n for n in range(5)) and listed[-1].is_other
    assert len(audience.traffic("page", today, today)) == 8  # fewer than the top: no "(other)"
    rows = console.traffic_rows(console.TrafficQuery.parse({"by": "page"}))
    assert [row["other"] for row in rows] == [""] * 8
    assert ops.main(["traffic", "--by", "page", "--days", "1", "--top", "2"]) == 0
    written = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert written[1:] == [[pages[7], "17", "0"], [pages[6], "16", "0"], ["(other)", str(sum(range(10, 16))), "0"]]
    with pytest.raises(SystemExit):
        ops.main(["traffic", "--top", "0"])


def test_traffic_lists_from_one_row_to_its_most_and_refuses_either_side(audience):
    """The console's `top` at its exact edges: 1 and TRAFFIC_TOP_MAX rows are listed, 0 and one
    more than the most are refused with the range named (mutation testing found the edges free)."""
    today = datetime.now(UTC).date()
    for path in sorted(_public_paths())[:3]:
        assert audience.record(beacon(path), "10.9.0.1", BROWSER).status == "counted"
    assert len(audience.traffic("page", today, today, top=1)) == 2  # the most viewed, then the rest
    assert len(audience.traffic("page", today, today, top=audience.TRAFFIC_TOP_MAX)) == 3
    for top in (0, audience.TRAFFIC_TOP_MAX + 1):
        with pytest.raises(ValueError, match=f"^top must be 1 to {audience.TRAFFIC_TOP_MAX}$"):
            audience.traffic("page", today, today, top=top)


def test_views_per_day_counts_from_its_first_day_on_and_only_the_paths_asked(audience):
    """The console's daily views (and the thank-you pages' conversions): a day before `first`
    is left out, `first` itself and the days after are in, each day the sum of its pages;
    with `paths`, those pages only (mutation testing found this function without a fast test)."""
    today = datetime.now(UTC).date()
    home, kyc = audience.parse_beacon(beacon()), audience.parse_beacon(beacon(KYC))
    audience.add_views(
        {
            (today - timedelta(days=2), home): 1,
            (today - timedelta(days=1), home): 2,
            (today - timedelta(days=1), kyc): 4,
        }
    )
    audience.add_views({(today, home): 8, (today, kyc): 16})
    assert audience.views_per_day(today - timedelta(days=1)) == {today - timedelta(days=1): 6, today: 24}
    assert audience.views_per_day(today - timedelta(days=1), frozenset({KYC})) == {
        today - timedelta(days=1): 4,
        today: 16,
    }
    assert audience.views_per_day(today + timedelta(days=1)) == {}


def test_a_periods_leads_are_those_of_its_utc_days_from_the_first_midnight_to_the_last(audience):
    """`traffic`'s leads fall in [first 00:00, the day after last 00:00) UTC: a lead a
    microsecond either side of the period is out, one at its first or last instant is in."""
    from sqlmodel import update

    from marketing_site.db import new_session
    from marketing_site.db.leads import Lead

    first, last = datetime(2026, 3, 10, tzinfo=UTC).date(), datetime(2026, 3, 12, tzinfo=UTC).date()
    start = datetime(2026, 3, 10, tzinfo=UTC)
    moments = {
        "before@example.com": start - timedelta(microseconds=1),
        "first@example.com": start,
        "last@example.com": start + timedelta(days=3) - timedelta(microseconds=1),
        "after@example.com": start + timedelta(days=3),
    }
    for number, (email, moment) in enumerate(moments.items()):
        assert (
            audience_lead(audience, {"landing_page": HOME}, email=email, ip=f"10.2.0.{number + 1}").status == "accepted"
        )
        with new_session() as session:
            session.exec(update(Lead).where(Lead.email == email).values(created_at=moment.replace(tzinfo=None)))
            session.commit()
    (row,) = audience.traffic("page", first, last)
    assert (row.key, row.leads) == (HOME, 2)
    assert [r.leads for r in audience.traffic("page", last + timedelta(days=1), last + timedelta(days=1))] == [1]


def test_the_audiences_days_are_utc_days_whatever_the_machines_zone(monkeypatch):
    """The day a view is counted under is UTC's, not the machine's: at any instant one of these
    two zones (UTC+14, UTC-12) is on another date than UTC."""
    import time

    from marketing_site.services import audience

    told_apart = []
    try:
        for zone in ("Etc/GMT-14", "Etc/GMT+12"):
            monkeypatch.setenv("TZ", zone)
            time.tzset()
            before, today, local, after = (
                datetime.now(UTC).date(),
                audience._today(),
                datetime.now().date(),
                datetime.now(UTC).date(),
            )
            assert today in (before, after), zone
            told_apart.append(local not in (before, after))
    finally:
        monkeypatch.undo()
        time.tzset()
    assert any(told_apart)  # the test could tell the machine's date from UTC's


def test_the_buffers_timer_writes_every_batch_not_only_the_first(audience, monkeypatch):
    """With AUDIENCE_FLUSH_SECONDS set, a view is written by the timer its batch started, and a
    view after that flush starts a timer again (a flush forgets the timer it ran from)."""
    import time

    from marketing_site import settings

    monkeypatch.setenv("AUDIENCE_FLUSH_SECONDS", "0.2")
    settings.get_settings.cache_clear()
    buffer = audience.ViewBuffer()
    view = audience.parse_beacon(beacon(FEATURE))
    try:
        for expected in (1, 3):
            buffer.add(view)
            if expected == 3:
                buffer.add(view)
            # Nothing written at the add (the timer writes the batch), and the timer never holds
            # the worker's exit.
            assert sum(row.views for row in _totals()) == expected - (1 if expected == 1 else 2)
            assert buffer._timer is not None and buffer._timer.daemon is True
            deadline = time.monotonic() + 10
            while sum(row.views for row in _totals()) < expected and time.monotonic() < deadline:
                time.sleep(0.05)
            time.sleep(0.3)  # a timer that wrongly ran again, or a view counted twice, shows by now
            (row,) = _totals()
            assert (row.views, buffer.pending()) == (expected, 0)  # each view once: none doubled, none left
        assert buffer.flush() == 0  # nothing left to write
    finally:
        buffer.cancel_timer()


def test_each_beacons_outcome_is_counted_under_its_label_and_a_refusal_says_when_to_return(audience, monkeypatch):
    """The operators' counter of beacons has one label per outcome (counted, over the address's
    quota, rate-limited), and a rate-limited address is told to come back once its oldest view
    leaves the minute's window: the next whole second, never later, never sooner."""
    import time

    from prometheus_client import REGISTRY

    from marketing_site import settings

    def counted(outcome: str) -> float:
        return REGISTRY.get_sample_value("site_audience_beacons_total", {"outcome": outcome}) or 0.0

    monkeypatch.setenv("AUDIENCE_COMBINATIONS_PER_ADDRESS", "1")
    settings.get_settings.cache_clear()
    audience._quotas.cache_clear()
    before = {outcome: counted(outcome) for outcome in ("counted", "over_quota", "rate_limited")}
    started = time.monotonic()  # before the first view the window counts
    assert audience.record(beacon(), "10.3.0.1", BROWSER).status == "counted"
    assert audience.record(beacon(FEATURE), "10.3.0.1", BROWSER).status == "ignored"  # a second row: over
    assert audience.record(beacon(), "10.3.0.1", BROWSER).status == "counted"  # its one row still counts
    for _ in range(50 - 3):
        audience.record(beacon(), "10.3.0.1", BROWSER)
    refused = audience.record(beacon(), "10.3.0.1", BROWSER)
    elapsed = time.monotonic() - started
    assert refused.status == "rate_limited"
    assert 60 - elapsed <= refused.retry_after <= 60  # the window's end, rounded up to a second
    after = {outcome: counted(outcome) for outcome in before}
    assert {outcome: after[outcome] - before[outcome] for outcome in before} == {
        "counted": 49,
        "over_quota": 1,
        "rate_limited": 1,
    }


def test_a_refused_batch_goes_back_beside_the_views_that_came_while_it_was_written(audience, monkeypatch):
    """A flush takes the buffer's views out before writing them; when the database refuses the
    batch it goes back beside the views counted meanwhile, none lost or taken off."""
    from collections import Counter

    from marketing_site import settings

    monkeypatch.setenv("AUDIENCE_FLUSH_SECONDS", "3600")
    settings.get_settings.cache_clear()
    buffer = audience.ViewBuffer()
    home, feature = (audience.parse_beacon(beacon(path)) for path in (HOME, FEATURE))
    today = datetime.now(UTC).date()
    try:
        buffer.add(home, today)  # counted while the refused batch was being written
        buffer.add(feature, today)
        buffer._keep(Counter({(today, home): 2}))  # the refused batch
        assert buffer.pending() == 4
        assert buffer.flush() == 4
        assert {row.path: row.views for row in _totals()} == {HOME: 3, FEATURE: 1}
    finally:
        buffer.cancel_timer()
