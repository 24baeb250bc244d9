"""The operators' console in Chromium on the production build, with the real identity provider,
the real database of the session's site and its SMTP server (loopback).

The role gate in its three cases, the websocket driven directly by a user without the role,
the leads table (search, filters, paging), the CSV export, the bookings by day with a
cancellation on a person's behalf and their export, the chart and funnel, mail retry, and a data
subject's download and erasure with its audit entry.
"""

from __future__ import annotations

import csv
import io
import json
import re
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import httpx2
import pytest
from conftest import CONSOLE_ADMIN_USER, INVESTOR_USER

pytestmark = pytest.mark.browser

AUTHORIZE = re.compile(r".*/oauth2/authorize.*")
# ----------------------------------------------------------------------------- helpers


def _engine(site_server):
    from sqlalchemy import create_engine
    from sqlalchemy.pool import NullPool

    return create_engine(site_server.database_url, poolclass=NullPool)


def _seed(site_server, leads: list[dict]) -> list[int]:
    """Insert leads (with an outbox mail unless mail=None) straight into the site's database."""
    from sqlmodel import Session

    from marketing_site.db.leads import Lead, OutboxMessage

    engine = _engine(site_server)
    ids = []
    try:
        with Session(engine) as session, session.begin():
            for given in leads:
                spec = dict(given)
                mail = spec.pop("mail", "sent")
                lead = Lead(
                    form=spec.pop("form", "ebook"),
                    lang=spec.pop("lang", "fr"),
                    firstname=spec.pop("firstname", "Jeanne"),
                    phone="+33 1 23 45 67 89",
                    idempotency_key=uuid.uuid4().hex,
                    **spec,
                )
                session.add(lead)
                session.flush()
                ids.append(lead.id)
                if mail:
                    # "stuck": claimed by a worker that never came back, its lease long over.
                    now = datetime.now(UTC)
                    session.add(
                        OutboxMessage(
                            lead_id=lead.id,
                            message_id=f"<{uuid.uuid4().hex}@test>",
                            mail_from="site@example.test",
                            mail_to="leads@example.test",
                            reply_to=lead.email,
                            subject=f"Console test {lead.email}",
                            body="…",
                            status="sending" if mail == "stuck" else mail,
                            attempts=3 if mail == "failed" else 1,
                            last_error="550 5.1.1 mailbox unavailable" if mail == "failed" else None,
                            failed_at=now if mail == "failed" else None,
                            last_failure_at=now - timedelta(minutes=2) if mail == "failed" else None,
                            claim_token="gone" if mail == "stuck" else None,
                            locked_until=now - timedelta(minutes=5) if mail == "stuck" else None,
                            next_attempt_at=now + timedelta(days=365),
                        )
                    )
    finally:
        engine.dispose()
    return ids


def _seed_booking(site_server, email: str, zone: str = "Europe/Paris", company: str = "Chart", **attribution) -> int:
    """A demo booked (made this week, far ahead): its lead (form `demo`) and its booking row;
    returns the booking's id."""
    from sqlmodel import Session

    from marketing_site.db.booking import Booking
    from marketing_site.db.leads import Lead

    engine = _engine(site_server)
    # Far beyond the offer: the booking tests of the same site keep every slot they see.
    start = (datetime.now(UTC) + timedelta(days=400)).replace(minute=0, second=0, microsecond=0)
    start += timedelta(seconds=uuid.uuid4().int % 1000)
    try:
        with Session(engine) as session, session.begin():
            lead = Lead(
                form="demo",
                lang="fr",
                name="Demo",
                firstname="Chart",
                phone="+33 1 23 45 67 89",
                company=company,
                email=email,
                idempotency_key=uuid.uuid4().hex,
            )
            session.add(lead)
            session.flush()
            booking = Booking(
                lead_id=lead.id,
                starts_at=start,
                ends_at=start + timedelta(minutes=30),
                visitor_timezone=zone,
                lang="fr",
                uid=f"{uuid.uuid4().hex}@example.test",
                **attribution,
            )
            session.add(booking)
            session.flush()
            booking_id = booking.id
    finally:
        engine.dispose()
    assert booking_id is not None
    return booking_id


