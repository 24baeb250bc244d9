"""Audience measurement and lead attribution in Chromium against the production build.

Two visitors' journeys, each from a campaign link: one lands on a document page and downloads
there; the other lands on the home page, moves through the navbar (client-side navigations)
and downloads on a feature page. Their views are counted with their campaign, their leads carry
their landing page and campaign into the export and the console, and the console's traffic view
counts both. Then what the measurement must not do: add a cookie or a storage key, send
anything under Global Privacy Control, Do Not Track or the opt-out, count a headless browser,
or send anything without JavaScript.
"""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
import time
from urllib.parse import quote, unquote

import pytest
from browser_checks import provider_login
from conftest import CONSOLE_ADMIN_USER
from lead_corpus import BASE
from lead_payloads import fill_form

from marketing_site import routes

pytestmark = pytest.mark.browser

# A desktop Chrome's user agent: the default headless one names itself a robot (not counted).
BROWSER_UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
RUN = str(time.time_ns())
DOC_CAMPAIGN = f"kyc-launch-{RUN}"
HOME_CAMPAIGN = f"portal-q4-{RUN}"
AUDIENCE = "/api/v1/audience"


def _url(site: str, path: str, query: str = "") -> str:
    return site + quote(path, safe="/") + (f"?{query}" if query else "")


def _watch_beacons(page) -> list[dict]:
    beacons: list[dict] = []
    page.on("request", lambda r: beacons.append(json.loads(r.post_data)) if r.url.endswith(AUDIENCE) else None)
    return beacons


def _wait_for(page, beacons: list[dict], count: int) -> None:
    for _ in range(100):
        if len(beacons) >= count:
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"{len(beacons)} beacon(s) sent, {count} expected: {beacons}")


def _hydrated(page) -> None:
    page.wait_for_function("() => window.__reactRouterDataRouter !== undefined")


def _click_link(page, scope: str, path: str) -> None:
    """Click the link to `path` inside `scope` (hrefs may be percent-encoded or not)."""
    hrefs = page.locator(f"{scope} a").evaluate_all("(as) => as.map((a) => a.getAttribute('href'))")
    target = next(h for h in hrefs if unquote(h) == path)
    page.locator(f"{scope} a[href='{target}']").first.click()


def _download(page, email: str) -> None:
    form = page.locator("form.lead-form")
    form.wait_for()
    fill_form(form, form.get_attribute("id").removeprefix("lead-"), "fr", {**BASE, "email": email})
    with page.expect_download():
        form.get_by_role("button").click()


@pytest.fixture(scope="module")
def journeys(browser, site, site_server):
    """Both journeys, once; what each browser sent (beacons, lead requests) and the emails."""
    result = {}
    # 1. A newsletter link to a document page, from a news site; the download there.
    context = browser.new_context(locale="fr-FR", user_agent=BROWSER_UA, viewport={"width": 1280, "height": 800})
    page = context.new_page()
    beacons = _watch_beacons(page)
    leads: list[dict] = []
    page.on("request", lambda r: leads.append(json.loads(r.post_data)) if "/api/v1/mail/send" in r.url else None)
    query = f"utm_source=newsletter&utm_medium=email&utm_campaign={DOC_CAMPAIGN}"
    page.goto(_url(site, routes.KYC_DOCUMENTATION.fr, query), referer="https://news.example.org/article?id=7")
    _hydrated(page)
    _wait_for(page, beacons, 1)
    email = f"doc-journey-{RUN}@example.com"
    _download(page, email)
    page.wait_for_url(_url(site, routes.THANKS_DOCUMENTATION.fr))
    _wait_for(page, beacons, 2)
    result["document"] = {"beacons": list(beacons), "leads": list(leads), "email": email}
    context.close()

    # 2. A LinkedIn post to the home page; the navbar to a feature page; the download there.
    context = browser.new_context(locale="fr-FR", user_agent=BROWSER_UA, viewport={"width": 390, "height": 844})
    page = context.new_page()
    beacons = _watch_beacons(page)
    leads = []
    page.on("request", lambda r: leads.append(json.loads(r.post_data)) if "/api/v1/mail/send" in r.url else None)
    query = f"utm_source=linkedin&utm_medium=social&utm_campaign={HOME_CAMPAIGN}&utm_content=carousel"
    page.goto(_url(site, routes.HOME.fr, query), referer="https://www.linkedin.com/feed/")
    _hydrated(page)
    _wait_for(page, beacons, 1)
    page.evaluate("() => { window.__samePage = true; }")  # gone if a navigation reloads the document
    page.locator(".site-header__toggle").click()  # the mobile menu
    page.locator(".disclosure__button").click()
    _click_link(page, ".disclosure__panel", routes.FEATURE_PORTAL.fr)
    page.wait_for_url(_url(site, routes.FEATURE_PORTAL.fr))
    _wait_for(page, beacons, 2)
    assert page.evaluate("() => window.__samePage") is True, "the navbar link reloaded the document"
    email = f"home-journey-{RUN}@example.com"
    _download(page, email)
    page.wait_for_url(_url(site, routes.THANKS_DOCUMENTATION.fr))
    _wait_for(page, beacons, 3)
    assert page.evaluate("() => window.__samePage") is True
    result["home"] = {"beacons": list(beacons), "leads": list(leads), "email": email}
    context.close()
    return result