def _booking_start(site_server, booking_id: int) -> datetime:
    from sqlmodel import Session

    from marketing_site.db.booking import Booking
    from marketing_site.services.booking import _as_utc

    engine = _engine(site_server)
    try:
        with Session(engine) as session:
            return _as_utc(session.get(Booking, booking_id).starts_at)
    finally:
        engine.dispose()


def _login(page, site, path, user):
    """Open a console path anonymously: the provider's login, one click, and back."""
    page.goto(site + path)
    page.wait_for_url(AUTHORIZE)
    page.locator(f"button[name=sub][value='{user['sub']}']").click()
    page.wait_for_url(site + path)
    page.wait_for_function("() => window.__reactRouterDataRouter !== undefined")


def _granted(page):
    page.locator("#leads").wait_for()


def _cookie_header(page) -> str:
    return "; ".join(f"{c['name']}={c['value']}" for c in page.context.cookies())


def _rows(page) -> list[str]:
    return page.locator("[data-testid=console-leads] tbody td[data-col=email]").all_inner_texts()


def _filter(page, **fields):
    form = page.get_by_test_id("console-filters")
    for name, value in fields.items():
        element = form.locator(f"[name={name}]")
        if element.evaluate("e => e.tagName") == "SELECT":
            element.select_option(value)
        else:
            element.fill(value)
    page.get_by_test_id("console-apply").click()


def _wait_total(page, total: int):
    page.wait_for_function(
        "(t) => document.querySelector('[data-testid=console-total]')?.innerText.startsWith(t + ' ')", arg=str(total)
    )


# ----------------------------------------------------------------------------- role gate


def test_anonymous_goes_to_login_and_back_and_an_admin_sees_the_console(new_page, site, page_errors):
    page = new_page()
    _login(page, site, "/console", CONSOLE_ADMIN_USER)
    _granted(page)
    assert page.locator("h1").inner_text() == "Console"
    assert page.locator("#charts .recharts-wrapper").count() == 3  # leads, views and leads, funnel
    assert page.locator("#mail, #data-subjects").count() == 2
    assert page.locator("meta[name=robots]").get_attribute("content") == "noindex"
    # The English console, same session.
    page.goto(site + "/en/console")
    page.locator("#leads").wait_for()
    assert page.get_by_test_id("console-apply").inner_text() == "Filter"
    assert page_errors == []


@pytest.mark.parametrize("width", [1280, 375])
def test_the_console_has_no_axe_violations(new_page, site, width):
    from browser_checks import AXE, RUN_AXE

    page = new_page(width=width, height=900)
    page.add_init_script(path=str(AXE))
    _login(page, site, "/console", CONSOLE_ADMIN_USER)
    _granted(page)
    page.locator("#charts .recharts-wrapper").first.wait_for()
    assert page.evaluate(RUN_AXE) == []


def test_without_the_role_the_console_says_403_and_its_exports_refuse(new_page, site):
    page = new_page()
    _login(page, site, "/console", INVESTOR_USER)
    refused = page.get_by_test_id("console-forbidden")
    refused.wait_for()
    assert "403" in refused.inner_text()
    assert page.locator("#leads").count() == 0
    cookies = {"cookie": _cookie_header(page)}
    assert httpx2.get(site + "/api/console/leads.csv", headers=cookies).status_code == 403
    assert (
        httpx2.post(site + "/api/console/subject.json", headers=cookies, data={"email": "x@example.test"}).status_code
        == 403
    )
    assert httpx2.get(site + "/api/console/leads.csv").status_code == 401
    assert httpx2.post(site + "/api/console/subject.json", data={"email": "x@example.test"}).status_code == 401