def test_landing_on_a_document_page_with_tags_and_downloading_there(journeys, site_server):
    beacons = journeys["document"]["beacons"]
    campaign = {"utm_source": "newsletter", "utm_medium": "email", "utm_campaign": DOC_CAMPAIGN}
    assert beacons[0] == {
        "path": quote(routes.KYC_DOCUMENTATION.fr, safe="/"),
        "lang": "fr",
        "device": "desktop",
        "referrer": "news.example.org",
        **campaign,
        "utm_content": "",
        "utm_term": "",
    }
    assert unquote(beacons[1]["path"]) == routes.THANKS_DOCUMENTATION.fr
    (sent,) = journeys["document"]["leads"]
    assert sent["attribution"]["landing_page"] == routes.KYC_DOCUMENTATION.fr
    rows = site_server.query(
        "SELECT landing_page, referrer, utm_source, utm_medium, utm_campaign FROM lead WHERE email = ?",
        journeys["document"]["email"],
    )
    assert rows == [(routes.KYC_DOCUMENTATION.fr, "news.example.org", "newsletter", "email", DOC_CAMPAIGN)]
    views = site_server.query(
        "SELECT path, referrer, device, views FROM page_view_day WHERE utm_campaign = ? ORDER BY path", DOC_CAMPAIGN
    )
    assert sorted(views) == sorted(
        [
            (routes.KYC_DOCUMENTATION.fr, "news.example.org", "desktop", 1),
            (routes.THANKS_DOCUMENTATION.fr, "news.example.org", "desktop", 1),
        ]
    )


def test_landing_on_the_home_page_and_downloading_after_client_side_navigation(journeys, site_server):
    beacons = journeys["home"]["beacons"]
    assert [unquote(b["path"]) for b in beacons] == [
        routes.HOME.fr,
        routes.FEATURE_PORTAL.fr,
        routes.THANKS_DOCUMENTATION.fr,
    ]
    # The visit's attribution rides on every view of the visit, kept in page memory only.
    assert {(b["utm_campaign"], b["utm_content"], b["referrer"], b["device"]) for b in beacons} == {
        (HOME_CAMPAIGN, "carousel", "www.linkedin.com", "mobile")
    }
    assert all(
        set(b)
        == {
            "path",
            "lang",
            "device",
            "referrer",
            *(f"utm_{t}" for t in ("source", "medium", "campaign", "content", "term")),
        }
        for b in beacons
    )
    rows = site_server.query(
        "SELECT landing_page, referrer, utm_source, utm_medium, utm_campaign, utm_content FROM lead WHERE email = ?",
        journeys["home"]["email"],
    )
    assert rows == [(routes.HOME.fr, "www.linkedin.com", "linkedin", "social", HOME_CAMPAIGN, "carousel")]
    views = dict(site_server.query("SELECT path, views FROM page_view_day WHERE utm_campaign = ?", HOME_CAMPAIGN))
    assert views == {routes.HOME.fr: 1, routes.FEATURE_PORTAL.fr: 1, routes.THANKS_DOCUMENTATION.fr: 1}


def _ops(site_server, *args: str) -> str:
    env = {**os.environ, "DATABASE_URL": site_server.database_url}
    return subprocess.run(
        [sys.executable, "-m", "marketing_site.ops", *args], env=env, capture_output=True, text=True, check=True
    ).stdout