def test_the_console_api_refuses_cross_site_requests_even_with_the_operators_cookie(new_page, site, site_server):
    page = new_page()
    _login(page, site, "/console", CONSOLE_ADMIN_USER)
    _granted(page)
    cookie = {"cookie": _cookie_header(page)}
    audited = site_server.query("SELECT COUNT(*) FROM console_audit")
    foreign = [{"Origin": "https://evil.example"}, {"Sec-Fetch-Site": "cross-site"}, {"Sec-Fetch-Site": "same-site"}]
    for headers in foreign:
        posted = httpx2.post(
            site + "/api/console/subject.json", headers={**cookie, **headers}, data={"email": "x@y.fr"}
        )
        assert posted.status_code == 403, headers
        assert httpx2.get(site + "/api/console/leads.csv", headers={**cookie, **headers}).status_code == 403, headers
    assert site_server.query("SELECT COUNT(*) FROM console_audit") == audited  # nothing read, nothing logged
    # From the console itself (or a bookmark), and from a client that is no browser: served.
    for headers in ({"Sec-Fetch-Site": "same-origin"}, {"Sec-Fetch-Site": "none"}, {}):
        assert httpx2.get(site + "/api/console/leads.csv", headers={**cookie, **headers}).status_code == 200


def test_a_user_without_the_role_cannot_call_the_console_handlers_over_the_websocket(new_page, site, site_server):
    """Every event handler of the console state, emitted on the page's own socket exactly as the
    Reflex client would, by a logged-in user without the role: nothing is read or changed."""
    from marketing_site.state.console import ConsoleState

    marker = f"ws-{uuid.uuid4().hex[:8]}"
    email = f"{marker}@example.test"
    [lead_id] = _seed(site_server, [{"name": "Victime", "company": marker, "email": email, "mail": "failed"}])
    [(message_id,)] = site_server.query("SELECT id FROM outbox_message WHERE lead_id = ?", lead_id)
    booking_id = _seed_booking(site_server, f"booked-{email}", company=marker)
    audit_before = site_server.query("SELECT count(*) FROM console_audit")[0][0]

    page = new_page()
    relay = {"to_server": [], "to_page": []}

    def connect(ws):
        server = ws.connect_to_server()
        relay["server"] = server

        def to_server(message):
            relay["to_server"].append(message)
            server.send(message)

        def to_page(message):
            relay["to_page"].append(message)
            ws.send(message)

        ws.on_message(to_server)
        server.on_message(to_page)

    page.route_web_socket(re.compile(r".*/_event/.*"), connect)
    _login(page, site, "/console", INVESTOR_USER)
    page.get_by_test_id("console-forbidden").wait_for()
    first = None
    for _ in range(100):  # the client sends its first event with the connection (as in test_browser_pages)
        first = next((f for f in relay["to_server"] if str(f).startswith("40/_event,")), None)
        if first:
            break
        page.wait_for_timeout(100)
    template = json.loads(first.removeprefix("40/_event,"))["event"]
    calls = {
        "apply_filters": {"form_data": {"search": marker}},
        "apply_traffic": {"form_data": {"by": "campaign", "from": "2020-01-01"}},
        "sort_by": {"column": "email"},
        "go_to_page": {"page": 1},
        "refresh_mail": {},
        "retry_one": {"message_id": str(message_id)},
        "retry_all": {},
        "lookup_subject": {"form_data": {"email": email}},
        "arm_erase": {"checked": True},
        "erase_subject": {"form_data": {"email": email, "confirm": "on"}},
        "refresh_bookings": {},
        "cancel_booking": {"booking_id": str(booking_id)},
        "keep_booking": {},
        "load": {},
    }
    handlers = (
        set(ConsoleState.event_handlers) - {"setvar"} - {n for n in ConsoleState.event_handlers if n.startswith("set_")}
    )
    assert handlers == set(calls), "a new handler needs a line in this test"
    sent_before = len(relay["to_page"])
    for name, payload in calls.items():
        event = {**template, "name": f"{ConsoleState.get_full_name()}.{name}", "payload": payload}
        relay["server"].send("42/_event," + json.dumps(["event", event]))
    page.wait_for_timeout(2500)  # the handlers ran (each answers with a delta)
    answers = "".join(str(m) for m in relay["to_page"][sent_before:])
    assert "forbidden" in answers  # the server answered the events
    assert marker not in answers and email not in answers  # and sent no lead data
    assert site_server.query("SELECT email FROM lead WHERE id = ?", lead_id) == [(email,)]
    assert site_server.query("SELECT status FROM outbox_message WHERE id = ?", message_id) == [("failed",)]
    assert site_server.query("SELECT status FROM booking WHERE id = ?", booking_id) == [("confirmed",)]
    assert site_server.query("SELECT count(*) FROM console_audit")[0][0] == audit_before
    assert page.locator("#leads").count() == 0


def test_the_charting_library_ships_on_the_console_only(site):
    """recharts is in the JavaScript the console's HTML loads, and in none that a public page loads
    (the page's module script and every module it imports, statically, in turn)."""
    from urllib.parse import quote

    from marketing_site import routes

    scripts: dict[str, str] = {}

    def script(src: str) -> str:
        if src not in scripts:
            scripts[src] = httpx2.get(site + src).text
        return scripts[src]

    def loads_recharts(path: str) -> bool:
        html = httpx2.get(site + quote(path, safe="/")).text
        pending = set(re.findall(r'import[^"]*"(/assets/[^"]+\.js)"', html))
        seen: set[str] = set()
        while pending:
            src = pending.pop()
            seen.add(src)
            body = script(src)
            if "recharts-wrapper" in body:
                return True
            pending |= {"/assets/" + name for name in re.findall(r'from"\./([^"]+\.js)"', body)} - seen
        assert seen, path  # the page's module script was found
        return False

    assert loads_recharts(routes.CONSOLE.fr) and loads_recharts(routes.CONSOLE.en)
    assert [
        p for p in routes.all_paths() if p not in (routes.CONSOLE.fr, routes.CONSOLE.en) and loads_recharts(p)
    ] == []


# ----------------------------------------------------------------------------- leads


def test_search_filters_paging_and_csv_export(new_page, site, site_server):
    marker = f"Cx{uuid.uuid4().hex[:8]}"
    now = datetime.now(UTC)
    seeded = [
        {
            "name": f"Zeta{i:02d}",
            "company": f"{marker} Bank",
            "email": f"p{i:02d}.{marker.lower()}@example.test",
            "form": "kyc_documentation",
            "created_at": now - timedelta(hours=i),
        }
        for i in range(27)
    ]
    seeded += [
        {
            "name": "=SUM(A1)",
            "company": f"{marker} Family",
            "email": f"formula.{marker.lower()}@example.test",
            "form": "white_paper",
            "lang": "en",
            "created_at": now - timedelta(days=3),
            "mail": "failed",
        },
    ]
    _seed(site_server, seeded)
    page = new_page()
    _login(page, site, "/console", CONSOLE_ADMIN_USER)
    _granted(page)

    _filter(page, search=marker.upper())  # case-insensitive, on the company
    _wait_total(page, 28)
    assert page.get_by_test_id("console-page").inner_text() == "Page 1 sur 2"
    first_page = _rows(page)
    assert len(first_page) == 25 and first_page[0] == seeded[0]["email"]  # newest first
    page.get_by_test_id("console-next").click()
    page.wait_for_function("() => document.querySelector('[data-testid=console-page]').innerText === 'Page 2 sur 2'")
    assert len(_rows(page)) == 3 and set(_rows(page)).isdisjoint(first_page)

    page.get_by_test_id("console-sort-email").click()  # ascending by email, back to page 1
    page.wait_for_function("() => document.querySelector('[data-testid=console-page]').innerText === 'Page 1 sur 2'")
    assert _rows(page)[0] == f"formula.{marker.lower()}@example.test"

    _filter(page, search=marker, form="white_paper", lang="en", mail_status="failed")
    _wait_total(page, 1)
    assert _rows(page) == [f"formula.{marker.lower()}@example.test"]
    assert page.locator("[data-testid=console-leads] tbody td[data-col=mail_status]").inner_text() == "Échec"

    day = (now - timedelta(days=3)).date().isoformat()
    _filter(page, form="", lang="", mail_status="", date_from=day, date_to=day)
    _wait_total(page, 1)
    _filter(page, date_from="", date_to="", mail_status="sent", form="kyc_documentation")
    _wait_total(page, 27)

    # The export link carries the filter; the route checks the role and answers CSV.
    href = page.get_by_test_id("console-export").get_attribute("href")
    response = httpx2.get(site + href, headers={"cookie": _cookie_header(page)})
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/csv")
    assert "attachment" in response.headers["content-disposition"]
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig")), delimiter=";"))
    assert len(rows) == 27 and {r["form"] for r in rows} == {"kyc_documentation"}
    assert rows[0]["email"] == "p00." + marker.lower() + "@example.test"
    everything = httpx2.get(
        site + "/api/console/leads.csv", params={"search": marker}, headers={"cookie": _cookie_header(page)}
    ).text
    assert "'=SUM(A1)" in everything and not re.search(r"(^|[;\n])=SUM", everything)  # formula neutralised
    # The export is in the audit log with its filter, the search words left out.
    [(subject, counts)] = site_server.query(
        "SELECT subject, counts_json FROM console_audit WHERE action = 'export' ORDER BY id DESC LIMIT 1"
    )
    assert marker not in subject and json.loads(counts) == {"lead": 28}