def test_both_journeys_appear_in_the_export_and_the_traffic_command(journeys, site_server):
    # The export is for a French Excel (services.lead_export): a byte-order mark, `;` between cells.
    exported = _ops(site_server, "export").removeprefix("\ufeff")
    rows = {row["email"]: row for row in csv.DictReader(io.StringIO(exported), delimiter=";")}
    document, home = rows[journeys["document"]["email"]], rows[journeys["home"]["email"]]
    assert (document["landing_page"], document["referrer"], document["utm_campaign"]) == (
        routes.KYC_DOCUMENTATION.fr,
        "news.example.org",
        DOC_CAMPAIGN,
    )
    assert (home["landing_page"], home["utm_source"], home["utm_medium"], home["utm_campaign"]) == (
        routes.HOME.fr,
        "linkedin",
        "social",
        HOME_CAMPAIGN,
    )
    traffic = list(csv.reader(io.StringIO(_ops(site_server, "traffic", "--by", "campaign", "--days", "1"))))
    assert traffic[0] == ["campaign", "views", "leads"]
    figures = {row[0]: (int(row[1]), int(row[2])) for row in traffic[1:]}
    assert figures[DOC_CAMPAIGN] == (2, 1)
    assert figures[HOME_CAMPAIGN] == (3, 1)


def _the_traffic_view_lists_the_top_rows_then_other(page, traffic, site_server) -> None:
    """Issue 30, finding 6: the view sent every row over the websocket. On a day of its own
    (no other test's), 60 campaigns: the 50 most viewed, then "(autres)" with the rest."""
    from marketing_site.services.audience import TRAFFIC_TOP

    day = "2001-01-01"
    for n in range(TRAFFIC_TOP + 10):
        site_server.query(
            "INSERT INTO visit_source_day (day, referrer, utm_source, utm_campaign, views) VALUES (?, '', '', ?, ?)",
            day,
            f"seed-{n:02d}",
            n + 1,
        )
    traffic.locator("[name=by]").select_option("campaign")
    page.fill("#console-traffic-from", day)
    page.fill("#console-traffic-to", day)
    page.get_by_test_id("console-traffic-apply").click()
    other = page.locator("[data-testid=console-traffic] tr[data-key='(other)']")
    other.wait_for()
    rows = page.locator("[data-testid=console-traffic] tbody tr")
    assert rows.count() == TRAFFIC_TOP + 1
    assert rows.first.get_attribute("data-key") == f"seed-{TRAFFIC_TOP + 9:02d}"
    assert other.locator("th").inner_text() == "(autres)"
    assert other.locator("td[data-col=views]").inner_text() == str(sum(range(1, 11)))


def test_the_console_shows_the_campaigns_in_the_leads_and_the_traffic_view(journeys, new_page, site, site_server):
    page = new_page()
    page.goto(site + "/console")
    provider_login(page, CONSOLE_ADMIN_USER)
    page.wait_for_url(site + "/console")
    page.locator("#leads").wait_for()
    filters = page.get_by_test_id("console-filters")
    filters.locator("[name=campaign]").fill(HOME_CAMPAIGN)
    page.get_by_test_id("console-apply").click()
    page.wait_for_function("() => document.querySelector('[data-testid=console-total]')?.innerText.startsWith('1 ')")
    row = page.locator("[data-testid=console-leads] tbody tr")
    assert row.locator("td[data-col=email]").inner_text() == journeys["home"]["email"]
    assert row.locator("td[data-col=campaign]").inner_text() == HOME_CAMPAIGN
    assert row.locator("td[data-col=landing_page]").inner_text() == routes.HOME.fr
    assert row.locator("td[data-col=source]").inner_text() == "linkedin"
    filters.locator("[name=campaign]").fill("")
    filters.locator("[name=source]").fill("newsletter")  # utm_source before the referrer
    page.get_by_test_id("console-apply").click()
    page.wait_for_function(
        "(e) => [...document.querySelectorAll('[data-testid=console-leads] td[data-col=email]')]"
        ".some((td) => td.innerText === e)",
        arg=journeys["document"]["email"],
    )

    traffic = page.get_by_test_id("console-traffic-form")
    traffic.locator("[name=by]").select_option("campaign")
    page.get_by_test_id("console-traffic-apply").click()
    home_row = page.locator(f"[data-testid=console-traffic] tr[data-key='{HOME_CAMPAIGN}']")
    home_row.wait_for()
    assert home_row.locator("td[data-col=views]").inner_text() == "3"
    assert home_row.locator("td[data-col=leads]").inner_text() == "1"
    assert home_row.locator("td[data-col=conversion]").inner_text() == "33.33 %"
    doc_row = page.locator(f"[data-testid=console-traffic] tr[data-key='{DOC_CAMPAIGN}']")
    assert (doc_row.locator("td[data-col=views]").inner_text(), doc_row.locator("td[data-col=leads]").inner_text()) == (
        "2",
        "1",
    )
    traffic.locator("[name=by]").select_option("page")
    page.get_by_test_id("console-traffic-apply").click()
    page.locator(f"[data-testid=console-traffic] tr[data-key='{routes.THANKS_DOCUMENTATION.fr}']").wait_for()
    _the_traffic_view_lists_the_top_rows_then_other(page, traffic, site_server)
    # The funnel's thank-you step is measured: at least the two journeys' thank-you views.
    page.locator("#charts summary").first.click()
    thanked = int(page.locator("[data-testid=console-funnel] tr[data-step=thank_you] td").inner_text())
    assert thanked >= 2
    page.get_by_test_id("console-traffic-chart").locator("summary").click()  # the chart's figures
    weeks = page.get_by_test_id("console-traffic-weeks").locator("tbody tr").last
    assert int(weeks.locator("td[data-col=views]").inner_text()) >= 5
    assert int(weeks.locator("td[data-col=leads]").inner_text()) >= 2