def test_a_bad_filter_is_refused_with_a_clear_message_and_keeps_the_table(new_page, site):
    page = new_page()
    _login(page, site, "/console", CONSOLE_ADMIN_USER)
    _granted(page)
    before = page.get_by_test_id("console-total").inner_text()
    _filter(page, search="x" * 201)
    error = page.get_by_test_id("console-filter-error")
    error.wait_for()
    assert "200 caractères" in error.inner_text()
    assert page.get_by_test_id("console-total").inner_text() == before


def test_chart_and_funnel_show_the_database_figures(new_page, site, site_server):
    from marketing_site.services.console import _monday

    this_week = _monday(datetime.now(UTC).date()).isoformat()
    page = new_page()
    _login(page, site, "/console", CONSOLE_ADMIN_USER)
    _granted(page)
    page.locator("#charts summary").first.click()  # the chart's figures, under the chart
    table = page.get_by_test_id("console-weekly-table")
    row = table.locator("tbody tr").last
    assert row.locator("th").inner_text() == this_week
    before = int(row.locator("td[data-col=subscription_documentation]").inner_text())
    downloads_before = int(page.locator("[data-testid=console-funnel] tr[data-step=downloads] td").inner_text())
    thanked_before = int(page.locator("[data-testid=console-funnel] tr[data-step=thank_you] td").inner_text())
    booked_before = int(page.locator("[data-testid=console-funnel] tr[data-step=bookings] td").inner_text())
    demo_before = int(row.locator("td[data-col=demo]").inner_text())
    _seed_booking(site_server, f"chart-demo-{uuid.uuid4().hex[:6]}@example.test")
    _seed(
        site_server,
        [
            {
                "name": "Chart",
                "company": "Chart",
                "email": f"chart{i}@example.test",
                "form": "subscription_documentation",
                "lang": "en" if i else "fr",
            }
            for i in range(3)
        ],
    )
    page.reload()
    _granted(page)
    page.locator("#charts summary").first.click()
    row = page.get_by_test_id("console-weekly-table").locator("tbody tr").last
    assert table.locator("tbody tr").count() == 26
    assert int(row.locator("td[data-col=subscription_documentation]").inner_text()) == before + 3
    funnel = page.get_by_test_id("console-funnel")
    assert int(funnel.locator("tr[data-step=downloads] td").inner_text()) == downloads_before + 3
    # The demo booking: its own series and funnel step, and its lead is not a download.
    assert int(funnel.locator("tr[data-step=bookings] td").inner_text()) == booked_before + 1
    assert funnel.locator("tr[data-step=bookings] th").inner_text() == "Rendez-vous de démo"
    assert int(row.locator("td[data-col=demo]").inner_text()) == demo_before + 1
    headers = page.get_by_test_id("console-weekly-table").locator("thead th").all_inner_texts()
    assert "Rendez-vous de démo" in headers
    # The Document column and filter name demo leads in the page's language.
    _filter(page, form="demo")
    page.wait_for_function(
        "() => ((tds) => tds.length > 0 && tds.every((td) => td.innerText === 'Rendez-vous de démo'))"
        "([...document.querySelectorAll('[data-testid=console-leads] td[data-col=form]')])"
    )
    assert set(page.locator("[data-testid=console-leads] td[data-col=form]").all_inner_texts()) == {
        "Rendez-vous de démo"
    }
    # Thank-you views are measured page views (tests/test_browser_audience.py), not leads.
    assert int(funnel.locator("tr[data-step=thank_you] td").inner_text()) == thanked_before
    # The chart is drawn (bars in the SVG), by recharts on this page only.
    assert page.locator("[data-testid=console-weekly-chart] .recharts-bar-rectangle").count() > 0


# ----------------------------------------------------------------------------- bookings


def test_bookings_by_day_a_cancellation_on_the_persons_behalf_and_the_export(new_page, site, site_server, smtp):
    """A demo booked from New York: its day's heading, the slot in both zones, source, campaign
    and status; the team cancels it (the same button twice, the focus staying on it): the person
    is mailed, the row says so, the audit log has it; the export neutralises a formula."""
    from browser_checks import AXE, RUN_AXE

    from marketing_site.services.console_bookings import day_label

    marker = f"bk{uuid.uuid4().hex[:6]}"
    email = f"{marker}@example.test"
    booking_id = _seed_booking(
        site_server,
        email,
        zone="America/New_York",
        company=f"=1+{marker}",
        utm_source="newsletter",
        utm_campaign=marker,
    )
    start = _booking_start(site_server, booking_id)
    paris, new_york = start.astimezone(ZoneInfo("Europe/Paris")), start.astimezone(ZoneInfo("America/New_York"))
    page = new_page()
    page.add_init_script(path=str(AXE))
    _login(page, site, "/console", CONSOLE_ADMIN_USER)
    _granted(page)
    bookings = page.locator("#bookings")
    row = bookings.locator(f"tr[data-booking-id='{booking_id}']")
    row.wait_for()
    assert page.get_by_test_id("console-team-zone").inner_text() == "Europe/Paris"
    cells = {
        c: row.locator(f"td[data-col={c}]").inner_text()
        for c in ("team_time", "visitor_time", "source", "campaign", "status")
    }
    assert cells["team_time"] == f"{paris:%H:%M}–{(paris + timedelta(minutes=30)):%H:%M}"
    assert cells["visitor_time"].startswith(
        f"{new_york:%H:%M}–{(new_york + timedelta(minutes=30)):%H:%M} (America/New_York)"
    )
    assert (cells["source"], cells["campaign"], cells["status"]) == ("newsletter", marker, "Confirmé")
    assert email in row.locator("td[data-col=person]").inner_text()
    # Its day's heading, before it in the table.
    heading = row.locator("xpath=preceding-sibling::tr[contains(@class, 'console__day')][1]")
    assert heading.inner_text() == day_label(paris, "fr")
    assert page.evaluate(RUN_AXE) == []

    button = row.get_by_test_id("console-booking-cancel")
    button.click()
    page.wait_for_function(
        "(id) => document.querySelector(`tr[data-booking-id='${id}'] [data-testid=console-booking-cancel]`)"
        '?.innerText === "Confirmer l\'annulation"',
        arg=str(booking_id),
    )
    assert button.evaluate("(node) => node === document.activeElement")
    assert site_server.query("SELECT status FROM booking WHERE id = ?", booking_id) == [("confirmed",)]
    button.click()
    page.locator("[data-outcome=booking_cancelled]").wait_for()
    page.wait_for_function(
        "(id) => document.querySelector(`tr[data-booking-id='${id}']`)?.dataset.status === 'cancelled_team'",
        arg=str(booking_id),
    )
    assert row.locator("td[data-col=status]").inner_text() == "Annulé par l'équipe"
    assert row.get_by_test_id("console-booking-cancel").count() == 0
    assert site_server.query("SELECT status, cancelled_by FROM booking WHERE id = ?", booking_id) == [
        ("cancelled", "team")
    ]
    [(counts,)] = site_server.query(
        "SELECT counts_json FROM console_audit WHERE action = 'cancel-booking' ORDER BY id DESC LIMIT 1"
    )
    assert json.loads(counts) == {"booking": 1}
    # The person's mail (the sales one goes to the team), through the real SMTP server.
    deadline = time.monotonic() + 20
    while not (mails := [m for m in smtp.received() if m["To"] == email]) and time.monotonic() < deadline:
        time.sleep(0.1)
    [text] = [
        p.get_payload(decode=True).decode() for m in mails for p in m.walk() if p.get_content_type() == "text/plain"
    ]
    assert "Nous devons malheureusement annuler" in text

    href = page.get_by_test_id("console-bookings-export").get_attribute("href")
    response = httpx2.get(site + href, headers={"cookie": _cookie_header(page)})
    assert response.status_code == 200 and "attachment" in response.headers["content-disposition"]
    [exported] = [
        r
        for r in csv.DictReader(io.StringIO(response.content.decode("utf-8-sig")), delimiter=";")
        if r["email"] == email
    ]
    assert (exported["company"], exported["status"], exported["visitor_timezone"]) == (
        f"'=1+{marker}",
        "cancelled_team",
        "America/New_York",
    )