STORAGE = """() => [...Object.keys(localStorage).map((k) => 'local:' + k),
  ...Object.keys(sessionStorage).map((k) => 'session:' + k)].sort()"""
GPC = "Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true });"
DNT = "Object.defineProperty(Navigator.prototype, 'doNotTrack', { get: () => '1' });"


def _visit(browser, site, init_script: str = "", **options) -> tuple[list[dict], list[str], list[str]]:
    """A campaign landing and a client-side navigation: beacons sent, cookies, storage keys."""
    context = browser.new_context(
        locale="fr-FR", user_agent=BROWSER_UA, viewport={"width": 1280, "height": 800}, **options
    )
    if init_script:
        context.add_init_script(init_script)
    page = context.new_page()
    beacons = _watch_beacons(page)
    page.goto(_url(site, routes.HOME.fr, f"utm_source=ads&utm_campaign=storage-{RUN}"))
    if options.get("java_script_enabled", True):
        _hydrated(page)
        _click_link(page, ".site-header__menu", routes.PRICING.fr)
        page.wait_for_url(_url(site, routes.PRICING.fr))
    page.wait_for_timeout(1000)
    storage = page.evaluate(STORAGE) if options.get("java_script_enabled", True) else []
    cookies = sorted(c["name"] for c in context.cookies())
    context.close()
    return beacons, cookies, storage


def test_measurement_adds_no_cookie_and_no_storage_key(browser, site):
    measured = _visit(browser, site)
    unmeasured = _visit(browser, site, GPC)
    assert len(measured[0]) == 2 and unmeasured[0] == []
    # The same visit with and without measurement leaves the same cookies and keys (Reflex's
    # tab token, React Router's scroll positions), none of them the measurement's.
    assert measured[1:] == unmeasured[1:]
    assert measured[1] == []
    assert not [key for key in measured[2] if "audience" in key or "utm" in key]


def test_global_privacy_control_do_not_track_and_the_opt_out_send_no_beacon(browser, site):
    assert _visit(browser, site, GPC)[0] == []
    assert _visit(browser, site, DNT)[0] == []
    # The privacy policy's opt-out: the button writes its one key, then nothing is sent.
    context = browser.new_context(locale="fr-FR", user_agent=BROWSER_UA)
    page = context.new_page()
    beacons = _watch_beacons(page)
    page.goto(_url(site, routes.PRIVACY.fr))
    _hydrated(page)
    _wait_for(page, beacons, 1)
    box = page.get_by_test_id("audience-opt-out")
    box.get_by_role("button").click()
    page.wait_for_function("() => document.querySelector('.audience-opt-out').dataset.state === 'opt-out'")
    assert page.evaluate("() => localStorage.getItem('nereo_audience_opt_out')") == "1"
    page.goto(_url(site, routes.HOME.fr, "utm_campaign=after-opt-out"))
    _hydrated(page)
    page.wait_for_timeout(1000)
    assert len(beacons) == 1
    context.close()


def test_a_headless_browser_is_not_counted_and_no_javascript_sends_nothing(browser, site, site_server):
    campaign = f"robot-{RUN}"
    context = browser.new_context(locale="fr-FR")  # Chromium's own headless user agent
    page = context.new_page()
    beacons = _watch_beacons(page)
    page.goto(_url(site, routes.HOME.fr, f"utm_campaign={campaign}"))
    _hydrated(page)
    _wait_for(page, beacons, 1)  # sent, and left out by the server
    context.close()
    assert site_server.query("SELECT COUNT(*) FROM page_view_day WHERE utm_campaign = ?", campaign) == [(0,)]
    beacons, _, _ = _visit(browser, site, java_script_enabled=False)
    assert beacons == []