# ----------------------------------------------------------------------------- mail


def test_retry_one_failed_mail_then_all(new_page, site, site_server, smtp):
    """Failed and stuck mail are listed beside the counts, with when they last failed; retry sends them."""
    marker = f"retry{uuid.uuid4().hex[:6]}"
    ids = _seed(
        site_server,
        [
            {"name": "Retry", "company": marker, "email": f"{marker}.{i}@example.test", "mail": "failed"}
            for i in range(2)
        ]
        + [{"name": "Stuck", "company": marker, "email": f"{marker}.stuck@example.test", "mail": "stuck"}],
    )
    page = new_page()
    _login(page, site, "/console", CONSOLE_ADMIN_USER)
    _granted(page)
    attention = page.get_by_test_id("console-mail-attention")
    [(first_id,)] = site_server.query("SELECT id FROM outbox_message WHERE lead_id = ?", ids[0])
    [(stuck_id,)] = site_server.query("SELECT id FROM outbox_message WHERE lead_id = ?", ids[2])
    row = attention.locator(f"tr[data-message-id='{first_id}']")
    assert "550 5.1.1" in row.locator("td[data-col=last_error]").inner_text()
    assert row.get_attribute("data-state") == "failed" and row.locator("td[data-col=state]").inner_text()
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d", row.locator("td[data-col=last_failure_at]").inner_text())
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d", page.get_by_test_id("console-last-mail-failure").inner_text())
    stuck = attention.locator(f"tr[data-message-id='{stuck_id}']")
    assert stuck.get_attribute("data-state") == "stuck"
    assert int(page.get_by_test_id("console-outbox-stuck").inner_text()) >= 1
    assert int(page.get_by_test_id("console-outbox-failed").inner_text()) >= 2
    row.get_by_test_id("console-retry-one").click()
    page.get_by_test_id("console-requeued").wait_for()
    assert page.get_by_test_id("console-requeued").inner_text().startswith("1 ")
    # The outbox worker sends it to the real SMTP server.
    assert smtp.wait_for(1, subject=f"Console test {marker}.0@example.test")
    page.get_by_test_id("console-retry-all").click()
    assert smtp.wait_for(1, subject=f"Console test {marker}.1@example.test")
    stuck.get_by_test_id("console-retry-one").click()
    assert smtp.wait_for(1, subject=f"Console test {marker}.stuck@example.test")
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        statuses = {
            s for (s,) in site_server.query("SELECT status FROM outbox_message WHERE lead_id IN (?, ?, ?)", *ids)
        }
        if statuses == {"sent"}:
            break
        time.sleep(0.2)
    assert statuses == {"sent"}


# ----------------------------------------------------------------------------- data subjects


def test_data_subject_download_and_erasure_leave_nothing_and_an_audit_entry(new_page, site, site_server):
    marker = f"dsr{uuid.uuid4().hex[:6]}"
    email = f"{marker}@example.test"
    _seed(
        site_server,
        [
            {"name": "Personne", "company": marker, "email": email.upper(), "form": "ebook"},
            {"name": "Personne", "company": marker, "email": email, "form": "white_paper", "mail": "failed"},
        ],
    )
    # The same person booked a demo (still to come): the erasure cancels it and deletes it too.
    booking_id = _seed_booking(site_server, email)
    page = new_page()
    _login(page, site, "/console", CONSOLE_ADMIN_USER)
    _granted(page)
    page.locator("#console-subject-email").fill(email)
    page.get_by_test_id("console-subject-find").click()
    counts = page.get_by_test_id("console-subject-counts")
    counts.locator("li[data-holder=lead]").wait_for()
    assert counts.locator("li[data-holder=lead]").inner_text() == "Leads : 3 ligne(s)"
    assert counts.locator("li[data-holder=outbox_message]").inner_text() == "Courriels : 2 ligne(s)"
    assert counts.locator("li[data-holder=booking]").inner_text() == "Rendez-vous de démo : 1 ligne(s)"

    with page.expect_download() as download:
        page.get_by_test_id("console-subject-download").click()
    data = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert data["email"] == email
    assert sorted(lead["form"] for lead in data["data"]["lead"]) == ["demo", "ebook", "white_paper"]
    assert len(data["data"]["outbox_message"]) == 2
    assert [b["id"] for b in data["data"]["booking"]] == [booking_id]

    erase = page.get_by_test_id("console-subject-erase")
    assert erase.is_disabled()  # until the confirmation box is ticked
    page.get_by_test_id("console-erase-confirm").click()
    page.wait_for_function("() => !document.querySelector('[data-testid=console-subject-erase]').disabled")
    erase.click()
    page.wait_for_function(
        "() => document.querySelector('[data-testid=console-subject-result]')?.innerText.startsWith('Effacé')"
    )
    assert site_server.query("SELECT count(*) FROM lead WHERE lower(email) = ?", email) == [(0,)]
    assert site_server.query("SELECT count(*) FROM outbox_message WHERE lower(reply_to) = ?", email) == [(0,)]
    assert site_server.query("SELECT count(*) FROM booking WHERE id = ?", booking_id) == [(0,)]
    entries = site_server.query(
        "SELECT action, actor_sub, subject, counts_json FROM console_audit ORDER BY id DESC LIMIT 3"
    )
    assert [e[0] for e in entries] == ["erase", "download", "lookup"]
    assert {e[1] for e in entries} == {CONSOLE_ADMIN_USER["sub"]}
    assert len({e[2] for e in entries}) == 1  # the same subject, as a hash
    assert json.loads(entries[0][3]) == {"auth_session": 0, "booking": 1, "lead": 3, "outbox_message": 2}
    assert all(marker not in str(e) for e in entries)  # never the data itself
    # The console shows the log.
    audit = page.get_by_test_id("console-audit")
    assert audit.locator("tbody tr").first.locator("td[data-col=action]").inner_text() == "erase"
    assert audit.locator("tbody tr").first.locator("td[data-col=actor]").inner_text() == CONSOLE_ADMIN_USER["email"]
